"""The graph channel: the episodes around the entities and speakers a query names.

A question such as "What activities does Melanie partake in?" names someone; its evidence is
spread over what she said, what the graph knows about her and the things she is linked to.
The channel finds the query's **seeds**, then ranks the episodes of their neighbourhood by
the query's **other words** (the seeds' own names removed, since "I" does not say "Melanie"):

- seeds: entities whose name or alias is a word or a run of two or three words of the
  query (``new york``, ``李强``), and the actors (speakers) the query names: an actor id
  written in the query, or the actor behind a seed entity (its episodes name it as the
  actor, by name or id);
- **speaker** list: the seeds' actors' own episodes, by BM25 of the other words;
- **facts** list: the provenance episodes of facts about a seed, or about an entity linked
  to a seed by a fact (one hop: "Caroline's brother" → Tom → Tom's LIKES), that match the
  other words, best fact first;
- **mentions** list: episodes that mention a seed or a linked entity and match the other
  words (BM25 over the group, kept when in that neighbourhood).

The three lists are fused by RRF (Cormack, Clarke and Büttcher, SIGIR 2009) inside the
channel, and the channel returns its best MAX_HITS: it is a precision signal, and deeper
ranks of one speaker's turns outvote the single piece of evidence of a simple question
(bench/locomo_graph.py; docs/decisions.md). With ``spread_threads`` the ranking takes the
best hit of each thread (a conversation, a session) before the second best of any. Each list
is empty when the graph holds nothing for it: with no extractor the speakers still count.
Episodes that state only facts about a seed that no longer hold are left out of the speaker
and mention lists. The facts that lend an episode are recorded as returned by a search (they
are then never archived).

Cost per search is bounded by the constants below: at most MAX_SEEDS seed entities, one fact
read of NEIGHBOURS rows per seed, MAX_LINKED linked entities (a fact search each), two BM25
searches and one mention lookup of MENTION_POOL rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from engram.fusion import reciprocal_rank_fusion
from engram.models.episodes import Actor, Episode, EpisodeFilters
from engram.models.graph import Entity
from engram.nlp.names import normalise_name
from engram.search.engine import ChannelHit
from engram.search.query import ParsedQuery
from engram.storage.episode_matrix import metadata_key
from engram.storage.protocol import Storage
from engram.storage.types import FactQuery
from engram.threads import thread_key

_WORD = re.compile(r"\w+")
LISTS = ("speaker", "facts", "mentions")
"""The channel's lists, fused in this order."""
MAX_HITS = 20
"""Most episodes the channel returns, whatever the limit asked (see the module docstring)."""
MAX_SEEDS = 8
"""Most seed entities followed, longest names first (each costs a fact read and a fact search)."""
MAX_ACTOR_IDS = 32
"""Most actor ids one query tries (its words, in the case written and lower case)."""
MAX_ACTOR_ID = 256
"""Longest actor id (EpisodeFilters.actor_id): longer words name no actor."""
ACTOR_SAMPLE = 20
"""Episodes mentioning a seed entity read to find the actor it is."""
NEIGHBOURS = 50
"""Facts read per seed to find the entities linked to it (and the episodes now outdated)."""
MAX_LINKED = 20
"""Most linked entities followed (each costs a fact search)."""
INACTIVE = frozenset({"superseded", "retracted"})
MENTION_POOL = 500
"""Episodes mentioning the seeds and their neighbours considered, and BM25 matches read to rank them."""


def name_candidates(words: list[str], longest: int = 3) -> list[str]:
    """Return the query's words and word runs up to ``longest``, as entity name keys."""
    runs = [" ".join(words[i : i + n]) for n in range(1, longest + 1) for i in range(len(words) - n + 1)]
    return list(dict.fromkeys(runs))


@dataclass(slots=True)
class Seeds:
    """What a query names: entities, actor ids, and the words that name them."""

    entities: list[Entity] = field(default_factory=list)
    actors: list[str] = field(default_factory=list)
    name_words: set[str] = field(default_factory=set)


