"""Diets and things given up in the shapes readers listed as missed ("I've been gluten free for 2 years", "im
doing keto again", "Vegetarian since I was 12", "Stopped going to CrossFit", "I've given up caffeine for
lent", "…, replacing Rollbar"), with the guards they need (sentences written for these tests)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    (
        "I've been gluten free for 3 years (coeliac), you get used to it",
        "Ann",
        {("Ann", "DIET", "gluten free")},
        set(),
    ),
    ("im doing keto again, down 5kg", "Ann", {("Ann", "DIET", "keto")}, set()),
    ("Vegan since I was 15. Not changing now", "Ann", {("Ann", "DIET", "Vegan")}, set()),
    ("Dad's on a low-sugar diet now, doctor's orders.", "Ann", {("Ann's dad", "DIET", "low-sugar")}, set()),
    ("Stopped going to spin class, too expensive.", "Ann", {("Ann", "STOPPED_USING", "spin class")}, set()),
    ("I've given up chocolate for lent. Day 9.", "Ann", {("Ann", "STOPPED_USING", "chocolate")}, set()),
    (
        "We're moving alerts to PagerDuty, replacing Opsgenie.",
        "Ann",
        {("Ann", "STOPPED_USING", "Opsgenie")},
        set(),
    ),
    # the second verb phrase is no part of what was dropped
    (
        "We dropped Asana and moved everything to Linear.",
        "Ann",
        {("Ann", "STOPPED_USING", "Asana")},
        {("Ann", "STOPPED_USING", "Asana and moved everything")},
    ),
    # guards: a cookbook, a menu, a plan, a filter replaced
    ("I bought a keto cookbook", "Ann", set(), {("Ann", "DIET", "keto")}),
    ("The menu is gluten free", "Ann", set(), {("Ann", "DIET", "gluten free")}),
    (
        "gonna try intermittent fasting, 16:8. wish me luck",
        "Ann",
        set(),
        {("Ann", "DIET", "intermittent fasting")},
    ),
    ("replacing the filter on the coffee machine", "Ann", set(), {("Ann", "STOPPED_USING", "filter")}),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_diets_and_stops(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


DEALS: list[Case] = [
    # A count priced by the unit after a customer's name is its deal's, count and price.
    (
        "Deal update: Harwick Foods — verbal yes on 40 licenses at $35/mo.",
        "Ann",
        {("Harwick Foods deal", "QUANTITY", 40), ("Harwick Foods deal", "PRICE", 35)},
        set(),
    ),
    (
        "Quote sent to Pellam Labs: 30 Pro seats at $49, annual.",
        "Ann",
        {("Pellam Labs deal", "QUANTITY", 30)},
        set(),
    ),
    # a count of a product keeps its unit price the product's; a signing names its own deal (guards)
    (
        "Globex ordered 40 licences of Nimbus Pro at $1,200 each",
        "Ann",
        {("Nimbus Pro", "PRICE", 1200)},
        set(),
    ),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), DEALS)
def test_a_count_priced_by_the_unit(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
