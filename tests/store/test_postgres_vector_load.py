"""PostgreSQL: a drain of many waiting episode vectors (``Memory.index_pending``) is one load,
which builds the HNSW index once after the vectors instead of keeping it up row by row; the
index is back when the load ends, also when it fails, and when a process reopens the store after
a load cut short. Smaller drains leave the index alone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from engram import Memory, Settings
from engram.errors import EmbedderError
from engram.storage.postgres import vectors
from fixed_embedder import FixedEmbedder

pytestmark = pytest.mark.postgres


def _index_exists(url: str) -> bool:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT to_regclass('episode_vectors_hnsw') IS NOT NULL").fetchone()
    return bool(row and row[0])


def _open(url: str, embedder: Any = None) -> Memory:
    settings = Settings(database_url=url, embedder="none", extractor="none", classify_intents=False)  # type: ignore[arg-type]
    return Memory.open(settings=settings, embedder=embedder or FixedEmbedder(), background_indexing=False)


def _store(memory: Memory, first: int, count: int) -> None:
    memory.create_episodes([{"content": f"note {i} on the pump order"} for i in range(first, first + count)])


def _vector_hits(memory: Memory) -> int:
    return len(memory.search_episodes({"query": "pump order", "limit": 20}, channels=["vector"]).results)


@pytest.fixture
def memory(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Memory]:
    monkeypatch.setattr(vectors, "BULK_ROWS", 5)
    with _open(postgres_url) as opened:
        yield opened


def test_a_large_drain_builds_the_index_after_the_vectors(memory: Memory, postgres_url: str) -> None:
    _store(memory, 0, 12)
    during: list[bool] = []
    assert memory.index_pending(on_batch=lambda _: during.append(_index_exists(postgres_url))) == 12
    assert during and not any(during), "the index was dropped for the load (12 waiting > 5, none stored)"
    assert _index_exists(postgres_url)
    assert (
        len(memory.search_episodes({"query": "pump order", "limit": 20}, channels=["vector"]).results) == 12
    )

    _store(memory, 12, 6)  # 6 waiting, 12 stored: kept up row by row
    during.clear()
    assert memory.index_pending(on_batch=lambda _: during.append(_index_exists(postgres_url))) == 6
    assert during and all(during)
    assert (
        len(memory.search_episodes({"query": "pump order", "limit": 20}, channels=["vector"]).results) == 18
    )


class _Failing(FixedEmbedder):
    def embed_documents(self, texts: Any) -> Any:
        raise EmbedderError("the embedder is down")


def test_a_process_opening_the_store_during_a_load_leaves_the_index_to_the_load(
    memory: Memory, postgres_url: str
) -> None:
    """Opening builds a missing index only when no load holds the load lock: a second process
    (or a read-only replica) opening mid-load neither builds it nor fails."""
    _store(memory, 0, 12)
    seen: list[bool] = []

    def open_another(_: int) -> None:
        with _open(postgres_url) as other:
            seen.append(_index_exists(postgres_url))
            assert other.stats().episodes == 12
        read_only = postgres_url + "%20-cdefault_transaction_read_only%3Don"
        with _open(read_only) as replica:
            assert replica.stats().episodes == 12

    assert memory.index_pending(on_batch=open_another) == 12
    assert seen == [False] and _index_exists(postgres_url)


def test_the_index_is_back_after_a_failed_load_and_after_a_load_cut_short(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors, "BULK_ROWS", 5)
    with _open(postgres_url) as memory:
        _store(memory, 0, 3)
        memory.index_pending()  # the first vectors fix the dimension and build the index
    with _open(postgres_url, _Failing()) as memory:
        _store(memory, 3, 10)
        with pytest.raises(EmbedderError):
            memory.index_pending()
    assert _index_exists(postgres_url), "a failed load builds the index again"

    with psycopg.connect(postgres_url) as conn:  # what a process killed mid-load leaves
        conn.execute("DROP INDEX episode_vectors_hnsw")
    with _open(postgres_url) as memory:
        assert _index_exists(postgres_url), "opening the store builds a missing index"
        assert memory.index_pending() == 10
