"""The ranking functions, alone and through Memory.search_episodes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.nlp.language import detect_language
from engram.search import rerank

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)


def test_boost_is_one_plus_weight_times_clamped_signal() -> None:
    assert rerank.boost(0.3, 1.0) == pytest.approx(1.3)
    assert rerank.boost(0.3, 0.0) == 1.0
    assert rerank.boost(0.3, 7.0) == pytest.approx(1.3)
    assert rerank.boost(0.0, 1.0) == 1.0


def test_recency_halves_every_half_life() -> None:
    assert rerank.recency(NOW, NOW, 30) == 1.0
    assert rerank.recency(NOW - timedelta(days=30), NOW, 30) == pytest.approx(0.5)
    assert rerank.recency(NOW - timedelta(days=60), NOW, 30) == pytest.approx(0.25)
    assert rerank.recency(NOW + timedelta(days=5), NOW, 30) == 1.0
    assert rerank.recency(NOW, NOW, 0) == 0.0


def test_time_proximity_is_one_inside_and_decays_outside() -> None:
    start, end = NOW, NOW + timedelta(days=7)
    assert rerank.time_proximity(NOW + timedelta(days=3), start, end, 7) == 1.0
    assert rerank.time_proximity(end, start, end, 7) == pytest.approx(1.0), "end is exclusive, distance 0"
    assert rerank.time_proximity(NOW - timedelta(days=7), start, end, 7) == pytest.approx(0.5)
    assert rerank.time_proximity(end + timedelta(days=14), start, end, 7) == pytest.approx(0.25)


def test_mmr_trades_relevance_for_diversity() -> None:
    ranked = [("a", 1.0), ("a2", 0.95), ("b", 0.9)]
    words = {"a": frozenset("xy"), "a2": frozenset("xy"), "b": frozenset("zw")}

    def similarity(p: str, q: str) -> float:
        return rerank.jaccard(words[p], words[q])

    assert [k for k, _ in rerank.maximal_marginal_relevance(ranked, similarity, lambda_=1.0, limit=3)] == [
        "a",
        "a2",
        "b",
    ]
    assert [k for k, _ in rerank.maximal_marginal_relevance(ranked, similarity, lambda_=0.5, limit=3)] == [
        "a",
        "b",
        "a2",
    ]
    assert rerank.maximal_marginal_relevance(ranked, similarity, limit=1) == [("a", 1.0)]
    assert rerank.maximal_marginal_relevance([], similarity, limit=3) == []


def test_jaccard_and_floor() -> None:
    assert rerank.jaccard(frozenset("ab"), frozenset("bc")) == pytest.approx(1 / 3)
    assert rerank.jaccard(frozenset(), frozenset()) == 0.0
    assert rerank.above_floor([("a", 0.5), ("b", 0.1)], 0.2) == [("a", 0.5)]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("What did Caroline do?", "en"),
        ("上周的预算是多少", "zh"),
        ("注文をキャンセル", "ja"),
        ("예산은 얼마입니까", "ko"),
        ("合同 contract signed yesterday 签了", "mixed"),
        ("12345 ?!", "unknown"),
        ("DEAL-7890 的订单", "zh"),
    ],
)
def test_detect_language(text: str, language: str) -> None:
    assert detect_language(text) == language


@pytest.fixture
def twins(memory: Memory) -> Memory:
    """Two episodes with the same words, differing in intent, actor and time."""
    memory.create_episodes(
        [
            {
                "id": "old",
                "content": "budget review for the Hangzhou office",
                "intent": "plan",
                "actor": {"id": "li", "name": "Li Qiang"},
                "timestamp": NOW - timedelta(days=200),
                "metadata": {"session": 1},
            },
            {
                "id": "new",
                "content": "budget review for the Hangzhou office",
                "intent": "decide",
                "actor": {"id": "wang", "name": "Wang Fang"},
                "timestamp": NOW - timedelta(days=1),
                "metadata": {"session": 2},
            },
        ]
    )
    return memory


def ranked(memory: Memory, **query: object) -> list[str]:
    return [hit.episode.id for hit in memory.search_episodes({"reference_time": NOW, **query}).results]


def test_intent_boost(twins: Memory) -> None:
    assert ranked(twins, query="budget review", intent="plan")[0] == "old"
    assert ranked(twins, query="budget review", intent="decide")[0] == "new"


def test_actor_named_in_the_query_is_boosted(twins: Memory) -> None:
    assert ranked(twins, query="budget review by Li")[0] == "old"
    assert ranked(twins, query="budget review by Wang")[0] == "new"
    [hit, _] = twins.search_episodes({"query": "what did Wang say about the budget", "explain": True}).results
    assert hit.explanation is not None and hit.explanation["boosts"] == {"actor": pytest.approx(1.2)}
    assert hit.explanation["query"]["language"] == "en"


def test_recency_boost_is_configurable(tmp_path: object) -> None:
    from engram import Settings
    from engram.config import SearchSettings

    settings = Settings(data_dir=tmp_path, embedder="none", search=SearchSettings(recency_weight=1.0))  # type: ignore[arg-type]
    with Memory.open(settings=settings) as memory:
        memory.create_episodes(
            [
                {"id": i, "content": "same words", "timestamp": NOW - timedelta(days=d)}
                for i, d in (("a", 90), ("b", 2))
            ]
        )
        assert ranked(memory, query="same words") == ["b", "a"]


def test_min_score_mmr_context_and_threads(twins: Memory) -> None:
    twins.create_episode(
        {
            "id": "other",
            "content": "Hangzhou office budget numbers",
            "metadata": {"session": 2},
            "timestamp": NOW,
        }
    )
    everything = twins.search_episodes({"query": "budget review Hangzhou", "reference_time": NOW})
    floor = everything.results[1].score
    assert [
        h.episode.id
        for h in twins.search_episodes(
            {"query": "budget review Hangzhou", "min_score": floor, "reference_time": NOW}
        ).results
    ] == [h.episode.id for h in everything.results[:2]]
    diverse = ranked(twins, query="budget review Hangzhou", mmr=True, limit=2)
    assert "other" in diverse, "MMR brings the distinct episode up over the duplicate"
    [hit, *_] = twins.search_episodes({"query": "numbers", "context": True}).results
    assert hit.episode.id == "other"
    assert hit.context is not None and hit.context.previous is not None and hit.context.previous.id == "new"
    grouped = twins.search_episodes({"query": "budget", "group_by_thread": True})
    assert grouped.threads is not None
    assert sorted(g.thread or "" for g in grouped.threads) == ["/1", "/2"]
    assert sum(len(g.episode_ids) for g in grouped.threads) == 3


def test_mmr_changes_the_top_two(twins: Memory) -> None:
    twins.create_episode({"id": "other", "content": "Hangzhou office budget numbers", "timestamp": NOW})
    assert "other" not in ranked(twins, query="budget review Hangzhou", limit=2)
    assert "other" in ranked(twins, query="budget review Hangzhou", limit=2, mmr=True)
