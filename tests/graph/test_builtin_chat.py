"""Personal chat in English: trips, clubs, a job lost, a pastime paused, books and games loved,
what one is keen to try, classes, goals, writing under way, pets got (sentences written for these
tests, in the style of LoCoMo's conversations; each names facts that must and must not be read)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Triple, read, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "Took a quick trip last month to Lisbon to see the tiles.",
        "Ann",
        {("Ann", "VISITED", "Lisbon")},
        set(),
    ),
    (
        "I'm officially part of the volunteer rescue squad now!",
        "Ann",
        {("Ann", "MEMBER_OF", "volunteer rescue squad")},
        set(),
    ),
    (
        "Yesterday I joined a coding program for single moms - so far so good.",
        "Ann",
        {("Ann", "MEMBER_OF", "coding program for single moms")},
        set(),
    ),
    (
        "I knitted a scarf for a friend at my knitting circle.",
        "Ann",
        {("Ann", "MEMBER_OF", "knitting circle")},
        set(),
    ),
    (
        "I lost my job at the furniture factory. They closed the plant.",
        "Ann",
        {("Ann", "LEFT_ORGANISATION", "furniture factory")},
        set(),
    ),
    (
        "My wrist is sprained, so I had to take a break from climbing.",
        "Ann",
        {("Ann", "STOPPED_USING", "climbing")},
        set(),
    ),
    ("Books let us take a break from reality.", "Ann", set(), {("Ann", "STOPPED_USING", "reality")}),
    ('I adored reading "Matilda" when I was little.', "Ann", {("Ann", "LIKES", "Matilda")}, set()),
    ("I mostly play Minecraft with my nephew on Sundays.", "Ann", {("Ann", "LIKES", "Minecraft")}, set()),
    (
        "I'm eager to try out salsa and tango this year.",
        "Ann",
        {("Ann", "INTERESTED_IN", "salsa"), ("Ann", "INTERESTED_IN", "tango")},
        set(),
    ),
    ("Can't wait to check out the sequel!", "Ann", set(), {("Ann", "INTERESTED_IN", "sequel")}),
    (
        "I signed up for an evening pottery class at the community center.",
        "Ann",
        {("Ann", "STUDIES", "pottery")},
        set(),
    ),
    (
        "It's one more step toward my dream of opening a bakery.",
        "Ann",
        {("Ann", "GOAL", "opening a bakery")},
        set(),
    ),
    (
        "I'm writing a cookbook of my grandma's recipes.",
        "Ann",
        {("Ann", "WORKS_ON", "cookbook of my grandma's recipes")},
        set(),
    ),
    ("We got another dog named Pepper last week!", "Ann", {("Ann", "HAS_PET", "Pepper")}, set()),
    (
        "I made a summer clothing line for my shop.",
        "Ann",
        {("Ann", "CREATED", "summer clothing line")},
        set(),
    ),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:28] for c in CASES])
def test_personal_chat(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


TOOLS: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "We're dropping Sketch and the design team moves to Figma on May 1.",
        "Ann",
        {("Ann", "USES", "Figma"), ("Ann", "STOPPED_USING", "Sketch")},
        {("Ann", "STOPPED_USING", "Sketch and the design team moves")},
    ),
    (
        "Starting June 3 we're moving invoices from Xero to NetSuite.",
        "Ann",
        {("Ann", "STOPPED_USING", "Xero"), ("Ann", "USES", "NetSuite")},
        set(),
    ),
    (
        "Spoke with Orbis Health today. They're still on Cerner.",
        "Ann",
        {("Orbis Health", "USES", "Cerner")},
        set(),
    ),
    ("Uninstalled Snapchat last night.", "Ann", {("Ann", "STOPPED_USING", "Snapchat")}, set()),
    ("My parents retired. They live in Ohio now.", "Ann", set(), {("Ann", "LIVES_IN", "Ohio")}),
    (
        "Brightwater Pharmacy says they'll go to Zebra if we can't fix it.",
        "Ann",
        set(),
        {("Brightwater Pharmacy", "PLANS_TO_VISIT", "Zebra")},
    ),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), TOOLS, ids=[c[0][:28] for c in TOOLS])
def test_tools_taken_up_and_dropped(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


SCHOOLS_AND_WORK: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "My daughter got into Virginia Tech for civil engineering!",
        "Ann",
        {
            ("Ann's daughter", "STUDIES_AT", "Virginia Tech"),
            ("Ann's daughter", "STUDIES", "civil engineering"),
        },
        {("Ann's daughter", "LIKES", "Virginia Tech")},
    ),
    ("I'm totally into Radiohead.", "Ann", {("Ann", "LIKES", "Radiohead")}, set()),
    (
        "Priya Shah owns the rollout and reports to me.",
        "Ann",
        {("Priya Shah", "RESPONSIBLE_FOR", "rollout")},
        {("Priya Shah", "OWNS", "rollout and reports")},
    ),
    (
        "Our contact there is their CFO, Lena Fox.",
        "Ann",
        {("Lena Fox", "HAS_ROLE", "CFO")},
        {("Ann", "HAS_ROLE", "CFO")},
    ),
]


@pytest.mark.parametrize(
    ("text", "actor", "wanted", "unwanted"), SCHOOLS_AND_WORK, ids=[c[0][:28] for c in SCHOOLS_AND_WORK]
)
def test_schools_and_work(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_a_place_beginning_an_organisations_name_is_no_place(extractor: BuiltinExtractor) -> None:
    kinds = {e.name: e.type for e in read(extractor, "She works at Boston Consulting Group.", "Ann").entities}
    assert kinds.get("Boston Consulting Group") == "organisation" and "Boston" not in kinds


PASTIMES_AND_ROOTS: list[tuple[str, str, set[Triple], set[Triple]]] = [
    ("Been busy! I'm doing jiu-jitsu twice a week now.", "Ann", {("Ann", "LIKES", "jiu-jitsu")}, set()),
    ("Gotta run, I'm off to do some kickboxing!", "Ann", {("Ann", "LIKES", "kickboxing")}, set()),
    (
        "This ring was my aunt's, from my home country, Portugal.",
        "Ann",
        {("Ann", "COMES_FROM", "Portugal")},
        {("Ann's aunt", "COMES_FROM", "Portugal")},
    ),
    ('I adored "Little Women" when I read it last winter.', "Ann", {("Ann", "LIKES", "Little Women")}, set()),
    (
        "I dropped off old coats at the food bank I volunteer at.",
        "Ann",
        {("Ann", "VOLUNTEERS_AT", "food bank")},
        {("Ann", "VOLUNTEERS_AT", "old coats")},
    ),
    (
        "Honestly? Running a marathon is my biggest goal.",
        "Ann",
        {("Ann", "GOAL", "Running a marathon")},
        set(),
    ),
]


@pytest.mark.parametrize(
    ("text", "actor", "wanted", "unwanted"), PASTIMES_AND_ROOTS, ids=[c[0][:28] for c in PASTIMES_AND_ROOTS]
)
def test_pastimes_and_roots(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
