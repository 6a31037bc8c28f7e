"""Whose people are: someone given a role or a department after an organisation was named works
there, a customer's contact said with their department, names jieba cuts into single characters, and
a date something is due by (sentences written for these tests)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Triple, read, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # An organisation joined right after leaving one is the next employer; the one left joins nothing.
    (
        "Alice left Acme and joined Globex.",
        "Kayla",
        {("Alice", "LEFT_ORGANISATION", "Acme"), ("Alice", "WORKS_AT", "Globex")},
        {("Acme", "MEMBER_OF", "Globex"), ("Alice", "MEMBER_OF", "Globex")},
    ),
    (
        "Carol joined Acme last year.",
        "Kayla",
        {("Carol", "MEMBER_OF", "Acme")},
        {("Carol", "WORKS_AT", "Acme")},
    ),
    (
        "Eve left Acme and joined the chess club.",
        "Kayla",
        {("Eve", "LEFT_ORGANISATION", "Acme"), ("Eve", "MEMBER_OF", "chess club")},
        {("Eve", "WORKS_AT", "chess club")},
    ),
    # A name no dictionary knows, then the job taken there: the next employer.
    (
        "我下个月要跳槽去海底捞当运营副总裁了。",
        "李强",
        {("李强", "WORKS_AT", "海底捞"), ("李强", "HAS_ROLE", "运营副总裁")},
        set(),
    ),
    ("她跳去外地上班了。", "李强", set(), {("她", "WORKS_AT", "外地"), ("李强", "WORKS_AT", "外地")}),
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


# ── people at work in English: whom one reports to, what one runs where, a team's contact ──────

ENGLISH: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "Dana Wu heads sales at Orbis and reports to their COO, Nina Park.",
        "Kayla",
        {
            ("Dana Wu", "REPORTS_TO", "Nina Park"),
            ("Dana Wu", "WORKS_AT", "Orbis"),
            ("Nina Park", "HAS_ROLE", "COO"),
        },
        set(),
    ),
    (
        "Update from Tallis Bio: Omar Reyes now reports to their new CFO, Lena Fox.",
        "Kayla",
        {("Omar Reyes", "REPORTS_TO", "Lena Fox"), ("Omar Reyes", "WORKS_AT", "Tallis Bio")},
        set(),
    ),
    ("Carl Ruiz reports to Sarah Hill.", "Kayla", {("Carl Ruiz", "REPORTS_TO", "Sarah Hill")}, set()),
    ("I run the night shift at Costco.", "Kayla", {("Kayla", "WORKS_AT", "Costco")}, set()),
    (
        "New AP contact at Kessel Foods is Rob Yates. Send invoices to him.",
        "Kayla",
        {("Kessel Foods", "CONTACT", "Rob Yates"), ("Rob Yates", "WORKS_AT", "Kessel Foods")},
        set(),
    ),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), ENGLISH, ids=[c[0][:24] for c in ENGLISH])
def test_people_at_work_in_english(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_a_name_after_a_role_and_a_comma_is_no_one_addressed(extractor: BuiltinExtractor) -> None:
    people = {e.name for e in read(extractor, "Ben reports to the CFO, Mia Lake.", "Kayla").entities}
    assert "Mia Lake" in people
    assert not {e.name for e in read(extractor, "Thanks for the help, Mia.", "Kayla").entities}


# ── relatives: their age, birthday, school, and what they gave up or never touch ─────────────

FAMILY: list[tuple[str, str, set[Triple], set[Triple]]] = [
    ("我外公都88岁了，天天还去公园下棋。", "王芳", {("王芳的外公", "AGE", 88)}, set()),
    (
        "我公公下周五过生日，7月12号，今年整六十。",
        "王芳",
        {("王芳的公公", "BIRTHDAY", "07-12"), ("王芳的公公", "AGE", 60)},
        set(),
    ),
    ("我外甥考上了武汉大学法学院。", "王芳", {("王芳的外甥", "STUDIES_AT", "武汉大学")}, set()),
    (
        "我侄子考进了浙江大学计算机系。",
        "王芳",
        {("王芳的侄子", "STUDIES_AT", "浙江大学"), ("王芳的侄子", "STUDIES", "计算机")},
        set(),
    ),
    ("我妈现在广场舞不跳了，麻将也不打了。", "王芳", {("王芳的妈妈", "STOPPED_USING", "麻将")}, set()),
    ("可乐已经两个月没喝了。", "王芳", {("王芳", "STOPPED_USING", "可乐")}, set()),
    ("晚饭还没吃了。", "王芳", set(), {("王芳", "STOPPED_USING", "晚饭还")}),
    ("我老公啥都吃，就是羊肉一口都不碰。", "王芳", {("王芳的老公", "DISLIKES", "羊肉")}, set()),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), FAMILY, ids=[c[0][:24] for c in FAMILY])
def test_relatives_facts(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_a_kinship_is_not_dated_by_its_sentence(extractor: BuiltinExtractor) -> None:
    facts = read(extractor, "我儿子下个月中考，他最近迷上了打篮球。", "王芳").facts
    kin = next(f for f in facts if f.predicate == "CHILD_OF")
    assert (kin.subject, kin.valid_at) == ("王芳的儿子", None)


# ── a move between employers, a short name for an organisation, whom a clause describes ─────

MOVES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "跟大家说下，海峰物流的鲁总上周三正式离职了，跳去京东当仓储总监。",
        "王芳",
        {
            ("鲁总", "LEFT_ORGANISATION", "海峰物流"),
            ("鲁总", "WORKS_AT", "京东"),
            ("鲁总", "HAS_ROLE", "仓储总监"),
        },
        {("鲁总", "WORKS_AT", "海峰物流")},
    ),
    (
        "海峰物流的鲁总离职了。海峰那边以后找他们财务主管丁洁。",
        "王芳",
        {("海峰物流", "CONTACT", "丁洁")},
        set(),
    ),
    (
        "孙昊已经不在华信科技了，听说去了蔚来。",
        "王芳",
        {("孙昊", "WORKS_AT", "蔚来")},
        {("孙昊", "VISITED", "蔚来")},
    ),
    (
        "之前对接我们的星河电子采购经理程总，已经跳槽去海尔了。",
        "王芳",
        {("程总", "WORKS_AT", "海尔")},
        {("王芳", "WORKS_AT", "海尔")},
    ),
    (
        "我的偶像是姚明，小时候就喜欢打篮球。",
        "王芳",
        {("王芳", "LIKES", "打篮球")},
        {("姚明", "LIKES", "打篮球")},
    ),
    (
        "以后对账找会计滕飞，包姐调行政部去了。",
        "王芳",
        {("包姐", "MEMBER_OF", "行政部")},
        {("滕飞", "MEMBER_OF", "行政部")},
    ),
    (
        "远大物流的订单PO-2231：叉车由10台增至15台。",
        "王芳",
        {("PO-2231", "QUANTITY", 15)},
        {("PO-2231", "QUANTITY", 10)},
    ),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), MOVES, ids=[c[0][:24] for c in MOVES])
def test_moves_between_employers(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


# ── customers' people in reports and records ───────────────────────────────────────────────

RECORDS: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "汇报下：暖阳母婴的区域经理傅强说，他们下个月起换我们的收银机。",
        "王芳",
        {("傅强", "WORKS_AT", "暖阳母婴")},
        set(),
    ),
    (
        "①拜访康途国旅，总经理助理宁静说预算5万以内。",
        "王芳",
        {("宁静", "HAS_ROLE", "总经理助理"), ("宁静", "WORKS_AT", "康途国旅"), ("康途国旅", "BUDGET", 50000)},
        set(),
    ),
    ("宏宇机械把单子取消了。对接人还是他们设备部的冀总。", "王芳", {("宏宇机械", "CONTACT", "冀总")}, set()),
    (
        "华创资本的对接人从投资经理丁一鸣换成了合伙人柳青青。",
        "王芳",
        {("华创资本", "CONTACT", "柳青青")},
        set(),
    ),
    (
        "【CRM】客户：远图教育｜联系人：教务副校长 冼志明｜现状：排课一直用Excel",
        "王芳",
        {
            ("远图教育", "CONTACT", "冼志明"),
            ("冼志明", "HAS_ROLE", "教务副校长"),
            ("远图教育", "USES", "Excel"),
        },
        {("冼志明", "USES", "Excel")},
    ),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), RECORDS, ids=[c[0][:24] for c in RECORDS])
def test_customers_people_in_reports_and_records(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


@pytest.mark.parametrize(
    "text",
    [
        "锦程国旅用的泛微OA合同6月底到期，预算8万以内。",
        "Our Zendesk contract expires March 31 and I use Slack every day.",
    ],
)
def test_when_something_ends_dates_no_other_fact(extractor: BuiltinExtractor, text: str) -> None:
    facts = read(extractor, text, "王芳").facts
    dated = [f for f in facts if f.predicate not in ("EXPIRES_ON", "DEADLINE")]
    assert dated, facts
    assert all(f.valid_at is None for f in dated), dated


# ── near misses a reader found in the rules above ─────────────────────────────────────────

NEAR_MISSES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "我小儿子在成都读大学。",
        "王芳",
        {("王芳的小儿子", "CHILD_OF", "王芳")},
        {("王芳", "CHILD_OF", "王芳的小儿子")},
    ),
    ("我外孙刚满五岁。", "王芳", {("王芳的外孙", "AGE", 5)}, set()),
    ("我们市场部的预算砍到60万。", "王芳", {("市场部", "BUDGET", 600000)}, {("王芳", "BUDGET", 600000)}),
    ("和格力开会，我方项目负责人唐宁讲的方案。", "王芳", set(), {("唐宁", "WORKS_AT", "格力")}),
    ("天宇电子说后续对接找他们的项目经理冯涛。", "王芳", {("天宇电子", "CONTACT", "冯涛")}, set()),
    (
        "I'm writing an email to the landlord about the heating.",
        "Ann",
        set(),
        {("Ann", "WORKS_ON", "email to the landlord about the heating")},
    ),
    (
        "I had to take a break from the meeting to pick up my kid.",
        "Ann",
        set(),
        {("Ann", "STOPPED_USING", "meeting to pick up my kid")},
    ),
    (
        "Our sales lead, Dr. Ana Ruiz, joined the Helix Bio call.",
        "Ann",
        set(),
        {("Ana Ruiz", "MEMBER_OF", "Helix Bio")},
    ),
]


@pytest.mark.parametrize(
    ("text", "actor", "wanted", "unwanted"), NEAR_MISSES, ids=[c[0][:24] for c in NEAR_MISSES]
)
def test_near_misses(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


@pytest.mark.parametrize(
    ("text", "dated"), [("我老婆生日是3月8号。", False), ("我和老公去年5月结婚了。", True)]
)
def test_a_marriage_is_dated_only_by_its_beginning(
    extractor: BuiltinExtractor, text: str, dated: bool
) -> None:
    married = next(f for f in read(extractor, text, "王芳").facts if f.predicate == "MARRIED_TO")
    assert (married.valid_at is not None) is dated


def test_a_first_name_and_a_lake_is_a_place(extractor: BuiltinExtractor) -> None:
    kinds = {e.name: e.type for e in read(extractor, "We stayed by Emma Lake in Minnesota.", "Ann").entities}
    assert kinds.get("Emma Lake") != "person"


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        (
            "我女儿下个月高考。她想学医。最近又迷上了弹吉他。",
            ("王芳的女儿", "LIKES", "弹吉他"),
            ("王芳", "LIKES", "弹吉他"),
        ),
        (
            "周会纪要：① 星河科技续约谈下来了；② 孟浩下周起转岗去海外部；③ 内部沟通从企业微信切到飞书。",
            ("王芳", "USES", "飞书"),
            ("孟浩", "USES", "飞书"),
        ),
    ],
)
def test_a_sentence_naming_nobody_goes_on_about_the_relative_before(
    extractor: BuiltinExtractor, text: str, wanted: Triple, unwanted: Triple
) -> None:
    reads(extractor, text, "王芳", {wanted}, {unwanted})


def test_a_visit_just_made_is_a_visit(extractor: BuiltinExtractor) -> None:
    reads(
        extractor,
        "刚拜访完鼎新软件。",
        "王芳",
        {("王芳", "VISITED", "鼎新软件")},
        {("王芳", "PLANS_TO_VISIT", "鼎新软件")},
    )
