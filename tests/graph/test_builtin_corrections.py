"""A statement corrected later in its own message (engram.ingest.corrections): sentences written for
these tests."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A later fact of the same subject and predicate after a correction replaces the earlier one.
    ("报名截止3月10日——哦不对，截止改为3月15日。", "高远", {("高远", "DEADLINE", "2024-03-15")},
     {("高远", "DEADLINE", "2024-03-10")}),
    ("My brother lives in Leeds. Actually, he lives in York now.", "Ann",
     {("Ann's brother", "LIVES_IN", "York")}, {("Ann's brother", "LIVES_IN", "Leeds")}),
    # Only an amount after the correction: the nearest earlier amount takes it.
    ("The budget is $90k. Sorry, correction: it's $75k.", "Ann", {("Ann", "BUDGET", 75000)},
     {("Ann", "BUDGET", 90000)}),
    # "Actually" that only stresses keeps what one likes; no correction, nothing taken back.
    ("I like tea. Actually I like coffee too.", "Ann", {("Ann", "LIKES", "tea"), ("Ann", "LIKES", "coffee")},
     set()),
    ("My brother lives in Leeds. My sister lives in York.", "Ann",
     {("Ann's brother", "LIVES_IN", "Leeds"), ("Ann's sister", "LIVES_IN", "York")}, set()),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_a_correction_replaces_what_it_corrects(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
