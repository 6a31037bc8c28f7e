"""Entity resolution scoring: is a new mention the same entity as a known one?

Score = 0.2 × name + 0.3 × attributes + 0.5 × relational context (docs/architecture.md, "Ingestion"), each in
[0, 1]; vetoes first: different types never merge, entities whose active periods do not
overlap (more than PERIOD_GAP apart) are not merged, and two conflicting identifying
attributes (Paris with country France vs Paris with region Texas) keep them apart. Above
``merge_threshold`` the mention merges; between the thresholds a merge *candidate* is
recorded for review; below, a new entity is made. A generic role (销售经理, "the manager")
identifies nobody, so it is never name evidence. Fuzzy names use rapidfuzz (https://github.com/rapidfuzz/RapidFuzz).

- name: an exact name or alias 1; a nickname or honorific form (小李/李总 ↔ 李强, Bob ↔ Robert,
  Mr. Holmes ↔ Sherlock Holmes: engram.graph.nicknames) or a fuzzy ratio below it;
- attributes: the entity attributes both have, and the facts both state with one predicate
  (role, organisation, region, account: HAS_ROLE, WORKS_AT, RESPONSIBLE_FOR…), agreeing or not;
- context: the neighbours both have (the same customer, project, organisation or value)
  over the smaller set, or the conversations (threads) both appear in.

Two entities with one name are kept apart when at least two one-valued facts disagree and
nothing agrees (张伟 the sales manager at 华为, 张伟 the doctor at 协和): a candidate for
review, not a merge; one disagreement alone is a change (a new employer), not a new person.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from rapidfuzz import fuzz

from engram.graph.nicknames import form_similarity
from engram.models.predicates import REGISTRY
from engram.nlp.names import normalise_name

WEIGHTS = {"name": 0.2, "attributes": 0.3, "context": 0.5}
PERIOD_GAP = timedelta(days=3 * 365)
"""Mentions further apart in time than this, with nothing in between, are different entities."""
UNKNOWN_TYPE = "thing"
"""The type of a mention nobody typed (a name only seen in a fact): compatible with any type."""
IDENTIFYING_ATTRIBUTES = frozenset({"country", "region", "state", "city", "email", "phone", "birthday", "id"})
SPEAKER_ATTRIBUTE = "actor_id"
"""The id of the actor a person entity speaks as (engram.graph.build): the same id on both sides is
the same person whatever else differs (a job change); different ids prove nothing (one person may
write from mail and from chat)."""
_GENERIC = """销售经理 经理 总经理 老板 老师 医生 客户 同事 朋友 领导 主管 工程师 负责人 他 她 我 你
manager the_manager boss customer client colleague friend teacher doctor engineer he she i you"""
GENERIC_NAMES = frozenset(_GENERIC.split())


class Verdict(StrEnum):
    """What to do with a mention and a known entity."""

    MERGE = "merge"
    CANDIDATE = "candidate"
    DISTINCT = "distinct"


@dataclass(frozen=True, slots=True)
class Profile:
    """What resolution knows about an entity (known or just mentioned)."""

    name: str
    type: str
    aliases: frozenset[str] = frozenset()
    attributes: Mapping[str, Any] = field(default_factory=dict)
    first_seen: datetime | None = None
    last_seen: datetime | None = None
    neighbours: frozenset[str] = frozenset()
    threads: frozenset[str] = frozenset()
    facts: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """predicate → the normalised targets (object names, values) of its facts about the entity."""


@dataclass(frozen=True, slots=True)
class Resolution:
    """A scored comparison, with its parts for review and explain."""

    verdict: Verdict
    score: float
    parts: Mapping[str, float]
    reason: str


def is_generic(name: str) -> bool:
    """Return True for a name that identifies nobody on its own (a bare role, a pronoun)."""
    return normalise_name(name).replace(" ", "_") in GENERIC_NAMES


def name_score(mention: Profile, known: Profile) -> float:
    """Return 1 for an exact name or alias match, else the best of the fuzzy ratio and a name form."""
    if is_generic(mention.name):
        return 0.0
    mention_names = {normalise_name(n) for n in {mention.name, *mention.aliases} if not is_generic(n)}
    known_names = {normalise_name(n) for n in {known.name, *known.aliases} if not is_generic(n)}
    if mention_names & known_names:
        return 1.0
    forms = [n for n in {mention.name, *mention.aliases} if not is_generic(n)]
    known_forms = [n for n in {known.name, *known.aliases} if not is_generic(n)]
    return max(
        [fuzz.token_sort_ratio(a, b) / 100 for a in mention_names for b in known_names]
        + [form_similarity(a, b) for a in forms for b in known_forms],
        default=0.0,
    )


def _known_form(mention: Profile, known: Profile) -> bool:
    """Return True when one name is a nickname or honorific form of the other (not a spelling)."""
    names = [n for n in {mention.name, *mention.aliases} if not is_generic(n)]
    return any(form_similarity(a, b) for a in names for b in {known.name, *known.aliases})


def attribute_score(mention: Profile, known: Profile) -> tuple[float, bool]:
    """Return (agreement in [0, 1] of attributes and facts, conflict on an identifying attribute)."""
    shared = sorted(set(mention.attributes) & set(known.attributes))
    agree = [
        normalise_name(str(mention.attributes[k])) == normalise_name(str(known.attributes[k])) for k in shared
    ]
    conflict = any(
        not same and key in IDENTIFYING_ATTRIBUTES for key, same in zip(shared, agree, strict=True)
    )
    agreeing, disagreeing = fact_agreement(mention, known)
    votes = [*agree, *([True] * len(agreeing)), *([False] * len(disagreeing))]
    if not votes:
        return 0.0, conflict
    return sum(votes) / len(votes), conflict


def fact_agreement(mention: Profile, known: Profile) -> tuple[list[str], list[str]]:
    """Return (predicates whose targets agree, one-valued predicates whose targets differ)."""
    agreeing, disagreeing = [], []
    for predicate in sorted(set(mention.facts) & set(known.facts)):
        if mention.facts[predicate] & known.facts[predicate]:
            agreeing.append(predicate)
        elif REGISTRY.canonical(predicate).cardinality == "one":
            disagreeing.append(predicate)
    return agreeing, disagreeing


def context_score(mention: Profile, known: Profile) -> float:
    """Return the overlap of neighbours (over the smaller set) or of conversations (Jaccard), the better."""

    def overlap(a: frozenset[str], b: frozenset[str]) -> float:
        return len(a & b) / min(len(a), len(b)) if a and b else 0.0

    def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
        return len(a & b) / len(a | b) if a | b else 0.0

    return max(overlap(mention.neighbours, known.neighbours), jaccard(mention.threads, known.threads))


def _disjoint_periods(a: Profile, b: Profile) -> bool:
    """Return True when the two were active in periods more than PERIOD_GAP apart."""
    if None in (a.first_seen, a.last_seen, b.first_seen, b.last_seen):
        return False
    assert a.first_seen and a.last_seen and b.first_seen and b.last_seen
    # Differences, not sums: a sum can pass year 9999.
    return b.first_seen - a.last_seen > PERIOD_GAP or a.first_seen - b.last_seen > PERIOD_GAP


def comparable(mention: Profile, known: Profile) -> bool:
    """Return True when the mention states no attribute, or one the known entity has too: an equal
    name then merges whatever the context (resolve's same-name rule).

    The speaker's ``actor_id`` is not such an attribute: it says who wrote, nothing that could set
    the person apart, so a speaker is the person named before by the same name (and the other way
    round)."""
    stated = set(mention.attributes) - {SPEAKER_ATTRIBUTE}
    return not stated or bool(stated & set(known.attributes))


def resolve(
    mention: Profile,
    known: Profile,
    *,
    merge_threshold: float = 0.75,
    candidate_threshold: float = 0.45,
    name_similarity: float = 0.0,
) -> Resolution:
    """Return whether ``mention`` is ``known``: merge, a candidate for review, or distinct.

    ``name_similarity`` in [0, 1) is name evidence from elsewhere (name embeddings,
    engram.graph.vectors); the name part is the better of it and the names' own score. It
    is never an exact match (that shortcut needs equal names).
    """
    if UNKNOWN_TYPE not in (mention.type, known.type) and mention.type != known.type:
        return Resolution(Verdict.DISTINCT, 0.0, {}, f"types differ ({mention.type} vs {known.type})")
    attributes, conflict = attribute_score(mention, known)
    if conflict:
        return Resolution(
            Verdict.DISTINCT, 0.0, {"attributes": attributes}, "identifying attributes conflict"
        )
    speaker = mention.attributes.get(SPEAKER_ATTRIBUTE)
    if speaker is not None and speaker == known.attributes.get(SPEAKER_ATTRIBUTE):
        return Resolution(Verdict.MERGE, 1.0, {"attributes": 1.0}, "the same speaker (actor id)")
    if _disjoint_periods(mention, known):
        return Resolution(Verdict.DISTINCT, 0.0, {}, "active periods do not overlap")
    parts = {
        "name": max(name_score(mention, known), min(name_similarity, 0.99)),
        "attributes": attributes,
        "context": context_score(mention, known),
    }
    if parts["name"] == 0.0:
        return Resolution(Verdict.DISTINCT, 0.0, parts, "no name evidence")
    score = sum(WEIGHTS[key] * value for key, value in parts.items())
    agreeing, disagreeing = fact_agreement(mention, known)
    if parts["name"] == 1.0 and len(disagreeing) >= 2 and not agreeing and parts["context"] == 0.0:
        return Resolution(
            Verdict.CANDIDATE,
            candidate_threshold,
            parts,
            f"same name, but {' and '.join(disagreeing)} differ and nothing agrees: another one of that name",
        )
    if parts["name"] == 1.0 and comparable(mention, known):
        # The same name and nothing that sets them apart (identifying attributes agree, checked
        # above; another value of a descriptive one is a change): the usual repeated mention.
        score = max(score, merge_threshold)
    if score >= merge_threshold and parts["name"] < 1.0 and not _known_form(mention, known):
        # A similar spelling is a guess (Caroline, Carolyn are two names): a person decides.
        return Resolution(Verdict.CANDIDATE, score, parts, "similar names, strong evidence: review")
    if score >= merge_threshold:
        return Resolution(Verdict.MERGE, score, parts, "above the merge threshold")
    if score >= candidate_threshold:
        return Resolution(Verdict.CANDIDATE, score, parts, "between thresholds: review")
    return Resolution(Verdict.DISTINCT, score, parts, "below the candidate threshold")
