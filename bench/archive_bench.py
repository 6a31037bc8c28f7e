"""Benchmark decay bookkeeping (fact hits) and the fact archive.

Each figure is printed beside a baseline measured in the same run.

1. build: ``--episodes`` episodes of ``_facts.FactWorld`` (5 agent-supplied facts each, about
   ``episodes / 4`` people whose one-valued facts are superseded over four episodes),
   ``extractor="none"``, batches of 500, then ``--updates`` episodes that each give one person a
   new budget, city and employer (superseding the old facts: history to archive); all recorded a
   year before the archive runs (Memory clock).
2. search: p50/p95/p99 of ``Memory.search_facts`` for ``--queries`` word queries, current facts
   and ``include_history``, with hit recording ON and OFF (BASELINE: the store's
   ``record_fact_hits`` replaced by a no-op; calls interleaved, ON and OFF alternately first).
   On an Engram without hit recording (an older checkout on PYTHONPATH) only OFF is measured.
3. archive (needs ``Memory.archive_facts``): the dry run (BASELINE: selection only) and the
   archive with a 180-day cutoff: seconds, facts and versions moved per second.
4. include_archived: p50/p95/p99 of ``search_facts`` with ``include_history`` (BASELINE) and with
   ``include_archived`` (second FTS5 table), and a ``LIKE`` scan of ``archived_facts.fact``
   for the same words (the alternative to a second index).

With ``--database-url URL`` the store is PostgreSQL (a fresh schema, dropped after) instead of
SQLite; ``--database-url embedded`` starts a throwaway server (tests/postgres_server.py).

Usage: .venv/bin/python bench/archive_bench.py [--episodes N] [--updates N] [--queries Q]
       [--database-url URL|embedded] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import apsw
import psycopg
from pydantic import SecretStr

import _common
from _common import batched, summarize, time_each
from _facts import _CITIES, _HOBBIES, _THINGS, FactWorld
from engram import Memory, Settings

Sql = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]

BATCH = 500
BUILT_AT = datetime(2025, 1, 1, tzinfo=UTC)


class Clock:
    """The memory's clock: the build happens at BUILT_AT, the archive a year later."""

    def __init__(self) -> None:
        self.now = BUILT_AT

    def __call__(self) -> datetime:
        return self.now


