"""The eighth and ninth fresh readers' false readings and misses, fixed as classes (sentences written
for these tests, never theirs), and a newcomer's: a role said with "is the … at" names the employer."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    ("Dana Park is the IT Director at Globex.", "Sam",
     {("Dana Park", "WORKS_AT", "Globex"), ("Dana Park", "HAS_ROLE", "IT Director")}, set()),
    ("I'm the head of sales at Brightline Foods.", "Ana", {("Ana", "WORKS_AT", "Brightline Foods")}, set()),
    ("The meeting is at Globex.", "Ana", set(), {("Ana", "WORKS_AT", "Globex")}),
    # An office or a team moved is no tool switch, no home; an area led is no employer.
    ("We are moving our office from Leeds city centre to Holbeck next month.", "Nina", set(),
     {("Nina", "USES", "Holbeck")}),
    ("Omar moved from the Billing squad to the Search team.", "Nina", set(),
     {("Omar", "LIVES_IN", "Search"), ("Omar", "MOVED_FROM", "Billing")}),
    ("Ivy is the tech lead for Checkout.", "Nina", {("Ivy", "HAS_ROLE", "tech lead")},
     {("Ivy", "WORKS_AT", "Checkout")}),
    # Idioms: missing a city is no trip, getting into a program no taste, quitting a job no habit.
    ("I'm going to miss Lisbon so much.", "Nina", set(), {("Nina", "PLANS_TO_VISIT", "Lisbon")}),
    ("I'm going to Lisbon next week.", "Nina", {("Nina", "PLANS_TO_VISIT", "Lisbon")}, set()),
    ("I got into the Stanford law program!", "Nina", set(), {("Nina", "LIKES", "Stanford law program")}),
    ("I quit the retail job last spring.", "Nina", {("Nina", "LEFT_ORGANISATION", None)},
     {("Nina", "STOPPED_USING", "retail job last spring"), ("Nina", "STOPPED_USING", "retail job")}),
    # A numbered phase is no amount; a web name is one name.
    ("Pell Foods approved a $90k budget for phase 2.", "Nina", {("Pell Foods", "BUDGET", 90000)},
     {("Pell Foods", "BUDGET", 2)}),
    ("We started using Hotjar.io for heatmaps.", "Nina", {("Nina", "USES", "Hotjar.io")},
     {("Nina", "USES", "Hotjar")}),
    # A signature line: the writer's own name is no company, the company comes last on its line.
    ("Thanks for the quote.\n\nBest,\nMaya\n--\nMaya Lund | Head of Ops | Fjord Bakery", "Maya Lund",
     {("Maya Lund", "WORKS_AT", "Fjord Bakery")}, {("Maya Lund", "WORKS_AT", "Maya Lund")}),
    ("Please send the contract.\n\nPaul Girard\nJefe Comercial, Bodegas Ferrer", "Paul Girard",
     {("Paul Girard", "WORKS_AT", "Bodegas Ferrer")}, {("Paul Girard", "WORKS_AT", "Jefe Comercial")}),
    ("The board approved it.\n\nRuth Oyelaran\nManager, Clinical Applications | Lakeside Medical",
     "Ruth Oyelaran", {("Ruth Oyelaran", "WORKS_AT", "Lakeside Medical")},
     {("Ruth Oyelaran", "WORKS_AT", "Clinical Applications")}),
    # Who a relative clause speaks of; the one not chosen holds no price.
    ("Leon took over from Gail Ortiz who retired in May.", "Nina", set(), {("Leon", "STATUS", "retired")}),
    ("We hired Ana Ruiz who lives in Austin.", "Nina", {("Ana Ruiz", "LIVES_IN", "Austin")}, set()),
    ("Brookfield picked us over Freshdesk at $29 a seat.", "Nina", set(), {("Freshdesk", "PRICE", 29)}),
]  # fmt: skip


@pytest.fixture(scope="module")
def extractor() -> BuiltinExtractor:
    return BuiltinExtractor()


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_eighth_and_ninth_readers_classes(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
