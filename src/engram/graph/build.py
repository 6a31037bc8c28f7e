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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from rapidfuzz import fuzz

from engram.graph.arbitrate import ArbitrationSettings, Claim, arbitrate
from engram.graph.resolve import UNKNOWN_TYPE, Profile, Verdict, is_generic, resolve
from engram.graph.vectors import NameCandidates
from engram.ids import new_id
from engram.models.episodes import Episode, Operation
from engram.models.graph import Entity, EntityIn, Extraction, Fact, FactIn
from engram.models.predicates import PredicateRegistry
from engram.nlp.dates import apply_dates
from engram.nlp.names import normalise_name
from engram.nlp.tokenize import segment
from engram.storage.protocol import Txn
from engram.storage.types import MergeCandidate, Vector
from engram.threads import thread_key

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

    def details(self) -> dict[str, object]:
        """Return the summary as operation details."""
        return {
            "entities_created": self.entities_created,
            "entities_matched": self.entities_matched,
            "merge_candidates": self.merge_candidates,
            "facts": dict(self.facts),
            "fact_ids": self.fact_ids,
        }


def name_keys(entity: Entity | EntityIn) -> list[str]:
    """Return the normalised names an entity is found by: its name and aliases, no generic roles."""
    return [
        normalise_name(n) for n in (entity.name, *entity.aliases) if not is_generic(n) and normalise_name(n)
    ]


def _values(attributes: dict[str, object]) -> dict[str, object]:
    return {k: v["value"] if isinstance(v, dict) and "value" in v else v for k, v in attributes.items()}


