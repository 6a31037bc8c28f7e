"""Habits, foods one does not eat, things given up or let lapse, and headers that name nothing,
in Chinese chat and CRM notes (sentences written for these tests; each case names the facts that
must and must not be read)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # A habit is a liking; a class of it is study, not liking.
    ("现在改成每天早上跑步，一般跑5公里。", "王芳", {("王芳", "LIKES", "跑步")}, set()),
    ("我爸上个月退休了，现在天天去钓鱼。", "王芳", {("王芳的爸爸", "LIKES", "钓鱼")},
     {("王芳", "LIKES", "钓鱼")}),
    ("我每周去上游泳课。", "王芳", set(), {("王芳", "LIKES", "游泳")}),
    # A wish, a resolution, someone making one, someone else's habit or a complaint is no liking;
    # 天天 is no name.
    ("我爸天天去钓鱼。", "王芳", {("王芳的爸爸", "LIKES", "钓鱼")}, {("天天", "LIKES", "钓鱼")}),
    ("我想每天跑步，但是坚持不下来。", "王芳", set(), {("王芳", "LIKES", "跑步")}),
    ("以后每天早上跑步！", "王芳", set(), {("王芳", "LIKES", "跑步")}),
    ("我老婆每天逼我去健身。", "王芳", set(), {("王芳的老婆", "LIKES", "健身"), ("王芳", "LIKES", "健身")}),
    ("我们小区经常下棋的老王搬走了。", "王芳", set(), {("王芳", "LIKES", "下棋")}),
    ("每天遛狗真的好累。", "王芳", set(), {("王芳", "LIKES", "遛狗")}),
    ("从来不吃亏。", "王芳", set(), {("王芳", "DISLIKES", "亏")}),
    ("房租还没续，下周去办。", "王芳", set(),
     {("王芳", "STOPPED_USING", "房租还"), ("王芳", "STOPPED_USING", "房租")}),
    # A former pet stays former; a question (能不能) states nothing; 报的不是 is no price; a child's
    # taste is not the speaker's; a contract's owner is no object; 没续上 is a failed payment.
    ("我以前养的猫叫咪咪。", "王芳", set(), {("王芳", "HAS_PET", "咪咪")}),
    ("恒泰物流的货能不能下周五前补齐？", "王芳", set(), {("恒泰物流", "DEADLINE", "2024-03-22")}),
    ("恒泰物流报的不是38万，是28万。", "王芳", set(), {("恒泰物流", "PRICE", 380000)}),
    ("孩子就是不吃青菜。", "王芳", set(), {("王芳", "DISLIKES", "青菜")}),
    ("恒泰物流的合同到期就不续了。", "王芳", set(), {("恒泰物流", "STOPPED_USING", "恒泰物流的合同")}),
    ("会员没续上，卡扣款失败了。", "王芳", set(), {("王芳", "STOPPED_USING", "会员")}),
    # Cancelled only when said so: not denied, asked, almost, or a message recalled.
    ("千万别把PO-2401-07撤了。", "王芳", set(), {("王芳", "CANCELLED", "PO-2401-07")}),
    ("要不要把恒泰物流的订单撤了？", "王芳", set(), {("王芳", "CANCELLED", "恒泰物流的订单")}),
    ("恒泰物流差点把订单撤了。", "王芳", set(), {("恒泰物流", "CANCELLED", "订单")}),
    ("刚才发错群了，赶紧把消息撤回了。", "王芳", set(), {("王芳", "CANCELLED", "消息")}),
    # 由我来跟 under a supposition, in a plan, or of a detail: nothing taken on.
    ("如果华东区大客户由我来跟，之前负责的老陈怎么办？", "王芳", set(),
     {("老陈", "UNASSIGNED_FROM", "华东区大客户")}),
    ("华东区大客户本来打算由我来跟，后来给了小李。", "王芳", set(),
     {("王芳", "RESPONSIBLE_FOR", "华东区大客户本来打算")}),
    # Our own side's person is no customer's contact.
    ("恒泰物流的单子，我们这边对接的是小林。", "王芳", set(),
     {("恒泰物流", "CONTACT", "小林"), ("单子", "WORKS_AT", "恒泰物流")}),
    # Given up, with the topic first and someone else named in the first clause.
    ("跟大家汇报下，烟我已经戒了快三个月了。", "王芳", {("王芳", "STOPPED_USING", "烟")},
     {("王芳", "STOPPED_USING", "烟我")}),
    # A subscription let lapse; a habit that replaced it.
    ("健身卡到期没续，改成周末在小区楼下打羽毛球了。", "王芳",
     {("王芳", "STOPPED_USING", "健身卡"), ("王芳", "LIKES", "打羽毛球")}, set()),
    # Foods one does not eat are disliked; 不喝…了 is a stop; a vegetarian's 不吃鱼 is the diet.
    ("小雨特别能吃辣，就是不吃香菜和葱。", "王芳",
     {("小雨", "DISLIKES", "香菜"), ("小雨", "DISLIKES", "葱")}, set()),
    ("从上周开始我就不喝奶茶了。", "王芳", {("王芳", "STOPPED_USING", "奶茶")},
     {("王芳", "DISLIKES", "奶茶")}),
    ("我是素食者，不吃肉也不吃鱼。", "王芳", {("王芳", "DIET", "素食")}, {("王芳", "DISLIKES", "鱼")}),
    # Allergies listed with 、; admitted to a school for a subject; a team goes to someone who runs it.
    ("我对芒果、花生都过敏，以后聚餐帮我避开哈。", "王芳",
     {("王芳", "ALLERGIC_TO", "芒果"), ("王芳", "ALLERGIC_TO", "花生")},
     {("王芳", "ALLERGIC_TO", "芒果、花生")}),
    ("我妹高考考了628，被浙大计算机录取了！", "王芳",
     {("王芳的妹妹", "STUDIES_AT", "浙大"), ("王芳的妹妹", "STUDIES", "计算机"),
      ("王芳的妹妹", "SIBLING_OF", "王芳")}, set()),
    ("同步下组织调整：数据平台组以后归刘振宇管。", "王芳", {("刘振宇", "MANAGES", "数据平台组")}, set()),
    # Retiring is a status besides the employer left (a bureau is one); not a pension, a wish or a denial.
    ("我爸上个月正式退休了，在电力局干了三十多年。", "王芳",
     {("王芳的爸爸", "STATUS", "退休"), ("王芳的爸爸", "LEFT_ORGANISATION", "电力局")}, set()),
    ("我还没退休，退休金也不多。", "王芳", set(), {("王芳", "STATUS", "退休")}),
    ("如果我退休了就去旅游。", "王芳", set(), {("王芳", "STATUS", "退休")}),
    ("My dad finally retired after 32 years at the post office!", "Ann", {("Ann's dad", "STATUS", "retired")},
     set()),
    ("My neighbour Tom is a retired teacher.", "Ann", set(), {("Tom", "STATUS", "retired")}),
    # A header before a colon names no entity; a law firm jieba cuts apart; a product employs no one.
    ("CRM：恒远律所目前用的金蝶云。", "王芳", {("恒远律所", "USES", "金蝶云")},
     {("CRM", "USES", "金蝶云"), ("金蝶云", "WORKS_AT", "恒远律所")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_habits_and_things_given_up(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
