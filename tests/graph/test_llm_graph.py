"""The graph the LLM extractor builds from model replies, through Memory, against a fake endpoint.

The replies (tests/data/llm_replies.json) are written as chat models answer: code fences and
prose around the JSON, a ``<think>`` block, Chinese predicate and type names, renamed keys,
negation as a flag, confidence in words, missing fields, a refusal. Each story is replayed
through ``Memory.create_episode`` with ``extractor="llm"`` and the graph read back; the same
extraction supplied by an agent must build the same graph (one arbitration for both paths).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from conftest import free_port
from engram import Memory, Settings
from engram.ingest.llm_parse import parse_extraction
from engram.models.graph import FactHit
from fakes.openai_server import ChatReply, FakeOpenAI, serve_fake_openai
from graph_support import facts, graph_shape

STORIES: dict[str, Any] = json.loads(
    (Path(__file__).parents[1] / "data" / "llm_replies.json").read_text(encoding="utf-8")
)
Row = tuple[str | None, str, str | None, object]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with serve_fake_openai(free_port()) as fake:
        yield fake


@pytest.fixture
def memory(server: FakeOpenAI, tmp_path: Path) -> Iterator[Memory]:
    server.script()
    settings = Settings(
        data_dir=tmp_path,
        extractor="llm",
        llm_base_url=server.base_url,
        llm_model="recorded",
        llm_max_retries=1,
        embedder="none",
    )
    with Memory.open(settings=settings, background_indexing=False) as memory:
        yield memory


def _reply(episode: dict[str, Any]) -> ChatReply:
    if "refusal" in episode:
        message = {"role": "assistant", "content": None, "refusal": episode["refusal"]}
        return ChatReply(body={"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
    return ChatReply(content=episode["reply"])


def _episode(story: dict[str, Any], episode: dict[str, Any], group: str) -> dict[str, Any]:
    return {
        "group_id": group,
        "content": episode["content"],
        "timestamp": episode["timestamp"],
        "actor": story["actor"],
    }


def replay(memory: Memory, fake: FakeOpenAI, name: str, group: str = "llm") -> list[str]:
    """Create the story's episodes, the fake answering each with its recorded reply; return ids."""
    story = STORIES[name]
    ids = []
    for episode in story["episodes"]:
        fake.script(_reply(episode))
        ids.append(memory.create_episode(_episode(story, episode, group)).episode.id)
    return ids


def replay_as_agent(memory: Memory, name: str, group: str = "agent") -> None:
    """Create the story's episodes with the parsed replies supplied as the agent's extraction."""
    story = STORIES[name]
    speaker = story["actor"]["name"]
    for episode in story["episodes"]:
        extraction = parse_extraction(episode["reply"], speaker=speaker).extraction
        memory.create_episode(
            {**_episode(story, episode, group), **extraction.model_dump(mode="json", exclude_none=True)}
        )


def rows(hits: list[FactHit]) -> set[Row]:
    return {(h.subject_name, h.fact.predicate, h.object_name, h.fact.value) for h in hits}


def one(hits: list[FactHit], predicate: str, target: object) -> FactHit:
    """Return the one fact with ``predicate`` whose object name or value is ``target``."""
    (hit,) = [h for h in hits if h.fact.predicate == predicate and target in (h.object_name, h.fact.value)]
    return hit


# -- the stories ---------------------------------------------------------------------------------


def test_chinese_stop_statement_and_correction(memory: Memory, server: FakeOpenAI) -> None:
    first, second = replay(memory, server, "zh_stop_and_correction")
    hits = facts(memory)
    assert rows(hits) >= {
        ("李强", "USES", "飞书", None),
        ("李强", "STOPPED_USING", "飞书", None),  # "不再用" is a registered synonym
        ("李强", "BUDGET", None, 500000),
        ("李强", "BUDGET", None, 800000),  # "800000" read as an amount
    }
    assert {h.subject_name for h in hits} == {"李强"}, "我 is the speaker"
    stopped = one(hits, "STOPPED_USING", "飞书")
    assert stopped.fact.fact == "李强的团队已经不用飞书了，上周卸载了。"
    assert stopped.citations == [f"[source: {second}]"] and stopped.fact.confidence == 0.9
    # "上周" resolved against the episode (2024-04-10, a Wednesday): the week before.
    assert stopped.fact.valid_at is not None
    assert datetime(2024, 4, 1, tzinfo=UTC) <= stopped.fact.valid_at < datetime(2024, 4, 8, tzinfo=UTC)
    corrected = one(hits, "BUDGET", 800000)
    assert (corrected.fact.source_kind, corrected.fact.confidence) == ("stated", 0.95)
    assert corrected.fact.fact.startswith("其实"), "the correction cue is kept for arbitration"
    assert one(hits, "BUDGET", 500000).citations == [f"[source: {first}]"]
    feishu = memory.search_entities("飞书", "llm")
    assert [(e.name, e.type, e.aliases) for e in feishu] == [("飞书", "product", ["Feishu", "Lark"])]
    (li,) = memory.search_entities("李强", "llm")
    assert li.type == "person"


