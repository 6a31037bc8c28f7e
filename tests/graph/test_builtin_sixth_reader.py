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
    # The breaker's and the seventh reader's: budgets and go-lives said at length, a job joined as
    # "their new CTO", a former holder jieba misses, plans not to go, a pet one cannot keep.
    ("The budget for the Northwind CRM rollout is $120,000.", "Sarah",
     {("Northwind CRM rollout", "BUDGET", 120000)}, set()),
    ("The go-live for the CRM rollout is set for September 1.", "Sarah",
     {("CRM rollout", "LAUNCH_DATE", "2024-09-01")}, set()),
    ("Peter Walsh joined Contoso as their new CTO.", "Sarah",
     {("Peter Walsh", "WORKS_AT", "Contoso")}, {("Peter Walsh", "MEMBER_OF", "Contoso")}),
    ("星河科技的对接人换成孙丽了，原来的王强调去深圳分公司。", "陈静",
     {("星河科技", "CONTACT", "孙丽")}, {("孙丽", "WORKS_AT", "深圳分公司")}),
    ("我们不打算参加今年的广交会了。", "刘峰", set(),
     {("刘峰", "ATTENDED", "的广交会"), ("刘峰", "ATTENDED", "广交会")}),
    ("所以一直养不了猫。", "刘峰", set(), {("刘峰", "HAS_PET", "不")}),
    # The tool used after a stop, said without "use".
    ("We no longer use Trello; everything is in Linear now.", "Tom",
     {("Tom", "STOPPED_USING", "Trello"), ("Tom", "USES", "Linear")}, set()),
    ("We won't be renewing the Zendesk subscription; moving support to Intercom.", "Tom",
     {("Tom", "USES", "Intercom")}, set()),
    ("技术组通知：从下周起代码仓库统一迁到GitLab，不再用Gitee了。", "黄晓明",
     {("技术组", "USES", "GitLab"), ("技术组", "STOPPED_USING", "Gitee")}, set()),
    ("下周转去做营销活动平台。", "郑浩", {("郑浩", "RESPONSIBLE_FOR", "营销活动平台")},
     {("周转", "RESPONSIBLE_FOR", "营销活动平台")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_sixth_readers_classes(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
