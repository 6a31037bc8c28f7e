"""Embeddings in the knowledge graph: fact vectors for hybrid fact search, name vectors for resolution.

- **Facts** are embedded after the write (engram.ingest.indexer drains the store's queues after
  the episodes): the sentence plus the subject's and object's names it does not already
  contain, as the full-text index holds them. ``fuse_facts`` fuses the BM25 and vector
  rankings with weighted RRF (engram.fusion).
- **Entity names**: before a graph write, the writer embeds the names of the batch's typed
  mentions (``embed_mentions``: one embedder call per batch, outside the transaction, so
  the single writer never waits for a model); inside, resolution asks the transaction for
  the nearest names when exact and fuzzy matching found nothing, and a new entity's name
  vector is stored with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engram.fusion import reciprocal_rank_fusion
from engram.graph.resolve import UNKNOWN_TYPE, is_generic
from engram.models.graph import Entity, Extraction, Fact
from engram.nlp.embed import Embedder
from engram.nlp.names import normalise_name
from engram.storage.protocol import Storage
from engram.storage.types import FactQuery, PendingFact, Vector

MAX_FACT_TEXT_CHARS = 600


@dataclass(frozen=True, slots=True)
class FactFusion:
    """Weights of fact search channels and how many hits each contributes before fusion.

    Measured on bench/data/fact_queries.json (docs/decisions.md §14).
    """

    bm25: float = 1.0
    vector: float = 2.0
    depth: int = 50
    word_matches_first: bool = True
    """Facts the query's words match (BM25) rank before facts only near in meaning: a word match
    (an id, an amount, a rare name) is never buried under the vector channel's neighbours."""
    margin: float | None = 0.05
    """Vector hits whose cosine is more than this below the best one's are dropped (None: keep all).

    e5 cosines are compressed (unrelated sentences 0.73-0.80, related 0.80-0.92): without a
    margin every fact of a small group is a vector hit, and RRF lets that noise outrank an
    exact word match the vectors do not rank (a fact not embedded yet, an inactive one)."""


@dataclass(frozen=True, slots=True)
class NameSearch:
    """Which entity a name vector finds in entity search: the nearest name, when its cosine is at
    least ``floor`` and leads the runner-up by ``lead`` (``unrelated`` stands in for a missing one).

    e5 cosines of names are compressed: true matches 0.84-0.93 (Lissabon → Lisbon 0.92, IBM →
    International Business Machines 0.87, Hangzhou → 杭州 0.85), unrelated names 0.73-0.85, and
    queries such as "banana", "the", "zzz qwerty" or "Microsoft" have a best match at 0.83-0.86,
    sometimes well ahead of the next. Both a level and a lead are needed; the level is set above
    the noise seen, at the price of cross-lingual matches below it (docs/decisions.md §14).
    Only one entity is proposed: the best.
    """

    floor: float = 0.86
    lead: float = 0.025
    unrelated: float = 0.80

    def best(self, near: Sequence[tuple[Entity, float]]) -> list[Entity]:
        """Return ``[the best of near]`` when it is close enough and clearly ahead, else ``[]``."""
        if not near:
            return []
        ranked = sorted(near, key=lambda pair: -pair[1])
        best, cosine = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else self.unrelated
        return [best] if cosine >= self.floor and cosine - runner_up >= self.lead else []


NAME_SEARCH = NameSearch()


@dataclass(frozen=True, slots=True)
class NameCandidates:
    """How entity-name vectors propose resolution candidates (docs/decisions.md §14)."""

    limit: int = 5
    floor: float = 0.9
    evidence_from: float | None = None
    """Cosine that counts as no name evidence; 1.0 ↔ 1. None: vectors propose, give no evidence."""

    def evidence(self, cosine: float) -> float:
        """Return the name evidence of a name-vector cosine, in [0, 1) (resolve's ``name_similarity``).

        e5 cosines of unrelated names sit near 0.81 (median; p99 0.92 on the labelled pairs),
        so the scale starts at ``evidence_from``, not at 0.
        """
        if self.evidence_from is None:
            return 0.0
        return max(0.0, min(0.99, (cosine - self.evidence_from) / (1.0 - self.evidence_from)))


def fact_embedding_text(pending: PendingFact) -> str:
    """Return what is embedded for a fact: its sentence, then the names it does not mention."""
    lowered = pending.sentence.casefold()
    extra = [name for name in dict.fromkeys(pending.names) if name.casefold() not in lowered]
    text = pending.sentence if not extra else f"{pending.sentence} ({'; '.join(extra)})"
    return text[:MAX_FACT_TEXT_CHARS]


def embed_graph_batch(store: Storage, embedder: Embedder, batch_size: int) -> int:
    """Embed one batch of pending facts, else of pending entity names; return how many (0: none).

    Raises EmbedderError (the rows stay pending) or StoreError.
    """
    facts = store.pending_fact_vectors(batch_size)
    if facts:
        vectors = embedder.embed_documents([fact_embedding_text(p) for p in facts])
        store.put_fact_vectors(list(zip(facts, vectors, strict=True)))
        return len(facts)
    entities = store.pending_entity_vectors(batch_size)
    if entities:
        vectors = embedder.embed_documents([p.name for p in entities])
        store.put_entity_vectors(list(zip(entities, vectors, strict=True)))
    return len(entities)


