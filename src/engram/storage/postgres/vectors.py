"""Vectors in the PostgreSQL store: pgvector ``vector(dim)`` with an HNSW index (cosine).

The ``embedding`` column starts without a dimension; the first vector stored fixes it
(``ALTER TABLE … TYPE vector(dim)``), records it in ``store_meta`` and builds the HNSW index.
``clear_vectors`` (before re-embedding, perhaps with another model) drops both again.

Filtered search uses pgvector's iterative index scans (``hnsw.iterative_scan =
relaxed_order``, pgvector ≥ 0.8): the scan goes on past ``ef_search`` until ``limit`` rows pass
the group and filter conditions (up to ``hnsw.max_scan_tuples``), and the few rows it returns
slightly out of order are sorted again here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import psycopg

from engram.errors import StoreError
from engram.models.episodes import Episode
from engram.storage.postgres.rows import CURRENT, E_COLUMNS, N_COLUMNS, episode_from_row
from engram.storage.protocol import ScoredEpisode, Vector

DIMENSIONS_KEY = "vector_dimensions"
EF_SEARCH = 64
"""HNSW candidate list size (pgvector's default is 40); raised to 2 × limit for larger limits."""


def dimensions(conn: psycopg.Connection[Any]) -> int | None:
    """Return the dimension the vector column has, or None before the first vector."""
    row = conn.execute("SELECT value FROM store_meta WHERE key = %s", (DIMENSIONS_KEY,)).fetchone()
    return None if row is None else int(row[0])


def fix_dimensions(conn: psycopg.Connection[Any], wanted: int) -> None:
    """Give the vector column its dimension and the HNSW index, once; raise StoreError on a mismatch.

    Runs inside the caller's transaction, which holds the store's schema lock.
    """
    current = dimensions(conn)
    if current == wanted:
        return
    if current is not None:
        raise StoreError(
            f"this store holds {current}-dimensional vectors, not {wanted}; run `engram reembed`",
            field="embedder",
        )
    conn.execute(f"ALTER TABLE episode_vectors ALTER COLUMN embedding TYPE vector({int(wanted)})")
    conn.execute(
        "CREATE INDEX IF NOT EXISTS episode_vectors_hnsw ON episode_vectors "
        "USING hnsw (embedding vector_cosine_ops)"
    )
    conn.execute("INSERT INTO store_meta (key, value) VALUES (%s, %s)", (DIMENSIONS_KEY, str(wanted)))


def reset_dimensions(conn: psycopg.Connection[Any]) -> None:
    """Drop the HNSW index and the column's dimension (the table is empty); inside the schema lock."""
    conn.execute("DROP INDEX IF EXISTS episode_vectors_hnsw")
    conn.execute("ALTER TABLE episode_vectors ALTER COLUMN embedding TYPE vector")
    conn.execute("DELETE FROM store_meta WHERE key = %s", (DIMENSIONS_KEY,))


def put(conn: psycopg.Connection[Any], items: Sequence[tuple[Episode, Vector]]) -> None:
    """Upsert one vector per episode; episodes the store does not hold are skipped."""
    with conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO episode_vectors (group_id, id, embedding) "
            "SELECT d.group_id, d.id, %s FROM episode_docs d WHERE d.group_id = %s AND d.id = %s "
            "ON CONFLICT (group_id, id) DO UPDATE SET embedding = excluded.embedding",
            [
                (np.asarray(vector, dtype=np.float32), episode.group_id, episode.id)
                for episode, vector in items
            ],
        )


def nearest(
    conn: psycopg.Connection[Any],
    group_id: str,
    query: Vector,
    limit: int,
    filter_where: str,
    filter_params: Sequence[Any],
    held: tuple[str, Sequence[Any]] = (CURRENT, ()),
) -> list[ScoredEpisode]:
    """Return up to ``limit`` episodes of the group nearest to ``query`` (cosine), best first.

    ``held`` picks the versions read and gives their parameters (postgres_rows.held_sql; the
    current ones by default).
    """
    with conn.transaction():
        conn.execute(
            "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
            "set_config('hnsw.ef_search', %s, true)",
            (str(max(EF_SEARCH, 2 * limit)),),
        )
        rows = conn.execute(
            f"SELECT {E_COLUMNS}, v.embedding <=> %s AS distance FROM episode_vectors v "
            f"JOIN episodes e ON e.group_id = v.group_id AND e.id = v.id AND {held[0]} "
            f"WHERE v.group_id = %s{filter_where} ORDER BY distance LIMIT %s",
            (np.asarray(query, dtype=np.float32), *held[1], group_id, *filter_params, limit),
        ).fetchall()
    hits = [ScoredEpisode(episode_from_row(row), 1.0 - float(row[N_COLUMNS])) for row in rows]
    return sorted(hits, key=lambda hit: -hit.score)
