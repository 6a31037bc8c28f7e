"""Engram before and after the in-memory vector work, in one run: bulk load, filtered search, 50 threads.

Each side runs in its own subprocess with ``PYTHONPATH`` pointing at a source tree (``--before``,
e.g. an export of the base commit; the after side is this checkout's ``src``), on a fresh SQLite
store of ``--size`` synthetic episodes (10 users, 12 words each from a 5,000-word vocabulary,
random unit vectors of 384 dimensions from a seed, so both sides store the same vectors).
Neither side embeds anything: the embedder maps a text to its seeded vector (a lookup), so query
embedding is excluded. Figures per side:

- bulk load, episodes/s with vectors: ``create_episodes`` in import batches then
  ``index_pending`` (both sides), and (after only) ``create_episodes`` with ``embedding`` given;
- one search p50/p95 ms: vector channel alone and hybrid (every channel), filtered by one user
  (10 %) and unfiltered;
- 50 threads in process, filtered hybrid: QPS and p99 ms.

Usage: .venv/bin/python bench/vectors_in_memory.py --before /tmp/perf-base/src [--size 10000]
       [--seconds 10] [--queries 200]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

DIMENSIONS = 384
USERS = 10
SRC = Path(__file__).resolve().parents[1] / "src"


class LookupEmbedder:
    """Maps a text to a unit vector seeded by its CRC32: the same text, the same vector, no model."""

    name = "lookup-bench"
    dimensions = DIMENSIONS

    def _one(self, text: str) -> np.ndarray:
        vector = np.random.default_rng(zlib.crc32(text.encode())).standard_normal(DIMENSIONS)
        return (vector / np.linalg.norm(vector)).astype(np.float32)

    def embed_documents(self, texts: Any) -> np.ndarray:
        return np.stack([self._one(t.rsplit(": ", 1)[-1]) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._one(text)

    def close(self) -> None:
        pass


def _corpus(size: int) -> tuple[list[dict[str, Any]], list[str]]:
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(5000)]
    start = datetime(2024, 1, 1, tzinfo=UTC)
    items = [
        {
            "id": f"e{i}",
            "group_id": "g",
            "actor": {"id": f"user{i % USERS}"},
            "content": " ".join(rng.choices(vocab, k=12)),
            "timestamp": start + timedelta(seconds=i),
        }
        for i in range(size)
    ]
    queries = [" ".join(rng.choices(vocab, k=4)) for _ in range(500)]
    return items, queries


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _side(size: int, seconds: float, queries_n: int, with_embedding: bool) -> dict[str, Any]:
    from engram.config import Settings
    from engram.memory import Memory

    items, queries = _corpus(size)
    out: dict[str, Any] = {}
    embedder = LookupEmbedder()
    with tempfile.TemporaryDirectory() as work:
        settings = Settings(data_dir=Path(work) / "a", extractor="none", embedder="none")
        memory = Memory.open(settings=settings, embedder=embedder, background_indexing=False)
        started = time.perf_counter()
        for at in range(0, size, settings.import_batch_size):
            memory.create_episodes(items[at : at + settings.import_batch_size])
        memory.index_pending()
        out["load_index_pending"] = size / (time.perf_counter() - started)
        if with_embedding:
            memory.close()
            settings = settings.model_copy(update={"data_dir": Path(work) / "b"})
            memory = Memory.open(settings=settings, embedder=LookupEmbedder(), background_indexing=False)
            started = time.perf_counter()
            for at in range(0, size, 5000):
                batch = items[at : at + 5000]
                vectors = embedder.embed_documents([item["content"] for item in batch])
                memory.create_episodes(
                    [{**item, "embedding": v.tolist()} for item, v in zip(batch, vectors, strict=True)]
                )
            out["load_with_embedding"] = size / (time.perf_counter() - started)
        filtered = {"actor_id": ["user3"]}
        for name, channels, filters in (
            ("vector_filtered", ["vector"], filtered),
            ("vector_unfiltered", ["vector"], {}),
            ("hybrid_filtered", None, filtered),
            ("hybrid_unfiltered", None, {}),
        ):
            request = {"group_id": "g", "limit": 10, "filters": filters}
            memory.search_episodes({**request, "query": queries[0]}, channels=channels)  # warm
            times = []
            for query in queries[:queries_n]:
                began = time.perf_counter()
                memory.search_episodes({**request, "query": query}, channels=channels)
                times.append(time.perf_counter() - began)
            out[name] = (_pct(times, 0.5), _pct(times, 0.95))
        durations: list[float] = []
        lock = threading.Lock()
        deadline = time.perf_counter() + seconds

        def client(k: int) -> None:
            i = k
            while time.perf_counter() < deadline:
                began = time.perf_counter()
                memory.search_episodes(
                    {"group_id": "g", "limit": 10, "filters": filtered, "query": queries[i % len(queries)]}
                )
                with lock:
                    durations.append(time.perf_counter() - began)
                i += 50

        threads = [threading.Thread(target=client, args=(k,)) for k in range(50)]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        out["threads50_hybrid_filtered"] = (
            len(durations) / (time.perf_counter() - began),
            _pct(durations, 0.99),
        )
        memory.close()
    return out


def _run(src: str, args: argparse.Namespace, with_embedding: bool) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": src, "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, __file__, "--side", str(args.size), str(args.seconds), str(args.queries)]
    if with_embedding:
        command.append("--with-embedding")
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _show(value: Any) -> str:
    if value is None:
        return ""
    return f"{value[0]:.2f} / {value[1]:.2f}" if isinstance(value, list) else f"{value:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", help="source tree (its src/) of the baseline")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--side", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--with-embedding", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        size, seconds, queries = int(args.side[0]), float(args.side[1]), int(args.side[2])
        print(json.dumps(_side(size, seconds, queries, args.with_embedding)))
        return
    print(f"size {args.size}, load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores", flush=True)
    before = _run(args.before, args, with_embedding=False) if args.before else {}
    after = _run(str(SRC), args, with_embedding=True)
    print(f"{'figure':32} {'before':>18} {'after':>18} {'after/before':>12}")
    for key in after:
        old, new = before.get(key), after[key]
        ratio = ""
        if old is not None:
            ratio = f"{new[0] / old[0]:.2f}x" if isinstance(new, list) else f"{new / old:.2f}x"
        print(f"{key:32} {_show(old):>18} {_show(new):>18} {ratio:>12}")
    print("loads: episodes/s; searches: p50 / p95 ms; threads: QPS / p99 ms (ratio of the first figure)")


if __name__ == "__main__":
    main()
