"""Faults reported of a product, the other side's people, signatures, whose customer one is, and the
tools a team announcement names: sentences written for these tests; each case names the facts that
must and must not be read."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # Each clause after the product that says a fault is one HAS_ISSUE, adverbs between its words dropped.
    ("客诉：海鸥餐饮反馈上周换的云帆POS一到中午就卡死，会员积分也对不上，要求周五前处理。", "周宁",
     {("云帆POS", "HAS_ISSUE", "一到中午就卡死"), ("云帆POS", "HAS_ISSUE", "会员积分对不上")},
     {("云帆POS", "HAS_ISSUE", "要求周五前处理")}),
    ("新华中学反馈那批K9智能门锁老报E12错误、指纹识别不了。", "周宁",
     {("K9智能门锁", "HAS_ISSUE", "报E12错误"), ("K9智能门锁", "HAS_ISSUE", "指纹识别不了")}, set()),
    ("绿洲酒店采购的30台M5收银机里有4台频繁死机。", "周宁", {("M5收银机", "HAS_ISSUE", "频繁死机")},
     {("M5收银机", "HAS_ISSUE", "死机"), ("M5收银机", "HAS_ISSUE", "里有4台频繁死机")}),
    ("Delta Farms flagged two problems with the FrostGuard sensors: batteries die in under a week "
     "and the app drops readings overnight. Their ops lead wants a fix by May 2.", "Ann",
     {("FrostGuard sensors", "HAS_ISSUE", "batteries die in under a week"),
      ("FrostGuard sensors", "HAS_ISSUE", "the app drops readings overnight")}, set()),
    ("客户反馈：上周买的那批智能门锁，有5台经常掉线。", "周宁", {("智能门锁", "HAS_ISSUE", "掉线")}, set()),
    ("他的手机掉水里了，打印机也坏了。", "周宁", set(), {("打印机", "HAS_ISSUE", "坏了")}),
    ("The IntraScan 4 keeps overheating.", "Ann", {("IntraScan 4", "HAS_ISSUE", "keeps overheating")}, set()),
    ("Customer complaint: the X200 printers jam constantly.", "Ann",
     {("X200 printers", "HAS_ISSUE", "jam constantly")}, set()),
    ("Subject: Bracket defect, lot 7B", "Ann", set(), {("Bracket", "HAS_ISSUE", "defect")}),
    ("Tom keeps crashing my parties.", "Ann", set(), {("Tom", "HAS_ISSUE", "keeps crashing my parties")}),
    # A fault said to be fixed, supposed, or of a relative clause is none.
    ("云帆POS卡死的问题已经修好了。", "周宁", set(), {("云帆POS", "HAS_ISSUE", "卡死的问题已经修好了")}),
    ("The X7 scanner no longer crashes since the update.", "Ann", set(),
     {("X7 scanner", "HAS_ISSUE", "no longer crashes since the update")}),
    ("如果K9智能门锁再报错，我们就换品牌。", "周宁", set(), {("K9智能门锁", "HAS_ISSUE", "再报错")}),
    # Faults fixed, feared, denied, of something else of the product, or words in another sense.
    ("新版云帆POS修复了卡死和闪退的问题。", "周宁", set(), {("云帆POS", "HAS_ISSUE", "闪退")}),
    ("测试报告：K9智能门锁在零下20度环境下没有失灵。", "周宁", set(),
     {("K9智能门锁", "HAS_ISSUE", "在零下20度环境下没有失灵")}),
    ("I'm worried the Shopify checkout might crash during Black Friday.", "Ann", set(),
     {("Shopify", "HAS_ISSUE", "checkout might crash during Black Friday")}),
    ("K9智能门锁的竞品经常误报，我们的不会。", "周宁", set(), {("K9智能门锁", "HAS_ISSUE", "的竞品误报")}),
    ("云帆POS销售额上个月下降了，渠道那边也出问题了。", "周宁", set(), {("云帆POS", "HAS_ISSUE", "出问题")}),
    ("The iPhone 15 price drops next week, and Apple won't ship before Friday.", "Ann", set(),
     {("iPhone", "HAS_ISSUE", "15 price drops next week")}),
    ("The Zendesk rep was lagging on replies.", "Ann", set(),
     {("Zendesk", "HAS_ISSUE", "rep was lagging on replies")}),
    # Someone introduced as theirs works there, unless a relative or on the way out.
    ("Ticket 4410: Harbor Pharmacy says the sync duplicates orders. Their pharmacist-in-charge, Hugo Lam, "
     "wants a call.", "Ann", {("Hugo Lam", "WORKS_AT", "Harbor Pharmacy")}, set()),
    ("Dana Wu has left Brightline Freight; their new point of contact is Sam Ortiz.", "Ann",
     {("Sam Ortiz", "WORKS_AT", "Brightline Freight")}, {("Dana Wu", "WORKS_AT", "Brightline Freight")}),
    ("恒达建材的单子定了。对账以后找他们新来的会计滕飞。", "周宁", {("滕飞", "WORKS_AT", "恒达建材")}, set()),
    ("客户：川能集团｜联系人：龚建华，手机13550211876", "周宁", {("龚建华", "WORKS_AT", "川能集团")}, set()),
    ("Harbor Pharmacy called. Their CEO met Sarah Kim yesterday.", "Ann", set(),
     {("Sarah Kim", "WORKS_AT", "Harbor Pharmacy")}),
    ("Spoke to Acme Logistics; their former CFO Maria Lopez now runs Beta Corp.", "Ann", set(),
     {("Maria Lopez", "WORKS_AT", "Acme Logistics")}),
    ("We met Acme Corp yesterday. Their son Jake Moss plays in my team.", "Ann", set(),
     {("Jake Moss", "WORKS_AT", "Acme Corp")}),
    ("We met Acme Corp yesterday. Their old rep, Jo Park, who left in May, says hi.", "Ann", set(),
     {("Jo Park", "WORKS_AT", "Acme Corp")}),
    ("华创资本的对接人换成了柳青青。路演定在7月24号下午三点，在他们陆家嘴办公室。", "周宁", set(),
     {("陆家嘴", "WORKS_AT", "华创资本")}),
    # A signature block under the closing formula: the writer's company, title and department.
    ("We received 18 of the 24 monitor arms.\n\nThanks,\nIrene Malik\nOffice Manager, Tidewater Legal\n"
     "+1 415 555 0100", "Irene",
     {("Irene Malik", "WORKS_AT", "Tidewater Legal"), ("Irene Malik", "HAS_ROLE", "Office Manager")},
     {("Irene Malik", "WORKS_AT", "+1 415 555 0100")}),
    ("Order confirmed.\n\nBest,\nCarl Jensen\nSummit Office Supply", "Carl",
     {("Carl Jensen", "WORKS_AT", "Summit Office Supply")}, set()),
    ("名单下周一前报给我。\n谢谢\n林晓\n市场部\n华信科技", "林晓",
     {("林晓", "WORKS_AT", "华信科技"), ("林晓", "MEMBER_OF", "市场部")}, set()),
    ("Thanks for the pie!\n\nThanks,\nMom\nHome Depot run later", "Ann", set(),
     {("Mom", "WORKS_AT", "Home Depot run later")}),
    ("Best regards,\nPriya Nair\n221B Baker Street, London", "Priya", set(),
     {("Priya Nair", "WORKS_AT", "London")}),
    ("谢谢\n周宁\n本周五前回复", "周宁", set(), {("周宁", "WORKS_AT", "本周五前回复")}),
    ("Thanks,\nGreg Hill\nRetired, Boeing", "Greg", set(), {("Greg Hill", "WORKS_AT", "Boeing")}),
    ("Regards,\nSam Ortiz\nAccounts Payable\nBrightline Freight | 555-0199", "Sam",
     {("Sam Ortiz", "WORKS_AT", "Brightline Freight"), ("Sam Ortiz", "MEMBER_OF", "Accounts Payable")},
     set()),
    ("Let's talk Tuesday.\n\nBest,\nDana Lee | Head of Sales | Acme Robotics\n+1 555 0100", "Dana",
     {("Dana Lee", "WORKS_AT", "Acme Robotics"), ("Dana Lee", "HAS_ROLE", "Head of Sales")},
     {("Dana Lee", "WORKS_AT", "Head of Sales | Acme Robotics")}),
    ("Deck tomorrow.\n\nCheers,\nJames Young\nSales Development Rep\nBluePeak Analytics", "James",
     {("James Young", "HAS_ROLE", "Sales Development Rep"),
      ("James Young", "WORKS_AT", "BluePeak Analytics")},
     {("James Young", "WORKS_AT", "Sales Development Rep")}),
    ("Thanks,\nAnna Schmidt\nHead of Purchasing\nLumen GmbH", "Anna",
     {("Anna Schmidt", "HAS_ROLE", "Head of Purchasing"), ("Anna Schmidt", "WORKS_AT", "Lumen GmbH")}, set()),
    ("收到，周五前发货。\n谢谢\n李芳\n运营主管\n绿野农场", "李芳",
     {("李芳", "HAS_ROLE", "运营主管"), ("李芳", "WORKS_AT", "绿野农场")}, set()),
    ("A 502 error again.\n\nThanks,\nKevin O'Brien\nIT Manager, Lakeshore Realty", "Kevin O'Brien",
     {("Kevin O'Brien", "WORKS_AT", "Lakeshore Realty")}, set()),
    ("Huge thanks to your team.\n\nBest,\nRoberto\nDirector of Operations, Sunvale Hotels", "Roberto Silva",
     {("Roberto Silva", "WORKS_AT", "Sunvale Hotels"),
      ("Roberto Silva", "HAS_ROLE", "Director of Operations")}, set()),
    ("单价能否维持在45元？\n谢谢\n采购部 曹雪\n明达电器", "曹雪",
     {("曹雪", "WORKS_AT", "明达电器"), ("曹雪", "MEMBER_OF", "采购部")}, set()),
    ("附件是样品的检测报告。\n此致\n吴凯\n青岛恒达机械有限公司", "吴凯",
     {("吴凯", "WORKS_AT", "青岛恒达机械有限公司")}, set()),
    ("Thanks,\nIrene Malik\n\nP.S. Our old supplier was Tidewater Legal and it took them a month to answer.",
     "Irene", set(), {("Irene Malik", "WORKS_AT", "Tidewater Legal")}),
    # Whose customer: the speaker's supplier, a customer buying elsewhere, a customer of long standing.
    ("我们跟供应商永盛五金的年度协议上周签了。", "蒋宁", {("蒋宁", "CUSTOMER_OF", "永盛五金")}, set()),
    ("我们跟中谱仪器下的PO-1108定了：色谱柱200根。", "范凯", {("范凯", "CUSTOMER_OF", "中谱仪器")}, set()),
    ("我们和远航汽车的合作到今年年底结束。", "范凯", set(), {("范凯", "CUSTOMER_OF", "远航汽车")}),
    ("Gallagher & Sons cancelled PO 7713. They're going with Uline instead.", "Ann",
     {("Gallagher & Sons", "CUSTOMER_OF", "Uline")}, set()),
    ("I've been a Streamline customer since 2019.", "Greg", {("Greg", "CUSTOMER_OF", "Streamline")}, set()),
    ("Our supplier, Initech, raised prices.", "Ann", {("Ann", "CUSTOMER_OF", "Initech")}, set()),
    ("We bought 40 chairs from Summit Office Supply.", "Ann",
     {("Ann", "CUSTOMER_OF", "Summit Office Supply")}, set()),
    # A team announcement: the tools it names without a subject are its writer's (for the organisation).
    ("@全体 下周一起报销统一走飞书审批，企业微信那边的审批流本周五关闭，大家抓紧处理。", "陈浩",
     {("陈浩", "USES", "飞书"), ("陈浩", "STOPPED_USING", "企业微信")}, set()),
    ("各位同事：公司代码仓库将于3月15日起从自建GitLab迁移到Gitee，旧GitLab之后下线。", "陈浩",
     {("陈浩", "USES", "Gitee"), ("陈浩", "STOPPED_USING", "GitLab")}, set()),
    ("Reminder: from June 1 all expense reports go through Ramp.", "Helen",
     {("Helen", "USES", "Ramp")}, set()),
    ("下周一起报销统一走飞书审批，大家抓紧处理。", "陈浩", set(), {("陈浩", "USES", "飞书")}),
    ("@all the road will be shut down on Friday. Tom's team goes through Ramp for expenses.", "Helen", set(),
     {("Helen", "STOPPED_USING", "road"), ("Helen", "USES", "Ramp")}),
    # A role taken on, said after "as": taking over, joining, replacing someone, leading something.
    ("Ben Hartley takes over as inbound sales lead on Monday.", "Ann",
     {("Ben Hartley", "HAS_ROLE", "inbound sales lead")}, set()),
    ("Please welcome Arjun Mehta, who joins today as our new Data Engineering Manager!", "Ann",
     {("Arjun Mehta", "HAS_ROLE", "Data Engineering Manager")}, set()),
    ("Orchard Health: Dr. Amy Liu replaced Bob Kerr as CMIO.", "Ann", {("Amy Liu", "HAS_ROLE", "CMIO")},
     {("Bob Kerr", "HAS_ROLE", "CMIO")}),
    ("We're opening an office in Lisbon, led by Marta Silva as Country Manager.", "Ann",
     {("Marta Silva", "HAS_ROLE", "Country Manager")}, {("Ann", "HAS_ROLE", "Country Manager")}),
    ("Welcome Yusuf Demir! He joins today as Solutions Engineer for EMEA.", "Ann",
     {("Yusuf Demir", "HAS_ROLE", "Solutions Engineer")}, {("Solutions Engineer", "WORKS_AT", "EMEA")}),
    ("If he joins as CTO, I'll quit.", "Ann", set(), {("Ann", "HAS_ROLE", "CTO")}),
    ("Bob Kerr was replaced by Dr. Amy Liu as CMIO.", "Ann", {("Amy Liu", "HAS_ROLE", "CMIO")},
     {("Bob Kerr", "HAS_ROLE", "CMIO")}),
    ("Ben Hartley declined to take over as inbound sales lead.", "Ann", set(),
     {("Ben Hartley", "HAS_ROLE", "inbound sales lead")}),
    ("Ben Hartley might take over as inbound sales lead if Karen leaves.", "Ann", set(),
     {("Ben Hartley", "HAS_ROLE", "inbound sales lead")}),
    ("Arjun Mehta interviewed as Data Engineering Manager but we hired someone else.", "Ann", set(),
     {("Arjun Mehta", "HAS_ROLE", "Data Engineering Manager")}),
    ("I dressed up as Wonder Woman for the party.", "Ann", set(), {("Ann", "HAS_ROLE", "Wonder Woman")}),
    # Where the speaker moves is not where the next person named works.
    ("I've accepted the role of CFO at Harbor Robotics and will step down as Controller here on "
     "November 22. Nicole Adams will be interim Controller.", "Ann",
     {("Nicole Adams", "HAS_ROLE", "interim controller")}, {("Nicole Adams", "WORKS_AT", "Harbor Robotics")}),
    ("我们跟华为采购部的人开了个会。", "Ann", set(), {("Ann", "CUSTOMER_OF", "华为")}),
    ("我们跟腾讯的合作下一步是联合营销。", "Ann", set(), {("Ann", "CUSTOMER_OF", "腾讯")}),
    # A city jieba knows as a noun or a name, after 回/去 or before 老家; where one goes to live.
    ("明年三月我准备离开杭州回合肥发展。", "庞博", {("庞博", "LIVES_IN", "合肥")},
     {("庞博", "VISITED", "合肥")}),
    ("我妈今年退休，打算元旦一过就回景德镇老家住。", "戴琳", {("戴琳的妈妈", "COMES_FROM", "景德镇")}, set()),
    ("我们要和平解决这件事。", "戴琳", set(), {("戴琳", "LIVES_IN", "和平")}),
    ("我不打算回合肥发展。", "庞博", set(), {("庞博", "LIVES_IN", "合肥")}),
    # Where an organisation is: its HQ, said with "their"; a meeting booked for a day already past this year.
    ("Booked: QBR with Halberd Security on Oct 3 at 1pm CT, in person at their Austin HQ.", "Ann",
     {("Halberd Security", "LIVES_IN", "Austin"), ("Ann", "MEETING_AT", "2024-10-03 13:00")},
     {("CT", "LIVES_IN", "Austin")}),
    ("Northwind Foods is headquartered in Seattle.", "Ann", {("Northwind Foods", "LIVES_IN", "Seattle")},
     set()),
    ("Our HQ is in Boston.", "Ann", set(), {("Ann", "LIVES_IN", "Boston")}),
    ("Acme Inc was headquartered in Boston until 2019.", "Ann", set(), {("Acme Inc", "LIVES_IN", "Boston")}),
    ("Our kickoff meeting was on Jan 15 at 10am.", "Ann", {("Ann", "MEETING_AT", "2024-01-15 10:00")}, set()),
    ("Sync on Jan 3 at 11am has been cancelled.", "Ann", set(), {("Ann", "MEETING_AT", "2025-01-03 11:00")}),
    # A home of some time, its length said; the place before "where he's lived"; an apartment kept.
    ("My dad's 72 and still plays tennis in Tucson, where he's lived since 1998.", "Laura",
     {("Laura's dad", "LIVES_IN", "Tucson")}, set()),
    ("My partner and I have been renting in Manchester since 2019.", "Laura",
     {("Laura", "LIVES_IN", "Manchester")}, set()),
    ("Tom and I broke up in April. I'm keeping the apartment in Logan Square.", "Zoe",
     {("Zoe", "LIVES_IN", "Logan Square")}, set()),
    ("I've been in Tokyo for a conference.", "Zoe", set(), {("Zoe", "LIVES_IN", "Tokyo")}),
    # One move is a home or a tool, not both.
    ("Hi team, we're moving from Asana to Linear next sprint.", "Helen",
     {("Helen", "USES", "Linear")}, {("Helen", "LIVES_IN", "Linear")}),
    ("We're moving from Tacoma to Boise in May.", "Helen",
     {("Helen", "LIVES_IN", "Boise")}, {("Helen", "USES", "Boise"), ("Helen", "STOPPED_USING", "Tacoma")}),
    # The product an order line counts is what its customer ordered (not a cancelled order, a pilot's scope,
    # a term in years, nor an order of ours).
    ("Northwind Dental confirmed SO-7731: 25 IntraScan 4 units at $3,400 apiece.", "Ann",
     {("Northwind Dental", "ORDERED", "IntraScan 4")}, set()),
    ("Confirmed with Hartley Foods: 15% off list on the Q3 order, 2,000 cases of sparkling water delivered "
     "by July 10.", "Ann",
     {("Hartley Foods", "ORDERED", "sparkling water")}, set()),
    ("好消息！宏远电气签了，合同号HY-0918，180台变频器，合同额216万。", "王芳",
     {("宏远电气", "ORDERED", "变频器")}, set()),
    ("嘉禾超市下了个大单：PO-0723-A，冷柜LG-160共60台，单价4980。", "王芳",
     {("嘉禾超市", "ORDERED", "冷柜LG-160")}, set()),
    ("同步：宏宇机械把HY-0520那单取消了，200套液压阀不要了。", "王芳", set(),
     {("宏宇机械", "ORDERED", "液压阀")}),
    ("Per today's call: Brightline Logistics will pilot FleetSense on 40 trucks at $35 per vehicle.", "Ann",
     set(), {("Brightline Logistics", "ORDERED", "trucks")}),
    ("Pemberton Law renewed their e-discovery license for 3 years at $58k/yr.", "Ann", set(),
     {("Pemberton Law", "ORDERED", "years")}),
    ("We received an order from Umbrella Corp for 75 cases of hand sanitizer.", "Ann",
     {("Umbrella Corp", "ORDERED", "hand sanitizer")}, {("Ann", "CUSTOMER_OF", "Umbrella Corp")}),
    ("Hooli is buying 60 Surface laptops through us.", "Ann", {("Hooli", "ORDERED", "Surface")}, set()),
    ("明德教育可能追加50台投影仪。", "王芳", set(), {("明德教育", "ORDERED", "投影仪")}),
    ("Northwind Dental hasn't confirmed SO-7731: 25 IntraScan 4 units at $3,400 apiece.", "Ann", set(),
     {("Northwind Dental", "ORDERED", "IntraScan 4")}),
    ("我们在京东下单了20台打印机。", "王芳", set(), {("京东", "ORDERED", "打印机")}),
    ("Umbrella Corp received an order from Globex Corp for 75 cases of hand sanitizer.", "Ann", set(),
     {("Umbrella Corp", "ORDERED", "hand sanitizer")}),
    ("宏远电气还没签，合同号HY-0918，180台变频器。", "王芳", set(), {("宏远电气", "ORDERED", "变频器")}),
    ("Our former supplier Initech went bankrupt.", "Ann", set(), {("Ann", "CUSTOMER_OF", "Initech")}),
    ("I've been a Platinum customer since 2019.", "Ann", set(), {("Ann", "CUSTOMER_OF", "Platinum")}),
    ("I've been a Streamline customer success rep since 2019.", "Ann", set(),
     {("Ann", "CUSTOMER_OF", "Streamline")}),
    ("我们的前供应商海尔倒闭了。", "王芳", set(), {("王芳", "CUSTOMER_OF", "海尔")}),
    ("客户反馈：那批智能门锁不会掉线了。", "王芳", set(), {("智能门锁", "HAS_ISSUE", "不会掉线了")}),
    ("新华中学反馈竞品的智能门锁老报错。", "王芳", set(), {("智能门锁", "HAS_ISSUE", "报错")}),
    ("项目预算追加15万，总额到95万。", "王芳", set(), {("王芳", "ORDERED", "15万")}),
    ("If Globex ordered 120 Surface laptops we'd be rich.", "Ann", set(), {("Globex", "ORDERED", "Surface")}),
    # A purchase to be made, reminded or supposed makes no customer.
    ("Remind me to order flowers from Petal & Stem next week.", "Ann", set(),
     {("Ann", "CUSTOMER_OF", "Petal & Stem")}),
    ("If we bought from Acme Corp, we'd save money.", "Ann", set(), {("Ann", "CUSTOMER_OF", "Acme Corp")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_issues_counterparts_and_customers(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_a_line_of_capitals_is_no_name(extractor: BuiltinExtractor) -> None:
    """A run of capitalised words longer than any name is not made an entity (it would not be a
    valid one: names are at most 256 characters)."""
    for text in ("Maria Lopez " * 30, "Our supplier " + "Acme " * 60, "Reminder: " + "Acme Corp " * 30):
        result = extractor.extract_text(text, actor="Ann")
        assert all(len(e.name) <= 100 for e in result.entities), [e.name for e in result.entities]