def queries(world: FactWorld, n: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    makers = [
        lambda: rng.choice(_HOBBIES),
        lambda: f"lives in {rng.choice(_CITIES)}",
        lambda: f"works at {rng.choice(world.orgs)}",
        lambda: f"{rng.choice(world.people).split()[0]} budget",
        lambda: f"owns {rng.choice(_THINGS)}",
    ]
    return [rng.choice(makers)() for _ in range(n)]


def update(world: FactWorld, i: int, rng: random.Random) -> dict[str, Any]:
    """Return an episode giving one person a new budget, city and employer (later than the build's)."""
    person = rng.choice(world.people)
    city, org, amount = rng.choice(_CITIES), rng.choice(world.orgs), rng.randrange(500, 20000, 250)
    facts = [
        {"subject": person, "predicate": "BUDGET", "value": amount, "fact": f"{person}'s budget is {amount}"},
        {"subject": person, "predicate": "LIVES_IN", "object": city, "fact": f"{person} lives in {city}"},
        {"subject": person, "predicate": "WORKS_AT", "object": org, "fact": f"{person} works at {org}"},
    ]
    return {
        "content": ". ".join(f["fact"] for f in facts) + ".",
        "actor": {"id": "assistant", "type": "agent"},
        "timestamp": datetime(2024, 1, 1, tzinfo=UTC) + timedelta(minutes=i),
        "entities": [
            {"name": person, "type": "person"},
            {"name": city, "type": "place"},
            {"name": org, "type": "organisation"},
        ],
        "facts": facts,
    }


def build(memory: Memory, clock: Clock, episodes: int, updates: int) -> tuple[FactWorld, dict[str, Any]]:
    world = FactWorld(max(50, episodes // 4))
    rng = random.Random(3)
    people = world.people[: max(1, episodes // 4)]
    start = time.perf_counter()
    for chunk in batched(range(episodes), BATCH):
        clock.now = BUILT_AT + timedelta(minutes=chunk[0])
        memory.create_episodes([world.episode(i) for i in chunk], kind="import")
    world.people = people  # updates go to people the build created
    for chunk in batched(range(updates), BATCH):
        clock.now = BUILT_AT + timedelta(days=1, minutes=chunk[0])
        memory.create_episodes([update(world, i, rng) for i in chunk], kind="import")
    seconds = time.perf_counter() - start
    supplied = episodes * 5 + updates * 3
    return world, {
        "episodes": episodes + updates,
        "build s": seconds,
        "facts supplied/s": supplied / seconds,
    }


def counts(sql: Sql) -> dict[str, int]:
    def one(query: str) -> int:
        try:
            return int(sql(query, ())[0][0])
        except (apsw.SQLError, psycopg.errors.UndefinedTable):  # a table this Engram does not have
            return -1

    return {
        "fact versions": one("SELECT count(*) FROM facts"),
        "current facts": one("SELECT count(*) FROM facts WHERE expired_at IS NULL AND status = 'current'"),
        "inactive facts": one("SELECT count(*) FROM facts WHERE expired_at IS NULL AND status != 'current'"),
        "archived versions": one("SELECT count(*) FROM archived_facts"),
        "fact hits": one("SELECT count(*) FROM fact_hits"),
    }


@contextmanager
def open_backend(database_url: str | None, clock: Clock) -> Iterator[tuple[Memory, Sql]]:
    """Yield a fresh memory (SQLite in a temp dir, or a new PostgreSQL schema) and a SQL reader."""
    if database_url is None:
        with tempfile.TemporaryDirectory(prefix="engram-archive-") as tmp:
            db = str(Path(tmp) / "engram.db")

            def sqlite(query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
                conn = apsw.Connection(db, flags=apsw.SQLITE_OPEN_READONLY)
                try:
                    return [tuple(row) for row in conn.execute(query, params).fetchall()]
                finally:
                    conn.close()

            settings = Settings(data_dir=Path(tmp), embedder="none", extractor="none")
            with Memory.open(settings=settings, clock=clock, background_indexing=False) as memory:
                yield memory, sqlite
        return
    schema, url = _common.new_schema(database_url)

    def postgres(query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with psycopg.connect(url) as conn:
            return [tuple(row) for row in conn.execute(query.replace("?", "%s"), params).fetchall()]

    try:
        settings = Settings(database_url=SecretStr(url), embedder="none", extractor="none")
        with Memory.open(settings=settings, clock=clock, background_indexing=False) as memory:
            yield memory, postgres
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def search_rows(memory: Memory, texts: list[str]) -> list[dict[str, Any]]:
    """Time search_facts with hit recording on and off, interleaved."""
    store: Any = memory.store
    recording = hasattr(store, "record_fact_hits")
    real = store.record_fact_hits if recording else None
    rows = []
    for label, extra in (("current", {}), ("include_history", {"include_history": True})):
        timings: dict[str, list[float]] = {"on": [], "off": []}
        cpu: dict[str, list[float]] = {"on": [], "off": []}
        returned: dict[str, list[int]] = {"on": [], "off": []}
        for text in texts[:3]:  # warm-up
            memory.search_facts({"query": text, **extra})
        for i, text in enumerate(texts):
            modes = ("on", "off") if i % 2 == 0 else ("off", "on")
            for mode in modes:
                if not recording and mode == "on":
                    continue
                if recording:
                    store.record_fact_hits = real if mode == "on" else (lambda *args, **kw: None)
                started, started_cpu = time.perf_counter(), time.thread_time()
                n = len(memory.search_facts({"query": text, **extra}).results)
                cpu[mode].append(time.thread_time() - started_cpu)
                timings[mode].append(time.perf_counter() - started)
                returned[mode].append(n)
        if recording:
            store.record_fact_hits = real
        for mode in ("off", "on"):
            if timings[mode]:
                label_mode = "hits recorded" if mode == "on" else "not recorded (baseline)"
                rows.append(
                    {
                        "kind": label,
                        "method": label_mode,
                        **summarize(timings[mode], cpu[mode]),
                        "returned": sum(returned[mode]) / len(returned[mode]),
                    }
                )
    return rows


def archive_rows(memory: Memory, clock: Clock) -> list[dict[str, Any]]:
    clock.now = BUILT_AT + timedelta(days=365)
    rows = []
    for dry_run in (True, False):
        start = time.perf_counter()
        result = memory.archive_facts(timedelta(days=180), dry_run=dry_run)  # type: ignore[attr-defined]
        seconds = time.perf_counter() - start
        rows.append(
            {
                "run": "dry run (baseline: selection only)" if dry_run else "archive",
                "facts": len(result.facts),
                "versions": result.versions,
                "seconds": seconds,
                "facts/s": len(result.facts) / seconds,
                "versions/s": result.versions / seconds,
            }
        )
    return rows


def archived_search_rows(memory: Memory, texts: list[str], sql: Sql) -> list[dict[str, Any]]:
    rows = []
    for label, extra in (
        ("include_history (baseline)", {"include_history": True}),
        ("include_archived", {"include_archived": True}),
    ):
        stats = time_each(lambda t, e=extra: len(memory.search_facts({"query": t, **e}).results), texts)
        rows.append({"method": label, **stats})

    def like(text: str) -> int:
        words = text.split()
        where = " OR ".join("fact LIKE ?" for _ in words)
        query = f"SELECT id FROM archived_facts WHERE group_id = 'default' AND ({where}) LIMIT 10"
        return len(sql(query, tuple(f"%{w}%" for w in words)))

    rows.append({"method": "LIKE over archived_facts.fact (alternative)", **time_each(like, texts)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=2000, help="episodes to build (5 facts each)")
    parser.add_argument("--updates", type=int, default=2000, help="episodes superseding 3 facts each")
    parser.add_argument("--queries", type=int, default=200, help="word queries per kind")
    parser.add_argument("--database-url", help="PostgreSQL instead of SQLite; 'embedded' starts a server")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    with _common.postgres_url(args.database_url) as args.database_url:
        run(args)


def run(args: argparse.Namespace) -> None:
    """Build, time and print (or dump) the figures."""
    info = _common.machine()
    result: dict[str, Any] = {"machine": info, "git": _common.git_state(), "args": vars(args)}
    result["backend"] = "postgresql" if args.database_url else "sqlite"
    clock = Clock()
    with open_backend(args.database_url, clock) as (memory, sql):
        world, result["build"] = build(memory, clock, args.episodes, args.updates)
        result["build"].update(counts(sql))
        texts = queries(world, args.queries)
        result["search"] = search_rows(memory, texts)
        if hasattr(memory, "archive_facts"):
            result["archive"] = archive_rows(memory, clock)
            memory.store.flush_fact_hits()  # type: ignore[attr-defined]
            result["after archive"] = counts(sql)
            result["archived search"] = archived_search_rows(memory, texts, sql)
    if args.json:
        json.dump(result, sys.stdout, indent=2, default=str)
        print()
        return
    _common.print_machine(info)
    print(f"engram from {sys.modules['engram'].__file__}, store: {result['backend']}")
    _common.print_table([result["build"]], list(result["build"]), "## 1. Build")
    columns = ["kind", "method", "n", "p50", "p95", "p99", "max", "cpu p50", "cpu p95", "returned"]
    _common.print_table(result["search"], columns, "## 2. search_facts, hit recording on vs off (ms)")
    if "archive" in result:
        _common.print_table(result["archive"], list(result["archive"][0]), "## 3. Archive --older-than 180d")
        _common.print_table([result["after archive"]], list(result["after archive"]), "After the archive")
        columns = ["method", "n", "p50", "p95", "p99", "max", "returned"]
        _common.print_table(result["archived search"], columns, "## 4. Reading the archive (ms)")


if __name__ == "__main__":
    main()
