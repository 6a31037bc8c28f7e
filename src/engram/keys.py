"""API keys: create, list, revoke, and verify the key a request presents.

A key is ``ek_`` followed by 43 URL-safe characters (32 random bytes from ``secrets``). The
store keeps its SHA-256 digest (hex) and its first 12 characters, never the key: a key is
found by its digest with one indexed read, so verification costs one hash and one lookup.
A plain digest is enough because the key is random with 256 bits of entropy; a slow password
hash (bcrypt, scrypt, Argon2) protects guessable secrets and would add milliseconds to every
request (docs/decisions.md, "API keys").

Keys live in the store, so every process serving it sees a new or revoked key at its next
request: nothing is cached. ``last_used_at`` is written at most once a minute per key. A key
may expire (``expires_at``): from then on it is refused like a revoked one, but it still counts
as configured, so expiry never reopens a server to callers without a key.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from engram.access import Principal, requires
from engram.errors import Conflict, InvalidInput, NotFound, StoreError, shown
from engram.ids import new_id
from engram.models.episodes import ID_PATTERN
from engram.models.keys import ROLES, ApiKey, CreatedKey, Role
from engram.storage.protocol import Storage

KEY_PREFIX = "ek_"
SHOWN_PREFIX = 12
"""Characters of a key kept (and listed) to recognise it."""
MAX_KEY_CHARS = 256
"""Longer bearer tokens are refused without a lookup."""
TOUCH_EVERY = timedelta(minutes=1)
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
RESERVED_NAMES = frozenset({"rest", "mcp", "cli", "console", "local", "library", "nobody"})
"""Actors Engram records for callers without a key: a key may not take one of these names."""
MAX_GROUPS = 1000

logger = logging.getLogger("engram.keys")


def digest(key: str) -> str:
    """Return the SHA-256 digest of ``key`` as 64 hex characters (what the store keeps)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def in_force(key: ApiKey, now: datetime) -> bool:
    """Return whether ``key`` is accepted at ``now``: neither revoked nor expired."""
    return key.revoked_at is None and (key.expires_at is None or now < key.expires_at)


def _checked_groups(groups: Iterable[str] | None, role: Role) -> list[str] | None:
    """Return the groups of a new key, sorted and unique; raise InvalidInput (field ``group_ids``)."""
    if groups is None:
        if role != "admin":
            raise InvalidInput(f"a {role} key needs at least one group", field="group_ids")
        return None
    group_list = sorted(set(groups))
    if not group_list:
        raise InvalidInput("name at least one group (or every group, for an admin key)", field="group_ids")
    if len(group_list) > MAX_GROUPS:
        raise InvalidInput(f"a key sees at most {MAX_GROUPS} groups", field="group_ids")
    for group in group_list:
        if not re.fullmatch(ID_PATTERN, group):
            raise InvalidInput(
                f"group {shown(group)} must be 1-128 characters of A-Z a-z 0-9 . _ : -", field="group_ids"
            )
    return group_list


def principal_of(key: ApiKey) -> Principal:
    """Return the principal a stored key stands for."""
    groups = None if key.group_ids is None else frozenset(key.group_ids)
    return Principal(key.name, key.role, groups, key.id)


class Keyring:
    """The API keys of one store. Thread-safe (every call reads or writes the store)."""

    def __init__(self, store: Storage, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._clock = clock

    @requires("admin", every_group=True)
    def create(
        self,
        role: str,
        groups: Iterable[str] | None,
        name: str | None = None,
        *,
        expires_at: datetime | None = None,
    ) -> CreatedKey:
        """Create a key with ``role`` for ``groups`` (None: every group; admin keys only), in force
        until ``expires_at`` (None: until revoked; a timezone-aware time in the future).

        Returns the key and its secret, which is never stored or shown again. Raises InvalidInput
        (field ``role``, ``group_ids``, ``name`` or ``expires_at``) or Conflict (the name is taken).
        """
        if role not in ROLES:
            raise InvalidInput(f"role {shown(role)} must be read, write or admin", field="role")
        checked: Role = role
        group_list = _checked_groups(groups, checked)
        now = self._clock()
        if expires_at is not None and expires_at.tzinfo is None:
            detail = f"expires_at {shown(expires_at.isoformat())} must be a time with a timezone"
            raise InvalidInput(detail, field="expires_at")
        if expires_at is not None and expires_at <= now:
            raise InvalidInput(
                f"expires_at {shown(expires_at.isoformat())} is not in the future (now {now.isoformat()})",
                field="expires_at",
            )
        key_id = new_id("key")
        if name is None:
            name = "key-" + key_id[-8:].lower()
        if not re.fullmatch(NAME_PATTERN, name) or name.lower() in RESERVED_NAMES:
            raise InvalidInput(
                f"name {shown(name)} must be 1-64 characters of A-Z a-z 0-9 . _ -, starting with a letter "
                f"or digit, and not one of {', '.join(sorted(RESERVED_NAMES))}",
                field="name",
            )
        secret = KEY_PREFIX + secrets.token_urlsafe(32)
        key = ApiKey(
            id=key_id,
            name=name,
            role=checked,
            group_ids=group_list,
            prefix=secret[:SHOWN_PREFIX],
            created_at=now,
            expires_at=expires_at,
        )
        if not self._store.insert_api_key(key, digest(secret)):
            raise Conflict(
                f"an API key named {shown(name)} exists already (names are never reused)", field="name"
            )
        return CreatedKey(key=key, secret=secret)

    @requires("admin", every_group=True)
    def list_keys(self) -> list[ApiKey]:
        """Return every key, revoked ones included, oldest first."""
        return self._store.api_keys()

    @requires("admin", every_group=True)
    def revoke(self, name_or_id: str) -> tuple[ApiKey, bool]:
        """Revoke the key with this name or id; return it and whether this call revoked it.

        Every process refuses the key from its next request on. Raises NotFound (field ``key``).
        """
        found = next((k for k in self._store.api_keys() if name_or_id in (k.id, k.name)), None)
        if found is None:
            raise NotFound(f"no API key named {shown(name_or_id)}", field="key")
        if found.revoked_at is not None:
            return found, False
        at = self._clock()
        revoked = self._store.revoke_api_key(found.id, at)
        current = self._store.api_key(found.id)
        assert current is not None
        return current, revoked

    def configured(self) -> bool:
        """Return whether any key is configured: not revoked (expired ones count, so expiry never
        reopens a server to callers without a key). Then every HTTP caller needs one."""
        return self._store.has_api_keys()

    def verify(self, key: str) -> Principal | None:
        """Return the principal of a key in force, or None for an unknown, malformed, revoked or
        expired key.

        Notes the use (``last_used_at``) at most once a minute per key; a store that cannot
        take the write (a read replica) still verifies.
        """
        if not key.startswith(KEY_PREFIX) or len(key) > MAX_KEY_CHARS:
            return None
        found = self._store.api_key_by_digest(digest(key))
        now = self._clock()
        if found is None or not in_force(found, now):
            return None
        if found.last_used_at is None or now - found.last_used_at >= TOUCH_EVERY:
            try:
                self._store.touch_api_key(found.id, now, now - TOUCH_EVERY)
            except StoreError as exc:
                logger.warning("cannot record the use of API key %s: %s", found.name, exc.detail)
        return principal_of(found)

    def principal(self, key_id: str) -> Principal | None:
        """Return the principal of the key with id ``key_id`` while it is in force, else None.

        What a console session re-checks on every request.
        """
        found = self._store.api_key(key_id)
        return None if found is None or not in_force(found, self._clock()) else principal_of(found)
