"""Benchmark list_episodes and filtered BM25 search through Memory on a store of 100k episodes.

The store (one group, realistic varied text: LoCoMo turns, observations, events and
summaries cycled with varied actors, intents, sources, timestamps and metadata, ~3%
Chinese) is built once through ``Memory.create_episodes`` in batches of 1000 and cached
under /tmp, keyed by the schema and generator, so later runs reuse it.

Embeddings and graph extraction are off (``embedder="none"``, ``extractor="none"``): the
figures are those of the episode store and the BM25 pipeline.

Targets (foundation issue): list p95 ≤ 10 ms; filtered BM25 search p95 ≤ 30 ms.
Baselines measured in the same run:
- list: the bare index scan for the first page (``SELECT rowid … ORDER BY timestamp DESC,
  id DESC LIMIT 51``, no row decoding);
- search: a bare FTS5 ``MATCH ? ORDER BY rank LIMIT 10`` on episodes_fts alone (no join, no
  filters, same MATCH expression as the store builds), on its own connection.

With ``--known-at`` every case also runs at a past transaction time: on a copy of
the store in which 2% of the episodes were updated after the build, ``known_at`` = the
moment half of the episodes were stored (so half are absent, and the updated ones show
their first version); the row without it is its baseline.

Usage: .venv/bin/python bench/list_search_100k.py [--episodes N] [--queries Q] [--known-at] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import random
import shutil
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import apsw

import _common
from _common import ZH_QUERIES, batched, engram_settings, episode_stream, load_locomo, time_each
from engram import memory as memory_module
from engram.memory import Memory
from engram.search.query import parse_query

GROUP = "bench"
EXTRACTOR = "none"
"""Built and searched without the knowledge graph: this measures episodes (see RESULTS.md)."""
GENERATOR_VERSION = "3"
LIST_TARGET_MS = 10.0
SEARCH_TARGET_MS = 30.0


def cache_dir(n: int) -> Path:
    """Return the cache directory for ``n`` episodes built by this generator, store and write path."""
    sources = [GENERATOR_VERSION, inspect.getsource(_common.episode_stream)]
    engram = Path(memory_module.__file__).parent
    paths = [*(engram / "storage").rglob("*.py"), engram / "memory.py", engram / "nlp" / "tokenize.py"]
    for path in sorted(paths):
        sources.append(path.read_text(encoding="utf-8"))
    key = hashlib.sha256("\n".join(sources).encode()).hexdigest()[:12]
    return Path("/tmp") / f"engram-bench-{n}-{key}"


def build(texts: list[_common.Text], n: int, data_dir: Path, *, log: bool) -> float:
    """Build the store in ``data_dir`` (batches of 1000 via create_episodes); return seconds taken."""
    if data_dir.exists():
        shutil.rmtree(data_dir)
    start = time.perf_counter()
    with Memory.open(settings=engram_settings(data_dir, extractor=EXTRACTOR)) as memory:
        done = 0
        for batch in batched(episode_stream(texts, n), 1000):
            for item in batch:
                item["group_id"] = GROUP
            memory.create_episodes(batch, kind="import")
            done += len(batch)
            if log and done % 20_000 == 0:
                print(f"  built {done:,} episodes ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    seconds = time.perf_counter() - start
    conn = apsw.Connection(str(data_dir / "engram.db"))
    # No ANALYZE: the store never runs it, so the planner sees what it sees in production.
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    (data_dir / "COMPLETE").write_text(f"{n} episodes built in {seconds:.1f} s\n")
    return seconds


def past_view(memory: Memory, conn: apsw.Connection, rng: random.Random, total: int) -> dict[str, Any]:
    """Update 2% of the episodes now and return {"at": the time half the store was stored, "updated"}."""
    at = conn.execute(
        "SELECT recorded_at FROM episodes WHERE group_id = ? ORDER BY recorded_at LIMIT 1 OFFSET ?",
        (GROUP, total // 2),
    ).fetchall()[0][0]
    ids = [row[0] for row in conn.execute("SELECT id FROM episodes WHERE group_id = ?", (GROUP,))]
    chosen = rng.sample(ids, total // 50)
    for episode_id in chosen:
        memory.update_episode(
            episode_id, {"metadata": {"reviewed": True}}, expected_version=1, group_id=GROUP
        )
    return {"at": datetime.fromisoformat(at), "updated": len(chosen)}


def query_words(text: str) -> list[str]:
    """Return the words the BM25 channel sends to the store for ``text`` (synonyms aside)."""
    parsed = parse_query(text, max_chars=1000)
    return list(getattr(parsed, "words", parsed.terms))


def fts_expression(terms: list[str]) -> str:
    """Return the MATCH expression the store builds: each term a quoted phrase, joined by OR."""
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=100_000, help="store size (default 100000)")
    parser.add_argument("--queries", type=int, default=200, help="LoCoMo questions (plus 1 Chinese per 15)")
    parser.add_argument("--budget", type=float, default=15.0, help="seconds per search case, at most")
    parser.add_argument("--calls", type=int, default=200, help="calls per list scenario")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached store")
    parser.add_argument("--quick", action="store_true", help="tiny sizes (5000 episodes, 40 queries)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument(
        "--known-at",
        action="store_true",
        help="also run every case at known_at = mid-build, on a copy with 2%% of episodes updated later",
    )
    args = parser.parse_args()
    if args.quick:
        args.episodes, args.queries, args.calls, args.budget = 5000, 40, 40, 5.0
    log = not args.json

    info = _common.machine()
    texts, questions = load_locomo()
    data_dir = cache_dir(args.episodes)
    build_seconds = None
    if args.rebuild or not (data_dir / "COMPLETE").exists():
        if log:
            print(f"building {args.episodes:,} episodes in {data_dir} …", file=sys.stderr)
        build_seconds = build(texts, args.episodes, data_dir, log=log)

    rng = random.Random(11)
    variant = "current store"
    if args.known_at:
        copy = data_dir.with_name(data_dir.name + "-known-at")
        shutil.rmtree(copy, ignore_errors=True)
        copy.mkdir()
        shutil.copy2(data_dir / "engram.db", copy / "engram.db")
        data_dir = copy
        memory_cm = Memory.open(settings=engram_settings(copy, extractor=EXTRACTOR))
    else:
        memory_cm = Memory.open(settings=engram_settings(data_dir, extractor=EXTRACTOR))
    with memory_cm as memory:
        conn = apsw.Connection(str(data_dir / "engram.db"), flags=apsw.SQLITE_OPEN_READONLY)
        total = conn.execute("SELECT count(*) FROM episodes WHERE group_id = ?", (GROUP,)).fetchall()[0][0]
        lo, hi = conn.execute(
            "SELECT min(timestamp), max(timestamp) FROM episodes WHERE group_id = ?", (GROUP,)
        ).fetchall()[0]
        t_lo, t_hi = datetime.fromisoformat(lo), datetime.fromisoformat(hi)
        actors = [row[0] for row in conn.execute("SELECT DISTINCT actor_id FROM episodes ORDER BY actor_id")]
        known_at = past_view(memory, conn, rng, total) if args.known_at else None
        if known_at is not None:
            variant += f" + {known_at['updated']:,} episodes updated after known_at = {known_at['at']}"

        def travelled(rows: list[tuple[str, list[dict[str, Any]]]], key: str, at: Any) -> list[Any]:
            """Return ``rows`` followed, with --known-at, by each case again at known_at."""
            if known_at is None:
                return rows
            return rows + [(f"{name} @known_at", [{**kw, key: at} for kw in kws]) for name, kws in rows]

        def window(days: int) -> tuple[datetime, datetime]:
            span = (t_hi - t_lo - timedelta(days=days)).total_seconds()
            start = t_lo + timedelta(seconds=rng.uniform(0, max(span, 0)))
            return start, start + timedelta(days=days)

        # -- list scenarios ---------------------------------------------------------------------
        calls = args.calls
        windows = [window(30) for _ in range(calls)]
        list_cases: list[tuple[str, list[dict[str, Any]]]] = [
            ("first page, no filter", [{} for _ in range(calls)]),
            ("intent=chit_chat (common)", [{"intent": ["chit_chat"]} for _ in range(calls)]),
            ("intent=confirm_date (rare)", [{"intent": ["confirm_date"]} for _ in range(calls)]),
            (f"actor_id (one of {len(actors)})", [{"actor_id": [rng.choice(actors)]} for _ in range(calls)]),
            ("source=email", [{"source": ["email"]} for _ in range(calls)]),
            ("30-day window", [{"after": a, "before": b} for a, b in windows]),
            (
                "intent + 30-day window",
                [{"intent": ["share_event"], "after": a, "before": b} for a, b in windows],
            ),
        ]
        # Deep pagination: walk the whole group with limit 500 to collect cursors at every depth,
        # then time one limit-50 page from each cursor.
        cursors: list[tuple[int, str]] = []
        page = memory.list_episodes(GROUP, limit=500)
        depth = 500
        while page.next_cursor:
            cursors.append((depth, page.next_cursor))
            page = memory.list_episodes(GROUP, limit=500, cursor=page.next_cursor)
            depth += len(page.items)
        sample = sorted(rng.sample(cursors, min(calls, len(cursors))))
        list_cases.append(("cursor page (any depth)", [{"cursor": c} for _, c in sample]))
        deepest = [c for d, c in cursors if d >= 0.9 * total] or [cursors[-1][1]]
        list_cases.append(
            ("cursor page (deepest 10%)", [{"cursor": rng.choice(deepest)} for _ in range(calls)])
        )

        if known_at is not None:
            list_cases = travelled(list_cases, "known_at", known_at["at"])
        rows: list[dict[str, Any]] = []
        baseline = time_each(
            lambda _: conn.execute(
                "SELECT rowid FROM episodes WHERE group_id = ? AND expired_at IS NULL "
                "ORDER BY timestamp DESC, id DESC LIMIT 51",
                (GROUP,),
            ).fetchall(),
            range(calls),
        )
        rows.append({"case": "BASELINE bare index scan, first page (rowids)", **baseline})
        for name, kwargs_list in list_cases:

            def call(kwargs: dict[str, Any]) -> int:
                return len(memory.list_episodes(GROUP, limit=50, **kwargs).items)

            stats = time_each(call, kwargs_list)
            rows.append({"case": name, **stats, "items": stats.pop("returned")})
        for row in rows[1:]:
            row["target"] = "met" if row["p95"] <= LIST_TARGET_MS else "MISSED"

        # -- search scenarios -------------------------------------------------------------------
        step = max(1, len(questions) // args.queries)
        chosen = questions[::step][: args.queries]
        queries: list[tuple[str, _common.Question | None]] = [(q.question, q) for q in chosen]
        queries += [(text, None) for text in ZH_QUERIES[: max(2, args.queries // 15)]]
        copies = max(1, total // len(texts))

        def actor_of(q: _common.Question | None) -> str:
            speaker = q.speakers[rng.randrange(2)] if q else "narrator"
            return f"{speaker.lower()}-{rng.randrange(copies):03d}"

        def filters_for(kind: str, q: _common.Question | None) -> dict[str, Any]:
            if kind == "none":
                return {}
            if kind == "intent":
                return {"intent": ["share_event"]}
            if kind == "intent_rare":
                return {"intent": ["confirm_date"]}
            if kind == "actor":
                return {"actor_id": [actor_of(q)]}
            if kind == "window":
                a, b = window(90)
                return {"timestamp_after": a.isoformat(), "timestamp_before": b.isoformat()}
            if kind == "metadata":
                return {"metadata": {"conversation": q.sample_id if q else "conv-26"}}
            a, b = window(180)
            return {
                "intent": ["share_event", "chit_chat"],
                "timestamp_after": a.isoformat(),
                "timestamp_before": b.isoformat(),
                "metadata": {"lang": "en"},
            }

        search_cases = [
            ("no filter", "none"),
            ("intent=share_event (25%)", "intent"),
            ("intent=confirm_date (2%)", "intent_rare"),
            (f"actor_id (one of {len(actors)})", "actor"),
            ("90-day window", "window"),
            ("metadata conversation=…", "metadata"),
            ("intents + 180-day window + metadata", "combined"),
        ]
        expressions = [fts_expression(query_words(text)) for text, _ in queries]
        search_rows: list[dict[str, Any]] = []
        for label, sql in (
            (
                "BASELINE bare FTS5 MATCH … ORDER BY rank LIMIT 10",
                "SELECT rowid, rank FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rank LIMIT 10",
            ),
            (
                "reference: bare FTS5 match count (all matches)",
                "SELECT count(*) FROM episodes_fts WHERE episodes_fts MATCH ?",
            ),
        ):
            stats = time_each(lambda e, sql=sql: conn.execute(sql, (e,)).fetchall(), expressions)
            stats.pop("returned", None)
            search_rows.append({"case": label, **stats})
        matches = [
            conn.execute("SELECT count(*) FROM episodes_fts WHERE episodes_fts MATCH ?", (e,)).fetchall()[0][
                0
            ]
            for e in expressions
        ]
        search_bodies = [
            (
                f"search, {name}",
                [
                    {"query": text, "group_id": GROUP, "limit": 10, "filters": filters_for(kind, q)}
                    for text, q in queries
                ],
            )
            for name, kind in search_cases
        ]
        if known_at is not None:
            search_bodies = travelled(search_bodies, "known_at", known_at["at"].isoformat())
        for name, bodies in search_bodies:
            stats = time_each(
                lambda body: len(memory.search_episodes(body).results),
                bodies,
                warmup=1,
                budget_s=args.budget,
                min_calls=3,
            )
            search_rows.append(
                {
                    "case": name,
                    **stats,
                    "hits": stats.pop("returned"),
                    "target": "met" if stats["p95"] <= SEARCH_TARGET_MS else "MISSED",
                }
            )
        conn.close()

    result = {
        "machine": info,
        "variant": variant,
        "store": {
            "episodes": total,
            "group": GROUP,
            "path": str(data_dir),
            "build_seconds": build_seconds,
            "actors": len(actors),
            "from": lo,
            "to": hi,
        },
        "queries": {
            "count": len(queries),
            "fts_matches_mean": sum(matches) / len(matches),
            "fts_matches_p50": sorted(matches)[len(matches) // 2],
            "fts_matches_max": max(matches),
        },
        "list": rows,
        "search": search_rows,
    }
    if args.json:
        print(json.dumps(result, indent=2, default=str))
        return
    _common.print_machine(info)
    print(f"variant: {variant}")
    built = f", built in {build_seconds:.1f} s" if build_seconds else " (cached)"
    print(f"store: {total:,} episodes in group {GROUP!r}, {len(actors)} actors, {lo[:10]} … {hi[:10]}{built}")
    qstats = result["queries"]
    print(
        f"queries: {len(queries)} ({len(queries) - len(chosen)} Chinese); FTS matches per query: "
        f"mean {qstats['fts_matches_mean']:,.0f}, median {qstats['fts_matches_p50']:,}, "
        f"max {qstats['fts_matches_max']:,}"
    )
    cols = ["case", "n", "p50", "p95", "p99", "max", "cpu p50", "cpu p95", "target"]
    _common.print_table(
        rows,
        [*cols[:-1], "items", "target"],
        f"list_episodes(limit=50) through Memory, ms (target p95 ≤ {LIST_TARGET_MS:g} ms)",
    )
    _common.print_table(
        search_rows,
        [*cols[:-1], "hits", "target", "budget hit"],
        f"search_episodes(limit=10) through Memory, ms (target p95 ≤ {SEARCH_TARGET_MS:g} ms)",
    )


if __name__ == "__main__":
    main()
