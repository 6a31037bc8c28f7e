"""Episode search: filters in the store, then channels, fusion, boosts, diversity and citations.

Pipeline (docs/architecture.md, "Search"): the query is parsed (words, synonyms, time expression); each
channel (BM25, vector, …) returns candidates that already pass the filters; weighted RRF
fuses them; boosts multiply the fused score (intent asked for, actor named, time named,
recency); MMR optionally diversifies; a score floor and the limit cut; each hit gets its
citation and, on request, its explanation and thread context.
"""

from __future__ import annotations

import contextvars
import math
import os
import re
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol

from engram.config import SearchSettings
from engram.errors import InvalidInput
from engram.fusion import reciprocal_rank_fusion
from engram.models.episodes import (
    Episode,
    EpisodeContext,
    EpisodeFilters,
    SearchHit,
    SearchQuery,
    SearchResponse,
    ThreadHits,
)
from engram.observability import metrics
from engram.search import rerank
from engram.search.query import ParsedQuery, parse_query
from engram.storage.protocol import Storage
from engram.threads import thread_label

_WORD = re.compile(r"\w+")


class _ChannelsBeside:
    """Runs a search's other channels beside the first while a core is spare.

    FTS5, numpy's product and the query embedding release the GIL, so one search takes the
    slowest channel's time, not the sum (bench/RESULTS.md, "Channels side by side"). When more
    searches run at once than the machine has cores, no core is left to gain and the hand-over to
    the pool costs CPU every search pays: they run their channels in their own thread
    (bench/RESULTS.md, "Searches over HTTP: a strict httptools and channels inline when busy").
    """

    def __init__(self, workers: int, cores: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="engram-channel")
        self._spare = threading.BoundedSemaphore(cores)

    @contextmanager
    def spare_core(self) -> Iterator[bool]:
        """Yield whether this search may use the pool (at most ``cores`` searches do at once)."""
        taken = self._spare.acquire(blocking=False)
        try:
            yield taken
        finally:
            if taken:
                self._spare.release()


_CHANNELS_BESIDE = _ChannelsBeside(workers=4, cores=os.cpu_count() or 1)
SYNONYM_WEIGHT = 0.5
"""BM25 scores of matches found through synonyms only count this much."""


@dataclass(frozen=True, slots=True)
class ChannelHit:
    """An episode a channel found, with the channel's own score (higher is better)."""

    episode: Episode
    score: float


class Channel(Protocol):
    """One way of finding episodes for a query (BM25, vectors, graph…)."""

    name: str

    def search(
        self, group_id: str, query: ParsedQuery, filters: EpisodeFilters, limit: int
    ) -> list[ChannelHit]:
        """Return up to ``limit`` episodes of ``group_id`` passing ``filters``, best first.

        ``filters.known_at`` and ``filters.as_of`` (time travel) apply too: read the versions
        held at ``known_at``, keep episodes with ``timestamp <= as_of``.
        """
        ...


class BM25Channel:
    """Full-text BM25 (Robertson and Zaragoza 2009) via the store's index, synonyms included."""

    name = "bm25"

    def __init__(self, store: Storage) -> None:
        self._store = store

    def search(
        self, group_id: str, query: ParsedQuery, filters: EpisodeFilters, limit: int
    ) -> list[ChannelHit]:
        """Return the BM25 matches of the query's words, then of their synonyms at SYNONYM_WEIGHT.

        Synonyms are searched apart so that the query's own words outrank their
        translations (预算 finds 预算 before "budget").
        """
        best: dict[str, ChannelHit] = {}
        synonyms = [term for term in query.terms if term not in query.words]
        for terms, weight in ((query.words, 1.0), (synonyms, SYNONYM_WEIGHT)):
            for match in self._store.search_text(group_id, terms, filters, limit):
                score = match.score * weight
                if match.episode.id not in best or best[match.episode.id].score < score:
                    best[match.episode.id] = ChannelHit(match.episode, score)
        return sorted(best.values(), key=lambda hit: hit.score, reverse=True)[:limit]


