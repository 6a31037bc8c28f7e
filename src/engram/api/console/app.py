"""The console application mounted at ``/admin``: its session, static files, pages and error pages.

A sub-application rather than routes of the API app, so that its errors are HTML pages (the
API's are problem+json) and its session cookie stays on ``/admin``.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware

from engram.api.console import audit, entities, episodes, health, references, review, session, suggest
from engram.api.console.auth import Access, KeyCheck, SignedIn, principal
from engram.api.console.context import MOUNT
from engram.api.console.render import environment, page
from engram.errors import EngramError
from engram.memory import Memory

SESSION_COOKIE = "engram_console"
SESSION_SECONDS = 8 * 3600
logger = logging.getLogger("engram.console")


def create_console(memory: Memory, *, loopback: bool, keys: KeyCheck | None = None) -> FastAPI:
    """Return the console app serving ``memory``; mount it at ``/admin``.

    People sign in with the API keys of ``keys`` (default: ``memory.keys``); while none is in
    force, a loopback server signs its own machine's visitors in as the local administrator.
    Sessions are signed with ``settings.console_secret`` (a random secret per process when unset).
    """
    console = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    console.state.memory = memory
    access = Access(keys or memory.keys, loopback)
    console.state.access = access
    console.state.templates = environment()
    secret = memory.settings.console_secret
    console.add_middleware(SignedIn, access=access)  # inside the session middleware, added next
    console.add_middleware(
        SessionMiddleware,
        secret_key=secret.get_secret_value() if secret else secrets.token_urlsafe(32),
        session_cookie=SESSION_COOKIE,
        max_age=SESSION_SECONDS,
        path=MOUNT,
        same_site="lax",
        https_only=memory.settings.console_https_only,
    )
    static = Path(str(files("engram.api.console").joinpath("static")))
    console.mount("/static", StaticFiles(directory=static), name="static")
    for module in (session, episodes, entities, references, review, audit, health, suggest):
        console.include_router(module.router)
    console.middleware("http")(_security_headers)
    console.add_exception_handler(HTTPException, _http_error)
    console.add_exception_handler(RequestValidationError, _invalid_request)
    console.add_exception_handler(EngramError, _engram_error)
    console.add_exception_handler(Exception, _unexpected)
    return console


SECURITY_HEADERS = {
    # Scripts and styles come from the console itself; inline styles only (the health page's bars).
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


async def _security_headers(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    response = await call_next(request)
    response.headers.update(SECURITY_HEADERS)
    if not request.url.path.startswith(f"{MOUNT}/static/"):
        response.headers["Cache-Control"] = "no-store"  # pages show private memory
    return response


def _error_page(request: Request, status: int, message_id: str, detail: str = "") -> Response:
    return page(
        request, "error.html", principal(request), status, status=status, message_id=message_id, detail=detail
    )


def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 401:
        return RedirectResponse(f"{MOUNT}/sign-in?next={request.url.path}", status_code=303)
    reasons = {"csrf": "error.csrf", "role": "error.role", "group": "error.group"}
    message = reasons.get(str(exc.detail), "error.not_found" if exc.status_code == 404 else "error.generic")
    return _error_page(request, exc.status_code, message)


def _invalid_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return _error_page(request, 422, "error.invalid", "; ".join(str(e.get("msg", "")) for e in exc.errors()))


def _engram_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, EngramError)
    message = {403: "error.role", 404: "error.not_found", 503: "error.store"}.get(exc.status, "error.invalid")
    if exc.status == 403 and exc.field == "group_id":
        message = "error.group"
    return _error_page(request, exc.status, message, exc.detail)


def _unexpected(request: Request, exc: Exception) -> Response:
    logger.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return HTMLResponse("<!doctype html><title>500</title><p>Internal error: see the server log.</p>", 500)
