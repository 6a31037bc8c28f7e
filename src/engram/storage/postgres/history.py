"""History on PostgreSQL: the operation log, versions by operation, retraction and purge (issue #5).

The same HistoryTxn/HistoryStore as SQLite (engram.storage.sqlite.history). Purge deletes the
rows and then VACUUMs the tables it touched, so no index or visible page keeps them; copies in
WAL archives and backups are the operator's to expire (docs/deployment.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict
from datetime import datetime
from typing import Any, TypeVar

import psycopg

from engram.errors import NotFound
from engram.models.episodes import Episode, Operation
from engram.models.graph import Entity, Fact
from engram.storage.history_base import (
    HistoryTxn,
    ObjectKind,
    OperationQuery,
    PurgeReport,
    Reword,
    VersionRef,
    entities_unmentioned,
)
from engram.storage.postgres.archive import archive_rows, archived_superseded_by, unarchive_rows
from engram.storage.postgres.graph import CLOSE_CURRENT, PostgresGraphTxn
from engram.storage.postgres.graph_rows import ENTITY_COLUMNS, FACT_COLUMNS, entity_from_row, fact_from_row
from engram.storage.postgres.insert import NEXT_ID, NEXT_TEXT, PREVIOUS_ID, PREVIOUS_TEXT
from engram.storage.postgres.migrations import TEXT_CONFIG
from engram.storage.postgres.rows import (
    EPISODE_COLUMNS,
    INSERT_EPISODE,
    episode_from_row,
    episode_row,
    index_text,
    insert_operation,
)

T = TypeVar("T")
Connection = psycopg.Connection[Any]

_TABLES: dict[ObjectKind, str] = {"episode": "episodes", "entity": "entities", "fact": "facts"}
_OPERATION_COLUMNS = "o.group_id, o.id, o.kind, o.actor, o.created_at, o.summary, o.details"
_REFRESH_CONTEXT = (
    f"UPDATE episode_docs d SET context_doc = to_tsvector('{TEXT_CONFIG}', "
    f"concat_ws(' ', ({PREVIOUS_TEXT}), ({NEXT_TEXT}))) WHERE d.group_id = %s AND d.id = ANY(%s)"
)
_AROUND = f"SELECT ({PREVIOUS_ID}), ({NEXT_ID}) FROM episode_docs d WHERE d.group_id = %s AND d.id = %s"


def _operation(row: Sequence[Any]) -> Operation:
    group_id, id_, kind, actor, created_at, summary, details = row
    return Operation(
        id=id_,
        group_id=group_id,
        kind=kind,
        actor=actor,
        created_at=created_at,
        summary=summary,
        details=details,
    )


def _touched_by(conn: Connection, group_id: str, operation_id: str) -> list[VersionRef]:
    refs: list[VersionRef] = []
    for kind, table in _TABLES.items():
        rows = conn.execute(
            f"SELECT id, version, operation_id, expired_by, expired_at FROM {table} "
            "WHERE group_id = %(g)s AND operation_id = %(o)s UNION "
            f"SELECT id, version, operation_id, expired_by, expired_at FROM {table} "
            "WHERE group_id = %(g)s AND expired_by = %(o)s ORDER BY 1, 2",
            {"g": group_id, "o": operation_id},
        ).fetchall()
        refs += [VersionRef(kind, r[0], r[1], r[2], r[3], r[4]) for r in rows]
    return refs


def _get_operation(conn: Connection, group_id: str, operation_id: str) -> Operation | None:
    row = conn.execute(
        f"SELECT {_OPERATION_COLUMNS} FROM operations o WHERE o.group_id = %s AND o.id = %s",
        (group_id, operation_id),
    ).fetchone()
    return None if row is None else _operation(row)


def _around(conn: Connection, group_id: str, episode_id: str) -> list[str]:
    """Return the ids of the current previous and next episodes of the episode's thread."""
    row = conn.execute(_AROUND, (group_id, episode_id)).fetchone()
    return [] if row is None else [i for i in row if i is not None]


