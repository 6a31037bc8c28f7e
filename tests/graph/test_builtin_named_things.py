"""Names that hold more than a first word (Microsoft 365 Business Premium, a team's budget, an
organisation said by its headquarters), lists of tools, payments received, and objects that stop
too early (参加鼎新电子的需求评审会): sentences written for these tests."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A team or department holds its own budget and deadline, not the writer.
    ("The marketing team's budget for Q3 is $120k.", "Dana",
     {("marketing team", "BUDGET", 120000)}, {("Dana", "BUDGET", 120000)}),
    ("The budget for the EMEA sales team is $80k this year.", "Dana",
     {("EMEA sales team", "BUDGET", 80000)}, {("Dana", "BUDGET", 80000)}),
    # A number inside a product's name does not cut it (nor does the firm that begins it).
    ("We're moving everyone to Office 365 Enterprise E3 next month.", "Dana",
     {("Dana", "USES", "Office 365 Enterprise E3")}, {("Dana", "USES", "Office")}),
    ("We use Microsoft 365 Business Premium now.", "Dana",
     {("Dana", "USES", "Microsoft 365 Business Premium")}, {("Dana", "USES", "Business Premium")}),
    # Each tool of a list is used.
    ("We use Jira, Confluence and Slack for the project.", "Dana",
     {("Dana", "USES", "Jira"), ("Dana", "USES", "Confluence"), ("Dana", "USES", "Slack")}, set()),
    ("I use Figma, Miro, and Loom daily.", "Dana",
     {("Dana", "USES", "Figma"), ("Dana", "USES", "Miro"), ("Dana", "USES", "Loom")}, set()),
    # An organisation said by its headquarters, even one no list knows.
    ("Globex's headquarters is in Denver.", "Dana", {("Globex", "LIVES_IN", "Denver")}, set()),
    ("Initech is headquartered in Austin.", "Dana", {("Initech", "LIVES_IN", "Austin")}, set()),
    # A payment received is the payer's.
    ("Received $48,000 from Pioneer Ag yesterday.", "Dana", {("Pioneer Ag", "PAID", 48000)}, set()),
    ("We got a $12k wire from Globex Corp this morning.", "Dana", {("Globex Corp", "PAID", 12000)}, set()),
    # What one attends is the whole event, not whose it is; whom one likes working with is not liked.
    ("明日计划：参加鼎新电子的需求评审会。", "李明",
     {("李明", "ATTENDED", "鼎新电子的需求评审会")}, {("李明", "ATTENDED", "鼎新电子")}),
    ("我很喜欢和鼎新电子的团队合作。", "王芳", set(), {("王芳", "LIKES", "和鼎新电子")}),
]  # fmt: skip


@pytest.fixture(scope="module")
def extractor() -> BuiltinExtractor:
    return BuiltinExtractor()


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_names_lists_and_holders(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
