"""Episode search in English and Chinese, with filters, explain, and query edge cases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import InvalidInput, Memory
from engram.fusion import reciprocal_rank_fusion
from engram.nlp.tokenize import segment
from engram.search.query import parse_query

T0 = datetime(2024, 3, 1, tzinfo=UTC)
CORPUS = [
    ("en-puppy", "I adopted a puppy named Oscar from the shelter", "share", "alice"),
    ("en-budget", "The marketing budget for Q3 is 500k dollars", "plan", "bob"),
    ("en-paint", "She has been painting sunsets at the lake every weekend", "share", "alice"),
    ("zh-order", "客户要求取消订单，订单号 DEAL-7890，请尽快处理", "cancel", "li"),
    ("zh-budget", "我们把杭州项目的预算提高到八十万", "plan", "li"),
    ("zh-visit", "下周二张经理要去上海参观工厂", "schedule", "wang"),
    ("zh-chat", "哈哈，今天天气真好", "chitchat", "wang"),
    ("mixed", "Sent the 合同 (contract) to ACME for signature", "share", "bob"),
]


@pytest.fixture
def corpus(memory: Memory) -> Memory:
    memory.create_episodes(
        [
            {
                "id": eid,
                "content": text,
                "intent": intent,
                "actor": {"id": actor},
                "timestamp": T0 + timedelta(days=i),
                "metadata": {"n": i},
            }
            for i, (eid, text, intent, actor) in enumerate(CORPUS)
        ]
    )
    return memory


def ids(memory: Memory, query: str, **extra: object) -> list[str]:
    return [hit.episode.id for hit in memory.search_episodes({"query": query, **extra}).results]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("puppy", "en-puppy"),
        ("What did she paint?", "en-paint"),  # porter stemming: paint ~ painting; stop words dropped
        ("marketing budget", "en-budget"),
        ("订单", "zh-order"),  # a two-character word inside a longer sentence
        ("取消", "zh-order"),
        ("预算是多少？", "zh-budget"),
        ("上海", "zh-visit"),
        ("合同", "mixed"),
        ("contract", "mixed"),
        ("DEAL-7890", "zh-order"),
    ],
)
def test_finds_the_right_episode_first(corpus: Memory, query: str, expected: str) -> None:
    assert ids(corpus, query)[0] == expected


def test_hits_carry_score_and_citation(corpus: Memory) -> None:
    [hit, *_] = corpus.search_episodes({"query": "订单"}).results
    assert hit.citation == "[source: zh-order]"
    assert hit.score > 0
    assert hit.explanation is None


def test_explain_gives_each_channel_rank_and_score(corpus: Memory) -> None:
    [hit, *_] = corpus.search_episodes({"query": "budget", "explain": True}).results
    assert hit.explanation is not None
    assert hit.explanation["channels"]["bm25"]["rank"] == 1
    assert hit.explanation["channels"]["bm25"]["score"] > 0
    assert hit.explanation["boosts"] == {}


def test_filters_apply_before_ranking(corpus: Memory) -> None:
    assert ids(corpus, "budget 预算", filters={"intent": ["plan"], "actor_id": ["li"]}) == ["zh-budget"]
    assert ids(corpus, "budget", filters={"intent": ["share"]}) == []
    window = {"timestamp_after": T0 + timedelta(days=3), "timestamp_before": T0 + timedelta(days=5)}
    assert set(ids(corpus, "订单 预算 上海", filters=window)) == {"zh-order", "zh-budget"}
    assert ids(corpus, "预算 budget", filters={"metadata": {"n": 4}}) == ["zh-budget"]


def test_empty_query_lists_filtered_episodes_newest_first(corpus: Memory) -> None:
    assert ids(corpus, "", filters={"actor_id": ["li"]}) == ["zh-budget", "zh-order"]
    assert ids(corpus, "   ", limit=2) == ["mixed", "zh-chat"]


def test_overlong_query_is_truncated_with_a_warning(corpus: Memory) -> None:
    response = corpus.search_episodes({"query": "puppy " + "x" * 5000})
    assert response.results[0].episode.id == "en-puppy"
    assert response.warnings and "truncated" in response.warnings[0]


def test_unknown_filter_keys_and_bad_limits_are_rejected(corpus: Memory) -> None:
    with pytest.raises(InvalidInput) as caught:
        corpus.search_episodes({"query": "x", "filters": {"colour": ["red"]}})
    assert caught.value.field == "filters.colour"
    with pytest.raises(InvalidInput) as limit:
        corpus.search_episodes({"query": "x", "limit": 1000})
    assert limit.value.field == "limit"


def test_fts_syntax_in_queries_is_just_text(corpus: Memory) -> None:
    for query in ['"unbalanced', "NEAR(a b)", "puppy OR", "*", "a:b", "-x", "AND"]:
        corpus.search_episodes({"query": query})  # must not raise an FTS5 syntax error


def test_segment_splits_han_runs_only() -> None:
    assert segment("hello world") == "hello world"
    words = segment("客户要求取消订单").split()
    assert "订单" in words and "取消" in words
    assert {"订单", "订单号"} <= set(parse_query("订单号是多少", max_chars=100).terms)


def test_stop_word_only_queries_still_search() -> None:
    assert parse_query("who are you", max_chars=100).terms == ["who", "are", "you"]
    assert parse_query("Where does Caroline live?", max_chars=100).terms == ["caroline", "live"]


def test_reciprocal_rank_fusion() -> None:
    fused = reciprocal_rank_fusion({"a": ["x", "y"], "b": ["y", "z"]}, k=60)
    assert [key for key, _ in fused] == ["y", "x", "z"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)
    weighted = reciprocal_rank_fusion({"a": ["x"], "b": ["z"]}, weights={"b": 2.0}, k=60)
    assert [key for key, _ in weighted] == ["z", "x"]
    assert reciprocal_rank_fusion({}) == []
