"""Fact arbitration: decide what a new claim does to the current facts about the same thing.

Pure: given a resolved claim, the live facts with its subject and predicate, and the live
facts its predicate ends or opposes, it returns a Decision (outcome, how the new fact enters,
the changes to existing facts, and a reason for each); the builder applies it as new
versions and writes every reason into the operation's details. Rules, in order (README,
"Knowledge graph"):

1. ending: a claim whose predicate ends or opposes another (STOPPED_USING ends USES, LEFT_ROLE
   ends HAS_ROLE, DISLIKES opposes LIKES) closes the live fact of that predicate with the same
   subject and target: ``invalid_at`` = the claim's valid time, status superseded. A new fact
   also closes the stop facts that ended its predicate (using a tool again). A negated claim
   (``negated``) closes the matching live fact and adds none;
2. restatement: same target and conditions → more provenance, confidence by noisy-or; an
   explicit ``invalid_at`` on it closes the fact;
3. conditional: different conditions (工作日 vs 周末) → both hold;
4. refinement: a finer target (杭州 then 西湖区, 2024-06 then 2024-06-05, "more precisely")
   → both current, the finer one with the higher confidence; a coarser restatement of a
   finer fact is kept below it (on a many-valued predicate only asked with a correction or
   refinement cue: without one, values coexist anyway);
5. correction: a correction cue (更正, 其实, actually) supersedes the value it corrects, on a
   many-valued predicate too (the most recent one);
6. many-valued predicates: values coexist;
7. one-valued: a claim valid before the live fact is a late arrival (history, closed by the
   newer one); a claim that says it already ended is history; a low-sensitivity predicate's
   newer value wins; the same time with another value is a dispute (both disputed); a newer
   claim at least as credible (credibility × confidence, the old one decayed) supersedes; a
   newer but clearly weaker one (inferred 0.4 after stated 0.9) is kept as disputed and the
   older one stays current.
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
    r"其实|更正|改口|纠正|说错|写错|记错|actually|correction|correct(?:ed|ing)? (?:myself|that)|i meant|"
    r"mistyped|typo|my mistake",
    re.IGNORECASE,
)
"""Words that say the sentence corrects an earlier value: it wins, on any predicate."""
CHANGE_CUES = re.compile(r"不再|改为|换成|no longer|not anymore|instead", re.IGNORECASE)
"""Words that say a one-valued fact changed: the newer value wins whatever its credibility."""
RESCHEDULE_CUES = re.compile(
    r"改到|改在|改成|推迟|延后|延期|顺延|提前到|换到|调到|挪到|\b(?:move[sd]?|moving|reschedul\w*|"
    r"postpone\w*|push(?:ed|ing)? (?:it |the \w+ )?(?:back|out|to)|delay\w*|bump\w* (?:it |the \w+ )?to|"
    r"how about|can(?:'|no)?t make|instead)\b",
    re.IGNORECASE,
)
"""Words that say a time was moved: the value changes for everyone who had it, not only the speaker."""
REFINEMENT_CUES = re.compile(
    r"具体|确切地说|准确地说|更准确|精确地说|more precisely|to be precise|specifically|to be exact",
    re.IGNORECASE,
)
"""Words that say the sentence narrows an earlier value: both are kept."""
REFINEMENT_MARGIN = 0.05
"""How much more confident the finer of two refining facts is than the coarser."""


class Outcome(StrEnum):
    """What a claim did to the graph."""

    NEW = "new"
    RESTATEMENT = "restatement"
    CONDITIONAL = "conditional"
    REFINEMENT = "refinement"
    UPDATE = "update"
    CORRECTION = "correction"
    DISPUTE = "dispute"
    LATE_ARRIVAL = "late_arrival"
    HISTORY = "history"
    ENDED = "ended"
    UNMATCHED = "unmatched"


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
    invalid_at: datetime | None = None
    negated: bool = False

    @property
    def effective_time(self) -> datetime:
        """Return when the claim holds from: its valid time, else when it was stated, or when it
        ended if it was stated as over (2024年3月之前住在上海: not from a later day than its end)."""
        if self.valid_at is not None:
            return self.valid_at
        return self.invalid_at if self.over and self.invalid_at is not None else self.stated_at

    @property
    def correction(self) -> bool:
        """Return True when the sentence says it corrects something earlier."""
        return CORRECTION_CUES.search(self.sentence) is not None

    @property
    def change(self) -> bool:
        """Return True when the sentence says the value changed (不再, no longer) or corrects it."""
        return self.correction or CHANGE_CUES.search(self.sentence) is not None

    @property
    def rescheduled(self) -> bool:
        """Return True when the sentence moves a time (改到, "can we move it to") or changes a value."""
        return self.change or RESCHEDULE_CUES.search(self.sentence) is not None

    @property
    def refinement(self) -> bool:
        """Return True when the sentence says it narrows an earlier value (具体, more precisely)."""
        return REFINEMENT_CUES.search(self.sentence) is not None

    @property
    def has_target(self) -> bool:
        """Return True when the claim names an object or a value."""
        return self.object is not None or self.value is not None

    @property
    def over(self) -> bool:
        """Return True when the claim says it had already ended when it was stated."""
        return self.invalid_at is not None and self.invalid_at <= self.stated_at


@dataclass(frozen=True, slots=True)
class FactChange:
    """A new version of an existing fact: only the fields that change are set, and why."""

    fact_id: str
    reason: str = ""
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
    new_confidence: float | None = None
    changes: list[FactChange] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ArbitrationSettings:
    """Knobs: credibility per source kind, decay half-life, and the dispute tolerance."""

    credibility: Mapping[str, float] = field(default_factory=lambda: dict(CREDIBILITY))
    half_life_days: float = 365.0
    tolerance: float = 0.1


Refines = Callable[[Claim, Fact], bool]


def noisy_or(a: float, b: float) -> float:
    """Return 1 - (1-a)(1-b): the confidence of two independent sources agreeing."""
    return 1 - (1 - a) * (1 - b)


def fact_time(fact: Fact) -> datetime:
    """Return when a fact holds from: its valid time, else when it was recorded."""
    return fact.valid_at or fact.recorded_at


def same_target(claim: Claim, fact: Fact) -> bool:
    """Return True when the claim and the fact name the same object or the same value."""
    if claim.object is not None:
        return claim.object == fact.object
    return fact.object is None and normal_value(claim.value) == normal_value(fact.value)


def normal_value(value: Scalar | None) -> str:
    """Return a literal as compared: whitespace collapsed, case folded, 800000.0 = 800000."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return re.sub(r"\s+", " ", str(value)).strip().casefold()


