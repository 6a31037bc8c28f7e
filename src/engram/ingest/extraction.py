"""Extraction of stored episodes into the knowledge graph: the supplied extraction, else the extractor's.

An episode's graph is built in its own transaction right after the episode is stored: a
failing extractor never loses the episode, which is marked ``extraction_status: failed`` in
its metadata (a new version) so ``reextract`` can retry it. The episode waits in the
extraction queue in between (engram.storage.extraction_queue): what a crashed writer left
there is built by ``build_queued``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import partial

from pydantic import ValidationError

from engram.errors import EngramError
from engram.graph.service import GraphService
from engram.ingest.extract import DeferredExtractor, Extractor, MeteredExtractor
from engram.ingest.worker import ExtractionWorker, Key, Started
from engram.models.episodes import Episode, EpisodeFilters, Operation
from engram.models.graph import Extraction
from engram.observability import metrics
from engram.storage.extraction_queue import QueuedExtraction, owner_alive
from engram.storage.protocol import Storage, Txn
from engram.storage.types import PageKey

logger = logging.getLogger("engram.ingest")


class GraphIngest:
    """Runs the extractor over new episodes and hands what it found to the graph."""

    def __init__(
        self,
        store: Storage,
        graph: GraphService,
        extractor: Extractor | None,
        *,
        clock: Callable[[], datetime],
        workers: int = 0,
    ) -> None:
        self._store = store
        self._graph = graph
        self._extractor = extractor
        self._worker = ExtractionWorker(extractor, workers)
        # Checked once: an isinstance against a Protocol inspects its members on every call.
        self._metered = extractor if isinstance(extractor, MeteredExtractor) else None
        self._clock = clock

    def close(self) -> None:
        """Release the extractor and its worker processes."""
        self._worker.close()
        if self._extractor is not None:
            self._extractor.close()

    def prepare(self) -> None:
        """Build a deferred extractor now, so the first batch does not wait for it (Memory does at
        open unless told to defer)."""
        if isinstance(self._extractor, DeferredExtractor):
            self._extractor.prepare()

    def queues(self, supplied: Extraction | None) -> bool:
        """Return whether a new episode with this supplied extraction (or none) waits for a graph."""
        return supplied is not None or self._extractor is not None

    def start(self, episodes: Sequence[Episode]) -> Started:
        """Begin extracting a large batch in the worker process while the caller stores it.

        Pass the result to ``ingest``; a small batch (or no worker) is extracted there instead.
        """
        return self._worker.start(episodes)

    def abandon(self, started: Started) -> None:
        """Claim every chunk of ``started`` no worker has claimed, so the workers stop after the one
        they are on (the batch was not stored)."""
        for _ in self._worker.reclaim(started):
            pass

    def ingest(
        self,
        items: Sequence[tuple[Episode, Extraction | None]],
        actor: str | None,
        started: Started | None = None,
    ) -> None:
        """Build the graph of newly stored episodes: the supplied extraction, else the extractor's
        (the worker's for the chunks it took, when ``started`` there).

        Episodes of one group share one ``extract`` operation and one transaction, which takes
        them out of the extraction queue; chit-chat (an empty extraction) builds nothing.
        """
        work: dict[str, list[tuple[Episode, Extraction]]] = {}
        queued: dict[str, list[str]] = {}
        for episode, supplied in items:
            if self.queues(supplied):
                queued.setdefault(episode.group_id, []).append(episode.id)
        tokens: dict[str, dict[str, int]] = {}
        fresh = {(episode.group_id, episode.id) for episode, supplied in items if supplied is None}
        started = started or Started()
        if not fresh:  # every episode was a duplicate (a re-import): nothing to wait for
            self.abandon(started)
            started = Started()
        extracted: dict[Key, Extraction | None] = {}
        for chunk in self._worker.reclaim(started):  # from the end, while the workers go on from the front
            extracted.update(
                ((e.group_id, e.id), self._extract(e, tokens)) for e in chunk if (e.group_id, e.id) in fresh
            )
        for key, found in self._worker.collect(started).items():
            if self._extractor is not None and key in fresh:
                metrics.count_extraction(self._extractor.name, "ok")
                extracted[key] = found
        for episode, supplied in items:
            extraction: Extraction | None
            if supplied is not None:
                metrics.count_extraction("agent", "ok")
                extraction = supplied
            elif (episode.group_id, episode.id) in extracted:
                extraction = extracted[episode.group_id, episode.id]
            else:  # a small batch, or the worker's extractor raised: extract now, recording any failure
                extraction = self._extract(episode, tokens)
            if extraction is not None and not extraction.empty:
                work.setdefault(episode.group_id, []).append((episode, extraction))
        self._build(work, queued, actor, tokens)

    def _build(
        self,
        work: dict[str, list[tuple[Episode, Extraction]]],
        queued: dict[str, list[str]],
        actor: str | None,
        tokens: dict[str, dict[str, int]],
    ) -> None:
        """Build each group's graph, taking its ``queued`` episodes (built or not) out of the queue."""
        for group_id in work.keys() | queued.keys():
            batch = work.get(group_id, [])
            ids = queued.get(group_id)
            if batch:
                self._graph.build(group_id, batch, actor, "extract", _of(tokens, batch), ids)
            elif ids:
                self._store.write(partial(_claim, group_id, ids))

    def build_queued(self, stop: threading.Event | None = None) -> int:
        """Build the graph of the episodes a crashed writer left in the extraction queue; return how many.

        A row is taken when the process that queued it no longer runs on this host, or, queued
        from another host, after OTHER_HOST_GRACE (it may still be building it). Episodes are
        built in their timestamp order within each group; one retracted or purged since is only
        taken out of the queue. ``stop`` set: return after the current group.
        """
        now = self._clock()
        rows = [
            row
            for row in self._store.queued_extractions(QUEUE_READ)
            if _abandoned(row, now) and (row.supplied is not None or self._extractor is not None)
        ]  # a row that needs an extractor waits for a process that has one
        groups: dict[str, list[QueuedExtraction]] = {}
        for row in rows:
            groups.setdefault(row.group_id, []).append(row)
        built = 0
        for group_id, group_rows in groups.items():
            if stop is not None and stop.is_set():
                break
            stored = [(self._store.get_episode(group_id, row.episode_id), row) for row in group_rows]
            gone = [row.episode_id for episode, row in stored if episode is None]
            if gone:
                self._store.write(partial(_claim, group_id, gone))
            items = [
                (episode, None if row.supplied is None else Extraction.model_validate(row.supplied))
                for episode, row in stored
                if episode is not None
            ]
            items.sort(key=lambda item: (item[0].timestamp, item[0].id))
            self.ingest(items, None)  # as its writer would have: the same extraction, build and claim
            built += len(items)
        if built:
            logger.info("built the graph of %d episode(s) a stopped writer had left", built)
        return built

    def reextract(self, group_id: str, actor: str | None) -> tuple[int, int]:
        """Extract again every episode of the group marked ``extraction_status: failed``.

        Returns (succeeded, still failing). A success builds the graph and marks the episode
        ``extraction_status: done`` (a new version).
        """
        failed = {"extraction_status": "failed"}
        episodes: list[Episode] = []
        after = None
        while page := self._store.list_episodes(group_id, EpisodeFilters(metadata=failed), 200, after):
            episodes += page
            after = PageKey(page[-1].timestamp, page[-1].id)
        succeeded = 0
        for episode in episodes:
            tokens: dict[str, dict[str, int]] = {}
            extraction = self._extract(episode, tokens, retry=True)
            if extraction is None:
                continue
            if not extraction.empty:
                self._graph.build(group_id, [(episode, extraction)], actor, "reextract", tokens)
            current = self._store.get_episode(group_id, episode.id)
            assert current is not None
            self._set_status(current, {"extraction_status": "done", "extraction_error": None})
            succeeded += 1
        return succeeded, len(episodes) - succeeded

    def _extract(
        self, episode: Episode, tokens: dict[str, dict[str, int]], *, retry: bool = False
    ) -> Extraction | None:
        """Return the extractor's extraction (its cost into ``tokens``), or None after marking a failure.

        ``retry``: the episode had failed before (counted as ``retried`` when it succeeds).
        """
        if self._extractor is None:
            return None
        try:
            if self._metered is not None:
                extraction, tokens[episode.id] = self._metered.extract_with_usage(episode)
            else:
                extraction = self._extractor.extract(episode)
        # A ValidationError: the extractor built an invalid entity or fact (its bug, recorded like a failure).
        except (EngramError, ValidationError) as exc:
            detail = (
                exc.detail if isinstance(exc, EngramError) else f"invalid extraction: {_first_error(exc)}"
            )
            metrics.count_extraction(self._extractor.name, "failed")
            logger.warning("extraction failed for %s: %s", episode.id, detail)
            current = self._store.get_episode(episode.group_id, episode.id) or episode
            self._set_status(current, {"extraction_status": "failed", "extraction_error": detail[:500]})
            return None
        metrics.count_extraction(self._extractor.name, "retried" if retry else "ok")
        return extraction

    def _set_status(self, episode: Episode, status: dict[str, str | None]) -> None:
        """Record the extraction status in the episode's metadata, as a new version."""
        operation = Operation.begin(
            episode.group_id,
            "extraction_status",
            f"extraction {status['extraction_status']} for {episode.id}",
            at=self._clock(),
        )
        metadata = {k: v for k, v in {**episode.metadata, **status}.items() if v is not None}
        self._store.update_episode(
            episode.group_id,
            episode.id,
            episode.version,
            lambda current: current.model_copy(
                update={
                    "version": current.version + 1,
                    "metadata": metadata,
                    "recorded_at": operation.created_at,
                    "operation_id": operation.id,
                }
            ),
            operation,
        )
        metrics.count_operation(operation.kind)


QUEUE_READ = 10_000
"""Queued episodes ``build_queued`` reads at once (a crashed writer leaves one batch)."""
OTHER_HOST_GRACE = timedelta(minutes=10)
"""How long a row queued by a process on another host is left to it."""


def _abandoned(row: QueuedExtraction, now: datetime) -> bool:
    """Return whether the process that queued ``row`` is gone (never this process's own rows)."""
    alive = owner_alive(row.owner)
    if alive is None:
        return now - row.queued_at > OTHER_HOST_GRACE
    return not alive


def _claim(group_id: str, episode_ids: Sequence[str], txn: Txn) -> set[str]:
    return txn.claim_extractions(group_id, episode_ids)


def _of(
    tokens: dict[str, dict[str, int]], batch: list[tuple[Episode, Extraction]]
) -> dict[str, dict[str, int]]:
    return {episode.id: tokens[episode.id] for episode, _ in batch if episode.id in tokens}


def _first_error(exc: ValidationError) -> str:
    """Return where and why a model refused the extractor's output, e.g. ``entities.0.name: …``."""
    error = exc.errors()[0]
    return f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}"
