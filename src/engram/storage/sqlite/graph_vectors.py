"""Fact and entity-name vectors on SQLite: float32 BLOBs, exact search over per-group numpy matrices.

The same design as episode vectors (sqlite_vectors.py): each group's matrix is loaded on
first use and refreshed when the group's rows change, detected by their count and highest
``seq`` (AUTOINCREMENT: a replaced row gets a new one). The matrices hold committed rows
only (they are read through a reader connection); a graph write adds the entity vectors it
stores itself, so a name resolved twice in one batch finds the entity made for the first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import apsw
import numpy as np
from threadpoolctl import ThreadpoolController

from engram.errors import StoreError
from engram.models.graph import Entity, Fact
from engram.storage.graph_protocol import FactQuery, GraphTxn
from engram.storage.graph_vectors_base import PendingEntity, PendingFact, Vector, fact_text_key
from engram.storage.sqlite.graph import E, F, SQLiteGraphTxn, entity_from_row, fact_filter, fact_from_row
from engram.storage.sqlite.rows import scalar
from engram.storage.sqlite.vectors import to_blob

T = TypeVar("T")

_ONE_BLAS_THREAD = ThreadpoolController()
POOL = 500
"""The best this many are checked against the fact filter first; every passing fact only if too few pass."""
ENTITY_POOL = 50
"""Nearest names looked up per mention before the type and current-version checks."""
_PUT_ENTITY = "INSERT OR REPLACE INTO entity_vectors (group_id, entity_id, name, vector) VALUES (?, ?, ?, ?)"
_NAMES_JOIN = (
    "LEFT JOIN entities s ON s.group_id = f.group_id AND s.id = f.subject AND s.expired_at IS NULL "
    "LEFT JOIN entities o ON o.group_id = f.group_id AND o.id = f.object AND o.expired_at IS NULL"
)
_KEY_SQL = "f.fact || char(31) || f.subject || char(31) || coalesce(f.object, '')"


@dataclass(slots=True)
class _Matrix:
    keys: list[Any]
    matrix: Vector
    count: int
    max_seq: int


class _GroupCache:
    """Per (table, group) matrices of committed vectors; thread-safe."""

    _KEY_COLUMN: ClassVar[dict[str, str]] = {"fact_vectors": "doc", "entity_vectors": "entity_id"}

    def __init__(self) -> None:
        self._matrices: dict[tuple[str, str], _Matrix] = {}
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget every matrix."""
        with self._lock:
            self._matrices.clear()

    def matrix(self, conn: apsw.Connection, table: str, group_id: str) -> _Matrix | None:
        """Return the group's vectors in ``table`` as (keys, matrix), refreshed; None when there are none."""
        row = conn.execute(
            f"SELECT count(*), coalesce(max(seq), 0) FROM {table} WHERE group_id = ?", (group_id,)
        ).fetchone()
        assert row is not None
        count, max_seq = int(row[0]), int(row[1])
        if count == 0:
            return None
        key_column = self._KEY_COLUMN[table]
        with self._lock:
            cached = self._matrices.get((table, group_id))
            if cached is not None and cached.count == count and cached.max_seq == max_seq:
                return cached
            after = 0 if cached is None else cached.max_seq
            rows = conn.execute(
                f"SELECT {key_column}, vector FROM {table} WHERE group_id = ? AND seq > ? ORDER BY seq",
                (group_id, after),
            ).fetchall()
            if cached is not None and cached.count + len(rows) == count:  # only additions
                keys, matrix = [*cached.keys, *(r[0] for r in rows)], _stack(cached.matrix, rows)
            else:
                rows = conn.execute(
                    f"SELECT {key_column}, vector FROM {table} WHERE group_id = ? ORDER BY seq", (group_id,)
                ).fetchall()
                keys, matrix = [r[0] for r in rows], _stack(None, rows)
            cached = _Matrix(keys, matrix, count, max_seq)
            self._matrices[(table, group_id)] = cached
            return cached


def _stack(base: Vector | None, rows: Sequence[Any]) -> Vector:
    if not rows:
        assert base is not None
        return base
    blobs = [bytes(r[1]) for r in rows]
    added = np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), -1).astype(np.float32)
    return added if base is None else np.vstack([base, added])


def _top(scores: Vector, k: int) -> list[int]:
    if k >= len(scores):
        return [int(i) for i in np.argsort(-scores, kind="stable")]
    part = np.argpartition(-scores, k)[:k]
    return [int(i) for i in part[np.argsort(-scores[part], kind="stable")]]


