"""Cursors of ranked episode searches: the rank to continue from, bound to the query that made it.

A search has no natural key order, so its cursor is an offset into the ranking. It carries a
digest of the query (everything but ``limit`` and ``cursor``), so a cursor replayed with another
query is refused instead of silently skipping hits of a different ranking.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json

from engram.errors import InvalidInput
from engram.models.episodes import SearchQuery


def _digest(query: SearchQuery) -> str:
    """Return a short digest of what the ranking depends on."""
    shape = query.model_dump(mode="json", exclude={"limit", "cursor"})
    raw = json.dumps(shape, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def encode_search_cursor(query: SearchQuery, offset: int) -> str:
    """Return the cursor that continues ``query`` at rank ``offset`` (0-based)."""
    raw = json.dumps({"o": offset, "q": _digest(query)}).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def search_offset(query: SearchQuery) -> int:
    """Return the rank ``query.cursor`` continues from (0 without one).

    Raises InvalidInput(field="cursor") for a cursor this server did not issue for this query.
    """
    if not query.cursor:
        return 0
    try:
        raw = base64.urlsafe_b64decode(query.cursor + "=" * (-len(query.cursor) % 4))
        decoded = json.loads(raw)
        offset, digest = int(decoded["o"]), str(decoded["q"])
    except (ValueError, TypeError, KeyError, binascii.Error) as exc:
        raise InvalidInput("cursor is not one this server issued", field="cursor") from exc
    if offset < 0 or digest != _digest(query):
        raise InvalidInput("cursor belongs to another query: repeat the same query with it", field="cursor")
    return offset
