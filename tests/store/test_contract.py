"""The Storage contract: every backend must pass these, through the ``store`` fixture."""

from __future__ import annotations

import dataclasses
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram.config import Settings
from engram.errors import Conflict, InvalidInput, NotFound, PreconditionFailed
from engram.ids import new_id
from engram.ingest.inputs import fingerprint
from engram.memory import Memory
from engram.models.episodes import Actor, Episode, EpisodeFilters, Operation
from engram.nlp.tokenize import segment
from engram.storage.protocol import Storage
from engram.storage.types import NewEpisode, PageKey

T0 = datetime(2024, 5, 8, 13, 56, tzinfo=UTC)


def new_episode(
    episode_id: str,
    content: str,
    *,
    group_id: str = "g1",
    minutes: int = 0,
    intent: str | None = None,
    source: str | None = None,
    actor_id: str = "alice",
    metadata: dict[str, object] | None = None,
    client_id: bool = True,
    thread: str | None = None,
) -> NewEpisode:
    episode = Episode(
        id=episode_id,
        group_id=group_id,
        version=1,
        timestamp=T0 + timedelta(minutes=minutes),
        recorded_at=datetime.now(UTC),
        source=source,
        source_type="message",
        actor=Actor(id=actor_id, name=actor_id.title()),
        intent=intent,
        content=content,
        metadata=metadata or {},
        references=["doc:1"],
        fingerprint=fingerprint(intent, content, actor_id),
        operation_id="op_test",
    )
    return NewEpisode(episode=episode, search_text=segment(content), client_id=client_id, thread=thread)


def operation(group_id: str = "g1", kind: str = "ingest") -> Operation:
    return Operation(
        id=new_id("op"),
        group_id=group_id,
        kind=kind,
        created_at=datetime.now(UTC),
        summary=kind,
    )


def test_insert_then_get_round_trips_every_field(store: Storage) -> None:
    item = new_episode("e1", "Caroline went to the LGBTQ support group", metadata={"session": 1, "x": "y"})
    [(stored, duplicate)] = store.insert_episodes([item], operation())
    assert duplicate is False
    fetched = store.get_episode("g1", "e1")
    assert fetched == item.episode == stored


def test_get_is_scoped_to_the_group(store: Storage) -> None:
    store.insert_episodes([new_episode("e1", "hello")], operation())
    assert store.get_episode("g2", "e1") is None
    assert store.get_episode("g1", "missing") is None


def test_same_client_id_and_content_is_a_duplicate(store: Storage) -> None:
    store.insert_episodes([new_episode("e1", "hello")], operation())
    [(stored, duplicate)] = store.insert_episodes([new_episode("e1", "hello")], operation())
    assert duplicate is True
    assert stored.id == "e1"
    assert store.counts()["episodes"] == 1


def test_client_id_reused_for_other_content_conflicts_and_writes_nothing(store: Storage) -> None:
    store.insert_episodes([new_episode("e1", "hello")], operation())
    batch = [new_episode("e2", "fine"), new_episode("e1", "something else")]
    with pytest.raises(Conflict) as caught:
        store.insert_episodes(batch, operation())
    assert caught.value.field == "id"
    assert store.get_episode("g1", "e2") is None, "a failed batch must write nothing"


def test_fingerprint_dedup_without_client_id(store: Storage) -> None:
    store.insert_episodes([new_episode("e1", "same words", client_id=False)], operation())
    [(stored, duplicate)] = store.insert_episodes(
        [new_episode("e9", "same words", client_id=False)], operation()
    )
    assert duplicate is True
    assert stored.id == "e1"
    [(other_group, dup_elsewhere)] = store.insert_episodes(
        [new_episode("e9", "same words", group_id="g2", client_id=False)], operation("g2")
    )
    assert dup_elsewhere is False, "deduplication is per group"
    assert other_group.group_id == "g2"


def test_duplicates_inside_one_batch(store: Storage) -> None:
    results = store.insert_episodes(
        [new_episode("a", "twice", client_id=False), new_episode("b", "twice", client_id=False)], operation()
    )
    assert [duplicate for _, duplicate in results] == [False, True]
    assert results[1][0].id == "a"


