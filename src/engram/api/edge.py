"""The HTTP edge: what every request meets before a route, REST and ``/mcp`` alike.

In order: a request id (``X-Request-ID``, echoed on the response and in every problem body);
the Host header against the trusted hosts (421), the Origin header against them and the CORS
origins (403); the body's declared size against the limit (413), and the body as it streams in
(413 as soon as it passes the limit, whatever Content-Length said); the caller
(``Principal``), resolved by an ``Authenticator`` on a worker thread (it may read the store;
401 when it refuses) for every path but the open ones (``OPEN_PATHS``: liveness, metrics, the
API's documents) and the console (which signs people in itself); then the app, with the caller
set for Memory's checks (engram.access). An exception that escapes the app becomes a 500
problem carrying the request id, which is logged with the traceback; a client that hangs up
before its body arrived is no server error: it is logged at INFO and counted as status 499
(nginx's "client closed request"), with no answer sent.

Why not Starlette's TrustedHostMiddleware and FastAPI's ``max_body_size``: both answer in plain
text without the request id (FastAPI's even replaces any response to an over-long request with
its own), TrustedHostMiddleware leaves Origin alone, and the MCP SDK's Host/Origin check guards
/mcp only. One check here serves every route (docs/decisions.md).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

import anyio
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import HTMLResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engram.access import LOCAL_ADMIN, Principal, acting_as
from engram.api.rest.problems import BODY_LIMIT_SCOPE_KEY, REQUEST_ID_SCOPE_KEY, problem
from engram.api.rest.problems import too_large as too_large_problem
from engram.errors import EngramError, InvalidInput
from engram.ids import new_id

logger = logging.getLogger("engram.api")

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
ALL_INTERFACES = frozenset({"0.0.0.0", "::", ""})
PRINCIPAL_SCOPE_KEY = "engram.principal"
MALFORMED_SCOPE_KEY = "engram.malformed"
"""Why the HTTP parser found a request malformed (engram.api.strict_http): the edge answers 400."""
OPEN_PATHS = frozenset({"/healthz", "/metrics", "/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"})
"""Paths served without a caller: they read no group's memory."""
CONSOLE_PATH = "/admin"
"""The console signs its visitors in itself (engram.api.console.auth)."""
BEARER_CHALLENGE = 'Bearer realm="engram"'
"""The WWW-Authenticate header of a 401 (RFC 6750)."""
CLIENT_CLOSED = 499
"""The status counted for a request whose client hung up before its body arrived (nginx's code)."""
_CLIENT_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
_HOST_PATTERN = re.compile(r"^(\*|(\*\.)?[a-z0-9_.:-]+)$")


Authenticator = Callable[[Headers], Principal]
"""Resolve the caller from a request's headers (on a worker thread: it may read the store);
raise an EngramError (Unauthorized: 401) to refuse it. engram.api.auth.KeyAuthenticator is
the server's."""


def open_access(_: Headers) -> Principal:
    """Admit every caller as the local administrator (for tests and embedding; not the server's)."""
    return LOCAL_ADMIN


def current_principal(scope: Scope) -> Principal:
    """Return the caller the edge resolved for this request (the local administrator outside the edge)."""
    principal = scope.get(PRINCIPAL_SCOPE_KEY)
    return principal if isinstance(principal, Principal) else LOCAL_ADMIN


def too_large(scope: Scope, size: int | None = None) -> Response:
    """Return the 413 for a body over the limit: a page for the console's forms (a person reads it),
    problem+json for everything else."""
    if not console_path(scope.get("path", "")):
        return too_large_problem(scope, size)
    limit = scope.get(BODY_LIMIT_SCOPE_KEY)
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><title>413</title>"
        f"<p>This form is larger than the server accepts ({limit} bytes): go back, shorten it and send it "
        f"again.</p><p>表单超出服务器允许的大小（{limit} 字节）：请返回，删减后重新提交。</p>",
        status_code=413,
    )


