"""Whose people are: someone given a role or a department after an organisation was named works
there, a customer's contact said with their department, names jieba cuts into single characters, and
a date something is due by (sentences written for these tests)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Triple, read, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # A role or a department after an organisation was named: of that organisation (inferred) …
    (
        "上午拜访了恒源电力，信息部主任孟凡说机房改造今年一定要做。",
        "王芳",
        {("孟凡", "WORKS_AT", "恒源电力"), ("孟凡", "HAS_ROLE", "主任")},
        set(),
    ),
    ("星光幼教把订单退了，园长助理韩雪说经费砍了。", "王芳", {("韩雪", "WORKS_AT", "星光幼教")}, set()),
    (
        "CRM：远山律所目前用的泛微OA。行政主管柏琳说明年想换钉钉。",
        "王芳",
        {("柏琳", "WORKS_AT", "远山律所")},
        set(),
    ),
    # … unless the role is ours, or the person is changing jobs (where they worked is said apart).
    ("跟华为开完会，我们的技术总监王磊说方案要改。", "王芳", set(), {("王磊", "WORKS_AT", "华为")}),
    ("远东置业的合伙人吴越下个月跳槽去万科。", "王芳", set(), {("吴越", "WORKS_AT", "远东置业")}),
    (
        "周会纪要：① 青禾游戏续约谈下来了；② 邹凯下周起转岗去海外事业部。",
        "王芳",
        set(),
        {("邹凯", "WORKS_AT", "青禾游戏")},
    ),
    (
        "Visited Brightwater Labs today. Our solutions lead, Dr. Ana Ruiz, joined the call.",
        "Kayla",
        set(),
        {("Ana Ruiz", "WORKS_AT", "Brightwater Labs")},
    ),
    # A customer's contact, said with their department (他们工程部的, 财务部的, 总经办的).
    (
        "汇川物流对接人换成财务部的鲍蕾了。",
        "王芳",
        {("汇川物流", "CONTACT", "鲍蕾"), ("鲍蕾", "WORKS_AT", "汇川物流"), ("鲍蕾", "MEMBER_OF", "财务部")},
        set(),
    ),
    (
        "嘉林药业的报价发过去了，对接的是他们采购部的潘经理，说周五前回复。",
        "王芳",
        {("嘉林药业", "CONTACT", "潘经理"), ("潘经理", "WORKS_AT", "嘉林药业")},
        {("采购部", "DEADLINE", "2024-03-15")},
    ),
    (
        "瑞丰食品的决策人是总经办的邢主任。",
        "王芳",
        {("瑞丰食品", "CONTACT", "邢主任")},
        {("瑞丰食品", "CONTACT", "总经办")},
    ),
    # A department named for someone earlier in the message is not what a later budget is about.
    (
        "跟进下：澄海生物对接人换了，现在是采购部的贝宁。她说离心机月底前定，预算二十来万。",
        "王芳",
        {("澄海生物", "BUDGET", 200000)},
        {("采购部", "BUDGET", 200000)},
    ),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:24] for c in CASES])
def test_whose_people_are(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("天合光伏的合同下周签。", "天合光伏", "organisation"),
        ("安和酒店的报价发过去了。", "安和酒店", "organisation"),
        ("老付，安和酒店客房网络项目的报价发过去了，按每间房一年360算。", "安和酒店客房网络项目", "project"),
    ],
)
def test_a_name_cut_into_single_characters(
    extractor: BuiltinExtractor, text: str, name: str, kind: str
) -> None:
    entities = {(e.name, e.type) for e in read(extractor, text, "王芳").entities}
    assert (name, kind) in entities, entities


def test_what_is_due_by_a_date_does_not_date_the_clause_before(extractor: BuiltinExtractor) -> None:
    result = read(extractor, "安和酒店对接的是庄经理，月底前给答复。", "王芳")
    contact = next(f for f in result.facts if f.predicate == "CONTACT")
    deadline = next(f for f in result.facts if f.predicate == "DEADLINE")
    assert (contact.object, contact.valid_at) == ("庄经理", None)
    assert str(deadline.value) == "2024-03-31"


def test_a_time_ago_still_dates_the_clause_after(extractor: BuiltinExtractor) -> None:
    facts = read(extractor, "两周前，我搬到了上海。", "王芳").facts
    moved = next(f for f in facts if f.predicate == "LIVES_IN")
    assert moved.valid_at is not None and moved.valid_at.date().isoformat() == "2024-02-26"  # that week