def _closes(claim: Claim, fact: Fact) -> bool:
    """Return True when the claim may close ``fact``: it is valid then and started before, or it
    was said after the fact held ("Dana works at Globex" on Monday, "she left Globex last week" on
    Friday: the later word ends the job, though the end it dates comes before the day it was known)."""
    return claim.effective_time >= fact_time(fact) or claim.stated_at > fact_time(fact)


def _closed_at(claim: Claim, fact: Fact) -> datetime:
    """Return when the claim closes ``fact``: at the claim's valid time, never before the fact began."""
    return max(claim.effective_time, fact_time(fact))


def arbitrate(
    claim: Claim,
    current: Sequence[Fact],
    *,
    ended: Sequence[Fact] = (),
    settings: ArbitrationSettings | None = None,
    refines: Refines = lambda claim, fact: False,
) -> Decision:
    """Return what ``claim`` does to ``current``: the live facts with its subject and predicate.

    ``current`` holds facts whose status is current or disputed. ``ended`` holds the live
    facts the claim's predicate ends or opposes (or that ended it), already matched to its
    target by the caller, and another subject's facts of its predicate that it moves (a meeting
    time in the same thread, engram.graph.ending). ``refines(claim, fact)`` tells whether the
    claim's target is a finer version of the fact's (a district of a city): the caller knows the
    graph and the places; ``refines`` is also asked the other way round through a swapped claim.
    """
    settings = settings or ArbitrationSettings()
    closing = [
        FactChange(
            fact.id,
            f"{'moved in its thread' if fact.predicate == claim.predicate.name else 'ended'} by "
            f"{claim.predicate.name} at {claim.effective_time.isoformat()}",
            status="superseded" if claim.effective_time <= claim.stated_at else None,
            invalid_at=_closed_at(claim, fact),
            superseded_by_new=not claim.negated,
        )
        for fact in ended
        if _closes(claim, fact)
    ]
    if claim.negated:
        targets = [f for f in current if not claim.has_target or same_target(claim, f)]
        closing += [
            FactChange(
                fact.id,
                f"negated at {claim.effective_time.isoformat()}",
                status="superseded" if claim.effective_time <= claim.stated_at else None,
                invalid_at=_closed_at(claim, fact),
            )
            for fact in targets
            if _closes(claim, fact)
        ]
        if not closing:
            return Decision(Outcome.UNMATCHED, "negation matches no live fact", new_status=None)
        return Decision(
            Outcome.ENDED, f"closes {', '.join(c.fact_id for c in closing)}", new_status=None, changes=closing
        )
    decision = _arbitrate_same_predicate(claim, current, settings, refines)
    if closing:
        decision.changes = closing + decision.changes
        decision.reason += f"; ends {', '.join(c.fact_id for c in closing)}"
        if decision.outcome is Outcome.NEW:
            decision.outcome = Outcome.ENDED
    return decision