def console_path(path: str) -> bool:
    """Return whether ``path`` is the console's (its pages and forms, read by people)."""
    return path == CONSOLE_PATH or path.startswith(CONSOLE_PATH + "/")


def authenticated_path(path: str) -> bool:
    """Return whether a request to ``path`` needs a caller from the edge's authenticator."""
    return path not in OPEN_PATHS and not console_path(path)


def host_name(header: str | None) -> str | None:
    """Return the host of a Host header (``[::1]:8765`` → ``::1``), lower case, or None if malformed."""
    if not header:
        return None
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        rest = header[end + 1 :]
        if end < 0 or (rest and not re.fullmatch(r":\d{1,5}", rest)):
            return None
        return header[1:end]
    if header.count(":") == 1:
        header, port = header.split(":")
        if not port.isdigit():
            return None
    return header.rstrip(".") or None


class HostPolicy:
    """Which Host names a request may address, and which browser origins may call."""

    def __init__(self, hosts: Iterable[str], cors_origins: Iterable[str] = ()) -> None:
        """Raise InvalidInput(field="ENGRAM_TRUSTED_HOSTS") for a pattern other than host, *.domain or *."""
        self.hosts = [host.strip().lower().strip("[]") for host in hosts]
        for host in self.hosts:
            if not _HOST_PATTERN.match(host):
                raise InvalidInput(
                    f"trusted host {host!r} must be a host name, an address, *.domain or *",
                    field="ENGRAM_TRUSTED_HOSTS",
                )
        self.cors_origins = frozenset(origin.rstrip("/") for origin in cors_origins)

    @classmethod
    def for_server(
        cls, trusted_hosts: Iterable[str], bind: str, cors_origins: Iterable[str] = ()
    ) -> HostPolicy:
        """Return the loopback names, the bound address (unless all interfaces) and ``trusted_hosts``.

        Loopback names are always safe: a browser sends them only for pages served from loopback.
        """
        hosts = [*LOOPBACK_HOSTS, *trusted_hosts]
        if bind.strip("[]") not in ALL_INTERFACES:
            hosts.append(bind)
        return cls(hosts, cors_origins)

    def admits_host(self, host: str | None) -> bool:
        """Return True when ``host`` (a name from host_name) matches a trusted host pattern."""
        if host is None:
            return False
        for pattern in self.hosts:
            if pattern == "*" or host == pattern:
                return True
            if pattern.startswith("*.") and host.endswith(pattern[1:]):
                return True
        return False

    def admits_origin(self, origin: str) -> bool:
        """Return True for a CORS origin, or a page served from a trusted host (the server's own)."""
        if origin.rstrip("/") in self.cors_origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in {"http", "https"} and self.admits_host(host_name(parts.netloc))


class BodyTooLarge(HTTPException):
    """The request body streamed past the limit (413); the problem handlers answer it."""

    def __init__(self) -> None:
        super().__init__(413, "Content too large")