class _HistoryTxn(PostgresGraphTxn):
    """HistoryTxn on a PostgreSQL connection inside ``history_write``'s transaction."""

    def operation(self, group_id: str, operation_id: str) -> Operation | None:
        return _get_operation(self._group(group_id), group_id, operation_id)

    def touched_by(self, group_id: str, operation_id: str) -> list[VersionRef]:
        return _touched_by(self._group(group_id), group_id, operation_id)

    def versions(self, group_id: str, kind: ObjectKind, object_id: str) -> list[VersionRef]:
        if kind == "episode":
            self._lock_episode(group_id, object_id)
        rows = (
            self._group(group_id)
            .execute(
                f"SELECT version, operation_id, expired_by, expired_at FROM {_TABLES[kind]} "
                "WHERE group_id = %s AND id = %s ORDER BY version",
                (group_id, object_id),
            )
            .fetchall()
        )
        return [VersionRef(kind, object_id, r[0], r[1], r[2], r[3]) for r in rows]

    def _version(self, table: str, columns: str, group_id: str, object_id: str, version: int) -> Any:
        return (
            self._group(group_id)
            .execute(
                f"SELECT {columns} FROM {table} WHERE group_id = %s AND id = %s AND version = %s",
                (group_id, object_id, version),
            )
            .fetchone()
        )

    def episode_version(self, group_id: str, episode_id: str, version: int) -> Episode | None:
        row = self._version("episodes", EPISODE_COLUMNS, group_id, episode_id, version)
        return None if row is None else episode_from_row(row)

    def entity_version(self, group_id: str, entity_id: str, version: int) -> Entity | None:
        row = self._version("entities", ENTITY_COLUMNS, group_id, entity_id, version)
        return None if row is None else entity_from_row(row)

    def fact_version(self, group_id: str, fact_id: str, version: int) -> Fact | None:
        row = self._version("facts", FACT_COLUMNS, group_id, fact_id, version)
        return None if row is None else fact_from_row(row)

    def facts_citing(self, group_id: str, episode_id: str) -> list[Fact]:
        rows = (
            self._group(group_id)
            .execute(
                f"SELECT {FACT_COLUMNS} FROM facts WHERE group_id = %s AND expired_at IS NULL "
                "AND episodes ? %s ORDER BY id",
                (group_id, episode_id),
            )
            .fetchall()
        )
        return [fact_from_row(row) for row in rows]

    def _lock_episode(self, group_id: str, episode_id: str) -> None:
        """Take the row lock update_episode takes, so a revert or delete and an update serialise.

        Without it a delete racing a PATCH could both commit: the update re-opened the episode
        the delete had closed (found by a review: 22 of 40 races on two servers).
        """
        self._group(group_id).execute(
            "SELECT 1 FROM episode_docs WHERE group_id = %s AND id = %s FOR NO KEY UPDATE",
            (group_id, episode_id),
        )

    def put_episode_version(self, episode: Episode) -> None:
        self._lock_episode(episode.group_id, episode.id)
        conn = self._group(episode.group_id)
        conn.execute(
            CLOSE_CURRENT.format(table="episodes"),
            (episode.recorded_at, episode.operation_id, episode.group_id, episode.id),
        )
        conn.execute(INSERT_EPISODE, episode_row(episode))
        ids = [episode.id, *_around(conn, episode.group_id, episode.id)]
        conn.execute(_REFRESH_CONTEXT, (episode.group_id, ids))

    def close_episode(self, group_id: str, episode_id: str, at: datetime, operation_id: str) -> None:
        self._lock_episode(group_id, episode_id)
        conn = self._group(group_id)
        conn.execute(CLOSE_CURRENT.format(table="episodes"), (at, operation_id, group_id, episode_id))
        conn.execute("DELETE FROM episode_vectors WHERE group_id = %s AND id = %s", (group_id, episode_id))
        conn.execute(_REFRESH_CONTEXT, (group_id, _around(conn, group_id, episode_id)))

    def close_fact(self, group_id: str, fact_id: str, at: datetime, operation_id: str) -> None:
        # The full-text row stays: it serves reads at a past transaction time (known_at).
        self._group(group_id).execute(
            CLOSE_CURRENT.format(table="facts"), (at, operation_id, group_id, fact_id)
        )

    def remove_mentions(
        self, group_id: str, *, operation_id: str | None = None, episode_id: str | None = None
    ) -> list[tuple[str, str, str | None]]:
        column, value = (
            ("operation_id", operation_id) if operation_id is not None else ("episode_id", episode_id)
        )
        rows = (
            self._group(group_id)
            .execute(
                f"DELETE FROM mentions WHERE group_id = %s AND {column} = %s "
                "RETURNING entity_id, episode_id, operation_id",
                (group_id, value),
            )
            .fetchall()
        )
        return sorted((r[0], r[1], r[2]) for r in rows)

    def record_history_operation(self, operation: Operation) -> None:
        self.record_operation(operation, {})

    def archive_fact_ids(
        self,
        group_id: str,
        fact_ids: Sequence[str],
        operation: Operation,
        index_text: Callable[[Fact], str],
    ) -> tuple[list[str], int]:
        # The full-text rows move with their text: index_text is SQLite's.
        return archive_rows(self._group(group_id), group_id, fact_ids, operation.created_at, operation.id)

    def unarchive_facts(
        self,
        group_id: str,
        fact_ids: Sequence[str],
        index_text: Callable[[Fact], str],
        *,
        archived_by: str | None = None,
    ) -> list[str]:
        return unarchive_rows(self._group(group_id), group_id, fact_ids, archived_by)

    def archived_superseded_by(self, group_id: str, fact_id: str) -> list[str]:
        return archived_superseded_by(self._group(group_id), group_id, fact_id)


