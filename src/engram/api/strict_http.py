"""HTTP/1.1 parsing for ``engram serve``: uvicorn's httptools protocol, refusing what h11 refuses.

httptools (Node's llhttp) parses a request in a fraction of h11's time, but accepts requests that
RFC 9112 §3.2 has a server refuse and h11 does: a second ``Host`` header (the edge's Host check,
engram.api.edge, reads the first), an HTTP/1.1 request without one, and a request target in
absolute form (``GET http://other.example/healthz``: uvicorn keeps only its path, so a route would
answer as if this host had been named). Such a request is marked in its scope, and the edge
answers it with a 400 problem before any route runs. Marking rather than failing the parse keeps
the connection's earlier pipelined requests answered, in order.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from engram.api.edge import MALFORMED_SCOPE_KEY


def malformed(target: bytes, hosts: int, http_version: str) -> str | None:
    """Return why a request with this target and number of Host headers is refused, or None."""
    if not target.startswith(b"/") and target != b"*":
        return "the request target must be a path (origin form), not a URL naming a host"
    if hosts > 1 or (hosts == 0 and http_version == "1.1"):
        return f"an HTTP/1.1 request names exactly one Host; this one names {hosts}"
    return None


class StrictHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol marking requests with two Host headers, none in HTTP/1.1, or a
    target other than origin form (``/path``) or ``*`` as malformed."""

    def on_headers_complete(self) -> None:
        """Let uvicorn build the request's scope, then mark it when it is malformed."""
        hosts = sum(1 for name, _ in self.headers if name == b"host")
        reason = malformed(self.url, hosts, self.parser.get_http_version())
        scope = self.scope
        super().on_headers_complete()
        if reason is not None:
            scope[MALFORMED_SCOPE_KEY] = reason  # type: ignore[literal-required]  # an extension key
