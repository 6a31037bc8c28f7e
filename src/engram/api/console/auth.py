"""Who is signed in to the console, and what they may do: sessions, CSRF tokens, roles.

People sign in with an API key (the same keys as REST and MCP), checked by ONE function,
:func:`check_api_key`. The signed session cookie keeps the key's id, never the key; every
request looks the key up again (:class:`SignedIn`), so a revoked key's session ends at its
next request, in every process. While no key is in force, a loopback server signs every
visitor from its own machine in as the local administrator ``local`` (engram.api.auth's
rule: a loopback Host, no proxy headers). Every POST carries the session's CSRF token. Roles:
``read`` sees everything in its groups and changes nothing; ``write`` creates, edits, deletes
and settles reviews; ``admin`` also merges entities and undoes operations.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Any

import anyio
from fastapi import Request
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from engram.access import LOCAL_ADMIN, NOBODY, Principal, acting_as
from engram.api.auth import KeyCheck, is_local_request
from engram.models.keys import Role

CONSOLE_ACTOR = "console:local"
"""The actor of the local administrator's operations (a key's operations record the key's name)."""
PRINCIPAL_SCOPE_KEY = "engram.console.principal"
STATIC = "/static/"

__all__ = ["CONSOLE_ACTOR", "Access", "KeyCheck", "Principal", "Role", "SignedIn", "check_api_key"]


def check_api_key(keys: KeyCheck, key: str) -> Principal | None:
    """Return the principal an API key typed on the sign-in page names, or None: the one place
    console keys are checked."""
    return keys.verify(key.strip()) if key.strip() else None


@dataclass(frozen=True, slots=True)
class Access:
    """How the console admits people: the API keys, and whether the server is bound to loopback."""

    keys: KeyCheck
    loopback: bool

    def automatic(self, headers: Headers) -> bool:
        """Return whether this visitor is signed in as the local administrator without a key."""
        return self.loopback and is_local_request(headers) and not self.keys.configured()

    def resolve(self, session: dict[str, Any], headers: Headers) -> Principal | None:
        """Return who the session belongs to now, ending it when its key is no longer in force.

        A session of the local administrator lasts only while no key is in force.
        """
        stored = session.get("principal")
        if isinstance(stored, dict):
            key_id = stored.get("key_id")
            who = self.keys.principal(key_id) if isinstance(key_id, str) else None
            if who is None and key_id is None and self.automatic(headers):
                who = LOCAL_ADMIN
            if who is not None:
                return who
            session.clear()  # revoked, or keys appeared since the local administrator signed in
        if self.automatic(headers):
            start_session(session, LOCAL_ADMIN)
            return LOCAL_ADMIN
        return None


class SignedIn:
    """ASGI middleware inside the session's: resolves who is signed in once per request (on a
    worker thread: it reads the store) and makes them the caller Memory checks."""

    def __init__(self, app: ASGIApp, access: Access) -> None:
        self.app = app
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        who = None
        if not scope["path"].startswith(scope.get("root_path", "") + STATIC):
            who = await anyio.to_thread.run_sync(self.access.resolve, scope["session"], Headers(scope=scope))
        scope[PRINCIPAL_SCOPE_KEY] = who
        with acting_as(who or NOBODY):
            await self.app(scope, receive, send)


def principal(request: Request) -> Principal | None:
    """Return the signed-in principal of this request, or None."""
    who = request.scope.get(PRINCIPAL_SCOPE_KEY)
    return who if isinstance(who, Principal) else None


def start_session(session: dict[str, Any], who: Principal) -> None:
    """Start a fresh session for ``who`` with a new CSRF token (keeping the chosen group)."""
    keep = {k: session[k] for k in ("group",) if k in session}
    session.clear()
    session.update(keep, principal={"key_id": who.key_id, "name": who.name}, csrf=secrets.token_urlsafe(32))


def sign_in(request: Request, who: Principal) -> None:
    """Start a fresh session for ``who`` (after the sign-in form)."""
    start_session(request.session, who)
    request.scope[PRINCIPAL_SCOPE_KEY] = who


def sign_out(request: Request) -> None:
    """End the session."""
    request.session.clear()


def csrf_token(request: Request) -> str:
    """Return the session's CSRF token (creating one for a visitor not signed in yet)."""
    token = request.session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        request.session["csrf"] = token
    return token


def check_csrf(request: Request, sent: str) -> None:
    """Refuse (403) a form whose CSRF token is not the session's."""
    expected = request.session.get("csrf")
    if not isinstance(expected, str) or not hmac.compare_digest(expected.encode(), sent.encode()):
        raise HTTPException(403, "csrf")


def require(who: Principal | None, role: Role) -> Principal:
    """Return ``who`` when it holds ``role``; else refuse: 401 (not signed in) or 403."""
    if who is None:
        raise HTTPException(401, "sign-in")
    if not who.can(role):
        raise HTTPException(403, "role")
    return who