def test_update_appends_a_version_and_closes_the_old_one(store: Storage) -> None:
    store.insert_episodes([new_episode("e1", "hello")], operation())
    op = operation(kind="update")

    def apply(current: Episode) -> Episode:
        return current.model_copy(
            update={
                "version": current.version + 1,
                "metadata": {"k": 2},
                "recorded_at": op.created_at,
                "operation_id": op.id,
            }
        )

    updated = store.update_episode("g1", "e1", 1, apply, op)
    assert updated.version == 2
    current = store.get_episode("g1", "e1")
    assert current is not None
    assert (current.version, current.metadata, current.operation_id) == (2, {"k": 2}, op.id)
    counts = store.counts()
    assert (counts["episodes"], counts["episode_versions"]) == (1, 2)


def test_update_with_stale_version_fails_and_changes_nothing(store: Storage) -> None:
    store.insert_episodes([new_episode("e1", "hello")], operation())
    with pytest.raises(PreconditionFailed) as caught:
        store.update_episode("g1", "e1", 7, lambda e: e, operation(kind="update"))
    assert caught.value.current_version == 1
    with pytest.raises(NotFound):
        store.update_episode("g1", "nope", 1, lambda e: e, operation(kind="update"))
    assert store.counts()["episode_versions"] == 1


def test_concurrent_updates_never_lose_one(store: Storage) -> None:
    store.insert_episodes([new_episode("e1", "hello")], operation())
    successes: list[int] = []
    lock = threading.Lock()

    def worker(n: int) -> None:
        for _ in range(20):
            current = store.get_episode("g1", "e1")
            assert current is not None
            op = operation(kind="update")

            def apply(ep: Episode, n: int = n) -> Episode:
                return ep.model_copy(
                    update={"version": ep.version + 1, "metadata": {**ep.metadata, str(n): 1}}
                )

            try:
                new = store.update_episode("g1", "e1", current.version, apply, op)
            except PreconditionFailed:
                continue
            with lock:
                successes.append(new.version)
            return

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(successes) == len(set(successes)) == 8
    final = store.get_episode("g1", "e1")
    assert final is not None
    assert final.version == 9
    assert set(final.metadata) == {str(n) for n in range(8)}


def test_list_newest_first_with_filters_and_paging(store: Storage) -> None:
    store.insert_episodes(
        [
            new_episode("e0", "zero", minutes=0, intent="greet", source="chat", actor_id="alice"),
            new_episode("e1", "one", minutes=1, intent="ask", source="chat", actor_id="bob"),
            new_episode(
                "e2", "two", minutes=2, intent="ask", source="mail", actor_id="alice", metadata={"session": 2}
            ),
            new_episode("e3", "three", minutes=3, intent="greet", source="chat", actor_id="bob"),
        ],
        operation(),
    )
    store.insert_episodes([new_episode("x", "other group", group_id="g2")], operation("g2"))
    everything = EpisodeFilters()
    assert [e.id for e in store.list_episodes("g1", everything, 10)] == ["e3", "e2", "e1", "e0"]
    assert [e.id for e in store.list_episodes("g1", EpisodeFilters(intent=["ask"]), 10)] == ["e2", "e1"]
    assert [e.id for e in store.list_episodes("g1", EpisodeFilters(source=["mail"]), 10)] == ["e2"]
    assert [e.id for e in store.list_episodes("g1", EpisodeFilters(actor_id=["bob"]), 10)] == ["e3", "e1"]
    window = EpisodeFilters(
        timestamp_after=T0 + timedelta(minutes=1), timestamp_before=T0 + timedelta(minutes=3)
    )
    assert [e.id for e in store.list_episodes("g1", window, 10)] == ["e2", "e1"]
    assert [e.id for e in store.list_episodes("g1", EpisodeFilters(metadata={"session": 2}), 10)] == ["e2"]
    page = store.list_episodes("g1", everything, 2)
    rest = store.list_episodes("g1", everything, 10, PageKey(page[-1].timestamp, page[-1].id))
    assert [e.id for e in page + rest] == ["e3", "e2", "e1", "e0"]

    def ids(filters: EpisodeFilters, limit: int, after: PageKey | None = None) -> list[str]:
        return [e.id for e in store.list_episodes("g1", filters, limit, after)]

    # Several actors (each read through its own index, then merged), with paging and filters.
    two = EpisodeFilters(actor_id=["alice", "bob", "carol"])
    assert ids(two, 10) == ["e3", "e2", "e1", "e0"]
    assert ids(two, 2) + ids(two, 10, PageKey(T0 + timedelta(minutes=2), "e2")) == ["e3", "e2", "e1", "e0"]
    assert ids(EpisodeFilters(actor_id=["bob", "alice"], intent=["ask"]), 10) == ["e2", "e1"]


