"""An employer said in passing: a role taken, a greeting from a new job, a time at a company, a name with its
role and company in brackets; and a tool switched to, said as a move (sentences written for these tests)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    (
        "FYI Dana is leaving Brightline next month, she's taken a role at Wise.",
        "Ann",
        {("Dana", "WORKS_AT", "Wise")},
        set(),
    ),
    (
        "Hi Sam! Priya here, now at Northwind Labs. Hope you're well",
        "Ann",
        {("Priya", "WORKS_AT", "Northwind Labs")},
        set(),
    ),
    (
        "I left Oracle last year, I've been at Salesforce since March",
        "Ann",
        {("Ann", "WORKS_AT", "Salesforce")},
        set(),
    ),
    (
        "Call notes: Tom Baker (Head of IT, Norwell Foods) wants a demo in May.",
        "Ann",
        {("Tom Baker", "WORKS_AT", "Norwell Foods")},
        set(),
    ),
    # Not a place one has been at for hours, nor a hotel one is at.
    ("I've been at Heathrow since 6am, flight delayed", "Ann", set(), {("Ann", "WORKS_AT", "Heathrow")}),
    ("We're at the Hilton now, room 402", "Ann", set(), {("Ann", "WORKS_AT", "Hilton")}),
    # A tool switched to, said as a move, is no home (a move between neighbourhoods still is).
    (
        "New paging tool: we've moved from Splunk On-Call to Opsgenie. Old account closes in May.",
        "Ann",
        set(),
        {("Ann", "LIVES_IN", "Opsgenie")},
    ),
    ("We moved from Shoreditch to Clapham last year", "Ann", {("Ann", "LIVES_IN", "Clapham")}, set()),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_employers_in_passing(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
