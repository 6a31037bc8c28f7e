"""History on SQLite: the operation log, versions by operation, retraction and purge (issue #5)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

import apsw

from engram.models.episodes import Episode, Operation
from engram.models.graph import Entity, Fact
from engram.storage.history_base import (
    HistoryTxn,
    ObjectKind,
    OperationQuery,
    PurgeReport,
    Reword,
    VersionRef,
)
from engram.storage.sqlite.archive import archive_rows, archived_superseded_by, unarchive_rows
from engram.storage.sqlite.fulltext import index_with_neighbours, neighbours, reindex
from engram.storage.sqlite.graph import (
    ENTITY_COLUMNS,
    FACT_COLUMNS,
    SQLiteGraphTxn,
    entity_from_row,
    fact_from_row,
)
from engram.storage.sqlite.purge import compact, purge_episode
from engram.storage.sqlite.rows import (
    EPISODE_COLUMNS,
    INSERT_EPISODE,
    dt,
    episode_from_row,
    episode_row,
    scalar,
    ts,
)
from engram.storage.sqlite.vectors import VectorCache

T = TypeVar("T")

_TABLES: dict[ObjectKind, str] = {"episode": "episodes", "entity": "entities", "fact": "facts"}
_OPERATION_COLUMNS = "o.group_id, o.id, o.kind, o.actor, o.created_at, o.summary, o.details"


def _operation(row: Sequence[Any]) -> Operation:
    group_id, id_, kind, actor, created_at, summary, details = row
    return Operation(
        id=id_,
        group_id=group_id,
        kind=kind,
        actor=actor,
        created_at=datetime.fromisoformat(created_at),
        summary=summary,
        details=json.loads(details),
    )


def _touched_by(conn: apsw.Connection, group_id: str, operation_id: str) -> list[VersionRef]:
    refs: list[VersionRef] = []
    for kind, table in _TABLES.items():
        rows = conn.execute(
            f"SELECT id, version, operation_id, expired_by, expired_at FROM {table} "
            "WHERE group_id = ? AND operation_id = ? UNION "
            f"SELECT id, version, operation_id, expired_by, expired_at FROM {table} "
            "WHERE group_id = ? AND expired_by = ? ORDER BY 1, 2",
            (group_id, operation_id, group_id, operation_id),
        ).fetchall()
        refs += [VersionRef(kind, str(r[0]), int(r[1]), str(r[2]), r[3], dt(r[4])) for r in rows]  # type: ignore[arg-type]
    return refs


class _HistoryTxn(SQLiteGraphTxn):
    """HistoryTxn on the writer's connection, inside its transaction."""

    def __init__(self, conn: apsw.Connection, vectors: VectorCache) -> None:
        super().__init__(conn)
        self._vectors = vectors

    def operation(self, group_id: str, operation_id: str) -> Operation | None:
        return _get_operation(self._conn, group_id, operation_id)

    def touched_by(self, group_id: str, operation_id: str) -> list[VersionRef]:
        return _touched_by(self._conn, group_id, operation_id)

    def versions(self, group_id: str, kind: ObjectKind, object_id: str) -> list[VersionRef]:
        rows = self._conn.execute(
            f"SELECT version, operation_id, expired_by, expired_at FROM {_TABLES[kind]} "
            "WHERE group_id = ? AND id = ? ORDER BY version",
            (group_id, object_id),
        ).fetchall()
        return [VersionRef(kind, object_id, int(r[0]), str(r[1]), r[2], dt(r[3])) for r in rows]  # type: ignore[arg-type]

    def episode_version(self, group_id: str, episode_id: str, version: int) -> Episode | None:
        row = self._conn.execute(
            f"SELECT {EPISODE_COLUMNS} FROM episodes WHERE group_id = ? AND id = ? AND version = ?",
            (group_id, episode_id, version),
        ).fetchone()
        return None if row is None else episode_from_row(row)

    def entity_version(self, group_id: str, entity_id: str, version: int) -> Entity | None:
        row = self._conn.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE group_id = ? AND id = ? AND version = ?",
            (group_id, entity_id, version),
        ).fetchone()
        return None if row is None else entity_from_row(row)

    def fact_version(self, group_id: str, fact_id: str, version: int) -> Fact | None:
        row = self._conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE group_id = ? AND id = ? AND version = ?",
            (group_id, fact_id, version),
        ).fetchone()
        return None if row is None else fact_from_row(row)

    def facts_citing(self, group_id: str, episode_id: str) -> list[Fact]:
        rows = self._conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE group_id = ? AND expired_at IS NULL "
            "AND EXISTS (SELECT 1 FROM json_each(facts.episodes) WHERE value = ?)",
            (group_id, episode_id),
        ).fetchall()
        return [fact_from_row(row) for row in rows]

    def put_episode_version(self, episode: Episode) -> None:
        conn = self._conn
        doc = int(
            scalar(
                conn,
                "SELECT doc FROM episode_docs WHERE group_id = ? AND id = ?",
                (episode.group_id, episode.id),
            )
        )
        conn.execute(
            "UPDATE episodes SET expired_at = ?, expired_by = ? "
            "WHERE group_id = ? AND id = ? AND expired_at IS NULL",
            (ts(episode.recorded_at), episode.operation_id, episode.group_id, episode.id),
        )
        conn.execute(INSERT_EPISODE, episode_row(episode, doc))
        index_with_neighbours(conn, doc)

    def close_episode(self, group_id: str, episode_id: str, at: datetime, operation_id: str) -> None:
        conn = self._conn
        doc = scalar(
            conn, "SELECT doc FROM episode_docs WHERE group_id = ? AND id = ?", (group_id, episode_id)
        )
        if doc is None:
            return
        conn.execute(
            "UPDATE episodes SET expired_at = ?, expired_by = ? "
            "WHERE group_id = ? AND id = ? AND expired_at IS NULL",
            (ts(at), operation_id, group_id, episode_id),
        )
        conn.execute("DELETE FROM episode_vectors WHERE doc = ?", (doc,))
        reindex(conn, [d for d, _ in neighbours(conn, int(doc))])

    def close_fact(self, group_id: str, fact_id: str, at: datetime, operation_id: str) -> None:
        # The full-text row stays: it serves reads at a past transaction time (known_at).
        self._conn.execute(
            "UPDATE facts SET expired_at = ?, expired_by = ? "
            "WHERE group_id = ? AND id = ? AND expired_at IS NULL",
            (ts(at), operation_id, group_id, fact_id),
        )

    def remove_mentions(
        self, group_id: str, *, operation_id: str | None = None, episode_id: str | None = None
    ) -> list[tuple[str, str, str | None]]:
        column, value = (
            ("operation_id", operation_id) if operation_id is not None else ("episode_id", episode_id)
        )
        rows = self._conn.execute(
            f"DELETE FROM mentions WHERE group_id = ? AND {column} = ? "
            "RETURNING entity_id, episode_id, operation_id",
            (group_id, value),
        ).fetchall()
        return sorted((str(r[0]), str(r[1]), None if r[2] is None else str(r[2])) for r in rows)

    def record_history_operation(self, operation: Operation) -> None:
        self.record_operation(operation, {})

    def archive_fact_ids(
        self,
        group_id: str,
        fact_ids: Sequence[str],
        operation: Operation,
        index_text: Callable[[Fact], str],
    ) -> tuple[list[str], int]:
        return archive_rows(self._conn, group_id, fact_ids, operation.created_at, operation.id, index_text)

    def unarchive_facts(
        self,
        group_id: str,
        fact_ids: Sequence[str],
        index_text: Callable[[Fact], str],
        *,
        archived_by: str | None = None,
    ) -> list[str]:
        return unarchive_rows(self._conn, group_id, fact_ids, archived_by, index_text)

    def archived_superseded_by(self, group_id: str, fact_id: str) -> list[str]:
        return archived_superseded_by(self._conn, group_id, fact_id)


