"""Vectors on SQLite: float32 BLOBs, exact search over per-group numpy matrices held in memory.

Episode vectors live in engram.storage.episode_matrix (with the columns filters test,
refreshed from the change log, engram.storage.sqlite.change_log). Each group's vectors of the
graph tables (facts by ``doc``, entity names by ``entity_id``, both ordered by an AUTOINCREMENT
``seq`` so a replaced row gets a new one) are loaded on first search and refreshed
incrementally when rows are added, by this process or another: the group's row count and
highest order key are compared on each search, and only when ``PRAGMA data_version`` says
something was committed since. Exact search is fast enough
at the sizes measured (docs/decisions.md §15). Matrices hold committed rows (read through
reader connections); a write transaction also sees the name vectors it added itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.errors import StoreError
from engram.models.episodes import Episode, EpisodeFilters
from engram.models.graph import Entity, Fact
from engram.storage.backend import PENDING_FACTS, Vectors, pending_facts, weighted
from engram.storage.episode_matrix import EpisodeMatrices, products, top
from engram.storage.episodes import filter_sql, held
from engram.storage.rows import ENTITY, EPISODE, FACT, E, F, N
from engram.storage.sql import Db
from engram.storage.sqlite.backend import SQLiteDb
from engram.storage.sqlite.change_log import SQLiteChangeLog
from engram.storage.sqlite.fulltext import held_by_docs
from engram.storage.types import PendingEntity, PendingFact, ScoredEpisode, Vector

FILTER_CANDIDATES = 500
"""With filters, the best this many rows are checked first; the whole group only if too few pass."""
DEFAULT_BUDGET = 4 << 30
"""Bytes of episode matrices kept in memory before the least recently searched groups are dropped."""
ENTITY_POOL = 50
"""Nearest names looked up per mention before the type and current-version checks."""
_TABLES = {
    "fact_vectors": ("doc", "seq"),
    "entity_vectors": ("entity_id", "seq"),
}
"""Each table's key column and the column that orders its rows as added."""
_KEY_SQL = "f.fact || char(31) || f.subject || char(31) || coalesce(f.object, '')"


def to_blob(vector: Vector) -> bytes:
    """Return the storage form of a vector: little-endian float32 bytes."""
    return np.asarray(vector, dtype="<f4").tobytes()


@dataclass(slots=True)
class _Matrix:
    keys: npt.NDArray[Any]
    matrix: Vector
    count: int
    last: int


def _stack(base: Vector | None, blobs: Sequence[bytes]) -> Vector:
    if not blobs:
        assert base is not None
        return base
    added = np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), -1).astype(np.float32)
    return added if base is None else np.vstack([base, added])


class _Matrices:
    """Per (table, group) matrices of committed vectors; thread-safe."""

    def __init__(self) -> None:
        self._matrices: dict[tuple[str, str], _Matrix] = {}
        self._seen: dict[tuple[int, str, str], object] = {}
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._matrices.clear()
            self._seen.clear()

    def get(self, db: Db, table: str, group_id: str) -> _Matrix | None:
        """Return the group's vectors in ``table``, refreshed from the table; None when it has none."""
        assert isinstance(db, SQLiteDb)
        version = db.conn.execute("PRAGMA data_version").fetchone()
        seen = (id(db.conn), table, group_id)
        cached = self._matrices.get((table, group_id))
        if cached is not None and version is not None and self._seen.get(seen) == version[0]:
            return cached
        if version is not None:
            self._seen[seen] = version[0]
        key, order = _TABLES[table]
        row = db.one(
            f"SELECT count(*) AS n, coalesce(max({order}), 0) AS last FROM {table} WHERE group_id = :g",
            {"g": group_id},
        )
        assert row is not None
        count, last = int(row["n"]), int(row["last"])
        if count == 0:
            return None
        with self._lock:
            cached = self._matrices.get((table, group_id))
            if cached is not None and cached.count == count and cached.last == last:
                return cached
            sql = (
                f"SELECT {key} AS k, vector FROM {table} WHERE group_id = :g AND {order} > :after "
                f"ORDER BY {order}"
            )
            rows = db.rows(sql, {"g": group_id, "after": 0 if cached is None else cached.last})
            if cached is not None and cached.count + len(rows) == count:  # only additions
                keys = np.concatenate(
                    [cached.keys, np.asarray([r["k"] for r in rows], dtype=cached.keys.dtype)]
                )
                matrix = _stack(cached.matrix, [bytes(r["vector"]) for r in rows])
            else:
                rows = db.rows(sql, {"g": group_id, "after": 0})
                keys = np.asarray([r["k"] for r in rows], dtype=np.int64 if key == "doc" else object)
                matrix = _stack(None, [bytes(r["vector"]) for r in rows])
            cached = _Matrix(keys, matrix, count, last)
            self._matrices[(table, group_id)] = cached
            return cached


