"""Build the graph from one episode's extraction: dates, entity resolution, fact arbitration, writes.

Runs inside ``Storage.write``, so every decision sees a consistent graph and the
episode's whole graph change commits (or rolls back) as one operation. Per episode
(docs/architecture.md, "Ingestion"): relative dates are resolved against the episode's timestamp; each mention
is resolved against known entities (exact name or alias, then fuzzy candidates of the same
type; scored by engram.graph.resolve); each fact becomes a Claim arbitrated against the
current facts with its subject and predicate (engram.graph.arbitrate), and the decision is
written as new versions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, tzinfo
from functools import partial

from rapidfuzz import fuzz, process

from engram.graph.arbitrate import ArbitrationSettings, Claim, Decision, arbitrate
from engram.graph.ending import ended_facts, thread_values, value_as_object
from engram.graph.entities import absorb, attribute_values, first_episode, keys_of, name_keys, new_entity
from engram.graph.evidence import NAMED_BY_TAIL, as_speaker, known_facts, mention_facts, profile_of, tail_of
from engram.graph.live import LiveFacts
from engram.graph.nicknames import form_keys, form_similarity
from engram.graph.refine import refiner
from engram.graph.resolve import (
    UNKNOWN_TYPE,
    Profile,
    Verdict,
    comparable,
    is_generic,
    resolve,
)
from engram.graph.sentences import fact_sentence
from engram.graph.vectors import NameCandidates
from engram.ids import new_id
from engram.models.episodes import Episode, Operation
from engram.models.graph import Entity, EntityIn, Extraction, Fact, FactIn
from engram.models.predicates import Predicate, PredicateRegistry
from engram.nlp.dates import apply_dates
from engram.nlp.names import normalise_name
from engram.nlp.tokenize import segment
from engram.storage.protocol import Txn
from engram.storage.types import MergeCandidate, Vector
from engram.threads import thread_key

__all__ = ["FUZZY_FLOOR", "BuildSummary", "GraphBuilder", "fact_index_text", "name_keys", "neutral_fact_text"]

IDENTIFIER_TYPES = frozenset({"email", "url"})
"""Entity types whose name is an address: the same entity only under the same name or alias."""
FUZZY_POOL = 200
FUZZY_FLOOR = 0.8
_ENTITY_ID = re.compile(r"^en_[0-9A-Z]{26}$")


@dataclass(slots=True)
class BuildSummary:
    """What one episode did to the graph."""

    entities_created: list[str] = field(default_factory=list)
    entities_matched: list[str] = field(default_factory=list)
    merge_candidates: int = 0
    facts: Counter[str] = field(default_factory=Counter)
    fact_ids: list[str] = field(default_factory=list)
    decisions: list[dict[str, object]] = field(default_factory=list)
    unknown_predicates: list[str] = field(default_factory=list)

    def add(self, other: BuildSummary) -> None:
        """Add what another episode did."""
        self.entities_created += other.entities_created
        self.entities_matched += other.entities_matched
        self.merge_candidates += other.merge_candidates
        self.facts.update(other.facts)
        self.fact_ids += other.fact_ids
        self.decisions += other.decisions
        self.unknown_predicates = list(dict.fromkeys(self.unknown_predicates + other.unknown_predicates))

    def details(self) -> dict[str, object]:
        """Return the summary as operation details (per fact: the decision and its reason)."""
        return {
            "entities_created": self.entities_created,
            "entities_matched": self.entities_matched,
            "merge_candidates": self.merge_candidates,
            "facts": dict(self.facts),
            "fact_ids": self.fact_ids,
            "decisions": self.decisions,
            "unknown_predicates": self.unknown_predicates,
        }


def fact_index_text(txn: Txn, group: str, fact: Fact) -> str:
    """Return what the full-text index holds for a fact: its sentence, predicate, names and value."""
    names = [name for entity in (fact.subject, fact.object) if entity for name in txn.names(group, entity)]
    words = fact.predicate.lower().replace("_", " ")
    return segment(" ".join([fact.fact, words, *names, "" if fact.value is None else str(fact.value)]))


def neutral_fact_text(fact: Fact, subject_name: str | None, object_name: str | None) -> tuple[str, str]:
    """Return (sentence, full-text index text) saying the fact in no episode's words.

    "<subject> <predicate words> <object or value>": what purge leaves of a fact another
    episode still supports when the purged episode worded it first.
    """
    words = fact.predicate.lower().replace("_", " ")
    value = "" if fact.value is None else str(fact.value)
    target = object_name if fact.object is not None else value
    sentence = " ".join(part for part in (subject_name or fact.subject, words, target) if part)
    names = [name for name in (subject_name, object_name) if name]
    return sentence, segment(" ".join([sentence, words, *names, value]))


class GraphBuilder:
    """Turns extractions into entity and fact versions."""

    def __init__(
        self,
        registry: PredicateRegistry | None = None,
        arbitration: ArbitrationSettings | None = None,
        *,
        clock: Callable[[], datetime],
        names: NameCandidates | None = None,
        zone: tzinfo = UTC,
    ) -> None:
        self._zone = zone  # the zone of an episode's days and clock times (nlp.dates.reference_of)
        self._registry = registry or PredicateRegistry()
        self._arbitration = arbitration or ArbitrationSettings()
        self._clock = clock
        self._names = names or NameCandidates()
        self._name_vectors: Mapping[str, Vector] = {}

    def build(
        self,
        txn: Txn,
        episode: Episode,
        extraction: Extraction,
        operation: Operation,
        name_vectors: Mapping[str, Vector] | None = None,
    ) -> BuildSummary:
        """Write what ``extraction`` says about ``episode`` into the graph; return a summary.

        ``name_vectors`` (normalised mention name → its embedding, graph.vectors.embed_mentions)
        let resolution propose the nearest names when exact and fuzzy matching find nothing.
        """
        summary = BuildSummary()
        self._name_vectors = name_vectors or {}
        extraction = apply_dates(extraction, episode, self._zone)
        mentions = self._mentions(extraction)
        resolved: dict[str, str] = {}
        for mention in self._exact_first(txn, episode.group_id, mentions):
            evidence = mention_facts(extraction, mention, resolved)
            entity_id = self._resolve(txn, episode, mention, resolved, evidence, operation, summary)
            for key in [normalise_name(mention.name), *(normalise_name(a) for a in mention.aliases)]:
                resolved.setdefault(key, entity_id)
        named = [self._named(txn, episode.group_id, fact, resolved, summary) for fact in extraction.facts]
        wanted: dict[str, set[str]] = {}
        for read in named:
            if read is not None:
                wanted.setdefault(read.subject, set()).update(read.predicates)
        live = LiveFacts.read(txn, episode.group_id, wanted)  # one read for every claim of the episode
        with txn.pipeline():  # the claims are arbitrated against `live`: their writes need not wait
            for index, (fact_in, read) in enumerate(zip(extraction.facts, named, strict=True)):
                self._add_fact(txn, episode, index, fact_in, read, live, operation, summary)
            mentioned = list(dict.fromkeys(resolved.values()))
            txn.add_mentions(episode.group_id, episode.id, mentioned, operation.id)
        return summary

    # -- entities ----------------------------------------------------------------------------------

    def read_names(self, txn: Txn, group: str, extractions: Sequence[Extraction]) -> None:
        """Look up every name the extractions' mentions may be known by, in one read: each
        episode's lookups are then the transaction's to answer (Txn.entities_named)."""
        mentions = [m for extraction in extractions for m in self._mentions(extraction).values()]
        txn.entities_named(group, [key for mention in mentions for key in name_keys(mention)])

    @staticmethod
    def _mentions(extraction: Extraction) -> dict[str, EntityIn]:
        """Return every entity the extraction names, by normalised name (facts' names included)."""
        found: dict[str, EntityIn] = {}
        for entity in extraction.entities:
            found.setdefault(normalise_name(entity.name), entity)
        for fact in extraction.facts:
            for name in (fact.subject, fact.object):
                if name is not None and not _ENTITY_ID.match(name) and normalise_name(name) not in found:
                    found[normalise_name(name)] = EntityIn(name=name)
        return {key: entity for key, entity in found.items() if key}

    @staticmethod
    def _exact_first(txn: Txn, group: str, mentions: Mapping[str, EntityIn]) -> list[EntityIn]:
        """Return the mentions, those naming a known entity first (one read for all of them)."""
        keys = {name: name_keys(mention) for name, mention in mentions.items()}
        named = txn.entities_named(group, [key for some in keys.values() for key in some])
        known = {key for entity in named for key in name_keys(entity)}
        return [mentions[name] for name in sorted(mentions, key=lambda name: known.isdisjoint(keys[name]))]

    def _resolve(
        self,
        txn: Txn,
        episode: Episode,
        mention: EntityIn,
        resolved: dict[str, str],
        evidence: tuple[dict[str, frozenset[str]], frozenset[str]],
        operation: Operation,
        summary: BuildSummary,
    ) -> str:
        """Return the id of the entity ``mention`` is: a known one (merged into) or a new one."""
        mention = as_speaker(mention, episode)
        group = episode.group_id
        thread = thread_key(episode)
        facts, neighbours = evidence
        profile = Profile(
            name=mention.name,
            type=mention.type,
            aliases=frozenset(mention.aliases),
            attributes=dict(mention.attributes),
            first_seen=episode.timestamp,
            last_seen=episode.timestamp,
            neighbours=neighbours,
            threads=frozenset({thread} if thread else ()),
            facts=facts,
        )
        best: tuple[float, Entity, Verdict, dict[str, float], str] | None = None
        candidates = self._candidates(txn, group, mention)
        one_valued = [p for p in facts if self._registry.canonical(p).cardinality == "one"]
        # One known entity of the very name, and too few facts to tell two people apart: it is
        # that entity (resolve's same-name rule), so its facts need not be read, nor its threads
        # when the mention's attributes are comparable (the rule then ignores the context).
        plain = (
            len(candidates) == 1
            and normalise_name(candidates[0][0].name) == normalise_name(mention.name)
            and len(one_valued) < 2
        )
        for known, similarity in candidates:
            known_profile = profile_of(known)
            if not plain:
                their_facts, their_neighbours = known_facts(txn, group, known)
                known_profile = replace(known_profile, facts=their_facts, neighbours=their_neighbours)
            if not plain or not comparable(profile, known_profile):
                known_profile = replace(known_profile, threads=frozenset(txn.recent_threads(group, known.id)))
            result = resolve(profile, known_profile, name_similarity=similarity)
            if result.verdict is not Verdict.DISTINCT and (best is None or result.score > best[0]):
                best = (result.score, known, result.verdict, dict(result.parts), result.reason)
        if best is not None and best[2] is Verdict.MERGE:
            seen = (episode.timestamp, episode.timestamp)
            absorb(txn, best[1], mention, seen, episode.id, operation)
            summary.entities_matched.append(best[1].id)
            return best[1].id
        entity = new_entity(mention, episode, operation)
        txn.put_entity(entity, name_keys(entity))
        vector = self._name_vectors.get(normalise_name(mention.name))
        if vector is not None:
            txn.put_entity_vector(entity, vector)
        summary.entities_created.append(entity.id)
        if best is not None:
            txn.add_merge_candidate(
                group, MergeCandidate(entity.id, best[1].id, best[0], best[3], self._clock())
            )
            summary.merge_candidates += 1
            summary.decisions.append(
                {"entity": entity.id, "candidate": best[1].id, "decision": "candidate", "reason": best[4]}
            )
        return entity.id

    def _candidates(self, txn: Txn, group: str, mention: EntityIn) -> list[tuple[Entity, float]]:
        """Return known entities the mention may be, each with its name-vector evidence (0: none).

        Exact names and aliases first; else fuzzy names and name forms (小李 for 李强, Bob for
        Robert) of the same type; else the nearest name vectors of a compatible type
        (graph.vectors.NameCandidates), when there are any.
        """
        exact = txn.entities_named(group, name_keys(mention))
        if exact:
            return [(known, 0.0) for known in exact]
        if mention.type == UNKNOWN_TYPE or mention.type in IDENTIFIER_TYPES or "ref_id" in mention.attributes:
            # An address or a reference (a Message-ID, DEAL-7890) is its own id: a near spelling is
            # another one, and a mail import's hundreds of them made each new one every one's candidate.
            return []
        key = normalise_name(mention.name)
        names = [n for n in (mention.name, *mention.aliases) if not is_generic(n)]
        forms = frozenset().union(*(form_keys(n) for n in names))

        def is_form(known_names: list[str]) -> bool:
            if not forms & frozenset().union(*(form_keys(k) for k in known_names)):
                return False
            return any(form_similarity(n, k) for n in names for k in known_names)

        pool = txn.names_of_type(group, mention.type, FUZZY_POOL)
        keys = [(entity_id, k) for entity_id, known_names in pool for k in keys_of(known_names)]
        spelled = process.extract(  # one pass over every name in C, not a ratio call per name
            key,
            [k for _, k in keys],
            scorer=fuzz.token_sort_ratio,
            score_cutoff=100 * FUZZY_FLOOR,
            limit=None,
        )
        similar = {keys[index][0] for _, _, index in spelled}
        if mention.type in NAMED_BY_TAIL:  # "CRM rollout" for the one "Northwind CRM rollout" known
            tails = {entity_id for entity_id, known in keys if tail_of(key, known)}
            similar |= tails if len(tails) == 1 else set()
        matching = [
            entity_id for entity_id, known_names in pool if entity_id in similar or is_form(known_names)
        ]
        fuzzy = [(known, 0.0) for known in map(partial(txn.entity, group), matching) if known is not None]
        vector = self._name_vectors.get(key)
        if fuzzy or vector is None:
            return fuzzy
        near = self._names.limit, self._names.floor
        return [
            (known, self._names.evidence(cosine))
            for known, cosine in txn.nearest_entities(group, vector, [mention.type, UNKNOWN_TYPE], *near)
            if not is_generic(known.name)
        ]

    def merge(self, txn: Txn, source: Entity, into: Entity, operation: Operation) -> list[str]:
        """Give ``into`` the names, attributes and facts of ``source``; return the moved fact ids.

        The source's names keep their provenance: its own name counts as introduced by the
        episode that introduced the source, its aliases by whatever introduced them.
        """
        mention = EntityIn(
            name=source.name,
            type=source.type if into.type == UNKNOWN_TYPE else into.type,
            aliases=source.aliases,
            attributes=attribute_values(source.attributes),
            summary=source.summary,
        )
        own = {"episode": first_episode(txn, source), "operation": operation.id}
        sources = {**source.alias_sources, source.name: own}
        seen = (source.first_seen, source.last_seen)
        absorb(txn, into, mention, seen, None, operation, alias_sources=sources, keep_attributes=True)
        moved = []
        for fact in txn.facts_touching(source.group_id, source.id):
            updated = fact.model_copy(
                update={
                    "version": fact.version + 1,
                    "subject": into.id if fact.subject == source.id else fact.subject,
                    "object": into.id if fact.object == source.id else fact.object,
                    "recorded_at": operation.created_at,
                    "operation_id": operation.id,
                }
            )
            txn.put_fact(updated, fact_index_text(txn, source.group_id, updated))
            moved.append(fact.id)
        return moved

    # -- facts -------------------------------------------------------------------------------------

    def _named(
        self, txn: Txn, group: str, fact_in: FactIn, resolved: dict[str, str], summary: BuildSummary
    ) -> _Named | None:
        """Return what a fact names, or None when its subject or object is an unknown entity id."""
        subject = self._entity_ref(txn, group, fact_in.subject, resolved)
        obj = None if fact_in.object is None else self._entity_ref(txn, group, fact_in.object, resolved)
        if subject is None or (fact_in.object is not None and obj is None):
            return None
        predicate, negated = self._predicate(fact_in, summary)
        closing = dict.fromkeys((*predicate.closes, *self._registry.ended_by(predicate.name)))
        return _Named(subject, obj, predicate, negated, {name: i for i, name in enumerate(closing)})

    def _add_fact(
        self,
        txn: Txn,
        episode: Episode,
        index: int,
        fact_in: FactIn,
        named: _Named | None,
        live: LiveFacts,
        operation: Operation,
        summary: BuildSummary,
    ) -> None:
        group = episode.group_id
        if named is None:
            summary.facts["dropped"] += 1
            summary.decisions.append({"index": index, "decision": "dropped", "reason": "unknown entity id"})
            return
        predicate, rank = named.predicate, named.rank
        claim = Claim(
            subject=named.subject,
            predicate=predicate,
            object=named.object,
            value=fact_in.value,
            conditions=fact_in.conditions,
            valid_at=fact_in.valid_at,
            confidence=fact_in.confidence if fact_in.confidence is not None else 0.8,
            source_kind=fact_in.source_kind or "stated",
            episode_id=episode.id,
            stated_at=episode.timestamp,
            sentence="",
            invalid_at=fact_in.invalid_at,
            negated=named.negated,
        )
        # The facts the claim may update, and those it may end (or that end it) in rank order.
        about = live.about(named.subject, named.predicates)
        claim = value_as_object(txn, group, claim, about)
        current = [f for f in about if f.predicate == predicate.name]
        ending = sorted((f for f in about if f.predicate in rank), key=lambda f: rank[f.predicate])
        moved, later_moves = thread_values(txn, episode, claim)
        ended = [*ended_facts(txn, episode, claim, ending), *moved]
        current += later_moves  # a move stored before the time it moved: the claim is late
        if not claim.has_target and not named.negated:
            claim = _with_target_of(claim, ended)
        target = fact_in.object if fact_in.object is not None else fact_in.value
        if target is None and claim.object is not None:
            known = txn.entity(group, claim.object)
            target = None if known is None else known.name
        sentence = fact_in.fact or fact_sentence(
            episode.content, fact_in.subject, predicate, target if target is not None else claim.value,
            dict(fact_in.conditions),
        )  # fmt: skip
        claim = _with_sentence(claim, sentence)
        decision = arbitrate(
            claim, current, ended=ended, settings=self._arbitration, refines=refiner(txn, group)
        )
        new_id_ = self._apply(txn, group, claim, decision, [*current, *ended], operation, live)
        if new_id_ is not None:
            summary.fact_ids.append(new_id_)
        summary.facts[decision.outcome.value] += 1
        summary.decisions.append(
            {
                "index": index,
                "fact": new_id_,
                "predicate": predicate.name,
                "decision": decision.outcome.value,
                "reason": decision.reason,
                "changes": [{"fact": c.fact_id, "reason": c.reason} for c in decision.changes],
            }
        )

    def _predicate(self, fact_in: FactIn, summary: BuildSummary) -> tuple[Predicate, bool]:
        """Return the registered predicate a fact names and whether it stays a negation.

        A negated fact of a predicate with a stop or negation form becomes that form (USES →
        STOPPED_USING, LIKES → DISLIKES); an unknown predicate is kept (many-valued) and reported.
        """
        predicate = self._registry.canonical(fact_in.predicate)
        if not self._registry.known(fact_in.predicate):
            summary.unknown_predicates = list(dict.fromkeys([*summary.unknown_predicates, predicate.name]))
        if not fact_in.negated:
            return predicate, False
        mapped = predicate.stop or predicate.negation
        if mapped is not None and mapped in self._registry:
            return self._registry[mapped], False
        return predicate, True

    def _apply(
        self,
        txn: Txn,
        group: str,
        claim: Claim,
        decision: Decision,
        known: Sequence[Fact],
        operation: Operation,
        live: LiveFacts,
    ) -> str | None:
        """Write the decision's versions: the changed facts, then the new one; return its id."""
        new_id_ = new_id("fa") if decision.new_status is not None else None
        now = operation.created_at  # every version an operation writes carries its time
        by_id = {fact.id: fact for fact in known}
        for change in decision.changes:
            old = by_id[change.fact_id]
            updates: dict[str, object] = {"version": old.version + 1, "recorded_at": now}
            updates |= {"operation_id": operation.id, "status_reason": change.reason or old.status_reason}
            if change.status is not None:
                updates["status"] = change.status
            if change.invalid_at is not None and (
                old.invalid_at is None or old.invalid_at > change.invalid_at
            ):
                updates["invalid_at"] = change.invalid_at
            if change.superseded_by_new:
                updates["superseded_by"] = new_id_
            if change.add_episode is not None and change.add_episode not in old.episodes:
                updates["episodes"] = [*old.episodes, change.add_episode]
            if change.confidence is not None:
                updates["confidence"] = change.confidence
            live.put(txn, old.model_copy(update=updates), fact_index_text(txn, group, old))
        if new_id_ is None or decision.new_status is None:
            return None
        # a late arrival closes at the newer fact, or earlier when the claim says so
        closes = [t for t in (decision.new_invalid_at, claim.invalid_at) if t is not None]
        fact = Fact(
            id=new_id_,
            group_id=group,
            version=1,
            subject=claim.subject,
            predicate=claim.predicate.name,
            object=claim.object,
            value=claim.value,
            fact=claim.sentence,
            conditions=dict(claim.conditions),
            confidence=decision.new_confidence if decision.new_confidence is not None else claim.confidence,
            source_kind=claim.source_kind,
            episodes=[claim.episode_id],
            valid_at=claim.effective_time,
            invalid_at=min(closes, default=None),
            recorded_at=now,
            status=decision.new_status,
            superseded_by=decision.new_superseded_by,
            operation_id=operation.id,
            status_reason=None if decision.new_status == "current" else decision.reason,
        )
        live.put(txn, fact, fact_index_text(txn, group, fact))
        return new_id_

    @staticmethod
    def _entity_ref(txn: Txn, group: str, name: str, resolved: dict[str, str]) -> str | None:
        """Return the entity id a fact's subject or object names (an ``en_…`` id must exist)."""
        if _ENTITY_ID.match(name):
            return name if txn.entity(group, name) is not None else None
        return resolved.get(normalise_name(name))


@dataclass(frozen=True, slots=True)
class _Named:
    """What a fact names, resolved once before the episode's claims are arbitrated."""

    subject: str
    object: str | None
    predicate: Predicate
    negated: bool
    rank: dict[str, int]
    """The predicates the claim may end (or that end it), ranked: a stop naming no target ends
    the latest, and facts of one episode tie on time (WORKS_AT before MEMBER_OF for
    LEFT_ORGANISATION)."""

    @property
    def predicates(self) -> list[str]:
        """Return the predicate and those it may end: the live facts the claim is weighed against."""
        return [self.predicate.name, *self.rank]


def _with_target_of(claim: Claim, ended: Sequence[Fact]) -> Claim:
    """Return a target-less stop claim naming the target of the fact it ends (if it ends one)."""
    if not ended:
        return claim
    return replace(claim, object=ended[0].object, value=ended[0].value)


def _with_sentence(claim: Claim, sentence: str) -> Claim:
    return replace(claim, sentence=sentence)
