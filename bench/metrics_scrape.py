"""Benchmark the Prometheus scrape (GET /metrics) on a large store: SQLite at 1M episodes, PostgreSQL at 100k.

A scrape reads the database's counts (episodes per intent and source, facts per status, merge
candidates, the embedding backlog: ``engram.storage.stats``) on top of the process's own
counters. This measures what that costs as the store grows.

The store holds ``--groups`` groups of minimal episodes: intents drawn from the default taxonomy
(a tenth without one), five sources; 95 % of the episodes have an 8-d vector (so 5 % are the
backlog); each group has 2,000 facts of mixed status per 10,000 episodes and 20 merge
candidates. One group in twenty is stored straight through the store's batch insert
(``Store.insert_episodes``, 5,000 a batch, no extractor, no embedder); on SQLite the other groups
are copies of those made in SQL (``copy_groups``: the same rows under another group id, without
full-text rows, which counting never reads; the store's triggers keep its counts as for any
write). PostgreSQL stores every group through the store. The SQLite store is cached under /tmp
keyed by its size, so later runs reuse it (a newer schema migrates it when opened).

Measured, each 30 times after two warm-up calls:
- ``summary_counts``: the one counting statement, store-wide (what a scrape runs) and for one group
  (what the console's health page runs);
- GET /metrics through the real ASGI app (FastAPI TestClient, no network);
- baselines in the same run: GET /metrics of an empty store through the same stack (the
  process's own metrics only), and counting the rows themselves (``COUNT_ROWS``: what the
  summary tables replace).

With ``--writers N``: N threads create episodes of one group, intent and source on a fresh
PostgreSQL, with the episode count trigger enabled and disabled (the cost of writers queueing
on one summary row).

Usage: .venv/bin/python bench/metrics_scrape.py [--episodes N] [--groups G] [--postgres] [--writers N]
       [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from engram.storage.graph_protocol import GraphStore, GraphTxn, MergeCandidate

from _common import machine, print_machine, print_table, summarize
from engram.config import Settings
from engram.ids import new_id
from engram.ingest.inputs import fingerprint
from engram.memory import Memory
from engram.models.episodes import Episode, Operation
from engram.models.graph import Fact
from engram.observability.labels import DEFAULT_INTENTS
from engram.storage.protocol import NewEpisode, Store

COUNT_ROWS = """
SELECT 'episodes', intent, source, count(*) FROM episodes WHERE expired_at IS NULL GROUP BY intent, source
UNION ALL SELECT 'facts', status, NULL, count(*) FROM facts WHERE expired_at IS NULL GROUP BY status
UNION ALL SELECT 'vectors', NULL, NULL, count(*) FROM episode_vectors
"""
"""The counts without the summary tables: every current row read (the baseline)."""
BATCH = 5000
SOURCES = ("chat", "email", "slack", "crm", "phone")
STATUSES = ("current",) * 7 + ("superseded",) * 2 + ("disputed", "retracted")
DIMENSIONS = 8
RUNS = 30


class TinyEmbedder:
    """An 8-d embedder for the scrape figures: the vectors' content does not matter here."""

    name = "bench-tiny"
    dimensions = DIMENSIONS

    def embed_documents(self, texts: Any) -> Any:
        return np.ones((len(texts), DIMENSIONS), dtype=np.float32) / np.sqrt(DIMENSIONS)

    def embed_query(self, text: str) -> Any:
        return np.ones(DIMENSIONS, dtype=np.float32) / np.sqrt(DIMENSIONS)

    def close(self) -> None:
        pass


def _episodes(group_id: str, start: int, count: int, now: datetime, rng: random.Random) -> list[NewEpisode]:
    operation_id = new_id("op")
    items = []
    for i in range(start, start + count):
        intent = None if rng.random() < 0.1 else rng.choice(DEFAULT_INTENTS)
        content = f"note {i} of {group_id} about order {rng.randrange(10_000)}"
        episode = Episode(
            id=f"ep_{group_id}_{i}",
            group_id=group_id,
            version=1,
            timestamp=now - timedelta(seconds=i),
            recorded_at=now,
            source=rng.choice(SOURCES),
            source_type="message",
            intent=intent,
            content=content,
            fingerprint=fingerprint(intent, content, None),
            operation_id=operation_id,
        )
        items.append(NewEpisode(episode=episode, search_text=content, client_id=True, thread=None))
    return items


