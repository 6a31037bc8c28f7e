"""Fact arbitration outcomes, in both languages, as pure decisions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engram.graph.arbitrate import Claim, Outcome, arbitrate, noisy_or
from engram.models.graph import Fact, Scalar, SourceKind
from engram.models.predicates import PredicateRegistry

T0 = datetime(2024, 1, 10, tzinfo=UTC)
REGISTRY = PredicateRegistry()


def fact(
    fact_id: str,
    predicate: str,
    *,
    value: Scalar | None = None,
    obj: str | None = None,
    days: int = 0,
    conditions: dict[str, Scalar] | None = None,
    confidence: float = 0.9,
    source_kind: SourceKind = "stated",
    status: str = "current",
) -> Fact:
    return Fact.model_validate(
        {
            "id": fact_id,
            "group_id": "g",
            "version": 1,
            "subject": "en_li",
            "predicate": predicate,
            "object": obj,
            "value": value,
            "fact": "…",
            "conditions": conditions or {},
            "confidence": confidence,
            "source_kind": source_kind,
            "episodes": ["ep_old"],
            "valid_at": T0 + timedelta(days=days),
            "recorded_at": T0 + timedelta(days=days),
            "status": status,
            "operation_id": "op",
        }
    )


def claim(
    predicate: str,
    *,
    value: Scalar | None = None,
    obj: str | None = None,
    days: int = 30,
    sentence: str = "",
    conditions: dict[str, Scalar] | None = None,
    confidence: float = 0.9,
    source_kind: SourceKind = "stated",
) -> Claim:
    return Claim(
        subject="en_li",
        predicate=REGISTRY.canonical(predicate),
        object=obj,
        value=value,
        conditions=conditions or {},
        valid_at=None,
        confidence=confidence,
        source_kind=source_kind,
        episode_id="ep_new",
        stated_at=T0 + timedelta(days=days),
        sentence=sentence,
    )


def test_first_fact_is_new() -> None:
    decision = arbitrate(claim("BUDGET", value=500_000), [])
    assert decision.outcome is Outcome.NEW and decision.new_status == "current" and not decision.changes


def test_restatement_adds_provenance_and_confidence() -> None:
    old = fact("fa_1", "BUDGET", value="500k", confidence=0.8)
    decision = arbitrate(claim("预算", value="500K", confidence=0.7, sentence="预算还是500k"), [old])
    assert decision.outcome is Outcome.RESTATEMENT
    assert decision.new_status is None, "no new fact"
    [change] = decision.changes
    assert change.fact_id == "fa_1" and change.add_episode == "ep_new"
    assert change.confidence == noisy_or(0.8, 0.7) > 0.8


def test_update_supersedes_with_closed_valid_time() -> None:
    old = fact("fa_1", "LIVES_IN", obj="en_hangzhou")
    decision = arbitrate(claim("lives in", obj="en_shanghai", sentence="I moved to Shanghai"), [old])
    assert decision.outcome is Outcome.UPDATE and decision.new_status == "current"
    [change] = decision.changes
    assert change.status == "superseded" and change.superseded_by_new
    assert change.invalid_at == T0 + timedelta(days=30)


def test_conditional_facts_coexist() -> None:
    old = fact("fa_1", "PREFERS", value="咖啡", conditions={"when": "工作日"})
    decision = arbitrate(claim("PREFERS", value="茶", conditions={"when": "周末"}), [old])
    assert (
        decision.outcome is Outcome.CONDITIONAL and decision.new_status == "current" and not decision.changes
    )


def test_refinement_keeps_both() -> None:
    old = fact("fa_1", "LIVES_IN", obj="en_hangzhou")
    decision = arbitrate(
        claim("住在", obj="en_binjiang"),
        [old],
        refines=lambda c, f: (c.object, f.object) == ("en_binjiang", "en_hangzhou"),
    )
    assert (
        decision.outcome is Outcome.REFINEMENT and decision.new_status == "current" and not decision.changes
    )


def test_newer_but_weaker_source_is_disputed_and_the_stated_fact_stays() -> None:
    old = fact("fa_1", "BUDGET", value=500_000, confidence=0.9)
    decision = arbitrate(claim("BUDGET", value=800_000, source_kind="inferred", confidence=0.6), [old])
    assert decision.outcome is Outcome.DISPUTE
    assert decision.new_status == "disputed"
    assert decision.changes == [], "the older stated fact is not overturned"
    assert "less credible than fa_1" in decision.reason and "fa_1 stays current" in decision.reason


def test_same_time_different_values_is_a_dispute() -> None:
    old = fact("fa_1", "BUDGET", value=500_000, days=30)
    assert arbitrate(claim("BUDGET", value=800_000, days=30), [old]).outcome is Outcome.DISPUTE


def test_correction_cue_wins_over_a_stronger_old_fact() -> None:
    old = fact("fa_1", "BUDGET", value=500_000, confidence=0.95)
    for sentence in ("其实预算是八十万", "Correction: the budget is 800k", "更正一下，预算80万"):
        decision = arbitrate(
            claim("BUDGET", value=800_000, source_kind="inferred", confidence=0.5, sentence=sentence), [old]
        )
        assert decision.outcome is Outcome.CORRECTION, sentence
        assert [(c.fact_id, c.status) for c in decision.changes] == [("fa_1", "superseded")]


def test_late_arrival_never_supersedes_the_newer_fact() -> None:
    newer = fact("fa_2", "WORKS_AT", obj="en_acme", days=60)
    decision = arbitrate(claim("WORKS_AT", obj="en_initech", days=10), [newer])
    assert decision.outcome is Outcome.LATE_ARRIVAL
    assert decision.new_status == "superseded" and decision.new_superseded_by == "fa_2"
    assert decision.new_invalid_at == T0 + timedelta(days=60)
    assert not decision.changes, "the newer fact is untouched"


def test_many_valued_predicates_coexist() -> None:
    old = fact("fa_1", "LIKES", value="hiking")
    decision = arbitrate(claim("喜欢", value="painting"), [old])
    assert decision.outcome is Outcome.NEW and not decision.changes


def test_tools_in_use_coexist() -> None:
    # USES is many-valued since the registry merge (it was one/low): people use several tools
    # at once, and a switch is said with STOPPED_USING, which ends USES.
    old = fact("fa_1", "USES", value="Notion", confidence=0.9)
    decision = arbitrate(claim("在用", value="飞书", source_kind="inferred", confidence=0.5), [old])
    assert decision.outcome is Outcome.NEW and not decision.changes


def test_low_sensitivity_newest_wins() -> None:
    old = fact("fa_1", "PREFERS", value="咖啡", confidence=0.9)
    decision = arbitrate(claim("偏好", value="茶", source_kind="inferred", confidence=0.5), [old])
    assert decision.outcome is Outcome.UPDATE


def test_registry_maps_synonyms_in_both_languages() -> None:
    assert REGISTRY.canonical("住在").name == "LIVES_IN"
    assert REGISTRY.canonical("works at").name == "WORKS_AT"
    assert REGISTRY.canonical("budget").cardinality == "one"
    assert REGISTRY.canonical("FAVOURITE_COLOUR").name == "FAVOURITE_COLOUR"
    assert REGISTRY.canonical("FAVOURITE_COLOUR").cardinality == "many"
    assert len(REGISTRY) >= 30
