"""The knowledge graph through Memory (SQLite and PostgreSQL): extraction, resolution, arbitration, reads."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram import Memory, Settings
from engram.errors import Conflict, NotFound

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)


@pytest.fixture
def graph(backend: dict[str, Any]) -> Iterator[Memory]:
    """Yield a Memory with the builtin extractor on each backend."""
    with Memory.open(settings=Settings(**backend, embedder="none", extractor="builtin")) as memory:
        yield memory


def say(memory: Memory, content: str, *, days: int, who: str = "li", **extra: object) -> str:
    body = {
        "content": content,
        "actor": {"id": who, "name": who.title()},
        "timestamp": T0 + timedelta(days=days),
    }
    return memory.create_episode({**body, **extra}).episode.id


def facts(memory: Memory, **search: object) -> list[tuple[str, str, object, str]]:
    hits = memory.search_facts({"limit": 50, **search}).results
    return sorted(
        (h.subject_name or "", h.fact.predicate, h.object_name or h.fact.value, h.fact.status) for h in hits
    )


def test_agent_supplied_update_supersedes_and_keeps_history(graph: Memory) -> None:
    first = say(
        graph,
        "The ACME budget is 500k",
        days=0,
        entities=[{"name": "ACME", "type": "organisation"}],
        facts=[{"subject": "ACME", "predicate": "BUDGET", "value": 500000, "fact": "ACME budget is 500k"}],
    )
    second = say(
        graph,
        "Update: ACME's budget is now 800k",
        days=30,
        facts=[{"subject": "ACME", "predicate": "budget", "value": 800000, "fact": "ACME budget is 800k"}],
    )
    assert facts(graph) == [("ACME", "BUDGET", 800000, "current")], "only the current fact by default"
    history = graph.search_facts({"query": "budget", "include_history": True}).results
    old = next(h.fact for h in history if h.fact.value == 500000)
    new = next(h.fact for h in history if h.fact.value == 800000)
    assert old.status == "superseded" and old.superseded_by == new.id
    assert old.invalid_at == new.valid_at == T0 + timedelta(days=30)
    assert old.episodes == [first] and new.episodes == [second]
    assert [h.fact.value for h in graph.search_facts({"as_of": T0 + timedelta(days=10)}).results] == [500000]
    assert graph.search_facts({"query": "budget"}).results[0].citations == [f"[source: {second}]"]


def test_restatement_adds_provenance_instead_of_a_second_fact(graph: Memory) -> None:
    supplied = {
        "facts": [{"subject": "李强", "predicate": "LIVES_IN", "object": "杭州", "confidence": 0.7}],
        "entities": [{"name": "李强", "type": "person"}, {"name": "杭州", "type": "place"}],
    }
    a = say(graph, "李强住在杭州", days=0, **supplied)
    b = say(graph, "李强还是住在杭州", days=5, **supplied)
    [hit] = graph.search_facts({"subject": "李强"}).results
    assert hit.fact.episodes == [a, b] and hit.fact.confidence > 0.7 and hit.fact.version == 2


def test_builtin_extractor_builds_the_graph_and_chit_chat_does_not(graph: Memory) -> None:
    say(graph, "哈哈，好的", days=0)
    assert graph.search_entities("哈哈") == []
    say(graph, "I live in Boston and I work at Initech.", days=1, who="caroline")
    found = facts(graph, subject="Caroline")
    assert ("Caroline", "LIVES_IN", "Boston", "current") in found
    assert ("Caroline", "WORKS_AT", "Initech", "current") in found
    say(graph, "I moved, I live in Seattle now.", days=40, who="caroline")
    assert ("Caroline", "LIVES_IN", "Seattle", "current") in facts(graph, subject="Caroline")
    assert ("Caroline", "LIVES_IN", "Boston", "current") not in facts(graph, subject="Caroline")
    [caroline] = graph.search_entities("caroline")
    view = graph.get_entity(caroline.id)
    assert {h.fact.predicate for h in view.facts} >= {"LIVES_IN", "WORKS_AT"}
    assert view.timeline[0].version == 1


def test_conditional_and_dispute(graph: Memory) -> None:
    ents = [{"name": "王芳", "type": "person"}]
    say(
        graph,
        "王芳工作日喝咖啡",
        days=0,
        entities=ents,
        facts=[
            {"subject": "王芳", "predicate": "PREFERS", "value": "咖啡", "conditions": {"when": "工作日"}}
        ],
    )
    say(
        graph,
        "王芳周末喝茶",
        days=1,
        entities=ents,
        facts=[{"subject": "王芳", "predicate": "PREFERS", "value": "茶", "conditions": {"when": "周末"}}],
    )
    assert {h.fact.value for h in graph.search_facts({"subject": "王芳"}).results} == {"咖啡", "茶"}
    say(
        graph,
        "项目预算是五十万",
        days=2,
        entities=[{"name": "杭州项目", "type": "project"}],
        facts=[{"subject": "杭州项目", "predicate": "BUDGET", "value": 500000, "confidence": 0.95}],
    )
    say(
        graph,
        "听说预算可能是八十万",
        days=3,
        facts=[
            {
                "subject": "杭州项目",
                "predicate": "BUDGET",
                "value": 800000,
                "confidence": 0.5,
                "source_kind": "inferred",
            }
        ],
    )
    hits = graph.search_facts({"subject": "杭州项目"}).results
    assert {(h.fact.value, h.fact.status) for h in hits} == {(500000, "current"), (800000, "disputed")}
    disputed = next(h.fact for h in hits if h.fact.status == "disputed")
    assert disputed.status_reason and "less credible" in disputed.status_reason


def test_entities_resolve_by_alias_and_types_stay_apart(graph: Memory) -> None:
    say(graph, "李强 aka 强哥", days=0, entities=[{"name": "李强", "type": "person", "aliases": ["强哥"]}])
    say(graph, "强哥 joined", days=1, entities=[{"name": "强哥", "type": "person"}])
    say(graph, "Apple the company", days=1, entities=[{"name": "Apple", "type": "organisation"}])
    say(graph, "an apple to eat", days=1, entities=[{"name": "Apple", "type": "food"}])
    assert len(graph.search_entities("强哥")) == 1
    assert {e.type for e in graph.search_entities("apple")} == {"organisation", "food"}


def test_add_facts_to_a_stored_episode_and_errors(graph: Memory) -> None:
    episode = say(graph, "note", days=0)
    result = graph.add_facts(
        {
            "episode_id": episode,
            "entities": [{"name": "Bob", "type": "person"}],
            "facts": [{"subject": "Bob", "predicate": "LIKES", "value": "tea"}],
        }
    )
    assert result.facts == {"new": 1}
    assert graph.search_facts({"query": "tea"}).results[0].citations == [f"[source: {episode}]"]
    with pytest.raises(NotFound):
        graph.add_facts(
            {"episode_id": "nope", "facts": [{"subject": "Bob", "predicate": "LIKES", "value": "x"}]}
        )
    with pytest.raises(NotFound):
        graph.get_entity("en_01ABCDEFGHJKMNPQRSTVWXYZ00")


def test_refinement_by_a_finer_name_and_not_by_a_longer_number(graph: Memory) -> None:
    ents = [{"name": "赵敏", "type": "person"}]
    say(
        graph,
        "赵敏住在杭州",
        days=0,
        entities=ents,
        facts=[{"subject": "赵敏", "predicate": "LIVES_IN", "value": "杭州"}],
    )
    say(
        graph,
        "赵敏住在杭州滨江区",
        days=9,
        entities=ents,
        facts=[{"subject": "赵敏", "predicate": "LIVES_IN", "value": "杭州滨江区"}],
    )
    assert {(h.fact.value, h.fact.status) for h in graph.search_facts({"subject": "赵敏"}).results} == {
        ("杭州", "current"),
        ("杭州滨江区", "current"),
    }
    say(
        graph,
        "room v1",
        days=0,
        entities=ents,
        facts=[{"subject": "赵敏", "predicate": "HAS_ROLE", "value": "v1"}],
    )
    say(
        graph,
        "room v10",
        days=9,
        entities=ents,
        facts=[{"subject": "赵敏", "predicate": "HAS_ROLE", "value": "v10"}],
    )
    roles = {
        (h.fact.value, h.fact.status)
        for h in graph.search_facts({"subject": "赵敏", "predicate": "HAS_ROLE"}).results
    }
    assert roles == {("v10", "current")}, "v10 is an update of v1, not a refinement"


def test_graph_channel_ranks_the_episode_of_the_current_fact_first(graph: Memory) -> None:
    ents = [{"name": "ACME", "type": "organisation"}]
    old = say(
        graph,
        "ACME budget: the ACME budget is 500k",
        days=0,
        entities=ents,
        facts=[{"subject": "ACME", "predicate": "BUDGET", "value": 500000, "fact": "ACME budget is 500k"}],
    )
    new = say(
        graph,
        "Budget for ACME moved to 800k after the board meeting with the investors last Friday",
        days=30,
        entities=ents,
        facts=[{"subject": "ACME", "predicate": "BUDGET", "value": 800000, "fact": "ACME budget is 800k"}],
    )
    plain = graph.search_episodes({"query": "ACME budget"}, channels=["bm25"]).results
    assert plain[0].episode.id == old, "BM25 alone prefers the older, wordier episode"
    [first, *_] = graph.search_episodes({"query": "ACME budget", "explain": True}).results
    assert first.episode.id == new
    assert first.explanation is not None and "graph" in first.explanation["channels"]


def test_merge_two_entities_moves_names_facts_and_mentions(graph: Memory) -> None:
    a = say(
        graph,
        "小李 likes tea",
        days=0,
        entities=[{"name": "小李", "type": "person"}],
        facts=[{"subject": "小李", "predicate": "LIKES", "value": "tea"}],
    )
    say(
        graph,
        "李强 works at ACME",
        days=1,
        entities=[{"name": "李强", "type": "person"}, {"name": "ACME", "type": "organisation"}],
        facts=[{"subject": "李强", "predicate": "WORKS_AT", "object": "ACME"}],
    )
    [small] = graph.search_entities("小李")
    [full] = graph.search_entities("李强")
    assert small.id != full.id, "a nickname alone is no evidence"
    merged = graph.merge_entities(small.id, full.id)
    assert merged.entity.id == full.id and "小李" in merged.entity.aliases
    assert {h.fact.predicate for h in merged.facts} == {"LIKES", "WORKS_AT"}
    with pytest.raises(NotFound):
        graph.get_entity(small.id)
    assert [e.id for e in graph.search_entities("小李")] == [full.id]
    assert full.id in graph.store.mentioned_entities("default", a)  # type: ignore[attr-defined]
    with pytest.raises(Conflict):  # itself: the stored state forbids it
        graph.merge_entities(full.id, full.id)
    [acme] = graph.search_entities("ACME")
    with pytest.raises(Conflict, match=r"cannot merge a '\w+' entity into a 'person' one"):  # a company
        graph.merge_entities(acme.id, full.id)


def test_fact_search_reading_few_candidates_first_returns_what_reading_all_does(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The best-BM25 candidates read first must not change the answer: superseded facts with short
    sentences outrank the current ones, so a small candidate pool fails the filter and is re-read."""
    from engram.storage.sqlite import fulltext

    with Memory.open(settings=Settings(data_dir=tmp_path, embedder="none", extractor="none")) as memory:
        for day, (sentence, value) in enumerate(
            [("budget {org}", 1), ("the {org} budget was raised again", 2)]
        ):
            memory.create_episodes(
                [
                    {
                        "content": f"{org} budget {value}",
                        "timestamp": T0 + timedelta(days=day),
                        "facts": [
                            {
                                "subject": org,
                                "predicate": "BUDGET",
                                "value": value,
                                "fact": sentence.format(org=org),
                            }
                        ],
                    }
                    for org in (f"Org{n}" for n in range(12))
                ]
            )

        def ranked(**search: object) -> list[tuple[str, int, float]]:
            hits = memory.search_facts({"query": "budget", "limit": 5} | search).results
            return [(h.fact.id, h.fact.version, round(h.score, 9)) for h in hits]

        # Filtered out, outranked once weighted, filtered by subject, and answered by the candidates alone.
        searches: list[dict[str, object]] = [
            {},
            {"include_history": True},
            {"subject": "Org3", "include_history": True},
            {"query": "raised again", "limit": 2},
        ]
        everything = [ranked(**search) for search in searches]
        monkeypatch.setattr(fulltext, "FACT_CANDIDATES", 3)
        assert [ranked(**search) for search in searches] == everything
    assert [len(found) for found in everything] == [5, 5, 2, 2]
    assert all(score > 0 for found in everything for _, _, score in found)


