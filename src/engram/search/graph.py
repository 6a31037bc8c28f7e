"""The graph channel: episodes that mention the entities a query names.

The query's words and their runs of two and three (``new york``, ``李强``) are looked up as
entity names or aliases; the facts about those entities that match the rest of the query
lend their provenance episodes, best fact first. It finds the turn where a fact was
stated even when the turn itself says "she" or "我". The facts that lend an episode are
recorded as returned by a search (they are then never archived).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from engram.models.episodes import Episode, EpisodeFilters
from engram.nlp.names import normalise_name
from engram.search.engine import ChannelHit
from engram.search.query import ParsedQuery
from engram.storage.protocol import Storage
from engram.storage.types import FactQuery


def name_candidates(words: list[str], longest: int = 3) -> list[str]:
    """Return the query's words and word runs up to ``longest``, as entity name keys."""
    runs = [" ".join(words[i : i + n]) for n in range(1, longest + 1) for i in range(len(words) - n + 1)]
    return list(dict.fromkeys(runs))


class GraphChannel:
    """Provenance episodes of facts about entities named in the query."""

    name = "graph"

    def __init__(
        self,
        store: Storage,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        inactive_weight: float = 1.0,
    ) -> None:
        """Read facts and episodes from ``store``; weigh inactive facts ``inactive_weight``."""
        self._store = store
        self._clock = clock
        self._inactive_weight = inactive_weight

    def search(
        self, group_id: str, query: ParsedQuery, filters: EpisodeFilters, limit: int
    ) -> list[ChannelHit]:
        """Return the provenance episodes of matching facts about entities the query names.

        The facts must match a query word other than the entity's own name: "Where does
        Caroline live?" reaches Caroline's LIVES_IN fact, not every episode about her. A
        superseded fact (read at a past ``as_of``) scores ``inactive_weight`` of its BM25.
        """
        entities = self._store.entities_with_names(group_id, name_candidates(query.words))
        hits: dict[str, ChannelHit] = {}
        used: list[str] = []
        for entity in entities:
            names = set(name_candidates(normalise_name(entity.name).split()))
            terms = [t for t in query.terms if t not in names and normalise_name(t) not in names]
            if not terms:
                continue
            # Time travel: the facts known at ``known_at`` and true at ``as_of``.
            about = FactQuery(
                subject=entity.id,
                known_at=filters.known_at,
                as_of=filters.as_of,
                inactive_weight=self._inactive_weight,
            )
            facts = self._store.search_facts(group_id, terms, about, limit)
            for fact, score in facts:
                for episode_id in fact.episodes:
                    episode = self._store.get_episode(group_id, episode_id, filters.known_at)
                    if episode is not None and _passes(episode, filters):
                        used.append(fact.id)
                        best = hits.get(episode_id)
                        if best is None or best.score < score:
                            hits[episode_id] = ChannelHit(episode, score)
        if used:
            self._store.record_fact_hits(group_id, list(dict.fromkeys(used)), self._clock())
        return sorted(hits.values(), key=lambda hit: hit.score, reverse=True)[:limit]


def _passes(episode: Episode, filters: EpisodeFilters) -> bool:
    """Return True when the episode passes the filters (checked in Python: few candidates)."""
    actor_id = episode.actor.id if episode.actor else None
    return (
        (not filters.intent or episode.intent in filters.intent)
        and (not filters.source or episode.source in filters.source)
        and (not filters.actor_id or actor_id in filters.actor_id)
        and (filters.timestamp_after is None or episode.timestamp >= filters.timestamp_after)
        and (filters.timestamp_before is None or episode.timestamp < filters.timestamp_before)
        and (filters.as_of is None or episode.timestamp <= filters.as_of)
        and all(episode.metadata.get(k) == v for k, v in filters.metadata.items())
    )
