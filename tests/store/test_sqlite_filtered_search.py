"""SQLite's filtered search: among the docs the filters select, with the scores of the plain ranking."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

from engram.models.episodes import EpisodeFilters
from engram.storage.engine import SQLStorage
from engram.storage.open import open_sqlite
from engram.storage.sqlite import fulltext as sqlite_module
from store.test_contract import T0, new_episode, operation

WORDS = ["apple", "banana", "cherry", "plum", "pear", "fig"]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLStorage]:
    store = open_sqlite(tmp_path / "engram.db")
    episodes = [
        new_episode(
            f"e{i}",
            " ".join(WORDS[(i * k) % len(WORDS)] for k in range(1, 2 + i % 4)),
            minutes=i,
            intent=["plan", "chit_chat", "share_event"][i % 3],
            actor_id=f"a{i % 5}",
            source="email" if i % 2 else "chat",
        )
        for i in range(60)
    ]
    store.insert_episodes(episodes, operation())
    rng = np.random.default_rng(1)
    vectors = rng.standard_normal((60, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    store.put_vectors(list(zip(store.pending_embeddings(100), vectors, strict=True)))
    yield store
    store.close()


FILTERS = [
    EpisodeFilters(intent=["plan"]),
    EpisodeFilters(actor_id=["a3"], source=["email"]),
    EpisodeFilters(intent=["share_event", "plan"], timestamp_after=T0 + timedelta(minutes=10)),
    EpisodeFilters(actor_id=["nobody"]),
]


@pytest.mark.parametrize("filters", FILTERS)
@pytest.mark.parametrize("cap", [sqlite_module.SELECT_FIRST_MAX, 0])
def test_filtered_search_is_the_plain_ranking_restricted_to_the_filters(
    store: SQLStorage, filters: EpisodeFilters, cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Selected first (cap) or match-driven (cap 0): same episodes, same scores, same order."""
    monkeypatch.setattr(sqlite_module, "SELECT_FIRST_MAX", cap)
    every = store.search_text("g1", ["apple", "fig"], EpisodeFilters(), 100)
    passing = {e.id for e in store.list_episodes("g1", filters, 100)}
    expected = [(m.episode.id, m.score) for m in every if m.episode.id in passing][:5]
    found = [(m.episode.id, m.score) for m in store.search_text("g1", ["apple", "fig"], filters, 5)]
    assert [i for i, _ in found] == [i for i, _ in expected]
    assert [s for _, s in found] == pytest.approx([s for _, s in expected])
    query = np.ones(8, dtype=np.float32) / np.sqrt(8)
    near = [(m.episode.id, m.score) for m in store.search_vectors("g1", query, EpisodeFilters(), 100)]
    expected = [(i, s) for i, s in near if i in passing][:5]
    found = [(m.episode.id, m.score) for m in store.search_vectors("g1", query, filters, 5)]
    assert [i for i, _ in found] == [i for i, _ in expected]
    assert [s for _, s in found] == pytest.approx([s for _, s in expected])