class PostgresHistoryMixin:
    """The HistoryStore methods of PostgresStore (which provides connections and locks)."""

    _connection: Callable[[], AbstractContextManager[Connection]]
    _transaction: Callable[[], AbstractContextManager[Connection]]
    _lock: Callable[[Connection, Sequence[tuple[str, ...]]], None]

    def history_write(self, fn: Callable[[HistoryTxn], T]) -> T:
        """Run ``fn`` in one transaction, each group it touches locked; see HistoryStore."""
        with self._transaction() as conn:
            return fn(_HistoryTxn(conn, lambda group_id: self._lock(conn, [(group_id, "graph")])))

    def list_operations(
        self, group_id: str, query: OperationQuery, limit: int, after_key: tuple[datetime, str] | None
    ) -> list[Operation]:
        """Return operations matching ``query``, newest first; see HistoryStore."""
        where, params = "", {"g": group_id, "limit": limit}
        if query.kinds:
            where += " AND o.kind = ANY(%(kinds)s)"
            params["kinds"] = list(query.kinds)
        if query.after is not None:
            where += " AND o.created_at >= %(after)s"
            params["after"] = query.after
        if query.before is not None:
            where += " AND o.created_at < %(before)s"
            params["before"] = query.before
        if after_key is not None:
            where += " AND (o.created_at, o.id) < (%(key_at)s, %(key_id)s)"
            params |= {"key_at": after_key[0], "key_id": after_key[1]}
        if query.entity_id:
            where += (
                " AND o.id IN (SELECT operation_id FROM entities WHERE group_id = %(g)s AND id = %(en)s "
                "UNION SELECT expired_by FROM entities WHERE group_id = %(g)s AND id = %(en)s "
                "UNION SELECT operation_id FROM mentions WHERE group_id = %(g)s AND entity_id = %(en)s "
                "UNION SELECT operation_id FROM facts WHERE group_id = %(g)s AND subject = %(en)s "
                "UNION SELECT operation_id FROM facts WHERE group_id = %(g)s AND object = %(en)s)"
            )
            params["en"] = query.entity_id
        if query.episode_id:
            where += (
                " AND (o.id IN (SELECT operation_id FROM episodes WHERE group_id = %(g)s AND id = %(ep)s "
                "UNION SELECT expired_by FROM episodes WHERE group_id = %(g)s AND id = %(ep)s) "
                "OR o.details->>'episode' = %(ep)s OR o.details->'episodes' ? %(ep)s)"
            )
            params["ep"] = query.episode_id
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {_OPERATION_COLUMNS} FROM operations o WHERE o.group_id = %(g)s{where} "
                "ORDER BY o.created_at DESC, o.id DESC LIMIT %(limit)s",
                params,
            ).fetchall()
        return [_operation(row) for row in rows]

    def get_operation(self, group_id: str, operation_id: str) -> Operation | None:
        """Return one operation; see HistoryStore."""
        with self._connection() as conn:
            return _get_operation(conn, group_id, operation_id)

    def operation_effects(self, group_id: str, operation_id: str) -> list[VersionRef]:
        """Return the versions an operation created or closed; see HistoryStore."""
        with self._connection() as conn:
            return _touched_by(conn, group_id, operation_id)

    def purge_episode(
        self, group_id: str, episode_id: str, operation: Operation, reword: Reword
    ) -> PurgeReport:
        """Erase an episode and what only it supports, then VACUUM; see HistoryStore."""
        with self._transaction() as conn:
            self._lock(conn, [(group_id, "graph"), (group_id, "id", episode_id)])
            report = _purge(conn, group_id, episode_id, operation, reword)
        with self._connection() as conn:  # autocommit: VACUUM cannot run in a transaction
            for table in (
                "episodes",
                "episode_docs",
                "episode_vectors",
                "facts",
                "fact_docs",
                "entities",
                "fact_vectors",
                "entity_vectors",
                "archived_facts",
                "archived_fact_docs",
                "entity_names",
                "mentions",
            ):
                conn.execute(f"VACUUM {table}")
        return report


