"""PostgreSQL-only behaviour: several stores (as several processes would) on one database, opening, errors.

The graph's behaviour on both backends is tested through Memory in tests/graph and tests/api.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

import psycopg
import pytest
from pydantic import SecretStr

from conftest import group_held, with_search_path
from engram.config import Settings
from engram.errors import InvalidInput, PreconditionFailed, StoreError
from engram.memory import Memory
from engram.models.episodes import Episode, EpisodeFilters
from engram.storage.engine import SQLStorage
from engram.storage.open import open_postgres, open_store
from engram.storage.postgres import backend as backend_module
from engram.storage.postgres.migrations import LATEST_VERSION
from engram.storage.protocol import Txn
from engram.storage.sql import Db
from engram.storage.types import FactQuery
from store.test_contract import new_episode, operation

T = TypeVar("T")


@pytest.fixture
def stores(postgres_url: str) -> Iterator[list[SQLStorage]]:
    """Yield three stores on one schema, opened concurrently (they race to migrate it)."""
    with ThreadPoolExecutor(3) as pool:
        opened = list(pool.map(lambda _: open_postgres(postgres_url, pool_size=4), range(3)))
    yield opened
    for store in opened:
        store.close()


def race(count: int, work: Callable[[int], T]) -> list[T]:
    """Run ``work(0..count-1)`` in threads released together; return the results in order."""
    barrier = threading.Barrier(count)

    def run(n: int) -> T:
        barrier.wait()
        return work(n)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_concurrent_migration_and_schema_version(stores: list[SQLStorage]) -> None:
    assert {store.schema_version() for store in stores} == {LATEST_VERSION}


def test_one_fingerprint_is_stored_once_across_stores(stores: list[SQLStorage]) -> None:
    results = race(
        9,
        lambda n: stores[n % 3].insert_episodes(
            [new_episode(f"e{n}", "the same words", client_id=False)], operation()
        )[0],
    )
    assert sum(not duplicate for _, duplicate in results) == 1
    assert len({episode.id for episode, _ in results}) == 1
    assert stores[0].counts()["episodes"] == 1


def test_one_client_id_is_stored_once_across_stores(stores: list[SQLStorage]) -> None:
    results = race(9, lambda n: stores[n % 3].insert_episodes([new_episode("e1", "hello")], operation())[0])
    assert sorted(duplicate for _, duplicate in results) == [False] + [True] * 8
    assert stores[0].counts() == {
        "episodes": 1,
        "episode_versions": 1,
        "groups": 1,
        "operations": 1,
        "graphs_queued": 0,
    }


def test_concurrent_conditional_updates_across_stores_never_lose_one(stores: list[SQLStorage]) -> None:
    stores[0].insert_episodes([new_episode("e1", "hello")], operation())

    def writer(n: int) -> int:
        store = stores[n % 3]
        while True:
            current = store.get_episode("g1", "e1")
            assert current is not None

            def apply(ep: Episode) -> Episode:
                return ep.model_copy(
                    update={"version": ep.version + 1, "metadata": {**ep.metadata, str(n): 1}}
                )

            try:
                return store.update_episode(
                    "g1", "e1", current.version, apply, operation(kind="update")
                ).version
            except PreconditionFailed:
                continue

    versions = race(12, writer)
    assert sorted(versions) == list(range(2, 14))
    final = stores[1].get_episode("g1", "e1")
    assert final is not None and final.version == 13
    assert set(final.metadata) == {str(n) for n in range(12)}
    assert stores[2].counts()["episode_versions"] == 13


def test_thread_context_stays_right_under_concurrent_inserts(stores: list[SQLStorage]) -> None:
    words = [f"word{n}" for n in range(12)]
    race(
        12,
        lambda n: stores[n % 3].insert_episodes(
            [new_episode(f"t{n}", words[n], minutes=n, thread="s1")], operation()
        ),
    )
    for n, word in enumerate(words):
        hits = {h.episode.id for h in stores[0].search_text("g1", [word], EpisodeFilters(), 10)}
        expected = {f"t{m}" for m in (n - 1, n, n + 1) if 0 <= m < len(words)}
        assert hits == expected, word


def test_groups_never_mix_under_concurrent_writers(stores: list[SQLStorage]) -> None:
    def write(n: int) -> None:
        group = "ga" if n % 2 else "gb"
        batch = [new_episode(f"{group}-{n}-{k}", f"{group} note {n} {k}", group_id=group) for k in range(20)]
        stores[n % 3].insert_episodes(batch, operation(group))

    race(8, write)
    for group in ("ga", "gb"):
        found = stores[0].list_episodes(group, EpisodeFilters(), 500)
        assert len(found) == 80
        assert all(e.group_id == group and e.id.startswith(group) for e in found)


def test_concurrent_batches_of_mixed_intents_never_deadlock(stores: list[SQLStorage]) -> None:
    """Each episode adds to its (intent, source) summary row; batches met those rows in opposite orders."""
    intents = ["ask", "tell", "plan", "done"]

    def write(n: int) -> None:
        order = intents if n % 2 else intents[::-1]
        for b in range(25):
            batch = [new_episode(f"e{n}-{b}-{k}", f"note {n} {b} {k}", intent=order[k]) for k in range(4)]
            stores[n % 3].insert_episodes(batch, operation())

    race(6, write)
    assert stores[0].episode_counts("g1", "intent") == dict.fromkeys(intents, 6 * 25)


def test_an_import_racing_batches_of_mixed_intents_never_deadlocks(postgres_url: str, tmp_path: Path) -> None:
    """An import (portable rows) adds to the same summary rows as create_episodes, in its own order."""
    intents = ["ask", "tell", "plan", "done"]
    exports = []
    rounds = 50  # 2 of 3 runs deadlocked at 30 before the import took the count locks
    with Memory.open(settings=Settings(data_dir=tmp_path, embedder="none", extractor="none")) as source:
        for r in range(rounds):
            items = [
                {"group_id": f"s{r}", "content": f"imported {r} {k}", "intent": intents[::-1][k % 4]}
                for k in range(8)
            ]
            source.create_episodes(items)
            renamed = [
                {**x, "group_id": "g"} if x.get("group_id") == f"s{r}" else x
                for x in source.export_group(f"s{r}")
            ]
            exports.append(renamed)
    settings = Settings(database_url=SecretStr(postgres_url), embedder="none", extractor="none")
    with Memory.open(settings=settings) as importer, Memory.open(settings=settings) as writer:

        def work(n: int) -> None:
            for r in range(rounds):
                if n:
                    importer.import_records(exports[r])
                else:
                    writer.create_episodes(
                        [
                            {"group_id": "g", "content": f"batch {r} {k}", "intent": intents[k % 4]}
                            for k in range(8)
                        ]
                    )

        race(2, work)
        assert writer.store.episode_counts("g", "intent") == dict.fromkeys(intents, 2 * rounds * 2)


def test_an_update_racing_a_batch_into_its_thread_never_deadlocks(postgres_url: str) -> None:
    """The batch holds the count row locks, then rewrites the updated episode's thread context."""
    settings = Settings(database_url=SecretStr(postgres_url), embedder="none", extractor="none")
    now = datetime.now(UTC).replace(microsecond=0)
    thread = {"group_id": "g", "intent": "ask", "source": "chat", "metadata": {"thread_id": "t1"}}
    with Memory.open(settings=settings) as updater, Memory.open(settings=settings) as writer:
        version = updater.create_episode(
            {**thread, "id": "x", "content": "the last one", "timestamp": now}
        ).episode.version

        def work(n: int) -> None:
            nonlocal version
            for i in range(100):
                if n:
                    version = updater.update_episode(
                        "x", {"metadata": {"n": i}}, expected_version=version, group_id="g"
                    ).version
                else:
                    writer.create_episodes(
                        [
                            {
                                **thread,
                                "content": f"before {i}",
                                "timestamp": now - timedelta(hours=1, seconds=-i),
                            }
                        ]
                    )

        race(2, work)
        assert updater.get_episode("x", group_id="g").version == 101
        assert updater.store.episode_counts("g", "intent") == {"ask": 101}