def _graph(store: GraphStore, group_id: str, facts: int, now: datetime, rng: random.Random) -> None:
    operation = Operation.begin(group_id, "add_facts", "bench facts", at=now)

    def write(txn: GraphTxn) -> None:
        for i in range(facts):
            fact = Fact(
                id=f"fa_{group_id}_{i}",
                group_id=group_id,
                version=1,
                subject=f"en_{group_id}_{i % 50}",
                predicate="PREFERS",
                value=f"thing {i}",
                fact=f"Customer {i % 50} prefers thing {i}",
                confidence=0.9,
                source_kind="stated",
                episodes=[f"ep_{group_id}_{i}"],
                recorded_at=now,
                status=rng.choice(STATUSES),
                operation_id=operation.id,
            )
            txn.put_fact(fact, fact.fact)
        for i in range(20):
            parts = {"name": 0.5}
            txn.add_merge_candidate(group_id, MergeCandidate(f"en_{i}", f"en_{i + 20}", 0.6, parts, now))
        txn.record_operation(operation, {"facts": facts})

    store.graph_write(write)


def build(store: Store, n: int, groups: int, *, seeds: int | None = None, log: bool) -> float:
    """Fill ``store`` with ``n`` episodes in ``groups`` groups (see the module docstring); return seconds.

    The first ``seeds`` groups (all by default) go through the store; the others are copies of
    them made in SQL (SQLite only: ``copy_groups``).
    """
    rng = random.Random(7)
    now = datetime.now(UTC)
    started = time.perf_counter()
    per_group = n // groups
    seeds = groups if seeds is None else seeds
    embedder = TinyEmbedder()
    for g in range(seeds):
        group_id = f"g{g:03d}"
        for start in range(0, per_group, BATCH):
            items = _episodes(group_id, start, min(BATCH, per_group - start), now, rng)
            operation = Operation.begin(group_id, "import", "bench import", at=now)
            store.insert_episodes(items, operation)
            embedded = [item.episode for item in items if rng.random() < 0.95]
            vectors = embedder.embed_documents(embedded)
            store.put_vectors(list(zip(embedded, vectors, strict=True)))
        if isinstance(store, GraphStore):
            _graph(store, group_id, per_group // 5, now, rng)
        if log:
            done = (g + 1) * per_group
            print(f"  stored {done:,} episodes ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    if seeds < groups:
        copy_groups(store, seeds, groups, log=log)
    return time.perf_counter() - started


def copy_groups(store: Store, seeds: int, groups: int, *, log: bool) -> None:
    """Copy the seed groups' episodes, vectors, facts and merge candidates into groups seeds..groups-1,
    in SQL (the store's triggers keep its counts). The copies have no full-text rows: searching
    them finds nothing, counting them is what this benchmark measures."""
    from engram.storage.sqlite.store import SQLiteStore

    assert isinstance(store, SQLiteStore)
    started = time.perf_counter()

    def columns(conn: Any, table: str) -> list[str]:
        return [str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")]

    def copy(conn: Any, seed: str, target: str) -> None:
        conn.execute(
            "INSERT INTO episode_docs (group_id, id, fingerprint, thread, timestamp, text) "
            "SELECT ?, id, fingerprint, thread, timestamp, text FROM episode_docs "
            "WHERE group_id = ? ORDER BY doc",
            (target, seed),
        )
        rest = [c for c in columns(conn, "episodes") if c not in ("group_id", "doc")]
        conn.execute(
            f"INSERT INTO episodes (group_id, doc, {', '.join(rest)}) "
            f"SELECT ?, d.doc, {', '.join('e.' + c for c in rest)} FROM episodes e "
            "JOIN episode_docs d ON d.group_id = ? AND d.id = e.id WHERE e.group_id = ?",
            (target, target, seed),
        )
        conn.execute(
            "INSERT INTO episode_vectors (doc, group_id, vector) SELECT d.doc, ?, v.vector "
            "FROM episode_vectors v JOIN episode_docs s ON s.doc = v.doc "
            "JOIN episode_docs d ON d.group_id = ? AND d.id = s.id WHERE v.group_id = ?",
            (target, target, seed),
        )
        rest = [c for c in columns(conn, "facts") if c not in ("group_id", "doc")]
        shift = int(conn.execute("SELECT coalesce(max(doc), 0) FROM facts").fetchone()[0])
        conn.execute(
            f"INSERT INTO facts (group_id, doc, {', '.join(rest)}) "
            f"SELECT ?, doc + ?, {', '.join(rest)} FROM facts WHERE group_id = ?",
            (target, shift, seed),
        )
        conn.execute(
            "INSERT INTO merge_candidates SELECT ?, entity_id, candidate_id, score, parts, created_at "
            "FROM merge_candidates WHERE group_id = ?",
            (target, seed),
        )

    for g in range(seeds, groups):
        store._write(lambda conn, g=g: copy(conn, f"g{g % seeds:03d}", f"g{g:03d}"))
        if log and (g + 1) % 10 == 0:
            print(f"  copied into {g + 1} groups ({time.perf_counter() - started:.0f} s)", file=sys.stderr)


def _timed(fn: Callable[[], object], runs: int) -> dict[str, float]:
    for _ in range(2):
        fn()
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.thread_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.thread_time() - c)
    return summarize(wall, cpu)


def scrape_figures(memory: Memory, runs: int) -> dict[str, dict[str, float]]:
    """Return timings of summary_counts (store-wide and one group) and of GET /metrics."""
    from fastapi.testclient import TestClient

    from engram.api.app import create_app

    store = memory.store
    rows = _count_rows(store)
    counts = store.summary_counts()
    assert {(i or None, s or None): n for k, i, s, n in rows if k == "episodes"} == counts.episodes
    assert sum(n for k, *_, n in rows if k == "vectors") == counts.vectors, "the summary is the truth"
    figures = {
        "baseline: counting the rows, whole store": _timed(lambda: _count_rows(store), runs),
        "summary_counts, whole store": _timed(lambda: store.summary_counts(), runs),
        "summary_counts, one group": _timed(lambda: store.summary_counts("g000"), runs),
    }
    with TestClient(create_app(memory)) as client:

        def scrape() -> None:
            response = client.get("/metrics")
            response.raise_for_status()

        figures["GET /metrics"] = _timed(scrape, runs)
    return figures


def baseline(runs: int) -> dict[str, float]:
    """Return GET /metrics timings on an empty SQLite store through the same stack."""
    from fastapi.testclient import TestClient

    from engram.api.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), embedder="none", extractor="none")
        with (
            Memory.open(settings=settings, background_indexing=False) as memory,
            TestClient(create_app(memory)) as client,
        ):
            return _timed(lambda: client.get("/metrics").raise_for_status(), runs)


