"""Entity resolution scores and vetoes, in both languages."""

from __future__ import annotations

from datetime import UTC, datetime

from engram.graph.resolve import Profile, Verdict, is_generic, resolve
from engram.nlp.names import normalise_name


def p(name: str, type_: str = "person", **extra: object) -> Profile:
    return Profile(name=name, type=type_, **extra)  # type: ignore[arg-type]


def test_repeated_name_merges() -> None:
    assert resolve(p("Caroline"), p("Caroline")).verdict is Verdict.MERGE
    assert resolve(p("李强"), p("李强", aliases=frozenset({"强哥"}))).verdict is Verdict.MERGE
    assert resolve(p("强哥"), p("李强", aliases=frozenset({"强哥"}))).verdict is Verdict.MERGE


def test_nickname_merges_only_on_evidence() -> None:
    bare = resolve(p("小李"), p("李强"))
    assert bare.verdict is Verdict.DISTINCT
    shared = dict(neighbours=frozenset({"en_acme", "en_hangzhou"}), threads=frozenset({"t1"}))
    with_context = resolve(p("小李", **shared), p("李强", **shared))
    assert with_context.verdict is Verdict.CANDIDATE, with_context
    both = resolve(
        p("小李", attributes={"company": "ACME", "role": "销售"}, **shared),
        p("李强", attributes={"company": "acme", "role": "销售"}, **shared),
    )
    assert both.verdict is Verdict.MERGE, both
    assert both.parts["attributes"] == 1.0


def test_different_types_never_merge() -> None:
    result = resolve(p("Apple", "organisation"), p("Apple", "product"))
    assert result.verdict is Verdict.DISTINCT and "types" in result.reason


def test_paris_france_is_not_paris_texas() -> None:
    france = p("Paris", "place", attributes={"country": "France"})
    texas = p("Paris", "place", attributes={"country": "United States", "region": "Texas"})
    result = resolve(texas, france)
    assert result.verdict is Verdict.DISTINCT and "identifying" in result.reason
    assert resolve(p("Paris", "place", attributes={"region": "Texas"}), france).verdict is not Verdict.MERGE


def test_generic_roles_identify_nobody() -> None:
    assert is_generic("销售经理") and is_generic("the manager") and not is_generic("张经理")
    assert resolve(p("销售经理"), p("销售经理")).verdict is Verdict.DISTINCT
    assert (
        resolve(
            p("张经理", aliases=frozenset({"销售经理"})), p("王经理", aliases=frozenset({"销售经理"}))
        ).verdict
        is not Verdict.MERGE
    )


def test_disjoint_active_periods_do_not_merge() -> None:
    old = p(
        "John Smith", first_seen=datetime(1990, 1, 1, tzinfo=UTC), last_seen=datetime(1995, 1, 1, tzinfo=UTC)
    )
    new = p(
        "John Smith", first_seen=datetime(2023, 1, 1, tzinfo=UTC), last_seen=datetime(2024, 1, 1, tzinfo=UTC)
    )
    assert resolve(new, old).verdict is Verdict.DISTINCT


def test_fuzzy_spelling_is_a_candidate_not_a_merge() -> None:
    result = resolve(p("Carolyn", threads=frozenset({"s1"})), p("Caroline", threads=frozenset({"s1"})))
    assert result.verdict in {Verdict.CANDIDATE, Verdict.MERGE}
    assert 0.75 < result.parts["name"] < 1.0


def test_normalise_name() -> None:
    assert normalise_name("  ＡＣＭＥ  Inc. ") == "acme inc"
    assert normalise_name("李 强") == "李 强"
