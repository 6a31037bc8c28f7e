"""Benchmark what HTTP adds to a call: server CPU per request against the same call in process.

A store of ``--episodes`` LoCoMo-derived episodes (``_common.episode_stream``: 10+ actors,
threads, metadata; embedder and extractor off, so only BM25 and lists are measured) is built
once. Then, on the same store:

- BASELINE, in process: ``Memory.list_episodes`` (one actor, 10 newest) and
  ``Memory.search_episodes`` (BM25, one actor, 10 hits) called ``--calls`` times each; the
  figure is this thread's CPU per call;
- over HTTP: ``engram serve`` in a subprocess, ``--clients`` keep-alive connections for
  ``--seconds`` per kind (GET /healthz, the same list, the same search); the figure is the server
  process's user+system CPU per answered request (so a client sharing the cores inflates no
  figure but QPS).

The difference is what the HTTP stack costs per request (uvicorn, FastAPI routing, validation,
the edge checks, metrics, serialisation, the thread hop). The server's event loop and HTTP
parser (uvloop when installed, else asyncio; h11, as `engram serve` sets it) are printed with the figures.

Usage: .venv/bin/python bench/http_overhead.py [--episodes N] [--clients C] [--seconds S]
       [--calls N] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from _common import episode_stream, load_locomo
from engram.cli.server import SERVER_OPTIONS
from engram.config import Settings
from engram.memory import Memory
from peers_load import http_qps
from peers_systems import EngramServer, list_request, search_request

GROUP = "bench"
QUERIES = ["dog", "painting", "support group", "camping trip", "new job", "pottery class", "adoption"]


def build(data_dir: Path, episodes: int, database_url: str | None = None) -> list[str]:
    """Store ``episodes`` episodes in GROUP (on PostgreSQL at ``database_url`` if given); return
    the ten most frequent actor ids."""
    settings = Settings(
        data_dir=data_dir,
        database_url=SecretStr(database_url) if database_url else None,
        embedder="none",
        extractor="none",
        classify_intents=False,
    )
    counts: dict[str, int] = {}
    with Memory.open(settings=settings) as memory:
        batch: list[dict[str, Any]] = []
        for item in episode_stream(load_locomo()[0], episodes):
            item["group_id"] = GROUP
            actor = item["actor"]["id"]
            counts[actor] = counts.get(actor, 0) + 1
            batch.append(item)
            if len(batch) == 1000:
                memory.create_episodes(batch)
                batch = []
        if batch:
            memory.create_episodes(batch)
    return sorted(counts, key=lambda actor: -counts[actor])[:10]


def cpu_per_call(call: Callable[[int], object], calls: int) -> float:
    """Return this thread's CPU milliseconds per ``call(i)``, after a warm-up."""
    for i in range(20):
        call(i)
    started = time.thread_time()
    for i in range(calls):
        call(i)
    return (time.thread_time() - started) * 1000 / calls


def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="engram-http-") as tmp:
        data_dir = Path(tmp)
        actors = build(data_dir, args.episodes)
        settings = Settings(data_dir=data_dir, embedder="none", extractor="none", classify_intents=False)
        with Memory.open(settings=settings) as memory:

            def list_call(i: int) -> object:
                return memory.list_episodes(GROUP, actor_id=[actors[i % len(actors)]], limit=10)

            def search_call(i: int) -> object:
                query = {
                    "query": QUERIES[i % len(QUERIES)],
                    "group_id": GROUP,
                    "limit": 10,
                    "filters": {"actor_id": [actors[i % len(actors)]]},
                }
                return memory.search_episodes(query)

            in_process = {
                "list": cpu_per_call(list_call, args.calls),
                "search": cpu_per_call(search_call, args.calls),
            }
        requests = {
            "healthz": [("GET", "/healthz", None)],
            "list": [list_request(GROUP, actor, 10) for actor in actors],
            "search": [search_request(GROUP, query, actor, 10) for query in QUERIES for actor in actors],
        }
        server = EngramServer(data_dir, "none")
        try:
            over_http = {
                kind: http_qps(server.base, calls, args.clients, args.seconds, server.pid)
                for kind, calls in requests.items()
            }
        finally:
            server.stop()
    stack = {
        "event loop": "uvloop" if importlib.util.find_spec("uvloop") else "asyncio",
        "HTTP parser": SERVER_OPTIONS["http"],
    }
    rows = []
    for kind, measured in over_http.items():
        server_ms = measured.get("server_cpu_ms_per_request")
        baseline = in_process.get(kind)
        rows.append(
            {
                "call": kind,
                "in_process_cpu_ms": baseline,
                "server_cpu_ms_per_request": server_ms,
                "http_overhead_ms": None if baseline is None or server_ms is None else server_ms - baseline,
                "qps": measured.get("qps"),
                "p99_ms": measured.get("p99"),
                "errors": measured.get("errors"),
            }
        )
    return {"episodes": args.episodes, "clients": args.clients, **stack, "rows": rows}


def fmt(value: Any, digits: int = 2) -> str:
    return "–" if value is None else f"{value:,.{digits}f}" if isinstance(value, float) else str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0, help="duration of each HTTP series")
    parser.add_argument("--calls", type=int, default=500, help="in-process calls per kind")
    parser.add_argument("--quick", action="store_true", help="tiny sizes (500 episodes, 2 s series)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if args.quick:
        args.episodes, args.seconds, args.calls = 500, 2.0, 50
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"{result['episodes']:,} episodes, {result['clients']} HTTP clients; server: "
        f"{result['event loop']} event loop, {result['HTTP parser']} HTTP parser"
    )
    print(
        "| call | BASELINE in process, CPU ms | over HTTP, server CPU ms | HTTP adds, ms | QPS | p99 ms "
        "| errors |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in result["rows"]:
        print(
            f"| {row['call']} | {fmt(row['in_process_cpu_ms'])} | {fmt(row['server_cpu_ms_per_request'])} "
            f"| {fmt(row['http_overhead_ms'])} | {fmt(row['qps'], 0)} | {fmt(row['p99_ms'], 1)} "
            f"| {row['errors']} |"
        )


if __name__ == "__main__":
    main()