def fact_index_text(txn: Txn, group: str, fact: Fact) -> str:
    """Return what the full-text index holds for a fact: its sentence, predicate, names and value."""
    names = []
    for entity_id in (fact.subject, fact.object):
        entity = txn.entity(group, entity_id) if entity_id else None
        if entity is not None:
            names += [entity.name, *entity.aliases]
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
    ) -> None:
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
        extraction = apply_dates(extraction, episode)
        mentions = self._mentions(extraction)
        resolved: dict[str, str] = {}
        for mention in sorted(mentions.values(), key=lambda m: not self._has_exact(txn, episode, m)):
            entity_id = self._resolve(txn, episode, mention, resolved, operation, summary)
            for key in [normalise_name(mention.name), *(normalise_name(a) for a in mention.aliases)]:
                resolved.setdefault(key, entity_id)
        for fact_in in extraction.facts:
            self._add_fact(txn, episode, fact_in, resolved, operation, summary)
        txn.add_mentions(episode.group_id, episode.id, list(dict.fromkeys(resolved.values())), operation.id)
        return summary

    # -- entities ----------------------------------------------------------------------------------

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
    def _has_exact(txn: Txn, episode: Episode, mention: EntityIn) -> bool:
        return bool(txn.entities_named(episode.group_id, name_keys(mention)))

    def _resolve(
        self,
        txn: Txn,
        episode: Episode,
        mention: EntityIn,
        resolved: dict[str, str],
        operation: Operation,
        summary: BuildSummary,
    ) -> str:
        """Return the id of the entity ``mention`` is: a known one (merged into) or a new one."""
        group = episode.group_id
        thread = thread_key(episode)
        profile = Profile(
            name=mention.name,
            type=mention.type,
            aliases=frozenset(mention.aliases),
            attributes=dict(mention.attributes),
            first_seen=episode.timestamp,
            last_seen=episode.timestamp,
            neighbours=frozenset(resolved.values()),
            threads=frozenset({thread} if thread else ()),
        )
        best: tuple[float, Entity, Verdict, dict[str, float]] | None = None
        for known, similarity in self._candidates(txn, group, mention):
            linked, threads = txn.related(group, known.id)
            result = resolve(
                profile,
                Profile(
                    name=known.name,
                    type=known.type,
                    aliases=frozenset(known.aliases),
                    attributes=_values(known.attributes),
                    first_seen=known.first_seen,
                    last_seen=known.last_seen,
                    neighbours=frozenset(linked),
                    threads=frozenset(threads),
                ),
                name_similarity=similarity,
            )
            if result.verdict is not Verdict.DISTINCT and (best is None or result.score > best[0]):
                best = (result.score, known, result.verdict, dict(result.parts))
        if best is not None and best[2] is Verdict.MERGE:
            self._absorb(txn, best[1], mention, (episode.timestamp, episode.timestamp), episode.id, operation)
            summary.entities_matched.append(best[1].id)
            return best[1].id
        entity = self._new_entity(mention, episode, operation)
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
        return entity.id

    def _candidates(self, txn: Txn, group: str, mention: EntityIn) -> list[tuple[Entity, float]]:
        """Return known entities the mention may be, each with its name-vector evidence (0: none).

        Exact names and aliases first; else fuzzy names of the same type; else the nearest
        name vectors of a compatible type (graph.vectors.NameCandidates), when there are any.
        """
        exact = txn.entities_named(group, name_keys(mention))
        if exact:
            return [(known, 0.0) for known in exact]
        if mention.type == UNKNOWN_TYPE:
            return []
        key = normalise_name(mention.name)
        fuzzy = [
            (known, 0.0)
            for known in txn.entities_of_type(group, mention.type, FUZZY_POOL)
            if max(fuzz.token_sort_ratio(key, k) / 100 for k in name_keys(known) or [""]) >= FUZZY_FLOOR
        ]
        vector = self._name_vectors.get(key)
        if fuzzy or vector is None:
            return fuzzy
        near = self._names.limit, self._names.floor
        return [
            (known, self._names.evidence(cosine))
            for known, cosine in txn.nearest_entities(group, vector, [mention.type, UNKNOWN_TYPE], *near)
            if not is_generic(known.name)
        ]

    def _new_entity(self, mention: EntityIn, episode: Episode, operation: Operation) -> Entity:
        return Entity(
            id=new_id("en"),
            group_id=episode.group_id,
            version=1,
            name=mention.name,
            type=mention.type,
            aliases=[a for a in dict.fromkeys(mention.aliases) if a != mention.name],
            attributes={k: {"value": v, "episode": episode.id} for k, v in mention.attributes.items()},
            first_seen=episode.timestamp,
            last_seen=episode.timestamp,
            recorded_at=operation.created_at,
            operation_id=operation.id,
        )

    def _absorb(
        self,
        txn: Txn,
        known: Entity,
        mention: EntityIn,
        seen: tuple[datetime, datetime],
        provenance: str,
        operation: Operation,
    ) -> None:
        """Write a new version of ``known`` with the mention's new names and attributes.

        ``seen`` is the (first, last) time of the mention; ``provenance`` the episode (or
        operation) new attributes come from. Nothing is written when nothing changes.
        """
        aliases = list(known.aliases)
        for name in (mention.name, *mention.aliases):
            if name != known.name and name not in aliases and not is_generic(name):
                aliases.append(name)
        attributes = dict(known.attributes)
        for key, value in mention.attributes.items():
            attributes.setdefault(key, {"value": value, "episode": provenance})
        changes = {
            "aliases": aliases,
            "attributes": attributes,
            "type": mention.type if known.type == UNKNOWN_TYPE else known.type,
            "first_seen": min(known.first_seen, seen[0]),
            "last_seen": max(known.last_seen, seen[1]),
        }
        if all(getattr(known, key) == value for key, value in changes.items()):
            return
        updated = known.model_copy(
            update={
                **changes,
                "version": known.version + 1,
                "recorded_at": operation.created_at,
                "operation_id": operation.id,
            }
        )
        txn.put_entity(updated, name_keys(updated))

    def merge(self, txn: Txn, source: Entity, into: Entity, operation: Operation) -> list[str]:
        """Give ``into`` the names, attributes and facts of ``source``; return the moved fact ids."""
        mention = EntityIn(
            name=source.name,
            type=source.type if into.type == UNKNOWN_TYPE else into.type,
            aliases=source.aliases,
            attributes=_values(source.attributes),
        )
        self._absorb(txn, into, mention, (source.first_seen, source.last_seen), operation.id, operation)
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

    def _add_fact(
        self,
        txn: Txn,
        episode: Episode,
        fact_in: FactIn,
        resolved: dict[str, str],
        operation: Operation,
        summary: BuildSummary,
    ) -> None:
        subject = self._entity_ref(txn, episode.group_id, fact_in.subject, resolved)
        obj = (
            None
            if fact_in.object is None
            else self._entity_ref(txn, episode.group_id, fact_in.object, resolved)
        )
        if subject is None or (fact_in.object is not None and obj is None):
            summary.facts["dropped"] += 1
            return
        predicate = self._registry.canonical(fact_in.predicate)
        sentence = fact_in.fact or f"{fact_in.subject} {predicate.name.lower().replace('_', ' ')} " + str(
            fact_in.object if fact_in.object is not None else fact_in.value
        )
        claim = Claim(
            subject=subject,
            predicate=predicate,
            object=obj,
            value=fact_in.value,
            conditions=fact_in.conditions,
            valid_at=fact_in.valid_at,
            confidence=fact_in.confidence if fact_in.confidence is not None else 0.8,
            source_kind=fact_in.source_kind or "stated",
            episode_id=episode.id,
            stated_at=episode.timestamp,
            sentence=sentence,
        )
        current = txn.facts_about(episode.group_id, subject, predicate.name)
        decision = arbitrate(
            claim, current, settings=self._arbitration, refines=self._refines(txn, episode.group_id)
        )
        new_id_ = new_id("fa") if decision.new_status is not None else None
        now = operation.created_at  # every version an operation writes carries its time
        by_id = {fact.id: fact for fact in current}
        for change in decision.changes:
            old = by_id[change.fact_id]
            updates: dict[str, object] = {
                "version": old.version + 1,
                "recorded_at": now,
                "operation_id": operation.id,
            }
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
            txn.put_fact(old.model_copy(update=updates), fact_index_text(txn, episode.group_id, old))
        if new_id_ is not None:
            fact = Fact(
                id=new_id_,
                group_id=episode.group_id,
                version=1,
                subject=subject,
                predicate=predicate.name,
                object=obj,
                value=fact_in.value,
                fact=sentence,
                conditions=dict(fact_in.conditions),
                confidence=claim.confidence,
                source_kind=claim.source_kind,
                episodes=[episode.id],
                valid_at=claim.effective_time,
                # a late arrival closes at the newer fact, or earlier when the claim says so
                invalid_at=min(
                    (t for t in (decision.new_invalid_at, fact_in.invalid_at) if t is not None), default=None
                ),
                recorded_at=now,
                status=decision.new_status,
                superseded_by=decision.new_superseded_by,
                operation_id=operation.id,
            )
            txn.put_fact(fact, fact_index_text(txn, episode.group_id, fact))
            summary.fact_ids.append(new_id_)
        summary.facts[decision.outcome.value] += 1

    @staticmethod
    def _entity_ref(txn: Txn, group: str, name: str, resolved: dict[str, str]) -> str | None:
        """Return the entity id a fact's subject or object names (an ``en_…`` id must exist)."""
        if _ENTITY_ID.match(name):
            return name if txn.entity(group, name) is not None else None
        return resolved.get(normalise_name(name))

    @staticmethod
    def _refines(txn: Txn, group: str) -> Callable[[Claim, Fact], bool]:
        """Return the test "the claim's target is a finer version of the fact's"."""

        def refines(claim: Claim, fact: Fact) -> bool:
            if claim.object is not None and fact.object is not None:
                parents = {f.object for f in txn.facts_about(group, claim.object, "PART_OF")}
                if fact.object in parents:
                    return True
                new, old = txn.entity(group, claim.object), txn.entity(group, fact.object)
                return bool(new and old and _narrows(old.name, new.name))
            if claim.value is not None and fact.value is not None:
                return _narrows(str(fact.value), str(claim.value))
            return False

        return refines


def _narrows(coarse: str, fine: str) -> bool:
    """Return True when ``fine`` names a part of ``coarse`` by extending it: 杭州 → 杭州滨江区.

    An extension that continues a Latin word or number ("v1" → "v10") is another value.
    """
    coarse, fine = normalise_name(coarse), normalise_name(fine)
    if len(coarse) < 2 or coarse == fine or not fine.startswith(coarse):
        return False
    following = fine[len(coarse)]
    return not (following.isascii() and following.isalnum())
