"""Orders said by their numbers, and the dates deliveries and launches move to (sentences written
for these tests; each case names the facts that must and must not be read)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Triple, read, reads, triples

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # A purchase-order number of several parts is one order; what arrived so far is not its quantity.
    ("嘉诚包装那单PO-2401-07（纸箱一万个）今天先到了5000个，剩下的他们说下周五前补齐。", "王芳",
     {("PO-2401-07", "QUANTITY", 10000), ("PO-2401-07", "DEADLINE", "2024-03-22")},
     {("PO-2401", "QUANTITY", 10000), ("PO-2401-07", "QUANTITY", 5000)}),
    # A delivery moved, and its quantity in 片.
    ("PO-2311那批主控板得延到下周三才能发。数量还是1500片不变。", "王芳",
     {("PO-2311", "DEADLINE", "2024-03-20"), ("PO-2311", "QUANTITY", 1500)}, set()),
    # A contract number of three parts; a delivery expected on a day.
    ("贵司订购的300把人体工学椅（合同号HY-2024-056）已于今日发货，预计本周六送达。", "王芳",
     {("HY-2024-056", "QUANTITY", 300), ("HY-2024-056", "DEADLINE", "2024-03-16")}, set()),
    # A launch moved is a launch date, not a deadline, even said a clause after 上线.
    ("智慧园区项目又延期了，上线从9月20号推到10月25号。", "王芳",
     {("智慧园区项目", "LAUNCH_DATE", "2024-10-25")}, {("智慧园区项目", "DEADLINE", "2024-10-25")}),
    ("凌云App的上线时间又改了，原定7月20号，现在推到8月8号。", "王芳",
     {("凌云App", "LAUNCH_DATE", "2024-08-08")}, {("凌云App", "DEADLINE", "2024-08-08")}),
    # An id with four digits in a row numbers an order or a contract; a model's number is no quantity.
    ("Northwind Dental confirmed SO-7731: 25 IntraScan 4 units at $3,400 apiece.", "Ann",
     {("SO-7731", "QUANTITY", 25), ("SO-7731", "PRICE", 3400)}, {("SO-7731", "QUANTITY", 4)}),
    ("Received $48,000 from Pioneer Ag for the first half of PA-3301. The remaining $48k is due Jan 15.",
     "Ann", {("PA-3301", "DEADLINE", "2025-01-15")}, {("Ann", "DEADLINE", "2025-01-15")}),
    # An order placed by its number, counted in pairs, priced to the cent without "at", needed by a day
    # (the place it is needed at is not what is due); the price of other words' thing is not the order's.
    ("Harlow Construction just placed PO-7734 — 1,200 pairs of FlexGrip safety gloves, $3.85 a pair. "
     "They need them on site in Tacoma before Mar 29.", "Ann",
     {("Harlow Construction", "ORDERED", "FlexGrip"), ("PO-7734", "QUANTITY", 1200),
      ("PO-7734", "PRICE", 3.85), ("PO-7734", "DEADLINE", "2024-03-29")},
     {("PO-7734", "PRICE", 3), ("Tacoma", "DEADLINE", "2024-03-29")}),
    ("Quote summary: 40 SentryCam C7 units at €275, mounting kits €18 each.", "Ann", set(),
     {("SentryCam C7", "PRICE", 18)}),
    ("Pricing recap: Business $29/user. For 60 users on Business that's $20,880 a year.", "Ann", set(),
     {("Business", "PRICE", 20880)}),
    # A count before a price; a price per bag; "need them to" asks, it sets no deadline of the speaker's.
    ("Delmont Clinic placed PO-8812: 40 first-aid kits, $1,140 each.", "Ann",
     {("PO-8812", "QUANTITY", 40), ("PO-8812", "PRICE", 1140)}, set()),
    ("PO-8812: 40 bags of FlexMix, $18.40 a bag.", "Ann", {("PO-8812", "PRICE", 18.4)}, set()),
    ("Novak Dairy placed PO-6610. I need them to confirm the address before Friday.", "Ann", set(),
     {("Ann", "DEADLINE", "2024-03-15")}),
    # A suggestion is no status.
    ("嘉禾连锁回款逾期，财务建议暂停发货。", "王芳", set(), {("嘉禾连锁", "STATUS", "暂停发货")}),
    # An id that is a flight, a room, a staff number or an extension is no order.
    ("航班MU-5137延误了，恒泰物流的PO-2401-07预计本周六送达。", "王芳",
     {("PO-2401-07", "DEADLINE", "2024-03-16")},
     {("MU-5137", "DEADLINE", "2024-03-16")}),
    ("In room CR-2201 we agreed PA-3301 is 500 units at $40 each.", "Ann",
     {("PA-3301", "QUANTITY", 500), ("PA-3301", "PRICE", 40)},
     {("CR-2201", "PRICE", 40), ("PA-3301", "QUANTITY", 3301)}),
    # Something not delivered, denied, or nobody's: no deadline.
    ("恒泰物流的PO-2401-07下周五前补齐不了。", "王芳", set(), {("PO-2401-07", "DEADLINE", "2024-03-22")}),
    ("跟恒泰物流的体检推迟到下周三。", "王芳", set(), {("恒泰物流", "DEADLINE", "2024-03-20")}),
    ("It's like if I couldn't read due to an injury.", "Ann", set(), {("Ann", "DEADLINE", "to an injury")}),
    # 把X撤了 cancels it; 报的 is a price; 一个月 is a month, not one of something.
    ("坏消息，光明乳业把DJ-0612撤了。这单之前报的38万，白忙活一个月。", "王芳",
     {("光明乳业", "CANCELLED", "DJ-0612"), ("DJ-0612", "PRICE", 380000)}, {("DJ-0612", "QUANTITY", 1)}),
    # An id said first and then voided; a customer named by a name and its industry (凯德/nrt 医疗器械).
    ("凯德医疗器械这单黄了，合同KD-2406直接作废。", "王芳", {("凯德医疗器械", "CANCELLED", "KD-2406")},
     {("医疗器械", "CANCELLED", "KD-2406")}),
    # An id cancelled with 这单 after it; the second instalment paid.
    ("CRM：启明教育取消了QM-0722这单（80套录播设备）。", "王芳", {("启明教育", "CANCELLED", "QM-0722")},
     set()),
    ("财务确认：泰和建设第二笔款38.6万昨天到账。", "王芳", {("泰和建设", "PAID", 386000)}, set()),
    # A contract is named after the organisation whose it is, which stays named for what follows.
    ("提醒下，华信证券的运维服务合同11月30号到期，得找他们IT部的吕经理聊。", "王芳",
     {("华信证券运维服务合同", "EXPIRES_ON", "2024-11-30"), ("吕经理", "WORKS_AT", "华信证券")},
     {("服务合同", "EXPIRES_ON", "2024-11-30")}),
    # 城建设计院 is an organisation: the budget is the customer's, not the writer's.
    ("【日报】1. 拜访城建设计院，确认二期预算45万。", "王芳", {("城建设计院", "BUDGET", 450000)},
     {("王芳", "BUDGET", 450000)}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_orders_and_the_dates_they_move_to(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


NOTHING_DUE = [
    "现场拜访改成线上会议，时间往后推到月底。",
    "上线推到五月，新的时间表我们没意见。",
    "我妈的快递预计本周六送达。",
    "My sister's baby is due March 3.",
    "I'm due Friday for a dental checkup.",
    "Library books due back Friday, remind me.",
    "The Pinecrest Schools report isn't due Friday anymore.",
]


@pytest.mark.parametrize("text", NOTHING_DUE)
def test_nothing_moved_or_due_of_something_named_is_no_deadline(
    extractor: BuiltinExtractor, text: str
) -> None:
    found = triples(read(extractor, text, actor="王芳"))
    assert not [t for t in found if t[1] == "DEADLINE"], found
