"""Row codec for the PostgreSQL store: episodes to and from rows, filters to SQL, lock keys."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from engram.errors import InvalidInput
from engram.models.episodes import Actor, Episode, EpisodeFilters, Operation

EPISODE_COLUMNS = (
    "group_id, id, version, timestamp, recorded_at, expired_at, source, source_type, actor_type, "
    "actor_id, actor_name, intent, content, metadata, refs, fingerprint, status, operation_id"
)
E_COLUMNS = ", ".join(f"e.{name.strip()}" for name in EPISODE_COLUMNS.split(","))
N_COLUMNS = 18
INSERT_EPISODE = f"INSERT INTO episodes ({EPISODE_COLUMNS}) VALUES ({', '.join(['%s'] * N_COLUMNS)})"
CURRENT_JOIN = "JOIN episodes e ON e.group_id = d.group_id AND e.id = d.id AND e.expired_at IS NULL"
"""Join an ``episode_docs d`` row to its current version ``e``."""
CURRENT = "e.expired_at IS NULL"
"""The versions the memory holds now: the one clause the partial ``episodes_current*`` indexes serve."""


def held_sql(known_at: datetime | None) -> tuple[str, list[Any]]:
    """Return the clause over alias ``e`` picking the version held at ``known_at``, and its parameters.

    None: the current versions (CURRENT, unchanged, so the current-version plans stay as they are).
    A time: the version stored by then and not closed by then (an episode created later has
    none; one closed without successor, i.e. deleted, later still has its last one).
    """
    if known_at is None:
        return CURRENT, []
    return "e.recorded_at <= %s AND (e.expired_at IS NULL OR e.expired_at > %s)", [known_at, known_at]


_SEPARATORS = re.compile(r"[\W_]+")
_LATIN_FOLD = {
    code: "".join(c for c in unicodedata.normalize("NFD", chr(code)) if not unicodedata.combining(c))
    for code in range(0xC0, 0x250)
}


def index_text(text: str) -> str:
    """Return ``text`` split as SQLite's ``unicode61 remove_diacritics 2`` splits it, words joined by spaces.

    Every run of characters that is not a letter or a digit separates words (so "DEAL-7890"
    is "DEAL 7890" and "user@example.com" three words, where PostgreSQL's parser would keep
    emails, paths and signed numbers whole), and Latin letters lose their diacritics
    ("café" is "cafe"). Applied to indexed text and to query terms alike.
    """
    return _SEPARATORS.sub(" ", text.translate(_LATIN_FOLD)).strip()


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


def check_text(episode: Episode) -> None:
    """Raise InvalidInput when the episode holds a NUL character, which PostgreSQL text refuses."""
    actor = episode.actor
    fields: dict[str, Any] = {
        "content": episode.content,
        "metadata": episode.metadata,
        "references": episode.references,
        "intent": episode.intent,
        "source": episode.source,
        "source_type": episode.source_type,
        "actor": None if actor is None else [actor.type, actor.id, actor.name],
    }
    for field, value in fields.items():
        if _has_nul(value):
            raise InvalidInput(f"{field} must not contain NUL characters", field=field)


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_has_nul(v) for v in value)
    return False


def episode_row(episode: Episode) -> tuple[Any, ...]:
    """Return the INSERT_EPISODE parameters of one version."""
    actor = episode.actor
    return (
        episode.group_id,
        episode.id,
        episode.version,
        episode.timestamp,
        episode.recorded_at,
        episode.expired_at,
        episode.source,
        episode.source_type,
        actor.type if actor else None,
        actor.id if actor else None,
        actor.name if actor else None,
        episode.intent,
        episode.content,
        Jsonb(episode.metadata),
        Jsonb(episode.references),
        episode.fingerprint,
        episode.status,
        episode.operation_id,
    )


def episode_from_row(row: Sequence[Any]) -> Episode:
    """Return the Episode of the first N_COLUMNS of ``row`` (EPISODE_COLUMNS order)."""
    (
        group_id,
        id_,
        version,
        timestamp,
        recorded_at,
        expired_at,
        source,
        source_type,
        actor_type,
        actor_id,
        actor_name,
        intent,
        content,
        metadata,
        refs,
        fingerprint,
        status,
        operation_id,
    ) = row[:N_COLUMNS]
    actor = None if actor_id is None else Actor(type=actor_type, id=actor_id, name=actor_name)
    return Episode.model_construct(
        id=id_,
        group_id=group_id,
        version=version,
        timestamp=_utc(timestamp),
        recorded_at=_utc(recorded_at),
        expired_at=None if expired_at is None else _utc(expired_at),
        source=source,
        source_type=source_type,
        actor=actor,
        intent=intent,
        content=content,
        metadata=metadata,
        references=refs,
        fingerprint=fingerprint,
        status=status,
        operation_id=operation_id,
    )


def filter_sql(filters: EpisodeFilters) -> tuple[str, list[Any]]:
    """Return an ``AND …`` clause over alias ``e`` and its parameters.

    ``filters.as_of`` is ``timestamp <= as_of``; ``filters.known_at`` is not a clause here
    (see held_sql: it picks versions, and with them the indexes).

    Metadata matches as SQLite's ``json_extract(…) IS ?`` does: numbers compare as numbers
    (JSON true/false count as 1/0, so ``True`` matches ``true`` and ``1``), strings as text,
    and None matches a missing key or a JSON null.
    """
    clauses: list[str] = []
    params: list[Any] = []
    for column, values in (
        ("intent", filters.intent),
        ("source", filters.source),
        ("actor_id", filters.actor_id),
    ):
        if values:
            clauses.append(f"e.{column} = ANY(%s)")
            params.append(list(values))
    if filters.timestamp_after is not None:
        clauses.append("e.timestamp >= %s")
        params.append(filters.timestamp_after)
    if filters.timestamp_before is not None:
        clauses.append("e.timestamp < %s")
        params.append(filters.timestamp_before)
    if filters.as_of is not None:
        clauses.append("e.timestamp <= %s")
        params.append(filters.as_of)
    for key, value in filters.metadata.items():
        if value is None:
            clauses.append("coalesce(e.metadata -> %s, 'null'::jsonb) = 'null'::jsonb")
            params.append(key)
        elif isinstance(value, bool | int | float):
            clauses.append(
                "(CASE jsonb_typeof(e.metadata -> %s) WHEN 'number' THEN (e.metadata -> %s)::numeric "
                "WHEN 'boolean' THEN CASE WHEN (e.metadata -> %s)::boolean THEN 1 ELSE 0 END END) "
                "= %s::numeric"
            )
            params += [key, key, key, int(value) if isinstance(value, bool) else value]
        else:
            clauses.append("(jsonb_typeof(e.metadata -> %s) = 'string' AND e.metadata ->> %s = %s)")
            params += [key, key, value]
    return "".join(f" AND {clause}" for clause in clauses), params


def lock_key(namespace: str, *parts: str) -> int:
    """Return a signed 64-bit advisory lock key for ``parts`` (e.g. schema, group, "id", id)."""
    digest = hashlib.blake2b("\x1f".join((namespace, *parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def insert_operation(
    conn: psycopg.Connection[Any], operation: Operation, extra: Mapping[str, object]
) -> None:
    """Store ``operation`` with ``extra`` merged into its details."""
    conn.execute(
        "INSERT INTO operations (group_id, id, kind, actor, created_at, summary, details) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s)",
        (
            operation.group_id,
            operation.id,
            operation.kind,
            operation.actor,
            operation.created_at,
            operation.summary,
            Jsonb({**operation.details, **extra}),
        ),
    )
