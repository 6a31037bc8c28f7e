"""The knowledge graph behind Memory: build it from extractions, read entities, search facts.

Extraction itself happens before (engram.ingest.extraction); each batch of extractions of
one group is resolved and arbitrated in one transaction, as one operation.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, tzinfo

from engram.errors import Conflict, EmbedderError, NotFound, shown
from engram.graph.build import BuildSummary, GraphBuilder, name_keys
from engram.graph.checks import check_extraction
from engram.graph.resolve import UNKNOWN_TYPE
from engram.graph.vectors import NAME_SEARCH, FactFusion, NameCandidates, embed_mentions, hybrid_search
from engram.models.episodes import Episode
from engram.models.graph import (
    AddFacts,
    Entity,
    EntityView,
    Extraction,
    Fact,
    FactHit,
    FactSearch,
    FactSearchResponse,
    MergeCandidateView,
)
from engram.models.predicates import PredicateRegistry
from engram.nlp.embed import Embedder
from engram.nlp.names import normalise_name
from engram.nlp.tokenize import query_terms
from engram.observability import metrics
from engram.storage.protocol import Storage, Txn
from engram.storage.types import FactQuery, Vector

logger = logging.getLogger("engram.graph")


class GraphService:
    """Builds and reads the knowledge graph of a store."""

    def __init__(
        self,
        store: Storage,
        *,
        clock: Callable[[], datetime],
        registry: PredicateRegistry | None = None,
        inactive_weight: float = 0.5,
        embedder: Embedder | None = None,
        fusion: FactFusion | None = None,
        names: NameCandidates | None = None,
        zone: tzinfo = UTC,
    ) -> None:
        """Serve the graph of ``store``; with ``embedder``, fact search is hybrid and resolution gets
        name-vector candidates. ``zone``: the one episodes' days and clock times are read in unless
        their metadata names one (engram.nlp.dates.reference_of)."""
        self._store = store
        self._embedder = embedder
        self._fusion = fusion or FactFusion()
        self._inactive_weight = inactive_weight
        self._clock = clock
        self._registry = registry or PredicateRegistry()
        self._builder = GraphBuilder(self._registry, clock=clock, names=names, zone=zone)

    # -- writes ------------------------------------------------------------------------------------

    def check_supplied(self, group_id: str, extraction: Extraction) -> list[str]:
        """Check an agent's extraction before anything is written; return the unknown predicates it uses.

        Raises InvalidInput naming the fact (``facts.3``: contradictory facts; ``facts.3.subject``:
        an entity id that does not exist). engram.graph.checks has the rules.
        """
        return check_extraction(
            extraction,
            self._registry,
            lambda entity_id: self._store.get_entity(group_id, entity_id) is not None,
        )

    def add_facts(self, request: AddFacts, group_id: str, actor: str | None) -> dict[str, object]:
        """Add facts extracted from a stored episode; return what happened. Raises NotFound, InvalidInput."""
        episode = self._store.get_episode(group_id, request.episode_id)
        if episode is None:
            raise NotFound(
                f"no episode with id {shown(request.episode_id)} in group {shown(group_id)}",
                field="episode_id",
            )
        extraction = Extraction(entities=request.entities, facts=request.facts)
        self.check_supplied(group_id, extraction)
        batch = [(episode, extraction)]
        return self.build(group_id, batch, actor, "add_facts").details()

    def merge_entities(self, group_id: str, source_id: str, into_id: str, actor: str | None) -> EntityView:
        """Merge ``source_id`` into ``into_id`` as one operation; return the surviving entity.

        The survivor keeps its id and gains the other's names (as aliases), attributes it
        lacks, mentions and facts (new versions pointing at it); the merged entity's
        current version is closed. Raises NotFound for either absent, then Conflict for an
        entity merged into itself or into one of a different type.
        """

        def merge(txn: Txn) -> None:
            operation = txn.begin(group_id, "merge", f"merge {source_id} into {into_id}", self._clock, actor)
            source, into = txn.entity(group_id, source_id), txn.entity(group_id, into_id)
            if source is None:
                raise NotFound(f"no entity with id {shown(source_id)} in group {shown(group_id)}", field="id")
            if into is None:
                raise NotFound(f"no entity with id {shown(into_id)} in group {shown(group_id)}", field="into")
            if source.id == into.id:
                raise Conflict("an entity cannot be merged into itself", field="into")
            if UNKNOWN_TYPE not in (source.type, into.type) and source.type != into.type:
                raise Conflict(
                    f"cannot merge a {shown(source.type)} entity into a {shown(into.type)} one",
                    field="into",
                )
            moved = self._builder.merge(txn, source, into, operation)
            for episode_id in txn.episodes_mentioning(group_id, [source.id], 1_000_000):
                txn.add_mentions(group_id, episode_id, [into.id], operation.id)
            txn.close_entity(group_id, source.id, operation.created_at, operation.id)
            txn.record_operation(operation, {"source": source.id, "into": into.id, "facts": moved})

        self._store.write(merge)
        metrics.count_operation("merge")
        return self.get_entity(group_id, into_id, None)

    def _mention_vectors(self, batch: list[tuple[Episode, Extraction]]) -> dict[str, Vector]:
        """Return the name vectors of the batch's new names (before the write: it must not wait).

        An embedder failure is logged and resolution goes on without name vectors.
        """
        if self._embedder is None or not batch:
            return {}
        group_id = batch[0][0].group_id
        try:
            return embed_mentions(
                self._embedder,
                [extraction for _, extraction in batch],
                lambda keys: {
                    k for e in self._store.entities_with_names(group_id, keys) for k in name_keys(e)
                },
            )
        except EmbedderError as exc:
            logger.warning("name embeddings failed, resolving without them: %s", exc.detail)
            return {}

    def build(
        self,
        group_id: str,
        batch: list[tuple[Episode, Extraction]],
        actor: str | None,
        kind: str,
        tokens: dict[str, dict[str, int]] | None = None,
        queued: Sequence[str] | None = None,
    ) -> BuildSummary:
        """Resolve and arbitrate the extractions of stored episodes of one group, as one ``kind``
        operation (``tokens``: what each extraction cost, recorded in its details).

        ``queued``: ids of episodes in the extraction queue (engram.storage.extraction_queue),
        those of the batch and any others, taken out of it in the same transaction; an episode of
        the batch no longer queued had its graph built by another writer and is skipped.
        """
        name_vectors = self._mention_vectors(batch)

        def write(txn: Txn) -> BuildSummary:
            operation = txn.begin(
                group_id, kind, f"{kind}: graph of {len(batch)} episode(s)", self._clock, actor
            )
            total = BuildSummary()
            work = batch
            if queued is not None:
                claimed = txn.claim_extractions(group_id, queued)
                work = [(episode, extraction) for episode, extraction in batch if episode.id in claimed]
                if not work:
                    return total
            with txn.pipeline():  # the batch's writes go out with its next read, not one sync each
                if len(work) > 1:
                    self._builder.read_names(txn, group_id, [extraction for _, extraction in work])
                for episode, extraction in work:
                    part = self._builder.build(txn, episode, extraction, operation, name_vectors)
                    if len(work) > 1:
                        for decision in part.decisions:
                            decision["episode"] = episode.id
                    total.add(part)
            extra = {"tokens": tokens} if tokens else {}
            txn.record_operation(operation, {"episodes": [e.id for e, _ in work], **total.details(), **extra})
            return total

        summary = self._store.write(write)
        metrics.count_operation(kind)
        return summary

    # -- reads -------------------------------------------------------------------------------------

    def get_entity(self, group_id: str, entity_id: str, known_at: datetime | None) -> EntityView:
        """Return an entity, its facts (as known at ``known_at``) and its timeline. Raises NotFound."""
        entity = self._store.get_entity(group_id, entity_id, known_at)
        if entity is None:
            raise NotFound(f"no entity with id {shown(entity_id)} in group {shown(group_id)}", field="id")
        facts = self._store.find_facts(group_id, FactQuery(known_at=known_at, subject=entity_id), 200)
        return EntityView(
            entity=entity,
            facts=self._hits(group_id, [(f, 0.0) for f in facts]),
            timeline=self._store.entity_history(group_id, entity_id),
        )

    def merge_candidates(self, group_id: str) -> list[MergeCandidateView]:
        """Return the possible duplicates the resolver recorded, best score first, with both entities."""
        views = []
        for candidate in self._store.merge_candidates(group_id):
            entity = self._store.get_entity(group_id, candidate.entity_id)
            other = self._store.get_entity(group_id, candidate.candidate_id)
            if entity is not None and other is not None:  # a merge may have settled it since
                views.append(
                    MergeCandidateView(
                        entity=entity, candidate=other, score=candidate.score, parts=candidate.parts
                    )
                )
        return views

    def search_entities(self, group_id: str, query: str, types: Sequence[str], limit: int) -> list[Entity]:
        """Return entities whose names contain the query's words (or the whole query), then, with an
        embedder, the entity whose name clearly means the same (IBM → International Business
        Machines, Lissabon → Lisbon, Hangzhou → 杭州; engram.graph.vectors.NameSearch).
        """
        keys = [k for k in dict.fromkeys([normalise_name(query), *query_terms(query)]) if k]
        found = self._store.search_entities(group_id, keys, types, limit)
        if self._embedder is None or len(found) >= limit:
            return found
        try:
            vector = self._embedder.embed_query(query)
        except EmbedderError as exc:
            logger.warning("query embedding failed, entity search by words only: %s", exc.detail)
            return found
        near = self._store.search_entity_vectors(group_id, vector, types, 2, 0.0)
        seen = {entity.id for entity in found}
        found += [entity for entity in NAME_SEARCH.best(near) if entity.id not in seen]
        return found[:limit]

    def search_facts(self, search: FactSearch, group_id: str) -> FactSearchResponse:
        """Return facts matching ``search``: current by default, or as of / known at a time."""
        subject = None
        if search.subject is not None:
            subject = self._entity_id(group_id, search.subject)
        predicate = None if search.predicate is None else self._registry.canonical(search.predicate).name
        query = FactQuery(
            as_of=search.as_of,
            known_at=search.known_at,
            include_history=search.include_history or search.include_archived,
            subject=subject,
            predicate=predicate,
            inactive_weight=self._inactive_weight,
        )
        terms = query_terms(search.query)
        if search.include_archived:
            found, archived = _with_archive(self._store, group_id, terms, query, search.limit)
        elif self._embedder is not None and search.query.strip():

            def bm25(depth: int) -> list[tuple[Fact, float]]:
                return self._store.search_facts(group_id, terms, query, depth) if terms else []

            args = (search.query, group_id, query, search.limit, self._fusion)
            found = hybrid_search(self._store, self._embedder, bm25, *args)
            archived = frozenset()
        else:
            found, archived = self._store.search_facts(group_id, terms, query, search.limit), frozenset()
        live = [fact.id for fact, _ in found if fact.id not in archived]
        self._store.record_fact_hits(group_id, live, self._clock())
        return FactSearchResponse(results=self._hits(group_id, found, archived))

    def _entity_id(self, group_id: str, subject: str) -> str:
        if self._store.get_entity(group_id, subject) is not None:
            return subject
        named = self._store.entities_with_names(group_id, [normalise_name(subject)])
        named = named or self._store.search_entities(group_id, [normalise_name(subject)], [], 1)
        if not named:  # the fact search names an entity that is absent, like GET /entities/{id}
            raise NotFound(
                f"no entity named or with id {shown(subject)} in group {shown(group_id)}", field="subject"
            )
        return named[0].id

    def hits(self, group_id: str, facts: Sequence[Fact]) -> list[FactHit]:
        """Return facts as hits: with the names they connect and citations of their episodes (score 0)."""
        return self._hits(group_id, [(fact, 0.0) for fact in facts])

    def _hits(
        self, group_id: str, found: Sequence[tuple[Fact, float]], archived: frozenset[str] = frozenset()
    ) -> list[FactHit]:
        ids = [i for fact, _ in found for i in (fact.subject, fact.object) if i is not None]
        names = self._store.entity_names(group_id, ids)  # one query for the page, not one per name

        def name(entity_id: str | None) -> str | None:
            return None if entity_id is None else names.get(entity_id)

        return [
            FactHit(
                fact=fact,
                score=score,
                subject_name=name(fact.subject),
                object_name=name(fact.object),
                citations=[f"[source: {episode_id}]" for episode_id in fact.episodes],
                archived=fact.id in archived,
            )
            for fact, score in found
        ]


def _with_archive(
    store: Storage, group_id: str, terms: Sequence[str], query: FactQuery, limit: int
) -> tuple[list[tuple[Fact, float]], frozenset[str]]:
    """Return the best ``limit`` live and archived facts for ``terms``, and the archived ids among them.

    With terms, best score first (both weighted by ``query.inactive_weight``); without, newest
    valid time first, like Storage.find_facts.
    """
    live = store.search_facts(group_id, terms, query, limit)
    cold = store.search_facts(group_id, terms, query, limit, archived=True)
    merged = [*live, *cold]
    if terms:
        merged.sort(key=lambda hit: -hit[1])
    else:
        merged.sort(key=lambda hit: (hit[0].id, hit[0].version))
        merged.sort(key=lambda hit: hit[0].valid_at or hit[0].recorded_at, reverse=True)
    found = merged[:limit]
    cold_ids = {fact.id for fact, _ in cold}
    return found, frozenset(fact.id for fact, _ in found if fact.id in cold_ids)
