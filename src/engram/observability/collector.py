"""The scrape-time collector: what the database holds, read when Prometheus asks.

Every process serving one database reports the same figures (they are read from it, not
counted in memory), so in PromQL take ``max`` across instances, never ``sum``. A scrape runs
one counting statement (``Memory.stats``); if the database cannot answer, the scrape still
succeeds with ``engram_store_up 0`` and without the store's figures.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Protocol

from prometheus_client.core import GaugeMetricFamily, InfoMetricFamily
from prometheus_client.registry import Collector

from engram import __version__
from engram.config import MetricsSettings
from engram.errors import EngramError
from engram.models.stats import MemoryStats
from engram.observability.labels import bounded

logger = logging.getLogger("engram.metrics")


class StatsSource(Protocol):
    """What the collector reads: a Memory."""

    def stats(self, group_id: str | None = None, *, all_groups: bool = False) -> MemoryStats:
        """Return the store's counts."""
        ...


class StoreCollector(Collector):
    """Yield the store's counts (episodes, facts, merge candidates, backlog) and this process's settings."""

    def __init__(self, memory: StatsSource, settings: MetricsSettings) -> None:
        self._memory = memory
        self._settings = settings

    def collect(self) -> Iterator[GaugeMetricFamily | InfoMetricFamily]:
        """Read the counts now; on a database error report ``engram_store_up 0`` and no counts."""
        info = InfoMetricFamily("engram_build", "Engram's version.")
        info.add_metric([], {"version": __version__})
        yield info
        watched = GaugeMetricFamily(
            "engram_intent_watch_info",
            "Intents whose weekly count the EngramIntentSurge alert watches (1 per watched intent).",
            labels=["intent"],
        )
        for intent in self._settings.watched_intents:
            watched.add_metric([intent], 1)
        yield watched
        started = time.perf_counter()
        try:
            stats = self._memory.stats(all_groups=True)
        except EngramError as exc:
            logger.warning("metrics: the store's counts could not be read: %s", exc.detail)
            stats = None
        up = GaugeMetricFamily("engram_store_up", "1 when the scrape could read the store's counts.")
        up.add_metric([], 0 if stats is None else 1)
        yield up
        read = GaugeMetricFamily(
            "engram_store_read_duration_seconds", "How long this scrape's read of the store's counts took."
        )
        read.add_metric([], time.perf_counter() - started)
        yield read
        if stats is not None:
            yield from self._counts(stats)

    def _counts(self, stats: MemoryStats) -> Iterator[GaugeMetricFamily]:
        episodes = GaugeMetricFamily(
            "engram_episodes_stored",
            "Current episodes in the store, per intent and source.",
            labels=["intent", "source"],
        )
        folded: dict[tuple[str, str], int] = {}
        for count in stats.episode_counts:
            key = (
                bounded(count.intent, self._settings.intents),
                bounded(count.source, self._settings.sources),
            )
            folded[key] = folded.get(key, 0) + count.episodes
        for (intent, source), value in sorted(folded.items()):
            episodes.add_metric([intent, source], value)
        yield episodes
        facts = GaugeMetricFamily(
            "engram_facts_stored", "Current fact versions, per status.", labels=["status"]
        )
        for status, value in stats.facts.items():
            facts.add_metric([status], value)
        yield facts
        candidates = GaugeMetricFamily(
            "engram_merge_candidates_pending", "Possible duplicate entities awaiting review."
        )
        candidates.add_metric([], stats.merge_candidates)
        yield candidates
        if stats.embedding_backlog is not None:
            backlog = GaugeMetricFamily(
                "engram_embedding_backlog_episodes", "Current episodes waiting for their vector."
            )
            backlog.add_metric([], stats.embedding_backlog)
            yield backlog
