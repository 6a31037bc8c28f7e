"""The builtin extractor: bilingual entities, predicate patterns, references, amounts, speed."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engram.ingest.builtin import BuiltinExtractor
from engram.ingest.clauses import find_conditions
from engram.ingest.extract import Extractor
from engram.models.episodes import Actor, Episode
from engram.models.graph import Extraction, FactIn
from engram.nlp.amounts import cn_to_int, parse_amount
from engram.nlp.references import ReferenceTable, split_version

LOCOMO_DEV = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "locomo" / "locomo-dev.json"
NOW = datetime(2025, 5, 1, tzinfo=UTC)


def episode(content: str, actor: str | None = "Li", **more: Any) -> Episode:
    """Return a stored-looking episode spoken by ``actor``."""
    return Episode(
        id="ep_1",
        group_id="g",
        version=1,
        timestamp=more.pop("timestamp", NOW),
        recorded_at=NOW,
        source_type=more.pop("source_type", "message"),
        actor=Actor(id=f"u_{actor}", name=actor) if actor else None,
        content=content,
        fingerprint="f",
        operation_id="op_1",
        **more,
    )


@pytest.fixture(scope="module")
def extractor() -> BuiltinExtractor:
    return BuiltinExtractor(
        references=[{"pattern": "采购合同", "type": "contract", "id": "contract:purchase"}]
    )


def facts(result: Extraction) -> set[tuple[str, str, object]]:
    return {(f.subject, f.predicate, f.object if f.object is not None else f.value) for f in result.facts}


def entity_types(result: Extraction) -> dict[str, str]:
    return {e.name: e.type for e in result.entities}


# (sentence, expected facts ⊆ found, expected entity name → type ⊆ found)
CASES: list[tuple[str, set[tuple[str, str, object]], dict[str, str]]] = [
    ("I live in Boston and work at Google.", {("Li", "LIVES_IN", "Boston"), ("Li", "WORKS_AT", "Google")},
     {"Boston": "place", "Google": "organisation", "Li": "person"}),
    ("我住在杭州，在阿里巴巴工作。", {("Li", "LIVES_IN", "杭州"), ("Li", "WORKS_AT", "阿里巴巴")},
     {"杭州": "place", "阿里巴巴": "organisation", "Li": "person"}),
    ("张伟在腾讯工作。", {("张伟", "WORKS_AT", "腾讯")}, {"张伟": "person", "腾讯": "organisation"}),
    ("我是销售经理。", {("Li", "HAS_ROLE", "销售经理")}, {"销售经理": "role"}),
    ("Caroline works as a counselor.", {("Caroline", "HAS_ROLE", "counselor")},
     {"Caroline": "person", "counselor": "role"}),
    ("Mr. Smith is the CEO of Acme Corp.", {("Smith", "WORKS_AT", "Acme Corp"), ("Smith", "HAS_ROLE", "CEO")},
     {"Smith": "person", "Acme Corp": "organisation"}),
    ("李总下周去北京参观华为。", {("李总", "PLANS_TO_VISIT", "北京"), ("李总", "PLANS_TO_VISIT", "华为")},
     {"李总": "person", "北京": "place", "华为": "organisation"}),
    ("上周我们去上海参观了华为。", {("Li", "VISITED", "上海"), ("Li", "VISITED", "华为")}, {"上海": "place"}),
    ("I'm planning to visit Tokyo next month.", {("Li", "PLANS_TO_VISIT", "Tokyo")}, {"Tokyo": "place"}),
    ("I've been to Rome twice.", {("Li", "VISITED", "Rome")}, {"Rome": "place"}),
    ("我去过东京。", {("Li", "VISITED", "东京")}, {"东京": "place"}),
    ("Our budget is $1.2M for the project.", {("Li", "BUDGET", 1_200_000)}, {}),
    ("我们的预算是50万元。", {("Li", "BUDGET", 500_000)}, {}),
    ("预算八十万，X3扫描仪的单价是3,500元。", {("Li", "BUDGET", 800_000), ("X3扫描仪", "PRICE", 3_500)},
     {"X3扫描仪": "product"}),
    ("I use Notion for notes.", {("Li", "USES", "Notion")}, {"Notion": "product"}),
    ("我们在用钉钉。", {("Li", "USES", "钉钉")}, {"钉钉": "product"}),
    ("I stopped using Slack.", {("Li", "STOPPED_USING", "Slack")}, {"Slack": "product"}),
    ("I no longer use Slack, we switched to Microsoft Teams.",
     {("Li", "STOPPED_USING", "Slack"), ("Li", "USES", "Microsoft Teams")}, {}),
    ("我不再用微信了，现在在用钉钉。", {("Li", "STOPPED_USING", "微信"), ("Li", "USES", "钉钉")}, {}),
    ("I used to live in Seattle.", {("Li", "MOVED_FROM", "Seattle")}, {"Seattle": "place"}),
    ("I don't like coffee.", {("Li", "DISLIKES", "coffee")}, {}),
    ("我不喜欢咖啡。", {("Li", "DISLIKES", "咖啡")}, {}),
    ("I love hiking.", {("Li", "LIKES", "hiking")}, {}),
    ("我喜欢爬山。", {("Li", "LIKES", "爬山")}, {}),
    ("My dog Max loves the park.", {("Li", "HAS_PET", "Max")}, {"Max": "animal"}),
    ("I married John last year.", {("Li", "MARRIED_TO", "John")}, {"John": "person"}),
    ("我和刘洋结婚了。", {("Li", "MARRIED_TO", "刘洋")}, {"刘洋": "person"}),
    ("My son Jake plays soccer.", {("Jake", "CHILD_OF", "Li")}, {"Jake": "person"}),
    ("我儿子张小宝今年五岁。", {("张小宝", "CHILD_OF", "Li"), ("张小宝", "AGE", 5)}, {"张小宝": "person"}),
    ("王老师的生日是5月3日。", {("王老师", "BIRTHDAY", "05-03")}, {"王老师": "person"}),
    ("Mr. Chen's birthday is on March 3.", {("Chen", "BIRTHDAY", "03-03")}, {"Chen": "person"}),
    ("项目截止日期是6月30日。", {("Li", "DEADLINE", "2025-06-30")}, {}),
    ("我们周三下午开会。", {("Li", "MEETING_AT", "2025-05-07")}, {}),
    ("I'm from Sweden.", {("Li", "COMES_FROM", "Sweden")}, {"Sweden": "place"}),
    ("Unfortunately, I lost my job at Door Dash.", {("Li", "LEFT_ORGANISATION", "Door Dash")}, {}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected_facts", "expected_entities"), CASES, ids=[c[0][:24] for c in CASES]
)
def test_sentence_table(
    extractor: BuiltinExtractor,
    text: str,
    expected_facts: set[tuple[str, str, object]],
    expected_entities: dict[str, str],
) -> None:
    result = extractor.extract(episode(text))
    assert expected_facts <= facts(result), result.facts
    assert expected_entities.items() <= entity_types(result).items(), result.entities
    names = {e.name for e in result.entities}
    for fact in result.facts:  # every subject and object names an entity of the extraction
        assert fact.subject in names and (fact.object is None or fact.object in names)
        assert fact.source_kind == "stated" and fact.fact == text


def test_the_extractor_satisfies_the_protocol(extractor: BuiltinExtractor) -> None:
    implementation: Extractor = extractor
    assert implementation.name == "builtin"


@pytest.mark.parametrize(
    "text", ["哈哈 好的", "lol thanks!", "How are you?", "好的，谢谢！", "Thanks, Joanna! That's so sweet.",
             "Hey Mel! Good to see you! How have you been?", "Sounds great, John!"]
)  # fmt: skip
def test_chit_chat_builds_no_graph(extractor: BuiltinExtractor, text: str) -> None:
    assert extractor.extract(episode(text)).empty


def test_a_role_alone_is_never_a_person(extractor: BuiltinExtractor) -> None:
    result = extractor.extract(episode("销售经理说下周给报价。"))
    assert entity_types(result) == {"销售经理": "role"}
    assert not result.facts


def test_titled_chinese_names_are_people_with_the_title_as_attribute(extractor: BuiltinExtractor) -> None:
    result = extractor.extract(episode("张经理和李总监明天来，王老师也来。"))
    people = {e.name: e.attributes for e in result.entities if e.type == "person"}
    assert people["张经理"] == {"surname": "张", "title": "经理"}
    assert people["李总监"]["title"] == "总监"
    assert people["王老师"]["title"] == "老师"


def test_qualified_places_keep_their_qualifier(extractor: BuiltinExtractor) -> None:
    france = extractor.extract(episode("I'm planning to visit Paris, France next month."))
    texas = extractor.extract(episode("My cousin lives in Paris, Texas."))
    (fr,) = [e for e in france.entities if e.type == "place"]
    (tx,) = [e for e in texas.entities if e.type == "place"]
    assert (fr.name, fr.attributes) == ("Paris, France", {"city": "Paris", "country": "France"})
    assert (tx.name, tx.attributes) == ("Paris, Texas", {"city": "Paris", "region": "Texas"})
    assert ("Li", "PLANS_TO_VISIT", "Paris, France") in facts(france)


def test_first_person_facts_have_the_actor_as_subject(extractor: BuiltinExtractor) -> None:
    result = extractor.extract(episode("I live in Boston.", actor="Caroline"))
    assert facts(result) == {("Caroline", "LIVES_IN", "Boston")}
    assert entity_types(result)["Caroline"] == "person"
    anonymous = extractor.extract(episode("我住在杭州。", actor=None))
    assert not anonymous.facts and entity_types(anonymous) == {"杭州": "place"}


def test_third_person_pronouns_block_the_fact(extractor: BuiltinExtractor) -> None:
    assert not extractor.extract(episode("他在腾讯工作。")).facts
    assert not extractor.extract(episode("She lives in Boston.")).facts


def test_conditions_scope_the_fact(extractor: BuiltinExtractor) -> None:
    en = extractor.extract(episode("On weekends, I prefer tea."))
    zh = extractor.extract(episode("周末我更喜欢喝茶。"))
    assert [(f.predicate, f.value, f.conditions) for f in en.facts] == [
        ("PREFERS", "tea", {"when": "weekends"})
    ]
    assert [(f.predicate, f.value, f.conditions) for f in zh.facts] == [("PREFERS", "茶", {"when": "周末"})]
    assert find_conditions("工作日我用电脑") == {"when": "工作日"}
    assert find_conditions("I run every day") == {}


def test_confidence_is_highest_for_explicit_first_person_statements(extractor: BuiltinExtractor) -> None:
    (mine,) = extractor.extract(episode("I live in Boston.")).facts
    (plain_not,) = extractor.extract(episode("I don't like coffee.")).facts
    (guess,) = extractor.extract(episode("The budget is 500k.")).facts
    assert mine.confidence == 0.9
    assert plain_not.confidence is not None and plain_not.confidence < 0.9
    assert guess.confidence is not None and guess.confidence < 0.7 and guess.value == 500_000


@pytest.mark.parametrize(
    ("text", "amount"),
    [("500k", 500_000), ("80万", 800_000), ("八十万", 800_000), ("$1.2M", 1_200_000), ("50万元", 500_000),
     ("1.5亿", 150_000_000), ("一万五", 15_000), ("3,500 dollars", 3_500), ("三千五百块", 3_500),
     ("2 billion", 2 * 10**9), ("8w", 80_000), ("60W左右", 600_000), ("三十来万", 300_000),
     ("二十多万", 200_000), ("3w5", 35_000)],
)  # fmt: skip
def test_amounts_parse_to_integers(text: str, amount: int) -> None:
    assert parse_amount(text) == amount
    assert isinstance(parse_amount(text), int)


@pytest.mark.parametrize(
    ("text", "amount"), [("$3.85", 3.85), ("14.50", 14.5), ("$0.85", 0.85), ("1.855", 1.86)]
)
def test_amounts_with_cents_keep_them(text: str, amount: float) -> None:
    assert parse_amount(text) == amount


def test_w_means_wan_only_in_chinese_text(extractor: BuiltinExtractor) -> None:
    assert {f.value for f in extractor.extract(episode("预算8w。", actor="王芳")).facts} == {80_000}
    english = extractor.extract(episode("The budget is 60W.", actor="Mark"))
    assert 600_000 not in {f.value for f in english.facts}


def test_chinese_numerals() -> None:
    assert [cn_to_int(t) for t in ("五", "十二", "两百零五", "一亿两千万", "abc")] == [
        5,
        12,
        205,
        120_000_000,
        None,
    ]


def test_references_map_through_a_custom_table(extractor: BuiltinExtractor) -> None:
    text = "请看《采购合同》和报价单_v2.pdf，关于 DEAL-7890，联系 Li@Example.com 或 https://Example.com/a/b。"
    result = extractor.extract(episode(text))
    found = {e.name: (e.type, e.attributes.get("ref_id")) for e in result.entities}
    assert found["采购合同"] == ("contract", "contract:purchase")
    assert found["报价单_v2.pdf"] == ("document", "doc:报价单@v2")
    assert found["DEAL-7890"] == ("deal", "deal:7890")
    assert found["li@example.com"] == ("email", "email:li@example.com")
    assert found["https://Example.com/a/b"] == ("url", "url:https://example.com/a/b")
    assert not result.facts  # 报价 inside 报价单_v2.pdf is not a price
    deal = next(e for e in result.entities if e.type == "deal")
    assert deal.aliases == ["deal:7890"]


def test_an_order_said_by_its_number_is_what_its_values_are_about(extractor: BuiltinExtractor) -> None:
    text = "Hi Dana, confirming Order #4471: 75 standing desks at $540 each, delivered by June 14."
    result = extractor.extract(episode(text))
    assert {(e.name, e.type, e.attributes.get("ref_id")) for e in result.entities} >= {
        ("Order #4471", "purchase_order", "order:4471")
    }
    assert {(f.subject, f.predicate, f.value) for f in result.facts} >= {
        ("Order #4471", "PRICE", 540),
        ("Order #4471", "QUANTITY", 75),
    }
    for plain in ("In order 2024 was a good year.", "We placed an order 300 units strong."):
        found = extractor.extract(episode(plain)).entities
        assert not [e for e in found if e.type == "purchase_order"], plain


def test_empty_title_marks_name_nothing(extractor: BuiltinExtractor) -> None:
    assert extractor.extract(episode("《 》")).entities == []
    named = extractor.extract(episode("见《 》和《框架协议》")).entities
    assert [e.name for e in named] == ["框架协议"]


def test_reference_table_rules_and_versions() -> None:
    table = ReferenceTable([{"pattern": r"CASE#(\d+)", "type": "case", "id": "case:{1}"}], use_defaults=False)
    assert [(r.type, r.id) for r in table.find("see CASE#42 and DEAL-1")] == [("case", "case:42")]
    versions = ReferenceTable().find("《采购合同（第二版）》 Proposal(v3).docx notes.txt 方案_final.pptx")
    assert [r.id for r in versions] == ["doc:采购合同@v2", "doc:Proposal@v3", "doc:notes", "doc:方案@vfinal"]
    assert split_version("报价单_v2") == ("报价单", "2") and split_version("v2") == ("v2", None)
    emails = ReferenceTable().find("王总的邮箱是wang@lanhai.com，抄送li.na+crm@lanhai.com。")
    assert [r.id for r in emails] == ["email:wang@lanhai.com", "email:li.na+crm@lanhai.com"]
    refs = BuiltinExtractor().extract(episode("ok", references=["DEAL-7890"]))
    assert entity_types(refs) == {"DEAL-7890": "deal"}


def test_custom_gazetteer_and_patterns() -> None:
    import re

    from engram.ingest.patterns import Pattern

    custom = BuiltinExtractor(
        gazetteer={"Engram": "product", "青云科技": "organisation"},
        patterns=[Pattern("USES", "en", re.compile(r"\brelies on (?P<obj>\w+)"), 0.8)],
    )
    result = custom.extract(episode("Our team relies on Engram. 我们和青云科技签了合同。"))
    assert ("Li", "USES", "Engram") in facts(result)
    assert entity_types(result)["青云科技"] == "organisation"


def test_json_episodes_read_their_string_values(extractor: BuiltinExtractor) -> None:
    content = json.dumps({"note": "I live in Boston.", "n": 3}, sort_keys=True)
    result = extractor.extract(episode(content, source_type="json"))
    assert facts(result) == {("Li", "LIVES_IN", "Boston")}


def test_output_is_deterministic(extractor: BuiltinExtractor) -> None:
    text = "我住在杭州，在阿里巴巴工作。I live in Boston and use Notion on weekends."
    assert extractor.extract(episode(text)) == extractor.extract(episode(text))
    assert all(isinstance(f, FactIn) for f in extractor.extract(episode(text)).facts)


@pytest.mark.skipif(not LOCOMO_DEV.exists(), reason="LoCoMo dev data not present")
def test_speed_on_locomo_dev_turns(extractor: BuiltinExtractor, capsys: pytest.CaptureFixture[str]) -> None:
    samples = json.loads(LOCOMO_DEV.read_text())
    turns = [
        episode(turn["text"], actor=turn["speaker"])
        for sample in samples
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]
    extractor.extract(episode("我住在杭州。"))  # load jieba outside the timing
    start = time.perf_counter()
    results = [extractor.extract(turn) for turn in turns]
    elapsed = time.perf_counter() - start
    zh = [episode("张经理说客户预算八十万，下周去北京参观华为，我们在用钉钉。")] * 200
    start = time.perf_counter()
    for turn in zh:
        extractor.extract(turn)
    zh_elapsed = time.perf_counter() - start
    with capsys.disabled():
        print(
            f"\nbuiltin extractor: {len(turns)} LoCoMo turns, {len(turns) / elapsed:.0f} episodes/s "
            f"({elapsed / len(turns) * 1e6:.0f} µs each), {sum(len(r.facts) for r in results)} facts; "
            f"Chinese {zh_elapsed / len(zh) * 1e3:.2f} ms each"
        )


# ── one rule per row, both languages (sentences written for these tests) ──────────────────

# (sentence, speaker, facts that must be found, facts that must not be)
RULES: list[tuple[str, str, set[tuple[str, str, object]], set[tuple[str, str, object]]]] = [
    # work, roles, reporting
    ("I work as a nurse at Mercy Hospital.", "Ann", {("Ann", "HAS_ROLE", "nurse"), ("Ann", "WORKS_AT", "Mercy Hospital")}, set()),
    ("I just started a new job at Stripe as a backend engineer.", "Ann",
     {("Ann", "WORKS_AT", "Stripe"), ("Ann", "HAS_ROLE", "backend engineer")}, set()),
    ("Our CFO is Dana Reyes.", "Ann", {("Dana Reyes", "HAS_ROLE", "CFO")}, {("Ann", "HAS_ROLE", "CFO")}),
    ("I quit my job at Deloitte last month.", "Ann", {("Ann", "LEFT_ORGANISATION", "Deloitte")}, set()),
    ("I used to work at Amazon.", "Ann", {("Ann", "LEFT_ORGANISATION", "Amazon")}, {("Ann", "WORKS_AT", "Amazon")}),
    ("My manager is Laura.", "Ann", {("Ann", "REPORTS_TO", "Laura")}, set()),
    ("我在字节跳动做产品经理。", "陈晨", {("陈晨", "WORKS_AT", "字节跳动"), ("陈晨", "HAS_ROLE", "产品经理")}, set()),
    ("王磊是我们公司的技术总监。", "陈晨", {("王磊", "HAS_ROLE", "技术总监")}, {("陈晨", "HAS_ROLE", "技术总监")}),
    ("我们组长是刘涛。", "陈晨", {("刘涛", "HAS_ROLE", "组长")}, set()),
    ("我三月份从京东跳槽到了拼多多。", "陈晨", {("陈晨", "LEFT_ORGANISATION", "京东"), ("陈晨", "WORKS_AT", "拼多多")}, set()),
    ("我从去年开始就不在滴滴了。", "陈晨", {("陈晨", "LEFT_ORGANISATION", "滴滴")}, set()),
    ("我直接向陈总汇报。", "陈晨", {("陈晨", "REPORTS_TO", "陈总")}, set()),
    ("李强是销售部经理，我向他汇报。", "吴昊", {("李强", "HAS_ROLE", "销售部经理"), ("吴昊", "REPORTS_TO", "李强")}, set()),
    # staffing and responsibility
    ("I've been reassigned from the Apollo migration to the Zephyr launch.", "Ann",
     {("Ann", "UNASSIGNED_FROM", "Apollo migration"), ("Ann", "ASSIGNED_TO", "Zephyr launch")}, set()),
    ("新零售项目由王敏牵头，下个月启动。", "赵磊", {("王敏", "ASSIGNED_TO", "新零售项目")}, set()),
    ("我不再负责北京的客户了。", "赵磊", {("赵磊", "UNASSIGNED_FROM", "北京的客户")}, {("赵磊", "RESPONSIBLE_FOR", "北京的客户")}),
    ("小陈接替我负责西北市场。", "赵磊", set(), {("赵磊", "RESPONSIBLE_FOR", "西北市场")}),
    # where people live, come from, work from
    ("We moved from Chicago to Denver last year.", "Ann", {("Ann", "MOVED_FROM", "Chicago"), ("Ann", "LIVES_IN", "Denver")}, set()),
    ("I'm no longer living in Seattle.", "Ann", {("Ann", "MOVED_FROM", "Seattle")}, {("Ann", "LIVES_IN", "Seattle")}),
    ("我已经离开阿里巴巴，现在在美团上班。", "陈晨", {("陈晨", "LEFT_ORGANISATION", "阿里巴巴"), ("陈晨", "WORKS_AT", "美团")},
     {("陈晨", "MOVED_FROM", "阿里巴巴")}),
    ("我是湖南人。", "陈晨", {("陈晨", "COMES_FROM", "湖南")}, set()),
    ("我在广州住了八年了。", "陈晨", {("陈晨", "LIVES_IN", "广州")}, set()),
    # tools used and stopped
    ("I've switched from Trello to Asana.", "Ann", {("Ann", "STOPPED_USING", "Trello"), ("Ann", "USES", "Asana")}, set()),
    ("We no longer use Zoom.", "Ann", {("Ann", "STOPPED_USING", "Zoom")}, {("Ann", "USES", "Zoom")}),
    ("我们团队现在用Jira管理任务，之前用的是禅道。", "赵磊", {("赵磊", "USES", "Jira"), ("赵磊", "STOPPED_USING", "禅道")},
     {("赵磊", "USES", "禅道")}),
    ("我早就不用微博了。", "陈晨", {("陈晨", "STOPPED_USING", "微博")}, set()),
    ("我把微信读书卸载了。", "陈晨", {("陈晨", "STOPPED_USING", "微信读书")}, set()),
    ("我不再喝咖啡了。", "陈晨", {("陈晨", "STOPPED_USING", "咖啡")}, set()),
    ("采购部的对接人从老刘换成了小吴。", "赵磊", {("采购部", "CONTACT", "小吴")}, {("采购部", "USES", "小吴")}),
    # tastes
    ("I'm a huge fan of Lord of the Rings!", "Ann", {("Ann", "LIKES", "Lord of the Rings")}, set()),
    ("I enjoy reading, watching movies, and exploring nature.", "Ann",
     {("Ann", "LIKES", "reading"), ("Ann", "LIKES", "watching movies"), ("Ann", "LIKES", "exploring nature")}, set()),
    ("I can't stand cilantro.", "Ann", {("Ann", "DISLIKES", "cilantro")}, set()),
    ("I prefer tea over coffee.", "Ann", {("Ann", "PREFERS", "tea")}, set()),
    ("Our loved ones give us strength.", "Ann", set(), {("Ann", "LIKES", "ones")}),
    ("It felt like a dream, and brands like Nike agree.", "Ann", set(), {("Ann", "LIKES", "Nike")}),
    ("我特别喜欢吃火锅。", "陈晨", {("陈晨", "LIKES", "火锅")}, {("陈晨", "DISLIKES", "火锅")}),
    ("我老公很爱打羽毛球。", "陈晨", {("陈晨的老公", "LIKES", "打羽毛球"), ("陈晨", "MARRIED_TO", "陈晨的老公")}, set()),
    ("我原来喜欢看恐龙片，现在特别讨厌。", "陈晨", {("陈晨", "DISLIKES", "看恐龙片")}, {("陈晨", "LIKES", "看恐龙片")}),
    ("我以前很喜欢喝可乐，已经不喝了。", "陈晨", {("陈晨", "STOPPED_USING", "可乐")}, {("陈晨", "LIKES", "可乐")}),
    ("相比地铁，我更愿意骑车上班。", "陈晨", {("陈晨", "PREFERS", "骑车上班")}, set()),
    # health, diet, study, plans, goals
    ("I'm allergic to shellfish and penicillin.", "Ann",
     {("Ann", "ALLERGIC_TO", "shellfish"), ("Ann", "ALLERGIC_TO", "penicillin")}, set()),
    ("I'm vegetarian, and I don't drink alcohol.", "Ann", {("Ann", "DIET", "vegetarian"), ("Ann", "DISLIKES", "alcohol")}, set()),
    ("I'm planning to run a marathon next spring.", "Ann", {("Ann", "PLANS_TO", "run a marathon")},
     {("Ann", "ATTENDED", "marathon")}),
    ("My goal is to read 50 books this year.", "Ann", {("Ann", "GOAL", "read 50 books")}, set()),
    ("I joined a book club last month.", "Ann", {("Ann", "MEMBER_OF", "book club")}, set()),
    ("我对花生过敏。", "陈晨", {("陈晨", "ALLERGIC_TO", "花生")}, set()),
    ("我在复旦大学读博士。", "陈晨", {("陈晨", "STUDIES_AT", "复旦大学")}, set()),
    ("我最近在学吉他。", "陈晨", {("陈晨", "STUDIES", "吉他")}, set()),
    ("我打算明年去考研。", "陈晨", {("陈晨", "PLANS_TO", "考研")}, set()),
    ("我国庆打算去云南旅游。", "陈晨", {("陈晨", "PLANS_TO_VISIT", "云南")}, set()),
    ("我上周去了一趟苏州。", "陈晨", {("陈晨", "VISITED", "苏州")}, set()),
    # family and pets
    ("I live in Brooklyn with my husband Tom.", "Ann", {("Ann", "LIVES_IN", "Brooklyn"), ("Ann", "MARRIED_TO", "Tom")}, set()),
    ("My brother's favourite band is Coldplay.", "Ann",
     {("Ann's brother", "PREFERS", "Coldplay"), ("Ann's brother", "SIBLING_OF", "Ann")}, {("Ann", "PREFERS", "Coldplay")}),
    ("I have two cats named Milo and Otis.", "Ann", {("Ann", "HAS_PET", "Milo"), ("Ann", "HAS_PET", "Otis")}, set()),
    ("我女儿小美今年七岁。", "陈晨", {("小美", "AGE", 7), ("小美", "CHILD_OF", "陈晨")}, {("陈晨", "AGE", 7)}),
    ("我爸是中学老师。", "李明", {("李明的爸爸", "HAS_ROLE", "中学老师"), ("李明", "CHILD_OF", "李明的爸爸")}, set()),
    ("我养了一只橘猫，叫团团，今年两岁。", "陈晨", {("陈晨", "HAS_PET", "团团"), ("团团", "AGE", 2)}, {("陈晨", "AGE", 2)}),
    ("我家有一只金毛，叫旺财。", "陈晨", {("陈晨", "HAS_PET", "旺财")}, set()),
    # business: money, orders, dates, contacts
    ("Hooli placed an order for 300 units of the X200 sensor.", "Ann", {("Hooli", "ORDERED", "X200 sensor")}, set()),
    ("Hooli canceled their subscription.", "Ann", {("Hooli", "CANCELLED", "subscription")}, set()),
    ("The marketing budget for Q3 is $250,000.", "Ann", set(), {("Ann", "BUDGET", 250_000), ("Ann", "BUDGET", 3)}),
    ("The budget for Q3 is $250,000.", "Ann", {("Ann", "BUDGET", 250_000)}, {("Ann", "BUDGET", 3)}),
    ("Email me at ann@example.org.", "Ann", {("Ann", "EMAIL", "ann@example.org")}, set()),
    ("My phone number is 415-555-0199.", "Ann", {("Ann", "PHONE", "4155550199")}, set()),
    ("海星科技的年费是十二万。", "赵磊", {("海星科技", "PRICE", 120_000)}, set()),
    ("凯达物流的尾款二十万昨天到账了。", "赵磊", {("凯达物流", "PAID", 200_000)}, set()),
    ("鼎新科技取消了上个月的订单。", "赵磊", {("鼎新科技", "CANCELLED", "订单")}, set()),
    ("海天集团下单了300箱饮料。", "赵磊", {("海天集团", "ORDERED", "饮料")}, set()),
    ("远大集团的联系人是周涛。", "赵磊", {("远大集团", "CONTACT", "周涛")}, set()),
    ("智慧园区项目的预算追加到了三百万。", "赵磊", {("智慧园区项目", "BUDGET", 3_000_000)}, set()),
    ("我的邮箱是 zhang@example.com，手机 139-1234-5678。", "张三",
     {("张三", "EMAIL", "zhang@example.com"), ("张三", "PHONE", "13912345678")}, set()),
]  # fmt: skip


@pytest.mark.parametrize(("text", "speaker", "wanted", "unwanted"), RULES, ids=[r[0][:30] for r in RULES])
def test_rule_table(
    extractor: BuiltinExtractor,
    text: str,
    speaker: str,
    wanted: set[tuple[str, str, object]],
    unwanted: set[tuple[str, str, object]],
) -> None:
    result = extractor.extract(episode(text, actor=speaker))
    found = facts(result)
    assert wanted <= found, result.facts
    assert not unwanted & found, result.facts
    names = {e.name for e in result.entities}
    assert all(f.subject in names and (f.object is None or f.object in names) for f in result.facts)


def test_dates_are_values_resolved_against_the_episode_time(extractor: BuiltinExtractor) -> None:
    at = datetime(2024, 3, 4, 9, 30, tzinfo=UTC)  # a Monday
    order = extractor.extract(
        episode("远航汽车订单DEAL-2041：200台X3扫描仪，单价3200元，月底前交货。", timestamp=at)
    )
    assert {("DEAL-2041", "PRICE", 3200), ("DEAL-2041", "QUANTITY", 200), ("DEAL-2041", "DEADLINE", "2024-03-31"),
            ("远航汽车", "ORDERED", "X3扫描仪")} <= facts(order)  # fmt: skip
    meeting = extractor.extract(episode("下周三下午三点和华东物流开会。", timestamp=at))
    assert ("Li", "MEETING_AT", "2024-03-13 15:00") in facts(meeting)
    kickoff = extractor.extract(episode("The Initech kickoff meeting is next Monday at 10am.", timestamp=at))
    assert ("Initech kickoff", "MEETING_AT", "2024-03-11 10:00") in facts(kickoff)  # the day, not today
    moved = extractor.extract(
        episode("The Initech kickoff meeting moved to Tuesday, March 12 at 2pm.", timestamp=at)
    )
    assert ("Initech kickoff", "MEETING_AT", "2024-03-12 14:00") in facts(moved)
    assert not facts(extractor.extract(episode("The call was with Bob yesterday.", timestamp=at)))
    past = extractor.extract(episode("The review was Monday, March 4.", timestamp=at + timedelta(days=1)))
    assert ("Li", "MEETING_AT", "2024-03-04") in facts(past), "a restated date stays where it is"
    # What meetings are called, and a day of the month said with its weekday.
    said = {
        "Booked: QBR with Halberd Security on March 7 at 1pm CT.": "2024-03-07 13:00",
        "Next check-in Friday 2pm.": "2024-03-08 14:00",
        "Walkthrough is Tuesday the 12th at 10am.": "2024-03-12 10:00",
        "Let's meet Friday at 3pm.": "2024-03-08 15:00",
        "本周五下午两点再过一遍接口清单。": "2024-03-08 14:00",
        "下周四上午十点去现场做UAT。": "2024-03-14 10:00",
        "下次沟通：本周五下午3点线上演示。": "2024-03-08 15:00",
    }
    for text, moment in said.items():
        assert ("Li", "MEETING_AT", moment) in facts(extractor.extract(episode(text, timestamp=at))), text

    launch = extractor.extract(episode("CRM升级项目将于2024-06-05上线，预算八十万。", timestamp=at))
    assert {("CRM升级项目", "LAUNCH_DATE", "2024-06-05"), ("CRM升级项目", "BUDGET", 800_000)} <= facts(launch)
    english = extractor.extract(episode("The Atlas migration deadline moved to June 28, 2024.", timestamp=at))
    assert ("Atlas migration", "DEADLINE", "2024-06-28") in facts(english)


def test_a_date_in_the_clause_sets_valid_at(extractor: BuiltinExtractor) -> None:
    at = datetime(2023, 5, 25, 13, 0, tzinfo=UTC)
    (race,) = extractor.extract(
        episode("I ran a charity race for mental health last Saturday.", timestamp=at)
    ).facts
    assert (race.predicate, race.value, race.valid_at) == (
        "ATTENDED",
        "charity race",
        datetime(2023, 5, 20, tzinfo=UTC),
    )
    weekly = extractor.extract(episode("我每周五在家办公。", timestamp=at)).facts
    assert [(f.predicate, f.conditions, f.valid_at) for f in weekly] == [
        ("WORKS_FROM", {"when": "每周五"}, None)
    ]


def test_he_and_she_name_the_last_person_named(extractor: BuiltinExtractor) -> None:
    result = extractor.extract(
        episode("My sister Julia moved to Berlin. She works at Siemens now.", actor="Mark")
    )
    assert {
        ("Julia", "LIVES_IN", "Berlin"),
        ("Julia", "WORKS_AT", "Siemens"),
        ("Julia", "SIBLING_OF", "Mark"),
    } <= facts(result)
    assert not any(f.subject == "Mark" and f.predicate == "WORKS_AT" for f in result.facts)


def test_relatives_are_people_of_their_own_with_aliases(extractor: BuiltinExtractor) -> None:
    en = extractor.extract(episode("My brother loves hiking.", actor="Alice Chen"))
    zh = extractor.extract(episode("我妈喜欢跳广场舞。", actor="王芳"))
    brother = next(e for e in en.entities if e.name == "Alice Chen's brother")
    mother = next(e for e in zh.entities if e.name == "王芳的妈妈")
    assert brother.type == "person" and {"brother", "my brother"} <= set(brother.aliases)
    assert mother.type == "person" and {"妈妈", "我妈"} <= set(mother.aliases)
    assert ("王芳", "CHILD_OF", "王芳的妈妈") in facts(zh) and ("王芳的妈妈", "LIKES", "跳广场舞") in facts(
        zh
    )
    unused = extractor.extract(episode("My kids are so excited about summer break!", actor="Melanie"))
    assert unused.empty  # a relative who does nothing here is no fact and no entity


def test_a_relatives_relative_is_neither_the_relative_nor_the_speakers_kin(
    extractor: BuiltinExtractor,
) -> None:
    en = extractor.extract(episode("My sister's husband works at Boeing.", actor="Mark"))
    zh = extractor.extract(episode("我姐的老公在华为上班。", actor="王芳"))
    assert facts(en) == {
        ("Mark's sister's husband", "WORKS_AT", "Boeing"),
        ("Mark's sister", "MARRIED_TO", "Mark's sister's husband"),
        ("Mark's sister", "SIBLING_OF", "Mark"),
    }
    assert facts(zh) == {
        ("王芳的姐姐的老公", "WORKS_AT", "华为"),
        ("王芳的姐姐", "MARRIED_TO", "王芳的姐姐的老公"),
        ("王芳的姐姐", "SIBLING_OF", "王芳"),
    }
    sister = next(e for e in en.entities if e.name == "Mark's sister")
    assert {"sister", "my sister"} <= set(sister.aliases)
    husband = next(e for e in en.entities if e.name == "Mark's sister's husband")
    assert "my sister's husband" in husband.aliases and "老公" not in {e.name for e in zh.entities}
    assert husband.attributes == {"relation": "husband"}, (
        "how the relatives were read stays out of the entity"
    )
    assert "我姐" in next(e for e in zh.entities if e.name == "王芳的姐姐").aliases
    own = extractor.extract(episode("My brother's favourite band is Coldplay.", actor="Mark"))
    assert ("Mark's brother", "PREFERS", "Coldplay") in facts(own)  # a thing of the relative's stays his
    grandma = extractor.extract(episode("奶奶对青霉素过敏，上次输液差点出事。", actor="苏晴"))
    assert facts(grandma) == {
        ("苏晴的奶奶", "ALLERGIC_TO", "青霉素")
    }  # 奶奶 opening a sentence: 我 is dropped
    for text in ("老婆饼很好吃。", "老公司的人都走了。", "张伟结婚了，老婆在腾讯上班。",
                 "我姐的老公司在深圳。", "我姐的孩子们都在北京上学。"):  # fmt: skip
        result = extractor.extract(episode(text, actor="王芳"))
        speakers = {t for t in facts(result) if any(n and n.startswith("王芳") for n in (t[0], t[2]))}
        # the sister, as a sister, at most
        assert speakers <= {("王芳的姐姐", "SIBLING_OF", "王芳")}, (text, facts(result))
    parents = extractor.extract(episode("老爸老妈都退休了。", actor="王芳"))  # two relatives, 老妈 no name
    named = {n for f in parents.facts for n in (f.subject, f.object) if n}
    assert named <= {"王芳", "王芳的爸爸", "王芳的妈妈"}, facts(parents)
    longer = extractor.extract(episode("My sister's husband's brother works at Boeing.", actor="Mark"))
    assert not longer.facts, "a chain of three is no one we can name"
    named = extractor.extract(episode("My sister's husband Tom works at Boeing.", actor="Mark"))
    assert {("Tom", "WORKS_AT", "Boeing"), ("Mark's sister", "MARRIED_TO", "Tom")} <= facts(named)
    spouse = extractor.extract(episode("My wife's boss is Linda.", actor="Mark"))
    assert ("Mark", "MARRIED_TO", "Mark's wife") in facts(spouse)
    assert {e.name: e.type for e in spouse.entities}["Mark's wife"] == "person"
    parents = extractor.extract(episode("我爸妈住在杭州。", actor="王芳"))  # both parents, each of them
    assert {("王芳的爸爸", "LIVES_IN", "杭州"), ("王芳的妈妈", "LIVES_IN", "杭州")} <= facts(parents)
    assert not any(f.subject == "王芳" and f.predicate == "LIVES_IN" for f in parents.facts)


def test_particles_pronouns_and_durations_are_no_objects(extractor: BuiltinExtractor) -> None:
    handover = extractor.extract(episode("海悦酒店这个客户以后由小吴负责哈。", actor="王芳"))
    assert facts(handover) == {("小吴", "RESPONSIBLE_FOR", "海悦酒店")}
    quit_ = extractor.extract(episode("烟我已经戒了快三个月了。", actor="王芳"))
    assert facts(quit_) == {("王芳", "STOPPED_USING", "烟")}  # the topic, not 快三个月
    ours = extractor.extract(episode("他们IT的小罗说明年想换成我们的系统试试。", actor="王芳"))
    assert not any(f.object == "我们" or f.value == "我们" for f in ours.facts)
    company = extractor.extract(episode("如有问题请联系我司物流专员董芳。", actor="王芳"))
    assert "我司物流" not in {e.name for e in company.entities}


def test_a_phone_number_after_a_name_is_that_persons(extractor: BuiltinExtractor) -> None:
    named = extractor.extract(episode("如有问题请联系我司物流专员董芳，电话021-58827731。", actor="王芳"))
    assert ("董芳", "PHONE", "02158827731") in facts(named)
    assert not any(f.subject == "王芳" and f.predicate == "PHONE" for f in named.facts)
    mine = extractor.extract(episode("有事打我电话13816620937。", actor="王芳"))
    assert facts(mine) == {("王芳", "PHONE", "13816620937")}


def test_speakers_are_people_and_names_only_addressed_are_not_entities(extractor: BuiltinExtractor) -> None:
    result = extractor.extract(
        episode("Sorry about your job Jon, but I just adopted a puppy named Biscuit!", actor="Gina")
    )
    assert entity_types(result) == {"Biscuit": "animal", "Gina": "person"}
    assert facts(result) == {("Gina", "HAS_PET", "Biscuit")}


def test_support_groups_are_events_not_places(extractor: BuiltinExtractor) -> None:
    result = extractor.extract(episode("I went to a LGBTQ support group yesterday and it was so powerful."))
    assert facts(result) == {("Li", "ATTENDED", "LGBTQ support group")}
    assert entity_types(result) == {"Li": "person"}


def test_patterns_are_chosen_by_the_whole_message(extractor: BuiltinExtractor) -> None:
    """A pattern triggered anywhere in a message reads every sentence of it."""
    both = extractor.extract(episode("Anna is a manager at Google. Mike is a photographer at Vogue."))
    assert {("Anna", "WORKS_AT", "Google"), ("Mike", "WORKS_AT", "Vogue")} <= facts(both)
    alone = extractor.extract(episode("Mike is a photographer at Vogue."))
    assert ("Mike", "WORKS_AT", "Vogue") in facts(alone), "any role at an organisation, not a listed few"


def test_an_index_without_trigger_words_finds_only_its_untriggered_patterns() -> None:
    from engram.ingest.patterns import PatternIndex

    assert PatternIndex([]).candidates("我喜欢咖啡") == []