def test_updates_racing_deletes_and_reverts_of_thread_neighbours_all_land(postgres_url: str) -> None:
    """A delete or revert rewrites its neighbours' thread context while an update rewrites its own
    row and count rows: opposite orders, so PostgreSQL aborts one; it runs again (failed 24 times
    in 30 s before writes were retried)."""
    settings = Settings(database_url=SecretStr(postgres_url), embedder="none", extractor="none")
    now = datetime.now(UTC).replace(microsecond=0)
    intents = ["ask", "tell"]
    with Memory.open(settings=settings) as updater, Memory.open(settings=settings) as deleter:
        for i in range(8):
            updater.create_episode(
                {
                    "group_id": "g",
                    "id": f"e{i}",
                    "content": f"note {i}",
                    "intent": intents[i % 2],
                    "metadata": {"thread_id": "t1"},
                    "timestamp": now + timedelta(seconds=i),
                }
            )

        def work(n: int) -> int:
            for i in range(150 if n else 40):
                if n:
                    current = updater.get_episode(f"e{i % 4 * 2}", group_id="g")
                    updater.update_episode(
                        current.id,
                        {"intent": intents[i % 3 % 2], "metadata": {"n": i}},
                        expected_version=current.version,
                        group_id="g",
                    )
                else:
                    deleted = deleter.delete_episode(f"e{i % 4 * 2 + 1}", "g")
                    deleter.revert_operation(deleted.operation.id, "g")
            return i + 1

        assert race(2, work) == [40, 150]
        held = updater.list_episodes(group_id="g", limit=20).items
        assert len(held) == 8
        assert updater.store.episode_counts("g", "intent") == {
            intent: sum(e.intent == intent for e in held) for intent in intents
        }


