"""A second process that extracts a large batch while the writing process stores it.

Storing a batch mostly waits (on PostgreSQL's server, on SQLite's disk writes) and the builtin
extractor is pure Python holding the interpreter lock, so a thread would not overlap them
(docs/decisions.md §35): a forked process does. It is forked on first use, after the extractor
is built, so it inherits the compiled patterns instead of compiling them again; it holds no
connection and never touches the store. Only an extractor marked ``pure`` (deterministic, no
I/O) runs there, and only on Linux.

A batch is cut into chunks that the workers claim from the front and the writing process, once
it has stored the batch, from the back, through two counters in shared memory: both finish
within a chunk of each other, and nothing handed over is ever cancelled (a cancelled task left in
``ProcessPoolExecutor``'s queue breaks its clean-up when a worker dies).
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from engram.errors import EngramError
from engram.ingest.extract import DeferredExtractor, Extractor
from engram.models.episodes import Episode
from engram.models.graph import Extraction

logger = logging.getLogger("engram.ingest")

MIN_EPISODES = 64
"""Smaller batches are extracted in the writing process: two chunks, one each, is the least that
overlaps (a batch of 100 LoCoMo turns on SQLite: ~90 → ~70 ms; bench/RESULTS.md)."""

CHUNK = 32
"""Episodes claimed at a time."""

PARENT_CHECK_SECONDS = 1.0
"""How often a worker checks that the process that forked it is still there."""

LOCK_SECONDS = 10.0
"""How long the claim counters' lock may be waited for: only a worker killed while holding it
(for the microseconds of a claim) makes it longer, and the batch is then finished in process."""

Key = tuple[str, str]
"""An episode's (group_id, id): ids are unique only within a group."""

_extractor: Extractor | None = None
"""The worker process's extractor, inherited from the parent at fork."""
_claims: Any = None
"""The worker process's claim counters, inherited from the parent at fork (see ``Claims``)."""


class Claims:
    """Which chunks of the current batch are still unclaimed, shared by the parent and its workers.

    Three integers in shared memory under one lock: the batch's number, the next chunk from the
    front (the workers') and the end of the unclaimed run (the parent takes ``end - 1``).
    """

    def __init__(self, context: Any) -> None:
        self.shared = context.Array("q", 3)

    def begin(self, batch: int, chunks: int) -> None:
        """Open ``batch`` of ``chunks`` chunks for claiming (earlier batches' claims end)."""
        with self._locked():
            self.shared[0], self.shared[1], self.shared[2] = batch, 0, chunks

    def front(self, batch: int) -> int | None:
        """Claim the first unclaimed chunk of ``batch``; None when none is left."""
        with self._locked():
            number, front, end = self.shared[:]
            if number != batch or front >= end:
                return None
            self.shared[1] = front + 1
            return int(front)

    def back(self, batch: int) -> int | None:
        """Claim the last unclaimed chunk of ``batch``; None when none is left."""
        with self._locked():
            number, front, end = self.shared[:]
            if number != batch or front >= end:
                return None
            self.shared[2] = end - 1
            return int(end - 1)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        lock = self.shared.get_lock()
        if not lock.acquire(timeout=LOCK_SECONDS):
            raise TimeoutError("an extraction worker died holding the claim lock")
        try:
            yield
        finally:
            lock.release()


def _adopt(extractor: Extractor, claims: Claims, parent: int) -> None:
    """Set up a new worker: its extractor and claims, a collector that skips what the parent held,
    Ctrl-C left to the parent, and an end when the parent ends."""
    global _extractor, _claims
    _extractor, _claims = extractor, claims
    gc.freeze()  # the inherited objects stay out of the collector's walks, their pages shared
    gc.enable()  # forked inside a batch that pauses the collector (engram.ingest.bulk)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C reaches the whole group
    threading.Thread(target=_end_with, args=(parent,), daemon=True, name="engram-parent-watch").start()


