"""Query embeddings of concurrent searches made in one call: a small micro-batcher.

Under load, many searches need a query vector at the same moment (each REST or MCP request runs
in its own thread). One call over a batch of texts costs far less than as many calls of one text
(the model's weights are read once per call), so a search hands its text to a queue and waits:
a batching thread takes the first text, gathers whatever else arrives within ``max_wait``
seconds (at most ``max_batch`` texts) and embeds them together. A search alone waits
``max_wait`` more (2 ms by default, against ~18 ms for the embedding itself).

Only embedders with ``embed_queries`` (a batch of queries in one call) are batched: the
packaged e5 model and OpenAI-compatible endpoints have it.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Protocol, runtime_checkable

import numpy as np

from engram.nlp.embed import Embedder, Vectors


@runtime_checkable
class BatchQueryEmbedder(Embedder, Protocol):
    """An Embedder that also embeds several queries in one call."""

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Return an (n, dimensions) array, row i the query embedding of ``texts[i]``."""
        ...


_Request = tuple[str, Future[Vectors]]
_STOP = ("", None)


class BatchedQueries:
    """An Embedder whose ``embed_query`` calls, made concurrently, reach the model in batches.

    ``threads`` batching threads take from one queue, so up to that many batches run at once
    (the model runs concurrently: one per core is the useful most). Thread-safe; the threads
    start on first use and stop at ``close``. An embedder error reaches every caller of its batch.
    """

    def __init__(
        self, embedder: BatchQueryEmbedder, *, max_wait: float, max_batch: int, threads: int = 1
    ) -> None:
        if max_wait < 0 or max_batch < 1 or threads < 1:
            raise ValueError("max_wait must be >= 0, max_batch and threads >= 1")
        self.inner = embedder
        self.name = embedder.name
        self.dimensions = embedder.dimensions
        self._max_wait = max_wait
        self._max_batch = max_batch
        self._thread_count = threads
        self._queue: queue.SimpleQueue[_Request | tuple[str, None]] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._start_lock = threading.Lock()
        self._count_lock = threading.Lock()
        self.batches = 0
        """Calls made to the model so far (a figure for tests and benchmarks)."""

    def embed_query(self, text: str) -> Vectors:
        """Return the query's vector, embedded in one batch with the queries that arrive with it."""
        future: Future[Vectors] = Future()
        with self._start_lock:  # never queued behind a stop with no thread left to answer
            self._start()
            self._queue.put((text, future))
        return future.result()

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Return the documents' vectors (not batched here: the indexer batches them itself)."""
        return self.inner.embed_documents(texts)

    def close(self) -> None:
        """Stop the batching threads, then close the wrapped embedder."""
        self.stop()
        self.inner.close()

    def stop(self) -> None:
        """Stop the batching threads (they start again on the next query)."""
        with self._start_lock:
            for _ in self._threads:
                self._queue.put(_STOP)
            for thread in self._threads:
                thread.join(timeout=5)
            self._threads = []

    def _start(self) -> None:
        while len(self._threads) < self._thread_count:
            thread = threading.Thread(target=self._run, name="engram-query-batch", daemon=True)
            thread.start()
            self._threads.append(thread)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first[1] is None:
                return
            batch: list[_Request] = [(first[0], first[1])]
            stop = self._gather(batch)
            self._embed(batch)
            if stop:
                return

    def _gather(self, batch: list[_Request]) -> bool:
        """Add to ``batch`` what arrives within max_wait, up to max_batch; return True on a stop."""
        deadline = time.monotonic() + self._max_wait
        while len(batch) < self._max_batch:
            try:
                item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if item[1] is None:
                return True
            batch.append((item[0], item[1]))
        return False

    def _embed(self, batch: list[_Request]) -> None:
        try:
            vectors = np.asarray(self.inner.embed_queries([text for text, _ in batch]), dtype=np.float32)
            rows = [vectors[row].copy() for row in range(len(batch))]  # too few rows fail here too
        except Exception as exc:  # noqa: BLE001  (every caller of the batch gets it; the thread lives on)
            for _, future in batch:
                future.set_exception(exc)
            return
        with self._count_lock:
            self.batches += 1
        for vector, (_, future) in zip(rows, batch, strict=True):
            future.set_result(vector)
