"""The agent path's arbitration and resolution rules through Memory, each in Chinese and in English.

Every test sends what an agent would (entities and facts with the episode) and reads the graph
back: what is current, what became history and why (``status_reason``, the operation's
per-fact decisions).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram import Memory, Settings
from engram.errors import InvalidInput
from engram.graph.nicknames import form_similarity
from engram.graph.places import contains
from engram.graph.refine import value_refines

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)


@pytest.fixture
def agent(tmp_path: Any) -> Iterator[Memory]:
    """Yield a Memory with no extractor: the graph is what the agent supplies."""
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extractor="none")
    with Memory.open(settings=settings) as memory:
        yield memory


def say(memory: Memory, content: str, days: float, *facts: dict[str, Any], **extra: Any) -> Any:
    body = {
        "content": content,
        "actor": {"id": "wangfang", "name": "王芳"},
        "timestamp": T0 + timedelta(days=days),
        "facts": list(facts),
        **extra,
    }
    return memory.create_episode(body)


def live(memory: Memory) -> set[tuple[str, str, object]]:
    hits = memory.search_facts({"limit": 100}).results
    return {(h.subject_name or "", h.fact.predicate, h.object_name or h.fact.value) for h in hits}


def every(memory: Memory) -> dict[tuple[str, str, object], Any]:
    hits = memory.search_facts({"limit": 100, "include_history": True}).results
    return {(h.subject_name or "", h.fact.predicate, h.object_name or h.fact.value): h.fact for h in hits}


def last_decisions(memory: Memory) -> list[dict[str, Any]]:
    [operation] = memory.list_operations(kind=["extract"], limit=1).items
    return list(operation.details["decisions"])


def f(subject: str, predicate: str, target: object, **more: Any) -> dict[str, Any]:
    key = "value" if not isinstance(target, str) or more.pop("literal", False) else "object"
    return {"subject": subject, "predicate": predicate, key: target, **more}


@pytest.mark.parametrize(
    ("start", "stop", "subject", "thing"),
    [
        ("孙丽平时用钉钉", "孙丽不再用钉钉了，卸载了", "孙丽", "钉钉"),
        ("Tom uses Slack", "Tom stopped using Slack", "Tom", "Slack"),
    ],
)
def test_a_stop_statement_closes_the_fact_at_its_time(
    agent: Memory, start: str, stop: str, subject: str, thing: str
) -> None:
    say(agent, start, 0, f(subject, "USES", thing))
    say(agent, stop, 30, f(subject, "STOPPED_USING", thing))
    assert live(agent) == {(subject, "STOPPED_USING", thing)}
    old = every(agent)[(subject, "USES", thing)]
    assert old.status == "superseded" and old.invalid_at == T0 + timedelta(days=30)
    assert old.status_reason and "ended by STOPPED_USING" in old.status_reason
    [decision] = last_decisions(agent)
    assert decision["decision"] == "ended" and decision["changes"][0]["fact"] == old.id
    assert [h.fact.predicate for h in agent.search_facts({"as_of": T0 + timedelta(days=10)}).results] == [
        "USES"
    ]


@pytest.mark.parametrize(
    ("start", "stop", "subject", "stopped", "thing"),
    [
        ("张伟在华为上班", "张伟上周从华为离职了", "张伟", "LEFT_ORGANISATION", "华为"),
        ("Dana works at Globex", "Dana left Globex last week", "Dana", "LEFT_ORGANISATION", "Globex"),
        ("Tom uses Slack", "Tom quit Slack last month", "Tom", "STOPPED_USING", "Slack"),
    ],
)
def test_an_end_said_later_but_dated_earlier_still_closes_the_fact(
    agent: Memory, start: str, stop: str, subject: str, stopped: str, thing: str
) -> None:
    """Said on day 0 "works at", on day 4 "left last week": the later word ends the job, closed no
    earlier than it was known to hold (never an interval that ends before it starts)."""
    predicate = "WORKS_AT" if stopped == "LEFT_ORGANISATION" else "USES"
    say(agent, start, 0, f(subject, predicate, thing))
    say(agent, stop, 4, f(subject, stopped, thing, valid_at=(T0 - timedelta(days=3)).isoformat()))
    assert live(agent) == {(subject, stopped, thing)}
    old = every(agent)[(subject, predicate, thing)]
    assert old.status == "superseded" and old.invalid_at == old.valid_at == T0
    assert [h.fact.predicate for h in agent.search_facts({"as_of": T0 + timedelta(days=2)}).results] == [
        stopped
    ]


def test_an_end_said_before_a_fact_held_does_not_close_it(agent: Memory) -> None:
    """An older episode imported late ("left Globex" on day 0, "works at Globex again" on day 9, the
    first one stored last) is history: it closes nothing that began after it was said."""
    say(agent, "Dana works at Globex again", 9, f("Dana", "WORKS_AT", "Globex"))
    say(agent, "Dana left Globex", 0, f("Dana", "LEFT_ORGANISATION", "Globex"))
    assert ("Dana", "WORKS_AT", "Globex") in live(agent)


@pytest.mark.parametrize(
    ("start", "stop", "subject", "thing"),
    [
        ("孙丽平时用飞书", "孙丽不用飞书了", "孙丽", "飞书"),
        ("We use Linear for tracking.", "We stopped using Linear.", "Ann", "Linear"),
    ],
)
def test_a_stop_said_as_a_value_ends_the_entity_it_names(
    agent: Memory, start: str, stop: str, subject: str, thing: str
) -> None:
    """An extractor that reads the stopped thing as text ("Linear", not a known product) still ends
    the live fact whose object is the entity of that name (its name or an alias, any case)."""
    say(agent, start, 0, f(subject, "USES", thing))
    say(agent, stop, 30, f(subject, "STOPPED_USING", thing.lower(), literal=True))
    assert (subject, "USES", thing) not in live(agent)
    assert every(agent)[(subject, "USES", thing)].status == "superseded"
    assert (subject, "STOPPED_USING", thing) in live(agent), "the stop names the entity it ended"


@pytest.mark.parametrize(
    ("first", "then", "stop", "role"),
    [
        ("吴昊担任项目经理", "吴昊卸任了", "LEFT_ROLE", "项目经理"),
        ("Jon works as a banker", "Jon lost his job", "LEFT_ROLE", "banker"),
    ],
)
def test_a_stop_naming_no_object_closes_the_latest_fact_in_the_thread(
    agent: Memory, first: str, then: str, stop: str, role: str
) -> None:
    thread = {"metadata": {"session": "s1"}}
    person = first[:2] if "担任" in first else "Jon"
    say(agent, first, 0, f(person, "HAS_ROLE", role), **thread)
    say(agent, then, 5, {"subject": person, "predicate": stop}, **thread)
    assert (person, "HAS_ROLE", role) not in live(agent)
    assert (person, stop, role) in live(agent), "the stop fact names what it ended"


def test_a_stop_naming_no_object_ends_what_its_predicate_names_first(agent: Memory) -> None:
    """LEFT_ORGANISATION ends WORKS_AT before MEMBER_OF: two facts of one episode tie on time."""
    say(agent, "Tom is in the chess club and works at Acme.", 0, f("Tom", "MEMBER_OF", "Chess Club"),
        f("Tom", "WORKS_AT", "Acme"))  # fmt: skip
    say(agent, "Tom left.", 10, {"subject": "Tom", "predicate": "LEFT_ORGANISATION"})
    assert live(agent) == {("Tom", "MEMBER_OF", "Chess Club"), ("Tom", "LEFT_ORGANISATION", "Acme")}


def test_a_stop_naming_no_object_ends_the_job_not_a_newer_membership_nor_a_later_job(agent: Memory) -> None:
    """ "Tom quit last week": his job ends, not the club he joined since, nor a job that began
    after the week he quit (told earlier, out of order)."""
    say(agent, "Tom works at Acme.", 0, f("Tom", "WORKS_AT", "Acme"))
    say(agent, "Tom joined the chess club.", 5, f("Tom", "MEMBER_OF", "Chess Club"))
    say(agent, "Tom quit.", 10, {"subject": "Tom", "predicate": "LEFT_ORGANISATION"})
    assert live(agent) == {("Tom", "MEMBER_OF", "Chess Club"), ("Tom", "LEFT_ORGANISATION", "Acme")}

    later = {"valid_at": (T0 + timedelta(days=40)).isoformat()}
    say(agent, "Ann works at Initech from next month.", 20, f("Ann", "WORKS_AT", "Initech", **later))
    say(agent, "Ann quit.", 25, {"subject": "Ann", "predicate": "LEFT_ORGANISATION"})
    assert ("Ann", "WORKS_AT", "Initech") in live(agent), (
        "a job that begins after the leaving is not what was left"
    )


@pytest.mark.parametrize(
    ("like", "hate", "thing"),
    [("陈静喜欢榴莲", "陈静讨厌榴莲", "榴莲"), ("Alice loves sushi", "Alice hates sushi", "sushi")],
)
def test_opposites_close_each_other(agent: Memory, like: str, hate: str, thing: str) -> None:
    who = like[:2] if like[0] == "陈" else "Alice"
    say(agent, like, 0, f(who, "LIKES", thing, literal=True))
    say(agent, hate, 10, f(who, "DISLIKES", thing, literal=True))
    assert live(agent) == {(who, "DISLIKES", thing)}
    say(agent, like + "了", 20, f(who, "LIKES", thing, literal=True))
    assert live(agent) == {(who, "LIKES", thing)}, "liking it again closes the dislike"


@pytest.mark.parametrize("sentence", ["孙丽不再负责华东区", "Priya no longer handles the east region"])
def test_a_negated_fact_closes_the_match_and_adds_nothing(agent: Memory, sentence: str) -> None:
    say(agent, "start", 0, f("孙丽", "RESPONSIBLE_FOR", "华东区", literal=True))
    say(agent, sentence, 10, f("孙丽", "RESPONSIBLE_FOR", "华东区", literal=True, negated=True))
    assert live(agent) == set()
    closed = every(agent)[("孙丽", "RESPONSIBLE_FOR", "华东区")]
    assert closed.invalid_at == T0 + timedelta(days=10) and "negated" in (closed.status_reason or "")
    say(agent, "again", 20, f("孙丽", "USES", "钉钉"))
    say(agent, "no more", 21, f("孙丽", "USES", "钉钉", negated=True))
    assert live(agent) == {("孙丽", "STOPPED_USING", "钉钉")}, "a negated USES is a STOPPED_USING"


@pytest.mark.parametrize(
    "sentence", ["孙丽从6月30日起不再负责华东区的客户。", "Priya's last day on Globex was June 30."]
)
def test_an_explicit_invalid_at_closes_the_matching_fact(agent: Memory, sentence: str) -> None:
    say(agent, "孙丽负责华东区的客户。", 0, f("孙丽", "RESPONSIBLE_FOR", "华东区客户", literal=True))
    end = datetime(2024, 6, 30, tzinfo=UTC)
    say(
        agent,
        sentence,
        130,
        f("孙丽", "RESPONSIBLE_FOR", "华东区客户", literal=True, invalid_at=end.isoformat()),
    )
    closed = every(agent)[("孙丽", "RESPONSIBLE_FOR", "华东区客户")]
    assert closed.invalid_at == end and closed.status == "superseded" and len(closed.episodes) == 2
    assert live(agent) == set()


@pytest.mark.parametrize(
    ("first", "second"),
    [("周杰被分到深圳仓储项目", "周杰调到CRM升级项目"), ("Sarah is on Atlas", "Sarah moved to Helios")],
)
def test_assignment_is_one_valued(agent: Memory, first: str, second: str) -> None:
    say(agent, first, 0, f("周杰", "ASSIGNED_TO", "深圳仓储"))
    say(agent, second, 30, f("周杰", "ASSIGNED_TO", "CRM升级"))
    assert live(agent) == {("周杰", "ASSIGNED_TO", "CRM升级")}
    say(agent, "unassigned", 40, f("周杰", "UNASSIGNED_FROM", "CRM升级"))
    assert ("周杰", "ASSIGNED_TO", "CRM升级") not in live(agent)


@pytest.mark.parametrize(
    ("coarse", "fine", "sentence"),
    [
        ("浙江", "杭州", "王芳住在杭州。"),
        ("杭州", "西湖区", "王芳具体住在西湖区。"),
        ("Texas", "Austin", "Wang lives in Austin."),
        ("Seattle", "Capitol Hill", "To be precise, Wang lives in Capitol Hill."),
    ],
)
def test_a_finer_place_refines_both_kept_finer_first(
    agent: Memory, coarse: str, fine: str, sentence: str
) -> None:
    places = [{"name": coarse, "type": "place"}]
    say(agent, f"王芳住在{coarse}。", 0, f("王芳", "LIVES_IN", coarse), entities=places)
    say(
        agent,
        sentence,
        10,
        f("王芳", "LIVES_IN", fine, fact=sentence),
        entities=[{"name": fine, "type": "place"}],
    )
    assert live(agent) == {("王芳", "LIVES_IN", coarse), ("王芳", "LIVES_IN", fine)}
    facts = every(agent)
    assert facts[("王芳", "LIVES_IN", fine)].confidence > facts[("王芳", "LIVES_IN", coarse)].confidence
    assert last_decisions(agent)[0]["decision"] == "refinement"


def test_places_numbers_and_dates_by_containment_and_precision() -> None:
    assert contains("浙江省", "杭州市") and contains("杭州", "杭州西湖区") and not contains("上海", "苏州")
    assert (
        contains("USA", "Seattle") and contains("Washington", "Seattle") and not contains("Austin", "Seattle")
    )
    assert value_refines(500000, "预算大概五十万", 520000) and not value_refines(500000, "预算五十万", 520000)
    assert value_refines(1_000_000, "about $1M", 1_050_000) and not value_refines(300000, "约三十万", 350000)
    assert value_refines("2024-06", "sometime in June", "2024-06-05")


@pytest.mark.parametrize(
    ("old", "new"),
    [("更正前：预算五十万", "更正：预算是八十万"), ("The budget is $500k", "Actually the budget is $800k")],
)
def test_a_real_correction_supersedes(agent: Memory, old: str, new: str) -> None:
    say(agent, old, 0, f("杭州项目", "BUDGET", 500000, fact=old))
    say(agent, new, 1, f("杭州项目", "BUDGET", 800000, fact=new, source_kind="inferred", confidence=0.5))
    assert live(agent) == {("杭州项目", "BUDGET", 800000)}
    assert last_decisions(agent)[0]["decision"] == "correction"


@pytest.mark.parametrize(
    ("old", "new"),
    [("预算大概五十万", "其实具体是五十二万"), ("The budget is about $500k", "more precisely, $520k")],
)
def test_a_finer_number_with_a_correction_cue_is_a_refinement(agent: Memory, old: str, new: str) -> None:
    say(agent, old, 0, f("杭州项目", "BUDGET", 500000, fact=old))
    say(agent, new, 1, f("杭州项目", "BUDGET", 520000, fact=new))
    assert live(agent) == {("杭州项目", "BUDGET", 500000), ("杭州项目", "BUDGET", 520000)}


def test_a_correction_supersedes_on_a_many_valued_predicate(agent: Memory) -> None:
    say(agent, "Nina's phone is 617-555-0100", 0, f("Nina", "PHONE", "617-555-0100", literal=True))
    say(
        agent,
        "Actually it's 617-555-0199, I mistyped it",
        0.1,
        f("Nina", "PHONE", "617-555-0199", literal=True),
    )
    assert live(agent) == {("Nina", "PHONE", "617-555-0199")}


@pytest.mark.parametrize(
    ("stated", "guess"),
    [("李强住在上海。", "李强可能搬去苏州了吧。"), ("Dana is the CFO.", "Dana might be COO now?")],
)
def test_an_older_stated_fact_beats_a_newer_weak_guess(agent: Memory, stated: str, guess: str) -> None:
    say(agent, stated, 0, f("李强", "LIVES_IN", "上海", source_kind="stated", confidence=0.9, fact=stated))
    say(agent, guess, 30, f("李强", "LIVES_IN", "苏州", source_kind="inferred", confidence=0.4, fact=guess))
    facts = every(agent)
    assert facts[("李强", "LIVES_IN", "上海")].status == "current"
    weak = facts[("李强", "LIVES_IN", "苏州")]
    assert weak.status == "disputed" and "less credible" in (weak.status_reason or "")
    hits = agent.search_facts({"query": "苏州"}).results
    assert [(h.fact.status, bool(h.fact.status_reason)) for h in hits] == [("disputed", True)], (
        "search says so"
    )


@pytest.mark.parametrize(
    ("content", "when", "place"),
    [("黄磊周末在家办公。", "周末", "家"), ("On weekends Priya works from home.", "weekends", "home")],
)
def test_conditions_keep_the_sentence_in_the_episode_language(
    agent: Memory, content: str, when: str, place: str
) -> None:
    say(agent, content, 0, f("黄磊", "WORKS_FROM", place, literal=True, conditions={"when": when}))
    [hit] = agent.search_facts({}).results
    assert hit.fact.fact == content and hit.fact.conditions == {"when": when}


@pytest.mark.parametrize(
    ("full", "form", "shared"),
    [
        ("李强", "李总", "星河科技"),
        ("李强", "小李", "华东物流"),
        ("Robert Chang", "Bob Chang", "Globex"),
        ("Robert Miller", "Bob", "Denver office"),
    ],
)
def test_a_nickname_with_the_same_role_and_neighbours_merges(
    agent: Memory, full: str, form: str, shared: str
) -> None:
    people = [{"name": full, "type": "person"}, {"name": shared, "type": "organisation"}]
    say(
        agent,
        f"{full} at {shared}",
        0,
        f(full, "WORKS_AT", shared),
        f(full, "RESPONSIBLE_FOR", "华东区", literal=True),
        entities=people,
    )
    people = [{"name": form, "type": "person"}, {"name": shared, "type": "organisation"}]
    say(
        agent,
        f"{form} at {shared}",
        7,
        f(form, "WORKS_AT", shared),
        f(form, "RESPONSIBLE_FOR", "华东区", literal=True),
        entities=people,
    )
    found = agent.search_entities(form, types=["person"])
    assert [e.name for e in found] == [full] and form in found[0].aliases
    assert form_similarity(form, full) > 0


def test_a_nickname_alone_is_not_enough(agent: Memory) -> None:
    say(
        agent,
        "李强在星河科技",
        0,
        f("李强", "WORKS_AT", "星河科技"),
        entities=[{"name": "李强", "type": "person"}],
    )
    say(
        agent,
        "小李今天请假",
        7,
        f("小李", "STATUS", "请假", literal=True),
        entities=[{"name": "小李", "type": "person"}],
    )
    assert {e.name for e in agent.search_entities("李", types=["person"])} == {"李强", "小李"}


@pytest.mark.parametrize(
    ("name", "one", "two"),
    [
        ("张伟", ("华为", "销售经理"), ("北京协和医院", "医生")),
        ("John Smith", ("Acme", "buyer"), ("Smith Plumbing", "plumber")),
    ],
)
def test_two_people_with_one_name_stay_two(
    agent: Memory, name: str, one: tuple[str, str], two: tuple[str, str]
) -> None:
    for days, (org, role) in ((0, one), (10, two)):
        entities = [
            {"name": name, "type": "person"},
            {"name": org, "type": "organisation"},
            {"name": role, "type": "role"},
        ]
        say(
            agent,
            f"{name}, {role} at {org}",
            days,
            f(name, "WORKS_AT", org),
            f(name, "HAS_ROLE", role),
            entities=entities,
        )
    assert len(agent.search_entities(name, types=["person"])) == 2
    assert {(n, p, o) for n, p, o in live(agent) if p == "WORKS_AT"} == {
        (name, "WORKS_AT", one[0]),
        (name, "WORKS_AT", two[0]),
    }
    [candidate] = agent.merge_candidates()
    assert candidate.entity.name == candidate.candidate.name == name, "left to a reviewer, not merged"


def test_one_change_of_employer_is_the_same_person(agent: Memory) -> None:
    say(
        agent,
        "林晓在阿里巴巴工作。",
        0,
        f("林晓", "WORKS_AT", "阿里巴巴"),
        entities=[{"name": "林晓", "type": "person"}],
    )
    say(
        agent,
        "林晓跳槽去了腾讯。",
        300,
        f("林晓", "WORKS_AT", "腾讯"),
        entities=[{"name": "林晓", "type": "person"}],
    )
    assert len(agent.search_entities("林晓")) == 1 and live(agent) == {("林晓", "WORKS_AT", "腾讯")}


# -- bad input ----------------------------------------------------------------------------------


def test_unknown_predicates_are_kept_and_reported(agent: Memory) -> None:
    created = say(agent, "Ann mentors Bo", 0, f("Ann", "mentors", "Bo"), f("Ann", "MENTORS", "Cy"))
    assert created.unknown_predicates == ["MENTORS"]
    assert live(agent) == {("Ann", "MENTORS", "Bo"), ("Ann", "MENTORS", "Cy")}, "many-valued"
    [operation] = agent.list_operations(kind=["extract"]).items
    assert operation.details["unknown_predicates"] == ["MENTORS"]
    episode = created.episode.id
    added = agent.add_facts({"episode_id": episode, "facts": [f("Ann", "COACHES", "Di")]})
    assert added.unknown_predicates == ["COACHES"] and added.decisions[0]["decision"] == "new"


@pytest.mark.parametrize(
    ("facts", "index"),
    [
        ([f("王芳", "USES", "钉钉"), f("王芳", "USES", "钉钉", negated=True)], 1),
        ([f("Ann", "USES", "Slack"), f("Ann", "LIVES_IN", "Oslo"), f("Ann", "STOPPED_USING", "Slack")], 2),
        ([f("李强", "LIVES_IN", "上海"), f("李强", "LIVES_IN", "苏州")], 1),
        ([f("Ann", "LIKES", "tea", literal=True), f("Ann", "DISLIKES", "tea", literal=True)], 1),
    ],
)
def test_contradictory_agent_input_is_refused_whole(
    agent: Memory, facts: list[dict[str, Any]], index: int
) -> None:
    with pytest.raises(InvalidInput) as refused:
        say(agent, "contradiction", 0, *facts)
    assert refused.value.field == f"facts.{index}"
    assert agent.list_episodes().items == [] and agent.search_facts({"include_history": True}).results == []


def test_what_is_not_a_contradiction_is_accepted(agent: Memory) -> None:
    say(
        agent,
        "杭州西湖区，周末在家",
        0,
        f("王芳", "LIVES_IN", "杭州"),
        f("王芳", "LIVES_IN", "杭州西湖区"),
        f("王芳", "WORKS_FROM", "家", literal=True, conditions={"when": "周末"}),
        f("王芳", "WORKS_FROM", "公司", literal=True, conditions={"when": "工作日"}),
    )
    assert len(live(agent)) == 4


def test_an_unknown_entity_id_is_refused_and_a_new_name_creates_the_entity(agent: Memory) -> None:
    with pytest.raises(InvalidInput) as refused:
        say(agent, "x", 0, f("Ann", "KNOWS", "en_01J00000000000000000000000"))
    assert refused.value.field == "facts.0.object" and agent.list_episodes().items == []
    with pytest.raises(InvalidInput, match="not an entity id") as malformed:
        say(agent, "x", 0, f("en_ann", "KNOWS", "Bo"))
    assert malformed.value.field == "facts.0.subject" and agent.search_entities("en_ann") == []
    say(agent, "Ann knows Bo", 0, f("Ann", "KNOWS", "Bo"))
    assert {e.name for e in agent.search_entities("Bo")} == {"Bo"}


@pytest.mark.parametrize(
    ("one", "two", "kind"),
    [
        ("anna.lee@example.com", "anna.lea@example.com", "email"),
        ("https://example.com/docs/a1", "https://example.com/docs/a2", "url"),
    ],
)
def test_addresses_a_letter_apart_are_two_and_never_a_candidate(
    agent: Memory, one: str, two: str, kind: str
) -> None:
    for days, address in ((0, one), (1, two)):
        say(
            agent,
            f"王芳的联系方式：{address}",
            days,
            f("王芳", "CONTACT", address),
            entities=[{"name": address, "type": kind}, {"name": "王芳", "type": "person"}],
        )
    assert sorted(e.name for e in agent.search_entities("example", types=[kind])) == sorted([one, two])
    assert agent.merge_candidates() == []  # an address is its own id: no near spelling to review


def test_the_speaker_is_one_person_across_a_job_change_and_namesakes_stay_apart(tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extractor="builtin")
    li = {"id": "u_li", "name": "李强"}
    other = {"id": "u_li_2", "name": "李强"}  # another person of that name
    said = [
        (li, "我是远景餐饮的采购总监。"),
        (li, "我下个月要跳槽去海底捞当运营副总裁了。"),
        (other, "我是协和医院的医生。"),
    ]
    with Memory.open(settings=settings) as memory:
        for day, (actor, content) in enumerate(said):
            memory.create_episode({"content": content, "actor": actor, "timestamp": T0 + timedelta(days=day)})
        people = memory.search_entities("李强")
        by_actor = {p.attributes["actor_id"]["value"]: p for p in people}
        assert sorted(by_actor) == ["u_li", "u_li_2"], "one entity per speaker"
        facts = {
            (h.fact.predicate, h.object_name, h.fact.status)
            for h in memory.search_facts({"subject": by_actor["u_li"].id, "include_history": True}).results
        }
        assert {("WORKS_AT", "远景餐饮", "superseded"), ("WORKS_AT", "海底捞", "current")} <= facts


@pytest.mark.parametrize("speaker_first", [True, False])
@pytest.mark.parametrize(
    ("actor", "mentioned_by_other", "said_by_them", "facts_of_them"),
    [
        (
            {"id": "dana", "name": "Dana Park"},
            "Dana Park is the IT Director at Globex.",
            "I moved to Denver last month.",
            {("HAS_ROLE", "IT Director"), ("LIVES_IN", "Denver")},
        ),
        (
            {"id": "u_zhou", "name": "周敏"},
            "周敏是华为的采购经理。",
            "我下个月搬到杭州。",
            {("WORKS_AT", "华为"), ("LIVES_IN", "杭州")},
        ),
    ],
)
def test_a_person_named_by_others_and_speaking_themselves_is_one_entity(
    tmp_path: Any,
    speaker_first: bool,
    actor: dict[str, str],
    mentioned_by_other: str,
    said_by_them: str,
    facts_of_them: set[tuple[str, str]],
) -> None:
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extractor="builtin")
    said = [({"id": "sam", "name": "Sam Ortiz"}, mentioned_by_other), (actor, said_by_them)]
    if speaker_first:
        said.reverse()
    with Memory.open(settings=settings) as memory:
        for day, (who, content) in enumerate(said):
            memory.create_episode({"content": content, "actor": who, "timestamp": T0 + timedelta(days=day)})
        people = [p for p in memory.search_entities(actor["name"]) if p.type == "person"]
        assert len(people) == 1, "the speaker is the person named by the same name, in either order"
        assert people[0].attributes["actor_id"]["value"] == actor["id"]
        hits = memory.search_facts({"subject": people[0].id}).results
        assert facts_of_them <= {(h.fact.predicate, h.object_name) for h in hits}