class SQLiteVectors(Vectors):
    """Exact vector search over in-memory matrices; ``reader`` yields a committed-state connection."""

    def __init__(
        self, reader: Callable[[], AbstractContextManager[Db]], *, budget_bytes: int = DEFAULT_BUDGET
    ) -> None:
        self._reader = reader
        self._matrices = _Matrices()
        self._episodes = EpisodeMatrices(SQLiteChangeLog(), budget_bytes)
        self._pending_after = 0

    def current_episodes(self, db: SQLiteDb, group_id: str, docs: Sequence[int]) -> dict[int, Episode]:
        """Return the current versions of the group's ``docs`` by doc, from memory where kept."""
        return self._episodes.episodes(db, group_id, docs, partial(held_by_docs, db))

    def forget(self) -> None:
        """Drop every cached matrix (after vectors were deleted in bulk)."""
        self._matrices.clear()
        self._episodes.clear()

    def prepare(self, db: Db, dimensions: int) -> None:
        for table in ("fact_vectors", "entity_vectors"):
            length = db.value(f"SELECT length(vector) AS n FROM {table} LIMIT 1")
            if length is not None and int(length) != 4 * dimensions:
                raise StoreError(
                    f"this store holds {int(length) // 4}-dimensional {table}, not {dimensions}; run "
                    "`engram reembed`",
                    field="embedder",
                )

    def clear(self, db: Db) -> int:
        count = 0
        for table in ("episode_vectors", *_TABLES):
            count += int(db.value(f"SELECT count(*) AS n FROM {table}"))
            db.run(f"DELETE FROM {table}")
        self.forget()
        return count

    # -- episodes ----------------------------------------------------------------------------------

    def pending_episodes(self, db: Db, limit: int) -> list[Episode]:
        """Return pending episodes after the last doc returned (a cursor: a drain costs O(batch), not
        O(store) per batch); when none are left past it, from the first doc again (stragglers)."""
        sql = (
            f"SELECT {E}, d.doc FROM episode_docs d JOIN episodes e ON e.doc = d.doc "
            "AND e.expired_at IS NULL WHERE d.doc > :after "
            "AND NOT EXISTS (SELECT 1 FROM episode_vectors v WHERE v.doc = d.doc) ORDER BY d.doc LIMIT :limit"
        )
        after = self._pending_after
        rows = db.tuples(sql, {"after": after, "limit": limit})
        if not rows and after:
            rows = db.tuples(sql, {"after": 0, "limit": limit})
        self._pending_after = int(rows[-1][EPISODE.width]) if rows else 0
        return [EPISODE(db, row) for row in rows]

    def put_episodes(self, db: Db, items: Sequence[tuple[Episode, Vector]]) -> None:
        # The docs read first, per group, then plain VALUES rows: an INSERT … SELECT per row costs
        # SQLite twice as much (bench/RESULTS.md, "Bulk load").
        rows: list[dict[str, Any]] = []
        for group_id in dict.fromkeys(episode.group_id for episode, _ in items):
            ids = [episode.id for episode, _ in items if episode.group_id == group_id]
            clause, params = db.dialect.in_list("id", "ids", ids)
            docs = {
                str(row["id"]): int(row["doc"])
                for row in db.rows(
                    f"SELECT id, doc FROM episode_docs WHERE group_id = :g AND {clause}",
                    {"g": group_id, **params},
                )
            }
            rows += [
                {"doc": docs[episode.id], "g": group_id, "v": to_blob(vector)}
                for episode, vector in items
                if episode.group_id == group_id and episode.id in docs
            ]
        db.run_many(
            "INSERT OR REPLACE INTO episode_vectors (doc, group_id, vector) VALUES (:doc, :g, :v)", rows
        )

    def drop_episode(self, db: Db, group_id: str, episode_id: str) -> None:
        db.run(
            "DELETE FROM episode_vectors WHERE doc = (SELECT doc FROM episode_docs WHERE group_id = :g AND "
            "id = :id)",
            {"g": group_id, "id": episode_id},
        )

    def search_episodes(
        self, db: Db, group_id: str, vector: Vector, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        hits = self._nearest_docs(db, group_id, vector, filters, limit)
        docs = [doc for doc, _ in hits]
        if filters.known_at is None:
            assert isinstance(db, SQLiteDb)
            found = self.current_episodes(db, group_id, docs)
        else:
            found = held_by_docs(db, docs, filters.known_at)
        return [ScoredEpisode(found[doc], score) for doc, score in hits if doc in found]

    def _nearest_docs(
        self, db: Db, group_id: str, vector: Vector, filters: EpisodeFilters, limit: int
    ) -> list[tuple[int, float]]:
        """Return up to ``limit`` (doc, cosine) of held episodes passing the filters, best first.

        Now (no ``known_at``): the filters are a mask over the group's rows in memory and only the
        rows it keeps are scored (episode_matrix). At a past ``known_at`` (other versions) the
        best rows are checked in SQL, then every episode passing the filters if too few did.
        """
        assert isinstance(db, SQLiteDb)
        view = self._episodes.view(db, group_id)
        if view is None:
            return []
        query = np.asarray(vector, dtype=np.float32)
        if filters.known_at is None:
            return view.nearest(query, filters, limit)
        where, params = filter_sql(db, filters)
        params["g"] = group_id
        scores = products(view.matrix, query)
        pool = min(len(scores), max(FILTER_CANDIDATES, limit * 10))
        order = top(scores, pool)
        allowed = _passing(db, [int(view.keys[i]) for i in order], where, params, filters)
        hits = [(int(view.keys[i]), float(scores[i])) for i in order if int(view.keys[i]) in allowed]
        if len(hits) >= limit or pool == len(scores):
            return hits[:limit]
        # A selective filter: score only the episodes that pass it, found through the store's indexes.
        clause, at = held(filters.known_at)
        sql = f"SELECT e.doc FROM episodes e WHERE e.group_id = :g AND {clause}{where}"
        passing = np.asarray([int(row["doc"]) for row in db.rows(sql, {**params, **at})], dtype=np.int64)
        rows = np.flatnonzero(np.isin(view.keys, passing))
        ranked = rows[top(scores[rows], limit)]
        return [(int(view.keys[i]), float(scores[i])) for i in ranked]

    # -- facts -------------------------------------------------------------------------------------

    def pending_facts(self, db: Db, limit: int) -> list[PendingFact]:
        return pending_facts(
            db,
            f"{PENDING_FACTS} JOIN fact_docs k ON k.group_id = f.group_id AND k.id = f.id "
            "WHERE f.expired_at IS NULL AND NOT EXISTS (SELECT 1 FROM fact_vectors v "
            f"WHERE v.doc = k.doc AND v.text_key = {_KEY_SQL}) ORDER BY k.doc LIMIT :limit",
            {"limit": limit},
        )

    def put_facts(self, db: Db, items: Sequence[tuple[PendingFact, Vector]]) -> None:
        db.run_many(
            "INSERT OR REPLACE INTO fact_vectors (doc, group_id, text_key, vector) "
            "SELECT doc, group_id, :key, :v FROM fact_docs WHERE group_id = :g AND id = :id",
            [{"key": p.text_key, "v": to_blob(v), "g": p.group_id, "id": p.id} for p, v in items],
        )

    def facts_without(self, db: Db, group_id: str, fact_ids: Sequence[str]) -> set[str]:
        if not fact_ids:
            return set()
        clause, params = db.dialect.in_list("k.id", "ids", fact_ids)
        rows = db.rows(
            f"SELECT k.id FROM fact_docs k WHERE k.group_id = :g AND {clause} "
            "AND NOT EXISTS (SELECT 1 FROM fact_vectors v WHERE v.doc = k.doc)",
            {"g": group_id, **params},
        )
        return {str(row["id"]) for row in rows}

    def drop_facts(self, db: Db, group_id: str, fact_ids: Sequence[str]) -> None:
        if fact_ids:
            clause, params = db.dialect.in_list("id", "ids", fact_ids)
            db.run(
                "DELETE FROM fact_vectors WHERE doc IN (SELECT doc FROM fact_docs WHERE group_id = :g AND "
                f"{clause})",
                {"g": group_id, **params},
            )

    def search_facts(
        self,
        db: Db,
        group_id: str,
        vector: Vector,
        where: tuple[str, dict[str, Any]],
        limit: int,
        inactive_weight: float,
    ) -> list[tuple[Fact, float]]:
        cached = self._matrices.get(db, "fact_vectors", group_id)
        if cached is None:
            return []
        scores = products(cached.matrix, vector)
        by_doc = {int(doc): float(scores[i]) for i, doc in enumerate(cached.keys)}
        clause, params = where
        pool = min(len(scores), max(FILTER_CANDIDATES, 10 * limit))
        docs, more = db.dialect.in_list("k.doc", "docs", [int(cached.keys[i]) for i in top(scores, pool)])
        select = (
            f"SELECT {F}, k.doc FROM facts f JOIN fact_docs k ON k.group_id = f.group_id AND k.id = f.id "
            f"WHERE f.group_id = :g AND {clause}"
        )
        rows = db.tuples(f"{select} AND {docs}", {"g": group_id, **params, **more})
        if len(rows) < limit and pool < len(scores):  # a selective filter: score every fact passing it
            rows = db.tuples(select, {"g": group_id, **params})
        hits = [(FACT(db, row), by_doc[row[FACT.width]]) for row in rows if row[FACT.width] in by_doc]
        return weighted(hits, inactive_weight, limit)

    # -- entity names ------------------------------------------------------------------------------

    def pending_entities(self, db: Db, limit: int) -> list[PendingEntity]:
        rows = db.rows(
            "SELECT e.group_id, e.id, e.name FROM entities e WHERE e.expired_at IS NULL AND NOT EXISTS "
            "(SELECT 1 FROM entity_vectors v WHERE v.group_id = e.group_id AND v.entity_id = e.id "
            "AND v.name = e.name) ORDER BY e.rowid LIMIT :limit",
            {"limit": limit},
        )
        return [PendingEntity(r["group_id"], r["id"], r["name"]) for r in rows]

    def put_entities(self, db: Db, items: Sequence[tuple[PendingEntity, Vector]]) -> None:
        db.run_many(
            "INSERT OR REPLACE INTO entity_vectors (group_id, entity_id, name, vector) VALUES (:g, :id, "
            ":name, :v)",
            [{"g": p.group_id, "id": p.id, "name": p.name, "v": to_blob(v)} for p, v in items],
        )

    def drop_entities(self, db: Db, group_id: str, entity_ids: Sequence[str]) -> None:
        if entity_ids:
            clause, params = db.dialect.in_list("entity_id", "ids", entity_ids)
            db.run(f"DELETE FROM entity_vectors WHERE group_id = :g AND {clause}", {"g": group_id, **params})

    def nearest_entities(
        self, db: Db, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        with self._reader() as reader:
            cached = self._matrices.get(reader, "entity_vectors", group_id)
        scored: dict[str, float] = {}
        if cached is not None:
            scores = products(cached.matrix, vector)
            for i in top(scores, ENTITY_POOL):
                if scores[i] >= floor:
                    scored[str(cached.keys[i])] = float(scores[i])
        # Vectors ``db`` sees beyond the committed matrix: those its own transaction added.
        for row in db.rows(
            "SELECT entity_id, vector FROM entity_vectors WHERE group_id = :g AND seq > :after",
            {"g": group_id, "after": 0 if cached is None else cached.last},
        ):
            similarity = float(
                np.frombuffer(bytes(row["vector"]), dtype="<f4") @ np.asarray(vector, dtype=np.float32)
            )
            if similarity >= floor:
                scored[str(row["entity_id"])] = similarity
        if not scored:
            return []
        ids = sorted(scored, key=lambda k: -scored[k])[:ENTITY_POOL]
        clause, params = db.dialect.in_list("n.id", "ids", ids)
        typed, more = db.dialect.in_list("n.type", "types", types) if types else ("1 = 1", {})
        entities = ENTITY.all(
            db,
            f"SELECT {N} FROM entities n WHERE n.group_id = :g AND n.expired_at IS NULL AND {clause} AND "
            f"{typed}",
            {"g": group_id, **params, **more},
        )
        found = sorted(((entity, scored[entity.id]) for entity in entities), key=lambda p: -p[1])
        return found[:limit]


def _passing(
    db: Db, docs: list[int], where: str, params: dict[str, Any], filters: EpisodeFilters
) -> set[int]:
    """Return the subset of ``docs`` whose held version passes the filter."""
    clause, at = held(filters.known_at)
    # Through each candidate's own row (else the planner may walk a group-wide filter index).
    index = "episodes_current_doc" if filters.known_at is None else "episodes_doc_versions"
    docs_in, more = db.dialect.in_list("e.doc", "docs", docs)
    rows = db.rows(
        f"SELECT e.doc FROM episodes e{db.dialect.indexed_by(index)} WHERE e.group_id = :g AND {clause} "
        f"AND {docs_in}{where}",
        {**params, **at, **more},
    )
    return {int(row["doc"]) for row in rows}
