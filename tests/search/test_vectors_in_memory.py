"""Vectors served from memory: filters as masks, freshness across processes, precomputed embeddings,
the query cache and declared metadata indexes, on real stores."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from engram import InvalidInput, Memory, Settings, StoreError
from engram.api.app import create_app
from engram.models.episodes import EpisodeFilters
from engram.nlp.embed import Vectors, normalise

DIMENSIONS = 8
START = datetime(2024, 1, 1, tzinfo=UTC)


class AxisEmbedder:
    """Embeds ``axisN …`` texts as unit vector N (8 dimensions); counts the query texts it embeds."""

    name = "axis"
    dimensions = DIMENSIONS

    def __init__(self) -> None:
        self.queries: list[str] = []

    def _vector(self, text: str) -> Vectors:
        vector = np.full(DIMENSIONS, 0.01, dtype=np.float32)
        for word in text.split():
            if word.startswith("axis") and word[4:].isdigit():
                vector[int(word[4:]) % DIMENSIONS] += 1.0
        return normalise(vector)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return np.stack([self._vector(t) for t in texts])

    def embed_query(self, text: str) -> Vectors:
        self.queries.append(text)
        return self._vector(text)

    def close(self) -> None:
        pass


def _axis(n: int) -> list[float]:
    vector = [0.0] * DIMENSIONS
    vector[n % DIMENSIONS] = 2.0  # not unit length: the memory scales it
    return vector


METADATA = [{"team": "red", "n": 1}, {"team": "blue", "n": 1.0}, {"flag": True}, {"team": "red", "n": 2}, {}]


def _episodes(count: int) -> list[dict[str, Any]]:
    return [
        {
            "id": f"e{i}",
            "content": f"note number {i}",
            "actor": {"id": f"user{i % 3}"},
            "intent": ["ask", "tell"][i % 2],
            "source": ["chat", "mail", None][i % 3],
            "timestamp": START + timedelta(days=i),
            "metadata": METADATA[i % len(METADATA)],
            "embedding": _axis(i),
        }
        for i in range(count)
    ]


@pytest.fixture
def open_memory(backend: dict[str, Any]) -> Iterator[Any]:
    opened: list[Memory] = []

    def make(**settings: Any) -> Memory:
        memory = Memory.open(
            settings=Settings(**{**backend, "embedder": "none", "extractor": "none", **settings}),
            embedder=AxisEmbedder(),
            background_indexing=False,
        )
        opened.append(memory)
        return memory

    yield make
    for memory in opened:
        memory.close()


FILTERS: list[dict[str, Any]] = [
    {},
    {"actor_id": ["user1"]},
    {"actor_id": ["user0", "user2"], "intent": ["tell"]},
    {"source": ["mail"]},
    {"timestamp_after": START + timedelta(days=5), "timestamp_before": START + timedelta(days=17)},
    {"metadata": {"team": "red"}},
    {"metadata": {"n": 1}},
    {"metadata": {"flag": True}},
    {"metadata": {"team": None}},
    {"metadata": {"team": "green"}},
    {"actor_id": ["nobody"]},
]


@pytest.mark.parametrize("filters", FILTERS, ids=[str(sorted(f)) for f in FILTERS])
def test_vector_search_keeps_exactly_the_episodes_the_filters_list(
    open_memory: Any, filters: dict[str, Any]
) -> None:
    memory = open_memory()
    memory.create_episodes(_episodes(24))
    assert memory.pending_embeddings() == 0, "given embeddings are stored with the episodes"
    listed = {e.id for e in memory.store.list_episodes("default", EpisodeFilters(**filters), 100)}  # in SQL
    found = memory.search_episodes(
        {"query": "axis3", "limit": 100, "filters": filters}, channels=["vector"]
    ).results
    assert {hit.episode.id for hit in found} == listed
    if listed - {"e3"} and "e3" in listed:
        assert found[0].episode.id in {f"e{i}" for i in range(3, 24, DIMENSIONS)}, "nearest first"


def test_a_group_loaded_page_by_page_filters_as_one_loaded_whole(
    open_memory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engram.storage import episode_matrix

    monkeypatch.setattr(episode_matrix, "LOAD_PAGE", 5)  # 24 rows: five pages, the last one short
    open_memory().create_episodes(_episodes(24))
    memory = open_memory()  # another process: loads the group when first searched
    for filters in FILTERS:
        listed = {e.id for e in memory.store.list_episodes("default", EpisodeFilters(**filters), 100)}
        request = {"query": "axis3", "limit": 100, "filters": filters}
        found = memory.search_episodes(request, channels=["vector"]).results
        assert {hit.episode.id for hit in found} == listed, filters
    assert len(memory.search_episodes({"query": "axis3", "limit": 100}, channels=["vector"]).results) == 24


def test_another_process_writes_are_seen_by_the_next_search(open_memory: Any) -> None:
    reader, writer = open_memory(), open_memory()  # two stores on one database: as two processes
    writer.create_episodes(_episodes(10))

    def found(query: str, **filters: Any) -> list[str]:
        request = {"query": query, "limit": 100, "filters": filters}
        return [hit.episode.id for hit in reader.search_episodes(request, channels=["vector"]).results]

    assert "e2" in found("axis2", actor_id=["user2"])  # loads the group
    writer.create_episode({"id": "late", "content": "late", "actor": {"id": "user2"}, "embedding": _axis(2)})
    assert "late" in found("axis2", actor_id=["user2"]), "a new episode with its vector"
    episode = writer.get_episode("e2")
    writer.update_episode("e2", {"intent": "changed"}, expected_version=episode.version)
    assert found("axis2", intent=["changed"]) == ["e2"], "an updated filter column"
    writer.delete_episode("late")
    assert "late" not in found("axis2"), "a deleted episode"
    assert reader.get_episode("e2").intent == "changed"
    hits = reader.search_episodes({"query": "axis2", "limit": 5}, channels=["vector"]).results
    assert {h.episode.id: h.episode for h in hits}["e2"].intent == "changed", "hits are current versions"


def _prune_the_log(writer: Memory, past: int = 0) -> None:
    """Let the log's own trigger prune: jump ``seq`` to just before a pruning (past ``past``), then
    write two changes in another group (the pruning keeps the last 100,000 changes)."""
    seq = 219_998 + past
    jump = (
        f"SELECT setval(pg_get_serial_sequence('episode_changes', 'seq'), {seq})"
        if type(writer.store._backend).__name__.startswith("Postgres")
        else f"INSERT INTO episode_changes (seq, group_id, doc) VALUES ({seq}, 'elsewhere', 0)"
    )
    writer.store._backend.write(lambda db: db.run(jump))
    writer.create_episode({"content": f"elsewhere {past}", "group_id": "elsewhere", "embedding": _axis(0)})


@contextmanager
def _held_open(writer: Memory, sql: str) -> Iterator[None]:
    """Run ``sql`` in a write transaction held open for the block, committed after it."""
    logged, release = threading.Event(), threading.Event()

    def write(db: Any) -> None:
        db.run(sql)
        logged.set()
        assert release.wait(10)

    holder = threading.Thread(target=writer.store._backend.write, args=(write,))
    holder.start()
    assert logged.wait(10)
    try:
        yield
    finally:
        release.set()
        holder.join()


def test_a_reader_behind_the_pruned_change_log_reloads(open_memory: Any) -> None:
    """The group's changes since the reader's mark were pruned, every one: its count is as before."""
    reader, writer = open_memory(), open_memory()
    writer.create_episodes(_episodes(5))
    filters = {"timestamp_after": START - timedelta(days=1)}  # filtered: from memory on both backends
    first = {"query": "axis1", "limit": 1, "filters": filters}
    assert reader.search_episodes(first, channels=["vector"]).results
    writer.create_episode({"id": "new", "content": "new", "embedding": _axis(7)})
    writer.delete_episode("e1")
    _prune_the_log(writer)
    with writer.store._backend.read() as db:
        assert db.value("SELECT count(*) AS n FROM episode_changes WHERE group_id = 'default'") == 0
    request = {"query": "axis7", "limit": 10, "filters": filters}
    ids = [hit.episode.id for hit in reader.search_episodes(request, channels=["vector"]).results]
    assert ids[0] == "new" and "e1" not in ids


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_a_change_held_open_across_a_pruning_then_pruned_is_seen(open_memory: Any) -> None:
    """A transaction open while the log is pruned commits, and its change is pruned by the next pruning."""
    reader, writer = open_memory(), open_memory()
    writer.create_episodes(_episodes(10))
    filters = {"intent": ["late"]}
    assert reader.search_episodes({"query": "axis2", "filters": filters}, channels=["vector"]).results == []
    with _held_open(writer, "UPDATE episodes SET intent = 'late' WHERE id = 'e2' AND expired_at IS NULL"):
        _prune_the_log(writer)  # cannot see the open change: kept
        assert (
            reader.search_episodes({"query": "axis2", "filters": filters}, channels=["vector"]).results == []
        )
    _prune_the_log(writer, past=10_000)  # now it can
    hits = reader.search_episodes({"query": "axis2", "filters": filters}, channels=["vector"]).results
    assert [hit.episode.id for hit in hits] == ["e2"]


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_a_change_committed_after_a_later_one_was_read_is_seen(open_memory: Any) -> None:
    """PostgreSQL writers run concurrently: a change logged first may commit last."""
    reader, writer = open_memory(), open_memory()
    writer.create_episodes(_episodes(10))

    def found(**filters: Any) -> set[str]:
        request = {"query": "axis2", "limit": 100, "filters": filters}
        return {hit.episode.id for hit in reader.search_episodes(request, channels=["vector"]).results}

    assert found(intent=["late"]) == set()  # loads the group
    # Logged now, committed after the next writer's commit is read.
    with _held_open(writer, "UPDATE episodes SET intent = 'late' WHERE id = 'e2' AND expired_at IS NULL"):
        # Another intent: the held update holds the summary count row of 'late' until it commits.
        writer.create_episode({"id": "after", "content": "after", "intent": "soon", "embedding": _axis(2)})
        assert found(intent=["late", "soon"]) == {"after"}
    assert found(intent=["late", "soon"]) == {"after", "e2"}


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_a_pruning_under_an_open_transaction_costs_no_reload_per_search(
    open_memory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pruning keeps what a running transaction may still commit around; searches do not reload."""
    from engram.storage.episode_matrix import EpisodeMatrices

    loads: list[str] = []
    load = EpisodeMatrices._load
    monkeypatch.setattr(EpisodeMatrices, "_load", lambda self, db, g: loads.append(g) or load(self, db, g))
    reader, writer = open_memory(), open_memory()
    writer.create_episodes(_episodes(6))
    request = {"query": "axis2", "filters": {"intent": ["tell"]}}
    assert reader.search_episodes(request, channels=["vector"]).results
    with _held_open(writer, "UPDATE episodes SET source = 'held' WHERE id = 'e0' AND expired_at IS NULL"):
        writer.create_episode({"id": "late", "content": "late", "intent": "tell", "embedding": _axis(2)})
        _prune_the_log(writer)
        loads.clear()
        for _ in range(5):
            hits = reader.search_episodes(request, channels=["vector"]).results
            assert "late" in {hit.episode.id for hit in hits}
        assert len(loads) <= 1, loads


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_a_long_open_transaction_does_not_make_refreshes_read_changes_again(open_memory: Any) -> None:
    """A transaction held open: a refresh reads only the changes its mark did not see."""
    from engram.storage.postgres.change_log import PostgresChangeLog

    writer = open_memory()
    writer.create_episodes(_episodes(6))
    log, backend = PostgresChangeLog(), writer.store._backend
    with _held_open(writer, "UPDATE episodes SET intent = 'held' WHERE id = 'e0' AND expired_at IS NULL"):
        with backend.read() as db:
            mark = log.start(db, "default")
        changed = []
        for i in (3, 4):
            episode = writer.get_episode(f"e{i}")
            writer.update_episode(f"e{i}", {"intent": "new"}, expected_version=episode.version)
            with backend.read() as db:
                keys, mark = log.since(db, "default", mark)
            changed.append(keys)
        assert changed == [["e3"], ["e4"]]
    with backend.read() as db:
        assert log.since(db, "default", mark)[0] == ["e0"], "the held change once committed"


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_changes_restored_from_a_cluster_ahead_are_dropped_at_open(open_memory: Any) -> None:
    """A pg_dump restored into a younger cluster carries transaction ids ahead of the new cluster's."""
    writer = open_memory()
    writer.create_episodes(_episodes(4))
    ahead = "CAST(CAST(CAST(xid AS text) AS bigint) + 5000000 AS text)::xid8"
    writer.store._backend.write(lambda db: db.run(f"UPDATE episode_changes SET xid = {ahead}"))
    reader = open_memory()  # opening repairs
    with reader.store._backend.read() as db:
        left = db.value(
            "SELECT count(*) AS n FROM episode_changes WHERE xid >= pg_snapshot_xmax(pg_current_snapshot())"
        )
    assert left == 0
    filters = {"intent": ["late"]}
    assert reader.search_episodes({"query": "axis2", "filters": filters}, channels=["vector"]).results == []
    episode = writer.get_episode("e2")
    writer.update_episode("e2", {"intent": "late"}, expected_version=episode.version)
    hits = reader.search_episodes({"query": "axis2", "filters": filters}, channels=["vector"]).results
    assert [hit.episode.id for hit in hits] == ["e2"]


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_a_read_only_session_on_changes_restored_ahead_does_not_reload_per_search(
    open_memory: Any, backend: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only session cannot drop changes restored from a cluster ahead (a writable process
    does at open): it serves filtered vector searches in SQL, exact, with no reload per search."""
    from engram.storage.episode_matrix import EpisodeMatrices

    writer = open_memory()
    writer.create_episodes(_episodes(6))
    ahead = "CAST(CAST(CAST(xid AS text) AS bigint) + 5000000 AS text)::xid8"
    writer.store._backend.write(lambda db: db.run(f"UPDATE episode_changes SET xid = {ahead}"))
    writer.store._backend.write(lambda db: db.run(f"UPDATE episode_changes_pruned SET xid = {ahead}"))
    loads: list[str] = []
    load = EpisodeMatrices._load
    monkeypatch.setattr(EpisodeMatrices, "_load", lambda self, db, g: loads.append(g) or load(self, db, g))
    url = backend["database_url"].get_secret_value()
    read_only = url.replace("search_path", "default_transaction_read_only%3Don%20-csearch_path")
    reader = open_memory(database_url=SecretStr(read_only))
    request = {"query": "axis2", "filters": {"intent": ["late"]}}
    for _ in range(3):
        assert reader.search_episodes(request, channels=["vector"]).results == []
    episode = writer.get_episode("e2")
    writer.update_episode("e2", {"intent": "late"}, expected_version=episode.version)
    hits = reader.search_episodes(request, channels=["vector"]).results
    assert [hit.episode.id for hit in hits] == ["e2"]
    assert len(loads) <= 1, loads


def test_embedding_of_other_dimensions_is_refused_naming_the_field(open_memory: Any) -> None:
    memory = open_memory()
    with pytest.raises(InvalidInput) as caught:
        memory.create_episodes(
            [{"content": "fine", "embedding": _axis(1)}, {"content": "x", "embedding": [1.0]}]
        )
    assert caught.value.field == "1.embedding" and "8" in caught.value.detail
    with pytest.raises(InvalidInput) as zero:
        memory.create_episode({"content": "zero", "embedding": [0.0] * DIMENSIONS})
    assert zero.value.field == "embedding"
    assert memory.list_episodes(limit=10).items == [], "nothing half-written"


def test_rest_refuses_a_wrong_embedding_as_problem_json(open_memory: Any) -> None:
    memory = open_memory()
    with TestClient(create_app(memory), base_url="http://127.0.0.1") as client:
        response = client.post("/v1/episodes", json={"content": "hello", "embedding": [0.5, 0.5]})
        assert response.status_code == 422
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["field"] == "embedding"
        created = client.post("/v1/episodes", json={"content": "axis4 hello", "embedding": _axis(4)})
        assert created.status_code == 201
    assert memory.pending_embeddings() == 0


def test_memory_without_embedder_refuses_an_embedding(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, embedder="none")
    with Memory.open(settings=settings) as memory, pytest.raises(InvalidInput) as caught:
        memory.create_episode({"content": "x", "embedding": _axis(1)})
    assert caught.value.field == "embedding"


def test_the_same_query_text_is_embedded_once(tmp_path: Path) -> None:
    embedder = AxisEmbedder()
    settings = Settings(data_dir=tmp_path, embedder="none", extractor="none")
    with Memory.open(settings=settings, embedder=embedder, background_indexing=False) as memory:
        memory.create_episodes(_episodes(4))
        for _ in range(3):
            memory.search_episodes({"query": "axis1 note", "limit": 3})
        memory.search_episodes({"query": "axis2 note", "limit": 3})
    assert embedder.queries.count("axis1 note") == 1 and embedder.queries.count("axis2 note") == 1


def _metadata_indexes(memory: Memory) -> list[str]:
    store: Any = memory.store
    with store._backend.read() as db:
        if memory.store.name == "sqlite":
            rows = db.rows(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'episodes_meta_%'"
            )
        else:
            rows = db.rows("SELECT indexname AS name FROM pg_indexes WHERE indexname LIKE 'episodes_meta_%'")
    return [str(row["name"]) for row in rows]


def test_declared_metadata_keys_are_indexed_and_filter_exactly(open_memory: Any) -> None:
    memory = open_memory(indexed_metadata_keys=["team", "ticket.id"])
    assert len(_metadata_indexes(memory)) == 2
    memory.create_episodes([*_episodes(12), {"content": "t", "metadata": {"ticket.id": "T-1"}}])
    red = memory.store.list_episodes("default", EpisodeFilters(metadata={"team": "red"}), 100)
    assert sorted(e.id for e in red) == ["e0", "e10", "e3", "e5", "e8"]
    ticket = memory.store.list_episodes("default", EpisodeFilters(metadata={"ticket.id": "T-1"}), 10)
    assert [e.content for e in ticket] == ["t"]
    again = open_memory(indexed_metadata_keys=["team"])  # idempotent at every open
    assert len(_metadata_indexes(again)) == 2


ODD_VALUES: list[Any] = [
    {"a": 1}, [1, 2], '{"a":1}', "[1,2]", 1.2345678901234567, 9007199254740993, 1e18, 0.3,
    1.2345678901234568e18, None,
]  # fmt: skip
"""Stored under ``m``: objects, arrays, strings spelling them, floats past 15 digits, big integers,
a float PostgreSQL's jsonb keeps as an integer."""
ODD_FILTERS: list[tuple[Any, set[int]]] = [
    ('{"a":1}', {2}),  # the string, not the object whose JSON it spells
    ("[1,2]", {3}),
    (1.2345678901234567, {4}),
    (1.23456789012346, set()),  # equal to 15 digits only
    (9007199254740993, {5}),
    (9007199254740992, set()),
    (10**18, {6}),
    (0.30000000000000004, set()),
    (1.2345678901234568e18, {8}),
    (None, {9, 10}),  # null, and the episode without the key
]


@pytest.mark.parametrize(("value", "expected"), ODD_FILTERS, ids=[repr(v) for v, _ in ODD_FILTERS])
def test_metadata_values_match_alike_in_memory_and_in_sql(
    open_memory: Any, value: Any, expected: set[int]
) -> None:
    memory = open_memory()
    episodes = [
        {"content": f"odd {i}", "metadata": {"m": v}, "embedding": _axis(i)} for i, v in enumerate(ODD_VALUES)
    ]
    memory.create_episodes([*episodes, {"content": "no key", "embedding": _axis(9)}])
    ids = {e.content: e.id for e in memory.store.list_episodes("default", EpisodeFilters(), 100)}
    want = {ids[f"odd {i}"] if i < len(ODD_VALUES) else ids["no key"] for i in expected}
    filters = {"metadata": {"m": value}}
    listed = {e.id for e in memory.store.list_episodes("default", EpisodeFilters(**filters), 100)}
    found = memory.search_episodes({"query": "axis0", "limit": 100, "filters": filters}, channels=["vector"])
    assert listed == want
    assert {hit.episode.id for hit in found.results} == want


def test_sqlite_reads_a_declared_key_through_its_index(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, embedder="none", indexed_metadata_keys=["team"])
    with Memory.open(settings=settings) as memory:
        store: Any = memory.store
        with store._backend.read() as db:
            clause, params = db.dialect.metadata_equals("e.metadata", "team", "p", "red")
            plan = db.rows(
                f"EXPLAIN QUERY PLAN SELECT e.id FROM episodes e WHERE e.group_id = 'g' "
                f"AND e.expired_at IS NULL AND {clause}",
                params,
            )
    assert any("episodes_meta_team" in str(row["detail"]) for row in plan)


def test_a_bad_declared_key_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput) as caught:
        Memory.open(settings=Settings(data_dir=tmp_path, embedder="none", indexed_metadata_keys=["a'b"]))
    assert caught.value.field == "metadata"