class _QuietDisconnects(logging.Filter):
    """Drop the MCP SDK's error record (with its traceback) for a client that hung up mid-body:
    the SDK catches the disconnect and answers 500 to nobody; the edge counts 499 and notes it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], ClientDisconnect))


_QUIET_DISCONNECTS = _QuietDisconnects()


class Edge:
    """ASGI middleware in front of the whole app; see the module docstring for what it checks."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        policy: HostPolicy,
        max_body_bytes: int,
        authenticate: Authenticator = open_access,
    ) -> None:
        self.app = app
        self.policy = policy
        self.max_body_bytes = max_body_bytes
        self.authenticate = authenticate
        sdk = logging.getLogger("mcp.server.streamable_http")
        if _QUIET_DISCONNECTS not in sdk.filters:
            sdk.addFilter(_QUIET_DISCONNECTS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan: nothing to check
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        offered = headers.get("x-request-id", "")
        rid = offered if _CLIENT_REQUEST_ID.match(offered) else new_id("req")
        scope[REQUEST_ID_SCOPE_KEY] = rid
        scope[BODY_LIMIT_SCOPE_KEY] = self.max_body_bytes
        status = 0
        received = 0
        body_done = hung_up = False

        async def receive_within_limit() -> Message:
            nonlocal received, body_done, hung_up
            message = await receive()
            if message["type"] == "http.disconnect":
                hung_up = hung_up or not body_done
            else:
                body_done = not message.get("more_body", False)
            received += len(message.get("body", b""))
            if received > self.max_body_bytes:
                raise BodyTooLarge
            return message

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                if hung_up and message["status"] >= 500:  # an app that caught the disconnect (the MCP SDK)
                    message = {**message, "status": CLIENT_CLOSED}
                status = message["status"]
                MutableHeaders(scope=message)["X-Request-ID"] = rid
            await send(message)

        try:
            refusal = self._refusal(scope, headers)
            principal = None
            if refusal is None and authenticated_path(scope["path"]):
                principal, refusal = await self._caller(scope, headers)
            if refusal is not None:
                await refusal(scope, receive, send_with_id)
                return
            scope[PRINCIPAL_SCOPE_KEY] = principal
            with acting_as(principal):
                await self.app(scope, receive_within_limit, send_with_id)
        except BodyTooLarge:  # raised where no route's handler could answer it
            if status:
                raise
            await too_large(scope)(scope, receive, send_with_id)
            return
        except ClientDisconnect:  # the caller hung up mid-body: nothing was done, nobody to answer
            hung_up = True
            if not status:
                await Response(status_code=CLIENT_CLOSED)(scope, receive, send_with_id)
        except Exception:  # the one place an unexpected error becomes a 500 problem
            logger.exception("request %s failed: %s %s", rid, scope["method"], scope["path"])
            if status:
                raise
            detail = f"the server failed to handle this request; its log has the details under {rid}"
            await problem(scope, 500, "Internal error", detail)(scope, receive, send_with_id)
            return
        if hung_up:
            logger.info("request %s: the client closed the connection before its body arrived", rid)
        elif status >= 500:
            logger.error("request %s answered %d: %s %s", rid, status, scope["method"], scope["path"])

    def _refusal(self, scope: Scope, headers: Headers) -> Response | None:
        """Return the problem response refusing this request before any route sees it, or None."""
        if malformed := scope.get(MALFORMED_SCOPE_KEY):
            return problem(scope, 400, "Malformed request", malformed, field="Host")
        if not self.policy.admits_host(host_name(headers.get("host"))):
            shown = (headers.get("host") or "")[:64]
            detail = f"Host {shown!r} is not served here; add it to ENGRAM_TRUSTED_HOSTS to serve it"
            return problem(scope, 421, "Misdirected request", detail, field="Host")
        origin = headers.get("origin")
        if origin is not None and not self.policy.admits_origin(origin):
            detail = f"Origin {origin[:64]!r} may not call this server; see ENGRAM_CORS_ORIGINS"
            return problem(scope, 403, "Origin not allowed", detail, field="Origin")
        declared = headers.get("content-length", "")
        if declared.isascii() and declared.isdigit():  # else the server refuses the request itself
            if len(declared) > 18:  # int() of thousands of digits is slow, then an error
                return too_large(scope)
            if int(declared) > self.max_body_bytes:
                return too_large(scope, int(declared))
        return None

    async def _caller(self, scope: Scope, headers: Headers) -> tuple[Principal | None, Response | None]:
        """Return (the caller, None), or (None, the problem refusing the request)."""
        try:
            return await anyio.to_thread.run_sync(self.authenticate, headers), None
        except EngramError as exc:
            refusal = problem(scope, exc.status, exc.title, exc.detail, field=exc.field, **exc.extra)
            refusal.headers.update(exc.headers)
            if exc.status == 401:
                refusal.headers["WWW-Authenticate"] = BEARER_CHALLENGE
            return None, refusal
