"""The wrong facts the hundred-and-twelfth to hundred-and-twenty-seventh fresh readers judged, read as classes
(sentences written for these tests, never theirs)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A budget said to be per head or of the events is no one's own; a bare budget stays the writer's.
    ("Workshop is confirmed for May. Budget per head approx $900.", "Ann", set(), {("Ann", "BUDGET", 900)}),
    ("Update: events budget for Q4 is 40k, not 45k.", "Ann", set(), {("Ann", "BUDGET", 40000)}),
    ("the budget is 500k", "Ann", {("Ann", "BUDGET", 500000)}, set()),  # a control
    # Reports exported are no reporting line; a letter or a chore done is nothing owned.
    (
        "Ticket #5511, Bay Dental: since Monday they can't export reports to PDF.",
        "Ann",
        set(),
        {("Bay Dental", "REPORTS_TO", "PDF")},
    ),
    ("Priya reports to Tom Berg now", "Ann", {("Priya", "REPORTS_TO", "Tom Berg")}, set()),  # a control
    ("Just got the acceptance letter from UCL", "Ann", set(), {("Ann", "OWNS", "acceptance letter")}),
    ("Just got my dog vaccinated, she hated it", "Ann", set(), {("Ann", "OWNS", "dog vaccinated")}),
    ("Just got a new bike!", "Ann", {("Ann", "OWNS", "bike")}, set()),  # a control
    # A trip done after a list of likes is no like; praise for a talk given is no meeting.
    (
        "I love kayaking, did the Dalmatian coast in June",
        "Ann",
        {("Ann", "LIKES", "kayaking")},
        {("Ann", "LIKES", "did the Dalmatian coast")},
    ),
    ("nice work on the demo today 🙌", "Ann", set(), {("Ann", "MEETING_AT", "2024-03-13")}),
    # 读完 and 转学 study nothing; 约了去 is a trip to come; 转学去了 is no visit.
    ("这本书快读完了，挺好看的", "王芳", set(), {("王芳", "STUDIES", "完")}),
    (
        "我儿子转学去了苏州，在那边读初二",
        "王芳",
        set(),
        {("王芳的儿子", "VISITED", "苏州"), ("王芳的儿子", "STUDIES", "去")},
    ),
    ("周末我们约了去杭州玩", "王芳", {("王芳", "PLANS_TO_VISIT", "杭州")}, {("王芳", "VISITED", "杭州")}),
    ("上周末去了杭州玩", "王芳", {("王芳", "VISITED", "杭州")}, set()),  # a control
    # Two things not eaten are no garbled one; a rule every week is no deadline; a count is no price.
    ("我吃素，不吃肉不吃蛋", "王芳", {("王芳", "DIET", "吃素")}, {("王芳", "DISLIKES", "肉不吃蛋")}),
    ("下周起日报改为周报，每周一上午10点前提交。", "王芳", set(), {("王芳", "DEADLINE", "2024-03-18 10:00")}),
    (
        "和绍兴恒丰纺织的合同今天续签了，单价降了2%，量增加到每月4万件",
        "王芳",
        {("恒丰纺织", "SIGNED", "恒丰纺织合同")},
        {("恒丰纺织合同", "PRICE", 40000)},
    ),
    ("计划在3.2版本上线导出功能", "王芳", set(), {("王芳", "PLANS_TO", "在3")}),
    # 技术部分 is a part of a document, no department; a stop said with 可能会 has not happened.
    ("收到，技术部分我来写，周三前给初稿", "王芳", set(), {("技术部", "DEADLINE", "2024-03-13")}),
    ("我们可能会停用钉钉，还在评估", "王芳", set(), {("王芳", "STOPPED_USING", "钉钉")}),
    # Back then is not now; 男票 is a boyfriend, whose hometown is his.
    (
        "我在南京读大学的时候住在仙林",
        "王芳",
        set(),
        {("王芳", "LIVES_IN", "南京"), ("王芳", "STUDIES_AT", "南京")},
    ),
    (
        "我男票是湖北人，超能吃辣",
        "王芳",
        {("王芳的男朋友", "COMES_FROM", "湖北")},
        {("王芳", "COMES_FROM", "湖北")},
    ),
]


LAST_ROUND: list[Case] = [
    # A budget per head of a team outing; a hotel booked for guests is nobody's home; a newcomer's city is no
    # origin (新疆 is a place).
    ("下季度团建预算每人300元，各组自己安排。", "方敏", set(), {("方敏", "BUDGET", 300)}),
    ("嘉宾周四到，住宿安排在浦东香格里拉", "汪洋", set(), {("汪洋", "LIVES_IN", "浦东")}),
    (
        "我在成都住了六年了，上个月刚落户，终于是新成都人了",
        "阿冰",
        {("阿冰", "LIVES_IN", "成都")},
        {("阿冰", "COMES_FROM", "成都")},
    ),
    ("我是新疆人，在北京上学", "阿冰", {("阿冰", "COMES_FROM", "新疆")}, set()),  # a control
    # Pieces of words: the end of 年底, the writer with a verb, a kind of place; a wish to learn is no study.
    (
        "华兴物流已经不是我们的客户了，去年底合同到期没续。",
        "范志刚",
        set(),
        {("华兴物流", "STOPPED_USING", "底合同")},
    ),
    (
        "我跟我对象异地两年了，她在成都我在西安，准备明年我搬过去",
        "晓东",
        set(),
        {("晓东的对象", "PLANS_TO", "我搬过去")},
    ),
    ("今年一共去了6个城市，最喜欢的还是厦门", "阿波", set(), {("阿波", "VISITED", "城市")}),
    ("我家儿子上大班了，天天嚷着要学画画", "小雅", set(), {("小雅的儿子", "STUDIES", "画画")}),
    # A move to another tool, a flatmate's origin, a fan never been.
    (
        "We're dropping Mixpanel next month, budget cut. Moving to Amplitude which we already pay for.",
        "Ines",
        {("Ines", "STOPPED_USING", "Mixpanel")},
        {("Ines", "LIVES_IN", "Amplitude")},
    ),
    (
        "My flatmate is from Kenya and cooks amazing pilau",
        "Lewis",
        {("Lewis's flatmate", "COMES_FROM", "Kenya")},
        {("Lewis", "COMES_FROM", "Kenya")},
    ),
    ("Never been a fan of musicals, I'll skip this one", "Marco", set(), {("Marco", "LIKES", "musicals")}),
]


ROUND_120_123: list[Case] = [
    # A university started with what is studied there; an appointment got; a hedged intolerance; a dinner's
    # budget per head.
    (
        "my cousin Ada just started at Leeds, doing chemistry",
        "Rowan",
        {("Ada", "STUDIES_AT", "Leeds")},
        {("Ada", "WORKS_AT", "Leeds")},
    ),
    (
        "Can someone take the Friday standup? I've got a dentist appt.",
        "Sean",
        set(),
        {("Sean", "OWNS", "dentist appt")},
    ),
    (
        "I think I might be gluten intolerant, getting tested soon",
        "Poppy",
        set(),
        {("Poppy", "ALLERGIC_TO", "gluten")},
    ),
    ("I'm lactose intolerant", "Poppy", {("Poppy", "ALLERGIC_TO", "lactose")}, set()),  # a control
    ("Team dinner Thursday at Ottolenghi, budget £40 per head.", "Zainab", set(), {("Zainab", "BUDGET", 40)}),
    # Pieces: what was ordered before, 暂 after a duty, an adverb after a name, a label, a date alone.
    ("星河超市的订单改了：原来下的600箱饮料改成500箱。", "王磊", set(), {("星河超市", "ORDERED", "原来下")}),
    (
        "通知：销售部李娜已于周五离职，她负责的华东大客户暂由周浩接手。",
        "蒋丽",
        set(),
        {("李娜", "RESPONSIBLE_FOR", "华东大客户暂")},
    ),
    (
        "华信科技最终还是没续，合同6月30日到期后终止，客户已流失。",
        "禹辰",
        set(),
        {("华信科技", "STOPPED_USING", "华信科技最终")},
    ),
    (
        "周会定在9月20日下午，地点公司三楼会议室，各组提前准备周报。",
        "阎宏",
        set(),
        {("地点公司", "PLANS_TO", "周报")},
    ),
    (
        "各位，原定5月5日的复盘会取消，改成各组写书面总结，5月8日前交给我。",
        "阎宏",
        set(),
        {("阎宏", "RESPONSIBLE_FOR", "5月8日前")},
    ),
    # A city abroad left is a move, no employer; 过年 is a holiday, no past.
    (
        "我不在悉尼了，上个月搬到了墨尔本，这边咖啡好喝",
        "季风",
        {("季风", "MOVED_FROM", "悉尼"), ("季风", "LIVES_IN", "墨尔本")},
        {("季风", "LEFT_ORGANISATION", "悉尼")},
    ),
    (
        "我打算过年去三亚玩，从来没去过海南",
        "向东",
        {("向东", "PLANS_TO_VISIT", "三亚")},
        {("向东", "VISITED", "三亚")},
    ),
]


ROUND_124_127: list[Case] = [
    # A health check's budget per person; a wee brother and an ex-wife are people of their own; a harvest
    # after a like is no like; 过 and 起 alone are pieces.
    ("今年的体检安排在11月，机构是爱康国宾，每人预算1200元。", "高志强", set(), {("高志强", "BUDGET", 1200)}),
    ("预算大概50万", "高志强", {("高志强", "BUDGET", 500000)}, set()),  # a control
    (
        "My wee brother just started uni in Glasgow, studying law",
        "Hamish",
        {("Hamish's brother", "STUDIES", "law")},
        {("Hamish", "STUDIES", "law")},
    ),
    (
        "My ex-wife lives in Leeds with the kids, I see them every other weekend",
        "Duncan",
        {("Duncan's ex-wife", "LIVES_IN", "Leeds")},
        {("Duncan", "LIVES_IN", "Leeds")},
    ),
    (
        "I love gardening, grew 10kg of courgettes this year",
        "Matilda",
        {("Matilda", "LIKES", "gardening")},
        {("Matilda", "LIKES", "grew 10kg")},
    ),
    ("我不在瑜伽馆办卡了，去了两次就没再去过", "田甜", set(), {("田甜", "STOPPED_USING", "过")}),
    (
        "交接：我跟的两个客户（杭州佳禾、温州瑞丰）下周起转给吴昊。",
        "许丽",
        set(),
        {("吴昊", "RESPONSIBLE_FOR", "起")},
    ),
]


@pytest.mark.parametrize(
    ("sentence", "speaker", "wanted", "unwanted"), CASES + LAST_ROUND + ROUND_120_123 + ROUND_124_127
)
def test_readers_112_127(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