def _purge(
    conn: Connection, group_id: str, episode_id: str, operation: Operation, reword: Reword
) -> PurgeReport:
    key = (group_id, episode_id)
    if conn.execute("SELECT 1 FROM episode_docs WHERE group_id = %s AND id = %s", key).fetchone() is None:
        raise NotFound(f"no episode with id {episode_id!r} in group {group_id!r}", field="id")
    around = _around(conn, group_id, episode_id)
    versions = conn.execute("DELETE FROM episodes WHERE group_id = %s AND id = %s", key).rowcount
    conn.execute("DELETE FROM episode_vectors WHERE group_id = %s AND id = %s", key)
    conn.execute("DELETE FROM episode_docs WHERE group_id = %s AND id = %s", key)
    conn.execute(_REFRESH_CONTEXT, (group_id, around))
    mentioned = {
        r[0]
        for r in conn.execute(
            "DELETE FROM mentions WHERE group_id = %s AND episode_id = %s RETURNING entity_id", key
        ).fetchall()
    }
    unmentioned = set[str]().union(
        *(
            entities_unmentioned(row[0], episode_id)
            for row in conn.execute(
                "SELECT details FROM operations WHERE group_id = %s AND kind IN ('delete', 'revert') "
                "AND strpos(details::text, %s) > 0",
                key,
            ).fetchall()
        )
    )
    fact_ids: list[str] = []
    named: set[str] = set()
    for table, docs in (("facts", "fact_docs"), ("archived_facts", "archived_fact_docs")):
        only_this = conn.execute(
            f"SELECT id, array_agg(DISTINCT subject) || array_agg(DISTINCT object) FROM {table} "
            f"WHERE group_id = %(g)s AND id IN (SELECT id FROM {table} WHERE group_id = %(g)s "
            "AND episodes ? %(e)s) GROUP BY id HAVING bool_and(episodes <@ jsonb_build_array(%(e)s::text))",
            {"g": group_id, "e": episode_id},
        ).fetchall()
        ids = [r[0] for r in only_this]
        named |= {name for r in only_this for name in r[1] if name is not None}
        for dependent in (table, docs, "fact_vectors"):
            conn.execute(f"DELETE FROM {dependent} WHERE group_id = %s AND id = ANY(%s)", (group_id, ids))
        conn.execute("DELETE FROM fact_hits WHERE group_id = %s AND fact_id = ANY(%s)", (group_id, ids))
        worded = conn.execute(  # facts others still support that the purged episode stated first
            f"SELECT id FROM {table} WHERE group_id = %s AND version = 1 AND episodes ? %s",
            (group_id, episode_id),
        ).fetchall()
        for (fact_id,) in worded:
            _reword(conn, table, docs, group_id, fact_id, reword)
        conn.execute(
            f"UPDATE {table} SET episodes = episodes - %s WHERE group_id = %s AND episodes ? %s",
            (episode_id, group_id, episode_id),
        )
        fact_ids += ids
    gone = conn.execute(
        "SELECT c FROM unnest(%(c)s::text[]) AS c WHERE NOT EXISTS "
        "(SELECT 1 FROM mentions WHERE group_id = %(g)s AND entity_id = c) AND NOT EXISTS "
        "(SELECT 1 FROM facts WHERE group_id = %(g)s AND (subject = c OR object = c)) AND NOT EXISTS "
        "(SELECT 1 FROM archived_facts WHERE group_id = %(g)s AND (subject = c OR object = c))",
        {"c": sorted(mentioned | named | unmentioned), "g": group_id},
    ).fetchall()
    entities = [r[0] for r in gone]
    for table, column in (
        ("entities", "id"),
        ("entity_names", "entity_id"),
        ("entity_vectors", "id"),
        ("merge_candidates", "entity_id"),
        ("merge_candidates", "candidate_id"),
    ):
        conn.execute(f"DELETE FROM {table} WHERE group_id = %s AND {column} = ANY(%s)", (group_id, entities))
    conn.execute(  # attributes the episode gave to entities that stay
        "UPDATE entities SET attributes = (SELECT coalesce(jsonb_object_agg(k, v), '{}'::jsonb) "
        "FROM jsonb_each(attributes) AS a(k, v) WHERE v->>'episode' IS DISTINCT FROM %(e)s) "
        "WHERE group_id = %(g)s AND id = ANY(%(c)s)",
        {"e": episode_id, "g": group_id, "c": sorted(mentioned | named | unmentioned)},
    )
    report = PurgeReport(
        episode_versions=versions, facts=len(fact_ids), entities=len(entities), mentions=len(mentioned)
    )
    insert_operation(conn, operation, {"episode": episode_id, **asdict(report)})
    return report