@pytest.fixture(scope="module")
def hot_standby() -> Iterator[tuple[str, Any]]:
    """Yield a primary's URL and a streaming hot standby of it (tests/postgres_server.py)."""
    from postgres_server import EmbeddedPostgres, Standby

    primary = EmbeddedPostgres()
    try:
        standby = Standby(primary)
        try:
            yield primary.url, standby
        finally:
            standby.stop()
    finally:
        primary.stop()


@pytest.mark.postgres
def test_a_hot_standby_serves_filtered_searches_that_see_every_replayed_change(
    hot_standby: tuple[str, Any],
) -> None:
    """A process on a streaming replica: its snapshots list no running transactions, so a change
    the primary logged first and committed last must still reach its filtered vector searches
    (served in SQL there); deletes reach it too, and a write is refused as read-only."""
    primary_url, standby = hot_standby

    def open_on(url: str) -> Memory:
        settings = Settings(database_url=url, embedder="none", extractor="none")  # type: ignore[arg-type]
        return Memory.open(settings=settings, embedder=AxisEmbedder(), background_indexing=False)

    with open_on(primary_url) as writer:
        writer.create_episodes(_episodes(10))
        standby.caught_up()
        with open_on(standby.url) as reader:

            def found(**filters: Any) -> set[str]:
                request = {"query": "axis2", "limit": 100, "filters": filters}
                return {
                    hit.episode.id for hit in reader.search_episodes(request, channels=["vector"]).results
                }

            assert found(actor_id=["user1"]) == {"e1", "e4", "e7"}
            assert found(intent=["late"]) == set()
            with _held_open(
                writer, "UPDATE episodes SET intent = 'late' WHERE id = 'e2' AND expired_at IS NULL"
            ):
                writer.create_episode(
                    {"id": "after", "content": "after", "intent": "soon", "embedding": _axis(2)}
                )
                standby.caught_up()
                assert found(intent=["late", "soon"]) == {"after"}
            standby.caught_up()
            assert found(intent=["late", "soon"]) == {"after", "e2"}
            writer.delete_episode("e1")
            standby.caught_up()
            assert found(actor_id=["user1"]) == {"e4", "e7"}
            words = reader.search_episodes({"query": "after", "limit": 5}, channels=["bm25"]).results
            assert [hit.episode.id for hit in words] == ["after"]
            with pytest.raises(StoreError, match="read-only"):
                reader.create_episode({"content": "written on the replica", "embedding": _axis(1)})
