"""Row codec for the SQLite store: episodes to and from rows, filters to SQL, small helpers."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import apsw

from engram.models.episodes import Actor, Episode, EpisodeFilters, Operation

EPISODE_COLUMNS = (
    "group_id, id, version, timestamp, recorded_at, expired_at, source, source_type, actor_type, "
    "actor_id, actor_name, intent, content, metadata, refs, fingerprint, status, operation_id"
)
E_COLUMNS = ", ".join(f"e.{name.strip()}" for name in EPISODE_COLUMNS.split(","))
INSERT_EPISODE = f"INSERT INTO episodes (doc, {EPISODE_COLUMNS}) VALUES ({', '.join('?' * 19)})"


def ts(value: datetime) -> str:
    """Return a fixed-width UTC ISO-8601 string, so text order is time order."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def dt(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def episode_row(episode: Episode, doc: int) -> tuple[Any, ...]:
    actor = episode.actor
    return (
        doc,
        episode.group_id,
        episode.id,
        episode.version,
        ts(episode.timestamp),
        ts(episode.recorded_at),
        None if episode.expired_at is None else ts(episode.expired_at),
        episode.source,
        episode.source_type,
        actor.type if actor else None,
        actor.id if actor else None,
        actor.name if actor else None,
        episode.intent,
        episode.content,
        json.dumps(episode.metadata, ensure_ascii=False),
        json.dumps(episode.references, ensure_ascii=False),
        episode.fingerprint,
        episode.status,
        episode.operation_id,
    )


def episode_from_row(row: Sequence[Any]) -> Episode:
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
    ) = row[:18]
    actor = None if actor_id is None else Actor(type=actor_type, id=actor_id, name=actor_name)
    return Episode.model_construct(
        id=id_,
        group_id=group_id,
        version=version,
        timestamp=datetime.fromisoformat(timestamp),
        recorded_at=datetime.fromisoformat(recorded_at),
        expired_at=dt(expired_at),
        source=source,
        source_type=source_type,
        actor=actor,
        intent=intent,
        content=content,
        metadata=json.loads(metadata),
        references=json.loads(refs),
        fingerprint=fingerprint,
        status=status,
        operation_id=operation_id,
    )


CURRENT = "e.expired_at IS NULL"
"""The versions the memory holds now: the one clause the partial ``episodes_current_*`` indexes serve."""


def held_sql(known_at: datetime | None) -> tuple[str, list[Any]]:
    """Return the clause over alias ``e`` picking the version held at ``known_at``, and its parameters.

    None: the current versions (CURRENT, unchanged, so the current-version plans stay as they are).
    A time: the version stored by then and not closed by then (an episode created later has
    none; one closed without successor, i.e. deleted, later still has its last one).
    """
    if known_at is None:
        return CURRENT, []
    stamp = ts(known_at)
    return "e.recorded_at <= ? AND (e.expired_at IS NULL OR e.expired_at > ?)", [stamp, stamp]


def held_branches(known_at: datetime) -> tuple[tuple[str, list[Any]], tuple[str, list[Any]]]:
    """Return held_sql(known_at) as two disjoint clauses whose union it is, each with its parameters.

    The current versions stored by then (the partial ``episodes_current_*`` indexes serve it)
    and the versions closed after then but stored by then (``episodes_closed`` serves it: the
    changes since, usually few). A scan over either is much shorter than one over every version.
    """
    stamp = ts(known_at)
    current: tuple[str, list[Any]] = (f"{CURRENT} AND e.recorded_at <= ?", [stamp])
    closed: tuple[str, list[Any]] = ("e.expired_at > ? AND e.recorded_at <= ?", [stamp, stamp])
    return current, closed


def filter_sql(filters: EpisodeFilters) -> tuple[str, list[Any]]:
    """Return an ``AND …`` clause over alias ``e`` and its parameters.

    ``filters.as_of`` is ``timestamp <= as_of``; ``filters.known_at`` is not a clause here
    (see held_sql: it picks versions, and with them the indexes).
    """
    clauses: list[str] = []
    params: list[Any] = []
    for column, values in (
        ("intent", filters.intent),
        ("source", filters.source),
        ("actor_id", filters.actor_id),
    ):
        if values:
            clauses.append(f"e.{column} IN ({', '.join('?' * len(values))})")
            params.extend(values)
    if filters.timestamp_after is not None:
        clauses.append("e.timestamp >= ?")
        params.append(ts(filters.timestamp_after))
    if filters.timestamp_before is not None:
        clauses.append("e.timestamp < ?")
        params.append(ts(filters.timestamp_before))
    if filters.as_of is not None:
        clauses.append("e.timestamp <= ?")
        params.append(ts(filters.as_of))
    for key, value in filters.metadata.items():
        # Keys are validated to [A-Za-z0-9_.-]; quoting makes dots part of the key, not a path.
        clauses.append(f"json_extract(e.metadata, '$.\"{key}\"') IS ?")
        params.append(int(value) if isinstance(value, bool) else value)
    return "".join(f" AND {clause}" for clause in clauses), params


def scalar(conn: apsw.Connection, sql: str, params: tuple[Any, ...] = ()) -> Any:
    """Return the first column of the first row, or None when there is no row."""
    row = conn.execute(sql, params).fetchone()
    return None if row is None else row[0]


def insert_operation(conn: apsw.Connection, operation: Operation, extra: Mapping[str, object]) -> None:
    """Store ``operation`` with ``extra`` merged into its details."""
    conn.execute(
        "INSERT INTO operations (group_id, id, kind, actor, created_at, summary, details) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            operation.group_id,
            operation.id,
            operation.kind,
            operation.actor,
            ts(operation.created_at),
            operation.summary,
            json.dumps({**operation.details, **extra}, ensure_ascii=False),
        ),
    )