@pytest.mark.parametrize("attempts", [1, backend_module.WRITE_ATTEMPTS])
def test_a_write_chosen_as_deadlock_victim_runs_again(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, attempts: int
) -> None:
    """Two transactions take two locks in opposite orders; PostgreSQL aborts one. With one attempt
    the caller sees a StoreError saying so; with retries both writes land."""
    monkeypatch.setattr(backend_module, "WRITE_ATTEMPTS", attempts)
    backend = backend_module.PostgresBackend(postgres_url, pool_size=2)
    both_hold_one = threading.Barrier(2)
    runs = [0, 0]

    def work(n: int) -> str:
        def take_both(db: Db) -> int:
            runs[n] += 1
            db.lock([("deadlock", str(n))])
            if runs[n] == 1:
                both_hold_one.wait()
            db.lock([("deadlock", str(1 - n))])
            return runs[n]

        try:
            return f"ran {backend.write(take_both)}"
        except StoreError as exc:
            return (
                "deadlock"
                if "(a deadlock with concurrent writes); nothing of it was stored" in str(exc)
                else str(exc)
            )

    try:
        outcomes = sorted(race(2, work))
    finally:
        backend.close()
    assert outcomes == (["deadlock", "ran 1"] if attempts == 1 else ["ran 1", "ran 2"])


