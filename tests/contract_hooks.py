"""Schemathesis hooks for tests/api/test_openapi_contract.py: the rules JSON Schema cannot say.

The OpenAPI states every constraint it can (patterns, lengths, item counts, enums, "exactly one
of object or value"). What it cannot state is a relation between two values or to the present
moment; a schema-valid request that breaks one is answered with a documented 4xx, so positive
test cases that break one are not generated:

- ``known_at`` is not in the future (transaction time not yet known; 422);
- a fact's ``invalid_at`` is not before its ``valid_at`` (422);
- a ``cursor`` is one the server issued (next_cursor; 422 otherwise);
- a time with a UTC offset stays within years 1-9999 once in UTC (``0001-01-01T00:00+14:00``; 422);
- a new API key's ``expires_at`` is in the future, only an admin key sees every group
  (``group_ids: null``), and its name is not an actor Engram records itself (``rest``…; 422).
- no text holds a NUL character (PostgreSQL's text refuses it, so Engram refuses it on both
  backends; 422 naming the field): saying so in the schema would take a pattern on every string;
- an episode's ``embedding`` has as many numbers as the store's embedder has dimensions, and a
  store without an embedder (the one under test) takes none (422).

The run authenticates with an admin API key (``ENGRAM_CONTRACT_KEY``: its name and id,
comma-separated); no case revokes it, which would turn every later case into a 401.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import schemathesis

from engram.errors import InvalidInput
from engram.ingest.inputs import decode_cursor
from engram.keys import RESERVED_NAMES
from engram.storage.episodes import has_nul
from engram.timeutil import as_utc, from_unix_seconds


def _nodes(value: Any) -> Iterator[dict[str, Any]]:
    """Yield every object nested in ``value`` (itself included), depth first."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _nodes(item)
    elif isinstance(value, list):
        for item in value:
            yield from _nodes(item)


def _time(value: Any) -> datetime | None:
    """Return the time ``value`` means to the server (ISO 8601 or Unix seconds), or None."""
    try:
        moment = from_unix_seconds(value)
    except ValueError:
        return None
    if isinstance(moment, str):
        try:
            moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
        except ValueError:
            return None
    return moment if isinstance(moment, datetime) else None


def _breaks_a_relation(data: Any) -> bool:
    if has_nul(data):
        return True
    now = datetime.now(UTC)
    for node in _nodes(data):
        times = {key: moment for key, value in node.items() if (moment := _time(value)) is not None}
        try:
            utc = {key: as_utc(moment) for key, moment in times.items()}
        except ValueError:
            return True
        if "known_at" in utc and utc["known_at"] > now:
            return True
        if "expires_at" in utc and utc["expires_at"] <= now:
            return True
        if node.get("role") in ("read", "write") and "group_ids" in node and node["group_ids"] is None:
            return True
        if isinstance(node.get("name"), str) and node["name"].lower() in RESERVED_NAMES:
            return True
        if "valid_at" in utc and "invalid_at" in utc and utc["invalid_at"] < utc["valid_at"]:
            return True
        if node.get("embedding") is not None:
            return True
        cursor = node.get("cursor")
        if isinstance(cursor, str):
            try:
                decode_cursor(cursor)
            except InvalidInput:
                return True
    return False


@schemathesis.hook
def filter_case(context: schemathesis.HookContext, case: schemathesis.Case) -> bool:
    """Keep negative cases; keep positive ones unless they break a relation the schema cannot state.
    Never revoke the run's own key."""
    own = set(os.environ.get("ENGRAM_CONTRACT_KEY", "").split(","))
    if case.method.upper() == "DELETE" and (case.path_parameters or {}).get("key") in own:
        return False
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return True
    return not _breaks_a_relation({"query": case.query or {}, "body": case.body})