def _get_operation(conn: apsw.Connection, group_id: str, operation_id: str) -> Operation | None:
    row = conn.execute(
        f"SELECT {_OPERATION_COLUMNS} FROM operations o WHERE o.group_id = ? AND o.id = ?",
        (group_id, operation_id),
    ).fetchone()
    return None if row is None else _operation(row)


def _touching_entity(group_id: str, entity_id: str) -> tuple[str, list[Any]]:
    sql = (
        " AND o.id IN (SELECT operation_id FROM entities WHERE group_id = ? AND id = ? "
        "UNION SELECT expired_by FROM entities WHERE group_id = ? AND id = ? "
        "UNION SELECT operation_id FROM mentions WHERE group_id = ? AND entity_id = ? "
        "UNION SELECT operation_id FROM facts WHERE group_id = ? AND subject = ? "
        "UNION SELECT operation_id FROM facts WHERE group_id = ? AND object = ?)"
    )
    return sql, [group_id, entity_id] * 5


def _touching_episode(group_id: str, episode_id: str) -> tuple[str, list[Any]]:
    sql = (
        " AND (o.id IN (SELECT operation_id FROM episodes WHERE group_id = ? AND id = ? "
        "UNION SELECT expired_by FROM episodes WHERE group_id = ? AND id = ?) "
        "OR json_extract(o.details, '$.episode') = ? "
        "OR EXISTS (SELECT 1 FROM json_each(o.details, '$.episodes') WHERE value = ?))"
    )
    return sql, [group_id, episode_id, group_id, episode_id, episode_id, episode_id]


