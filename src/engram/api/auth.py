"""Who is calling over HTTP: an API key (``Authorization: Bearer <key>``), or the local operator.

:class:`KeyAuthenticator` is the edge's authenticator (engram.api.edge) for REST and ``/mcp``;
the console signs people in with the same keys (engram.api.console.auth). The rules:

- a request with a bearer key is served as that key (its name, role and groups) while the key
  is in force; an unknown, malformed or revoked key is 401;
- a request without one is served as the local administrator only when no key is in force, the
  server is bound to loopback, the request names a loopback Host and came through no proxy
  (no ``Forwarded`` / ``X-Forwarded-For``): the machine's own user; otherwise 401.
"""

from __future__ import annotations

from typing import Protocol

from starlette.datastructures import Headers

from engram.access import LOCAL_ADMIN, Principal
from engram.api.edge import LOOPBACK_HOSTS, host_name
from engram.errors import Unauthorized

PROXY_HEADERS = ("forwarded", "x-forwarded-for")


class KeyCheck(Protocol):
    """The API keys a server checks callers against (engram.keys.Keyring)."""

    def verify(self, key: str) -> Principal | None:
        """Return the principal of a key in force, or None."""

    def principal(self, key_id: str) -> Principal | None:
        """Return the principal of the key with this id while it is in force, or None."""

    def configured(self) -> bool:
        """Return whether any key is in force."""


def is_local_request(headers: Headers) -> bool:
    """Return whether a request addressed a loopback name directly (no proxy header): the machine's own."""
    if any(name in headers for name in PROXY_HEADERS):
        return False
    return host_name(headers.get("host")) in LOOPBACK_HOSTS


class KeyAuthenticator:
    """Resolve a request's caller from its bearer key; see the module docstring for the rules."""

    def __init__(self, keys: KeyCheck, *, loopback: bool) -> None:
        """``loopback``: the server is bound to a loopback address (the local operator may exist)."""
        self.keys = keys
        self.loopback = loopback

    def __call__(self, headers: Headers) -> Principal:
        """Return the caller; raise Unauthorized (field Authorization) to refuse the request."""
        sent = headers.get("authorization")
        if sent is None:
            if not self.keys.configured():
                if self.loopback and is_local_request(headers):
                    return LOCAL_ADMIN
                raise Unauthorized(
                    "this server has no API keys yet, so it serves only its own machine on loopback; "
                    "create one with `engram keys create`",
                    field="Authorization",
                )
            raise Unauthorized(
                "this server needs an API key: send Authorization: Bearer <key>", field="Authorization"
            )
        scheme, _, key = sent.strip().partition(" ")
        if scheme.lower() != "bearer" or not key.strip():
            raise Unauthorized("send the API key as Authorization: Bearer <key>", field="Authorization")
        who = self.keys.verify(key.strip())
        if who is None:
            raise Unauthorized(
                "this API key is not valid: unknown, revoked, expired or mistyped", field="Authorization"
            )
        return who
