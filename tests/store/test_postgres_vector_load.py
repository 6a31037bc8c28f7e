"""PostgreSQL: a drain of many waiting episode vectors (``Memory.index_pending``), a block of
``Memory.bulk_load`` and a file import are loads, which build the HNSW index once after the
vectors instead of keeping it up row by row; the index is back when the load ends, also when it
fails, and when a process reopens the store after a load cut short. Smaller loads leave the
index alone."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
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


def _store(memory: Memory, first: int, count: int, *, vectors: bool = False) -> None:
    given = {"embedding": [1.0, 0.0, 0.0, 0.0]} if vectors else {}
    memory.create_episodes(
        [{"content": f"note {i} on the pump order", **given} for i in range(first, first + count)]
    )


def _vector_hits(memory: Memory) -> int:
    return len(memory.search_episodes({"query": "pump order", "limit": 20}, channels=["vector"]).results)


@pytest.fixture
def memory(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Memory]:
    monkeypatch.setattr(vectors, "LOAD_ROWS", 5)
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

    _store(memory, 12, 4)  # 4 waiting (fewer than LOAD_ROWS), 12 stored: kept up row by row
    during.clear()
    assert memory.index_pending(on_batch=lambda _: during.append(_index_exists(postgres_url))) == 4
    assert during and all(during)
    assert _vector_hits(memory) == 16


def test_a_bulk_load_drops_the_index_once_its_vectors_are_worth_it(memory: Memory, postgres_url: str) -> None:
    _store(memory, 0, 24, vectors=True)  # not in a load: the first vectors build the index
    assert _index_exists(postgres_url)
    seen = []
    with memory.bulk_load():
        _store(memory, 24, 3, vectors=True)  # 3 brought: fewer than LOAD_ROWS (5)
        seen.append(_index_exists(postgres_url))
        _store(memory, 27, 3, vectors=True)  # 6 brought, 4 × 6 ≥ 24 stored: rebuilt at the end
        seen.append(_index_exists(postgres_url))
        assert _vector_hits(memory) == 20, "searches scan exactly meanwhile"
    assert seen == [True, False] and _index_exists(postgres_url)
    assert memory.stats().embedding_backlog == 0 and _vector_hits(memory) == 20

    with pytest.raises(RuntimeError), memory.bulk_load():
        _store(memory, 30, 8, vectors=True)
        assert not _index_exists(postgres_url)
        raise RuntimeError("the caller fails mid-load")
    assert _index_exists(postgres_url), "a failed load builds the index again"

    with memory.bulk_load():  # 3 brought, 38 stored: the index is kept up
        _store(memory, 38, 3, vectors=True)
        assert _index_exists(postgres_url)


def test_a_file_import_into_an_empty_store_builds_the_index_after_it(
    memory: Memory, postgres_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "episodes.jsonl"
    episodes = [{"content": f"note {i} on the pump order", "embedding": [0.0, 1.0, 0.0, i]} for i in range(9)]
    path.write_text("".join(json.dumps(episode) + "\n" for episode in episodes))
    during: list[bool] = []
    stats = memory.import_file(
        path, "jsonl", batch_size=4, on_commit=lambda *_: during.append(_index_exists(postgres_url))
    )
    assert stats.committed == 9 and during == [False, False, False]
    assert _index_exists(postgres_url)
    assert _vector_hits(memory) == 9


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
    monkeypatch.setattr(vectors, "LOAD_ROWS", 5)
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


def test_a_load_works_with_a_pool_of_one_connection(postgres_url: str, tmp_path: Path) -> None:
    """The load lock's session is not a pooled connection, or the load's writes would wait for it."""
    settings = Settings(
        database_url=postgres_url,  # type: ignore[arg-type]
        database_pool_size=1,
        embedder="none",
        extractor="none",
        classify_intents=False,
    )
    with Memory.open(settings=settings, embedder=FixedEmbedder(), background_indexing=False) as memory:
        with memory.bulk_load():
            _store(memory, 0, 3, vectors=True)
        path = tmp_path / "episodes.jsonl"
        path.write_text(json.dumps({"content": "note 9 on the pump", "embedding": [0.0, 1.0, 0.0, 0.0]}))
        assert memory.import_file(path, "jsonl").committed == 1
        assert _vector_hits(memory) == 4 and _index_exists(postgres_url)


def test_a_write_racing_the_end_of_a_load_never_leaves_the_index_dropped(
    memory: Memory, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another thread's vectors counted into a load as it ends: the drop they call for happens
    before the load's end builds the index again, never after it."""
    _store(memory, 0, 20, vectors=True)
    deciding, ended = threading.Event(), threading.Event()
    decide = vectors.worth_rebuilding

    def slow_decision(expected: int, stored: int) -> bool:
        deciding.set()
        ended.wait(0.5)  # the load's block ends meanwhile
        return decide(expected, stored)

    def writer() -> None:
        monkeypatch.setattr(vectors, "worth_rebuilding", slow_decision)
        _store(memory, 100, 10, vectors=True)  # not in the load, but counted into it

    with memory.bulk_load():
        _store(memory, 20, 1, vectors=True)
        thread = threading.Thread(target=writer)
        thread.start()
        assert deciding.wait(5)
    ended.set()
    thread.join(10)
    assert _index_exists(postgres_url)
    assert memory.stats().embedding_backlog == 0