def _end_with(parent: int) -> None:
    """Exit once ``parent`` is gone: a parent killed outright never shuts its pool down, and the
    worker, holding both ends of its task queue, would wait for work forever. (Not
    ``PR_SET_PDEATHSIG``: it fires when the forking thread ends, and that may be a pool thread.)"""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def _extract_claimed(batch: int, chunks: list[list[Episode]]) -> dict[Key, Extraction]:
    """Extract the chunks this worker claims from the front; an episode whose extractor raises is
    left out (the parent repeats it, to record the failure)."""
    assert _extractor is not None and _claims is not None
    found: dict[Key, Extraction] = {}
    while (number := _claims.front(batch)) is not None:
        for episode in chunks[number]:
            try:
                found[episode.group_id, episode.id] = _extractor.extract(episode)
            except (EngramError, ValidationError):
                continue
    return found


@dataclass(frozen=True)
class Started:
    """A batch handed to the workers (no chunks when the caller extracts it all)."""

    batch: int = 0
    chunks: tuple[list[Episode], ...] = ()
    futures: tuple[Future[dict[Key, Extraction]], ...] = ()


class ExtractionWorker:
    """Extracts batches of at least ``MIN_EPISODES`` episodes in ``processes`` forked processes.

    ``start`` hands the batch over and returns at once; once the caller has stored the batch,
    ``reclaim`` yields the chunks no worker has claimed, last first, for the caller to extract
    while the workers go on from the front; ``collect`` waits for the workers' part. A small
    batch, an extractor not marked ``pure``, no processes, or a platform other than Linux leave
    the whole batch to the caller.
    """

    def __init__(self, extractor: Extractor | None, processes: int) -> None:
        usable = extractor is not None and getattr(extractor, "pure", False) and sys.platform == "linux"
        self._extractor = extractor if usable else None
        self._processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._claims: Claims | None = None
        self._batches = 0

    def start(self, episodes: Sequence[Episode]) -> Started:
        """Begin extracting ``episodes`` in the workers; an empty Started leaves them to the caller."""
        if self._extractor is None or self._processes < 1 or len(episodes) < MIN_EPISODES:
            return Started()
        chunks = tuple(list(episodes[i : i + CHUNK]) for i in range(0, len(episodes), CHUNK))
        self._batches += 1
        for attempt in range(2):
            try:
                pool, claims = self._ready()
                claims.begin(self._batches, len(chunks))
                futures = tuple(
                    pool.submit(_extract_claimed, self._batches, list(chunks)) for _ in range(self._processes)
                )
                return Started(self._batches, chunks, futures)
            except (BrokenProcessPool, TimeoutError):  # a worker died since the last batch: fork anew
                logger.warning("the extraction worker had stopped", exc_info=attempt > 0)
                self.close()
        return Started()

    def reclaim(self, started: Started) -> Iterator[list[Episode]]:
        """Yield, last first and one at a time as the caller asks, the chunks no worker has claimed."""
        while started.chunks and self._claims is not None:
            try:
                number = self._claims.back(started.batch)
            except TimeoutError:
                return  # collect finds the worker broken; the caller extracts what is missing
            if number is None:
                return
            yield started.chunks[number]

    def collect(self, started: Started) -> dict[Key, Extraction]:
        """Return the workers' extractions, by (group_id, id); {} when a worker failed (the caller
        extracts what is missing)."""
        found: dict[Key, Extraction] = {}
        try:
            for future in started.futures:
                found.update(future.result())
        except Exception:  # a killed or broken worker costs speed, never an episode's graph
            logger.warning("the extraction worker failed; extracting in this process", exc_info=True)
            self.close()  # started afresh by the next batch
            return {}
        return found

    def close(self) -> None:
        """Stop the worker processes, after the chunk each is on."""
        if self._claims is not None:
            with suppress(TimeoutError):
                self._claims.begin(0, 0)  # nothing left to claim
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = self._claims = None

    def _ready(self) -> tuple[ProcessPoolExecutor, Claims]:
        """Return the pool and its claim counters, forking the workers on first use."""
        if self._pool is None or self._claims is None:
            assert self._extractor is not None
            if isinstance(self._extractor, DeferredExtractor):
                self._extractor.prepare()  # built before the fork, so the worker inherits it built
            context = multiprocessing.get_context("fork")
            self._claims = Claims(context)
            self._pool = ProcessPoolExecutor(
                self._processes,
                mp_context=context,
                initializer=_adopt,
                initargs=(self._extractor, self._claims, os.getpid()),
            )
        return self._pool, self._claims
