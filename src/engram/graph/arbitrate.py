"""Fact arbitration: decide what a new claim does to the current facts about the same thing.

Pure: given a resolved claim and the current facts with the same subject and predicate, it
returns a Decision (outcome, the new fact's status, and the changes to existing facts); the
store applies it as new versions. Outcomes (docs/architecture.md, "Ingestion"):

- restatement: same target and conditions → add provenance, raise confidence (noisy-or);
- conditional: different conditions (工作日 vs 周末) → both current;
- refinement: a more specific target (杭州 then 滨江区) → both current, the finer preferred;
- update: one-valued predicate, a newer claim at least as credible → the old fact gets
  ``invalid_at`` = the new ``valid_at``, status superseded, ``superseded_by``;
- dispute: same time, or the newer source is clearly weaker (inferred 0.6 vs stated 0.9),
  on a high-sensitivity predicate → both disputed;
- late arrival: a claim valid before the current fact never supersedes it: it enters as
  history, closed by the newer fact.

Score = source credibility × confidence × time decay of the older fact; explicit correction
cues (其实, 更正, 改口, 不再, actually, correction, no longer) make the newer claim win.
Facts with other predicates are never touched.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from engram.models.graph import Fact, FactStatus, Scalar, SourceKind
from engram.models.predicates import Predicate

CREDIBILITY: Mapping[str, float] = {"stated": 0.9, "system": 0.8, "inferred": 0.6}
CORRECTION_CUES = re.compile(
    r"其实|更正|改口|不再|纠正|说错|actually|correction|correct(?:ed|ing)? (?:myself|that)|no longer|"
    r"not anymore|instead|i meant",
    re.IGNORECASE,
)


class Outcome(StrEnum):
    """What a claim did to the graph."""

    NEW = "new"
    RESTATEMENT = "restatement"
    CONDITIONAL = "conditional"
    REFINEMENT = "refinement"
    UPDATE = "update"
    DISPUTE = "dispute"
    LATE_ARRIVAL = "late_arrival"


@dataclass(frozen=True, slots=True)
class Claim:
    """A new fact about to enter the graph, its subject and object already resolved to entity ids."""

    subject: str
    predicate: Predicate
    object: str | None
    value: Scalar | None
    conditions: Mapping[str, Scalar]
    valid_at: datetime | None
    confidence: float
    source_kind: SourceKind
    episode_id: str
    stated_at: datetime
    sentence: str

    @property
    def effective_time(self) -> datetime:
        """Return when the claim holds from: its valid time, else when it was stated."""
        return self.valid_at or self.stated_at

    @property
    def correction(self) -> bool:
        """Return True when the sentence says it corrects something earlier."""
        return CORRECTION_CUES.search(self.sentence) is not None


@dataclass(frozen=True, slots=True)
class FactChange:
    """A new version of an existing fact: only the fields that change are set."""

    fact_id: str
    status: FactStatus | None = None
    invalid_at: datetime | None = None
    superseded_by_new: bool = False
    add_episode: str | None = None
    confidence: float | None = None


@dataclass(slots=True)
class Decision:
    """The outcome, how the new fact enters (None: no new fact), and the changes to others."""

    outcome: Outcome
    reason: str
    new_status: FactStatus | None = "current"
    new_invalid_at: datetime | None = None
    new_superseded_by: str | None = None
    changes: list[FactChange] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ArbitrationSettings:
    """Knobs: credibility per source kind, decay half-life, and the dispute tolerance."""

    credibility: Mapping[str, float] = field(default_factory=lambda: dict(CREDIBILITY))
    half_life_days: float = 365.0
    tolerance: float = 0.1


def noisy_or(a: float, b: float) -> float:
    """Return 1 - (1-a)(1-b): the confidence of two independent sources agreeing."""
    return 1 - (1 - a) * (1 - b)


def _fact_time(fact: Fact) -> datetime:
    return fact.valid_at or fact.recorded_at


def _same_target(claim: Claim, fact: Fact) -> bool:
    if claim.object is not None:
        return claim.object == fact.object
    return _normal(claim.value) == _normal(fact.value)


def _normal(value: Scalar | None) -> str:
    return re.sub(r"\s+", " ", str(value)).strip().casefold()


def arbitrate(
    claim: Claim,
    current: Sequence[Fact],
    *,
    settings: ArbitrationSettings | None = None,
    refines: Callable[[Claim, Fact], bool] = lambda claim, fact: False,
) -> Decision:
    """Return what ``claim`` does to ``current``: the live facts with its subject and predicate.

    ``current`` holds facts whose status is current or disputed. ``refines(claim, fact)``
    tells whether the claim's target is a finer version of the fact's (a district of a
    city): the caller knows the graph and the names.
    """
    settings = settings or ArbitrationSettings()
    for fact in current:
        if _same_target(claim, fact) and dict(fact.conditions) == dict(claim.conditions):
            return Decision(
                Outcome.RESTATEMENT,
                f"restates {fact.id}",
                new_status=None,
                changes=[
                    FactChange(
                        fact.id,
                        add_episode=claim.episode_id,
                        confidence=noisy_or(fact.confidence, claim.confidence),
                        status="current" if fact.status == "disputed" and claim.correction else None,
                    )
                ],
            )
    rivals = [fact for fact in current if dict(fact.conditions) == dict(claim.conditions)]
    if current and not rivals:
        return Decision(Outcome.CONDITIONAL, "other conditions: both hold")
    if not rivals:
        return Decision(Outcome.NEW, "first fact of its kind")
    finer = [fact for fact in rivals if refines(claim, fact)]
    if finer:
        return Decision(Outcome.REFINEMENT, f"refines {', '.join(f.id for f in finer)}")
    if claim.predicate.cardinality == "many":
        return Decision(Outcome.NEW, "many-valued predicate: values coexist")
    latest = max(rivals, key=_fact_time)
    if claim.effective_time < _fact_time(latest):
        return Decision(
            Outcome.LATE_ARRIVAL,
            f"valid before {latest.id}, which stays current",
            new_status="superseded",
            new_invalid_at=_fact_time(latest),
            new_superseded_by=latest.id,
        )
    supersede = [
        FactChange(fact.id, status="superseded", invalid_at=claim.effective_time, superseded_by_new=True)
        for fact in rivals
    ]
    if claim.correction:
        return Decision(Outcome.UPDATE, "explicit correction", changes=supersede)
    if claim.predicate.sensitivity == "low":
        return Decision(Outcome.UPDATE, "newer value of a low-sensitivity predicate", changes=supersede)
    if claim.effective_time == _fact_time(latest):
        return _dispute(rivals, "same time, different values")
    age_days = (claim.effective_time - _fact_time(latest)).total_seconds() / 86_400
    decay = math.pow(0.5, age_days / settings.half_life_days)
    old_score = settings.credibility.get(latest.source_kind, 0.5) * latest.confidence * decay
    new_score = settings.credibility.get(claim.source_kind, 0.5) * claim.confidence
    if new_score + settings.tolerance >= old_score:
        return Decision(
            Outcome.UPDATE, f"newer and as credible ({new_score:.2f} vs {old_score:.2f})", changes=supersede
        )
    return _dispute(rivals, f"newer but weaker ({new_score:.2f} vs {old_score:.2f})")


def _dispute(rivals: Sequence[Fact], reason: str) -> Decision:
    return Decision(
        Outcome.DISPUTE,
        reason,
        new_status="disputed",
        changes=[FactChange(fact.id, status="disputed") for fact in rivals if fact.status != "disputed"],
    )
