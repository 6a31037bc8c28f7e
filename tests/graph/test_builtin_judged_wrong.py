"""Statements readers judged wrong that the extractor still read after their rounds, fixed as classes: a
relative named by a word the kin table lacked (grandad, "my youngest", 我们家闺女, 我家那位, 我那个老同学)
given the relative's fact to the writer; a former boss still reported to; "really put into perspective" read
as a liking; a meeting notes' next review given to an item of its points; a home one only meant to move to; a
town one moved back from; a budget given to the writer whose clause says nothing of them; a customer lost
given to "we"; a team moved between read as tools or a town; a territory read as an employer; a habit quit
read as leaving an employer; friends addressed as 宝宝们 read as children; a Chinese number set off by spaces
(合同 2 月 28 日到期) read apart from its unit; the platform or format a fault happens on (导出Excel时报错,
"crashes on Android 14") read as the faulty product; a role's holder replaced (项目经理从孙琦换成了王海涛)
read as holding it; 谁负责华东？ read as the writer's duty; a role's holder said after "is now" or a sister's
partner (我姐对象) given the role of the one before; a trip of "the whole family" (全家) given to the
relative whose birthday it is; our price given to the rival a lost customer chose; 一个 ("a") and 第一个
("the first") read as counts; "intolerant, not allergic" read as an allergy; "going to learn Portuguese" read
as a trip; 雷鸣做的模型上线了 read as 雷鸣's state; 家里老人出院了 read as the writer's; a son's bride read
as the writer's wife; 戒烟失败了 read as stopped; 估计会搬 read as a home; 一杯, 原来说, 子 read as things;
"leaving us … as VP" read as the writer's role; a town said with "in" given a price; a trip not taken
(不去新西兰了) read as a thing given up; 完成了680万 read as a state; a term, a year, a note's date or
"Price" read as figures or their holder; our handler given the customer as employer (sentences written for
these tests; each case names the facts that must and must not be read)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, read, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # a relative's fact is the relative's
    ("my grandad passed away last week. funeral is on saturday in Galway", "Sadie",
     {("Sadie's grandad", "STATUS", "passed away")}, {("Sadie", "STATUS", "passed away")}),
    ("My youngest, Alfie, just turned 3", "Penny", {("Alfie", "AGE", 3), ("Alfie", "CHILD_OF", "Penny")},
     {("Penny", "AGE", 3), ("Penny", "CHILD_OF", "Alfie")}),
    ("My son, Alfie, just turned 3", "Penny", {("Alfie", "CHILD_OF", "Penny")}, set()),  # control
    ("我们家闺女对芒果过敏，吃一口嘴巴周围就起疹子", "蒋梦瑶", {("蒋梦瑶的女儿", "ALLERGIC_TO", "芒果")},
     {("蒋梦瑶", "ALLERGIC_TO", "芒果")}),
    ("我们家老大今年考上了华科，学电气的", "老郑", {("老郑的孩子", "STUDIES", "电气")},
     {("老郑", "STUDIES", "电气")}),
    ("我家那位去年底去新加坡工作了，现在异地", "廖敏", {("廖敏的爱人", "WORKS_FROM", "新加坡")},
     {("廖敏", "WORKS_FROM", "新加坡")}),
    ("我那个老同学张远，现在在华为做芯片设计", "洪涛", {("张远", "WORKS_AT", "华为")},
     {("洪涛", "WORKS_AT", "华为")}),
    ("我高中同学大刘现在在迪拜做工程", "于海洋", set(), {("于海洋", "WORKS_AT", "迪拜")}),
    ("我原来的领导钱峰现在去了小米，做供应链副总。", "叶子豪", {("钱峰", "HAS_ROLE", "供应链副总")},
     {("叶子豪", "REPORTS_TO", "钱峰"), ("叶子豪", "HAS_ROLE", "供应链副总")}),
    ("我领导钱峰做事很细", "叶子豪", {("叶子豪", "REPORTS_TO", "钱峰")}, set()),  # control: my boss now
    # "into" a liking only after an adverb of degree
    ("My son really put into perspective how fleeting life is.", "Mel", set(),
     {("Mel's son", "LIKES", "perspective how fleeting life")}),
    ("I'm mostly into classical music these days.", "Tim", {("Tim", "LIKES", "classical music")}, set()),
    # a plan dropped, a town moved back from
    ("I was going to move to Berlin but decided to stay in Vienna, rent is cheaper here", "Noah", set(),
     {("Noah", "LIVES_IN", "Berlin")}),
    ("I moved to Berlin last year.", "Noah", {("Noah", "LIVES_IN", "Berlin")}, set()),  # control
    ("我从深圳回长沙了，在深圳待了八年，还是想离爸妈近点", "殷悦", set(),
     {("殷悦", "LIVES_IN", "深圳"), ("殷悦", "VISITED", "长沙")}),
    ("我上个月从上海回老家长沙了，不想再漂了", "凌云", set(), {("凌云", "VISITED", "长沙")}),
    # a budget in a clause without a first person is the topic's; a customer lost is no state of "we"
    ("数据中台项目正式立项了，我是PM，技术负责人是卢珊，预算300万，周期8个月", "钟楠", set(),
     {("钟楠", "BUDGET", 3000000)}),
    ("我们的预算大概50万", "钟楠", {("钟楠", "BUDGET", 500000)}, set()),  # control: our budget
    ("We lost Kestrel. They picked Ironvale, apparently on price.", "Arjun", set(),
     {("Arjun", "STATUS", "lost")}),
    ("We lost Pinebrook Credit Union.", "Arjun", {("Pinebrook Credit Union", "STATUS", "lost")},
     set()),  # control
    # a team moved to or covered, a habit quit
    ("I'm moving from Customer Success to Product as of April 1.", "Carlos", set(),
     {("Carlos", "USES", "Product"), ("Carlos", "STOPPED_USING", "Customer Success"),
      ("Carlos", "LIVES_IN", "Product")}),
    ("We're moving from Webex to Google Meet on Jul 1.", "Carlos", {("Carlos", "USES", "Google Meet")},
     set()),  # control
    ("I'm moving to the Tier 3 support team starting June 1.", "Aisha", set(),
     {("Aisha", "LIVES_IN", "Tier")}),
    ("Please welcome Jorge Pinto, who joins as Customer Success Manager for Benelux on March 18.", "Ana",
     {("Jorge Pinto", "HAS_ROLE", "Customer Success Manager")}, {("Jorge Pinto", "WORKS_AT", "Benelux")}),
    ("Brian Otieno has been appointed Head of Sales for East Africa.", "Ana", set(),
     {("Brian Otieno", "WORKS_AT", "Africa"), ("Brian Otieno", "WORKS_AT", "East Africa")}),
    ("Ran into Marcus from college — he is a pilot for Delta now.", "Ana", {("Marcus", "WORKS_AT", "Delta")},
     set()),  # control: a firm named like a town
    ("I quit smoking on New Year's day and it's been 47 days.", "Marta",
     {("Marta", "STOPPED_USING", "smoking")},
     {("Marta", "LEFT_ORGANISATION", "New Year")}),
    ("宝宝们我换工作啦！下周一正式入职美团，做用户研究", "宋佳琪", {("宋佳琪", "WORKS_AT", "美团")},
     {("宋佳琪的孩子", "WORKS_AT", "美团")}),
    # a fault on a platform or in a format is not that product's, nor does its customer use it
    ("客户反馈：苏州启明教育说我们后台导出Excel超过1万行就卡死，优先级P2。", "赵宇", set(),
     {("启明教育", "USES", "Excel"), ("Excel", "HAS_ISSUE", "超过1万行就卡死")}),
    ("Ticket #5233 — Vantage Realty says the mobile app crashes on Android 14 when uploading photos.",
     "Marco", set(), {("Vantage Realty", "USES", "Android")}),
    ("客诉：新城中学反馈那批K8智能门锁老报E07错误", "赵宇", {("新城中学", "USES", "K8智能门锁")},
     set()),  # control
    # a role's holder replaced, a question of who, a meeting notes' items
    ("各位，客户锐捷教育的项目经理从孙琦换成了王海涛，以后需求统一找王海涛确认。", "老周", set(),
     {("孙琦", "HAS_ROLE", "项目经理"), ("锐捷教育", "STOPPED_USING", "孙琦")}),
    ("远航汽配的事情更新一下：他们的IT总监刘建已经换成了新人张扬。", "老周", set(),
     {("刘建", "HAS_ROLE", "IT总监")}),
    ("我们从钉钉换成了飞书", "老周", {("老周", "USES", "飞书")}, set()),  # control
    ("决定了，物流换成韵达，4月1号开始，顺丰不续了。", "潘强", set(), {("顺丰", "STOPPED_USING", "顺丰")}),
    ("我负责华北部分，谁负责华东？", "石磊", {("石磊", "RESPONSIBLE_FOR", "华北部分")},
     {("石磊", "RESPONSIBLE_FOR", "华东")}),
    ("Reached out to Verda Energy, their head of procurement is now Marta Kowal (previously at Shell).",
     "Ibrahim", {("Marta Kowal", "HAS_ROLE", "head of procurement")},
     {("Ibrahim", "HAS_ROLE", "head of procurement")}),
    ("Met Tom Reyes, their CTO, at the expo.", "Ibrahim", {("Tom Reyes", "HAS_ROLE", "CTO")},
     set()),  # control
    ("我姐对象是警察，人挺好的", "杨露", {("杨露的姐姐的对象", "HAS_ROLE", "警察")},
     {("杨露的姐姐", "HAS_ROLE", "警察")}),
    ("我姐是警察", "杨露", {("杨露的姐姐", "HAS_ROLE", "警察")}, set()),  # control
    # the whole family travels, not the relative whose birthday it is
    ("my grandma turned 90 last sunday, the whole family flew to Jaipur for it", "Rina",
     {("Rina", "VISITED", "Jaipur")}, {("Rina's grandma", "VISITED", "Jaipur")}),
    ("我奶奶今年90大寿，全家人都回老家安徽黄山给她过生日", "祝晓", set(),
     {("祝晓的奶奶", "VISITED", "安徽")}),
    ("他们全家都去了三亚", "祝晓", set(), {("祝晓", "VISITED", "三亚")}),  # control: their family
    # a rival chosen instead holds none of our prices; "a" and "the first" count nothing
    ("We lost Pinebrook Credit Union. They went with Corvida because of price — we were at $31 per user.",
     "Ana", set(), {("Corvida", "PRICE", 31)}),
    ("老周，瑞禾食品那边的续费黄了，他们换成了金蝶的，说我们价格太高。年费原来是12万。", "王磊", set(),
     {("金蝶", "PRICE", 120000)}),
    ("市场部下个月开始不用Canva了，统一换成稿定设计，一个账号一年899。", "王磊", {("稿定设计", "PRICE", 899)},
     set()),  # control: our own switch
    ("恒达物流续约搞定了，续两年，每年36万。客户要求加一个专属客服，已答应。", "王磊", set(),
     {("恒达物流续约", "QUANTITY", 1)}),
    ("华南区第一个大单签了，深圳恒星科技，500个账号，合同额120万。", "王磊",
     {("恒星科技合同", "QUANTITY", 500)}, {("恒星科技合同", "QUANTITY", 1)}),
    # a denial said beside, a language to learn, what someone made, an elder at home, a son's bride
    ("I'm lactose intolerant, not allergic, so a bit of butter is fine", "Daniel", set(),
     {("Daniel", "ALLERGIC_TO", "lactose")}),
    ("I'm lactose intolerant", "Daniel", {("Daniel", "ALLERGIC_TO", "lactose")}, set()),  # control
    ("I think I'm going to learn Portuguese, my grandmother was from Minas Gerais", "Isabel", set(),
     {("Isabel", "PLANS_TO_VISIT", "Portuguese")}),
    ("We are going to Lisbon in May.", "Isabel", {("Isabel", "PLANS_TO_VISIT", "Lisbon")}, set()),  # control
    ("雷鸣做的推荐模型上线了，点击率提升了18%", "老周", set(), {("雷鸣", "STATUS", "上线")}),
    ("我回公司坐班了，家里老人出院了，谢谢大家这段时间的体谅。", "顾晨", set(), {("顾晨", "STATUS", "出院")}),
    ("我小儿子下个月结婚，媳妇是湖南的，在长沙办酒。", "秀英", set(), {("秀英", "MARRIED_TO", "秀英的媳妇")}),
    ("我们搬到上海了，老公调到上海分公司", "秀英", {("秀英", "MARRIED_TO", "秀英的老公")}, set()),  # control
    ("I'm allergic to cats, not allergic to dogs though", "Daniel", {("Daniel", "ALLERGIC_TO", "cats")},
     set()),  # control
    # a habit back, a move guessed, pieces (a measure, who said it, a character)
    ("戒烟失败了，又开始抽了，唉", "唐亮", set(), {("唐亮", "STOPPED_USING", "烟")}),
    ("我戒烟了", "唐亮", {("唐亮", "STOPPED_USING", "烟")}, set()),  # control
    ("我女儿今年九月要上小学了，我们在看学区，估计会搬到海淀那边", "郑丽", set(),
     {("郑丽", "LIVES_IN", "海淀")}),
    ("我以前是个咖啡重度患者，一天四杯，现在一杯都不喝了，改喝茶", "吴凯", set(),
     {("吴凯", "STOPPED_USING", "一杯")}),
    ("这周六我生日，在家附近的日料店订了位子，欢迎来玩", "俞敏", set(), {("俞敏", "ORDERED", "子")}),
    ("Heads-up: Ravi Menon is leaving us at the end of February to join Stackwise as VP Engineering.", "Olga",
     {("Ravi Menon", "HAS_ROLE", "VP Engineering")}, {("Olga", "HAS_ROLE", "VP Engineering")}),
    ("以前我超爱喝奶茶，现在控糖，基本不喝了", "小草", set(), {("小草", "STOPPED_USING", "基本")}),
    ("我今年不去新西兰了，签证没下来", "小草", set(), {("小草", "STOPPED_USING", "新西兰")}),
    ("我不去健身房了", "小草", {("小草", "STOPPED_USING", "健身房")}, set()),  # control: a place one used
    ("汇报一下：上海分公司今年销售目标是3200万，一季度完成了680万", "小草", set(),
     {("上海分公司", "STATUS", "完成")}),
    ("恒泰保险那边的对接人换了，原来的刘经理调去总部了，新的对接人是冯倩", "小草", set(),
     {("冯倩", "WORKS_AT", "去总部"), ("去总部", "CONTACT", "冯倩")}),
    # a term, a year, a note's date, a sentence's first word; our handler of a ticket
    ("Account note – Halvorsen Logistics: renewal signed for 2024, 140 seats at $38/seat/month.", "Ana",
     {("Halvorsen Logistics renewal", "QUANTITY", 140)}, {("Halvorsen Logistics renewal", "QUANTITY", 2024)}),
    ("Acme Print signed at 7% off — 2-year renewal, 75 seats. Finally!", "Ana", set(),
     {("Acme Print 2-year renewal", "PRICE", 2)}),
    ("We're moving your account to the Growth plan from June 1. Price will be $1,150/month.", "Ana", set(),
     {("Price", "PRICE", 1150)}),
    ("呼和浩特草原乳业的年度采购框架协议已签，金额800万，分四个季度执行。", "相国",
     {("草原乳业框架协议", "PRICE", 8000000)}, {("草原乳业框架协议", "QUANTITY", 4)}),
    ("跟进 9/10：杭州云帆科技部署完成，她们还想加购20个坐席。", "王磊", set(),
     {("王磊", "RESPONSIBLE_FOR", "9/10")}),
    ("工单#4471 客户：青岛海之蓝酒店。问题：前台系统无法打印房卡。已派工程师赵磊现场处理。", "相国", set(),
     {("赵磊", "WORKS_AT", "海之蓝酒店")}),
    ("客户北京金桥证券反馈，上线后系统响应慢。已拉群跟进，技术支持负责人：汪洋。", "相国", set(),
     {("汪洋", "WORKS_AT", "金桥证券")}),
    # numbers set off by spaces, as Chinese typesetting does
    ("提醒：恒远科技的年度服务合同 2 月 28 日到期。", "马骁",
     {("恒远科技年度服务合同", "EXPIRES_ON", "2024-02-28")},
     {("恒远科技年度服务合同", "PRICE", 2)}),
    ("Farmacia Lombardi wants to expand to their second pharmacy in Bergamo: +8 seats, same price €36.",
     "Ana", {("Farmacia Lombardi", "PRICE", 36)}, {("Bergamo", "PRICE", 36)}),
    ("范思远本周跟进的苏州博远电子报价 38 万，预计二月中旬签。", "邵阳", {("博远电子", "PRICE", 380000)},
     {("范思远", "RESPONSIBLE_FOR", "苏州博远电子报价38万")}),
    ("恒远科技续约报价已发出：2024 年度 13.5 万，比去年涨了 5%。", "马骁", set(),
     {("恒远科技续约", "PRICE", 2024)}),
    ("宏达五金的订单确认：M8 螺栓 5 万件，单价 0.32 元。", "马骁", {("宏达五金订单", "PRICE", 0.32)},
     {("宏达五金订单", "QUANTITY", 0)}),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_statements_readers_judged_wrong_are_read_right(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


def _meetings(extractor: BuiltinExtractor, text: str) -> dict[str, str]:
    return {
        f.subject: str(f.value)
        for f in read(extractor, text, actor="Nadia").facts
        if f.predicate == "MEETING_AT"
    }


def test_a_notes_next_review_is_its_heading_topics_not_an_item_of_its_points(
    extractor: BuiltinExtractor,
) -> None:
    points = (
        "Meeting notes 14 Feb – Q2 planning\n- Attendees: Ravi, Sunita, Greg\n"
        "- Orbit mobile app launch moved to May 14\n- Next review: March 6"
    )
    assert "Orbit mobile app launch" not in _meetings(extractor, points)
    heading = "Project Atlas sync, Feb 6\n- Budget stays at $320k.\n- Next sync: Tuesday Feb 13, 2pm."
    assert _meetings(extractor, heading).get("Project Atlas", "").startswith("2024-02-13")


def test_a_notes_items_take_no_topic_of_an_earlier_item(extractor: BuiltinExtractor) -> None:
    notes = (
        "会议纪要（3/12 产品周会）\n1. 客服机器人2.0定在4月18日上线，不再延期\n"
        "2. 埋点方案由吴昊负责，月底前交付\n3. 市场预算Q2追加20万，罗雪跟财务对接"
    )
    facts = {(f.subject, f.predicate) for f in read(extractor, notes, actor="周婷").facts}
    assert not facts & {("客服机器人", "DEADLINE"), ("客服机器人", "BUDGET")}, facts
    assert ("吴昊", "RESPONSIBLE_FOR") in facts