def _run(
    channel: Channel, group_id: str, parsed: ParsedQuery, filters: EpisodeFilters, depth: int
) -> list[ChannelHit]:
    with metrics.SEARCH_CHANNEL_DURATION.labels(channel.name).time():
        return channel.search(group_id, parsed, filters, depth)


def citation(episode: Episode) -> str:
    """Return how a hit names its evidence: ``[source: <episode id>]``."""
    return f"[source: {episode.id}]"


def _actor_named(episode: Episode, words: set[str]) -> bool:
    actor = episode.actor
    if actor is None:
        return False
    names = {actor.id.lower(), *(w.lower() for w in _WORD.findall(actor.name or ""))}
    return not names.isdisjoint(words)


class SearchEngine:
    """Run episode searches over a store with a fixed set of channels."""

    def __init__(
        self, store: Storage, channels: Sequence[Channel], settings: SearchSettings, *, max_query_chars: int
    ) -> None:
        self._store = store
        self._channels = list(channels)
        self._settings = settings
        self._max_query_chars = max_query_chars

    @property
    def channel_names(self) -> list[str]:
        """Return the names of the configured channels."""
        return [channel.name for channel in self._channels]

    def _active(self, channels: list[str] | None) -> list[Channel]:
        if channels is None:
            return self._channels
        unknown = sorted(set(channels) - set(self.channel_names))
        if unknown:
            raise InvalidInput(
                f"unknown channel(s) {', '.join(unknown)}; known: {', '.join(self.channel_names)}",
                field="channels",
            )
        return [channel for channel in self._channels if channel.name in channels]

    @metrics.timed_search
    def search(self, query: SearchQuery, group_id: str, channels: list[str] | None = None) -> SearchResponse:
        """Return the best ``query.limit`` episodes; an empty query lists filtered episodes by time.

        ``channels`` restricts the search to the named channels, without boosts (for
        evaluation and debugging). Raises InvalidInput(field="channels") for an unknown name.
        ``query.known_at`` and ``query.as_of`` travel in time: every channel and the store
        read the episodes held then (transaction time) that had happened by then (valid time).
        """
        active = self._active(channels)
        reference = query.reference_time or datetime.now(UTC)
        parsed = parse_query(
            query.query,
            max_chars=self._max_query_chars,
            synonyms=self._settings.synonyms,
            reference_time=reference,
        )
        filters = query.filters
        if query.known_at is not None or query.as_of is not None:
            filters = filters.model_copy(update={"known_at": query.known_at, "as_of": query.as_of})
        if not parsed.words:
            episodes = self._store.list_episodes(group_id, filters, query.limit)
            hits = [SearchHit(episode=e, score=0.0, citation=citation(e)) for e in episodes]
            return self._respond(hits, query, parsed)

        args = (group_id, parsed, filters, max(query.limit, self._settings.candidates))
        with _CHANNELS_BESIDE.spare_core() as spare:
            inline = active if not spare else active[:1]  # the first always in this thread
            beside = [
                _CHANNELS_BESIDE.pool.submit(contextvars.copy_context().run, partial(_run, c, *args))
                for c in active[len(inline) :]
            ]
            per_channel = {c.name: _run(c, *args) for c in inline}
            per_channel.update(
                {c.name: future.result() for c, future in zip(active[len(inline) :], beside, strict=True)}
            )
        fusion_started = time.perf_counter()
        found = {hit.episode.id: hit.episode for hits in per_channel.values() for hit in hits}
        fused = reciprocal_rank_fusion(
            {name: [h.episode.id for h in hits] for name, hits in per_channel.items()},
            weights=self._settings.channel_weights,
            k=self._settings.rrf_k,
        )
        boosted: dict[str, dict[str, float]] = {}
        if channels is None:
            boosted = {key: self._boosts(found[key], parsed, query, reference) for key, _ in fused}
            fused = sorted(
                ((key, score * math.prod(boosted[key].values())) for key, score in fused),
                key=lambda item: item[1],
                reverse=True,
            )
        if query.min_score is not None:
            fused = rerank.above_floor(fused, query.min_score)
        if query.mmr:
            words = {key: frozenset(w.lower() for w in _WORD.findall(found[key].content)) for key, _ in fused}
            fused = rerank.maximal_marginal_relevance(
                fused,
                lambda a, b: rerank.jaccard(words[a], words[b]),
                lambda_=self._settings.mmr_lambda,
                limit=query.limit,
            )
        metrics.SEARCH_CHANNEL_DURATION.labels("fusion").observe(time.perf_counter() - fusion_started)
        hits = []
        for key, score in fused[: query.limit]:
            explanation = (
                self._explain(key, per_channel, boosted.get(key, {}), parsed) if query.explain else None
            )
            hits.append(
                SearchHit(
                    episode=found[key], score=score, citation=citation(found[key]), explanation=explanation
                )
            )
        return self._respond(hits, query, parsed)

    def _boosts(
        self, episode: Episode, parsed: ParsedQuery, query: SearchQuery, reference: datetime
    ) -> dict[str, float]:
        """Return the boost factors that apply to ``episode`` (only those above 1)."""
        settings = self._settings
        factors = {
            "intent": rerank.boost(
                settings.intent_weight, float(query.intent is not None and episode.intent == query.intent)
            ),
            "actor": rerank.boost(settings.actor_weight, float(_actor_named(episode, set(parsed.words)))),
            "recency": rerank.boost(
                settings.recency_weight,
                rerank.recency(episode.timestamp, reference, settings.recency_half_life_days),
            ),
        }
        if parsed.time_range is not None:
            start, end = parsed.time_range
            factors["time"] = rerank.boost(
                settings.time_weight,
                rerank.time_proximity(episode.timestamp, start, end, max((end - start).days, 1)),
            )
        return {name: factor for name, factor in factors.items() if factor > 1.0}

    @staticmethod
    def _explain(
        key: str, per_channel: dict[str, list[ChannelHit]], boosts: dict[str, float], parsed: ParsedQuery
    ) -> dict[str, Any]:
        """Return each channel's rank and score, the boosts, and the time the query names (if any)."""
        channels = {
            name: {"rank": rank, "score": hit.score}
            for name, hits in per_channel.items()
            for rank, hit in enumerate(hits, start=1)
            if hit.episode.id == key
        }
        explanation: dict[str, Any] = {
            "channels": channels,
            "boosts": boosts,
            "query": {"language": parsed.language, "terms": parsed.terms},
        }
        if parsed.time_range is not None:
            start, end = parsed.time_range
            explanation["time"] = {
                "expression": parsed.time_expression,
                "start": start.isoformat(),
                "end": end.isoformat(),
            }
        return explanation

    def _respond(self, hits: list[SearchHit], query: SearchQuery, parsed: ParsedQuery) -> SearchResponse:
        """Return the response: hits with context when asked, grouped by thread when asked."""
        threads = group_by_thread(hits) if query.group_by_thread else None
        return SearchResponse(
            results=self._with_context(hits, query), warnings=parsed.warnings, threads=threads
        )

    def _with_context(self, hits: list[SearchHit], query: SearchQuery) -> list[SearchHit]:
        if not query.context:
            return hits
        for hit in hits:
            previous, following = self._store.neighbours(hit.episode.group_id, hit.episode.id, query.known_at)
            hit.context = EpisodeContext(previous=previous, next=following)
        return hits


def group_by_thread(hits: Sequence[SearchHit]) -> list[ThreadHits]:
    """Return the hits' threads, best first: each with its episode ids in rank order.

    Episodes without a thread form a group of their own each (``thread`` None).
    """
    groups: dict[str, ThreadHits] = {}
    for hit in hits:
        label = thread_label(hit.episode)
        key = label if label is not None else f"\x00{hit.episode.id}"
        if key not in groups:
            groups[key] = ThreadHits(thread=label, episode_ids=[], best_score=hit.score)
        groups[key].episode_ids.append(hit.episode.id)
        groups[key].best_score = max(groups[key].best_score, hit.score)
    return sorted(groups.values(), key=lambda group: group.best_score, reverse=True)
