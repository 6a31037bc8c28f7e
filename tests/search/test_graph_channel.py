"""The graph channel of episode search: speakers, facts one hop away, mentions, threads (both backends).

Small conversations stand in for LoCoMo's: two people talk in sessions, a question names
one of them, and its evidence is what she said in different sessions, or a fact about
someone linked to her. The extractor is off: the graph holds what the agent supplied.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram import Memory, Settings
from engram.config import SearchSettings
from engram.search.graph import MAX_HITS

T0 = datetime(2023, 5, 8, 13, tzinfo=UTC)


@pytest.fixture
def memory(backend: dict[str, Any]) -> Iterator[Memory]:
    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings) as memory:
        yield memory


def turn(
    memory: Memory, who: str, text: str, *, session: int, minute: int, name: str | None = None, **extra: Any
) -> str:
    """Store one turn of a conversation (a thread per session); return its id."""
    episode = {
        "content": text,
        "actor": {"type": "user", "id": who, "name": name or who},
        "timestamp": T0 + timedelta(days=7 * session, minutes=minute),
        "source": "chat",
        "metadata": {"session": session},
        **extra,
    }
    return memory.create_episode(episode).episode.id


def ask(memory: Memory, question: str, *, channels: list[str] | None = None, **more: Any) -> list[str]:
    response = memory.search_episodes({"query": question, "limit": 10, **more}, channels=channels)
    return [hit.episode.id for hit in response.results]


def graph(memory: Memory, question: str, **more: Any) -> list[str]:
    return ask(memory, question, channels=["graph"], **more)


@pytest.fixture
def camping(memory: Memory) -> dict[str, str]:
    """Melanie camped twice, in two sessions; Caroline keeps asking her about camping."""
    lines = [
        ("beach", "Melanie", "We camped at the beach last weekend, the kids loved it.", 1, 1),
        ("ask1", "Caroline", "Melanie, camping with kids! Melanie, how was camping?", 1, 2),
        ("other", "Melanie", "Work has been busy, I barely slept.", 5, 3),
        ("mountains", "Melanie", "We camped in the mountains this time.", 2, 1),
        ("ask2", "Caroline", "Camping again, Melanie? Melanie loves camping!", 2, 2),
        ("paint", "Caroline", "I painted a sunset after our camping talk.", 2, 3),
    ]
    ids = {
        key: turn(memory, who, text, session=session, minute=minute)
        for key, who, text, session, minute in lines
    }
    return ids


def test_a_named_speaker_brings_her_own_turns_without_her_name(
    memory: Memory, camping: dict[str, str]
) -> None:
    found = graph(memory, "Where has Melanie camped?")
    assert set(found[:2]) == {camping["beach"], camping["mountains"]}
    assert camping["ask1"] not in found and camping["ask2"] not in found, "Caroline's turns are not Melanie's"
    assert camping["other"] not in found, "her turns must match the question's other words"
    bm25 = ask(memory, "Where has Melanie camped?", channels=["bm25"], limit=2)
    assert set(bm25) == {camping["ask1"], camping["ask2"]}, "BM25 alone prefers the turns naming her"
    both = ask(memory, "Where has Melanie camped?", limit=4)
    assert {camping["beach"], camping["mountains"]} <= set(both), "fused, both pieces of evidence"


def test_filters_and_time_travel_bound_the_speaker_list(memory: Memory, camping: dict[str, str]) -> None:
    assert graph(memory, "Where has Melanie camped?", filters={"actor_id": ["Caroline"]}) == []
    later = {"timestamp_after": (T0 + timedelta(days=10)).isoformat()}
    assert graph(memory, "Where has Melanie camped?", filters=later) == [camping["mountains"]]
    before = (T0 + timedelta(days=10)).isoformat()
    assert graph(memory, "Where has Melanie camped?", as_of=before) == [camping["beach"]]


def test_questions_naming_no_one_or_nothing_else(memory: Memory, camping: dict[str, str]) -> None:
    assert graph(memory, "Where did they go camping?") == [], "no seed: the channel has nothing to follow"
    assert graph(memory, "Melanie") == [], "nothing but the name: no other word to match"


def jon_dancing(memory: Memory) -> tuple[list[str], str]:
    """Store three turns of one session about dancing and one of another; return their ids."""
    first = [
        turn(
            memory, "Jon", f"Dancing tonight {'again ' * n}at the studio: dance, dance!", session=1, minute=n
        )
        for n in range(3)
    ]
    return first, turn(memory, "Jon", "I went dancing once in Paris.", session=2, minute=0)


def test_threads_are_spread_when_configured(backend: dict[str, Any]) -> None:
    question = "What dance studio does Jon go dancing at?"
    spread = Settings(
        **backend, embedder="none", extractor="none", search=SearchSettings(graph_spread_threads=True)
    )
    with Memory.open(settings=spread) as memory:
        first, second = jon_dancing(memory)
        found = graph(memory, question)
        assert found[0] in first and found[1] == second, "the other session's turn comes second"
        assert set(found) == {*first, second}


def test_threads_are_not_spread_by_default(memory: Memory) -> None:
    first, second = jon_dancing(memory)
    found = graph(memory, "What dance studio does Jon go dancing at?")
    assert found[:3] == sorted(found[:3], key=first.index) and set(found[:3]) == set(first)
    assert found[3] == second, "plain rank order: the session that matches most comes first"


def test_the_channel_returns_at_most_its_best_hits(memory: Memory) -> None:
    for n in range(MAX_HITS + 5):
        turn(memory, "Jon", f"Rehearsal {n}: we danced the tango until late.", session=n, minute=0)
    turn(memory, "Gina", "We danced the tango too.", session=1, minute=1)
    found = graph(memory, "When did Jon dance the tango?", limit=50)
    assert len(found) == MAX_HITS
    everything = ask(memory, "When did Jon dance the tango?", channels=["bm25"], limit=50)
    assert len(everything) == MAX_HITS + 6, "BM25 still returns every match"


def test_a_speaker_turn_stating_only_a_superseded_fact_is_left_out(memory: Memory) -> None:
    places = [{"name": "Melanie", "type": "person"}, {"name": "Boston", "type": "place"}]
    boston = turn(
        memory,
        "Melanie",
        "I live in Boston, close to the harbour.",
        session=1,
        minute=0,
        entities=places,
        facts=[
            {
                "subject": "Melanie",
                "predicate": "LIVES_IN",
                "object": "Boston",
                "fact": "Melanie lives in Boston",
            }
        ],
    )
    denver = turn(
        memory,
        "Melanie",
        "We moved: I live in Denver now.",
        session=2,
        minute=0,
        entities=[{"name": "Denver", "type": "place"}],
        facts=[
            {
                "subject": "Melanie",
                "predicate": "LIVES_IN",
                "object": "Denver",
                "fact": "Melanie lives in Denver",
            }
        ],
    )
    assert graph(memory, "Where does Melanie live?") == [denver], "Boston's turn holds only an outdated fact"
    then = (T0 + timedelta(days=8)).isoformat()
    assert graph(memory, "Where does Melanie live?", as_of=then) == [boston], "what held then"


def test_an_actor_id_that_is_not_the_name_is_reached_through_its_entity(memory: Memory) -> None:
    li = {"name": "李强", "type": "person"}
    stated = turn(
        memory,
        "u_42",
        "我喜欢喝茶，尤其是龙井。",
        name="李强",
        session=1,
        minute=0,
        entities=[li],
        facts=[
            {"subject": "李强", "predicate": "LIKES", "value": "龙井", "fact": "李强喜欢喝茶，尤其是龙井。"}
        ],
    )
    plain = turn(memory, "u_42", "周末我一般去西湖边喝茶。", name="李强", session=2, minute=0)
    turn(memory, "u_7", "李强，你喝茶吗？李强？", name="王芳", session=2, minute=1)
    found = graph(memory, "李强 喝茶")
    assert set(found) == {stated, plain}, "his own turns, the one with no fact included"


def test_facts_one_hop_away_lend_their_episodes(memory: Memory) -> None:
    people = [{"name": "Caroline", "type": "person"}, {"name": "Tom", "type": "person"}]
    visit = turn(
        memory,
        "Caroline",
        "My brother Tom visited.",
        session=1,
        minute=0,
        entities=people,
        facts=[
            {
                "subject": "Tom",
                "predicate": "SIBLING_OF",
                "object": "Caroline",
                "fact": "Tom is Caroline's brother",
            }
        ],
    )
    muse = turn(
        memory,
        "Melanie",
        "He has a Muse poster in his car.",
        session=2,
        minute=0,
        entities=[{"name": "Tom", "type": "person"}],
        facts=[{"subject": "Tom", "predicate": "LIKES", "value": "Muse", "fact": "Tom likes the band Muse"}],
    )
    turn(memory, "Melanie", "Caroline likes long walks and the band next door.", session=2, minute=1)
    found = graph(memory, "Which band does Caroline's brother like?")
    assert set(found) == {visit, muse}, "both pieces: Caroline → SIBLING_OF → Tom → LIKES Muse"


def test_episodes_mentioning_a_linked_entity(memory: Memory) -> None:
    book = [{"name": "Becoming Nicole", "type": "document"}, {"name": "Caroline", "type": "person"}]
    turn(
        memory,
        "Caroline",
        "I'm reading Becoming Nicole.",
        session=1,
        minute=0,
        entities=book,
        facts=[
            {
                "subject": "Caroline",
                "predicate": "READS",
                "object": "Becoming Nicole",
                "fact": "Caroline reads Becoming Nicole",
            }
        ],
    )
    review = turn(
        memory,
        "Melanie",
        "Becoming Nicole made me cry, such an inspiring story.",
        session=3,
        minute=0,
        entities=[book[0]],
    )
    turn(memory, "Melanie", "What an inspiring story your trip was!", session=3, minute=1)
    assert graph(memory, "What inspiring story did Caroline recommend?")[0] == review
