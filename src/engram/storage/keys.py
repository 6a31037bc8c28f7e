"""API keys in SQL written once: insert, read by digest or id, list, revoke, note their use.

The table is store-wide (a key may see several groups), small, and read by its unique
``digest`` on every authenticated request: one indexed lookup.
"""

from __future__ import annotations

from datetime import datetime

from engram.models.keys import ApiKey
from engram.storage.rows import API_KEY, API_KEYS
from engram.storage.sql import Db

KEY = API_KEY.select


def insert(db: Db, key: ApiKey, digest: str) -> bool:
    """Store a key with its digest; return False (storing nothing) when its name is taken."""
    params = API_KEYS.params(key, digest=digest)
    stored = db.value(f"{API_KEYS.insert} ON CONFLICT DO NOTHING RETURNING id", params)
    return stored is not None


def by_digest(db: Db, digest: str) -> ApiKey | None:
    """Return the key (revoked or not) whose digest is ``digest``."""
    return API_KEY.one(db, f"SELECT {KEY} FROM api_keys k WHERE k.digest = :digest", {"digest": digest})


def by_id(db: Db, key_id: str) -> ApiKey | None:
    """Return the key with id ``key_id`` (revoked or not)."""
    return API_KEY.one(db, f"SELECT {KEY} FROM api_keys k WHERE k.id = :id", {"id": key_id})


def list_all(db: Db) -> list[ApiKey]:
    """Return every key, revoked ones included, oldest first."""
    return API_KEY.all(db, f"SELECT {KEY} FROM api_keys k ORDER BY k.created_at, k.id")


def any_active(db: Db) -> bool:
    """Return whether at least one key is not revoked."""
    return db.value("SELECT 1 AS found FROM api_keys WHERE revoked_at IS NULL LIMIT 1") is not None


def revoke(db: Db, key_id: str, at: datetime) -> bool:
    """Mark a key revoked at ``at``; return False when it was revoked already (or is absent)."""
    done = db.value(
        "UPDATE api_keys SET revoked_at = :at WHERE id = :id AND revoked_at IS NULL RETURNING id",
        {"id": key_id, "at": at},
    )
    return done is not None


def touch(db: Db, key_id: str, at: datetime, unless_since: datetime) -> None:
    """Set ``last_used_at`` to ``at`` unless it is already at or after ``unless_since``."""
    db.run(
        "UPDATE api_keys SET last_used_at = :at "
        "WHERE id = :id AND (last_used_at IS NULL OR last_used_at < :since)",
        {"id": key_id, "at": at, "since": unless_since},
    )
