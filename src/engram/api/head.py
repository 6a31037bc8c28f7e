"""HEAD on the REST API: answered as the GET of the same URL would be, headers only (RFC 9110 §9.3.2).

FastAPI routes answer only the methods they declare, so ``HEAD /v1/episodes/{id}`` was a 405.
Declaring HEAD on each route would add a ``head`` operation per path to the OpenAPI document
(a fixed contract); this middleware serves HEAD for every GET under ``/v1/`` instead, with the
GET's status and headers (ETag, Content-Length, Content-Type) and no body. ``/mcp`` is left
alone: its GET opens an event stream that never ends.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

PREFIX = "/v1/"
"""HEAD is served as GET under this path prefix (the REST API)."""


class HeadAsGet:
    """ASGI middleware: run a HEAD request under ``/v1/`` as a GET and send its headers only."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; a HEAD under ``/v1/`` goes on as a GET whose body is dropped."""
        if scope["type"] != "http" or scope["method"] != "HEAD" or not scope["path"].startswith(PREFIX):
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        # A copy: the server reads the method of its own scope to send no body (uvicorn checks
        # Content-Length otherwise); the matched route goes back out for the metrics' template.
        inner = {**scope, "method": "GET"}
        try:
            await self.app(inner, receive, headers_only)
        finally:
            if "route" in inner:
                scope["route"] = inner["route"]