class GraphChannel:
    """Episodes around the entities and speakers named in the query (see the module docstring)."""

    name = "graph"

    def __init__(
        self,
        store: Storage,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        inactive_weight: float = 1.0,
        spread_threads: bool = False,
        lists: Iterable[str] = LISTS,
        max_hits: int = MAX_HITS,
    ) -> None:
        """Read from ``store``; weigh inactive facts ``inactive_weight``; fuse the named ``lists``.

        ``spread_threads`` takes each thread's best hit before any thread's second;
        ``max_hits`` caps the hits returned. Raises ValueError for a list name not in LISTS.
        """
        self._lists = frozenset(lists)
        unknown = sorted(self._lists - set(LISTS))
        if unknown:
            raise ValueError(f"unknown graph list(s) {unknown}; lists are {', '.join(LISTS)}")
        self._store = store
        self._clock = clock
        self._inactive_weight = inactive_weight
        self._spread_threads = spread_threads
        self._max_hits = max_hits

    def search(
        self, group_id: str, query: ParsedQuery, filters: EpisodeFilters, limit: int
    ) -> list[ChannelHit]:
        """Return up to ``min(limit, max_hits)`` episodes around the query's seeds, best first.

        They must match a word of the query other than the seeds' names: "Where does Caroline
        live?" reaches Caroline's LIVES_IN fact and her turns about living somewhere, not
        every episode about her. A superseded fact (read at a past ``as_of``) scores
        ``inactive_weight`` of its BM25. Scores are the RRF scores of the channel's lists.
        """
        seeds = self.seeds(group_id, query)
        other = [t for t in query.terms if t not in seeds.name_words]
        if not other or not (seeds.entities or seeds.actors):
            return []
        limit = min(limit, self._max_hits)
        found: dict[str, Episode] = {}
        rankings: dict[str, list[str]] = {}
        linked, outdated = self._around(group_id, seeds.entities, filters)
        around = [*seeds.entities, *linked]
        if "speaker" in self._lists and seeds.actors:
            speaker = self._speaker(group_id, seeds.actors, other, filters, limit, found)
            rankings["speaker"] = [key for key in speaker if key not in outdated]
        if "facts" in self._lists and around:
            rankings["facts"] = self._facts(group_id, around, other, filters, limit, found)
        if "mentions" in self._lists and around:
            mentions = self._mentions(group_id, [e.id for e in around], other, filters, limit, found)
            rankings["mentions"] = [key for key in mentions if key not in outdated]
        fused = reciprocal_rank_fusion({k: v for k, v in rankings.items() if v})
        if self._spread_threads:
            fused = _spread(fused, {key: thread_key(found[key]) for key, _ in fused})
        return [ChannelHit(found[key], score) for key, score in fused[:limit]]

    # -- seeds ---------------------------------------------------------------------------------------

    def seeds(self, group_id: str, query: ParsedQuery) -> Seeds:
        """Return the entities and actors ``query`` names, and the words naming them.

        At most MAX_SEEDS entities, those named by the most words first ("new york" before
        "york").
        """
        named = self._store.entities_with_names(group_id, name_candidates(query.words))
        named.sort(key=lambda entity: len(normalise_name(entity.name).split()), reverse=True)
        seeds = Seeds(entities=named[:MAX_SEEDS])
        for entity in seeds.entities:
            for name in (entity.name, *entity.aliases):
                seeds.name_words.update(normalise_name(name).split())
        actors = self._actors_written(group_id, query)
        for entity in seeds.entities:
            actors += self._actors_of(group_id, entity)
        seeds.actors = list(dict.fromkeys(actor.id for actor in actors))
        for actor in actors:
            for name in (actor.id, actor.name or ""):
                seeds.name_words.update(normalise_name(name).split())
        return seeds

    def _actors_written(self, group_id: str, query: ParsedQuery) -> list[Actor]:
        """Return the actors whose id is one of the query's words (as written, or lower case)."""
        written = _WORD.findall(query.text)
        tries = list(dict.fromkeys([*written, *(w.lower() for w in written), *query.words]))
        ignored = _ignored(query)
        tries = [t for t in tries if t.lower() not in ignored and len(t) <= MAX_ACTOR_ID][:MAX_ACTOR_IDS]
        if not tries:
            return []
        # One indexed list per candidate would cost a query each: ask for the newest episode of
        # any of them, then the newest of the others, until none is left.
        found: list[Actor] = []
        while tries:
            latest = self._store.list_episodes(group_id, EpisodeFilters(actor_id=tries), 1)
            actor = latest[0].actor if latest else None
            if actor is None or actor.id not in tries:  # the second: never loop on a store's quirk
                break
            found.append(actor)
            tries = [t for t in tries if t != actor.id]
        return found

    def _actors_of(self, group_id: str, entity: Entity) -> list[Actor]:
        """Return the actor an entity is, as a list of none or one.

        It is the actor of the first of ACTOR_SAMPLE episodes mentioning the entity whose
        actor's name or id is one of the entity's names.
        """
        names = {normalise_name(n) for n in (entity.name, *entity.aliases)}
        for episode_id in self._store.episodes_mentioning(group_id, [entity.id], ACTOR_SAMPLE):
            episode = self._store.get_episode(group_id, episode_id)
            actor = episode.actor if episode is not None else None
            if actor is not None and names & {normalise_name(actor.id), normalise_name(actor.name or "")}:
                return [actor]
        return []

    def _around(
        self, group_id: str, seeds: list[Entity], filters: EpisodeFilters
    ) -> tuple[list[Entity], set[str]]:
        """Return the entities one active fact away from the seeds, and the outdated episodes:
        those that state only facts about the seeds that no longer hold (superseded, retracted).

        Read as known at ``filters.known_at``; at an ``as_of`` nothing is outdated (what held
        then is the question).
        """
        seen = {e.id for e in seeds}
        linked: list[Entity] = []
        stale: set[str] = set()
        backing: set[str] = set()
        for seed in seeds:
            about = FactQuery(
                subject=seed.id,
                known_at=filters.known_at,
                as_of=filters.as_of,
                include_history=filters.as_of is None,
            )
            for fact in self._store.find_facts(group_id, about, NEIGHBOURS):
                if fact.status in INACTIVE and filters.as_of is None:
                    stale.update(fact.episodes)
                    continue
                backing.update(fact.episodes)
                other = fact.object if fact.subject == seed.id else fact.subject
                if other is None or other in seen or len(linked) >= MAX_LINKED:
                    continue
                seen.add(other)
                entity = self._store.get_entity(group_id, other, filters.known_at)
                if entity is not None:
                    linked.append(entity)
        return linked, stale - backing

    # -- the lists -----------------------------------------------------------------------------------

    def _speaker(
        self,
        group_id: str,
        actors: list[str],
        terms: list[str],
        filters: EpisodeFilters,
        limit: int,
        found: dict[str, Episode],
    ) -> list[str]:
        """Return the actors' own episodes matching ``terms``, by BM25 (within any actor filter)."""
        allowed = [a for a in actors if not filters.actor_id or a in filters.actor_id]
        if not allowed:
            return []
        matches = self._store.search_text(
            group_id, terms, filters.model_copy(update={"actor_id": allowed}), limit
        )
        for match in matches:
            found[match.episode.id] = match.episode
        return [match.episode.id for match in matches]

    def _facts(
        self,
        group_id: str,
        entities: list[Entity],
        terms: list[str],
        filters: EpisodeFilters,
        limit: int,
        found: dict[str, Episode],
    ) -> list[str]:
        """Return the provenance episodes of facts about ``entities`` matching ``terms``, best first."""
        scored: dict[str, float] = {}
        used: list[str] = []
        for entity in entities:
            names = set(name_candidates(normalise_name(entity.name).split()))
            own = [t for t in terms if t not in names and normalise_name(t) not in names]
            if not own:
                continue
            # Time travel: the facts known at ``known_at`` and true at ``as_of``.
            about = FactQuery(
                subject=entity.id,
                known_at=filters.known_at,
                as_of=filters.as_of,
                inactive_weight=self._inactive_weight,
            )
            for fact, score in self._store.search_facts(group_id, own, about, limit):
                for episode_id in fact.episodes:
                    episode = found.get(episode_id) or self._store.get_episode(
                        group_id, episode_id, filters.known_at
                    )
                    if episode is None or not _passes(episode, filters):
                        continue
                    found[episode_id] = episode
                    used.append(fact.id)
                    scored[episode_id] = max(score, scored.get(episode_id, score))
        if used:
            self._store.record_fact_hits(group_id, list(dict.fromkeys(used)), self._clock())
        return sorted(scored, key=lambda key: scored[key], reverse=True)

    def _mentions(
        self,
        group_id: str,
        entity_ids: list[str],
        terms: list[str],
        filters: EpisodeFilters,
        limit: int,
        found: dict[str, Episode],
    ) -> list[str]:
        """Return episodes mentioning the entities that match ``terms``, by BM25."""
        mentioning = set(self._store.episodes_mentioning(group_id, entity_ids, MENTION_POOL))
        if not mentioning:
            return []
        ranked = []
        for match in self._store.search_text(group_id, terms, filters, MENTION_POOL):
            if match.episode.id in mentioning:
                found[match.episode.id] = match.episode
                ranked.append(match.episode.id)
                if len(ranked) == limit:
                    break
        return ranked


def _ignored(query: ParsedQuery) -> set[str]:
    """Return the query's words that name no one: the stop words parse_query dropped."""
    return {w.lower() for w in _WORD.findall(query.text)} - {w.lower() for w in query.words}


def _spread(ranked: list[tuple[str, float]], threads: dict[str, str | None]) -> list[tuple[str, float]]:
    """Reorder ``ranked`` to take each thread's best before any thread's second, and so on.

    Episodes without a thread are threads of their own. Scores are kept; the order within
    each round follows the original ranking.
    """
    seen: dict[str, int] = {}
    rounds: list[tuple[int, int, str, float]] = []
    for position, (key, score) in enumerate(ranked):
        thread = threads.get(key) or f"\x00{key}"
        depth = seen.get(thread, 0)
        seen[thread] = depth + 1
        rounds.append((depth, position, key, score))
    return [(key, score) for _, _, key, score in sorted(rounds)]


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
        and all(metadata_key(episode.metadata.get(k)) == metadata_key(v) for k, v in filters.metadata.items())
    )
