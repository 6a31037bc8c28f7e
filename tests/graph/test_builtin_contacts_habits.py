"""Customers' equipment and their staff, signatures, habits given up or taken up, where someone works
from or comes over from, and a first name that repeats a full name (sentences written for these
tests; each case names the facts that must and must not be read)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, read, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A complaint's product is named by its model and its kind (监护仪, 烘干机, 手持终端, "edge gateways");
    # the sender's own department is no second customer.
    ("客诉｜鼎信物流：上个月换的那批ZX-8手持终端，电池撑不到下班。", "罗斌",
     {("鼎信物流", "USES", "ZX-8手持终端")}, set()),
    ("各位好，嘉润洗衣连锁反馈上周装的6台SK-2烘干机有明显异响。请售后部俞涛本周五前去现场处理。", "罗斌",
     {("嘉润洗衣连锁", "USES", "SK-2烘干机")}, {("洗衣连锁", "USES", "SK-2烘干机")}),
    ("Support escalation: Corvid Analytics says the P400 edge gateways we shipped drop their VPN tunnel.",
     "Ann", {("Corvid Analytics", "USES", "P400 edge gateways")}, set()),
    ("Quick one: the Lumo 2 label printers at Westbrook Pharmacy keep jamming on the 4x6 rolls.", "Ann",
     {("Westbrook Pharmacy", "USES", "Lumo 2 label printers")}, set()),
    # 他们 + a department + a titled person: someone of the customer talked about, who also owns its
    # deadline (not the department, nor the product).
    ("售后群：锐思医疗反馈RS-200监护仪夜里断网后不会自动重连。他们护理部温主任要求下周五前给整改方案。",
     "罗斌",
     {("温主任", "WORKS_AT", "锐思医疗"), ("锐思医疗", "USES", "RS-200监护仪"),
      ("锐思医疗", "DEADLINE", "2024-03-22")},
     {("护理部", "DEADLINE", "2024-03-22"), ("RS-200监护仪", "DEADLINE", "2024-03-22")}),
    ("老付，安和酒店的报价发过去了。对接的是他们工程部的庄经理，说月底前给答复。", "罗斌",
     {("庄经理", "WORKS_AT", "安和酒店")}, set()),
    # A signature line: the organisation, a role in 客服, 人力… and the name; "— Name, Title, Org".
    ("姚工您好，交期顺延至2月22日，给您添麻烦了。\n启信科技 客服主管 卫兰", "卫兰",
     {("卫兰", "WORKS_AT", "启信科技"), ("卫兰", "HAS_ROLE", "客服主管")}, set()),
    ("您好，方案已发。\n启信科技｜客服主管｜卫兰", "卫兰", {("卫兰", "WORKS_AT", "启信科技")}, set()),
    ("您好，方案已发。\n远航集团 人力资源经理 孙婷", "孙婷", {("孙婷", "HAS_ROLE", "人力资源经理")}, set()),
    ("Hi Noor, confirming the pilot starts January 6.\n— Owen Petrakis, Account Executive, LedgerLine",
     "Owen",
     {("Owen Petrakis", "WORKS_AT", "LedgerLine")}, set()),
    ("We met Paris, France and Rome.", "Ann", set(), {("Paris", "WORKS_AT", "France")}),
    # Habits given up or taken up, said without "stopped".
    ("Day 20 without vaping 💪 I only chew nicotine gum now when I'm out at bars.", "Marcus",
     {("Marcus", "STOPPED_USING", "vaping"), ("Marcus", "USES", "nicotine gum")}, set()),
    ("Three months without soda as of today 🎉 Switched to sparkling water.", "Marisa",
     {("Marisa", "STOPPED_USING", "soda"), ("Marisa", "USES", "sparkling water")},
     {("Switched", "USES", "soda")}),
    ("My doctor confirmed the shellfish allergy, so no more shrimp tacos for me.", "Marisa",
     {("Marisa", "STOPPED_USING", "shrimp tacos")}, set()),
    ("There is no more room in the van.", "Ann", set(), {("Ann", "STOPPED_USING", "room")}),
    ("I switched to the night shift.", "Ann", set(), {("Ann", "USES", "the night shift")}),
    # Where someone works from: "based out of", a relocation to an office, remote.
    ("Ran into Marcus from college — he's a pilot for Delta now, based out of Atlanta.", "Ann",
     {("Marcus", "WORKS_FROM", "Atlanta")}, set()),
    ("Next month I'm relocating to the Austin office to run the West region team.", "Zoe",
     {("Zoe", "WORKS_FROM", "Austin office")}, set()),
    ("Starting at Duolingo on the 18th as a content strategist, fully remote.", "Ruth",
     {("Ruth", "WORKS_FROM", "remote")}, set()),
    # A welcomed full name is introduced, not addressed, and a later first name is the same person.
    ("Please welcome Arjun Mehta, who joins today! Arjun reports to me. He's fully remote.", "Lee",
     {("Arjun Mehta", "WORKS_FROM", "remote")}, {("Arjun", "WORKS_FROM", "remote")}),
    ("Welcome aboard, Priya Shah! Priya will lead QA.", "Lee", {("Priya Shah", "RESPONSIBLE_FOR", "QA")},
     {("Priya", "RESPONSIBLE_FOR", "QA")}),
    ("Welcome Yusuf Demir! He joins today, based in our Dublin office.", "Lee",
     {("Yusuf Demir", "WORKS_FROM", "Dublin office")}, set()),
    # Where a relative comes over from, or moves home to; a visit home is no move.
    ("下个月我妈从鞍山过来帮我们带娃。", "鲍志勇", {("鲍志勇的妈妈", "LIVES_IN", "鞍山")}, set()),
    ("我舅舅在乌鲁木齐待了二十多年，下个月退休就搬回扬州老家了。", "卜晓",
     {("卜晓的舅舅", "LIVES_IN", "扬州"), ("卜晓的舅舅", "COMES_FROM", "扬州")}, set()),
    ("我妹从北京回绵阳老家了。", "卓然", {("卓然的妹妹", "LIVES_IN", "绵阳")},
     {("卓然", "LIVES_IN", "绵阳")}),
    ("我不再住在北京了，年初搬回了老家济南。", "刘洋", set(), {("刘洋", "VISITED", "济南")}),
    ("我爸爸下个月从老家青岛过来住一段时间。", "张伟", set(), {("张伟的爸爸", "LIVES_IN", "老家青岛")}),
    # A deadline someone asks for is the asker's, not the product's their complaint names; an order's
    # delivery date is the order's.
    ("客诉：瑞丰纺织说上个月装的那台RF-200染色机温控老失灵，要求5月10号前派工程师上门。", "罗斌",
     {("瑞丰纺织", "DEADLINE", "2024-05-10")}, {("RF-200染色机", "DEADLINE", "2024-05-10")}),
    ("嘉禾超市下了个大单：PO-0723-A，冷柜LG-160共60台，要求8月10号前全部装好调试完。", "罗斌",
     {("PO-0723-A", "DEADLINE", "2024-08-10")}, {("嘉禾超市", "DEADLINE", "2024-08-10")}),
    ("客诉｜鼎信物流：ZX-8手持终端老死机。他们设备科牛主任说这周五前不给方案就退货。", "罗斌",
     {("鼎信物流", "DEADLINE", "2024-03-15")}, set()),
    ("Call notes – Harbor & Pine Clinics: spoke w/ Dr. Anita Rao. They're still on Epic, want a scheduling "
     "add-on live by July 1.", "Ann",
     {("Harbor & Pine Clinics", "DEADLINE", "2024-07-01")}, {("Epic", "DEADLINE", "2024-07-01")}),
    ("Closed Ravensworth Foods 🎉 RF-3301: 18 pallet scanners at $1,140 each, delivery by July 1.",
     "Ann", {("RF-3301", "DEADLINE", "2024-07-01")}, set()),
    ("I need a haircut by Friday.", "Ann", set(), {("Ann", "DEADLINE", "2024-03-15")}),
    # Who takes something on: 交给 after what someone held before (原来带的 is no negation), 让…盯着;
    # an unclear "he" hands nothing over.
    ("人事更新：车晓东4月1号起升华北销售总监，向销售VP韩宇汇报；他原来带的天津组交给章琦负责。", "石磊",
     {("章琦", "RESPONSIBLE_FOR", "天津组")}, {("韩宇", "UNASSIGNED_FROM", "天津组")}),
    ("恒通建材的回款让小贝盯着。", "石磊", {("小贝", "RESPONSIBLE_FOR", "恒通建材的回款")}, set()),
    ("妈妈让我管好弟弟。", "石磊", set(), {("石磊", "RESPONSIBLE_FOR", "好弟弟")}),
    # What merely sounds like those: a team's or company's remote, a hypothetical move, rain, bugs, paint,
    # a shipment to a customer, a signature-shaped list, a visit home, a visitor, an earliest date.
    ("Working remote is overrated. Our whole company went remote in 2020.", "Ann", set(),
     {("Ann", "WORKS_FROM", "remote")}),
    ("We were going to relocate to the Austin office but the offer fell through.", "Ann", set(),
     {("Ann", "WORKS_FROM", "Austin office")}),
    ("Jake's team is relocating to the Denver office, but Jake is staying in Boston.", "Ann", set(),
     {("Jake", "WORKS_FROM", "Denver office")}),
    ("We went two weeks without rain.", "Lena", set(), {("Lena", "STOPPED_USING", "rain")}),
    ("No more bugs in prod, please!", "Lena", set(), {("Lena", "STOPPED_USING", "bugs")}),
    ("We switched to water-based paint for the nursery.", "Lena", set(), {("Lena", "USES", "water")}),
    ("If I switched to decaf I'd fall asleep at my desk.", "Lena", set(), {("Lena", "USES", "decaf")}),
    ("I only eat lunch at my desk when it rains.", "Lena", set(), {("Lena", "USES", "lunch")}),
    ("Our QA team flagged that the P500 edge gateways keep overheating in the lab, so we are holding the "
     "shipment to Corvid Analytics.", "Ann", set(), {("Corvid Analytics", "USES", "P500 edge gateways")}),
    ("Mark Twain, Tom Sawyer, Huck Finn", "Ann", set(), {("Mark Twain", "WORKS_AT", "Huck Finn")}),
    ("过年我们回杭州老家。", "赵磊", set(), {("赵磊", "LIVES_IN", "杭州")}),
    ("我姐妹从广州过来玩几天。张总从上海过来了，下午开会。", "赵磊", set(),
     {("赵磊", "LIVES_IN", "广州"), ("张总", "LIVES_IN", "上海")}),
    ("客户嘉禾超市要求不要在5月10号前上门，因为店里在装修。", "罗斌", set(),
     {("嘉禾超市", "DEADLINE", "2024-05-10")}),
    ("Please welcome Arjun Mehta! Also, Arjun from finance is relocating to the Austin office.", "Lee", set(),
     {("Arjun Mehta", "WORKS_FROM", "Austin office")}),
    # A second tester's near misses: a contractor's or supplier's base, a job applied for, a move turned
    # down, free weekends, another's "no more", a former title, a holiday trip home, someone's visit.
    ("I work with a contractor based out of Austin. Our supplier is based out of Shenzhen.", "Ann", set(),
     {("Ann", "WORKS_FROM", "Austin"), ("Ann", "WORKS_FROM", "Shenzhen")}),
    ("I applied for a fully remote job. I turned down relocating to the Austin office.", "Ann", set(),
     {("Ann", "WORKS_FROM", "remote"), ("Ann", "WORKS_FROM", "Austin office")}),
    ("I only have weekends free now.", "Ann", set(), {("Ann", "USES", "weekends free")}),
    ("Mom said no more candy for me.", "Ann", {("Ann", "STOPPED_USING", "candy")},
     {("Ann's mom", "STOPPED_USING", "candy")}),
    ("Thanks.\n— Owen Petrakis, Former Account Executive, LedgerLine", "Owen", set(),
     {("Owen Petrakis", "WORKS_AT", "LedgerLine")}),
    ("春节从北京回绵阳老家，参加表哥婚礼。", "赵磊", set(), {("赵磊", "LIVES_IN", "绵阳")}),
    ("我女朋友的爸妈从武汉过来住了一周。", "赵磊", set(), {("赵磊的女朋友", "LIVES_IN", "武汉")}),
    # A deadline asked of the speaker by someone unnamed as an organisation is nobody's we can name; the
    # asker is the organisation named first, not a supplier named after it.
    ("大唐的采购刘经理要求4月1号前出方案。", "罗斌", set(), {("罗斌", "DEADLINE", "2024-04-01")}),
    ("瑞丰纺织说从华宇机械买的RF-200染色机老失灵，要求5月10号前派工程师上门。", "罗斌",
     {("瑞丰纺织", "DEADLINE", "2024-05-10")}, {("华宇机械", "DEADLINE", "2024-05-10")}),
    ("老板要求我周五前出方案。我周五前要交报告。", "罗斌", {("罗斌", "DEADLINE", "2024-03-15")}, set()),
    # "X reports to me"; a diet said with 's, not a dish ("John's vegetarian lasagna").
    ("Please welcome Arjun Mehta! Arjun reports to me.", "Monica",
     {("Arjun Mehta", "REPORTS_TO", "Monica")}, set()),
    ("Mom's vegetarian and Dad's allergic to shellfish. Been vegan since New Year's.", "Dev",
     {("Dev's mom", "DIET", "vegetarian"), ("Dev", "DIET", "vegan")}, set()),
    ("I ordered John's vegetarian lasagna.", "Dev", set(), {("John", "DIET", "vegetarian")}),
    # A pastime done on a schedule is liked; a chore is not.
    ("I stopped going to CrossFit in January. doing pilates twice a week now.", "Tasha",
     {("Tasha", "LIKES", "pilates")}, set()),
    ("My son does karate every Saturday.", "Tasha", {("Tasha's son", "LIKES", "karate")}, set()),
    ("I was doing laundry every day.", "Tasha", set(), {("Tasha", "LIKES", "laundry")}),
    # A relative named right after the kin word, before a date, is that person; 朋友圈 is no friend.
    ("我闺蜜小雅5月18号在厦门办婚礼。", "程露", {("小雅", "FRIEND_OF", "程露")},
     {("程露的闺蜜", "FRIEND_OF", "程露")}),
    ("我朋友圈里最会做饭的是老周。", "何佳", set(), {("何佳的朋友", "FRIEND_OF", "何佳")}),
    # What follows a kin word and names no relative: a time, an adverb, a school; a product, a company.
    ("我爸周六要去钓鱼。我妈周末在家做饭。", "李强", set(),
     {("李强", "CHILD_OF", "周六要"), ("李强", "CHILD_OF", "周末")}),
    ("小时候我妈常带我去公园。我女儿小学是在海淀上的。", "李强", set(),
     {("李强", "CHILD_OF", "常带我"), ("小学", "CHILD_OF", "李强")}),
    ("我的对象存储桶快满了。", "李强", set(), {("李强的对象", "PARTNER_OF", "李强")}),
    ("Our partner portal is down. My father in law is visiting.", "Ann", set(),
     {("Ann's partner", "PARTNER_OF", "Ann"), ("Ann", "CHILD_OF", "Ann's father")}),
    ("我哥李明在腾讯上班。", "李强", {("李明", "SIBLING_OF", "李强")}, set()),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_contacts_habits_and_places(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_who_someone_is_is_not_dated_by_what_they_ask_for_next(extractor: BuiltinExtractor) -> None:
    result = read(
        extractor, "客诉｜华康医院：MX-500呼吸机死机。他们设备科刘科长希望周三前到现场。", actor="罗斌"
    )
    works = next(f for f in result.facts if f.predicate == "WORKS_AT")
    assert (works.subject, works.object, works.valid_at, works.invalid_at) == (
        "刘科长",
        "华康医院",
        None,
        None,
    )
