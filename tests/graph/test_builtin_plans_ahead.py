"""An event trained for, signed up for or planned is still to come (PLANS_TO, dated ahead); one dated
ahead is planned whatever the verb; a class signed up for is studied, a trip to a place is a visit
(sentences written for these tests; said on Wednesday 13 March 2024)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import read

from engram.ingest.builtin import BuiltinExtractor

PLANNED = [
    # (sentence, the PLANS_TO value, the first day it is dated to: a month already gone reads next year's)
    ("Signed up for the Leeds 10k in February!", "Leeds 10k", "2025-02-01"),
    ("I'm training for the Oslo marathon on Sept 14.", "Oslo marathon", "2024-09-14"),
    ("Training for the York half marathon in January. Goal is sub 2h.", "York half marathon", "2025-01-01"),
    ("Running my first triathlon race in June, so nervous", "first triathlon race", "2024-06-01"),
    ("I'm going to a wedding in May.", "wedding", "2024-05-01"),
    ("Planning a road trip through Wales in August with my sister.", "road trip", "2024-08-01"),
]


@pytest.mark.parametrize(("text", "plan", "day"), PLANNED, ids=[p[0][:40] for p in PLANNED])
def test_an_event_still_to_come_is_a_plan_dated_ahead(
    extractor: BuiltinExtractor, text: str, plan: str, day: str
) -> None:
    plans = {f.value: f for f in read(extractor, text).facts if f.predicate == "PLANS_TO"}
    assert plan in plans, plans
    valid_at = plans[plan].valid_at
    assert valid_at is not None and valid_at.date().isoformat() == day


NOT_PLANNED = [
    # what was done stays done; a class is studied; a place travelled to is a visit; a sales meeting booked
    ("I ran a half marathon in February.", {("Ann", "ATTENDED", "half marathon")}),
    ("I just signed up for a pottery class.", {("Ann", "STUDIES", "pottery")}),
    ("We're planning a trip to Porto in December.", {("Ann", "PLANS_TO_VISIT", "Porto")}),
    ("Booked my first meeting with Hartwell Insurance for Thursday.", set()),
]


@pytest.mark.parametrize(("text", "wanted"), NOT_PLANNED, ids=[p[0][:40] for p in NOT_PLANNED])
def test_done_events_classes_and_visits_are_no_plan(
    extractor: BuiltinExtractor, text: str, wanted: set
) -> None:
    facts = read(extractor, text).facts
    assert not [f for f in facts if f.predicate == "PLANS_TO"], facts
    assert wanted <= {(f.subject, f.predicate, f.object or f.value) for f in facts}, facts