def _arbitrate_same_predicate(
    claim: Claim, current: Sequence[Fact], settings: ArbitrationSettings, refines: Refines
) -> Decision:
    conditions = dict(claim.conditions)
    for fact in current:
        if same_target(claim, fact) and dict(fact.conditions) == conditions:
            return _restate(claim, fact)
    rivals = [fact for fact in current if dict(fact.conditions) == conditions]
    if current and not rivals:
        return Decision(Outcome.CONDITIONAL, "other conditions: both hold")
    if not rivals:
        return Decision(Outcome.NEW, "first fact of its kind" if not claim.over else "stated as ended")
    if claim.over:
        return Decision(
            Outcome.HISTORY,
            f"ended ({claim.invalid_at.isoformat() if claim.invalid_at else ''}) before it was stated: "
            "history, the live facts stay",
            new_status="superseded",
        )
    # Many values coexist anyway: a refinement only matters where the claim would replace one.
    if claim.predicate.cardinality == "one" or claim.correction or claim.refinement:
        refined = _refinement(claim, rivals, refines)
        if refined is not None:
            return refined
    if claim.correction:
        corrected = rivals if claim.predicate.cardinality == "one" else [max(rivals, key=fact_time)]
        return Decision(
            Outcome.CORRECTION,
            "explicit correction",
            changes=_supersede(claim, corrected, "corrected by the new fact"),
        )
    if claim.predicate.cardinality == "many":
        return Decision(Outcome.NEW, "many-valued predicate: values coexist")
    live = [fact for fact in rivals if fact.status == "current"] or list(rivals)
    latest = max(live, key=fact_time)
    if claim.effective_time < fact_time(latest):
        return Decision(
            Outcome.LATE_ARRIVAL,
            f"valid before {latest.id}, which stays current",
            new_status="superseded",
            new_invalid_at=fact_time(latest),
            new_superseded_by=latest.id,
        )
    if claim.change:
        return Decision(Outcome.UPDATE, "the sentence says it changed", changes=_supersede(claim, rivals))
    if claim.predicate.sensitivity == "low":
        return Decision(
            Outcome.UPDATE, "newer value of a low-sensitivity predicate", changes=_supersede(claim, rivals)
        )
    if claim.effective_time == fact_time(latest):
        return Decision(
            Outcome.DISPUTE,
            "same time, different values: both disputed",
            new_status="disputed",
            changes=[
                FactChange(fact.id, "same time as a different value", status="disputed")
                for fact in rivals
                if fact.status != "disputed"
            ],
        )
    age_days = (claim.effective_time - fact_time(latest)).total_seconds() / 86_400
    decay = math.pow(0.5, age_days / settings.half_life_days)
    old_score = settings.credibility.get(latest.source_kind, 0.5) * latest.confidence * decay
    new_score = settings.credibility.get(claim.source_kind, 0.5) * claim.confidence
    if new_score + settings.tolerance >= old_score:
        return Decision(
            Outcome.UPDATE,
            f"newer and as credible ({new_score:.2f} vs {old_score:.2f})",
            changes=_supersede(claim, rivals),
        )
    return Decision(
        Outcome.DISPUTE,
        f"newer but less credible than {latest.id} ({claim.source_kind} {new_score:.2f} vs "
        f"{latest.source_kind} {old_score:.2f}): kept as disputed, {latest.id} stays current",
        new_status="disputed",
    )


