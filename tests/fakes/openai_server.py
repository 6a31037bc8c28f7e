"""A small OpenAI-compatible server on 127.0.0.1 for tests: embeddings and chat completions.

``POST /v1/embeddings``: deterministic bags of hashed words, so texts sharing words are
similar. ``fail_next`` makes the next requests answer 500, to test error handling.

``POST /v1/chat/completions``: answers are scripted per test with ``script(ChatReply(...),
...)``, a queue consumed one reply per request (status, content or raw body, headers such
as Retry-After, a delay before answering). With the queue empty it answers 500. Requests
are recorded in ``chat_requests``.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

DIMENSIONS = 64


def bag_of_words(text: str, dimensions: int = DIMENSIONS) -> list[float]:
    """Return a hashed bag-of-words vector of ``text`` (not normalised)."""
    vector = [0.0] * dimensions
    for word in re.findall(r"\w+", text.lower()):
        vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % dimensions] += 1.0
    return vector


@dataclass
class ChatReply:
    """One scripted answer to a chat completion request.

    ``content`` becomes the assistant message of a well-formed completion with ``usage``;
    ``body`` (a dict as JSON, a str verbatim) replaces the whole response body instead.
    """

    content: str | None = None
    status: int = 200
    body: dict[str, Any] | str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    prompt_tokens: int = 100
    completion_tokens: int = 20

    def response(self, model: str) -> Response:
        """Return the HTTP response this reply scripts."""
        if isinstance(self.body, str):
            return Response(self.body, self.status, self.headers, media_type="application/json")
        body = self.body
        if body is None:
            body = {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": self.content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": self.prompt_tokens,
                    "completion_tokens": self.completion_tokens,
                    "total_tokens": self.prompt_tokens + self.completion_tokens,
                },
            }
        return JSONResponse(body, self.status, self.headers)


@dataclass
class FakeOpenAI:
    """State of the fake: requests seen, failures to inject, scripted chat replies."""

    base_url: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)
    fail_next: int = 0
    chat_requests: list[dict[str, Any]] = field(default_factory=list)
    chat_replies: deque[ChatReply] = field(default_factory=deque)

    def script(self, *replies: ChatReply) -> None:
        """Replace the queue of chat replies and forget earlier chat requests."""
        self.chat_replies = deque(replies)
        self.chat_requests.clear()

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/embeddings")
        async def embeddings(request: Request) -> JSONResponse:
            body = await request.json()
            self.requests.append(body)
            if self.fail_next > 0:
                self.fail_next -= 1
                return JSONResponse({"error": {"message": "overloaded"}}, status_code=500)
            inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
            data = [
                {"object": "embedding", "index": i, "embedding": bag_of_words(t)}
                for i, t in enumerate(inputs)
            ]
            return JSONResponse({"object": "list", "data": data, "model": body["model"]})

        @app.post("/v1/chat/completions")
        async def chat_completions(request: Request) -> Response:
            body = await request.json()
            self.chat_requests.append(body)
            if not self.chat_replies:
                return JSONResponse({"error": {"message": "no scripted reply"}}, status_code=500)
            reply = self.chat_replies.popleft()
            if reply.delay:
                await asyncio.sleep(reply.delay)
            return reply.response(str(body.get("model")))

        return app


@contextmanager
def serve_fake_openai(port: int) -> Iterator[FakeOpenAI]:
    """Serve a FakeOpenAI on 127.0.0.1:``port`` for the duration of the block."""
    fake = FakeOpenAI(base_url=f"http://127.0.0.1:{port}/v1")
    server = uvicorn.Server(uvicorn.Config(fake.app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("fake OpenAI server did not start")
        time.sleep(0.02)
    try:
        yield fake
    finally:
        server.should_exit = True
        thread.join(timeout=10)
