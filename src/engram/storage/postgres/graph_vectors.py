"""Fact and entity-name vectors on PostgreSQL: pgvector columns with HNSW indexes (cosine).

The ``embedding`` columns start without a dimension; ``prepare_graph_vectors`` (called when a
memory records its embedder) fixes it and builds the indexes, under the schema lock, and
``clear_graph_vectors`` drops both again. Searches use iterative index scans, as episode
vectors do (postgres_vectors.py), so a filter that rejects most of the nearest rows still
returns ``limit`` of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar

import numpy as np
import psycopg

from engram.errors import StoreError
from engram.models.graph import Entity, Fact
from engram.storage.graph_protocol import FactQuery, GraphTxn
from engram.storage.graph_vectors_base import PendingEntity, PendingFact, Vector, fact_text_key
from engram.storage.postgres.graph import PostgresGraphTxn
from engram.storage.postgres.graph_rows import (
    N_FACT_COLUMNS,
    E,
    F,
    entity_from_row,
    fact_filter,
    fact_from_row,
)

T = TypeVar("T")
Connection = psycopg.Connection[Any]

DIMENSIONS_KEY = "graph_vector_dimensions"
EF_SEARCH = 64
_TABLES = ("fact_vectors", "entity_vectors")
_PUT_ENTITY = (
    "INSERT INTO entity_vectors (group_id, id, name, embedding) VALUES (%s, %s, %s, %s) "
    "ON CONFLICT (group_id, id) DO UPDATE SET name = excluded.name, embedding = excluded.embedding"
)
_NAMES_JOIN = (
    "LEFT JOIN entities s ON s.group_id = f.group_id AND s.id = f.subject AND s.expired_at IS NULL "
    "LEFT JOIN entities o ON o.group_id = f.group_id AND o.id = f.object AND o.expired_at IS NULL"
)
_KEY_SQL = "f.fact || chr(31) || f.subject || chr(31) || coalesce(f.object, '')"


def _search_settings(conn: Connection, limit: int) -> None:
    conn.execute(
        "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
        "set_config('hnsw.ef_search', %s, true)",
        (str(max(EF_SEARCH, 2 * limit)),),
    )


class _VectorTxn(PostgresGraphTxn):
    """The PostgreSQL GraphTxn plus entity-name vectors (EntityVectorTxn)."""

    def nearest_entities(
        self, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        conn = self._group(group_id)
        _search_settings(conn, limit)
        rows = conn.execute(
            f"SELECT {E}, 1 - (v.embedding <=> %s) AS similarity FROM entity_vectors v "
            "JOIN entities e ON e.group_id = v.group_id AND e.id = v.id AND e.expired_at IS NULL "
            "AND (cardinality(%s::text[]) = 0 OR e.type = ANY(%s)) WHERE v.group_id = %s "
            "ORDER BY v.embedding <=> %s LIMIT %s",
            (
                np.asarray(vector, dtype=np.float32),
                list(types),
                list(types),
                group_id,
                np.asarray(vector),
                limit,
            ),
        ).fetchall()
        found = [(entity_from_row(row), float(row[13])) for row in rows if float(row[13]) >= floor]
        return sorted(found, key=lambda pair: -pair[1])

    def put_entity_vector(self, entity: Entity, vector: Vector) -> None:
        self._group(entity.group_id).execute(
            _PUT_ENTITY,
            (entity.group_id, entity.id, entity.name, np.asarray(vector, dtype=np.float32)),
        )


class PostgresGraphVectorsMixin:
    """GraphVectors for PostgresStore; listed first, it also makes ``graph_write`` hand out
    transactions with entity-name vectors."""

    _connection: Callable[[], AbstractContextManager[Connection]]
    _transaction: Callable[[], AbstractContextManager[Connection]]
    _lock: Callable[[Connection, Sequence[tuple[str, ...]]], None]
    _inserted: Callable[[int], None]

    def graph_write(self, fn: Callable[[GraphTxn], T]) -> T:
        """Run ``fn`` in one transaction, each group it touches locked; see PostgresGraphMixin.graph_write."""
        with self._transaction() as conn:
            txn = _VectorTxn(conn, lambda group_id: self._lock(conn, [(group_id, "graph")]))
            result = fn(txn)
        if txn.written:
            self._inserted(txn.written)
        return result

    def search_entity_vectors(
        self, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        """Return current entities whose name vector is nearest ``vector``; see GraphVectors."""
        with self._transaction() as conn:  # the HNSW settings are local to a transaction
            return _VectorTxn(conn, lambda _group: None).nearest_entities(
                group_id, vector, types, limit, floor
            )

    def prepare_graph_vectors(self, dimensions: int) -> None:
        """Give the vector columns their dimension and HNSW indexes, once; see GraphVectors."""
        with self._transaction() as conn:
            current = _dimensions(conn)
            if current == dimensions:
                return
            self._lock(conn, [("schema",)])
            current = _dimensions(conn)
            if current == dimensions:
                return
            if current is not None:
                raise StoreError(
                    f"this store holds {current}-dimensional fact and entity vectors, not {dimensions}; "
                    "run `engram reembed`",
                    field="embedder",
                )
            for table in _TABLES:
                conn.execute(f"ALTER TABLE {table} ALTER COLUMN embedding TYPE vector({int(dimensions)})")
                index = f"CREATE INDEX IF NOT EXISTS {table}_hnsw ON {table}"
                conn.execute(f"{index} USING hnsw (embedding vector_cosine_ops)")
            conn.execute(
                "INSERT INTO store_meta (key, value) VALUES (%s, %s)", (DIMENSIONS_KEY, str(dimensions))
            )

    def pending_fact_vectors(self, limit: int) -> list[PendingFact]:
        """Return current facts whose current text has no vector, oldest first; see GraphVectors."""
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT f.group_id, f.id, f.fact, f.subject, f.object, s.name, o.name FROM facts f "
                f"{_NAMES_JOIN} "
                "WHERE f.expired_at IS NULL AND NOT EXISTS (SELECT 1 FROM fact_vectors v "
                "WHERE v.group_id = f.group_id AND v.id = f.id "
                f"AND v.text_key = {_KEY_SQL}) ORDER BY f.recorded_at, f.group_id, f.id LIMIT %s",
                (limit,),
            ).fetchall()
        return [
            PendingFact(
                group_id=r[0],
                id=r[1],
                text_key=fact_text_key(r[2], r[3], r[4]),
                sentence=r[2],
                names=tuple(name for name in r[5:7] if name is not None),
            )
            for r in rows
        ]

    def put_fact_vectors(self, items: Sequence[tuple[PendingFact, Vector]]) -> None:
        """Store one vector per fact; see GraphVectors. Raises StoreError before prepare_graph_vectors."""
        if not items:
            return
        with self._transaction() as conn, conn.cursor() as cursor:
            _check_prepared(conn, len(items[0][1]))
            cursor.executemany(
                "INSERT INTO fact_vectors (group_id, id, text_key, embedding) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (group_id, id) DO UPDATE SET text_key = excluded.text_key, "
                "embedding = excluded.embedding",
                [(p.group_id, p.id, p.text_key, np.asarray(v, dtype=np.float32)) for p, v in items],
            )
        self._inserted(len(items))

    def facts_without_vectors(self, group_id: str, fact_ids: Sequence[str]) -> set[str]:
        """Return the facts among ``fact_ids`` with no vector yet; see GraphVectors."""
        if not fact_ids:
            return set()
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT id FROM unnest(%s::text[]) AS f(id) WHERE NOT EXISTS "
                "(SELECT 1 FROM fact_vectors v WHERE v.group_id = %s AND v.id = f.id)",
                (list(fact_ids), group_id),
            ).fetchall()
        return {str(row[0]) for row in rows}

    def search_fact_vectors(
        self, group_id: str, vector: Vector, query: FactQuery, limit: int
    ) -> list[tuple[Fact, float]]:
        """Return facts matching ``query`` nearest to ``vector``; see GraphVectors."""
        clause, params = fact_filter(query)
        with self._transaction() as conn:
            _search_settings(conn, limit)
            rows = conn.execute(
                f"SELECT {F}, 1 - (v.embedding <=> %s) AS similarity FROM fact_vectors v "
                f"JOIN facts f ON f.group_id = v.group_id AND f.id = v.id AND {clause} "
                "WHERE v.group_id = %s ORDER BY v.embedding <=> %s LIMIT %s",
                (np.asarray(vector, dtype=np.float32), *params, group_id, np.asarray(vector), 4 * limit),
            ).fetchall()
        hits = []
        for row in rows:
            fact = fact_from_row(row)
            weight = 1.0 if fact.status in ("current", "disputed") else query.inactive_weight
            hits.append((fact, float(row[N_FACT_COLUMNS]) * weight))
        hits.sort(key=lambda hit: (-hit[1], hit[0].id, -hit[0].version))
        return hits[:limit]

    def pending_entity_vectors(self, limit: int) -> list[PendingEntity]:
        """Return current entities whose name has no vector; see GraphVectors."""
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT e.group_id, e.id, e.name FROM entities e WHERE e.expired_at IS NULL AND NOT EXISTS "
                "(SELECT 1 FROM entity_vectors v WHERE v.group_id = e.group_id AND v.id = e.id "
                "AND v.name = e.name) ORDER BY e.recorded_at, e.group_id, e.id LIMIT %s",
                (limit,),
            ).fetchall()
        return [PendingEntity(r[0], r[1], r[2]) for r in rows]

    def put_entity_vectors(self, items: Sequence[tuple[PendingEntity, Vector]]) -> None:
        """Store one name vector per entity; see GraphVectors. Raises StoreError before prepare."""
        if not items:
            return
        with self._transaction() as conn, conn.cursor() as cursor:
            _check_prepared(conn, len(items[0][1]))
            cursor.executemany(
                _PUT_ENTITY,
                [(p.group_id, p.id, p.name, np.asarray(v, dtype=np.float32)) for p, v in items],
            )
        self._inserted(len(items))

    def clear_graph_vectors(self) -> int:
        """Delete every fact and entity vector, the indexes and the dimension; see GraphVectors."""
        count = 0
        with self._transaction() as conn:
            self._lock(conn, [("schema",)])
            for table in _TABLES:
                row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
                count += int(row[0]) if row else 0
                conn.execute(f"DELETE FROM {table}")
                conn.execute(f"DROP INDEX IF EXISTS {table}_hnsw")
                conn.execute(f"ALTER TABLE {table} ALTER COLUMN embedding TYPE vector")
            conn.execute("DELETE FROM store_meta WHERE key = %s", (DIMENSIONS_KEY,))
        return count


def _dimensions(conn: Connection) -> int | None:
    row = conn.execute("SELECT value FROM store_meta WHERE key = %s", (DIMENSIONS_KEY,)).fetchone()
    return None if row is None else int(row[0])


def _check_prepared(conn: Connection, wanted: int) -> None:
    current = _dimensions(conn)
    if current != wanted:
        raise StoreError(
            f"fact and entity vector columns hold {current or 'no'} dimensions, not {wanted}: "
            "the memory records its embedder first (prepare_graph_vectors)",
            field="embedder",
        )