def _restate(claim: Claim, fact: Fact) -> Decision:
    """Return the restatement of ``fact``: provenance and confidence, and its end when the claim says."""
    reason = f"restates {fact.id}"
    status: FactStatus | None = "current" if fact.status == "disputed" and claim.correction else None
    invalid_at = None
    if claim.invalid_at is not None and (fact.invalid_at is None or claim.invalid_at < fact.invalid_at):
        invalid_at = claim.invalid_at
        reason += f"; closed at {claim.invalid_at.isoformat()} (explicit invalid_at)"
        if claim.over:
            status = "superseded"
    return Decision(
        Outcome.RESTATEMENT,
        reason,
        new_status=None,
        changes=[
            FactChange(
                fact.id,
                reason,
                add_episode=claim.episode_id,
                confidence=noisy_or(fact.confidence, claim.confidence),
                status=status,
                invalid_at=invalid_at,
            )
        ],
    )


def _refinement(claim: Claim, rivals: Sequence[Fact], refines: Refines) -> Decision | None:
    """Return the refinement decision when the claim narrows a rival or a rival narrows it."""
    finer_than = [fact for fact in rivals if refines(claim, fact)]
    if not finer_than and claim.refinement and not claim.correction:
        finer_than = [max(rivals, key=fact_time)]
    if finer_than:
        floor = max(fact.confidence for fact in finer_than) + REFINEMENT_MARGIN
        return Decision(
            Outcome.REFINEMENT,
            f"refines {', '.join(f.id for f in finer_than)}: both kept, the finer one first",
            new_confidence=min(1.0, max(claim.confidence, floor)),
        )
    coarser_than = [fact for fact in rivals if refines(_as_claim(fact, claim), _as_fact(claim, fact))]
    if coarser_than:
        ceiling = min(fact.confidence for fact in coarser_than) - REFINEMENT_MARGIN
        return Decision(
            Outcome.REFINEMENT,
            f"coarser than {', '.join(f.id for f in coarser_than)}, which stays first: both kept",
            new_confidence=max(0.0, min(claim.confidence, ceiling)),
        )
    return None


def _as_claim(fact: Fact, like: Claim) -> Claim:
    """Return ``fact`` as a claim (to ask ``refines`` the other way round)."""
    return Claim(
        subject=fact.subject,
        predicate=like.predicate,
        object=fact.object,
        value=fact.value,
        conditions=fact.conditions,
        valid_at=fact.valid_at,
        confidence=fact.confidence,
        source_kind=fact.source_kind,
        episode_id=fact.episodes[0] if fact.episodes else "",
        stated_at=fact.recorded_at,
        sentence=fact.fact,
    )


def _as_fact(claim: Claim, like: Fact) -> Fact:
    """Return ``claim`` as a fact shaped like ``like`` (to ask ``refines`` the other way round)."""
    return like.model_copy(update={"object": claim.object, "value": claim.value})


def _supersede(
    claim: Claim, facts: Sequence[Fact], reason: str = "superseded by the new fact"
) -> list[FactChange]:
    return [
        FactChange(
            fact.id,
            reason,
            status="superseded",
            invalid_at=claim.effective_time,
            superseded_by_new=True,
        )
        for fact in facts
    ]