def sqlite_cache(n: int, groups: int) -> Path:
    """Return where the SQLite store of this size is cached (a newer Engram migrates it when opening it)."""
    return Path("/tmp") / f"engram-metrics-bench-{n}-{groups}"


def open_sqlite(n: int, groups: int, *, log: bool) -> tuple[Memory, float | None]:
    """Return a Memory over the cached SQLite store (built first when missing) and the build time."""
    from engram.storage.sqlite.store import SQLiteStore

    directory = sqlite_cache(n, groups)
    built = None
    if not (directory / "done").exists():
        shutil.rmtree(directory, ignore_errors=True)
        store = SQLiteStore(directory / "engram.db")
        built = build(store, n, groups, seeds=max(1, groups // 20), log=log)
        store.close()
        (directory / "done").write_text("built\n")
    settings = Settings(data_dir=directory, extractor="none", classify_intents=False)
    store = SQLiteStore(directory / "engram.db")
    return Memory(store, settings, embedder=TinyEmbedder(), background_indexing=False), built


@contextmanager
def open_postgres(n: int, groups: int, *, log: bool) -> Iterator[tuple[Memory, float]]:
    """Yield a Memory over a throwaway PostgreSQL built with ``n`` episodes, and the build time."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from engram.storage.postgres.store import PostgresStore

    from postgres_server import EmbeddedPostgres  # type: ignore[import-not-found]

    server = EmbeddedPostgres("engram_metrics_bench")
    try:
        store = PostgresStore(server.url)
        built = build(store, n, groups, log=log)
        with store._connection() as conn:
            conn.execute("ANALYZE")
        settings = Settings(database_url=server.url, extractor="none", classify_intents=False)
        with Memory(store, settings, embedder=TinyEmbedder(), background_indexing=False) as memory:
            yield memory, built
    finally:
        server.stop()


def concurrent_creates(threads: int, per_thread: int, rounds: int = 2) -> dict[str, float]:
    """Return creates/s of ``threads`` threads storing episodes of one group, intent and source on a
    fresh PostgreSQL, with the episode count trigger on and off (alternating ``rounds`` times each;
    the best round of each): what writers queueing on one summary row cost."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from concurrent.futures import ThreadPoolExecutor

    from engram.storage.postgres.store import PostgresStore

    from postgres_server import EmbeddedPostgres

    server = EmbeddedPostgres("engram_metrics_writers")
    best: dict[str, float] = {}
    try:
        store = PostgresStore(server.url, pool_size=threads + 2)
        settings = Settings(database_url=server.url, extractor="none", embedder="none")
        with Memory(store, settings, background_indexing=False) as memory:
            for round_ in range(rounds * 2):
                on = round_ % 2 == 0
                with store._connection() as conn:
                    conn.execute(
                        f"ALTER TABLE episodes {'ENABLE' if on else 'DISABLE'} TRIGGER episodes_count"
                    )

                def work(thread: int, on: bool = on, round_: int = round_) -> None:
                    for i in range(per_thread):
                        content = f"round {round_} thread {thread} note {i}"
                        memory.create_episode({"group_id": "one", "content": content, "intent": "follow_up"})

                started = time.perf_counter()
                with ThreadPoolExecutor(threads) as pool:
                    list(pool.map(work, range(threads)))
                rate = threads * per_thread / (time.perf_counter() - started)
                label = "with the count trigger" if on else "baseline: trigger disabled"
                best[label] = max(best.get(label, 0.0), rate)
    finally:
        server.stop()
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=None)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL (100k by default) instead")
    parser.add_argument("--quick", action="store_true", help="10k episodes, 10 groups, 5 runs")
    parser.add_argument(
        "--writers", type=int, default=0, help="instead: N threads creating in one group on PostgreSQL"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    n = args.episodes or (10_000 if args.quick else 100_000 if args.postgres else 1_000_000)
    groups = 10 if args.quick else args.groups
    runs = 5 if args.quick else RUNS
    log = not args.json
    if args.writers:
        rates = concurrent_creates(args.writers, 50 if args.quick else 200)
        print(
            json.dumps(rates)
            if args.json
            else "\n".join(f"{k}: {v:,.0f} creates/s" for k, v in rates.items())
        )
        return
    report: dict[str, Any] = {"machine": machine(), "episodes": n, "groups": groups, "runs": runs}
    report["baseline: GET /metrics, empty store"] = baseline(runs)
    if args.postgres:
        with open_postgres(n, groups, log=log) as (memory, built):
            report["backend"], report["build_s"] = "postgresql", built
            report["counts"] = memory.stats(all_groups=True).model_dump(mode="json")
            report["figures"] = scrape_figures(memory, runs)
    else:
        memory, built = open_sqlite(n, groups, log=log)
        with memory:
            report["backend"], report["build_s"] = "sqlite", built
            report["counts"] = memory.stats(all_groups=True).model_dump(mode="json")
            report["figures"] = scrape_figures(memory, runs)
    if args.json:
        print(json.dumps(report, indent=2, default=str))
        return
    print_machine(report["machine"])
    print(f"{report['backend']}: {n:,} episodes in {groups} groups; build {built or 0:.0f} s (0: reused)")
    rows = [
        {"measure": "baseline: GET /metrics, empty store", **report["baseline: GET /metrics, empty store"]}
    ]
    rows += [{"measure": name, **figure} for name, figure in report["figures"].items()]
    print_table(rows, ["measure", "p50", "p95", "max", "cpu p50"], "milliseconds", digits=1)


if __name__ == "__main__":
    main()


def _count_rows(store: Any) -> list[Any]:
    """Count the rows themselves (the baseline), through the store's own read connection."""
    with store._backend.read() as db:  # a bench reaching past the protocol on purpose
        return db.rows(COUNT_ROWS)
