"""A deal said by its kind (续约, 框架协议, 下单, "renewal", "contract"): its price, quantity, discount and
dates are the deal's, named after the organisation whose it is (sentences written for these tests)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Triple, read, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "蓝湾酒店续约谈下来了，两年总价96万。",
        "王芳",
        {("蓝湾酒店续约", "PRICE", 960000)},
        {("蓝湾酒店", "PRICE", 960000)},
    ),
    ("和丰五金的年度框架协议签了，螺栓单价0.8元。", "王芳", {("和丰五金年度框架协议", "PRICE", 0.8)}, set()),
    (
        "老客户远景餐饮又下单了，两百台点餐平板，每台1680，月底前装完。",
        "王芳",
        {("远景餐饮订单", "QUANTITY", 200), ("远景餐饮订单", "PRICE", 1680)},
        set(),
    ),
    ("明德教育3月15日之前要拿到正式合同。", "王芳", {("明德教育合同", "DEADLINE", "2024-03-15")}, set()),
    ("Initech's renewal came in at $96,000 a year.", "Ann", {("Initech renewal", "PRICE", 96000)}, set()),
    (
        "Orbis Health signed the SOC monitoring contract: 40 seats at $30 each.",
        "Ann",
        {
            ("Orbis Health SOC monitoring contract", "QUANTITY", 40),
            ("Orbis Health SOC monitoring contract", "PRICE", 30),
        },
        set(),
    ),
    # an order said by its verb holds its count; a unit price "each" stays the product's list price (rule 8)
    (
        "Corvel Foods ordered 40 licences of Stockwise Pro at $1,200 each.",
        "Ann",
        {("Corvel Foods order", "QUANTITY", 40), ("Stockwise Pro", "PRICE", 1200)},
        {("Corvel Foods order", "PRICE", 1200)},
    ),
    ("We ordered 40 chairs from Ikea at $90 each.", "Ann", set(), {("Ikea order", "QUANTITY", 40)}),
    # no deal said: the organisation's own budget stays the organisation's
    ("华信证券今年的安全预算是80万。", "王芳", {("华信证券", "BUDGET", 800000)}, set()),
    # a value denied is no fact; its correction in the same breath is
    (
        "华信证券的预算不是50万，是80万。",
        "王芳",
        {("华信证券", "BUDGET", 800000)},
        {("华信证券", "BUDGET", 500000)},
    ),
    (
        "华信证券的预算不是50万而是80万。",
        "王芳",
        {("华信证券", "BUDGET", 800000)},
        {("华信证券", "BUDGET", 500000)},
    ),
    ("华信证券的预算不是50万。", "王芳", set(), {("华信证券", "BUDGET", 500000)}),
    ("华信证券的预算不超过50万。", "王芳", {("华信证券", "BUDGET", 500000)}, set()),  # a bound, not a denial
    (
        "The budget is not $50,000, it is $80,000.",
        "Ann",
        {("Ann", "BUDGET", 80000)},
        {("Ann", "BUDGET", 50000)},
    ),
    (
        "The budget isn't 50k but 80k.",
        "Ann",
        {("Ann", "BUDGET", 80000)},
        {("Ann", "BUDGET", 50000)},
    ),
    ("The budget is not 50k.", "Ann", set(), {("Ann", "BUDGET", 50000)}),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:24] for c in CASES])
def test_a_deal_said_by_its_kind(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_the_deal_is_an_entity_known_by_the_words_that_said_it(extractor: BuiltinExtractor) -> None:
    result = read(extractor, "云途旅行续约搞定，每年19.8万，新合同2027年6月30号到期。", "王芳")
    deal = next(e for e in result.entities if e.type == "deal")
    assert deal.name == "云途旅行续约"
    assert {"续约", "新合同", "合同"} <= set(deal.aliases)
    assert "said_as" not in deal.attributes
    assert {(f.subject, f.predicate) for f in result.facts} >= {
        ("云途旅行续约", "PRICE"),
        ("云途旅行续约", "EXPIRES_ON"),
    }


def test_a_later_budget_is_not_the_deals(extractor: BuiltinExtractor) -> None:
    result = read(extractor, "瑞丰食品的续约签了，每年12万。他们明年的IT预算是50万。", "王芳")
    budgets = {f.subject for f in result.facts if f.predicate == "BUDGET"}
    assert budgets == {"瑞丰食品"}