def test_paging_is_stable_when_timestamps_tie(store: Storage) -> None:
    store.insert_episodes([new_episode(f"e{i}", f"text {i}") for i in range(5)], operation())
    seen: list[str] = []
    key = None
    while True:
        page = store.list_episodes("g1", EpisodeFilters(), 2, key)
        if not page:
            break
        seen += [e.id for e in page]
        key = PageKey(page[-1].timestamp, page[-1].id)
    assert seen == ["e4", "e3", "e2", "e1", "e0"]


def test_search_text_ranks_filters_and_scopes(store: Storage) -> None:
    store.insert_episodes(
        [
            new_episode("en1", "I adopted a puppy named Oscar last week", intent="share"),
            new_episode("en2", "The weather is nice", intent="share"),
            new_episode("zh1", "客户要求取消订单，订单号是 DEAL-7890", intent="cancel"),
            new_episode("zh2", "我们讨论了预算问题", intent="plan"),
        ],
        operation(),
    )
    store.insert_episodes([new_episode("g2doc", "puppy in another group", group_id="g2")], operation("g2"))
    hits = store.search_text("g1", ["puppy"], EpisodeFilters(), 10)
    assert [h.episode.id for h in hits] == ["en1"]
    assert hits[0].score > 0
    assert [h.episode.id for h in store.search_text("g1", ["订单"], EpisodeFilters(), 10)] == ["zh1"]
    assert store.search_text("g1", ["订单"], EpisodeFilters(intent=["plan"]), 10) == []
    assert [h.episode.id for h in store.search_text("g2", ["puppy"], EpisodeFilters(), 10)] == ["g2doc"]
    assert store.search_text("g1", [], EpisodeFilters(), 10) == []


def test_search_sees_only_the_current_version(store: Storage) -> None:
    store.insert_episodes([new_episode("e1", "budget is 500k", intent="plan")], operation())
    op = operation(kind="update")
    store.update_episode("g1", "e1", 1, lambda e: e.model_copy(update={"version": 2, "intent": "decide"}), op)
    assert store.search_text("g1", ["budget"], EpisodeFilters(intent=["plan"]), 10) == []
    [hit] = store.search_text("g1", ["budget"], EpisodeFilters(intent=["decide"]), 10)
    assert hit.episode.version == 2


def test_counts_and_schema_version(store: Storage) -> None:
    store.insert_episodes([new_episode("a", "x")], operation())
    store.insert_episodes([new_episode("b", "y", group_id="g2")], operation("g2"))
    assert store.counts() == {
        "episodes": 2,
        "episode_versions": 2,
        "groups": 2,
        "operations": 2,
        "graphs_queued": 0,
    }
    assert store.schema_version() >= 1


def test_thread_neighbours_lend_context_to_search(store: Storage) -> None:
    store.insert_episodes(
        [
            new_episode("q", "Did you ever go hiking in Yosemite?", minutes=0, thread="s1"),
            new_episode("a", "Yes! Last summer, it was wonderful.", minutes=1, thread="s1"),
            new_episode("late", "Anyway, see you tomorrow.", minutes=9, thread="s1"),
            new_episode("other", "Yes! I loved it.", minutes=2, thread="s2"),
            new_episode("alone", "Yes! Great.", minutes=3),
        ],
        operation(),
    )
    hits = [h.episode.id for h in store.search_text("g1", ["yosemite"], EpisodeFilters(), 10)]
    assert hits[0] == "q", "an episode's own words count most"
    assert set(hits) == {"q", "a"}, "only the thread neighbour gains context"
    # An episode inserted later between two others becomes their neighbour.
    store.insert_episodes(
        [new_episode("mid", "I think we should talk about Zion", minutes=5, thread="s1")], operation()
    )
    hits = [h.episode.id for h in store.search_text("g1", ["zion"], EpisodeFilters(), 10)]
    assert hits[0] == "mid" and set(hits) == {"mid", "a", "late"}


