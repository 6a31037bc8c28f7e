"""A search runs its channels side by side: the others on the shared pool, in the caller's
context, with the same answer and the same errors as one after the other; when more searches
run than the machine has cores, all in the caller's thread."""

from __future__ import annotations

import threading

import pytest

from engram import Memory
from engram.config import SearchSettings
from engram.errors import StoreError
from engram.fusion import reciprocal_rank_fusion
from engram.models.episodes import EpisodeFilters, EpisodeIn, SearchQuery
from engram.observability.labels import INTERFACE
from engram.search import engine as search_engine
from engram.search.engine import ChannelHit, SearchEngine
from engram.search.query import ParsedQuery


class Recording:
    """A channel that answers with the episodes it was given and notes where it ran."""

    def __init__(self, name: str, hits: list[ChannelHit], *, fail: bool = False) -> None:
        self.name = name
        self.hits = hits
        self.fail = fail
        self.seen: list[tuple[str, str]] = []

    def search(
        self, group_id: str, query: ParsedQuery, filters: EpisodeFilters, limit: int
    ) -> list[ChannelHit]:
        self.seen.append((threading.current_thread().name, INTERFACE.get()))
        if self.fail:
            raise StoreError("the index is gone")
        return self.hits[:limit]


@pytest.fixture
def hits(memory: Memory) -> list[ChannelHit]:
    stored = memory.create_episodes(
        [EpisodeIn(group_id="g", content=f"note {n} about the Globex renewal") for n in range(3)]
    )
    return [ChannelHit(episode=created.episode, score=1.0) for created in stored]


def test_other_channels_run_on_the_pool_with_the_callers_context(hits: list[ChannelHit]) -> None:
    first, second, third = (
        Recording("bm25", hits),
        Recording("vector", hits[::-1]),
        Recording("graph", hits[1:]),
    )
    engine = SearchEngine(None, [first, second, third], SearchSettings(), max_query_chars=1000)
    token = INTERFACE.set("rest")
    try:
        response = engine.search(
            SearchQuery(query="Globex renewal", limit=3), "g", ["bm25", "vector", "graph"]
        )
    finally:
        INTERFACE.reset(token)
    assert first.seen == [(threading.current_thread().name, "rest")]
    for channel in (second, third):
        ((thread, interface),) = channel.seen
        assert thread.startswith("engram-channel") and interface == "rest"
    # The fused order is RRF's over the three lists in channel order, whichever finished first.
    settings = SearchSettings()
    expected = reciprocal_rank_fusion(
        {c.name: [h.episode.id for h in c.hits[:3]] for c in (first, second, third)},
        weights=settings.channel_weights,
        k=settings.rrf_k,
    )
    assert [h.episode.id for h in response.results] == [key for key, _ in expected]


def test_a_failing_channel_on_the_pool_fails_the_search(hits: list[ChannelHit]) -> None:
    engine = SearchEngine(
        None,
        [Recording("bm25", hits), Recording("vector", hits, fail=True)],
        SearchSettings(),
        max_query_chars=1000,
    )
    with pytest.raises(StoreError, match="the index is gone"):
        engine.search(SearchQuery(query="Globex renewal"), "g")


def test_with_every_core_busy_the_channels_run_in_the_callers_thread(
    hits: list[ChannelHit], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand-over to the pool only pays on a spare core: the busy search answers the same."""
    beside = search_engine._ChannelsBeside(workers=2, cores=1)
    monkeypatch.setattr(search_engine, "_CHANNELS_BESIDE", beside)
    channels = [Recording("bm25", hits), Recording("vector", hits[::-1])]
    engine = SearchEngine(None, channels, SearchSettings(), max_query_chars=1000)
    query = SearchQuery(query="Globex renewal", limit=3)
    alone = engine.search(query, "g", ["bm25", "vector"])
    with beside.spare_core() as taken:  # another search holds the one core
        assert taken
        busy = engine.search(query, "g", ["bm25", "vector"])
    here = threading.current_thread().name
    assert [thread for thread, _ in channels[0].seen] == [here, here]
    assert channels[1].seen[0][0].startswith("engram-channel") and channels[1].seen[1][0] == here
    assert [h.episode.id for h in busy.results] == [h.episode.id for h in alone.results]
