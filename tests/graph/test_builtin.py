"""The builtin extractor: bilingual entities, predicate patterns, references, amounts, speed."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engram.ingest.builtin import BuiltinExtractor
from engram.ingest.clauses import find_conditions
from engram.ingest.extract import Extractor
from engram.ingest.references import ReferenceTable, split_version
from engram.models.episodes import Actor, Episode
from engram.models.graph import Extraction, FactIn
from engram.nlp.amounts import cn_to_int, parse_amount

LOCOMO_DEV = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "locomo" / "locomo-dev.json"
NOW = datetime(2025, 5, 1, tzinfo=UTC)


def episode(content: str, actor: str | None = "Li", **more: Any) -> Episode:
    """Return a stored-looking episode spoken by ``actor``."""
    return Episode(
        id="ep_1",
        group_id="g",
        version=1,
        timestamp=NOW,
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
    ("预算八十万，报价单价是3,500元。", {("Li", "BUDGET", 800_000), ("Li", "PRICE", 3_500)}, {}),
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
    ("王老师的生日是5月3日。", {("王老师", "BIRTHDAY", "5月3日")}, {"王老师": "person"}),
    ("Mr. Chen's birthday is on March 3.", {("Chen", "BIRTHDAY", "March 3")}, {"Chen": "person"}),
    ("项目截止日期是6月30日。", {("Li", "DEADLINE", "6月30日")}, {}),
    ("我们周三下午开会。", {("Li", "MEETING_AT", "周三下午")}, {}),
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
        assert fact.source_kind == "stated" and fact.fact == text and fact.valid_at is None


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
    assert [(f.predicate, f.value, f.conditions) for f in zh.facts] == [("PREFERS", "喝茶", {"when": "周末"})]
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
     ("2 billion", 2 * 10**9)],
)  # fmt: skip
def test_amounts_parse_to_integers(text: str, amount: int) -> None:
    assert parse_amount(text) == amount


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


def test_reference_table_rules_and_versions() -> None:
    table = ReferenceTable([{"pattern": r"CASE#(\d+)", "type": "case", "id": "case:{1}"}], use_defaults=False)
    assert [(r.type, r.id) for r in table.find("see CASE#42 and DEAL-1")] == [("case", "case:42")]
    versions = ReferenceTable().find("《采购合同（第二版）》 Proposal(v3).docx notes.txt 方案_final.pptx")
    assert [r.id for r in versions] == ["doc:采购合同@v2", "doc:Proposal@v3", "doc:notes", "doc:方案@vfinal"]
    assert split_version("报价单_v2") == ("报价单", "2") and split_version("v2") == ("v2", None)
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