def test_pending_embeddings_go_on_from_the_last_batch_and_come_back_for_stragglers(store: Storage) -> None:
    """A drain reads pending episodes batch after batch from where the last one ended (not from
    the first episode again, past every vector stored); one left behind is found once the rest
    are done."""
    store.insert_episodes([new_episode(f"e{i}", f"note {i}", minutes=i) for i in range(7)], operation())
    vector = [1.0, 0.0, 0.0, 0.0]
    first = store.pending_embeddings(3)
    assert [e.id for e in first] == ["e0", "e1", "e2"]
    store.put_vectors([(first[0], vector), (first[2], vector)])  # e1 is left behind
    second = store.pending_embeddings(3)
    assert [e.id for e in second] == ["e3", "e4", "e5"]
    store.put_vectors([(e, vector) for e in second])
    third = store.pending_embeddings(3)
    assert [e.id for e in third] == ["e6"]
    store.put_vectors([(third[0], vector)])
    assert [e.id for e in store.pending_embeddings(3)] == ["e1"]


def test_vector_search_with_a_selective_filter_scores_only_passing_episodes(store: Storage) -> None:
    import numpy as np

    rng = np.random.default_rng(3)
    items = [
        new_episode(f"e{i}", f"text {i}", actor_id="rare" if i % 97 == 0 else "common") for i in range(800)
    ]
    store.insert_episodes(items, operation())
    vectors = rng.standard_normal((800, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    store.put_vectors([(item.episode, vectors[i]) for i, item in enumerate(items)])
    query = vectors[5]
    rare = [i for i in range(800) if i % 97 == 0]
    expected = sorted(rare, key=lambda i: -float(vectors[i] @ query))[:3]
    hits = store.search_vectors("g1", query, EpisodeFilters(actor_id=["rare"]), 3)
    assert [h.episode.id for h in hits] == [f"e{i}" for i in expected]
    assert [h.episode.id for h in store.search_vectors("g1", query, EpisodeFilters(), 1)] == ["e5"]


# -- time travel: known_at (transaction time) and as_of (valid time) ----------------------------------

R1 = datetime(2025, 1, 1, tzinfo=UTC)
R2 = datetime(2025, 2, 1, tzinfo=UTC)
R3 = datetime(2025, 3, 1, tzinfo=UTC)
DAY = timedelta(days=1)


def stored_at(item: NewEpisode, when: datetime) -> NewEpisode:
    """Return ``item`` as if stored at ``when``."""
    return dataclasses.replace(item, episode=item.episode.model_copy(update={"recorded_at": when}))


def update_at(store: Storage, episode_id: str, version: int, when: datetime, **fields: object) -> Episode:
    """Append version ``version + 1`` of ``episode_id`` in g1, stored at ``when``, with ``fields`` changed."""
    op = operation(kind="update")

    def apply(current: Episode) -> Episode:
        changes = {"version": current.version + 1, "recorded_at": when, "operation_id": op.id, **fields}
        return current.model_copy(update=changes)

    return store.update_episode("g1", episode_id, version, apply, op)


def history_of_three(store: Storage) -> None:
    """e1 and e2 stored at R1; e1 updated at R2 (intent plan -> decide); e3 stored at R3.

    e1 and e3 form a thread (neighbours); e2 stands alone.
    """
    first = [
        new_episode("e1", "the budget is 500k", minutes=0, intent="plan", thread="s"),
        new_episode("e2", "we met the client", minutes=1, intent="plan"),
    ]
    store.insert_episodes([stored_at(item, R1) for item in first], operation())
    update_at(store, "e1", 1, R2, intent="decide", metadata={"k": 2})
    later = new_episode("e3", "the budget is now 800k", minutes=2, intent="plan", thread="s")
    store.insert_episodes([stored_at(later, R3)], operation())


def versions(episodes: list[Episode]) -> list[tuple[str, int]]:
    return [(e.id, e.version) for e in episodes]


def test_get_at_known_at_returns_the_version_held_then(store: Storage) -> None:
    history_of_three(store)
    assert store.get_episode("g1", "e1", R1 - DAY) is None, "not stored yet"
    old = store.get_episode("g1", "e1", R1 + DAY)
    assert old is not None
    assert (old.version, old.intent, old.metadata, old.expired_at) == (1, "plan", {}, R2)
    at_update = store.get_episode("g1", "e1", R2)
    assert at_update is not None and at_update.version == 2, "a version counts from its recorded_at on"
    assert store.get_episode("g1", "e3", R2) is None
    assert store.get_episode("g1", "e3", R3) == store.get_episode("g1", "e3")
    assert store.get_episode("g2", "e1", R3) is None


def test_list_at_known_at_shows_what_was_held_then(store: Storage) -> None:
    history_of_three(store)
    everything = EpisodeFilters()
    assert versions(store.list_episodes("g1", everything, 10)) == [("e3", 1), ("e2", 1), ("e1", 2)]
    then = EpisodeFilters(known_at=R1 + DAY)
    assert versions(store.list_episodes("g1", then, 10)) == [("e2", 1), ("e1", 1)]
    assert store.list_episodes("g1", EpisodeFilters(known_at=R1 - DAY), 10) == []
    # Filters apply to the version held then: e1 had intent "plan" before R2.
    planned = EpisodeFilters(intent=["plan"], known_at=R1 + DAY)
    assert versions(store.list_episodes("g1", planned, 10)) == [("e2", 1), ("e1", 1)]
    assert versions(store.list_episodes("g1", EpisodeFilters(intent=["plan"]), 10)) == [("e3", 1), ("e2", 1)]
    assert store.list_episodes("g1", EpisodeFilters(source=["mail"], known_at=R3), 10) == []
    one_actor = EpisodeFilters(actor_id=["alice"], known_at=R2 + DAY)
    assert versions(store.list_episodes("g1", one_actor, 10)) == [("e2", 1), ("e1", 2)]
    # Paging at a past time.
    page = store.list_episodes("g1", then, 1)
    rest = store.list_episodes("g1", then, 10, PageKey(page[-1].timestamp, page[-1].id))
    assert versions(page + rest) == [("e2", 1), ("e1", 1)]


def test_as_of_keeps_episodes_that_had_happened(store: Storage) -> None:
    history_of_three(store)
    happened = EpisodeFilters(as_of=T0 + timedelta(minutes=1))
    assert versions(store.list_episodes("g1", happened, 10)) == [("e2", 1), ("e1", 2)]
    both = EpisodeFilters(as_of=T0, known_at=R1 + DAY)
    assert versions(store.list_episodes("g1", both, 10)) == [("e1", 1)]
    found = store.search_text("g1", ["budget"], EpisodeFilters(as_of=T0), 10)
    assert [h.episode.id for h in found] == ["e1"], "e3 says budget too, but later"


def test_search_text_at_known_at(store: Storage) -> None:
    history_of_three(store)
    assert {h.episode.id for h in store.search_text("g1", ["budget"], EpisodeFilters(), 10)} == {"e1", "e3"}
    [hit] = store.search_text("g1", ["budget"], EpisodeFilters(known_at=R2 + DAY), 10)
    assert (hit.episode.id, hit.episode.version) == ("e1", 2)
    [hit] = store.search_text("g1", ["budget"], EpisodeFilters(known_at=R1 + DAY, intent=["plan"]), 10)
    assert (hit.episode.id, hit.episode.version) == ("e1", 1)
    assert store.search_text("g1", ["budget"], EpisodeFilters(known_at=R1 - DAY), 10) == []


def test_search_vectors_at_known_at(store: Storage) -> None:
    import numpy as np

    history_of_three(store)
    vectors = {"e1": [1.0, 0.0, 0.0], "e2": [0.0, 1.0, 0.0], "e3": [0.9, 0.1, 0.0]}
    stored = {e.id: e for e in store.list_episodes("g1", EpisodeFilters(), 10)}
    store.put_vectors(
        [(stored[k], np.asarray(v, dtype=np.float32) / np.linalg.norm(v)) for k, v in vectors.items()]
    )
    query = np.asarray([1.0, 0.0, 0.0], dtype=np.float32)
    assert [h.episode.id for h in store.search_vectors("g1", query, EpisodeFilters(), 2)] == ["e1", "e3"]
    hits = store.search_vectors("g1", query, EpisodeFilters(known_at=R1 + DAY), 2)
    assert versions([h.episode for h in hits]) == [("e1", 1), ("e2", 1)]
    hits = store.search_vectors("g1", query, EpisodeFilters(known_at=R1 + DAY, intent=["decide"]), 2)
    assert hits == [], "e1 was decided only at R2"


def test_neighbours_at_known_at(store: Storage) -> None:
    history_of_three(store)
    previous, following = store.neighbours("g1", "e3", R2 + DAY)
    assert previous is not None and (previous.id, previous.version) == ("e1", 2)
    assert following is None
    previous, following = store.neighbours("g1", "e3", R1 + DAY)
    assert previous is not None and (previous.id, previous.version) == ("e1", 1)
    assert store.neighbours("g1", "e1", R1 + DAY) == (None, None), "e3 was not stored yet"
    assert store.neighbours("g1", "e1")[1] == store.get_episode("g1", "e3")


def test_vector_search_at_known_at_with_a_selective_filter(store: Storage) -> None:
    import numpy as np

    rng = np.random.default_rng(5)
    rare = {i for i in range(1200) if i % 97 == 0}
    items = [
        new_episode(f"e{i}", f"text {i}", actor_id="rare" if i in rare else "common") for i in range(1200)
    ]
    store.insert_episodes([stored_at(item, R1) for item in items[:600]], operation())
    store.insert_episodes([stored_at(item, R3) for item in items[600:]], operation())
    update_at(store, "e0", 1, R3, metadata={"k": 2})  # e0's first version is closed after R2
    vectors = rng.standard_normal((1200, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    store.put_vectors([(item.episode, vectors[i]) for i, item in enumerate(items)])
    query = vectors[0]
    then = [i for i in sorted(rare) if i < 600]
    expected = sorted(then, key=lambda i: -float(vectors[i] @ query))[:3]
    hits = store.search_vectors("g1", query, EpisodeFilters(actor_id=["rare"], known_at=R2), 3)
    assert [h.episode.id for h in hits] == [f"e{i}" for i in expected]
    assert hits[0].episode.id == "e0" and hits[0].episode.version == 1


def test_nul_characters_are_invalid_input_on_both_backends(backend: dict[str, Any]) -> None:
    """PostgreSQL refuses NUL in text; SQLite refuses it too, so a group moves between them whole."""
    with Memory.open(settings=Settings(**backend, embedder="none")) as memory:
        with pytest.raises(InvalidInput) as caught:
            memory.store.insert_episodes([new_episode("e1", "a\x00b")], operation())
        assert caught.value.field == "content"
        with pytest.raises(InvalidInput) as caught:
            memory.store.insert_episodes([new_episode("e1", "ab", metadata={"k": "\x00"})], operation())
        assert caught.value.field == "metadata"
        stored = memory.create_episode({"content": "a note"}).episode
        with pytest.raises(InvalidInput) as caught:
            memory.add_facts(
                {
                    "episode_id": stored.id,
                    "facts": [{"subject": "A\x00nn", "predicate": "LIKES", "value": "tea"}],
                }
            )
        assert caught.value.field == "facts.0" and "subject must not contain NUL" in caught.value.detail
        assert memory.search_entities("ann") == []
        with pytest.raises(InvalidInput) as caught:
            memory.create_episode({"content": "a\x00b"})
        assert caught.value.field == "content" and memory.list_episodes().items == [stored]
        # Refused before the episode is stored: a corrected retry is not taken for a duplicate.
        fact = {"subject": "Ann", "predicate": "LIVES_IN", "value": "Oslo", "fact": "Ann lives in Os\x00lo"}
        with pytest.raises(InvalidInput) as caught:
            memory.create_episode({"content": "Ann lives in Oslo", "facts": [fact]})
        assert caught.value.field == "facts.0" and memory.list_episodes().items == [stored]
        retried = memory.create_episode(
            {"content": "Ann lives in Oslo", "facts": [{**fact, "fact": "Ann lives in Oslo"}]}
        )
        assert not retried.deduplicated and memory.search_facts({"query": "Ann Oslo"}).results
