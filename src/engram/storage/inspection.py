"""Reads the Store protocol lacks, for review, audit previews and health, on SQLite and PostgreSQL.

Disputed facts of a group, episode counts by intent or source in a time window, and single
stored versions of an episode, entity or fact by id (what an undo would restore). Read-only;
the SQL is written once with ``?`` placeholders and runs unchanged on both backends (columns
and tables are named alike there); each backend supplies only its connection, its parameter
and row conversions. Kept apart from the store classes so the storage layer can absorb it
whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engram.models.episodes import Episode
from engram.models.graph import Entity, Fact
from engram.storage.history_base import ObjectKind, VersionRef

Rows = list[Sequence[Any]]
_TABLES: dict[ObjectKind, str] = {"episode": "episodes", "entity": "entities", "fact": "facts"}
_EPISODE_COLUMNS = (
    "group_id, id, version, timestamp, recorded_at, expired_at, source, source_type, actor_type, "
    "actor_id, actor_name, intent, content, metadata, refs, fingerprint, status, operation_id"
)
_ENTITY_COLUMNS = (
    "group_id, id, version, name, type, aliases, attributes, summary, first_seen, last_seen, "
    "recorded_at, expired_at, operation_id"
)
_FACT_COLUMNS = (
    "group_id, id, version, subject, predicate, object, value, fact, conditions, confidence, source_kind, "
    "episodes, valid_at, invalid_at, recorded_at, expired_at, status, superseded_by, operation_id"
)
_COLUMNS: dict[ObjectKind, str] = {
    "episode": _EPISODE_COLUMNS,
    "entity": _ENTITY_COLUMNS,
    "fact": _FACT_COLUMNS,
}


@dataclass(frozen=True, slots=True)
class Codec:
    """What differs between backends: running a query, datetimes in and out, rows to models."""

    run: Callable[[str, Sequence[Any]], Rows]
    stamp: Callable[[datetime], Any]
    read_time: Callable[[Any], datetime | None]
    episode: Callable[[Sequence[Any]], Episode]
    entity: Callable[[Sequence[Any]], Entity]
    fact: Callable[[Sequence[Any]], Fact]


class Inspector:
    """Read-only queries over one store (see the module docstring)."""

    def __init__(self, codec: Codec) -> None:
        self._codec = codec

    def disputed_facts(self, group_id: str, limit: int) -> list[Fact]:
        """Return up to ``limit`` current versions of disputed facts, grouped by subject and predicate."""
        rows = self._codec.run(
            f"SELECT {_FACT_COLUMNS} FROM facts WHERE group_id = ? AND expired_at IS NULL "
            "AND status = 'disputed' ORDER BY subject, predicate, id LIMIT ?",
            (group_id, limit),
        )
        return [self._codec.fact(row) for row in rows]

    def count_disputed(self, group_id: str) -> int:
        """Return how many facts of the group are disputed now."""
        rows = self._codec.run(
            "SELECT count(*) FROM facts WHERE group_id = ? AND expired_at IS NULL AND status = 'disputed'",
            (group_id,),
        )
        return int(rows[0][0])

    def episode_counts(
        self, group_id: str, column: str, after: datetime | None, before: datetime | None
    ) -> dict[str | None, int]:
        """Return current episodes by ``column`` (intent or source) with a timestamp in [after, before).

        Without a window each count reads only the column's index (group, column, timestamp).
        """
        if column not in ("intent", "source"):
            raise ValueError(f"episodes are counted by intent or source, not {column!r}")
        where, params = "", [group_id]
        if after is not None:
            where += " AND timestamp >= ?"
            params.append(self._codec.stamp(after))
        if before is not None:
            where += " AND timestamp < ?"
            params.append(self._codec.stamp(before))
        rows = self._codec.run(
            f"SELECT {column}, count(*) FROM episodes WHERE group_id = ? AND expired_at IS NULL{where} "
            f"GROUP BY {column}",
            params,
        )
        return {row[0]: int(row[1]) for row in rows}

    def episodes_without_intent(self, group_id: str, limit: int) -> list[Episode]:
        """Return up to ``limit`` current episodes with no intent, newest first."""
        rows = self._codec.run(
            f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE group_id = ? AND expired_at IS NULL "
            "AND intent IS NULL ORDER BY timestamp DESC LIMIT ?",  # (group, intent, timestamp) index order
            (group_id, limit),
        )
        return [self._codec.episode(row) for row in rows]

    def versions(self, group_id: str, kind: ObjectKind, object_id: str) -> list[VersionRef]:
        """Return every version of one object, oldest first, with the operations that opened and closed it."""
        rows = self._codec.run(
            f"SELECT version, operation_id, expired_by, expired_at FROM {_TABLES[kind]} "
            "WHERE group_id = ? AND id = ? ORDER BY version",
            (group_id, object_id),
        )
        return [
            VersionRef(kind, object_id, int(r[0]), str(r[1]), r[2], self._codec.read_time(r[3])) for r in rows
        ]

    def version(
        self, group_id: str, kind: ObjectKind, object_id: str, version: int
    ) -> Episode | Entity | Fact | None:
        """Return one stored version of an episode, entity or fact, or None."""
        rows = self._codec.run(
            f"SELECT {_COLUMNS[kind]} FROM {_TABLES[kind]} WHERE group_id = ? AND id = ? AND version = ?",
            (group_id, object_id, version),
        )
        if not rows:
            return None
        if kind == "episode":
            return self._codec.episode(rows[0])
        return self._codec.entity(rows[0]) if kind == "entity" else self._codec.fact(rows[0])


def inspector(store: object) -> Inspector | None:
    """Return an Inspector over ``store`` (SQLiteStore or PostgresStore), or None for another store."""
    from engram.storage.postgres.store import PostgresStore
    from engram.storage.sqlite.store import SQLiteStore

    if isinstance(store, SQLiteStore):
        return Inspector(_sqlite_codec(store))
    if isinstance(store, PostgresStore):
        return Inspector(_postgres_codec(store))
    return None


def _sqlite_codec(store: Any) -> Codec:
    from engram.storage.sqlite.graph import entity_from_row, fact_from_row
    from engram.storage.sqlite.rows import dt, episode_from_row, ts

    def run(sql: str, params: Sequence[Any]) -> Rows:
        rows: Rows = store._connection().execute(sql, tuple(params)).fetchall()
        return rows

    return Codec(run, ts, dt, episode_from_row, entity_from_row, fact_from_row)


def _postgres_codec(store: Any) -> Codec:
    from engram.storage.postgres.graph_rows import entity_from_row, fact_from_row
    from engram.storage.postgres.rows import episode_from_row

    def run(sql: str, params: Sequence[Any]) -> Rows:
        with store._connection() as conn:
            rows: Rows = conn.execute(sql.replace("?", "%s"), tuple(params)).fetchall()
        return rows

    def same(value: Any) -> Any:
        return value

    return Codec(run, same, same, episode_from_row, entity_from_row, fact_from_row)
