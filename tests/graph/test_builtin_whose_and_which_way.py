"""Facts that point the wrong way or at the wrong holder: a new job read as one left, a break-up as
a couple, a transfer as a departure, a pet's age as its owner's, someone hired by the speaker as
the speaker, and words that only look like the predicate (回到GitLab CI, "owns the fix", "as a
pilot"): sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # Which way a job went.
    ("I started a new job at Stripe last week, as a solutions engineer.", "Tom",
     {("Tom", "WORKS_AT", "Stripe")}, {("Tom", "LEFT_ORGANISATION", "Stripe")}),
    ("I left my marketing job at HubSpot.", "Tom",
     {("Tom", "LEFT_ORGANISATION", "HubSpot")}, {("Tom", "WORKS_AT", "HubSpot")}),
    ("原来的黄总调去深圳分公司了。", "陈静",
     {("黄总", "WORKS_AT", "深圳分公司")}, {("黄总", "LEFT_ORGANISATION", "深圳分公司")}),
    # Whose the fact is.
    ("我家猫叫团子，是只英短，今年五岁了。", "陈晨", {("陈晨", "HAS_PET", "团子")}, {("陈晨", "AGE", 5)}),
    ("我不太喜欢吃辣，但是老公是湖南人。", "黄丽",
     {("黄丽的老公", "COMES_FROM", "湖南")}, {("黄丽", "COMES_FROM", "湖南")}),
    ("I'm not sure we'll keep QuickBooks, my accountant prefers Xero.", "Greg", set(),
     {("Greg", "PREFERS", "Xero")}),
    ("拜访杭州启明教育，校长林海波。对我们的智慧排课很感兴趣，想先试用一个学期。", "孙浩", set(),
     {("孙浩", "INTERESTED_IN", "我们的智慧排课")}),
    ("端午回老家了，我老家在山东潍坊，父母都还在那边。", "刘洋", {("刘洋", "COMES_FROM", "山东")},
     {("刘洋", "LIVES_IN", "山东")}),
    # Words that only look like the predicate.
    ("决定放弃Jenkins，回到GitLab CI。", "马超", set(), {("Jenkins", "VISITED", "GitLab CI")}),
    ("电话回访云帆物流。", "陈静", set(), {("陈静", "VISITED", "云帆物流")}),
    ("春节回了趟成都。", "陈静", {("陈静", "VISITED", "成都")}, set()),
    ("Raj owns the fix; ETA Friday.", "Elena", set(), {("Raj", "OWNS", "fix")}),
    ("Next: move secrets to AWS — owner Kwame, target end of Q3.", "Kwame", set(),
     {("Kwame", "HAS_ROLE", "owner")}),
    ("We'd like to start with 2 of the 6 hotels as a pilot.", "Luis", set(), {("Luis", "HAS_ROLE", "pilot")}),
    ("Customer Tomasz Nowak says the webhook stopped firing around March 10.", "Lucy", set(),
     {("Tomasz Nowak", "STOPPED_USING", "firing around March 10")}),
    ("Hoping to move to Berlin eventually.", "Noor", set(), {("Noor", "PLANS_TO_VISIT", "Berlin")}),
    # A to-do in a daily report is neither a meeting nor a charge; a noun is no person.
    ("明天：跟进测试结果，处理华睿医疗的接口对接。", "小马", set(),
     {("小马", "RESPONSIBLE_FOR", "测试结果")}),
    ("小王负责跟进华睿医疗的项目。", "何静", set(), {("项目", "WORKS_AT", "华睿医疗")}),
    ("华睿医疗的项伟说要延期。", "何静", {("项伟", "WORKS_AT", "华睿医疗")}, set()),
    # A symptom's zero is no price; a contract named only as 合同 holds no date.
    ("工单：美嘉家居吴芳反馈，打印的出库单金额显示为0，只有在Chrome里出现。", "何静", set(),
     {("美嘉家居", "PRICE", 0)}),
    ("工单升级：宁波海晨要求导出全部历史数据后注销账号，合同已于七月底到期。预计九月五号前完成。", "陈静",
     set(),
     {("合同", "DEADLINE", "2024-09-05")}),
    # Who left and who replaces them, in a renewal note; a move out said ahead.
    ("Renewal call with Kestrel Logistics. Their champion, Ben Akers, left the company in January; new point "
     "of contact is Lydia Shaw, ops director.", "Sofia",
     {("Ben Akers", "LEFT_ORGANISATION", None), ("Kestrel Logistics", "CONTACT", "Lydia Shaw")}, set()),
    ("Quick update on Brightwater Health: Susan Park has left for a role at Kaiser. Our new point of contact "
     "is Leo Martinez.", "Anna",
     {("Brightwater Health", "CONTACT", "Leo Martinez")}, {("Kaiser", "CONTACT", "Leo Martinez")}),
    ("Signed the lease on a new apartment in Brooklyn.", "Jamal", {("Jamal", "LIVES_IN", "Brooklyn")}, set()),
    ("We are moving out of Austin next month.", "Jamal", {("Jamal", "LIVES_IN", "Austin")}, set()),
    ("We're moving from Portland to Austin in March.", "Chris", {("Chris", "LIVES_IN", "Austin")},
     {("Chris", "MOVED_FROM", "Portland")}),
    # A newborn announced by name is the speaker's child.
    ("女儿出生了，叫周小满，六斤四两。", "周杰", {("周小满", "CHILD_OF", "周杰")}, set()),
    ("Baby Clara arrived on Friday! 7 lbs 2 oz.", "Tom", {("Clara", "CHILD_OF", "Tom")}, set()),
    # Objects and values cut wrong.
    ("My partner Efua is a pediatrician, she just started at Charité.", "Kwame",
     {("Efua", "WORKS_AT", "Charité")}, {("Efua", "WORKS_AT", "Charit")}),
    ("Dan likes Italian, nothing too fancy.", "Maya",
     {("Dan", "LIKES", "Italian")}, {("Dan", "LIKES", "nothing")}),
    ("I'd like to cancel our subscription effective at the end of this billing cycle.", "Fatima", set(),
     {("Fatima", "CANCELLED", "effective"), ("Fatima", "CANCELLED", "subscription effective")}),
    ("Met Greta Lindqvist from Osterberg AB. They have a 200k SEK budget, want go-live before October 1.",
     "Jamal",
     {("Osterberg AB", "BUDGET", 200000)}, {("Osterberg AB", "BUDGET", 1)}),
    ("云帆物流的周婷升职了，现在是运营副总。", "陈静",
     {("周婷", "HAS_ROLE", "运营副总")}, {("周婷", "HAS_ROLE", "运营")}),
    ("联系人是明德的教导主任冯丽。", "孙浩",
     {("冯丽", "HAS_ROLE", "教导主任")}, {("冯丽", "HAS_ROLE", "主任")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_whose_fact_and_which_way(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_a_break_up_ends_the_couple(extractor: BuiltinExtractor) -> None:
    """我跟男朋友分手了, "My girlfriend and I broke up": the relation is stated ended (negated), so
    arbitration closes a current one instead of adding a live couple."""
    for text, actor in (
        ("我跟男朋友分手了，唉。", "林晓"),
        ("My girlfriend and I broke up last week.", "Tom"),
    ):
        couples = [f for f in extractor.extract_text(text, actor=actor).facts if f.predicate == "PARTNER_OF"]
        assert couples, text
        assert all(f.negated for f in couples), text
    together = extractor.extract_text("我和男朋友去了三亚。", actor="林晓").facts
    assert [f.negated for f in together if f.predicate == "PARTNER_OF"] == [False]


def test_preparing_a_demo_is_no_meeting(extractor: BuiltinExtractor) -> None:
    """日报's "明天：准备演示环境" prepares a demo; 明天下午给客户演示 is one."""
    prepared = extractor.extract_text("日报 3.15\n3. 明天：准备演示环境", actor="何静").facts
    assert [f for f in prepared if f.predicate == "MEETING_AT"] == []
    held = extractor.extract_text("明天下午三点给恒泰建材演示。", actor="何静").facts
    assert [f.predicate for f in held if f.predicate == "MEETING_AT"] == ["MEETING_AT"]


def test_a_move_out_said_ahead_ends_the_home(extractor: BuiltinExtractor) -> None:
    """ "moving out of our Astoria apartment at the end of the month": lived there until then."""
    text = "We closed on the house! Moving out of our Astoria apartment at the end of the month."
    facts = extractor.extract_text(text, actor="Maya", at=datetime(2024, 2, 12, 9, tzinfo=UTC)).facts
    homes = [f for f in facts if f.predicate == "LIVES_IN" and f.object == "Astoria"]
    assert homes and all(f.invalid_at is not None and f.valid_at is None for f in homes)
