"""The wrong facts the hundred-and-twenty-eighth to hundred-and-thirty-first fresh readers judged, read as
classes (sentences written for these tests, never theirs)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A child started at a primary school is a pupil; whoever has since left works there no more.
    (
        "Noah started at Oakfield Primary on Monday, he already likes his teacher",
        "Ann",
        set(),
        {("Noah", "WORKS_AT", "Oakfield Primary")},
    ),
    ("Noah started at Deloitte on Monday", "Ann", {("Noah", "WORKS_AT", "Deloitte")}, set()),  # a control
    (
        "Tom Ruiz, our contact at Pell Freight, has left the company. New contact is Jo Wade.",
        "Ann",
        {("Pell Freight", "CONTACT", "Jo Wade")},
        {("Tom Ruiz", "WORKS_AT", "Pell Freight")},
    ),
    (
        "Renewal risk: Palisade Insurance went quiet. Their admin, Kevin Park, left the company in March.",
        "Ann",
        set(),
        {("Kevin Park", "WORKS_AT", "Palisade Insurance")},
    ),
    (
        "I now work at Cardinal Health as a data analyst, left the bank in May",
        "Ann",
        {("Ann", "WORKS_AT", "Cardinal Health")},
        set(),
    ),  # a control: another clause's leaving
    # People listed with their roles in brackets each hold theirs; a new holder said after a comma; a sponsor.
    (
        "QBR w/ Wexley Health:\n- attendees: Jonah Peretz (their VP Ops), Aisha Bello, Rafael Ortiz",
        "Ann",
        {("Jonah Peretz", "HAS_ROLE", "VP Ops"), ("Jonah Peretz", "WORKS_AT", "Wexley Health")},
        set(),
    ),
    (
        "Fairhaven Schools contact changed: Mr. Dunn retired, new IT director is Grace Oyelaran.",
        "Ann",
        {("Grace Oyelaran", "HAS_ROLE", "IT director"), ("Grace Oyelaran", "WORKS_AT", "Fairhaven Schools")},
        set(),
    ),
    (
        "Call w/ Halden Foods today. Procurement contact is Gary Linton.",
        "Ann",
        {("Halden Foods", "CONTACT", "Gary Linton")},
        set(),
    ),
    # A town one's family comes over from is left by no one; a degree is no school.
    (
        "My sister Dana is coming over from Lisbon in May",
        "Ann",
        set(),
        {("Dana", "LEFT_ORGANISATION", "Lisbon")},
    ),
    ("I came over from Deloitte in August", "Ann", {("Ann", "LEFT_ORGANISATION", "Deloitte")}, set()),
    (
        "Got into the MSc in Ocean Science at Bangor!! Starting in September",
        "Ann",
        set(),
        {("Ann", "STUDIES_AT", "MSc")},
    ),
    # A saving is no price; an order form sent is no order; a title is no name.
    (
        "We're moving logging to Loki in March, saves us about $30k/yr.",
        "Ann",
        set(),
        {("Loki", "PRICE", 30000)},
    ),
    (
        "As discussed, I've attached the order form for 25 seats of Ledgerly.",
        "Ann",
        set(),
        {("Ann", "ORDERED", "Ledgerly")},
    ),
    ("my supervisor is Prof. de Wit", "Ann", set(), {("Ann", "REPORTS_TO", "Prof")}),
    ("my supervisor is Dr. Helen Ash", "Ann", {("Ann", "REPORTS_TO", "Helen Ash")}, set()),
    # A course's kind is not what is studied; a business partner is no partner.
    (
        "Started a part-time course in interior design at Hallam College",
        "Ann",
        {("Ann", "STUDIES", "interior design")},
        {("Ann", "STUDIES", "part-time")},
    ),
    (
        "Lena Park (our partner at Fenwick Integrators) closed two referrals for us.",
        "Ann",
        set(),
        {("Ann's partner", "PARTNER_OF", "Ann")},
    ),
    # 家在X with a trip home is where one comes from; 在X长大 too.
    (
        "我家在昆明，不过已经好几年没回去过年了",
        "王芳",
        {("王芳", "COMES_FROM", "昆明")},
        {("王芳", "LIVES_IN", "昆明")},
    ),
    (
        "清明回老家扫墓，我们家在福建莆田",
        "王芳",
        {("王芳", "COMES_FROM", "福建")},
        {("王芳", "LIVES_IN", "福建")},
    ),
    ("我家在杭州西湖边，周末欢迎来玩", "王芳", {("王芳", "LIVES_IN", "杭州")}, set()),  # a control
    (
        "我小时候在哈尔滨长大，后来跟爸妈去了广州",
        "王芳",
        {("王芳", "COMES_FROM", "哈尔滨")},
        {("王芳", "VISITED", "广州")},
    ),
    # A resolution is no habit yet; a home bought is no shop's custom; taking a region back is no trip.
    (
        "新年计划：每个月读两本书，每周游泳两次",
        "王芳",
        set(),
        {("王芳", "LIKES", "游泳"), ("王芳", "STUDIES", "两本书")},
    ),
    ("我在梅溪湖买了套两居，月底交房", "王芳", set(), {("王芳", "CUSTOMER_OF", "溪湖")}),
    ("我提前回来上班了，明天开始接回华北大区", "王芳", set(), {("王芳", "PLANS_TO_VISIT", "华北")}),
    # Who takes over is no object taken on; a title is no duty; a leaning stops nothing; a wish sets no
    # meeting.
    (
        "泰达物业那边石磊已经离职了，新接手的是袁芳",
        "王芳",
        set(),
        {("石磊", "RESPONSIBLE_FOR", "是袁芳")},
    ),
    (
        "评审我们这边参会的有我、运维主管苗青松和安全主管柯文。",
        "王芳",
        set(),
        {("王芳", "RESPONSIBLE_FOR", "苗青松和安全主管柯文")},
    ),
    ("我现在主管华东区的销售", "王芳", {("王芳", "RESPONSIBLE_FOR", "华东区")}, set()),  # a control
    ("Jira的license要不要续？我倾向不续了", "王芳", set(), {("王芳", "STOPPED_USING", "我倾向")}),
    ("希望下月初能安排一次面谈", "王芳", set(), {("王芳", "MEETING_AT", "2024-04-01")}),
    # A generic noun is no person; a contact word is no firm's name; a head replaced holds the post no more.
    ("客户反馈：北京智联教育的管理员说短信验证码收不到", "王芳", set(), {("管理员", "WORKS_AT", "智联教育")}),
    (
        "CRM记录：天津泰达物业，联系人物业经理石磊，手机13602223344。",
        "王芳",
        set(),
        {("石磊", "WORKS_AT", "联系人物业")},
    ),
    ("星河教育王校长换了，新校长姓秦", "王芳", set(), {("王校长", "WORKS_AT", "星河教育")}),
    ("星河教育王校长下周来参观", "王芳", {("王校长", "WORKS_AT", "星河教育")}, set()),  # a control
    # A plan's name (喵星计划) that got something is no plan.
    ("喵星计划拿到天使轮了，300万", "王芳", set(), {("王芳", "PLANS_TO", "拿到天使轮")}),
    # Handed over in more shapes: the thing, not when or its side.
    (
        "运维这边的活交接给了阮斌",
        "王芳",
        {("阮斌", "RESPONSIBLE_FOR", "运维")},
        set(),
    ),
    (
        "我不负责华中区了，从6月起华中区由魏子豪负责",
        "王芳",
        {("魏子豪", "RESPONSIBLE_FOR", "华中区")},
        {("魏子豪", "RESPONSIBLE_FOR", "从6月起华中区")},
    ),
    (
        "市场部的小刘休产假，她负责的公众号暂时由我来运营",
        "王芳",
        {("小刘", "RESPONSIBLE_FOR", "公众号")},
        {("小刘", "RESPONSIBLE_FOR", "公众号暂时")},
    ),
    (
        "我下个月起不带华南区了，华南这边交给刘畅负责",
        "王芳",
        {("刘畅", "RESPONSIBLE_FOR", "华南")},
        {("刘畅", "RESPONSIBLE_FOR", "华南这边")},
    ),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_readers_128_131(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
