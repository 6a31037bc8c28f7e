"""The fourteenth to sixteenth fresh readers' false readings, fixed as classes (sentences written for
these tests, never theirs)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from test_builtin_clauses import Case, Triple, read, reads

from engram.ingest.builtin import BuiltinExtractor
from engram.nlp.dates import date_facts

NOT_THE_SPEAKERS: list[tuple[str, str]] = [
    # A meeting's minutes and a team announcement: their deadlines and budgets are the meeting's, the
    # team's (a meeting there is one the writer attends).
    ("产品评审会纪要 3/2\n1、改版预算80万，分两期\n2、4月15日前出交互稿", "高远"),
    ("Meeting notes\n- Budget for the pilot is $40k\n- Security review due by April 3", "Ruth"),
    ("各位同事：\n本月考勤确认的截止日期是5月31日，谢谢。", "高远"),
    ("Hi all, reminder: timesheets are due by Friday.", "Ruth"),
    # Said by others in the clause, or asked of all before it.
    ("催过了，对方说下周三之前给。", "高远"),
    ("春季团建定在4月，请各部门报名，截止3月20日。", "高远"),
    ("Sven said the board wants more time. They meet on the 14th.", "Ruth"),
    ("大家注意，从下周起周报改成周五下午5点前交。", "高远"),
    ("抱歉，快递那边改成了今天下午5点前上门。", "高远"),
    ("Kickoff notes\n- Budget for phase one is $60k\n- Security review due by June 24", "Ruth"),
    # A stand-up's "yesterday" and a review asked for are no meetings.
    ("standup: yesterday wrapped up the export PR. today on-call.", "Ruth"),
    ("Mocks are in Figma. Raj please review by Thursday.", "Ruth"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor"), NOT_THE_SPEAKERS, ids=[c[0][:30] for c in NOT_THE_SPEAKERS])
def test_a_date_or_budget_nobody_holds_is_not_the_speakers(
    extractor: BuiltinExtractor, text: str, actor: str
) -> None:
    facts = read(extractor, text, actor=actor).facts
    assert not [
        f for f in facts if f.subject == actor and f.predicate in ("DEADLINE", "BUDGET", "MEETING_AT")
    ]


SPEAKERS_OWN: list[tuple[str, str, str]] = [
    ("周会纪要\n- 我周五前交测试报告", "高远", "DEADLINE"),
    ("My deadline is Friday, they meet on the 14th.", "Ruth", "DEADLINE"),
    ("我的截止日期是周五，他们说周四之前能到。", "高远", "DEADLINE"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "predicate"), SPEAKERS_OWN, ids=[c[0][:30] for c in SPEAKERS_OWN])
def test_a_first_person_keeps_the_date_the_speakers(
    extractor: BuiltinExtractor, text: str, actor: str, predicate: str
) -> None:
    facts = read(extractor, text, actor=actor).facts
    assert [f for f in facts if f.subject == actor and f.predicate == predicate], facts


CASES: list[Case] = [
    # Where one goes after changing jobs works there; no visit.
    ("我哥换了工作，去了中海油，说是离家近。", "程远", {("程远的哥哥", "WORKS_AT", "中海油")},
     {("程远的哥哥", "VISITED", "中海油")}),
    # Leave, a new home, a wedding: no place one works from; working from home still is.
    ("孩子感冒了，这周我请假在家。", "程远", set(), {("程远", "WORKS_FROM", "家")}),
    ("我们月底搬家，新房子在望京科技园区。", "程远", set(), {("程远", "WORKS_FROM", "望京科技园区")}),
    ("喜酒定在五一，在绍兴老家。", "程远", set(), {("程远", "WORKS_FROM", "绍兴老家")}),
    ("这周我都在家办公。", "程远", {("程远", "WORKS_FROM", "家")}, set()),
    # A country given up, a verb after 不用, a tool not used: no tool stopped.
    ("签证太麻烦，不去韩国了，改去泰国。", "程远", set(), {("程远", "STOPPED_USING", "韩国")}),
    ("有了电梯，五楼不用爬了。", "程远", set(), {("程远", "STOPPED_USING", "爬")}),
    ("这次用的是消息队列，没用Redis。", "程远", set(), {("程远", "STOPPED_USING", "Redis")}),
    ("我们不用Redis了，改用Kafka。", "程远", {("程远", "STOPPED_USING", "Redis")}, set()),
    # Considered, wished: not yet used or kept.
    ("缓存还不够快，考虑用Redis。", "程远", set(), {("程远", "USES", "Redis")}),
    ("想养一只猫，但房东不让。", "程远", set(), {("程远", "HAS_PET", "猫")}),
    ("我养了一只猫。", "程远", {("程远", "HAS_PET", "猫")}, set()),
    # An event still to come is a plan, even when its time is said in an earlier clause.
    ("我下周二到周四去杭州出差，参加云栖大会。", "程远", {("程远", "PLANS_TO", "云栖大会")},
     {("程远", "ATTENDED", "云栖大会")}),
    ("上周我参加了云栖大会。", "程远", {("程远", "ATTENDED", "云栖大会")}, set()),
    # A transfer or a degree is no visit.
    ("我下个月要调岗到武汉分公司。", "程远", set(), {("程远", "PLANS_TO_VISIT", "武汉分公司")}),
    ("我打算去读EMBA。", "程远", set(), {("程远", "PLANS_TO_VISIT", "EMBA")}),
    # Who decided is no role; what a budget was overrun by is no budget; 专业 is no subject.
    ("听说最后是CFO拍板的。", "程远", set(), {("程远", "HAS_ROLE", "CFO")}),
    ("程远是CFO。", "王磊", {("程远", "HAS_ROLE", "CFO")}, set()),
    ("婚礼办完了，比预算超了三万。", "程远", set(), {("程远", "BUDGET", 30000)}),
    ("儿子考上了浙大的研究生，经济学专业。", "程远", set(), {("程远的儿子", "STUDIES", "专业")}),
    # English. A first name outside the top of the English lists is still a person's.
    ("Quentin Marsh is leaving Fabrikam to join Contoso Group as CFO.", "Ann",
     {("Quentin Marsh", "WORKS_AT", "Contoso Group"), ("Quentin Marsh", "HAS_ROLE", "CFO")}, set()),
    # A model number after a brand that is also a name is no person; a support desk is its firm's.
    ("Thanks for the photos.\n\nOscar Lind\nAurelio Appliances Support", "Oscar Lind",
     {("Oscar Lind", "WORKS_AT", "Aurelio Appliances Support")}, set()),
    # An offer accepted is the employer to be; joined (in May) as a role is the employer.
    ("I've accepted an offer from Lumio Labs, starting in May.", "Ann", {("Ann", "WORKS_AT", "Lumio Labs")},
     set()),
    ("I accepted Brightwave's offer!", "Ann", {("Ann", "WORKS_AT", "Brightwave")}, set()),
    ("We took the offer from Acme Capital for the building.", "Ann", set(),
     {("Ann", "WORKS_AT", "Acme Capital")}),
    ("Jon joined Acme in May as head of sales.", "Ann", {("Jon", "WORKS_AT", "Acme")}, set()),
    # English. A signature's title line is no employer.
    ("See you there.\n\nMarta Sousa\nChief of Staff", "Marta Sousa",
     {("Marta Sousa", "HAS_ROLE", "Chief of Staff")}, {("Marta Sousa", "WORKS_AT", "Chief of Staff")}),
    ("Happy to help.\n\nBest,\nOwen Hale\nProfessor of Soil Science", "Owen Hale",
     {("Owen Hale", "HAS_ROLE", "Professor of Soil Science")},
     {("Owen Hale", "WORKS_AT", "Professor of Soil Science")}),
    ("Confirmed.\n\nRegards,\nIda Berg\nConference Chair", "Ida Berg",
     {("Ida Berg", "HAS_ROLE", "Conference Chair")}, {("Ida Berg", "WORKS_AT", "Conference Chair")}),
    # Whose thing is taken over is no responsibility; a possession is no task.
    ("Nadia is taking over Omar's on-call shifts.", "Ann", set(), {("Nadia", "RESPONSIBLE_FOR", "Omar's")}),
    ("I own a blue Vespa.", "Ann", {("Ann", "OWNS", "blue Vespa")},
     {("Ann", "RESPONSIBLE_FOR", "blue Vespa")}),
    ("Kim will own the deal going forward.", "Ann", set(), {("Kim", "OWNS", "deal going forward")}),
    # A pregnancy said as news; a delivery expected is none.
    ("My sister Nora is pregnant, due in May!", "Ann", {("Nora", "STATUS", "pregnant")}, set()),
    ("We are expecting a delivery tomorrow.", "Ann", set(), {("Ann", "STATUS", "expecting")}),
    # A team is no employer.
    ("I work at the Search team now.", "Ann", set(), {("Ann", "WORKS_AT", "Search")}),
    ("I work at Globex now.", "Ann", {("Ann", "WORKS_AT", "Globex")}, set()),
    # A move from one firm to another is a job, no home.
    ("Lena Fox moved from Harbor Insurance to Pell Mutual.", "Ann", set(),
     {("Lena Fox", "LIVES_IN", "Pell Mutual")}),
    ("Lena Fox moved from Boston to Denver.", "Ann", {("Lena Fox", "LIVES_IN", "Denver")}, set()),
    # A role before a name is that person's; "joined us as" is the joiner's.
    ("FYI, our CFO Dara Quinn is retiring in May.", "Ann", {("Dara Quinn", "HAS_ROLE", "CFO")},
     {("Ann", "HAS_ROLE", "CFO")}),
    ("Glad to say that Ravi Shah has joined us as Head of Platform.", "Ann",
     {("Ravi Shah", "HAS_ROLE", "Head of Platform")}, {("Ann", "HAS_ROLE", "Head of Platform")}),
    # A verb before a deal's kind is no part of its name; a request to cancel cancels nothing.
    ("Mia at Lumen confirmed renewal at the same price ($12k).", "Ann", {("Lumen renewal", "PRICE", 12000)},
     {("Lumen confirmed renewal", "PRICE", 12000)}),
    ("Hi,\n\nI would like to cancel my membership.\n\nThanks,\nAnn", "Ann", set(),
     {("Ann", "CANCELLED", "membership")}),
    ("Acme cancelled their subscription.", "Ann", {("Acme", "CANCELLED", "subscription")}, set()),
    # A team moved to what no gazetteer knows (a tool); a thing that died; stuff owned is a task.
    ("I think we moved to Sentry last spring.", "Ann", set(), {("Ann", "LIVES_IN", "Sentry")}),
    ("We moved to Denver last year.", "Ann", {("Ann", "LIVES_IN", "Denver")}, set()),
    ("My phone died this morning.", "Ann", set(), {("Ann", "STATUS", "died")}),
    ("Rosa owns the billing stuff while I'm out.", "Ann", {("Rosa", "RESPONSIBLE_FOR", "billing stuff")},
     set()),
    # A signature's name with its title, a partner's title; outside counsel; a role before a name.
    ("Thanks.\n\nBest,\nLeah\n\nDr. Leah Moss\nHead of Research\nKestrel Labs", "Leah Moss",
     {("Leah Moss", "WORKS_AT", "Kestrel Labs")}, {("Leah Moss", "WORKS_AT", "Dr. Leah Moss")}),
    ("Thanks.\n\nOmar Reyes\nPeople Business Partner", "Omar Reyes",
     {("Omar Reyes", "HAS_ROLE", "People Business Partner")},
     {("Omar Reyes", "WORKS_AT", "People Business Partner")}),
    ("I'm outside counsel for Brightline Foods on this deal.", "Ann", set(),
     {("Ann", "WORKS_AT", "Brightline Foods")}),
    ("Won it! Tomek is champion, signer is their CEO Piotr Nowak.", "Ann",
     {("Piotr Nowak", "HAS_ROLE", "CEO")}, {("Tomek", "HAS_ROLE", "CEO")}),
    # A legal form after a comma is no company; a note's meeting field is a meeting.
    ("Talk soon.\n\nBest regards,\nRui Costa\nSales Director\nMarlin Foods, Lda.", "Rui Costa",
     {("Rui Costa", "WORKS_AT", "Marlin Foods")}, {("Rui Costa", "WORKS_AT", "Lda.")}),
    ("Next meeting: April 30.", "Ann", {("Ann", "MEETING_AT", "2024-04-30")}, set()),
    # Moving into a role, looking into a bug: no taste.
    ("I'm moving into a product role in June.", "Ann", set(), {("Ann", "LIKES", "product role")}),
    ("I'm really into pottery.", "Ann", {("Ann", "LIKES", "pottery")}, set()),
    # Minutes and announcements: what they say with no subject is the meeting's or the team's.
    ("复盘会纪要\n- 今年取消末位淘汰\n- 校招计划30人", "高远", set(),
     {("高远", "CANCELLED", "末位淘汰"), ("高远", "PLANS_TO", "30人")}),
    ("各位同事：\n每个小组需要准备一个节目。", "高远", set(), {("高远", "PLANS_TO", "节目")}),
    ("各位好：\n下周一起报销统一走新系统。\n\n蔡文\n行政部\n手机 139 1234 5678", "蔡文",
     {("蔡文", "PHONE", "13912345678")}, set()),
    # A time moved to is no place; a fault fixed is no fault; a role left is no role.
    ("我们打算提前到今年Q3做试点。", "高远", set(), {("高远", "PLANS_TO_VISIT", "Q3")}),
    ("iOS闪退修了，已经发版。", "高远", set(), {("iOS", "HAS_ISSUE", "闪退修了")}),
    ("安卓一直闪退。", "高远", {("安卓", "HAS_ISSUE", "闪退")}, set()),
    ("销售部经理孙平已于5月8日离职，工作由周宁代管。", "高远", set(), {("孙平", "HAS_ROLE", "销售部经理")}),
    ("销售部经理孙平下个月退休。", "高远", {("孙平", "HAS_ROLE", "销售部经理")}, set()),
    # Minutes with the meeting in brackets, or said before a colon; a tool a meeting switches to is its
    # writer's organisation's; a meeting it sets is one its writer attends; a stand-up is its writer's.
    ("会议纪要（3月2日 管理层例会）\n1. 决定暂缓杭州分公司的筹建。", "高远", set(),
     {("高远", "PLANS_TO", "暂缓杭州分公司的筹建")}),
    ("周会纪要：内部沟通从钉钉切到飞书。", "高远", {("高远", "USES", "飞书")}, set()),
    ("周会纪要：\n1. 下次周会改到周四上午。", "高远", {("高远", "MEETING_AT", "2024-03-14")}, set()),
    ("站会\n- 下周去广州出差", "高远", {("高远", "PLANS_TO_VISIT", "广州")}, set()),
    # The brand jieba cuts off before a company's trade is the company's name; a city or a move is not.
    ("今天拜访了恒拓精密机械的采购经理刘振华。", "高远", {("刘振华", "WORKS_AT", "恒拓精密机械")},
     {("刘振华", "WORKS_AT", "精密机械")}),
    ("我现在在衡信会计师事务所做审计。", "高远", {("高远", "WORKS_AT", "衡信会计师事务所")},
     {("高远", "WORKS_AT", "会计师事务所")}),
    ("黄磊下月调去研发部。", "高远", {("黄磊", "MEMBER_OF", "研发部")},
     {("黄磊", "MEMBER_OF", "调去研发部")}),
    # A count of time, a share or the decimals of another number is no amount.
    ("我们今年没有预算，明年一季度再说。", "高远", set(), {("高远", "BUDGET", 1)}),
    ("星云软件续费一年报价为9.6万元。", "高远", {("星云软件续费", "PRICE", 96000)},
     {("星云软件续费", "PRICE", 1)}),
    ("我已经付了三晚的房费共1800元。", "高远", {("高远", "PAID", 1800)}, {("高远", "PAID", 3)}),
    ("星云软件的单价从0.28元调整为0.31元。", "高远", set(), {("星云软件", "PRICE", 28)}),
    # Where a firm's stores are is no one's home.
    ("我们一共9家门店，其中6家在苏州，3家在无锡。", "高远", set(), {("高远", "LIVES_IN", "苏州")}),
    ("我住在苏州。", "高远", {("高远", "LIVES_IN", "苏州")}, set()),
    # A home left is no employer; no need to resend is no tool stopped; your order is not mine.
    ("我不在中关村住了，下周搬到亦庄。", "高远", {("高远", "MOVED_FROM", "中关村")},
     {("高远", "LEFT_ORGANISATION", "中关村")}),
    ("算了不用重发了，直接退款吧。", "高远", set(), {("高远", "STOPPED_USING", "重发")}),
    ("周报以后不用发邮件了，统一在飞书里填。", "高远", {("高远", "STOPPED_USING", "发邮件")}, set()),
    ("关于贵司订购的500套工牌，样品已寄出。", "高远", set(), {("高远", "ORDERED", "工牌")}),
    # 跟进中 is under way, no responsibility.
    ("本周签约：知屿教育\n跟进中：沛然生物、青峦茶业", "高远", set(), {("高远", "RESPONSIBLE_FOR", "中")}),
    # A state of health said as news, dated by its own words.
    ("我姐怀孕了，预产期是明年5月。", "高远", {("高远的姐姐", "STATUS", "怀孕")}, set()),
    ("我爸住院了，在市一院。", "高远", {("高远的爸爸", "STATUS", "住院")}, set()),
    ("我们还没怀上。", "高远", set(), {("高远", "STATUS", "怀上")}),
    # A registered name with its region in brackets is one company.
    ("拜访了晨光乳业（南京）有限公司，对接人是采购部的葛兰。", "高远",
     {("葛兰", "WORKS_AT", "晨光乳业（南京）有限公司")}, {("葛兰", "WORKS_AT", "有限公司")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_fourteenth_to_sixteenth_readers_classes(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


@pytest.mark.parametrize(
    ("text", "said_on", "valid_at"),
    [
        ("我们五月中旬搬到滨江。", datetime(2024, 4, 20, tzinfo=UTC), datetime(2024, 5, 1, tzinfo=UTC)),
        ("我们3月份搬到杭州。", datetime(2025, 1, 7, tzinfo=UTC), datetime(2025, 3, 1, tzinfo=UTC)),
        ("我们五月搬到了滨江。", datetime(2024, 4, 20, tzinfo=UTC), datetime(2023, 5, 1, tzinfo=UTC)),
        ("我们3月份搬到杭州。", datetime(2024, 5, 10, tzinfo=UTC), datetime(2024, 3, 1, tzinfo=UTC)),
    ],
)
def test_a_chinese_month_said_alone_is_the_nearest_unless_told_as_past(
    extractor: BuiltinExtractor, text: str, said_on: datetime, valid_at: datetime
) -> None:
    result = date_facts(extractor.extract_text(text, actor="高远", at=said_on), said_on, fallback_text=text)
    (moved,) = [f for f in result.facts if f.predicate == "LIVES_IN"]
    assert moved.valid_at == valid_at
