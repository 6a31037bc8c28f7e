"""Who is signed in to the console, and what they may do: principals, sessions and CSRF tokens.

A :class:`Principal` (name, role, groups) lives in the signed session cookie. It comes from an
API key typed on the sign-in page, checked by ONE function, :func:`check_api_key` (the seam
real keys plug into), or, while no keys exist and the server listens on loopback only, every
visitor is signed in as the local administrator ``local`` (the machine's own user; nothing
else can reach a loopback port). Every POST carries the session's CSRF token. Roles: ``read``
sees everything in its groups and changes nothing; ``write`` creates, edits, deletes, merges
and settles reviews; ``admin`` also undoes operations.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import Request
from starlette.exceptions import HTTPException

Role = Literal["read", "write", "admin"]
_RANK: dict[str, int] = {"read": 0, "write": 1, "admin": 2}
ACTOR_PREFIX = "console:"


@dataclass(frozen=True, slots=True)
class Principal:
    """A signed-in user of the console: ``groups`` None means every group."""

    name: str
    role: Role
    groups: frozenset[str] | None = None

    def can(self, role: Role) -> bool:
        """Return whether this principal holds ``role`` or a stronger one."""
        return _RANK[self.role] >= _RANK[role]

    def sees(self, group_id: str) -> bool:
        """Return whether this principal may read and (by role) change ``group_id``."""
        return self.groups is None or group_id in self.groups

    @property
    def actor(self) -> str:
        """Return the actor recorded on the operations this principal makes (``console:<name>``)."""
        return ACTOR_PREFIX + self.name

    def to_session(self) -> dict[str, Any]:
        """Return the principal as JSON for the session cookie."""
        return {
            "name": self.name,
            "role": self.role,
            "groups": None if self.groups is None else sorted(self.groups),
        }

    @classmethod
    def from_session(cls, data: dict[str, Any]) -> Principal:
        """Return the principal a session stored."""
        groups = data.get("groups")
        return cls(str(data["name"]), data["role"], None if groups is None else frozenset(groups))


KeyCheck = Callable[[str], Principal | None]
"""Return the principal an API key names, or None for an unknown key."""

LOCAL_ADMIN = Principal("local", "admin", None)


def check_api_key(key: str) -> Principal | None:
    """Return the principal an API key names, or None: the one place console keys are checked.

    No API keys exist yet, so every key is refused; the console on loopback signs everyone in
    as :data:`LOCAL_ADMIN` instead. Wire real keys here (or pass ``key_check`` to the app).
    """
    del key
    return None


@dataclass(frozen=True, slots=True)
class Access:
    """How the console admits people: a key check (None: no keys exist) and whether it is on loopback."""

    key_check: KeyCheck | None
    loopback: bool

    @property
    def automatic(self) -> bool:
        """Return whether visitors are signed in as the local administrator without a key."""
        return self.key_check is None and self.loopback


def principal(request: Request) -> Principal | None:
    """Return the signed-in principal, signing the local administrator in when access is automatic."""
    stored = request.session.get("principal")
    if stored is not None:
        return Principal.from_session(stored)
    access: Access = request.app.state.access
    if access.automatic:
        sign_in(request, LOCAL_ADMIN)
        return LOCAL_ADMIN
    return None


def sign_in(request: Request, who: Principal) -> None:
    """Start a fresh session for ``who`` with a new CSRF token (keeping the language and group)."""
    keep = {k: request.session[k] for k in ("group",) if k in request.session}
    request.session.clear()
    request.session.update(keep, principal=who.to_session(), csrf=secrets.token_urlsafe(32))


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
