"""The wrong facts the seventy-sixth to seventy-ninth fresh readers judged, read as classes (sentences written
for these tests, never theirs): teams, queues and territories are no homes, a clock is no place, a list
opened after a comma names no employer, a duty owned is no role, an event thought of is no plan, a weekday
or a count of users is no amount, our handlers and replaced project managers work for us."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # No home: a team, a queue, a territory, a department moved to; a time zone a call is moved to.
    ("From Monday I'm moving to the Tier 3 queue.", "Ann", set(), {("Ann", "LIVES_IN", "Tier")}),
    (
        "Moving to the Iberia territory from July 1.",
        "Ann",
        set(),
        {("Ann", "LIVES_IN", "Iberia"), ("Ann", "USES", "Iberia")},
    ),
    (
        "I'm moving over to Customer Success from June, reporting to Ola.",
        "Ann",
        set(),
        {("Ann", "LIVES_IN", "Customer Success")},
    ),
    (
        "Our sync is moved from Tuesday to Wednesday 10am CET.",
        "Ann",
        set(),
        {("Ann", "LIVES_IN", "CET"), ("Ann", "USES", "CET"), ("Ann", "ASSIGNED_TO", "CET")},
    ),
    ("We moved from Leeds to York last year.", "Ann", {("Ann", "LIVES_IN", "York")}, set()),  # control
    # No employer: accounts listed after a comma, a duty owned, the writer as a customer's contact.
    (
        "Welcome Noor! She'll be covering our accounts in Spain, starting with Halden Steel and Orrin Foods.",
        "Ann",
        set(),
        {("Noor", "WORKS_AT", "Halden Steel"), ("Noor", "WORKS_AT", "Orrin Foods")},
    ),
    ("I'm starting with Corvane next week.", "Ann", {("Ann", "WORKS_AT", "Corvane")}, set()),  # control
    (
        "Pia will be the owner of Larkin and Tove tickets from now on.",
        "Ann",
        set(),
        {("Pia", "WORKS_AT", "Larkin"), ("Pia", "HAS_ROLE", "owner")},
    ),
    (
        "Handover done. I'm now the owner of the billing module and the on-call contact for Marlow Dairy.",
        "Ann",
        set(),
        {("Ann", "WORKS_AT", "Marlow Dairy")},
    ),
    # An event signed up for is planned; one only thought of is not.
    (
        "signed up to run the Leeds half marathon if my knee holds up",
        "Ann",
        {("Ann", "PLANS_TO", "Leeds half marathon")},
        {("Ann", "ATTENDED", "Leeds half marathon")},
    ),
    (
        "thinking about running the Oslo marathon next year",
        "Ann",
        set(),
        {("Ann", "PLANS_TO", "Oslo marathon")},
    ),
    # Chinese: a weekday and a count of users are no amounts.
    ("瑞丰物流说预算解冻了，下周三来公司看演示。", "王芳", set(), {("瑞丰物流", "BUDGET", 3)}),
    (
        "瑞丰物流的报价发了：120用户，每用户每年800元。",
        "王芳",
        {("瑞丰物流", "PRICE", 800)},
        {("瑞丰物流", "PRICE", 120)},
    ),
    # Chinese: our handlers and our replaced project manager work for us, not the customer.
    (
        "工单#7781：客户东湖酒店反映空调报故障。已派单给工程师严师傅。",
        "王芳",
        set(),
        {("严师傅", "WORKS_AT", "东湖酒店")},
    ),
    (
        "【工单 #5520】客户：西岭酒店 问题：夜审失败。负责人：运维 胡杨。",
        "王芳",
        set(),
        {("胡杨", "WORKS_AT", "西岭酒店")},
    ),
    ("通知：江南集团项目经理从邵峰换成了梁宇。", "王芳", set(), {("邵峰", "WORKS_AT", "江南集团")}),
    (
        "客户江南集团的项目经理从邵峰换成了梁宇。",
        "王芳",
        {("邵峰", "WORKS_AT", "江南集团")},
        set(),
    ),  # control: theirs
    # Chinese: a doubled given name is a person; a verb alone is no taste, what a step needs no plan.
    (
        "首页改版推迟到下月，陈佳佳休产假了。",
        "王芳",
        {("陈佳佳", "STATUS", "产假")},
        {("王芳", "STATUS", "产假")},
    ),
    (
        "我男朋友是湖南人，爱吃辣，我现在也被他带得爱吃了",
        "王芳",
        set(),
        {("王芳的男朋友", "LIKES", "吃"), ("王芳", "LIKES", "吃")},
    ),
    ("我打算明年去澳洲读研，现在在准备材料了。", "王芳", set(), {("王芳", "PLANS_TO", "材料")}),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_what_readers_76_to_79_judged_wrong_is_not_read(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
