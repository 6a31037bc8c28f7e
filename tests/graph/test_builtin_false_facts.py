"""Statements the builtin extractor used to read as facts they do not state: a meeting wished well or
timing a habit, a role stepped down from or held once, who joins "us", a job moved for, a habit's
time said as its object, a dislike that is over, a threat to cancel, a retraction of a past mistake
kept out, kin of kin, what someone else holds before a handover (sentences written for these tests;
each case names the facts that must and must not be read)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from test_builtin_clauses import AT, Case, Triple, read, reads

from engram.ingest.builtin import BuiltinExtractor
from engram.nlp.dates import resolve_dates

CASES: list[Case] = [
    # A meeting wished well is the listener's; "on-call" is no call; 开会前 times a habit.
    ("Best of luck with the pitch meeting tomorrow, you've got this!", "Ann", set(),
     {("Ann", "MEETING_AT", "2024-03-14")}),
    ("Dev is off the on-call rotation; Mia covers on-call from Friday.", "Ann", set(),
     {("Ann", "MEETING_AT", "2024-03-15")}),
    ("Our kickoff with Brightline is on Friday at 2pm.", "Ann",
     {("Ann", "MEETING_AT", "2024-03-15 14:00")}, set()),
    ("每周三下午开会前我都会去楼下买杯拿铁。", "周宁", set(), {("周宁", "MEETING_AT", "2024-03-13")}),
    ("周五下午开会，记得带上报价单。", "周宁", {("周宁", "MEETING_AT", "2024-03-15")}, set()),
    ("周一我们去拜访了华信科技。", "周宁", set(), {("周宁", "MEETING_AT", "2024-03-18")}),
    ("Hope the client call with Globex goes well tomorrow at 10.", "Ann", set(),
     {("Ann", "MEETING_AT", "2024-03-14 10:00")}),
    ("I'm on call tonight, so dinner might be late.", "Ann", set(), {("Ann", "MEETING_AT", "2024-03-13")}),
    ("祝你明天面试顺利！", "周宁", set(), {("周宁", "MEETING_AT", "2024-03-14")}),
    # A role stepped down from is left, not held; one held once (原…组长) is no current role.
    ("Priya is stepping down as Head of Marketing and will advise the CEO.", "Ann",
     {("Priya", "LEFT_ROLE", "Head of Marketing")}, {("Priya", "HAS_ROLE", "Head of Marketing")}),
    ("原测试组组长冯敏已经转岗去运维部了。", "周宁",
     {("冯敏", "LEFT_ROLE", "测试组组长")}, {("冯敏", "HAS_ROLE", "组长")}),
    ("前任店长刘芳上个月走了。", "周宁", set(), {("刘芳", "HAS_ROLE", "店长")}),
    ("我们的销售总监王磊明天到。", "周宁", {("王磊", "HAS_ROLE", "销售总监")}, set()),
    # "Us" and "me" are never the subject: who joins us is the one welcomed.
    ("Say hello to Omar Haddad, who joins us on Monday as Sales Director.", "Ann",
     {("Omar Haddad", "HAS_ROLE", "Sales Director")}, {("Ann", "HAS_ROLE", "Sales Director")}),
    ("Text me on 555-201-7788 if the truck is late.", "Ann", {("Ann", "PHONE", "5552017788")}, set()),
    ("Maria Lopez is joining us as Head of Sales.", "Ann", {("Maria Lopez", "HAS_ROLE", "Head of Sales")},
     {("Ann", "HAS_ROLE", "Head of Sales")}),
    ("原测试组组长冯敏调去了深圳。", "周宁", set(), {("冯敏", "VISITED", "深圳")}),
    # Moving for a job at a company is taking it, said in the past or not.
    ("My cousin moved to Seattle last spring for a job at Zillow.", "Ann",
     {("Ann's cousin", "WORKS_AT", "Zillow")}, {("Ann's cousin", "LEFT_ORGANISATION", "Zillow")}),
    # When a habit happens is not what is given up; a dislike one "used to" have is over.
    ("I don't eat meat on weekdays anymore.", "Ann", set(), {("Ann", "STOPPED_USING", "on weekdays")}),
    ("I used to hate yoga, but now I go three times a week.", "Ann", set(), {("Ann", "DISLIKES", "yoga")}),
    ("I really hate cilantro.", "Ann", {("Ann", "DISLIKES", "cilantro")}, set()),
    # An order that must ship by a day has a deadline, not a launch date.
    ("Confirmed: 12 Lumo label printers at $240 each, ship by April 2.", "Ann",
     {("Lumo", "DEADLINE", "2024-04-02")}, {("Lumo", "LAUNCH_DATE", "2024-04-02")}),
    # A threat to cancel under a condition cancels nothing; a cancellation still does.
    ("再这样延期下去，我们只能取消后面两批货了。", "周宁", set(), {("周宁", "CANCELLED", "后面两批货")}),
    ("我们取消了QM-0930这单。", "周宁", {("周宁", "CANCELLED", "QM-0930")}, set()),
    # "是他们的店长" makes the contact theirs, not the speaker; an in-law's origin is not the brother's.
    ("青禾超市说收银机又卡了。对接人还是他们的店长苏红。", "周宁", set(), {("周宁", "WORKS_AT", "青禾超市")}),
    ("我哥在杭州当医生，嫂子是成都人。", "周宁", set(), {("周宁的哥哥", "COMES_FROM", "成都")}),
    # His or her relative is someone else, not the one "he" or "she" is.
    ("华信的刘经理说他老婆在阿里上班。", "周宁", set(), {("刘经理", "WORKS_AT", "阿里")}),
    ("跟顺丰的张经理吃饭，他说他表弟刚从华为离职了。", "周宁", set(),
     {("张经理", "LEFT_ORGANISATION", "华为")}),
    ("Mike from Acme said his dad retired from Ford.", "Ann", set(), {("Mike", "STATUS", "retired")}),
    ("Had lunch with Carol from Wayne Enterprises; her brother just quit Google.", "Ann", set(),
     {("Ann", "LEFT_ORGANISATION", "Google"), ("Carol", "LEFT_ORGANISATION", "Google")}),
    ("Mike said he moved to Denver.", "Ann", {("Mike", "LIVES_IN", "Denver")}, set()),
    ("Tom Hughes left Acme; he moved to Globex as head of sales.", "Ann",
     {("Tom Hughes", "WORKS_AT", "Globex")}, {("Tom Hughes", "LIVES_IN", "Globex")}),
    ("I moved to Chicago as a kid.", "Ann", {("Ann", "LIVES_IN", "Chicago")}, set()),
    # Who was replaced at a company no longer works there; "our buyer at Initech" is theirs, not ours.
    ("Sarah, who replaced Dave at Globex, is super responsive.", "Ann", set(),
     {("Dave", "WORKS_AT", "Globex")}),
    ("Our buyer at Initech, Peter, got fired.", "Ann", set(), {("Ann", "WORKS_AT", "Initech")}),
    ("我们打算搬到顺义，孩子要在顺义上幼儿园。", "周宁", set(), {("周宁", "STUDIES_AT", "顺义")}),
    # 到过年 is no visit; 时 inside a name (即时设计) ends no object.
    ("老婆说我坚持到过年就给我买新手机。", "周宁", set(), {("周宁", "VISITED", "年")}),
    ("下个月起我们改用即时设计。", "周宁", {("周宁", "USES", "即时设计")}, {("周宁", "USES", "即")}),
    # A decision not to renew is no plan and no product given up by the deciders.
    ("运营组决定到期不续了。", "周宁", set(),
     {("周宁", "PLANS_TO", "到期不续"), ("周宁", "STOPPED_USING", "运营组决定")}),
    # Whom the speaker hands a customer to is a colleague; a region before their role is not the speaker's.
    ("恒安物流这个客户我交给华北区的区域经理孟涛了。", "周宁", {("孟涛", "HAS_ROLE", "区域经理")},
     {("孟涛", "WORKS_AT", "恒安物流"), ("周宁", "RESPONSIBLE_FOR", "华北区")}),
    # A handover's holder: not the agent of another clause (由老王牵头), but the one who held it (她负责的).
    ("数据库由老孙负责，报表交给小董。", "周宁",
     {("小董", "RESPONSIBLE_FOR", "报表")}, {("老孙", "UNASSIGNED_FROM", "报表")}),
    ("以后华信那边由小王对接。", "周宁",
     {("小王", "RESPONSIBLE_FOR", "华信")}, {("小王", "RESPONSIBLE_FOR", "后华信那边")}),
    ("小唐月底调去上海了，她负责的监控平台由我接手。", "周宁",
     {("周宁", "RESPONSIBLE_FOR", "监控平台"), ("小唐", "UNASSIGNED_FROM", "监控平台")},
     {("小唐", "ASSIGNED_TO", "监控平台")}),
    # An order's price, quantity and deadline are the order's, named in an earlier sentence or as "PO 9921".
    ("Order confirmation #SO-70412. Thanks for your order: 30 units of the Ergo Stool at $210 each, "
     "delivered by April 9.", "Ann",
     {("SO-70412", "PRICE", 210), ("SO-70412", "QUANTITY", 30), ("SO-70412", "DEADLINE", "2024-04-09")},
     {("Ergo Stool", "PRICE", 210)}),
    ("Harbor Foods PO 5512 confirmed: 60 Zebra ZT411 at $1,020 each, ship by May 6.", "Ann",
     {("PO 5512", "PRICE", 1020), ("PO 5512", "DEADLINE", "2024-05-06")}, set()),
    ("The Ergo Stool lists at $260 each.", "Ann", {("Ergo Stool", "PRICE", 260)}, set()),
    ("订单确认 PO-31870。贵司订购的六角螺母8000件已确认，单价0.12元。", "周宁",
     {("PO-31870", "PRICE", 0.12)}, set()),
    # Moving to an office is where one works from; signing up for a race is no course.
    ("Dana is moving to their Denver HQ in May.", "Ann", {("Dana", "WORKS_FROM", "Denver HQ")},
     {("Dana", "LIVES_IN", "Denver")}),
    ("Signed up for my first 10k, in Boston on June 2.", "Ann", set(), {("Ann", "STUDIES", "first 10k")}),
    ("I signed up for a pottery class.", "Ann", {("Ann", "STUDIES", "pottery")}, set()),
    # 在用的是X: X is used (not 是X); a machine made to do something is a product, not its maker.
    ("新线索｜蓝海集团｜需求：码头巡检机器人｜竞品：现在在用的是优必选的", "周宁",
     {("蓝海集团", "USES", "优必选")}, {("巡检机器人", "USES", "优必选"), ("蓝海集团", "USES", "是优必选")}),
    # 吃素 is the diet (素 alone names none).
    ("我现在吃素，半年了。", "周宁", {("周宁", "DIET", "吃素")}, {("周宁", "DIET", "素")}),
    ("我改吃素了。", "周宁", {("周宁", "DIET", "吃素")}, {("周宁", "USES", "素")}),
    # A deadline just missed keeps its year (said on 13 March).
    ("合同上写的是3月1日前交齐，到现在还有一半没到。", "周宁", set(), {("周宁", "DEADLINE", "2025-03-01")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_statements_read_as_they_are_meant(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("Maria will step down as CFO at the end of June.", "2024-06"),  # said in March 2024: this June
        ("We plan to open the Lisbon office in September.", "2024-09"),
        ("我们打算6月搬到杭州。", "2024-06"),
        ("I visited Lisbon in September.", "2023-09"),  # the past one, as said
        ("6月搬到杭州了。", "2023-06"),
        ("We will be in Rome in March.", "2024-03"),  # this month is not over
        ("I'm starting at Stripe in February.", "2025-02"),  # the progressive speaks of the future
        ("国庆打算带爸妈去趟西安，票都买好了，10月2号出发。", "2024-10"),  # a day, after 打算
        ("I visited Paris on February 3 and will go back next year.", "2024-02"),  # the future comes after
        ("Our office opens in June 2023, they will say.", "2023-06"),  # a year said stays
        ("Starting in July, I am the team lead for APAC.", "2024-07"),  # a change announced
        ("我从六月开始担任大客户支持组的组长。", "2024-06"),
        ("从二月开始就一直是我在管了。", "2024-02"),  # told in the past
        ("Since June I have been the lead.", "2023-06"),  # "since" looks back
    ],
)
def test_a_month_named_alone_follows_the_tense(text: str, month: str) -> None:
    span = resolve_dates(text, AT)
    assert span is not None and span.start is not None
    assert span.start.strftime("%Y-%m") == month


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        ("I went to Tokyo on December 20th.", "2025-11-20", "2024-12-20"),  # gone: last December
        ("我12月20号去了东京。", "2025-11-20", "2024-12-20"),
        ("I'm flying to Tokyo on December 20th.", "2025-11-20", "2025-12-20"),  # the nearest, ahead
        ("我12月要去日本玩。", "2025-03-12", "2025-12-01"),  # 要 after the month: this December
        ("我6月要去日本玩。", "2025-11-20", "2026-06-01"),
        ("I'm going to Boston on Monday.", "2025-03-12", "2025-03-17"),  # said on a Wednesday
        ("周五去苏州出差。", "2025-03-12", "2025-03-14"),
        ("周五去了苏州。", "2025-03-12", "2025-03-07"),  # done: last Friday
        ("Monday I met with Acme.", "2025-03-12", "2025-03-10"),
        ("孙丽从6月30日起不再负责华东区的客户。", "2024-07-01", "2024-06-30"),  # a start just gone
        ("The portal deadline is end of August.", "2024-05-15", "2024-08-31"),  # a month's edge, like 八月底
        ("Renewal is due by the beginning of May.", "2025-03-12", "2025-05-01"),
        ("The client meeting got pushed to next Wed 3pm.", "2024-03-06", "2024-03-13"),  # said on a Wednesday
        ("从11月起改用即时设计。", "2025-03-12", "2024-11-01"),  # the last November is nearer
        ("从11月起改用即时设计。", "2025-09-12", "2025-11-01"),  # the coming one is nearer
    ],
)
def test_a_date_without_a_year_follows_the_verbs_around_it(text: str, said: str, day: str) -> None:
    span = resolve_dates(text, datetime.fromisoformat(f"{said}T09:30:00+00:00"))
    assert span is not None and span.start is not None
    assert span.start.strftime("%Y-%m-%d") == day


def test_a_month_ahead_in_a_zone_keeps_its_first_day() -> None:
    """In a zone east of UTC a month's first day begins the day before in UTC; a year later too."""
    reference = datetime(2024, 3, 13, 9, 30, tzinfo=UTC).astimezone(ZoneInfo("Asia/Shanghai"))
    span = resolve_dates("我们计划2月搬家。", reference)
    assert span is not None and span.start is not None
    assert span.start.astimezone(reference.tzinfo).strftime("%Y-%m-%d") == "2025-02-01"


def test_a_role_stepped_down_from_is_dated_ahead(extractor: BuiltinExtractor) -> None:
    (left,) = [f for f in read(extractor, "Maria will step down as CFO at the end of June.").facts]
    assert (left.predicate, left.valid_at and left.valid_at.strftime("%Y-%m")) == ("LEFT_ROLE", "2024-06")
