"""HTTP/1.1 parsing for ``engram serve``: uvicorn's httptools protocol, refusing what h11 refuses.

httptools (Node's llhttp) parses a request in a fraction of h11's time, but accepts two requests
that RFC 9112 §3.2 has a server refuse and h11 does: a second ``Host`` header (the edge's Host
check, engram.api.edge, reads the first) and a request target in absolute form (``GET
http://other.example/healthz``: uvicorn keeps only its path, so a route would answer as if this
host had been named). Both get a 400 here before the application sees them, as does an HTTP/1.1
request without a ``Host``.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class RefusedRequest(Exception):
    """A request the server must refuse: httptools reports it as a parser error, uvicorn as a 400."""


class StrictHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol that refuses two Host headers, none in HTTP/1.1, and targets
    other than origin form (``/path``) or ``*``."""

    def on_headers_complete(self) -> None:
        """Check the target and the Host headers, then let uvicorn build the request's scope."""
        if not self.url.startswith(b"/") and self.url != b"*":
            raise RefusedRequest("the request target must be a path (origin form)")
        hosts = sum(1 for name, _ in self.headers if name == b"host")
        if hosts > 1 or (hosts == 0 and self.parser.get_http_version() == "1.1"):
            raise RefusedRequest("an HTTP/1.1 request names exactly one Host")
        super().on_headers_complete()
