"""A second process that extracts a large batch while the writing process stores it.

Storing a batch mostly waits (on PostgreSQL's server, on SQLite's disk writes) and the builtin
extractor is pure Python holding the interpreter lock, so a thread would not overlap them
(docs/decisions.md §35): a forked process does. It is forked on first use, after the extractor
is built, so it inherits the compiled patterns instead of compiling them again; it holds no
connection and never touches the store. Only an extractor marked ``pure`` (deterministic, no
I/O) runs there, and only on Linux, where ``fork`` is the platform's own start method.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from engram.errors import EngramError
from engram.ingest.extract import Extractor
from engram.models.episodes import Episode
from engram.models.graph import Extraction

logger = logging.getLogger("engram.ingest")

MIN_EPISODES = 64
"""Smaller batches are extracted in the writing process: two chunks, one each, is the least that
overlaps (a batch of 100 LoCoMo turns on SQLite: ~90 → ~70 ms; bench/RESULTS.md)."""

CHUNK = 32
"""Episodes a worker takes at a time: what the writing process reclaims once it has stored the
batch is every chunk not yet begun, so both finish within about a chunk of each other."""

PARENT_CHECK_SECONDS = 1.0
"""How often a worker checks that the process that forked it is still there."""

_extractor: Extractor | None = None
"""The worker process's extractor, inherited from the parent at fork."""


def _adopt(extractor: Extractor, parent: int) -> None:
    """Set up a new worker: its extractor, a collector that skips what the parent held, and an
    end when the parent ends."""
    global _extractor
    _extractor = extractor
    gc.freeze()  # the inherited objects stay out of the collector's walks, their pages shared
    gc.enable()  # forked inside a batch that pauses the collector (engram.ingest.bulk)
    threading.Thread(target=_end_with, args=(parent,), daemon=True, name="engram-parent-watch").start()


def _end_with(parent: int) -> None:
    """Exit once ``parent`` is gone: a parent killed outright never shuts its pool down, and the
    worker, holding both ends of its task queue, would wait for work forever. (Not
    ``PR_SET_PDEATHSIG``: it fires when the forking thread ends, and that may be a pool thread.)"""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def _extract_all(episodes: list[Episode]) -> dict[str, Extraction]:
    """Extract each episode; one whose extractor raises is left out (the parent repeats it, to
    record the failure)."""
    assert _extractor is not None
    found: dict[str, Extraction] = {}
    for episode in episodes:
        try:
            found[episode.id] = _extractor.extract(episode)
        except EngramError:
            continue
    return found


@dataclass(frozen=True)
class Started:
    """A batch handed to the workers, in chunks (none when the caller extracts it)."""

    chunks: tuple[tuple[list[Episode], Future[dict[str, Extraction]]], ...] = ()


class ExtractionWorker:
    """Extracts batches of at least ``MIN_EPISODES`` episodes in ``processes`` forked processes.

    ``start`` hands the batch over in chunks and returns at once; once the caller has stored
    the batch, ``reclaim`` takes back chunks from the end for the caller to extract, one at a
    time, while the workers go on from the front; ``collect`` waits for the workers' part. A
    small batch, an extractor not marked ``pure``, no processes, or a platform other than Linux
    leave the whole batch to the caller.
    """

    def __init__(self, extractor: Extractor | None, processes: int) -> None:
        usable = extractor is not None and getattr(extractor, "pure", False) and sys.platform == "linux"
        self._extractor = extractor if usable else None
        self._processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def start(self, episodes: Sequence[Episode]) -> Started:
        """Begin extracting ``episodes`` in the workers; an empty Started leaves them to the caller."""
        if self._extractor is None or self._processes < 1 or len(episodes) < MIN_EPISODES:
            return Started()
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self._processes,
                mp_context=multiprocessing.get_context("fork"),
                initializer=_adopt,
                initargs=(self._extractor, os.getpid()),
            )
        parts = [list(episodes[i : i + CHUNK]) for i in range(0, len(episodes), CHUNK)]
        return Started(tuple((part, self._pool.submit(_extract_all, part)) for part in parts))

    @staticmethod
    def reclaim(started: Started) -> Iterator[list[Episode]]:
        """Take back, last first and one at a time as the caller asks, the chunks no worker has
        begun; stop at the first one begun (every earlier chunk is begun too)."""
        for part, future in reversed(started.chunks):
            if not future.cancel():
                return
            yield part

    def collect(self, started: Started) -> dict[str, Extraction]:
        """Return the workers' extractions of the chunks not reclaimed; {} when a worker failed
        (the caller extracts what is missing)."""
        found: dict[str, Extraction] = {}
        try:
            for _, future in started.chunks:
                if not future.cancelled():
                    found.update(future.result())
        except Exception:  # a killed or broken worker costs speed, never an episode's graph
            logger.warning("the extraction worker failed; extracting in this process", exc_info=True)
            self.close()  # started afresh by the next batch
            return {}
        return found

    def close(self) -> None:
        """Stop the worker processes, after the chunk each is on (the rest is cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
