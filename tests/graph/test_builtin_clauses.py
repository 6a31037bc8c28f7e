"""The builtin extractor's clause-level rules: date scope, hedges, value spans, second statements,
nicknames (sentences written for these tests, checked through the extractor and the server's
dating of what it returns)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from engram.config import Settings
from engram.ingest.builtin import BuiltinExtractor
from engram.memory import Memory
from engram.models.graph import Extraction, FactHit, FactIn
from engram.nlp.dates import date_facts, scoped_dates

AT = datetime(2024, 3, 13, 9, 30, tzinfo=UTC)  # a Wednesday


def remembered(data_dir: Path, said: list[tuple[str, str]], actor: str) -> list[FactHit]:
    """Store each (text, ISO timestamp) of ``said`` as an episode of ``actor`` through Memory with the
    builtin extractor, and return every fact it then holds, history included."""
    with Memory.open(settings=Settings(data_dir=data_dir, embedder="none", extractor="builtin")) as memory:
        for text, at in said:
            memory.create_episode(
                {"content": text, "timestamp": at, "actor": {"id": actor.lower(), "name": actor}}
            )
        return memory.search_facts({"include_history": True}).results


def read(extractor: BuiltinExtractor, text: str, actor: str = "Ann") -> Extraction:
    """Return what the extractor finds in ``text``, dated as the server dates it."""
    return date_facts(extractor.extract_text(text, actor=actor, at=AT), AT, fallback_text=text)


Triple = tuple[str, str, object]
Case = tuple[str, str, set[Triple], set[Triple]]
"""(sentence, speaker, facts that must be found, facts that must not be)."""


def triples(result: Extraction) -> set[Triple]:
    return {(f.subject, f.predicate, f.object if f.object is not None else f.value) for f in result.facts}


def reads(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    """Assert that ``text``, said by ``actor``, gives every ``wanted`` fact and no ``unwanted`` one."""
    found = triples(read(extractor, text, actor=actor))
    assert wanted <= found, found
    assert not unwanted & found, found


def fact(result: Extraction, predicate: str) -> FactIn:
    (found,) = [f for f in result.facts if f.predicate == predicate]
    return found


# ── a date phrase dates its own clause only ───────────────────────────────────────────────


def test_a_date_in_one_clause_does_not_date_the_next(extractor: BuiltinExtractor) -> None:
    result = read(extractor, "Lost my job as a banker yesterday, so now I work at Target.")
    assert fact(result, "LEFT_ROLE").valid_at == datetime(2024, 3, 12, tzinfo=UTC)
    assert fact(result, "WORKS_AT").valid_at is None
    chinese = read(extractor, "我去年搬到了北京，现在在华为工作。", actor="李强")
    assert fact(chinese, "LIVES_IN").valid_at == datetime(2023, 1, 1, tzinfo=UTC)
    assert fact(chinese, "WORKS_AT").valid_at is None


def test_a_parenthesis_is_dated_by_nothing_outside_it(extractor: BuiltinExtractor) -> None:
    text = "Greg Walsh (CTO at Pinecrest Health) confirmed they'll pilot it in two clinics starting Aug 1"
    result = read(extractor, text, actor="Mia")
    assert fact(result, "WORKS_AT").object == "Pinecrest Health"
    assert fact(result, "WORKS_AT").valid_at is None


def test_a_leading_time_clause_dates_the_whole_sentence(extractor: BuiltinExtractor) -> None:
    result = read(extractor, "Last year, I moved to Berlin and I started working at Google.")
    assert fact(result, "LIVES_IN").valid_at == datetime(2023, 1, 1, tzinfo=UTC)
    assert fact(result, "WORKS_AT").valid_at == datetime(2023, 1, 1, tzinfo=UTC)
    chinese = read(extractor, "去年，我搬到了北京，在华为工作。", actor="李强")
    assert fact(chinese, "WORKS_AT").valid_at == datetime(2023, 1, 1, tzinfo=UTC)


def test_scoped_dates_finds_the_clause_naming_the_target() -> None:
    sentence = "I sold my old car last week, and I drive a Tesla now."
    assert scoped_dates(sentence, AT, target="Tesla") is None
    last_week = scoped_dates(sentence, AT, target="old car")
    assert last_week is not None and last_week.start == datetime(2024, 3, 4, tzinfo=UTC)
    whole = scoped_dates(sentence, AT, target="a bicycle")  # not in the sentence: its first date
    assert whole is not None and whole.start == last_week.start


def test_a_reported_statement_is_a_clause_of_its_own_for_dates(extractor: BuiltinExtractor) -> None:
    result = read(extractor, "星河科技的李总说华东区下季度目标要翻倍。", actor="王芳")
    assert fact(result, "WORKS_AT").valid_at is None  # 下季度 is the target's, not when 李总 joined


# ── hedges: a guess is inferred, at half the confidence ───────────────────────────────────


@pytest.mark.parametrize(
    ("text", "actor", "wanted"),
    [
        ("Dana Whitfield might be COO now?", "Sarah", ("Dana Whitfield", "HAS_ROLE", "COO")),
        ("I think Li Wei lives in Boston now.", "Sarah", ("Li Wei", "LIVES_IN", "Boston")),
        ("李强最近好像经常去苏州，可能搬去苏州了吧。", "王芳", ("李强", "LIVES_IN", "苏州")),
        ("听说陈静在腾讯工作。", "王芳", ("陈静", "WORKS_AT", "腾讯")),
    ],
)
def test_a_hedged_statement_is_an_inferred_guess(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: tuple[str, str, str]
) -> None:
    result = read(extractor, text, actor=actor)
    assert wanted in triples(result)
    guessed = fact(result, wanted[1])
    assert guessed.source_kind == "inferred" and guessed.confidence is not None and guessed.confidence < 0.5


def test_a_plain_statement_stays_stated(extractor: BuiltinExtractor) -> None:
    stated = fact(read(extractor, "李强住在上海。", actor="李强"), "LIVES_IN")
    assert stated.source_kind == "stated" and stated.confidence is not None and stated.confidence > 0.8
    approximate = fact(read(extractor, "项目预算大概五十万。", actor="王芳"), "BUDGET")
    assert approximate.source_kind == "stated"  # 大概 before an amount rounds it, it does not guess


# ── second statements: stops, switches, corrections ───────────────────────────────────────

SECOND: list[Case] = [
    ("Sarah Kim is no longer Scrum master; she is product owner now.", "Sarah Kim",
     {("Sarah Kim", "LEFT_ROLE", "scrum master"), ("Sarah Kim", "HAS_ROLE", "product owner")},
     {("Sarah Kim", "HAS_ROLE", "scrum master")}),
    ("Sarah Kim is the Scrum master of the mobile team.", "Tom", {("Sarah Kim", "HAS_ROLE", "scrum master")},
     {("Sarah Kim", "HAS_ROLE", "Scrum")}),
    ("Lost my job as a banker yesterday.", "Jon", {("Jon", "LEFT_ROLE", "banker")},
     {("Jon", "HAS_ROLE", "banker")}),
    ("Tom Becker stopped using Slack and uninstalled it.", "Tom Becker",
     {("Tom Becker", "STOPPED_USING", "Slack")}, set()),
    ("Mark Davis switched from Jira to Linear in October.", "Mark Davis",
     {("Mark Davis", "STOPPED_USING", "Jira"), ("Mark Davis", "USES", "Linear")},
     {("Mark Davis", "ASSIGNED_TO", "Linear")}),
    ("Mark Davis tracks work in Jira.", "Ann", {("Mark Davis", "USES", "Jira")}, set()),
    ("I keep my bike in Brooklyn.", "Ann", set(), {("Ann", "USES", "Brooklyn")}),
    ("Sarah Kim has been reassigned to the Helios launch.", "Ann",
     {("Sarah Kim", "ASSIGNED_TO", "Helios launch")}, set()),
    ("Actually, Nina Park's number is 617-555-0199; I mistyped it.", "Tom",
     {("Nina Park", "PHONE", "6175550199")}, {("Tom", "PHONE", "6175550199")}),
    ("Actually it's Bob Chen who leads the Atlas project.", "Ann",
     {("Bob Chen", "RESPONSIBLE_FOR", "Atlas project")}, set()),
    ("孙丽从6月30日起不再负责华东区的客户。", "赵敏", {("孙丽", "UNASSIGNED_FROM", "华东区")},
     {("孙丽", "RESPONSIBLE_FOR", "华东区")}),
    ("杭州项目其实是李强负责。", "王芳", {("李强", "ASSIGNED_TO", "杭州项目")}, set()),
    ("其实官网改版项目预算是三十五万，我之前说错了。", "陈静", {("官网改版项目", "BUDGET", 350_000)},
     {("陈静", "BUDGET", 350_000)}),
    ("陈静现在不喜欢吃榴莲了。", "陈静", {("陈静", "DISLIKES", "榴莲")}, set()),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), SECOND, ids=[s[0][:30] for s in SECOND])
def test_second_statements_read_the_right_subject_and_predicate(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


# ── free-text objects keep their phrase ───────────────────────────────────────────────────

SPANS: list[Case] = [
    ("I love painting sunsets with my kids on weekends.", "Ann", {("Ann", "LIKES", "painting sunsets")},
     {("Ann", "LIKES", "painting")}),
    ("I'm planning to study abroad in Japan next year.", "Ann",
     {("Ann", "PLANS_TO", "study abroad in Japan")}, {("Ann", "STUDIES", "abroad")}),
    ("我打算明年去日本读研。", "陈静",
     {("陈静", "PLANS_TO", "去日本读研"), ("陈静", "PLANS_TO_VISIT", "日本")},
     set()),
    ("我打算明年春天去日本看樱花。", "陈静", {("陈静", "PLANS_TO_VISIT", "日本")},
     {("陈静", "PLANS_TO", "春天去日本看樱花"), ("陈静", "PLANS_TO", "去日本看樱花")}),
    ("陈静很喜欢吃榴莲。", "陈静", {("陈静", "LIKES", "榴莲")}, {("陈静", "LIKES", "吃榴莲")}),
    ("我喜欢画日落。", "陈静", {("陈静", "LIKES", "画日落")}, set()),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), SPANS, ids=[s[0][:30] for s in SPANS])
def test_free_text_objects_are_the_whole_phrase(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


# ── people: nicknames, employers, offices ─────────────────────────────────────────────────


def test_nicknames_are_people(extractor: BuiltinExtractor) -> None:
    xiaoli = read(extractor, "小李今天把华东物流的报价发过来了。", actor="王芳")
    assert {"小李": "person"}.items() <= {e.name: e.type for e in xiaoli.entities}.items()
    laowang = read(extractor, "老王明天去北京出差。", actor="王芳")
    assert ("老王", "PLANS_TO_VISIT", "北京") in triples(laowang)
    bob = read(extractor, "Bob from the Denver office says the Denver rollout is on track.", actor="Alice")
    assert ("Bob", "WORKS_FROM", "Denver office") in triples(bob)
    assert {e.name: e.type for e in bob.entities}["Bob"] == "person"


PEOPLE: list[Case] = [
    ("星河科技的李总说华东区下季度目标要翻倍。", "王芳", {("李总", "WORKS_AT", "星河科技")}, set()),
    ("John Smith from Acme Corp is our new buyer.", "Sarah",
     {("John Smith", "WORKS_AT", "Acme Corp"), ("John Smith", "HAS_ROLE", "buyer")}, set()),
    ("John Smith, the plumber from Smith Plumbing, fixed the office sink.", "Sarah",
     {("John Smith", "WORKS_AT", "Smith Plumbing"), ("John Smith", "HAS_ROLE", "plumber")}, set()),
    ("I met Anna from Boston yesterday.", "Sarah", set(), {("Anna", "WORKS_AT", "Boston")}),
    ("I love Lord of the Rings.", "Sarah", {("Sarah", "LIKES", "Lord of the Rings")},
     {("Lord", "WORKS_AT", "Rings")}),
    ("Robert Miller runs the Denver office and owns the Denver rollout.", "Alice",
     {("Robert Miller", "MANAGES", "Denver office"), ("Robert Miller", "RESPONSIBLE_FOR", "Denver rollout")},
     set()),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), PEOPLE, ids=[s[0][:30] for s in PEOPLE])
def test_employers_and_offices_named_beside_a_person(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
    assert "Lord of the Rings" not in {
        e.name for e in read(extractor, text, actor).entities if e.type == "person"
    }


# ── noun phrases: appositions, a project's own word, counts, durations ────────────────────

PHRASES: list[Case] = [
    ("Hank, our CTO, prefers Postgres over MySQL.", "Jon",
     {("Hank", "HAS_ROLE", "CTO"), ("Hank", "PREFERS", "Postgres")},
     {("Jon", "HAS_ROLE", "CTO"), ("Jon", "PREFERS", "Postgres")}),
    ("The Nimbus launch slipped to May 20.", "Jon", {("Nimbus launch", "LAUNCH_DATE", "2024-05-20")}, set()),
    ("Initech cancelled their order for 200 laptops.", "Jon", set(), {("Initech", "PRICE", 200)}),
    ("I used to smoke but I quit two years ago.", "Jon", set(), {("Jon", "STOPPED_USING", "two years")}),
    ("I've lived in Toronto for ten years.", "Jon", {("Jon", "LIVES_IN", "Toronto")}, set()),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), PHRASES, ids=[s[0][:30] for s in PHRASES])
def test_noun_phrases_name_the_right_thing(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_a_time_phrase_standing_alone_or_from_then_on_dates_the_other_clauses(
    extractor: BuiltinExtractor,
) -> None:
    moved = read(
        extractor, "I've been reassigned from the Atlas migration to the Helios launch, starting Monday."
    )
    assert fact(moved, "ASSIGNED_TO").valid_at == datetime(2024, 3, 18, tzinfo=UTC)
    handed = read(extractor, "李强下周一起不再负责华东区，改管华北区。", actor="王芳")
    assert {f.valid_at for f in handed.facts} == {datetime(2024, 3, 18, tzinfo=UTC)}
    point = read(
        extractor, "我昨天搬到了北京，改管华北区。", actor="李强"
    )  # a point in time: that clause only
    assert fact(point, "LIVES_IN").valid_at == datetime(2024, 3, 12, tzinfo=UTC)
    assert fact(point, "RESPONSIBLE_FOR").valid_at is None


# ── tastes and plans in conversational turns ──────────────────────────────────────────────

TASTES: list[Case] = [
    ("I love coconut milk, but I also enjoy chocolate and mixed berry flavors.", "Nate",
     {("Nate", "LIKES", "coconut milk"), ("Nate", "LIKES", "mixed berry flavors")}, set()),
    ("I love all dances, but contemporary is my top pick.", "Jon", {("Jon", "PREFERS", "contemporary")},
     {("Jon", "PREFERS", "but contemporary")}),
    ("I don't surf, but reading a great fantasy book helps me escape and feel free.", "Tim",
     {("Tim", "LIKES", "reading a great fantasy book")}, set()),
    ("I love the connection to nature.", "John", set(), {("John", "LIKES", "connection")}),
    ("Just got back from a family road trip yesterday, it was fun!", "John",
     {("John", "ATTENDED", "family road trip")}, set()),
    ("I just signed up for a pottery class yesterday.", "Mel",
     {("Mel", "STUDIES", "pottery")}, {("Mel", "STUDIES", "pottery class")}),
    ("Yeah, I painted that lake sunrise last year!", "Mel", {("Mel", "CREATED", "lake sunrise")}, set()),
    ("钱坤的电话是 021-6234 5678，上午比较好找他。", "王芳", set(), {("王芳", "PHONE", "02162345678")}),
    ("我下个月10号去上海参加同学聚会。", "陈静", {("陈静", "PLANS_TO", "同学聚会")},
     {("陈静", "STUDIES", "聚会")}),
    ("我每年国庆都回老家厦门。", "陈静", {("陈静", "VISITED", "厦门"), ("陈静", "COMES_FROM", "厦门")},
     set()),
    ("我是星河科技华东区的销售总监。", "李强", {("李强", "RESPONSIBLE_FOR", "华东区")},
     {("星河科技", "RESPONSIBLE_FOR", "华东区")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), TASTES, ids=[s[0][:30] for s in TASTES])
def test_conversational_tastes_plans_and_visits(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_a_later_clause_of_a_date_and_a_bare_verb_dates_the_event() -> None:
    said = "李强的团队已经不用飞书了，上周卸载了。"
    stop = FactIn(subject="李强", predicate="STOPPED_USING", object="飞书", fact=said)
    (dated,) = date_facts(Extraction(facts=[stop]), AT, fallback_text=said).facts
    assert dated.valid_at == datetime(2024, 3, 4, tzinfo=UTC)  # 上周 of Wednesday 13 March: that Monday
    other = FactIn(subject="李强", predicate="LIVES_IN", object="北京", fact="李强住在北京，上周换了新工作。")
    (undated,) = date_facts(Extraction(facts=[other]), AT, fallback_text=other.fact or "").facts
    assert undated.valid_at is None  # that clause names its own event