def test_english_relatives_are_their_own_people(memory: Memory, server: FakeOpenAI) -> None:
    replay(memory, server, "en_family_and_moves")
    hits = facts(memory)
    assert rows(hits) == {
        ("Tom", "SIBLING_OF", "Caroline", None),
        ("Tom", "LIKES", None, "Muse"),
        ("Caroline's sister", "SIBLING_OF", "Caroline", None),
        ("Caroline's sister", "DISLIKES", None, "jazz"),
        ("Caroline", "MOVED_FROM", "Sweden", None),
    }, "the fact without a subject is dropped, nothing is given to the speaker that was not hers"
    moved = one(hits, "MOVED_FROM", "Sweden")
    assert moved.fact.valid_at is not None and moved.fact.valid_at.year == 2019, "4 years before 2023-05-08"
    people = {e.name: e.type for e in memory.search_entities("Caroline Tom sister", "llm")}
    assert people == {"Caroline": "person", "Tom": "person", "Caroline's sister": "person"}


def test_chinese_explicit_date_conditions_and_refinement(memory: Memory, server: FakeOpenAI) -> None:
    replay(memory, server, "zh_dates_conditions_refinement")
    hits = facts(memory)
    signing = one(hits, "SIGNS_CONTRACT_WITH", "星河科技")
    assert signing.fact.valid_at == datetime(2024, 6, 5, tzinfo=UTC), "the written date, not a guess"
    weekday, weekend = one(hits, "WORKS_FROM", "公司"), one(hits, "WORKS_FROM", "家")
    assert (weekday.fact.conditions, weekend.fact.conditions) == ({"when": "工作日"}, {"when": "周末"})
    assert (weekday.fact.status, weekend.fact.status) == ("current", "current"), "conditions coexist"
    assert weekend.fact.fact == "王芳周末在家办公。"
    assert one(hits, "PART_OF", "上海").subject_name == "浦东新区"
    finer = one(hits, "LIVES_IN", "浦东新区")
    assert "更准确地说" in finer.fact.fact and finer.fact.confidence == pytest.approx(0.95)
    (pudong,) = memory.search_entities("浦东新区", "llm")
    assert (pudong.type, pudong.aliases) == ("place", ["浦东"])


def test_english_negation_flag_end_date_and_inference(memory: Memory, server: FakeOpenAI) -> None:
    replay(memory, server, "en_negation_flags_and_end_dates")
    hits = facts(memory)
    assert rows(hits) == {
        ("Melanie", "DISLIKES", None, "coffee"),  # LIKES flagged negated
        ("Melanie", "WORKS_AT", "Rosie's Bakery", None),  # "works at" is a synonym
        ("Melanie", "HAS_CHILDREN", None, True),
    }
    job = one(hits, "WORKS_AT", "Rosie's Bakery")
    assert job.fact.invalid_at == datetime(2023, 3, 31, tzinfo=UTC)
    assert job.fact.confidence == 0.9, '"high"'
    kids = one(hits, "HAS_CHILDREN", True)
    assert (kids.fact.source_kind, kids.fact.confidence) == ("inferred", 0.3), '"implied", "low"'
    (bakery,) = memory.search_entities("Rosie's Bakery", "llm")
    assert bakery.type == "organisation", "Organization is the graph's organisation"


def test_a_refusal_keeps_the_episode_marked_without_retrying(memory: Memory, server: FakeOpenAI) -> None:
    (episode_id,) = replay(memory, server, "refusal")
    assert len(server.chat_requests) == 1, "a refusal is not asked again"
    stored = memory.get_episode(episode_id, "llm")
    assert stored.metadata["extraction_status"] == "failed"
    assert "refused" in stored.metadata["extraction_error"]
    assert facts(memory) == []


def test_chit_chat_builds_nothing(memory: Memory, server: FakeOpenAI) -> None:
    (episode_id,) = replay(memory, server, "chit_chat")
    assert facts(memory) == [] and memory.search_entities("Sam", "llm") == []
    assert "extraction_status" not in memory.get_episode(episode_id, "llm").metadata


@pytest.mark.parametrize(
    "name",
    [
        "zh_stop_and_correction",
        "en_family_and_moves",
        "zh_dates_conditions_refinement",
        "en_negation_flags_and_end_dates",
    ],
)
def test_the_agent_path_builds_the_same_graph(memory: Memory, server: FakeOpenAI, name: str) -> None:
    replay(memory, server, name, group="llm")
    replay_as_agent(memory, name, group="agent")
    assert graph_shape(memory, "llm") == graph_shape(memory, "agent")
    assert graph_shape(memory, "llm"), "the story built something"