def has_pending(store: Storage) -> bool:
    """Return True when a fact or an entity name waits for its vector."""
    return bool(store.pending_fact_vectors(1) or store.pending_entity_vectors(1))


def embed_mentions(
    embedder: Embedder,
    extractions: Sequence[Extraction],
    known: Callable[[list[str]], set[str]] = lambda keys: set(),
) -> dict[str, Vector]:
    """Return the name vectors of the typed mentions in ``extractions``, by normalised name.

    Untyped names (``thing``) and generic roles get none: resolution proposes no vector
    candidates for them, as it proposes no fuzzy ones. Nor do names ``known(keys)`` reports
    as some entity's name or alias already (they resolve exactly; the indexer embeds their
    entities). One embedder call for the batch.
    """
    names: dict[str, str] = {}
    for extraction in extractions:
        for entity in extraction.entities:
            key = normalise_name(entity.name)
            if key and entity.type != UNKNOWN_TYPE and not is_generic(entity.name):
                names.setdefault(key, entity.name)
    for key in known(list(names)) if names else ():
        names.pop(key, None)
    if not names:
        return {}
    vectors = embedder.embed_documents(list(names.values()))
    return dict(zip(names, vectors, strict=True))


def fuse_facts(
    bm25: Sequence[tuple[Fact, float]],
    vector: Sequence[tuple[Fact, float]],
    weights: FactFusion,
    limit: int,
    inactive_weight: float,
) -> list[tuple[Fact, float]]:
    """Return the two rankings fused by weighted RRF, best first, at most ``limit``.

    Both rankings already weigh inactive versions down; the fused score of an inactive
    version is multiplied by ``inactive_weight`` again, so a current fact ranked like an
    old one stays above it (as with BM25 alone).
    """
    facts: dict[tuple[str, int], Fact] = {}
    rankings: dict[str, list[tuple[str, int]]] = {"bm25": [], "vector": []}
    for channel, hits in (("bm25", bm25), ("vector", vector)):
        for fact, _ in hits:
            key = (fact.id, fact.version)
            facts.setdefault(key, fact)
            rankings[channel].append(key)
    fused = reciprocal_rank_fusion(rankings, {"bm25": weights.bm25, "vector": weights.vector})
    scored = [
        (facts[key], score * (1.0 if facts[key].status in ("current", "disputed") else inactive_weight))
        for key, score in fused
    ]
    matched = {(fact.id, fact.version) for fact, _ in bm25} if weights.word_matches_first else set()
    scored.sort(key=lambda hit: ((hit[0].id, hit[0].version) not in matched, -hit[1]))
    return scored[:limit]


def hybrid_search(
    store: Storage,
    embedder: Embedder,
    bm25: Callable[[int], Sequence[tuple[Fact, float]]],
    text: str,
    group_id: str,
    query: FactQuery,
    limit: int,
    weights: FactFusion,
) -> list[tuple[Fact, float]]:
    """Return up to ``limit`` facts fused from ``bm25(depth)`` and the nearest fact vectors to ``text``.

    Raises EmbedderError when the query cannot be embedded.
    """
    depth = max(weights.depth, limit)
    near = store.search_fact_vectors(group_id, embedder.embed_query(text), query, depth)
    if weights.margin is not None and near:
        near = _near_best(near, weights.margin, query.inactive_weight)
    words = bm25(depth)
    return fuse_facts(words, _stand_ins(store, group_id, words, near), weights, limit, query.inactive_weight)


def _stand_ins(
    store: Storage,
    group_id: str,
    words: Sequence[tuple[Fact, float]],
    near: Sequence[tuple[Fact, float]],
) -> list[tuple[Fact, float]]:
    """Return the vector ranking with each word match that has no vector yet at its BM25 rank.

    A fact written seconds ago is not embedded yet: without a stand-in its words alone compete
    with facts ranked by both channels, and an id such as "INV-39393" among facts that all say
    "INV" came last. Read your writes: it ranks in meaning as it ranks in words.
    """
    missing = store.facts_without_vectors(group_id, [fact.id for fact, _ in words])
    if not missing:
        return list(near)
    ranked = list(near)
    for rank, (fact, score) in enumerate(words):
        if fact.id in missing:
            ranked.insert(min(rank, len(ranked)), (fact, score))
    return ranked


def _near_best(
    near: Sequence[tuple[Fact, float]], margin: float, inactive_weight: float
) -> list[tuple[Fact, float]]:
    """Keep the vector hits whose cosine (before the inactive weight) is within ``margin`` of the best."""
    raw = [
        (
            fact,
            score
            / (1.0 if fact.status in ("current", "disputed") or not inactive_weight else inactive_weight),
        )
        for fact, score in near
    ]
    best = max(cosine for _, cosine in raw)
    return [hit for hit, (_, cosine) in zip(near, raw, strict=True) if cosine >= best - margin]
