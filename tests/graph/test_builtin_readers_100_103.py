"""The wrong facts the hundredth to hundred-and-third fresh readers judged, read as classes (sentences
written for these tests, never theirs)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A capitalised verb opening a chat line names no one; a trip called off is no plan.
    (
        "Got engaged to Ines on the beach 💍",
        "Tom Hale",
        {("Tom Hale", "PARTNER_OF", "Ines")},
        {("Got", "PARTNER_OF", "Ines")},
    ),
    (
        "We had to cancel our trip to Lisbon, my dad is unwell.",
        "Ann",
        set(),
        {("Ann", "PLANS_TO_VISIT", "Lisbon")},
    ),
    # An allergy or an event one has is no possession; the allergy is read as one.
    (
        "I've got a bad latex allergy, so no balloons please",
        "Ann",
        {("Ann", "ALLERGIC_TO", "latex")},
        {("Ann", "OWNS", "bad latex allergy")},
    ),
    (
        "Can we move our call? I've got the Ferncliff workshop Tues all day.",
        "Ann",
        set(),
        {("Ann", "OWNS", "Ferncliff workshop Tues")},
    ),
    # A figure retold as said before is the corrected one, not the order's.
    (
        "Earlier I said the Tolland order was 800 seats. It's actually 880, sorry!",
        "Ann",
        set(),
        {("Tolland order", "QUANTITY", 800)},
    ),
    # Several children opening the clause are no one the fact can name, least of all the writer.
    (
        "my twins start swimming lessons next month, Leo is excited",
        "Ann",
        set(),
        {("Ann", "STUDIES", "swimming")},
    ),
    # A college said by its owner's name is no place to visit; "a ton" is nothing learned.
    (
        "Nadia turned down Durham, she's going to Queen's instead.",
        "Ann",
        set(),
        {("Nadia", "PLANS_TO_VISIT", "Queen")},
    ),
    (
        "Shadowed Priya on six demos this week, learned a ton.",
        "Ann",
        set(),
        {("Priya", "STUDIES", "ton"), ("Ann", "STUDIES", "ton")},
    ),
    # A team one moves to is a membership, not a tool; a university one starts at is studied at.
    (
        "Org update: Dana Reyes is moving to Revenue Ops next month.",
        "Ann",
        {("Dana Reyes", "MEMBER_OF", "Revenue Ops")},
        {("Dana Reyes", "USES", "Revenue Ops")},
    ),
    (
        "my cousin Theo started at Bristol uni, studying physics",
        "Ann",
        {("Theo", "STUDIES_AT", "Bristol")},
        {("Theo", "WORKS_AT", "Bristol")},
    ),
    # A press release's date is no launch's.
    (
        "We're launching Kestrel 4.0 on June 4 — please lock the press release by May 28.",
        "Ann",
        set(),
        {("Kestrel", "LAUNCH_DATE", "2024-05-28")},
    ),
    # 下单后…, 接手后…: after the verb comes no object; 跟进记录 is a heading.
    (
        "【工单】客户：南岭食品；问题：小程序下单后积分不到账；负责人：周敏。",
        "王芳",
        set(),
        {("王芳", "ORDERED", "后积分不到账")},
    ),
    (
        "老王之前跟的客户华禾置业，我接手后发现合同8月底到期。",
        "王芳",
        set(),
        {("王芳", "RESPONSIBLE_FOR", "后发现合同8月底到期")},
    ),
    ("跟进记录 3/5：青松学校的校长想要试用两周。", "王芳", set(), {("王芳", "RESPONSIBLE_FOR", "记录3/5")}),
    # What someone held before is taken over, not the one who left; 不在X买 is no job left.
    (
        "李娜走了之后前端组由我带，目前5个人。",
        "王芳",
        {("王芳", "RESPONSIBLE_FOR", "前端组")},
        {("王芳", "RESPONSIBLE_FOR", "李娜走")},
    ),
    (
        "我不在星巴克买早餐了，太贵，改去楼下便利店了",
        "王芳",
        set(),
        {("王芳", "LEFT_ORGANISATION", "星巴克")},
    ),
    # Given up attending, little liked: no attendance, no liking.
    (
        "我们放弃参加今年的深圳家具展了，太贵。",
        "王芳",
        set(),
        {("王芳", "ATTENDED", "的深圳家具展"), ("王芳", "ATTENDED", "深圳家具展")},
    ),
    ("我不怎么喜欢吃辣的，一点就受不了", "王芳", set(), {("王芳", "LIKES", "辣")}),
    # A ticket's assignee is ours, not the customer's.
    (
        "【工单#802】客户长风科技反馈：报表导出失败。已分配给运维组赵磊，优先级P2。",
        "王芳",
        set(),
        {("赵磊", "WORKS_AT", "长风科技")},
    ),
    # A teacher at a kindergarten studies there no more than a parent does.
    (
        "我老婆是做幼师的，在海淀一个公立幼儿园，最近忙死了",
        "李强",
        set(),
        {("李强的老婆", "STUDIES_AT", "公立幼儿园")},
    ),
    # A wish after a condition is no plan; the next clause on its own leaves a hedged plan open.
    ("如果年终奖能发下来，我想带爸妈去云南玩", "王芳", set(), {("王芳", "PLANS_TO_VISIT", "云南")}),
    (
        "我可能明年会去杭州工作，还在考虑",
        "王芳",
        set(),
        {("王芳", "WORKS_FROM", "杭州"), ("王芳", "WORKS_AT", "杭州")},
    ),
    (
        "瑞丰汽配的王经理说他们可能再加单 2000 个，但还没定。",
        "王芳",
        {("王经理", "WORKS_AT", "瑞丰汽配")},
        set(),
    ),  # a guard
    ("梁志刚离职了，新对接人还没定。", "王芳", {("梁志刚", "STATUS", "离职")}, set()),  # a guard
    # 去三亚过 (spend it there) is no visit made; a company one wants to join is no place to visit.
    ("我生日打算跟闺蜜去厦门过", "王芳", {("王芳", "PLANS_TO_VISIT", "厦门")}, {("王芳", "VISITED", "厦门")}),
    ("明年想换工作，想去互联网公司", "王芳", set(), {("王芳", "PLANS_TO_VISIT", "互联网公司")}),
    # "换成别的平台" names no tool; a monthly salary is no budget.
    ("Tapd用了三个月觉得不太好用，明年可能换成别的平台，还在调研。", "王芳", set(), {("Tapd", "USES", "别")}),
    ("明年市场部要招三个设计，预算每人月薪2万左右。", "王芳", set(), {("市场部", "BUDGET", 20000)}),
    # "我妈高兴得…" names no mother; a son after a comma is the writer's.
    (
        "我弟考上浙大了，我妈高兴得在朋友圈发了好几条",
        "王芳",
        {("王芳", "CHILD_OF", "王芳的妈妈")},
        {("王芳", "CHILD_OF", "高兴得")},
    ),
    (
        "我不养狗了，儿子狗毛过敏",
        "王芳",
        {("王芳的儿子", "ALLERGIC_TO", "狗毛")},
        {("王芳", "ALLERGIC_TO", "狗毛")},
    ),
    # A friend's cat one plays with is no pet.
    (
        "我对猫毛过敏，每次去同事家撸猫回来都打喷嚏",
        "王芳",
        {("王芳", "ALLERGIC_TO", "猫毛")},
        {("王芳", "HAS_PET", "回来")},
    ),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_readers_100_103(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


WORK: list[Case] = [
    # A line of work said as 做X: the role (here or there); guards: what the company trades in, a promotion
    # only striven for, a meal cooked.
    ("我老公是做外贸的，常年跑广交会", "朱慧", {("朱慧的老公", "HAS_ROLE", "外贸")}, set()),
    ("最近换了新工作，在海纳百货做数据分析，离家近多了", "洪涛", {("洪涛", "HAS_ROLE", "数据分析")}, set()),
    ("我老公换工作了，去了字节做算法，天天加班", "阿梅", {("阿梅的老公", "HAS_ROLE", "算法")}, set()),
    ("我升主管了，下个月开始带一个5人的小组", "邓超群", {("邓超群", "HAS_ROLE", "主管")}, set()),
    ("我现在在一家做跨境电商的创业公司写后端", "韩磊", set(), {("韩磊", "HAS_ROLE", "跨境电商")}),
    ("我决定好好上班，今年争取升主管", "邓超群", set(), {("邓超群", "HAS_ROLE", "主管")}),
    ("我在家做饭，你们先吃", "王芳", set(), {("王芳", "HAS_ROLE", "饭")}),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), WORK)
def test_a_line_of_work(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
