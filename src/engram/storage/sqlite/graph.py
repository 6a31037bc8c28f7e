"""The knowledge graph on SQLite: entity and fact versions, mentions, merge candidates, fact search."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar

import apsw

from engram.models.episodes import Operation
from engram.models.graph import Entity, Fact
from engram.storage.graph_protocol import FactQuery, GraphTxn, MergeCandidate
from engram.storage.sqlite.fulltext import fts_query
from engram.storage.sqlite.rows import dt, insert_operation, scalar, ts

T = TypeVar("T")

ENTITY_COLUMNS = (
    "group_id, id, version, name, type, aliases, attributes, summary, first_seen, last_seen, "
    "recorded_at, expired_at, operation_id"
)
FACT_COLUMNS = (
    "group_id, id, version, subject, predicate, object, value, fact, conditions, confidence, source_kind, "
    "episodes, valid_at, invalid_at, recorded_at, expired_at, status, superseded_by, operation_id"
)
F = ", ".join(f"f.{c.strip()}" for c in FACT_COLUMNS.split(","))
E = ", ".join(f"e.{c.strip()}" for c in ENTITY_COLUMNS.split(","))
RELATED_LIMIT = 200


def entity_from_row(row: Sequence[Any]) -> Entity:
    (
        group_id,
        id_,
        version,
        name,
        type_,
        aliases,
        attributes,
        summary,
        first_seen,
        last_seen,
        recorded_at,
        expired_at,
        operation_id,
    ) = row[:13]
    return Entity(
        id=id_,
        group_id=group_id,
        version=version,
        name=name,
        type=type_,
        aliases=json.loads(aliases),
        attributes=json.loads(attributes),
        summary=summary,
        first_seen=datetime.fromisoformat(first_seen),
        last_seen=datetime.fromisoformat(last_seen),
        recorded_at=datetime.fromisoformat(recorded_at),
        expired_at=dt(expired_at),
        operation_id=operation_id,
    )


def fact_from_row(row: Sequence[Any]) -> Fact:
    (
        group_id,
        id_,
        version,
        subject,
        predicate,
        object_,
        value,
        fact,
        conditions,
        confidence,
        source_kind,
        episodes,
        valid_at,
        invalid_at,
        recorded_at,
        expired_at,
        status,
        superseded_by,
        operation_id,
    ) = row[:19]
    return Fact(
        id=id_,
        group_id=group_id,
        version=version,
        subject=subject,
        predicate=predicate,
        object=object_,
        value=None if value is None else json.loads(value),
        fact=fact,
        conditions=json.loads(conditions),
        confidence=confidence,
        source_kind=source_kind,
        episodes=json.loads(episodes),
        valid_at=dt(valid_at),
        invalid_at=dt(invalid_at),
        recorded_at=datetime.fromisoformat(recorded_at),
        expired_at=dt(expired_at),
        status=status,
        superseded_by=superseded_by,
        operation_id=operation_id,
    )


def _time_filter(alias: str, known_at: datetime | None) -> tuple[str, list[Any]]:
    """Return the clause picking the versions held at ``known_at`` (the current ones when None)."""
    if known_at is None:
        return f"{alias}.expired_at IS NULL", []
    stamp = ts(known_at)
    return f"{alias}.recorded_at <= ? AND ({alias}.expired_at IS NULL OR {alias}.expired_at > ?)", [
        stamp,
        stamp,
    ]


def fact_filter(query: FactQuery) -> tuple[str, list[Any]]:
    clause, params = _time_filter("f", query.known_at)
    if query.as_of is not None:
        stamp = ts(query.as_of)
        clause += (
            " AND (f.valid_at IS NULL OR f.valid_at <= ?) AND (f.invalid_at IS NULL OR f.invalid_at > ?)"
        )
        clause += " AND f.status != 'retracted'"
        params += [stamp, stamp]
    elif not query.include_history:
        clause += " AND f.status IN ('current', 'disputed')"
    if query.subject is not None:
        clause += " AND (f.subject = ? OR f.object = ?)"
        params += [query.subject, query.subject]
    if query.predicate is not None:
        clause += " AND f.predicate = ?"
        params.append(query.predicate)
    return clause, params


class SQLiteGraphTxn:
    """GraphTxn on an SQLite connection inside the writer's transaction."""

    def __init__(self, conn: apsw.Connection) -> None:
        self._conn = conn

    def entities_named(self, group_id: str, name_keys: Sequence[str]) -> list[Entity]:
        if not name_keys:
            return []
        rows = self._conn.execute(
            f"SELECT DISTINCT {E} FROM entity_names n CROSS JOIN entities e ON e.group_id = n.group_id "
            f"AND e.id = n.entity_id AND e.expired_at IS NULL WHERE n.group_id = ? "
            f"AND n.name_key IN ({', '.join('?' * len(name_keys))})",
            (group_id, *name_keys),
        ).fetchall()
        return [entity_from_row(row) for row in rows]

    def entities_of_type(self, group_id: str, type_: str, limit: int) -> list[Entity]:
        rows = self._conn.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE group_id = ? AND type = ? AND expired_at IS NULL "
            "ORDER BY last_seen DESC LIMIT ?",
            (group_id, type_, limit),
        ).fetchall()
        return [entity_from_row(row) for row in rows]

    def entity(self, group_id: str, entity_id: str) -> Entity | None:
        return _current_entity(self._conn, group_id, entity_id)

    def related(self, group_id: str, entity_id: str) -> tuple[set[str], set[str]]:
        # Two indexed lookups (as subject, as object) rather than one OR the planner scans;
        # the threads of the most recent RELATED_LIMIT mentions are enough evidence.
        linked = self._conn.execute(
            "SELECT object FROM facts WHERE group_id = ? AND subject = ? AND expired_at IS NULL "
            "AND object IS NOT NULL UNION "
            "SELECT subject FROM facts WHERE group_id = ? AND object = ? AND expired_at IS NULL",
            (group_id, entity_id, group_id, entity_id),
        ).fetchall()
        threads = self._conn.execute(
            "SELECT DISTINCT thread FROM (SELECT d.thread FROM mentions m CROSS JOIN episode_docs d "
            "ON d.group_id = m.group_id AND d.id = m.episode_id WHERE m.group_id = ? AND m.entity_id = ? "
            "AND d.thread IS NOT NULL ORDER BY d.doc DESC LIMIT ?)",
            (group_id, entity_id, RELATED_LIMIT),
        ).fetchall()
        return {str(r[0]) for r in linked if r[0]}, {str(r[0]) for r in threads}

    def put_entity(self, entity: Entity, name_keys: Sequence[str]) -> None:
        conn = self._conn
        conn.execute(
            "UPDATE entities SET expired_at = ?, expired_by = ? "
            "WHERE group_id = ? AND id = ? AND expired_at IS NULL",
            (ts(entity.recorded_at), entity.operation_id, entity.group_id, entity.id),
        )
        conn.execute(
            f"INSERT INTO entities ({ENTITY_COLUMNS}) VALUES ({', '.join('?' * 13)})",
            (
                entity.group_id,
                entity.id,
                entity.version,
                entity.name,
                entity.type,
                json.dumps(entity.aliases, ensure_ascii=False),
                json.dumps(entity.attributes, ensure_ascii=False),
                entity.summary,
                ts(entity.first_seen),
                ts(entity.last_seen),
                ts(entity.recorded_at),
                None,
                entity.operation_id,
            ),
        )
        conn.execute(
            "DELETE FROM entity_names WHERE group_id = ? AND entity_id = ?", (entity.group_id, entity.id)
        )
        for key in dict.fromkeys(name_keys):
            conn.execute(
                "INSERT OR IGNORE INTO entity_names (group_id, name_key, entity_id) VALUES (?, ?, ?)",
                (entity.group_id, key, entity.id),
            )

    def facts_about(self, group_id: str, subject: str, predicate: str) -> list[Fact]:
        rows = self._conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE group_id = ? AND subject = ? AND predicate = ? "
            "AND expired_at IS NULL AND status IN ('current', 'disputed')",
            (group_id, subject, predicate),
        ).fetchall()
        return [fact_from_row(row) for row in rows]

    def put_fact(self, fact: Fact, index_text: str) -> None:
        conn = self._conn
        doc = scalar(
            conn, "SELECT doc FROM facts WHERE group_id = ? AND id = ? LIMIT 1", (fact.group_id, fact.id)
        )
        if doc is None:  # documents stay unique across live and archived facts
            doc = int(
                scalar(
                    conn,
                    "SELECT max(coalesce((SELECT max(doc) FROM facts), 0), "
                    "coalesce((SELECT max(doc) FROM archived_facts), 0)) + 1",
                )
            )
        conn.execute(
            "UPDATE facts SET expired_at = ?, expired_by = ? "
            "WHERE group_id = ? AND id = ? AND expired_at IS NULL",
            (ts(fact.recorded_at), fact.operation_id, fact.group_id, fact.id),
        )
        conn.execute(
            f"INSERT INTO facts (doc, {FACT_COLUMNS}) VALUES ({', '.join('?' * 20)})",
            (
                doc,
                fact.group_id,
                fact.id,
                fact.version,
                fact.subject,
                fact.predicate,
                fact.object,
                None if fact.value is None else json.dumps(fact.value, ensure_ascii=False),
                fact.fact,
                json.dumps(fact.conditions, ensure_ascii=False),
                fact.confidence,
                fact.source_kind,
                json.dumps(fact.episodes),
                None if fact.valid_at is None else ts(fact.valid_at),
                None if fact.invalid_at is None else ts(fact.invalid_at),
                ts(fact.recorded_at),
                None,
                fact.status,
                fact.superseded_by,
                fact.operation_id,
            ),
        )
        conn.execute("DELETE FROM facts_fts WHERE rowid = ?", (doc,))
        conn.execute("INSERT INTO facts_fts (rowid, text) VALUES (?, ?)", (doc, index_text))

    def facts_touching(self, group_id: str, entity_id: str) -> list[Fact]:
        rows = self._conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE group_id = ? AND expired_at IS NULL "
            "AND (subject = ? OR object = ?)",
            (group_id, entity_id, entity_id),
        ).fetchall()
        return [fact_from_row(row) for row in rows]

    def close_entity(self, group_id: str, entity_id: str, at: datetime, operation_id: str) -> None:
        self._conn.execute(
            "UPDATE entities SET expired_at = ?, expired_by = ? "
            "WHERE group_id = ? AND id = ? AND expired_at IS NULL",
            (ts(at), operation_id, group_id, entity_id),
        )
        self._conn.execute(
            "DELETE FROM entity_names WHERE group_id = ? AND entity_id = ?", (group_id, entity_id)
        )

    def episodes_mentioning(self, group_id: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        return _episodes_mentioning(self._conn, group_id, entity_ids, limit)

    def add_mentions(
        self, group_id: str, episode_id: str, entity_ids: Sequence[str], operation_id: str
    ) -> None:
        for entity_id in dict.fromkeys(entity_ids):
            self._conn.execute(
                "INSERT OR IGNORE INTO mentions (group_id, entity_id, episode_id, operation_id) "
                "VALUES (?, ?, ?, ?)",
                (group_id, entity_id, episode_id, operation_id),
            )

    def add_merge_candidate(self, group_id: str, candidate: MergeCandidate) -> None:
        self._conn.execute(
            "INSERT OR REPLACE INTO merge_candidates "
            "(group_id, entity_id, candidate_id, score, parts, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (
                group_id,
                candidate.entity_id,
                candidate.candidate_id,
                candidate.score,
                json.dumps(candidate.parts),
                ts(candidate.created_at),
            ),
        )

    def record_operation(self, operation: Operation, details: dict[str, object]) -> None:
        insert_operation(self._conn, operation, details)


