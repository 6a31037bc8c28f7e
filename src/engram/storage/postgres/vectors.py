"""Vectors on PostgreSQL: pgvector ``vector(dim)`` columns with HNSW indexes (cosine).

The ``embedding`` columns start without a dimension. Episode vectors get theirs, and their
index, with the first vector stored; fact and entity-name vectors when a memory records its
embedder (``prepare``), under the schema lock. ``clear`` drops the indexes and dimensions
again. A filtered search of the current episodes is exact, over the group's vectors and filter
columns held in this process's memory (engram.storage.episode_matrix, kept current from the
change log, engram.storage.postgres.change_log), as on SQLite; an unfiltered one uses the HNSW
index. At a past ``known_at``, a search whose filter passes fewer than ``EXACT_ROWS`` episodes
scores them all in SQL; others use pgvector's iterative index scans
(``hnsw.iterative_scan = relaxed_order``, pgvector ≥ 0.8): the scan goes on past ``ef_search``
until ``limit`` rows pass the group and filter conditions, and the few rows it returns slightly
out of order are sorted again here.
A load of many episode vectors (``Storage.loading_vectors``, around a whole
``Memory.index_pending``, a ``Memory.bulk_load`` block or a file import) builds the episode index
once after them, as pgvector advises, instead of inserting into it row by row, once the vectors
are worth it (``worth_rebuilding``); opening the store builds an index a load cut short left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np

from engram.errors import StoreError
from engram.models.episodes import Episode, EpisodeFilters
from engram.models.graph import Entity, Fact
from engram.storage.backend import PENDING_FACTS, Vectors, pending_facts, weighted
from engram.storage.episode_matrix import EpisodeMatrices
from engram.storage.episodes import current_many, filter_sql, held
from engram.storage.postgres.backend import PostgresDb
from engram.storage.postgres.change_log import PostgresChangeLog
from engram.storage.rows import ENTITY, EPISODE, FACT, E, F, N
from engram.storage.sql import Db
from engram.storage.types import PendingEntity, PendingFact, ScoredEpisode, Vector

EPISODE_DIMENSIONS = "vector_dimensions"
GRAPH_DIMENSIONS = "graph_vector_dimensions"
GRAPH_TABLES = ("fact_vectors", "entity_vectors")
EF_SEARCH = 64
"""HNSW candidate list size (pgvector's default is 40); raised to 2 × limit for larger limits."""
EXACT_ROWS = 20_000
"""A filtered search whose filter passes fewer episodes than this scores them all, exactly."""
LOAD_ROWS = 1_000
"""A load expecting at least this many episode vectors may build the HNSW index after them."""
REBUILD_RATIO = 4
"""Building the index costs about a quarter of keeping it up per row (0.6 against 2.6 ms a row at
20k-50k vectors here, bench/RESULTS.md): a load of at least a quarter as many vectors as are
stored rebuilds it (``worth_rebuilding``)."""
BUILD_MEMORY = "512MB"
"""``maintenance_work_mem`` of the index build (a 100k × 384 graph fits; a larger one spills)."""
_EPISODE_INDEX = (
    "CREATE INDEX IF NOT EXISTS episode_vectors_hnsw ON episode_vectors "
    "USING hnsw (embedding vector_cosine_ops)"
)
_KEY_SQL = "f.fact || chr(31) || f.subject || chr(31) || coalesce(f.object, '')"


def _array(vector: Vector) -> Any:
    return np.asarray(vector, dtype=np.float32)


def _dimensions(db: Db, key: str) -> int | None:
    value = db.value("SELECT value FROM store_meta WHERE key = :k", {"k": key})
    return None if value is None else int(value)


def _search_settings(db: Db, limit: int) -> None:
    """Set the HNSW scan for this transaction (the settings are local to it)."""
    db.run(
        "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', :ef, "
        "true)",
        {"ef": str(min(1000, max(EF_SEARCH, 2 * limit)))},  # pgvector's largest ef_search
    )


def worth_rebuilding(expected: int, stored: int) -> bool:
    """Whether a load of ``expected`` episode vectors into a store of ``stored`` is cheaper with the
    index dropped and built once after it: an empty store (the first vectors would build the index
    only to keep it up), or at least LOAD_ROWS vectors and a quarter of those stored."""
    return stored == 0 or (expected >= LOAD_ROWS and REBUILD_RATIO * expected >= stored)


class PostgresVectors(Vectors):
    """pgvector storage and HNSW search of episode, fact and entity-name vectors."""

    def __init__(self, *, budget_bytes: int) -> None:
        self._episodes = EpisodeMatrices(PostgresChangeLog(), budget_bytes)
        self._suspended = False  # this process is loading: the first vectors do not build the index
        # A hot standby's snapshots list no running transactions (its pg_snapshot_xip is empty):
        # the change log's marks would miss a change committed after a search. It searches in SQL.
        self.from_memory = True
        self._pending_after: tuple[Any, str, str] | None = None  # (created_at, group, id) last returned

    def suspend_index(self, db: Db, given: int = 0) -> tuple[bool, int]:
        """Drop the episode index when a load expecting the waiting episodes' vectors and ``given``
        more is worth rebuilding it for; return whether it was dropped and how many vectors the
        store held (the caller holds LOAD_LOCK)."""
        self._suspended = False  # an earlier attempt of this transaction may have set it
        db.lock([("schema",)])  # before the counts: their table locks would order against it
        waiting, stored = db.tuples(
            "SELECT (SELECT count(*) FROM episode_docs) - (SELECT count(*) FROM episode_vectors), "
            "(SELECT count(*) FROM episode_vectors)"
        )[0]
        if not worth_rebuilding(waiting + given, stored - given):
            return False, stored - given
        db.run("DROP INDEX IF EXISTS episode_vectors_hnsw")
        self._suspended = True
        return True, stored - given

    def restore_index(self, db: Db) -> None:
        """Build the episode index if vectors have a dimension and it is missing."""
        self._suspended = False
        db.lock([("schema",)])
        if _dimensions(db, EPISODE_DIMENSIONS) is None or db.value(
            "SELECT to_regclass('episode_vectors_hnsw') IS NOT NULL AS found"
        ):
            return
        db.run("SELECT set_config('maintenance_work_mem', :m, true)", {"m": BUILD_MEMORY})
        db.run(_EPISODE_INDEX)

    def prepare(self, db: Db, dimensions: int) -> None:
        current = _dimensions(db, GRAPH_DIMENSIONS)
        if current == dimensions:
            return
        db.lock([("schema",)])
        current = _dimensions(db, GRAPH_DIMENSIONS)
        if current == dimensions:
            return
        if current is not None:
            raise StoreError(
                f"this store holds {current}-dimensional fact and entity vectors, not {dimensions}; "
                "run `engram reembed`",
                field="embedder",
            )
        for table in GRAPH_TABLES:
            db.run(f"ALTER TABLE {table} ALTER COLUMN embedding TYPE vector({int(dimensions)})")
            db.run(
                f"CREATE INDEX IF NOT EXISTS {table}_hnsw ON {table} USING hnsw (embedding vector_cosine_ops)"
            )
        db.run(
            "INSERT INTO store_meta (key, value) VALUES (:k, :v)",
            {"k": GRAPH_DIMENSIONS, "v": str(dimensions)},
        )

    def clear(self, db: Db) -> int:
        db.lock([("schema",)])
        count = 0
        for table, key in (
            ("episode_vectors", EPISODE_DIMENSIONS),
            *((t, GRAPH_DIMENSIONS) for t in GRAPH_TABLES),
        ):
            count += int(db.value(f"SELECT count(*) AS n FROM {table}"))
            db.run(f"DELETE FROM {table}")
            db.run(f"DROP INDEX IF EXISTS {table}_hnsw")
            db.run(f"ALTER TABLE {table} ALTER COLUMN embedding TYPE vector")
            db.run("DELETE FROM store_meta WHERE key = :k", {"k": key})
        return count

    def _check_prepared(self, db: Db, wanted: int) -> None:
        current = _dimensions(db, GRAPH_DIMENSIONS)
        if current != wanted:
            raise StoreError(
                f"fact and entity vector columns hold {current or 'no'} dimensions, not {wanted}: "
                "the memory records its embedder first (prepare)",
                field="embedder",
            )

    # -- episodes ----------------------------------------------------------------------------------

    def pending_episodes(self, db: Db, limit: int) -> list[Episode]:
        """Return pending episodes after the last doc returned (a cursor: a drain costs O(batch),
        not O(store) per batch); when none are left past it, from the first doc again (stragglers)."""
        after = self._pending_after
        past = "(d.created_at, d.group_id, d.id) > (:at, :g, :id) AND " if after else ""
        rows = db.tuples(
            f"SELECT {E}, d.created_at FROM episode_docs d JOIN episodes e ON e.group_id = d.group_id "
            f"AND e.id = d.id AND e.expired_at IS NULL WHERE {past}NOT EXISTS "
            "(SELECT 1 FROM episode_vectors v WHERE v.group_id = d.group_id AND v.id = d.id) "
            "ORDER BY d.created_at, d.group_id, d.id LIMIT :limit",
            {"limit": limit, **dict(zip(("at", "g", "id"), after or (), strict=False))},
        )
        if not rows and after:
            self._pending_after = None
            return self.pending_episodes(db, limit)
        episodes = [EPISODE(db, row) for row in rows]
        self._pending_after = (rows[-1][-1], episodes[-1].group_id, episodes[-1].id) if rows else None
        return episodes

    def put_episodes(self, db: Db, items: Sequence[tuple[Episode, Vector]]) -> None:
        """Upsert one vector per episode; the first vector ever stored fixes the dimension and builds the "
        "index."""
        wanted = len(items[0][1])
        current = _dimensions(db, EPISODE_DIMENSIONS)
        if current != wanted:
            db.lock([("schema",)])
            current = _dimensions(db, EPISODE_DIMENSIONS)
            if current is not None and current != wanted:
                raise StoreError(
                    f"this store holds {current}-dimensional vectors, not {wanted}; run `engram reembed`",
                    field="embedder",
                )
            if current is None:
                db.run(f"ALTER TABLE episode_vectors ALTER COLUMN embedding TYPE vector({int(wanted)})")
                if not self._suspended:
                    db.run(_EPISODE_INDEX)
                db.run(
                    "INSERT INTO store_meta (key, value) VALUES (:k, :v)",
                    {"k": EPISODE_DIMENSIONS, "v": str(wanted)},
                )
        db.run_many(
            "INSERT INTO episode_vectors (group_id, id, embedding) "
            "SELECT d.group_id, d.id, :v FROM episode_docs d WHERE d.group_id = :g AND d.id = :id "
            "ON CONFLICT (group_id, id) DO UPDATE SET embedding = excluded.embedding",
            [{"v": _array(vector), "g": episode.group_id, "id": episode.id} for episode, vector in items],
        )

    def drop_episode(self, db: Db, group_id: str, episode_id: str) -> None:
        db.run(
            "DELETE FROM episode_vectors WHERE group_id = :g AND id = :id", {"g": group_id, "id": episode_id}
        )

    def search_episodes(
        self, db: Db, group_id: str, vector: Vector, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        assert isinstance(db, PostgresDb)
        where, params = filter_sql(db, filters)
        if where and filters.known_at is None and self.from_memory:
            return self._search_in_memory(db, group_id, vector, filters, limit)
        clause, at = held(filters.known_at)
        values = {"q": _array(vector), "g": group_id, "limit": limit, **params, **at}
        passing = (
            db.value(
                f"SELECT count(*) AS n FROM (SELECT 1 FROM episodes e WHERE e.group_id = :g AND {clause}"
                f"{where} LIMIT :cap) s",
                {**values, "cap": EXACT_ROWS},
            )
            if where
            else EXACT_ROWS
        )
        # Few rows pass the filter: score them all, exactly (a filtered HNSW scan returns the first
        # rows that pass, not the nearest: docs/decisions.md §29); "+ 0" keeps the planner off the index.
        order = "(v.embedding <=> :q) + 0" if passing < EXACT_ROWS else "distance"
        with db.conn.transaction():
            _search_settings(db, limit)
            rows = db.tuples(
                f"SELECT {E}, v.embedding <=> :q AS distance FROM episode_vectors v "
                f"JOIN episodes e ON e.group_id = v.group_id AND e.id = v.id AND {clause} "
                f"WHERE v.group_id = :g{where} ORDER BY {order} LIMIT :limit",
                values,
            )
        hits = [ScoredEpisode(EPISODE(db, row), 1.0 - float(row[-1])) for row in rows]
        return sorted(hits, key=lambda hit: -hit.score)

    def _search_in_memory(
        self, db: Db, group_id: str, vector: Vector, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        view = self._episodes.view(db, group_id)
        if view is None:
            return []
        hits = view.nearest(_array(vector), filters, limit)
        keys = [key for key, _ in hits]
        found = view.owner.episodes(keys, partial(current_many, db, group_id))  # as fresh as the view
        return [ScoredEpisode(found[key], score) for key, score in hits if key in found]

    # -- facts -------------------------------------------------------------------------------------

    def pending_facts(self, db: Db, limit: int) -> list[PendingFact]:
        return pending_facts(
            db,
            f"{PENDING_FACTS} WHERE f.expired_at IS NULL AND NOT EXISTS (SELECT 1 FROM fact_vectors v "
            f"WHERE v.group_id = f.group_id AND v.id = f.id AND v.text_key = {_KEY_SQL}) "
            "ORDER BY f.recorded_at, f.group_id, f.id LIMIT :limit",
            {"limit": limit},
        )

    def put_facts(self, db: Db, items: Sequence[tuple[PendingFact, Vector]]) -> None:
        self._check_prepared(db, len(items[0][1]))
        db.run_many(
            "INSERT INTO fact_vectors (group_id, id, text_key, embedding) VALUES (:g, :id, :key, :v) "
            "ON CONFLICT (group_id, id) DO UPDATE SET text_key = excluded.text_key, embedding = "
            "excluded.embedding",
            [{"g": p.group_id, "id": p.id, "key": p.text_key, "v": _array(v)} for p, v in items],
        )

    def facts_without(self, db: Db, group_id: str, fact_ids: Sequence[str]) -> set[str]:
        if not fact_ids:
            return set()
        rows = db.rows(
            "SELECT id FROM unnest(CAST(:ids AS text[])) AS f(id) WHERE NOT EXISTS "
            "(SELECT 1 FROM fact_vectors v WHERE v.group_id = :g AND v.id = f.id)",
            {"ids": list(fact_ids), "g": group_id},
        )
        return {str(row["id"]) for row in rows}

    def drop_facts(self, db: Db, group_id: str, fact_ids: Sequence[str]) -> None:
        db.run(
            "DELETE FROM fact_vectors WHERE group_id = :g AND id = ANY(:ids)",
            {"g": group_id, "ids": list(fact_ids)},
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
        assert isinstance(db, PostgresDb)
        clause, params = where
        with db.conn.transaction():
            _search_settings(db, limit)
            rows = db.tuples(
                f"SELECT {F}, 1 - (v.embedding <=> :q) AS similarity FROM fact_vectors v "
                f"JOIN facts f ON f.group_id = v.group_id AND f.id = v.id AND {clause} "
                "WHERE v.group_id = :g ORDER BY v.embedding <=> :q LIMIT :limit",
                {"q": _array(vector), "g": group_id, "limit": 4 * limit, **params},
            )
        return weighted([(FACT(db, row), float(row[-1])) for row in rows], inactive_weight, limit)

    # -- entity names ------------------------------------------------------------------------------

    def pending_entities(self, db: Db, limit: int) -> list[PendingEntity]:
        rows = db.rows(
            "SELECT e.group_id, e.id, e.name FROM entities e WHERE e.expired_at IS NULL AND NOT EXISTS "
            "(SELECT 1 FROM entity_vectors v WHERE v.group_id = e.group_id AND v.id = e.id AND v.name = "
            "e.name) "
            "ORDER BY e.recorded_at, e.group_id, e.id LIMIT :limit",
            {"limit": limit},
        )
        return [PendingEntity(r["group_id"], r["id"], r["name"]) for r in rows]

    def put_entities(self, db: Db, items: Sequence[tuple[PendingEntity, Vector]]) -> None:
        self._check_prepared(db, len(items[0][1]))
        db.run_many(
            "INSERT INTO entity_vectors (group_id, id, name, embedding) VALUES (:g, :id, :name, :v) "
            "ON CONFLICT (group_id, id) DO UPDATE SET name = excluded.name, embedding = excluded.embedding",
            [{"g": p.group_id, "id": p.id, "name": p.name, "v": _array(v)} for p, v in items],
        )

    def drop_entities(self, db: Db, group_id: str, entity_ids: Sequence[str]) -> None:
        db.run(
            "DELETE FROM entity_vectors WHERE group_id = :g AND id = ANY(:ids)",
            {"g": group_id, "ids": list(entity_ids)},
        )

    def nearest_entities(
        self, db: Db, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        assert isinstance(db, PostgresDb)
        with db.conn.transaction():
            _search_settings(db, limit)
            rows = db.tuples(
                f"SELECT {N}, 1 - (v.embedding <=> :q) AS similarity FROM entity_vectors v "
                "JOIN entities n ON n.group_id = v.group_id AND n.id = v.id AND n.expired_at IS NULL "
                "AND (cardinality(CAST(:types AS text[])) = 0 OR n.type = ANY(:types)) WHERE v.group_id = :g "
                "ORDER BY v.embedding <=> :q LIMIT :limit",
                {"q": _array(vector), "types": list(types), "g": group_id, "limit": limit},
            )
        found = [(ENTITY(db, row), float(row[-1])) for row in rows if float(row[-1]) >= floor]
        return sorted(found, key=lambda pair: -pair[1])
