"""The knowledge graph on PostgreSQL: entity and fact versions, mentions, merge candidates, fact search.

The same GraphStore/GraphTxn semantics as the SQLite store (sqlite_graph.py), on the tables
of postgres_schema.py migration 3. SQLite has one writer thread; here several processes may
write at once, so ``graph_write`` runs ``fn`` in one transaction that, before its first read
or write in a group, takes a transaction-scoped advisory lock on that group's graph: graph
writers of one group serialise (resolution and arbitration decide on a graph nobody else is
changing), writers of different groups run in parallel. Every GraphTxn method names its
group (``put_*`` through the entity or fact, ``record_operation`` through the operation),
so the lock is always taken before the first statement. A ``fn`` spanning several groups
locks them in the order it reaches them; two such writers reaching them in opposite orders
deadlock, and PostgreSQL aborts one (StoreError); Engram's own writes stay in one group.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, TypeVar

import psycopg
from psycopg.types.json import Jsonb

from engram.errors import InvalidInput
from engram.models.episodes import Operation
from engram.models.graph import Entity, Fact
from engram.storage.graph_protocol import FactQuery, GraphTxn, MergeCandidate
from engram.storage.postgres.graph_rows import (
    ENTITY_COLUMNS,
    FACT_COLUMNS,
    INSERT_ENTITY,
    INSERT_FACT,
    E,
    F,
    entity_from_row,
    entity_row,
    fact_filter,
    fact_from_row,
    fact_row,
    like_patterns,
    time_filter,
)
from engram.storage.postgres.graph_text import FactText
from engram.storage.postgres.rows import _has_nul, insert_operation
from engram.storage.postgres.rows import index_text as split_words

T = TypeVar("T")
Connection = psycopg.Connection[Any]

RELATED_LIMIT = 200
"""Most recent mentions of an entity whose threads count as its context (as in SQLite)."""

_NAMED = (
    f"SELECT {E} FROM entities e WHERE e.group_id = %s AND e.expired_at IS NULL AND e.id IN "
    "(SELECT n.entity_id FROM entity_names n WHERE n.group_id = %s AND n.name_key = ANY(%s)) ORDER BY e.id"
)
CLOSE_CURRENT = (
    "UPDATE {table} SET expired_at = %s, expired_by = %s "
    "WHERE group_id = %s AND id = %s AND expired_at IS NULL"
)


def _entities_named(conn: Connection, group_id: str, name_keys: Sequence[str]) -> list[Entity]:
    if not name_keys:
        return []
    rows = conn.execute(_NAMED, (group_id, group_id, list(dict.fromkeys(name_keys)))).fetchall()
    return [entity_from_row(row) for row in rows]


def _episodes_mentioning(conn: Connection, group_id: str, entity_ids: Sequence[str], limit: int) -> list[str]:
    if not entity_ids:
        return []
    rows = conn.execute(
        "SELECT DISTINCT m.episode_id, d.timestamp FROM mentions m JOIN episode_docs d "
        "ON d.group_id = m.group_id AND d.id = m.episode_id "
        "WHERE m.group_id = %s AND m.entity_id = ANY(%s) "
        "ORDER BY d.timestamp DESC, m.episode_id DESC LIMIT %s",
        (group_id, list(entity_ids), limit),
    ).fetchall()
    return [str(row[0]) for row in rows]


def _check_nul(field: str, *values: Any) -> None:
    """Raise InvalidInput when a value holds a NUL character, which PostgreSQL text and jsonb refuse."""
    if any(_has_nul(value) for value in values):
        raise InvalidInput(f"{field} must not contain NUL characters", field=field)


class PostgresGraphTxn:
    """GraphTxn on a PostgreSQL connection inside ``graph_write``'s transaction.

    ``lock(group_id)`` is called before the first statement about each group. Writes of
    several statements are pipelined (one round trip). Current entities read by ``entity``
    are remembered until this transaction writes them (no other writer can: the group is
    locked), which saves the two lookups per stored fact of its full-text names; a method
    that changes ``entities`` must call ``_forget``.
    """

    def __init__(self, conn: Connection, lock: Callable[[str], None]) -> None:
        self._conn = conn
        self._lock = lock
        self._locked: set[str] = set()
        self._entities: dict[tuple[str, str], Entity | None] = {}
        self.written = 0

    def _group(self, group_id: str) -> Connection:
        if group_id not in self._locked:
            self._lock(group_id)
            self._locked.add(group_id)
        return self._conn

    def entities_named(self, group_id: str, name_keys: Sequence[str]) -> list[Entity]:
        return _entities_named(self._group(group_id), group_id, name_keys)

    def entities_of_type(self, group_id: str, type_: str, limit: int) -> list[Entity]:
        rows = (
            self._group(group_id)
            .execute(
                f"SELECT {ENTITY_COLUMNS} FROM entities WHERE group_id = %s AND type = %s "
                "AND expired_at IS NULL ORDER BY last_seen DESC, id LIMIT %s",
                (group_id, type_, limit),
            )
            .fetchall()
        )
        return [entity_from_row(row) for row in rows]

    def _forget(self, group_id: str, entity_id: str) -> None:
        self._entities.pop((group_id, entity_id), None)

    def entity(self, group_id: str, entity_id: str) -> Entity | None:
        key = (group_id, entity_id)
        if key not in self._entities:
            row = (
                self._group(group_id)
                .execute(
                    f"SELECT {ENTITY_COLUMNS} FROM entities "
                    "WHERE group_id = %s AND id = %s AND expired_at IS NULL",
                    (group_id, entity_id),
                )
                .fetchone()
            )
            self._entities[key] = None if row is None else entity_from_row(row)
        found = self._entities[key]
        return None if found is None else found.model_copy(deep=True)

    def related(self, group_id: str, entity_id: str) -> tuple[set[str], set[str]]:
        # One round trip: entities linked by current facts (as subject, as object: two index
        # lookups), and the threads of the entity's most recent RELATED_LIMIT mentions.
        row = (
            self._group(group_id)
            .execute(
                "SELECT array(SELECT object FROM facts WHERE group_id = %(g)s AND subject = %(e)s "
                "AND expired_at IS NULL AND object IS NOT NULL UNION "
                "SELECT subject FROM facts WHERE group_id = %(g)s AND object = %(e)s "
                "AND expired_at IS NULL), "
                "array(SELECT DISTINCT thread FROM (SELECT d.thread FROM mentions m JOIN episode_docs d "
                "ON d.group_id = m.group_id AND d.id = m.episode_id WHERE m.group_id = %(g)s "
                "AND m.entity_id = %(e)s AND d.thread IS NOT NULL "
                "ORDER BY d.created_at DESC, d.id DESC LIMIT %(n)s) t)",
                {"g": group_id, "e": entity_id, "n": RELATED_LIMIT},
            )
            .fetchone()
        )
        assert row is not None
        return {str(v) for v in row[0] if v}, {str(v) for v in row[1]}

    def put_entity(self, entity: Entity, name_keys: Sequence[str]) -> None:
        _check_nul("entities", entity.name, entity.aliases, entity.attributes, entity.summary, entity.type)
        conn = self._group(entity.group_id)
        self._forget(entity.group_id, entity.id)
        with conn.pipeline():
            conn.execute(
                CLOSE_CURRENT.format(table="entities"),
                (entity.recorded_at, entity.operation_id, entity.group_id, entity.id),
            )
            conn.execute(INSERT_ENTITY, entity_row(entity))
            conn.execute(
                "DELETE FROM entity_names WHERE group_id = %s AND entity_id = %s",
                (entity.group_id, entity.id),
            )
            conn.execute(
                "INSERT INTO entity_names (group_id, name_key, entity_id) "
                "SELECT %s, k, %s FROM unnest(%s::text[]) AS k ON CONFLICT DO NOTHING",
                (entity.group_id, entity.id, list(dict.fromkeys(name_keys))),
            )
        self.written += 1

    def facts_about(self, group_id: str, subject: str, predicate: str) -> list[Fact]:
        rows = (
            self._group(group_id)
            .execute(
                f"SELECT {FACT_COLUMNS} FROM facts WHERE group_id = %s AND subject = %s AND predicate = %s "
                "AND expired_at IS NULL AND status IN ('current', 'disputed') ORDER BY id",
                (group_id, subject, predicate),
            )
            .fetchall()
        )
        return [fact_from_row(row) for row in rows]

    def put_fact(self, fact: Fact, index_text: str) -> None:
        _check_nul("facts", fact.fact, fact.value, fact.conditions, fact.predicate, fact.episodes)
        conn = self._group(fact.group_id)
        with conn.pipeline():
            conn.execute(
                CLOSE_CURRENT.format(table="facts"),
                (fact.recorded_at, fact.operation_id, fact.group_id, fact.id),
            )
            conn.execute(INSERT_FACT, fact_row(fact))
            conn.execute(
                "INSERT INTO fact_docs (group_id, id, text) VALUES (%s, %s, %s) "
                "ON CONFLICT (group_id, id) DO UPDATE SET text = excluded.text "
                "WHERE fact_docs.text IS DISTINCT FROM excluded.text",
                # Split as the query side splits: PostgreSQL's parser reads "INV-39393" as 'inv' and
                # '-39393' (a signed number), so the id's number was not found.
                (fact.group_id, fact.id, split_words(index_text)),
            )
        self.written += 1

    def facts_touching(self, group_id: str, entity_id: str) -> list[Fact]:
        rows = (
            self._group(group_id)
            .execute(
                f"SELECT {FACT_COLUMNS} FROM facts WHERE group_id = %s AND expired_at IS NULL "
                "AND (subject = %s OR object = %s) ORDER BY id",
                (group_id, entity_id, entity_id),
            )
            .fetchall()
        )
        return [fact_from_row(row) for row in rows]

    def close_entity(self, group_id: str, entity_id: str, at: datetime, operation_id: str) -> None:
        conn = self._group(group_id)
        self._forget(group_id, entity_id)
        with conn.pipeline():
            conn.execute(CLOSE_CURRENT.format(table="entities"), (at, operation_id, group_id, entity_id))
            conn.execute(
                "DELETE FROM entity_names WHERE group_id = %s AND entity_id = %s", (group_id, entity_id)
            )

    def episodes_mentioning(self, group_id: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        return _episodes_mentioning(self._group(group_id), group_id, entity_ids, limit)

    def add_mentions(
        self, group_id: str, episode_id: str, entity_ids: Sequence[str], operation_id: str
    ) -> None:
        ids = list(dict.fromkeys(entity_ids))
        if ids:
            self._group(group_id).execute(
                "INSERT INTO mentions (group_id, entity_id, episode_id, operation_id) "
                "SELECT %s, e, %s, %s FROM unnest(%s::text[]) AS e ON CONFLICT DO NOTHING",
                (group_id, episode_id, operation_id, ids),
            )

    def add_merge_candidate(self, group_id: str, candidate: MergeCandidate) -> None:
        self._group(group_id).execute(
            "INSERT INTO merge_candidates (group_id, entity_id, candidate_id, score, parts, created_at) "
            "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (group_id, entity_id, candidate_id) "
            "DO UPDATE SET score = excluded.score, parts = excluded.parts, created_at = excluded.created_at",
            (
                group_id,
                candidate.entity_id,
                candidate.candidate_id,
                candidate.score,
                Jsonb(candidate.parts),
                candidate.created_at,
            ),
        )

    def record_operation(self, operation: Operation, details: dict[str, object]) -> None:
        insert_operation(self._group(operation.group_id), operation, details)


class PostgresGraphMixin:
    """The GraphStore methods of PostgresStore (which provides the connections, locks and statistics)."""

    _connection: Callable[[], AbstractContextManager[Connection]]
    _transaction: Callable[[], AbstractContextManager[Connection]]
    _lock: Callable[[Connection, Sequence[tuple[str, ...]]], None]
    _inserted: Callable[[int], None]
    _fact_text: FactText

    def graph_write(self, fn: Callable[[GraphTxn], T]) -> T:
        """Run ``fn`` in one transaction, each group it touches locked against other graph writers.

        Reads inside ``fn`` see its own writes; an exception rolls everything back.
        """
        with self._transaction() as conn:
            txn = PostgresGraphTxn(conn, lambda group_id: self._lock(conn, [(group_id, "graph")]))
            result = fn(txn)
        if txn.written:
            self._inserted(txn.written)
        return result

    def get_entity(self, group_id: str, entity_id: str, known_at: datetime | None = None) -> Entity | None:
        """Return an entity now or as held at ``known_at``; see GraphStore."""
        clause, params = time_filter("e", known_at)
        with self._connection() as conn:
            row = conn.execute(
                f"SELECT {E} FROM entities e WHERE e.group_id = %s AND e.id = %s AND {clause} "
                "ORDER BY e.version DESC LIMIT 1",
                (group_id, entity_id, *params),
            ).fetchone()
        return None if row is None else entity_from_row(row)

    def entity_history(self, group_id: str, entity_id: str) -> list[Entity]:
        """Return every version of an entity, oldest first; see GraphStore."""
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {ENTITY_COLUMNS} FROM entities WHERE group_id = %s AND id = %s ORDER BY version",
                (group_id, entity_id),
            ).fetchall()
        return [entity_from_row(row) for row in rows]

    def find_facts(self, group_id: str, query: FactQuery, limit: int) -> list[Fact]:
        """Return facts matching ``query``, newest valid time first; see GraphStore."""
        clause, params = fact_filter(query)
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {F} FROM facts f WHERE f.group_id = %s AND {clause} "
                "ORDER BY coalesce(f.valid_at, f.recorded_at) DESC, f.id, f.version LIMIT %s",
                (group_id, *params, limit),
            ).fetchall()
        return [fact_from_row(row) for row in rows]

    def search_facts(
        self, group_id: str, terms: Sequence[str], query: FactQuery, limit: int
    ) -> list[tuple[Fact, float]]:
        """Return facts matching any term, best first (the BM25 approximation of postgres_graph_text)."""
        if not terms:
            return [(fact, 0.0) for fact in self.find_facts(group_id, query, limit)]
        clause, params = fact_filter(query)
        with self._connection() as conn:
            return self._fact_text.search(
                conn, group_id, terms, clause, params, limit, inactive_weight=query.inactive_weight
            )

    def search_entities(
        self, group_id: str, name_keys: Sequence[str], types: Sequence[str], limit: int
    ) -> list[Entity]:
        """Return current entities whose names contain a key (any case), most recently seen first."""
        if not name_keys:
            return []
        type_clause = " AND e.type = ANY(%s)" if types else ""
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {E} FROM entities e WHERE e.group_id = %s AND e.expired_at IS NULL AND e.id IN "
                "(SELECT n.entity_id FROM entity_names n WHERE n.group_id = %s AND n.name_key ILIKE ANY(%s))"
                f"{type_clause} ORDER BY e.last_seen DESC, e.id LIMIT %s",
                (
                    group_id,
                    group_id,
                    like_patterns(name_keys),
                    *([list(types)] if types else []),
                    limit,
                ),
            ).fetchall()
        return [entity_from_row(row) for row in rows]

    def entities_with_names(self, group_id: str, name_keys: Sequence[str]) -> list[Entity]:
        """Return current entities named exactly by one of the keys; see GraphStore."""
        with self._connection() as conn:
            return _entities_named(conn, group_id, name_keys)

    def merge_candidates(self, group_id: str) -> list[MergeCandidate]:
        """Return recorded merge candidates, best first; see GraphStore."""
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT entity_id, candidate_id, score, parts, created_at FROM merge_candidates "
                "WHERE group_id = %s ORDER BY score DESC, entity_id, candidate_id",
                (group_id,),
            ).fetchall()
        return [
            MergeCandidate(str(r[0]), str(r[1]), float(r[2]), dict(r[3]), r[4].astimezone(UTC)) for r in rows
        ]

    def mentioned_entities(self, group_id: str, episode_id: str) -> list[str]:
        """Return the entities an episode mentions; see GraphStore."""
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT entity_id FROM mentions WHERE group_id = %s AND episode_id = %s ORDER BY entity_id",
                (group_id, episode_id),
            ).fetchall()
        return [str(row[0]) for row in rows]

    def episodes_mentioning(self, group_id: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        """Return episodes mentioning any of the entities, newest first; see GraphStore."""
        with self._connection() as conn:
            return _episodes_mentioning(conn, group_id, entity_ids, limit)