def test_a_newer_schema_is_refused(postgres_url: str) -> None:
    open_postgres(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (%s, now())", (LATEST_VERSION + 1,))
    with pytest.raises(StoreError, match="newer than this Engram"):
        open_postgres(postgres_url)


def test_unreachable_or_schemaless_databases_are_store_errors(postgres_server: str) -> None:
    with pytest.raises(StoreError, match="cannot open"):
        open_postgres("postgresql://nobody:secret@127.0.0.1:1/none", timeout=2)
    with pytest.raises(StoreError, match="no schema"):
        open_postgres(with_search_path(postgres_server, "does_not_exist").replace("%2Cpublic", ""))


def test_describe_names_the_server_without_password(postgres_url: str) -> None:
    with PostgresStoreContext(postgres_url.replace("postgres:@", "postgres:hunter2@")) as store:
        assert "PostgreSQL 1" in store.describe()
        assert "hunter2" not in store.describe()
        assert store.integrity_check() is None


def test_settings_select_the_backend(postgres_url: str) -> None:
    settings = Settings(database_url=SecretStr(postgres_url), embedder="none")
    with Memory.open(settings=settings) as memory:
        assert memory.store.name == "postgresql"
        created = memory.create_episode({"content": "stored in PostgreSQL"})
        assert memory.search_episodes({"query": "postgresql"}).results[0].episode.id == created.episode.id
        memory.create_episode({"content": "I live in Boston.", "actor": {"id": "ann", "name": "Ann"}})
        [hit] = memory.search_facts({"query": "Boston"}).results
        assert (hit.subject_name, hit.fact.predicate, hit.object_name) == ("Ann", "LIVES_IN", "Boston")
    with pytest.raises(InvalidInput) as caught:
        open_store(Settings(database_url=SecretStr("mysql://x"), embedder="none"))
    assert caught.value.field == "ENGRAM_DATABASE_URL"


class PostgresStoreContext:
    """``with PostgresStoreContext(url) as store``: a store closed at the end."""

    def __init__(self, url: str) -> None:
        self._store = open_postgres(url)

    def __enter__(self) -> SQLStorage:
        return self._store

    def __exit__(self, *exc_info: object) -> None:
        self._store.close()


def test_cli_imports_searches_and_doctors_a_postgres_store(postgres_url: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from engram.cli import app

    runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None, "ENGRAM_DATABASE_URL": postgres_url})
    lines = tmp_path / "notes.jsonl"
    lines.write_text('{"content": "the quarterly budget is approved"}\n', encoding="utf-8")
    imported = runner.invoke(app, ["import", str(lines), "--format", "jsonl"])
    assert imported.exit_code == 0, imported.output
    assert "PostgreSQL" in imported.stdout
    found = runner.invoke(app, ["search", "budget", "--json"])
    assert found.exit_code == 0 and "quarterly" in found.stdout
    report = runner.invoke(app, ["doctor"])
    assert report.exit_code == 0, report.output
    assert "PostgreSQL" in report.stdout and "episodes         1" in report.stdout
    assert "integrity check  not available" in report.stdout
    assert not (tmp_path / "engram-data").exists()


def test_a_read_only_replica_opens_reads_and_refuses_writes_cleanly(postgres_url: str) -> None:
    with PostgresStoreContext(postgres_url) as primary:
        primary.insert_episodes([new_episode("e1", "replicated words")], operation())
    replica_url = postgres_url.replace("search_path", "default_transaction_read_only%3Don%20-csearch_path")
    with PostgresStoreContext(replica_url) as replica:
        assert replica.get_episode("g1", "e1") is not None
        hits = replica.search_text("g1", ["replicated"], EpisodeFilters(), 5)
        assert [h.episode.id for h in hits] == ["e1"]
        with pytest.raises(StoreError, match="read-only"):
            replica.insert_episodes([new_episode("e2", "more")], operation())


def test_the_pool_size_setting_bounds_each_process_connections(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ENGRAM_DATABASE_URL", postgres_url)
    monkeypatch.setenv("ENGRAM_DATABASE_POOL_SIZE", "2")
    settings = Settings(embedder="none")
    assert settings.database_pool_size == 2
    opened = open_store(settings)
    assert "pool of 2" in opened.describe()
    opened.close()
    store = open_postgres(postgres_url, pool_size=settings.database_pool_size, timeout=1)
    try:
        holding, release = threading.Barrier(3), threading.Event()

        def hold(group: str) -> None:
            def fn(txn: Txn) -> None:
                txn.entity(group, "en_x")  # takes the connection (and the group's lock)
                holding.wait()
                release.wait(10)

            store.write(fn)

        with ThreadPoolExecutor(2) as pool:
            held = [pool.submit(hold, group) for group in ("ga", "gb")]
            holding.wait()
            with pytest.raises(StoreError, match="unavailable"):
                store.get_episode("g1", "e1")  # a third connection: the pool's timeout, then 503
            release.set()
            for future in held:
                future.result()
        assert store.get_episode("g1", "e1") is None
    finally:
        store.close()
    with pytest.raises(ValueError, match="database_pool_size"):
        Settings(database_pool_size=0)


def test_concurrent_graph_writers_across_stores_build_one_graph(stores: list[SQLStorage]) -> None:
    memories = [
        Memory(store, Settings(embedder="none", extractor="none"), background_indexing=False)
        for store in stores
    ]
    t0 = datetime(2024, 3, 1, tzinfo=UTC)

    def write(n: int) -> None:
        memories[n % 3].create_episode(
            {
                "content": f"ACME note {n}",
                "timestamp": t0 + timedelta(days=n),
                "entities": [{"name": "ACME", "type": "organisation"}],
                "facts": [
                    {"subject": "ACME", "predicate": "LIKES", "value": f"thing {n}"},
                    {"subject": "ACME", "predicate": "BUDGET", "value": 1000 + n},
                ],
            }
        )

    race(12, write)
    [acme] = memories[1].search_entities("acme")
    facts = memories[2].search_facts({"subject": acme.id, "limit": 100, "include_history": True}).results
    likes = [h.fact for h in facts if h.fact.predicate == "LIKES"]
    assert sorted(f.value for f in likes) == sorted(f"thing {n}" for n in range(12))  # type: ignore[type-var]
    assert all(f.status == "current" and f.subject == acme.id for f in likes)
    budgets = [h.fact for h in facts if h.fact.predicate == "BUDGET"]
    assert [f.value for f in budgets if f.status == "current"] == [1011], "the latest valid time wins"
    assert len(stores[0].episodes_mentioning("default", [acme.id], 100)) == 12


def test_entity_name_search_can_use_the_trigram_index(postgres_url: str) -> None:
    store = open_postgres(postgres_url)
    try:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO entity_names (group_id, name_key, entity_id) "
                "SELECT 'g', md5(i::text), 'en_' || i FROM generate_series(1, 50000) AS i"
            )
            conn.execute("ANALYZE entity_names")
            plan = conn.execute(
                "EXPLAIN SELECT entity_id FROM entity_names WHERE group_id = 'g' AND name_key ILIKE ANY(%s)",
                (["%acme%"],),
            ).fetchall()
        assert "entity_names_trgm" in " ".join(str(row[0]) for row in plan)
    finally:
        store.close()


