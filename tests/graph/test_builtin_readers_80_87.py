"""The wrong facts the eightieth to eighty-seventh fresh readers judged, read as classes, and budgets named
by what they are for (sentences written for these tests, never theirs)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A budget named by what it is for is that thing's, not the writer's.
    (
        "Update: the mobile app rewrite budget is raised to $52k.",
        "Ann",
        {("mobile app rewrite", "BUDGET", 52000)},
        {("Ann", "BUDGET", 52000)},
    ),
    (
        "Trade fair budget approved: €28,000 for the Milan booth.",
        "Ann",
        {("Trade fair", "BUDGET", 28000)},
        set(),
    ),
    ("Our budget is $80k.", "Ann", {("Ann", "BUDGET", 80000)}, set()),  # control: ours
    (  # control: what a budget is for stops at "but"
        "Interested in the loyalty add-on but budget is tight until May.",
        "Ann",
        set(),
        {("Ann", "INTERESTED_IN", "loyalty add-on but")},
    ),
    # A city written without its accents is still a city: a move, not a tool.
    (
        "we're moving to Zurich in August, my wife got a job there",
        "Ann",
        {("Ann", "LIVES_IN", "Zurich")},
        {("Ann", "USES", "Zurich")},
    ),
    # An unknown name moved to in a sentence that drops a tool is the new tool.
    (
        "Dropped Jira for the ops team, moving to Plane from next week.",
        "Ann",
        {("Ann", "USES", "Plane")},
        {("Ann", "LIVES_IN", "Plane")},
    ),
    ("Dropped the gym membership, moving to Lisbon in May.", "Ann", {("Ann", "LIVES_IN", "Lisbon")}, set()),
    # "mine" is someone of mine, no one named; a nationality is nobody's name; a first word is no signer.
    ("Anyone know a good physio near Leith? mine retired", "Ann", set(), {("Ann", "STATUS", "retired")}),
    (
        "My husband is Portuguese, from Braga, we met in Leeds.",
        "Ann",
        set(),
        {("Portuguese", "WORKS_AT", "Braga"), ("Portuguese", "LIVES_IN", "Braga")},
    ),
    (
        "Orla Foods signed! 2-year, 80 users. First signed deal for Benelux 🎉",
        "Ann",
        set(),
        {("First", "SIGNED", "deal")},
    ),
    # A denied figure is dropped whole, whatever follows it; 一共 is no amount; "planning" is the writer's.
    (
        "Correction to the hosting budget: it's $18,400, not $16,900 — forgot the backups.",
        "Ann",
        {("hosting", "BUDGET", 18400)},
        {("hosting", "BUDGET", 18400900)},
    ),
    ("报价有点超预算了，我们今年市场这块一共只有40万。", "王芳", set(), {("王芳", "BUDGET", 1)}),
    (
        "my dad's turning 60 in May, planning a surprise party at the golf club",
        "Ann",
        set(),
        {("Ann's dad", "PLANS_TO", "surprise party")},
    ),
    # A team moved to is no tool; a speaker's words are no budget's name.
    (
        "I'm leaving the Platform team, moving to Data Infra under Marta from June 17.",
        "Ann",
        set(),
        {("Ann", "USES", "Data Infra"), ("Ann", "LIVES_IN", "Data Infra")},
    ),
    (
        "Ostrava: Pavel says the budget is €55k, not €60k.",
        "Ann",
        set(),
        {("Pavel says the", "BUDGET", 55000)},
    ),
    # What is left ends before "and joining …": the firm joined is the new employer, not one left.
    (
        "New job!! leaving the bank and joining a fintech called Larkspur Pay as a data analyst.",
        "Ann",
        {("Ann", "WORKS_AT", "Larkspur Pay")},
        {("Ann", "LEFT_ORGANISATION", "Larkspur Pay")},
    ),
    (
        "We're dropping Hootsuite and moving social scheduling to Buffer.",
        "Ann",
        {("Ann", "STOPPED_USING", "Hootsuite")},
        {("Ann", "STOPPED_USING", "Hootsuite and moving social scheduling")},
    ),
    # Our point of contact "for" partners works for us.
    (
        "We signed Ostra IT and Velden Systems as resellers. Derek is the point of contact for both.",
        "Ann",
        set(),
        {("Derek", "WORKS_AT", "Velden Systems"), ("Derek", "WORKS_AT", "Ostra IT")},
    ),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_what_readers_80_to_87_judged_wrong_is_not_read(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