def _current_entity(conn: apsw.Connection, group_id: str, entity_id: str) -> Entity | None:
    row = conn.execute(
        f"SELECT {ENTITY_COLUMNS} FROM entities WHERE group_id = ? AND id = ? AND expired_at IS NULL",
        (group_id, entity_id),
    ).fetchone()
    return None if row is None else entity_from_row(row)


class SQLiteGraphMixin:
    """The GraphStore methods of SQLiteStore (which provides ``_write`` and ``_connection``)."""

    _write: Callable[..., Any]
    _connection: Callable[[], apsw.Connection]

    def graph_write(self, fn: Callable[[GraphTxn], T]) -> T:
        """Run ``fn`` inside one write transaction; see GraphStore."""
        result: T = self._write(lambda conn: fn(SQLiteGraphTxn(conn)))
        return result

    def get_entity(self, group_id: str, entity_id: str, known_at: datetime | None = None) -> Entity | None:
        """Return an entity now or as held at ``known_at``; see GraphStore."""
        clause, params = _time_filter("e", known_at)
        row = (
            self._connection()
            .execute(
                f"SELECT {E} FROM entities e WHERE e.group_id = ? AND e.id = ? AND {clause}",
                (group_id, entity_id, *params),
            )
            .fetchone()
        )
        return None if row is None else entity_from_row(row)

    def entity_history(self, group_id: str, entity_id: str) -> list[Entity]:
        """Return every version of an entity, oldest first; see GraphStore."""
        rows = (
            self._connection()
            .execute(
                f"SELECT {ENTITY_COLUMNS} FROM entities WHERE group_id = ? AND id = ? ORDER BY version",
                (group_id, entity_id),
            )
            .fetchall()
        )
        return [entity_from_row(row) for row in rows]

    def find_facts(self, group_id: str, query: FactQuery, limit: int) -> list[Fact]:
        """Return facts matching ``query``; see GraphStore."""
        return find_facts_in(self._connection(), "facts", group_id, query, limit)

    def search_facts(
        self, group_id: str, terms: Sequence[str], query: FactQuery, limit: int
    ) -> list[tuple[Fact, float]]:
        """Return facts matching any term, best BM25 first; see GraphStore."""
        return search_facts_in(self._connection(), "facts", group_id, terms, query, limit)

    def search_entities(
        self, group_id: str, name_keys: Sequence[str], types: Sequence[str], limit: int
    ) -> list[Entity]:
        """Return current entities whose names contain a key; see GraphStore."""
        if not name_keys:
            return []
        likes = " OR ".join("n.name_key LIKE ?" for _ in name_keys)
        type_clause = f" AND e.type IN ({', '.join('?' * len(types))})" if types else ""
        rows = (
            self._connection()
            .execute(
                f"SELECT DISTINCT {E} FROM entity_names n CROSS JOIN entities e ON e.group_id = n.group_id "
                "AND e.id = n.entity_id AND e.expired_at IS NULL "
                f"WHERE n.group_id = ? AND ({likes}){type_clause} "
                "ORDER BY e.last_seen DESC LIMIT ?",
                (group_id, *(f"%{key}%" for key in name_keys), *types, limit),
            )
            .fetchall()
        )
        return [entity_from_row(row) for row in rows]

    def entities_with_names(self, group_id: str, name_keys: Sequence[str]) -> list[Entity]:
        """Return current entities named exactly by one of the keys; see GraphStore."""
        return SQLiteGraphTxn(self._connection()).entities_named(group_id, name_keys)

    def merge_candidates(self, group_id: str) -> list[MergeCandidate]:
        """Return recorded merge candidates, best first; see GraphStore."""
        rows = (
            self._connection()
            .execute(
                "SELECT entity_id, candidate_id, score, parts, created_at FROM merge_candidates "
                "WHERE group_id = ? ORDER BY score DESC",
                (group_id,),
            )
            .fetchall()
        )
        return [
            MergeCandidate(
                str(r[0]),
                str(r[1]),
                float(r[2]),  # type: ignore[arg-type]
                json.loads(str(r[3])),
                datetime.fromisoformat(str(r[4])),
            )
            for r in rows
        ]

    def mentioned_entities(self, group_id: str, episode_id: str) -> list[str]:
        """Return the entities an episode mentions; see GraphStore."""
        rows = (
            self._connection()
            .execute(
                "SELECT entity_id FROM mentions WHERE group_id = ? AND episode_id = ? ORDER BY entity_id",
                (group_id, episode_id),
            )
            .fetchall()
        )
        return [str(row[0]) for row in rows]

    def episodes_mentioning(self, group_id: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        """Return episodes mentioning any of the entities, newest first; see GraphStore."""
        return _episodes_mentioning(self._connection(), group_id, entity_ids, limit)


def _episodes_mentioning(
    conn: apsw.Connection, group_id: str, entity_ids: Sequence[str], limit: int
) -> list[str]:
    if not entity_ids:
        return []
    rows = conn.execute(
        "SELECT DISTINCT m.episode_id, d.timestamp FROM mentions m CROSS JOIN episode_docs d "
        "ON d.group_id = m.group_id AND d.id = m.episode_id "
        f"WHERE m.group_id = ? AND m.entity_id IN ({', '.join('?' * len(entity_ids))}) "
        "ORDER BY d.timestamp DESC LIMIT ?",
        (group_id, *entity_ids, limit),
    ).fetchall()
    return [str(row[0]) for row in rows]


def find_facts_in(
    conn: apsw.Connection, table: str, group_id: str, query: FactQuery, limit: int
) -> list[Fact]:
    """Return fact versions of ``table`` (facts or archived_facts) matching ``query``, newest first."""
    order = "ORDER BY coalesce(valid_at, recorded_at) DESC, id, version LIMIT ?"
    if query.subject is None:
        clause, params = fact_filter(query)
        sql = f"SELECT {F} FROM {table} f WHERE f.group_id = ? AND {clause} {order}"
        return [fact_from_row(row) for row in conn.execute(sql, (group_id, *params, limit)).fetchall()]
    # About one entity: two index lookups (as subject, as object). The planner answered the OR of
    # both, or the object side alone (most facts have no object, which skews its statistics), by
    # walking every fact of the group: 16-37 ms at 100k facts.
    clause, params = fact_filter(replace(query, subject=None))
    sides = [
        f"SELECT {F} FROM {table} f{_indexed(table, side, query)} WHERE f.group_id = ? AND f.{side} = ? "
        f"AND {clause}"
        for side in ("subject", "object")
    ]
    rows = conn.execute(
        f"SELECT * FROM ({sides[0]} UNION {sides[1]}) {order}",
        (group_id, query.subject, *params, group_id, query.subject, *params, limit),
    ).fetchall()
    return [fact_from_row(row) for row in rows]


def _indexed(table: str, side: str, query: FactQuery) -> str:
    """Return the INDEXED BY clause that serves ``side = ?`` in ``table``, or "" when none can."""
    if table == "archived_facts":
        return f" INDEXED BY archived_facts_{side}"
    return f" INDEXED BY facts_current_{side}" if query.known_at is None else ""


def search_facts_in(
    conn: apsw.Connection, table: str, group_id: str, terms: Sequence[str], query: FactQuery, limit: int
) -> list[tuple[Fact, float]]:
    """Return fact versions of ``table`` matching any term, best score first.

    The score is BM25 over ``<table>_fts``, times ``query.inactive_weight`` for versions that
    are neither current nor disputed; the limit applies to the weighted score.
    """
    if not terms:
        return [(fact, 0.0) for fact in find_facts_in(conn, table, group_id, query, limit)]
    clause, params = fact_filter(query)
    rows = conn.execute(
        f"SELECT {F}, -bm25({table}_fts) * "
        "(CASE WHEN f.status IN ('current', 'disputed') THEN 1.0 ELSE ? END) AS score "
        f"FROM {table}_fts x CROSS JOIN {table} f ON f.doc = x.rowid "
        f"WHERE {table}_fts MATCH ? AND f.group_id = ? AND {clause} ORDER BY score DESC LIMIT ?",
        (query.inactive_weight, fts_query(terms), group_id, *params, limit),
    ).fetchall()
    return [(fact_from_row(row), float(row[19])) for row in rows]  # type: ignore[arg-type]