def _scores(matrix: Vector, vector: Vector) -> Vector:
    with _ONE_BLAS_THREAD.limit(limits=1, user_api="blas"):
        result: Vector = matrix @ np.asarray(vector, dtype=np.float32)
    return result


class _VectorTxn(SQLiteGraphTxn):
    """The SQLite GraphTxn plus entity-name vectors (EntityVectorTxn)."""

    def __init__(self, conn: apsw.Connection, committed: Callable[[str], _Matrix | None]) -> None:
        super().__init__(conn)
        self._committed = committed
        self._added: dict[tuple[str, str], Vector] = {}

    def nearest_entities(
        self, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        scored: dict[str, float] = {}
        cached = self._committed(group_id)
        if cached is not None:
            scores = _scores(cached.matrix, vector)
            for i in _top(scores, ENTITY_POOL):
                if scores[i] >= floor:
                    scored[str(cached.keys[i])] = float(scores[i])
        for (group, entity_id), added in self._added.items():
            similarity = float(np.dot(added, vector))
            if group == group_id and similarity >= floor:
                scored[entity_id] = similarity
        if not scored:
            return []
        ids = sorted(scored, key=lambda k: -scored[k])[:ENTITY_POOL]
        typed = f" AND e.type IN ({', '.join('?' * len(types))})" if types else ""
        rows = self._conn.execute(
            f"SELECT {E} FROM entities e WHERE e.group_id = ? AND e.expired_at IS NULL "
            f"AND e.id IN ({', '.join('?' * len(ids))}){typed}",
            (group_id, *ids, *types),
        ).fetchall()
        found = sorted(((entity_from_row(row), scored[str(row[1])]) for row in rows), key=lambda p: -p[1])
        return found[:limit]

    def put_entity_vector(self, entity: Entity, vector: Vector) -> None:
        self._conn.execute(
            _PUT_ENTITY,
            (entity.group_id, entity.id, entity.name, to_blob(vector)),
        )
        self._added[(entity.group_id, entity.id)] = np.asarray(vector, dtype=np.float32)


class SQLiteGraphVectorsMixin:
    """GraphVectors for SQLiteStore (which provides ``_write`` and ``_connection``); listed first, it
    also makes ``graph_write`` hand out transactions with entity-name vectors."""

    _write: Callable[..., Any]
    _connection: Callable[[], apsw.Connection]
    _graph_vector_cache: _GroupCache | None = None

    def _graph_cache(self) -> _GroupCache:
        if self._graph_vector_cache is None:
            self._graph_vector_cache = _GroupCache()
        return self._graph_vector_cache

    def graph_write(self, fn: Callable[[GraphTxn], T]) -> T:
        """Run ``fn`` inside one write transaction; see GraphStore (the txn is an EntityVectorTxn too)."""
        cache = self._graph_cache()

        def committed(group_id: str) -> _Matrix | None:
            return cache.matrix(self._connection(), "entity_vectors", group_id)

        result: T = self._write(lambda conn: fn(_VectorTxn(conn, committed)))
        return result

    def search_entity_vectors(
        self, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        """Return current entities whose name vector is nearest ``vector``; see GraphVectors."""
        cache, conn = self._graph_cache(), self._connection()
        txn = _VectorTxn(conn, lambda group: cache.matrix(conn, "entity_vectors", group))
        return txn.nearest_entities(group_id, vector, types, limit, floor)

    def prepare_graph_vectors(self, dimensions: int) -> None:
        """Check that stored graph vectors have ``dimensions``; see GraphVectors."""
        conn = self._connection()
        for table in ("fact_vectors", "entity_vectors"):
            row = conn.execute(f"SELECT length(vector) FROM {table} LIMIT 1").fetchone()
            if row is not None and int(row[0]) != 4 * dimensions:
                raise StoreError(
                    f"this store holds {int(row[0]) // 4}-dimensional {table}, not {dimensions}; "
                    "run `engram reembed`",
                    field="embedder",
                )

    def pending_fact_vectors(self, limit: int) -> list[PendingFact]:
        """Return current facts whose current text has no vector, by doc; see GraphVectors."""
        rows = (
            self._connection()
            .execute(
                "SELECT f.group_id, f.id, f.fact, f.subject, f.object, s.name, o.name FROM facts f "
                f"{_NAMES_JOIN} "
                "WHERE f.expired_at IS NULL AND NOT EXISTS (SELECT 1 FROM fact_vectors v "
                f"WHERE v.doc = f.doc AND v.text_key = {_KEY_SQL}) ORDER BY f.doc LIMIT ?",
                (limit,),
            )
            .fetchall()
        )
        return [
            PendingFact(
                group_id=str(r[0]),
                id=str(r[1]),
                text_key=fact_text_key(str(r[2]), str(r[3]), None if r[4] is None else str(r[4])),
                sentence=str(r[2]),
                names=tuple(str(name) for name in r[5:7] if name is not None),
            )
            for r in rows
        ]

    def put_fact_vectors(self, items: Sequence[tuple[PendingFact, Vector]]) -> None:
        """Store one vector per fact; see GraphVectors."""

        def put(conn: apsw.Connection) -> None:
            for pending, vector in items:
                conn.execute(
                    "INSERT OR REPLACE INTO fact_vectors (doc, group_id, text_key, vector) "
                    "SELECT doc, group_id, ?, ? FROM facts WHERE group_id = ? AND id = ? LIMIT 1",
                    (pending.text_key, to_blob(vector), pending.group_id, pending.id),
                )

        self._write(put)

    def facts_without_vectors(self, group_id: str, fact_ids: Sequence[str]) -> set[str]:
        """Return the facts among ``fact_ids`` with no vector yet; see GraphVectors."""
        if not fact_ids:
            return set()
        rows = (
            self._connection()
            .execute(
                "SELECT DISTINCT f.id FROM facts f WHERE f.group_id = ? "
                f"AND f.id IN ({', '.join('?' * len(fact_ids))}) "
                "AND NOT EXISTS (SELECT 1 FROM fact_vectors v WHERE v.doc = f.doc)",
                (group_id, *fact_ids),
            )
            .fetchall()
        )
        return {str(row[0]) for row in rows}

    def search_fact_vectors(
        self, group_id: str, vector: Vector, query: FactQuery, limit: int
    ) -> list[tuple[Fact, float]]:
        """Return facts matching ``query`` nearest to ``vector``; see GraphVectors."""
        conn = self._connection()
        cached = self._graph_cache().matrix(conn, "fact_vectors", group_id)
        if cached is None:
            return []
        scores = _scores(cached.matrix, vector)
        by_doc = {int(doc): float(scores[i]) for i, doc in enumerate(cached.keys)}
        clause, params = fact_filter(query)
        pool = min(len(scores), max(POOL, 10 * limit))
        docs = [int(cached.keys[i]) for i in _top(scores, pool)]
        rows = conn.execute(
            f"SELECT {F}, f.doc FROM facts f WHERE f.group_id = ? AND {clause} "
            f"AND f.doc IN ({', '.join('?' * len(docs))})",
            (group_id, *params, *docs),
        ).fetchall()
        if len(rows) < limit and pool < len(scores):  # a selective filter: score every fact passing it
            rows = conn.execute(
                f"SELECT {F}, f.doc FROM facts f WHERE f.group_id = ? AND {clause}", (group_id, *params)
            ).fetchall()
        hits = []
        for row in rows:
            similarity = by_doc.get(int(row[19]))  # type: ignore[arg-type]
            if similarity is not None:
                fact = fact_from_row(row)
                active = fact.status in ("current", "disputed")
                hits.append((fact, similarity * (1.0 if active else query.inactive_weight)))
        hits.sort(key=lambda hit: (-hit[1], hit[0].id, -hit[0].version))
        return hits[:limit]

    def pending_entity_vectors(self, limit: int) -> list[PendingEntity]:
        """Return current entities whose name has no vector; see GraphVectors."""
        rows = (
            self._connection()
            .execute(
                "SELECT e.group_id, e.id, e.name FROM entities e WHERE e.expired_at IS NULL AND NOT EXISTS "
                "(SELECT 1 FROM entity_vectors v WHERE v.group_id = e.group_id AND v.entity_id = e.id "
                "AND v.name = e.name) ORDER BY e.rowid LIMIT ?",
                (limit,),
            )
            .fetchall()
        )
        return [PendingEntity(str(r[0]), str(r[1]), str(r[2])) for r in rows]

    def put_entity_vectors(self, items: Sequence[tuple[PendingEntity, Vector]]) -> None:
        """Store one name vector per entity; see GraphVectors."""

        def put(conn: apsw.Connection) -> None:
            conn.executemany(
                _PUT_ENTITY,
                [(p.group_id, p.id, p.name, to_blob(v)) for p, v in items],
            )

        self._write(put)

    def clear_graph_vectors(self) -> int:
        """Delete every fact and entity vector; see GraphVectors."""

        def clear(conn: apsw.Connection) -> int:
            count = 0
            for table in ("fact_vectors", "entity_vectors"):
                count += int(scalar(conn, f"SELECT count(*) FROM {table}"))
                conn.execute(f"DELETE FROM {table}")
            return count

        count: int = self._write(clear)
        self._graph_cache().clear()
        return count
