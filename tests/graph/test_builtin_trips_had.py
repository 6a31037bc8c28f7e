"""Trips told of after the fact, as chat tells them: back from a place, a place praised, a weekend spent there
(sentences written for these tests)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    ("back from Lisbon! already planning the next trip", "Ann", {("Ann", "VISITED", "Lisbon")}, set()),
    ("Kyoto was amazing, the temples!", "Ann", {("Ann", "VISITED", "Kyoto")}, set()),
    ("Mexico City was unreal. Tacos every day", "Ann", {("Ann", "VISITED", "Mexico City")}, set()),
    ("just got back from Japan, Osaka was the highlight", "Ann", {("Ann", "VISITED", "Osaka")}, set()),
    ("We spent the weekend in Bruges, lovely", "Ann", {("Ann", "VISITED", "Bruges")}, set()),
    # Neither a day nor a person praised is a place; a visit's time is the visit's, not a short stay's.
    ("Tuesday was amazing, we closed two deals", "Ann", set(), {("Ann", "VISITED", "Tuesday")}),
    ("Sarah was amazing at the demo", "Ann", set(), {("Ann", "VISITED", "Sarah")}),
    (
        "I'm visiting my sister in Vancouver over Christmas",
        "Ann",
        {("Ann's sister", "LIVES_IN", "Vancouver")},
        set(),
    ),
    ("Visited my parents in Zagreb last weekend", "Ann", {("Ann's mom", "LIVES_IN", "Zagreb")}, set()),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_trips_had(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