class SQLiteHistoryMixin:
    """The HistoryStore methods of SQLiteStore (which provides the writer, connections and vector cache)."""

    _write: Callable[..., Any]
    _on_writer: Callable[..., Any]
    _transaction: Callable[..., Any]
    _connection: Callable[[], apsw.Connection]
    _vectors: VectorCache

    def history_write(self, fn: Callable[[HistoryTxn], T]) -> T:
        """Run ``fn`` inside one write transaction; see HistoryStore."""
        result: T = self._write(lambda conn: fn(_HistoryTxn(conn, self._vectors)))
        return result

    def list_operations(
        self, group_id: str, query: OperationQuery, limit: int, after_key: tuple[datetime, str] | None
    ) -> list[Operation]:
        """Return operations matching ``query``, newest first; see HistoryStore."""
        where, params = "", []
        if query.kinds:
            where += f" AND o.kind IN ({', '.join('?' * len(query.kinds))})"
            params += list(query.kinds)
        if query.after is not None:
            where += " AND o.created_at >= ?"
            params.append(ts(query.after))
        if query.before is not None:
            where += " AND o.created_at < ?"
            params.append(ts(query.before))
        if after_key is not None:
            where += " AND (o.created_at, o.id) < (?, ?)"
            params += [ts(after_key[0]), after_key[1]]
        for clause, extra in (
            _touching_entity(group_id, query.entity_id) if query.entity_id else ("", []),
            _touching_episode(group_id, query.episode_id) if query.episode_id else ("", []),
        ):
            where += clause
            params += extra
        rows = (
            self._connection()
            .execute(
                f"SELECT {_OPERATION_COLUMNS} FROM operations o WHERE o.group_id = ?{where} "
                "ORDER BY o.created_at DESC, o.id DESC LIMIT ?",
                (group_id, *params, limit),
            )
            .fetchall()
        )
        return [_operation(row) for row in rows]

    def get_operation(self, group_id: str, operation_id: str) -> Operation | None:
        """Return one operation; see HistoryStore."""
        return _get_operation(self._connection(), group_id, operation_id)

    def operation_effects(self, group_id: str, operation_id: str) -> list[VersionRef]:
        """Return the versions an operation created or closed; see HistoryStore."""
        return _touched_by(self._connection(), group_id, operation_id)

    def purge_episode(
        self, group_id: str, episode_id: str, operation: Operation, reword: Reword
    ) -> PurgeReport:
        """Erase an episode and what only it supports, then compact; see HistoryStore."""

        def run(conn: apsw.Connection) -> PurgeReport:
            report: PurgeReport = self._transaction(
                conn, lambda c: purge_episode(c, group_id, episode_id, operation, reword)
            )
            compact(conn)
            return report

        report: PurgeReport = self._on_writer(run)
        self._vectors.clear()
        return report
