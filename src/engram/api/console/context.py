"""What every console route starts from: the memory, the signed-in principal, the group, redirects."""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import RedirectResponse
from starlette.exceptions import HTTPException

from engram.api.console.auth import Principal, Role, check_csrf, principal, require
from engram.memory import Memory

MOUNT = "/admin"
"""Where the console is mounted; every link and redirect starts here."""


def memory_of(request: Request) -> Memory:
    """Return the Memory the console serves."""
    memory: Memory = request.app.state.memory
    return memory


def current_group(request: Request) -> str:
    """Return the group the visitor works in: the session's choice, else the default group (the
    key's only group when it has one)."""
    chosen = request.session.get("group")
    if isinstance(chosen, str):
        return chosen
    fallback = memory_of(request).settings.default_group
    who = principal(request)
    return fallback if who is None else who.default_group(fallback)


def flash(request: Request, message_id: str, **values: str) -> None:
    """Queue a message for the next page the visitor sees (kept in the session)."""
    request.session.setdefault("flash", []).append([message_id, values])


def back_to(target: str | None, default: str = f"{MOUNT}/episodes") -> str:
    """Return ``target`` when it is a path inside the console (never another site), else ``default``."""
    if not target or target.startswith("//") or "\\" in target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith(MOUNT):
        return default
    return target


def see_other(url: str) -> RedirectResponse:
    """Return a 303 redirect (after a POST, the browser GETs ``url``)."""
    return RedirectResponse(url, status_code=303)


def reader(request: Request, group_id: str | None = None) -> tuple[Principal, Memory, str]:
    """Return (principal, memory, group) for a page that reads; ``group_id`` (a link's) becomes the
    session's group. Refuses 401 (not signed in) or 403 (a group outside the principal's)."""
    who = require(principal(request), "read")
    memory = memory_of(request)
    if group_id:
        request.session["group"] = memory.group(group_id)
    group = current_group(request)
    if not who.sees(group):
        raise HTTPException(403, "group")
    return who, memory, group


def writer(request: Request, csrf_token: str, role: Role = "write") -> tuple[Principal, Memory, str]:
    """Return (principal, memory, group) for a form that writes: CSRF token and role checked."""
    check_csrf(request, csrf_token)
    who, memory, group = reader(request)
    require(who, role)
    return who, memory, group
