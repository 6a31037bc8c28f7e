"""Episode search: filters in the store, then channels, then fusion, then citations.

Each channel returns the episodes it finds, best first; fusion (RRF) merges them. Today
the one channel is BM25 over FTS5; the vector and graph channels plug in beside it
through the ``Channel`` protocol without touching the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engram.errors import InvalidInput
from engram.models import Episode, EpisodeFilters, SearchHit, SearchQuery, SearchResponse
from engram.search.fusion import reciprocal_rank_fusion
from engram.search.query import ParsedQuery, parse_query
from engram.store.base import Store

CANDIDATES_PER_CHANNEL = 50


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
        """Return up to ``limit`` episodes of ``group_id`` passing ``filters``, best first."""
        ...


class BM25Channel:
    """Full-text BM25 (Robertson and Zaragoza 2009) via the store's index."""

    name = "bm25"

    def __init__(self, store: Store) -> None:
        self._store = store

    def search(
        self, group_id: str, query: ParsedQuery, filters: EpisodeFilters, limit: int
    ) -> list[ChannelHit]:
        """Return the BM25 matches of the query's terms."""
        return [
            ChannelHit(m.episode, m.score)
            for m in self._store.search_text(group_id, query.terms, filters, limit)
        ]


def citation(episode: Episode) -> str:
    """Return how a hit names its evidence: ``[source: <episode id>]``."""
    return f"[source: {episode.id}]"


class SearchEngine:
    """Run episode searches over a store with a fixed set of channels."""

    def __init__(self, store: Store, channels: list[Channel], *, max_query_chars: int) -> None:
        self._store = store
        self._channels = channels
        self._max_query_chars = max_query_chars

    def search(self, query: SearchQuery, group_id: str, channels: list[str] | None = None) -> SearchResponse:
        """Return the best ``query.limit`` episodes; an empty query lists filtered episodes by time.

        ``channels`` restricts the search to the named channels (for evaluation and debugging).
        Raises InvalidInput(field="channels") for an unknown name.
        """
        active = self._channels
        if channels is not None:
            known = {channel.name for channel in self._channels}
            unknown = sorted(set(channels) - known)
            if unknown:
                raise InvalidInput(
                    f"unknown channel(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}",
                    field="channels",
                )
            active = [channel for channel in self._channels if channel.name in channels]
        parsed = parse_query(query.query, max_chars=self._max_query_chars)
        if not parsed.terms:
            episodes = self._store.list_episodes(group_id, query.filters, query.limit)
            return SearchResponse(
                results=[SearchHit(episode=e, score=0.0, citation=citation(e)) for e in episodes],
                warnings=parsed.warnings,
            )
        per_channel = {
            channel.name: channel.search(
                group_id, parsed, query.filters, max(query.limit, CANDIDATES_PER_CHANNEL)
            )
            for channel in active
        }
        found = {hit.episode.id: hit.episode for hits in per_channel.values() for hit in hits}
        fused = reciprocal_rank_fusion(
            {name: [h.episode.id for h in hits] for name, hits in per_channel.items()}
        )
        results = []
        for episode_id, score in fused[: query.limit]:
            explanation = None
            if query.explain:
                explanation = {
                    name: {"rank": rank, "score": hit.score}
                    for name, hits in per_channel.items()
                    for rank, hit in enumerate(hits, start=1)
                    if hit.episode.id == episode_id
                }
            episode = found[episode_id]
            results.append(
                SearchHit(episode=episode, score=score, citation=citation(episode), explanation=explanation)
            )
        return SearchResponse(results=results, warnings=parsed.warnings)
