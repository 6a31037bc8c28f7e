"""A sixth fresh reader's false readings, fixed as classes: a move said among tools, a cancellation
only threatened, a quarter taken for a vendor, a count of visits taken for a meeting, a plan given
up, a share (百分之十五) taken for a price, a spouse opening a clause, 周转 taken for a name:
sentences written for these tests."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    ("We've also stopped using PagerDuty and moved to Opsgenie.", "Mei",
     {("Mei", "STOPPED_USING", "PagerDuty")}, {("Mei", "LIVES_IN", "Opsgenie")}),
    ("We moved to Denver last year.", "Mei", {("Mei", "LIVES_IN", "Denver")}, set()),
    ("Acorn Bakery is threatening to cancel unless the POS fix lands by July 15.", "Zoe", set(),
     {("Acorn Bakery", "CANCELLED", "unless the POS fix lands")}),
    ("Corvid is consolidating vendors: we'll buy all laptops through CDW from Q3 instead of Jordan's firm.",
     "Hannah", set(), {("Hannah", "CUSTOMER_OF", "Q3")}),
    ("周报：本周拜访客户4家，新增意向客户2家。", "吴敏", set(), {("吴敏", "MEETING_AT", "2024-03-11")}),
    ("国庆本来想去日本，但是签证没办下来，只能改去三亚了。", "林佳怡", set(),
     {("林佳怡", "PLANS_TO_VISIT", "日本")}),
    ("我们和顺丰的快递合同下个月到期，打算换成京东物流，价格便宜百分之十五。", "杨帆", set(),
     {("京东物流合同", "PRICE", 100)}),
    ("我们下个月要从杭州搬到上海了，老公调到上海分公司。", "林佳怡",
     {("林佳怡的老公", "WORKS_AT", "上海分公司")}, {("林佳怡", "WORKS_AT", "上海分公司")}),
    ("张伟结婚了，老婆在腾讯上班。", "王芳", set(),
     {("张伟", "WORKS_AT", "腾讯"), ("王芳的老婆", "WORKS_AT", "腾讯")}),
    ("下周转去做营销活动平台。", "郑浩", {("郑浩", "RESPONSIBLE_FOR", "营销活动平台")},
     {("周转", "RESPONSIBLE_FOR", "营销活动平台")}),
]  # fmt: skip


@pytest.fixture(scope="module")
def extractor() -> BuiltinExtractor:
    return BuiltinExtractor()


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_sixth_readers_classes(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