def test_a_filtered_bm25_search_meets_the_filter_in_its_index(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The candidates can be intersected with the filter on ids read from the filter's index
    alone (an index-only scan: the index carries the id since migration 16), not by reading every
    episode that passes the filter. A store this small is read whole by the planner's choice,
    so the plan is asked for with sequential and bitmap scans off, as large stores plan it."""
    settings = Settings(database_url=SecretStr(postgres_url), embedder="none", extractor="none")
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    with Memory.open(settings=settings) as memory:
        memory.create_episodes(
            [
                {"group_id": "g", "actor": {"id": f"u{i % 10}"}, "content": f"{words[i % 8]} note {i}"}
                for i in range(6000)
            ]
        )
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE episodes")
        sent: list[tuple[str, dict[str, object]]] = []
        real = backend_module.PostgresDb.tuples_unprepared

        def record(
            db: backend_module.PostgresDb, sql: str, params: dict[str, object]
        ) -> list[tuple[object, ...]]:
            sent.append((sql, params))
            return real(db, sql, params)

        monkeypatch.setattr(backend_module.PostgresDb, "tuples_unprepared", record)
        found = memory.search_episodes(
            {"query": "bravo", "group_id": "g", "limit": 5, "filters": {"actor_id": ["u1"]}},
            channels=["bm25"],
        )
        assert [hit.episode.actor.id for hit in found.results] == ["u1"] * 5
        with memory.store._backend.read() as db:  # type: ignore[attr-defined]
            sql, params = sent[-1]
            db.conn.execute("SET enable_seqscan = off")
            db.conn.execute("SET enable_bitmapscan = off")
            try:
                plan = "\n".join(str(row[0]) for row in real(db, f"EXPLAIN {sql}", params))
            finally:
                db.conn.execute("RESET enable_seqscan")
                db.conn.execute("RESET enable_bitmapscan")
        assert "Index Only Scan using episodes_current_actor" in plan, plan


def test_writes_run_read_committed_whatever_the_server_default(postgres_url: str) -> None:
    """The writers' locks are designed for READ COMMITTED: under a SERIALIZABLE server default,
    concurrent writes would fail with serialization errors past any retry."""
    options = psycopg.conninfo.conninfo_to_dict(postgres_url).get("options") or ""  # the test's schema
    conninfo = psycopg.conninfo.make_conninfo(
        postgres_url, options=f"{options} -c default_transaction_isolation=serializable"
    )
    with psycopg.connect(conninfo) as conn:
        assert conn.execute("SHOW transaction_isolation").fetchone() == ("serializable",)
    backend = backend_module.PostgresBackend(conninfo, pool_size=1)
    try:
        assert backend.write(lambda db: db.value("SELECT current_setting('transaction_isolation')")) == (
            "read committed"
        )
    finally:
        backend.close()


def test_a_graph_build_that_waited_for_its_group_is_stamped_when_it_gets_it(postgres_url: str) -> None:
    """Graph writers of one group take turns (an advisory lock). A build stamped before its turn
    came would close what the writer before it recorded at a time before it was recorded; it is
    stamped once the group is its own, so transaction times follow the order of the writes."""
    now = [datetime(2024, 1, 1, tzinfo=UTC)]
    settings = Settings(database_url=SecretStr(postgres_url), embedder="none", extractor="none")

    def says(city: str) -> dict[str, object]:
        entities = [{"name": "Ann", "type": "person"}, {"name": city, "type": "place"}]
        return {
            "content": f"Ann lives in {city}",
            "entities": entities,
            "facts": [{"subject": "Ann", "predicate": "LIVES_IN", "object": city}],
        }

    with Memory.open(settings=settings, clock=lambda: now[0], background_indexing=False) as memory:
        memory.create_episode(says("Paris"))
        with group_held(memory):
            now[0] += timedelta(minutes=1)  # the mover asks while the group is held…
            mover = threading.Thread(target=memory.create_episode, args=(says("Berlin"),))
            mover.start()
            with psycopg.connect(postgres_url) as conn:
                for _ in range(200):
                    waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                    if conn.execute(waiting).fetchone() == (1,):
                        break
                    time.sleep(0.05)
                else:
                    pytest.fail("the mover never waited for the group")
            now[0] += timedelta(minutes=1)  # …and gets it a minute later
        mover.join()
        builds = memory.list_operations(kind=["extract"]).items
        versions = memory.store.find_facts("default", FactQuery(include_history=True), 50)
    assert max(op.created_at for op in builds) == now[0]
    assert max(v.recorded_at for v in versions) == now[0]
    assert all(v.expired_at is None or v.expired_at >= v.recorded_at for v in versions)


def test_integers_past_64_bits_are_read_exactly(postgres_url: str) -> None:
    """jsonb is decoded by orjson, which reads an integer past 64 bits (a row another program
    wrote) as a float: such values are read by json, exactly."""
    settings = Settings(database_url=SecretStr(postgres_url), embedder="none", extractor="none")
    with Memory.open(settings=settings) as memory:
        episode = memory.create_episode({"content": "order 7", "metadata": {"lines": [1, 2.5, "x"]}}).episode
        assert memory.get_episode(episode.id).metadata == {"lines": [1, 2.5, "x"]}
        huge = [2**70 + 1, -(2**63) - 1, 10**30]  # orjson would read each as a float
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(
                "UPDATE episodes SET metadata = %s::jsonb WHERE id = %s", (f'{{"n": {huge}}}', episode.id)
            )
        assert memory.get_episode(episode.id).metadata == {"n": huge}
        assert all(type(n) is int for n in memory.get_episode(episode.id).metadata["n"])


def test_floats_written_with_an_exponent_come_back_as_floats(postgres_url: str) -> None:
    """jsonb keeps numbers as numeric: 1e16 written as "1e+16" came back as an integer. Floats are
    written in full, so each value reads back as it was given (numeric has no -0: -0.0 is 0.0)."""
    settings = Settings(database_url=SecretStr(postgres_url), embedder="none", extractor="none")
    given = {"big": 1e16, "huge": 8.5e18, "tiny": 1.5e-7, "whole": 10**16, "zero": -0.0, "list": [2e17, 3]}
    with Memory.open(settings=settings) as memory:
        episode = memory.create_episode({"content": "order 8", "metadata": given}).episode
        read = memory.get_episode(episode.id).metadata
        found = memory.store.list_episodes("default", EpisodeFilters(metadata={"big": 1e16}), 10)
    assert read == given
    kinds = [type(read[key]) for key in ("big", "huge", "tiny", "whole", "zero")]
    assert kinds == [float, float, float, int, float]
    assert [type(n) for n in read["list"]] == [float, int]
    assert [e.id for e in found] == [episode.id], "a filter on the number still finds it"
