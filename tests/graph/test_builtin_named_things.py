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
     {("李明", "PLANS_TO", "鼎新电子的需求评审会")}, {("李明", "PLANS_TO", "鼎新电子")}),
    ("我很喜欢和鼎新电子的团队合作。", "王芳", set(), {("王芳", "LIKES", "和鼎新电子")}),
    # Where someone works, said in a CRM note's parenthesis or after "met … from".
    ("Call w/ Priya Raman (Head of Procurement, Northwind Traders). They're evaluating us.", "Marcus",
     {("Priya Raman", "WORKS_AT", "Northwind Traders"), ("Priya Raman", "HAS_ROLE", "Head of Procurement")},
     set()),
    ("Customer Tomasz Nowak (Wisła Bikes) says the webhook is down.", "Lucy",
     {("Tomasz Nowak", "WORKS_AT", "Wisła Bikes")}, set()),
    ("Call w/ Northwind Logistics: Dave Hollis (VP Ops) confirmed a budget of $180k.", "Ann",
     {("Dave Hollis", "WORKS_AT", "Northwind Logistics")}, {("Dave Hollis", "WORKS_AT", "VP Ops")}),
    ("Met Lydia Shaw from Kestrel Systems yesterday.", "Marcus",
     {("Lydia Shaw", "WORKS_AT", "Kestrel Systems")}, set()),
    ("鼎盛食品的采购总监邓华说预算够。", "陈静", {("邓华", "WORKS_AT", "鼎盛食品")}, set()),
    # A signature with no closing formula: the writer's own name alone on a line, then title and company.
    ("Hi,\n\nOur team can't log in since this morning. Please escalate.\n\nIngrid Solberg\n"
     "IT Lead, Fjordline Shipping", "Ingrid Solberg",
     {("Ingrid Solberg", "WORKS_AT", "Fjordline Shipping"), ("Ingrid Solberg", "HAS_ROLE", "IT Lead")},
     set()),
    ("您好，\n\n系统无法导出报表，麻烦尽快处理。\n\n吴芳\n会计主管\n广州美嘉家居有限公司", "吴芳",
     {("吴芳", "WORKS_AT", "广州美嘉家居有限公司"), ("吴芳", "HAS_ROLE", "会计主管")}, set()),
    ("王经理，\n\n方案我们看过了，整体不错。\n\n刘芳\n恒泰建材 采购部", "刘芳",
     {("刘芳", "WORKS_AT", "恒泰建材"), ("刘芳", "MEMBER_OF", "采购部")}, set()),
    # An organisation's own go-live, said right before it (not another thing's go-live it pushed).
    ("Osterberg AB go-live slipped to October 21 because their data migration isn't done.", "Jamal",
     {("Osterberg AB", "LAUNCH_DATE", "2024-10-21")}, set()),
    ("Quantra Labs pushed go-live of their lab portal to May 6.", "Jamal", set(),
     {("Quantra Labs", "LAUNCH_DATE", "2024-05-06")}),
    # A tool stopped, said after 原来的 and without 我们 before 不用了.
    ("我们公司换了飞书，原来的钉钉不用了。", "吴芳", {("吴芳", "STOPPED_USING", "钉钉")}, set()),
    ("Please call Ingrid Solberg.\n\nIngrid Solberg\nis out until Monday and then at Fjordline Shipping",
     "Ann", set(), {("Ingrid Solberg", "WORKS_AT", "Fjordline Shipping")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_names_lists_and_holders(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
