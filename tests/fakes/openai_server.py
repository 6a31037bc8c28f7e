"""A small OpenAI-compatible server on 127.0.0.1 for tests: ``POST /v1/embeddings``.

Embeddings are deterministic bags of hashed words, so texts sharing words are similar.
``fail_next`` makes the next requests answer 500, to test error handling.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

DIMENSIONS = 64


def bag_of_words(text: str, dimensions: int = DIMENSIONS) -> list[float]:
    """Return a hashed bag-of-words vector of ``text`` (not normalised)."""
    vector = [0.0] * dimensions
    for word in re.findall(r"\w+", text.lower()):
        vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % dimensions] += 1.0
    return vector


@dataclass
class FakeOpenAI:
    """State of the fake: requests seen and failures to inject."""

    base_url: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)
    fail_next: int = 0

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