def test_names_learned_earlier_in_a_batch_find_their_entity(graph: Memory) -> None:
    """One transaction builds a batch's graph and remembers which entities the names it looked up
    find: a name first unknown, then given to a new entity or added as an alias, must find that
    entity later in the same batch (not a second one, not nothing)."""

    def episode(day: int, content: str, **extra: object) -> dict[str, object]:
        return {
            "content": content,
            "actor": {"id": "li", "name": "Li"},
            "timestamp": T0 + timedelta(days=day),
            **extra,
        }

    graph.create_episodes(
        [
            episode(
                0, "Zed joined Acme.", facts=[{"subject": "Zed", "predicate": "WORKS_AT", "object": "Acme"}]
            ),
            episode(
                1,
                "Anna Lee moved to Paris.",
                entities=[{"name": "Anna Lee", "type": "person"}],
                facts=[{"subject": "Anna Lee", "predicate": "LIVES_IN", "object": "Paris"}],
            ),
            episode(
                2,
                "Anna Lee, Annie to friends, likes jazz.",
                entities=[{"name": "Anna Lee", "type": "person", "aliases": ["Annie"]}],
                facts=[{"subject": "Anna Lee", "predicate": "LIKES", "value": "jazz"}],
            ),
            episode(
                3,
                "Annie uses Figma; Zed uses Slack.",
                facts=[
                    {"subject": "Annie", "predicate": "USES", "object": "Figma"},
                    {"subject": "Zed", "predicate": "USES", "object": "Slack"},
                ],
            ),
        ]
    )
    assert [e.name for e in graph.search_entities("Zed")] == ["Zed"]
    assert [(e.name, e.aliases) for e in graph.search_entities("Annie")] == [("Anna Lee", ["Annie"])]
    assert facts(graph, subject="Anna Lee") == [
        ("Anna Lee", "LIKES", "jazz", "current"),
        ("Anna Lee", "LIVES_IN", "Paris", "current"),
        ("Anna Lee", "USES", "Figma", "current"),
    ]
    assert facts(graph, subject="Zed") == [
        ("Zed", "USES", "Slack", "current"),
        ("Zed", "WORKS_AT", "Acme", "current"),
    ]


def test_a_fact_said_twice_in_one_episode_is_one_fact(graph: Memory) -> None:
    """An episode's claims are arbitrated in order against one read of the graph, kept current as
    they are written: the second statement of a fact finds the first and adds nothing."""
    say(
        graph,
        "Mia likes jazz. Mia likes jazz, really.",
        days=0,
        entities=[{"name": "Mia", "type": "person"}],
        facts=[
            {"subject": "Mia", "predicate": "LIKES", "value": "jazz"},
            {"subject": "Mia", "predicate": "LIKES", "value": "jazz"},
        ],
    )
    assert facts(graph) == [("Mia", "LIKES", "jazz", "current")]
    history = graph.search_facts({"subject": "Mia", "include_history": True, "limit": 50}).results
    assert len(history) == 1, [h.fact for h in history]