def _reword(conn: Connection, table: str, docs: str, group_id: str, fact_id: str, reword: Reword) -> None:
    """Give every version of a fact ``reword``'s sentence and full-text text; drop its vector."""
    row = conn.execute(
        f"SELECT {FACT_COLUMNS} FROM {table} WHERE group_id = %s AND id = %s ORDER BY version DESC LIMIT 1",
        (group_id, fact_id),
    ).fetchone()
    assert row is not None
    fact = fact_from_row(row)
    names = [
        None
        if entity_id is None
        else (
            conn.execute(
                "SELECT name FROM entities WHERE group_id = %s AND id = %s ORDER BY version DESC LIMIT 1",
                (group_id, entity_id),
            ).fetchone()
            or [None]
        )[0]
        for entity_id in (fact.subject, fact.object)
    ]
    sentence, text = reword(fact, names[0], names[1])
    conn.execute(
        f"UPDATE {table} SET fact = %s WHERE group_id = %s AND id = %s", (sentence, group_id, fact_id)
    )
    conn.execute(
        f"UPDATE {docs} SET text = %s WHERE group_id = %s AND id = %s", (index_text(text), group_id, fact_id)
    )
    conn.execute("DELETE FROM fact_vectors WHERE group_id = %s AND id = %s", (group_id, fact_id))
