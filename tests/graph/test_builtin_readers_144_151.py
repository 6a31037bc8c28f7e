"""The wrong facts the hundred-and-forty-fourth to hundred-and-fifty-first fresh readers judged, read as
classes (sentences written for these tests, never theirs)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A role one wants or plans to take up is not held; a wish to meet is no meeting.
    ("我想转行做产品经理，最近在看书", "王芳", set(), {("王芳", "HAS_ROLE", "产品经理")}),
    ("我打算转行做设计师", "王芳", set(), {("王芳", "HAS_ROLE", "设计师")}),
    ("我去年转行做产品经理了", "王芳", {("王芳", "HAS_ROLE", "产品经理")}, set()),  # a control
    ("跟华康的刘总争取下周见面，聊续约的事", "王芳", set(), {("王芳", "MEETING_AT", "2024-03-18")}),
    ("跟华康的刘总约了下周三见面", "王芳", {("王芳", "MEETING_AT", "2024-03-20")}, set()),  # a control
    # A town left is a move when a move is said, and nothing said alone (a firm may share its name).
    (
        "I'm leaving Leeds next month, moving to Bristol",
        "Tom",
        {("Tom", "MOVED_FROM", "Leeds"), ("Tom", "LIVES_IN", "Bristol")},
        {("Tom", "LEFT_ORGANISATION", "Leeds")},
    ),
    ("Dana is leaving Leeds in March", "Tom", set(), {("Dana", "LEFT_ORGANISATION", "Leeds")}),
    ("I quit my job at Nokia", "Tom", {("Tom", "LEFT_ORGANISATION", "Nokia")}, set()),  # a control
    ("I'm leaving Google next month", "Tom", {("Tom", "LEFT_ORGANISATION", "Google")}, set()),  # a control
    # A range is no one figure.
    ("Budget for the Acme rollout is €20-30k", "Tom", set(), {("Acme rollout", "BUDGET", 20)}),
    ("Budget for the Acme rollout is €20k–30k", "Tom", set(), {("Acme rollout", "BUDGET", 20000)}),
    ("预算20~30万", "王芳", set(), {("王芳", "BUDGET", 20)}),
    ("Budget for the Acme rollout is €20k", "Tom", {("Acme rollout", "BUDGET", 20000)}, set()),  # a control
    ("预算从30万降到20万", "王芳", {("王芳", "BUDGET", 200000)}, set()),  # a control: a change
    # A place shut is no deal closed.
    ("Office closed on Friday for the holiday", "Tom", set(), {("Office", "SIGNED", "Office deal")}),
    ("Shop closed for renovation till Monday", "Tom", set(), {("Shop", "SIGNED", "Shop deal")}),
    (
        "Closed Ravensworth Foods this morning!",
        "Tom",
        {("Ravensworth Foods", "SIGNED", "Ravensworth Foods deal")},
        set(),
    ),  # a control
]

ROUND_148_151: list[Case] = [
    # Someone the writer introduces, or a relative's partner, holds what follows; not the writer, not the kin.
    (
        "我有个表哥在新加坡读博，学的是化学",
        "王芳",
        set(),
        {("王芳", "LIVES_IN", "新加坡"), ("王芳", "STUDIES", "化学")},
    ),
    ("我家豆豆今年六岁，特别喜欢搭乐高", "王芳", set(), {("王芳", "LIKES", "搭乐高")}),
    ("我哥那个女朋友人挺好，在杭州当护士", "王芳", set(), {("王芳的哥哥", "LIVES_IN", "杭州")}),
    ("我姐的老公在华为上班", "王芳", {("王芳的姐姐的老公", "WORKS_AT", "华为")}, set()),  # a control
    # A tool, a ticket or a device holds no money, count or job; a title is no role; a thing's status is no
    # person's.
    ("CRM更新：周先生已确认报名，预付了定金800元", "王芳", set(), {("CRM", "PAID", 800)}),
    ("新的考勤软件我们试了两周，不好用，还是用Excel", "王芳", set(), {("考勤软件", "USES", "Excel")}),
    (
        "巡检记录：一台呼吸机报警，已处理，工单TK-0912-003已关闭",
        "王芳",
        set(),
        {("TK-0912-003", "QUANTITY", 1)},
    ),
    ("德尔格给仁济医院报的麻醉机是每台40万", "王芳", set(), {("麻醉机", "WORKS_AT", "仁济医院")}),
    ("瑞金陈老师调到财务处了，采购那边现在是姓吴的老师负责", "王芳", set(), {("陈老师", "HAS_ROLE", "老师")}),
    ("江主任说明年的招标可能会延期", "王芳", set(), {("江主任", "STATUS", "延期")}),
    (
        "Call with Brightline: Omar says the budget is approved",
        "Tom",
        set(),
        {("Omar", "STATUS", "approved")},
    ),
    ("Mira is approved for the loan.", "Tom", {("Mira", "STATUS", "approved")}, set()),  # a control
    # What a group feels is not the teller's; a firm signed with a vendor is sponsored by no one.
    (
        "Spoke to Dev Patel at Corvel. He says the engineers hate the new VPN.",
        "Tom",
        set(),
        {("Dev Patel", "DISLIKES", "new VPN"), ("Dev Patel", "DISLIKES", "VPN")},
    ),
    (
        "Marlow Foods passed, they just signed with Brex.",
        "Tom",
        set(),
        {("Marlow Foods", "SPONSORED_BY", "Brex")},
    ),
    # Pieces of the sentence are no objects; a plan handed to another or asked about is not the writer's.
    ("合同是6月30日到期，到时候就不续了", "王芳", set(), {("王芳", "STOPPED_USING", "到时候")}),
    ("李一鸣家长说不续了，孩子要准备中考", "王芳", set(), {("李一鸣", "STOPPED_USING", "李一鸣家长说")}),
    (
        "退费申请：学员张子涵，因出国申请退还剩余课时费，已审批。",
        "王芳",
        set(),
        {("王芳", "STUDIES", "员张子涵")},
    ),
    ("王老师的课决定由新来的刘老师接手", "王芳", set(), {("王老师", "PLANS_TO", "由新来的刘老师接手")}),
    ("今天有个家长说想要发票开公司抬头，可以吗？", "王芳", set(), {("王芳", "PLANS_TO", "发票开公司抬头")}),
    ("我辞职了！打算休息半年再说", "王芳", {("王芳", "PLANS_TO", "休息半年再说")}, set()),  # a control
    (
        "让小何这周参加一下消防培训，巡检的事小刘你去对接一下",
        "王芳",
        set(),
        {("王芳", "ATTENDED", "一下消防培训")},
    ),
    ("我爸下个月回老家，住不惯北京", "王芳", set(), {("王芳的爸爸", "LIVES_IN", "北京")}),
    (
        "我不太用CRM手机端 太难用了 客户资料都是晚上在电脑上录的",
        "王芳",
        set(),
        {("王芳", "STOPPED_USING", "CRM")},
    ),
    ("我打算辞职了 想去成都发展 那边有家公司在招人", "王芳", set(), {("王芳", "VISITED", "成都")}),
    # A wish for a tool is no use of it; a customer's own decision meeting or an announcement's deadline is
    # not the writer's; a customer note's budget is the customer's.
    (
        "Priya wants us all to move to Notion in March, dropping Confluence.",
        "Tom",
        set(),
        {("Priya", "STOPPED_USING", "Confluence"), ("Tom", "USES", "Notion")},
    ),
    (
        "We switched to Linear in May, dropping Jira.",
        "Tom",
        {("Tom", "STOPPED_USING", "Jira")},
        set(),
    ),  # a control
    (
        "Ashby: Leo says their CEO is back, decision meeting is March 20.",
        "Tom",
        set(),
        {("Tom", "MEETING_AT", "2024-03-20")},
    ),
    ("Reminder timesheets are due by the 28th.", "Tom", set(), {("Tom", "DEADLINE", "2024-03-28")}),
    ("提醒各位同事：本周五前提交周报", "王芳", set(), {("王芳", "DEADLINE", "2024-03-15")}),
    (
        "CRM note – Kestrel Wholesale: on MercuryGate, contract ends in March. Budget approx $90k/yr.",
        "Tom",
        set(),
        {("Tom", "BUDGET", 90000)},
    ),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES + ROUND_148_151)
def test_readers_144_151(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
