"""Bulk load with precomputed vectors, before and after, in one run: episodes/s and peak RSS.

Each side runs in its own subprocess with ``PYTHONPATH`` pointing at a source tree (``--before``,
e.g. ``git archive <commit> src | tar -x -C /tmp/bulk-base``; the after side is this checkout's
``src``), on a fresh SQLite store (with ``--database-url``, a fresh schema of that PostgreSQL
database per path). Episodes are synthetic (10 users, 5 intents, 12 words each from
a 5,000-word vocabulary, a client id) with a seeded random 384-d vector each, sent as the list of
floats a client sends; building them is outside the timings. Three paths, each timed alone:

- ``memory``: ``Memory.create_episodes`` with ``embedding`` on each episode, ``--batch`` per call
  (``--size`` episodes), inside one ``Memory.bulk_load()`` whose end is timed too (a tree
  without it: the calls alone);
- ``import``: ``Memory.import_file`` (what ``engram import`` runs) of a JSON Lines file of the
  same episodes, one transaction per ``--batch`` (``--small`` episodes; the file is written first);
- ``rest``: ``POST /v1/episodes:batch`` through the ASGI stack (httpx, FastAPI, JSON both ways),
  ``--rest-batch`` per request (``--small`` episodes; ``max_batch_episodes`` and
  ``max_body_bytes`` raised to fit).

Neither side embeds anything (the embedder only states its dimensions) nor classifies (the
episodes carry their intent). Each path prints episodes per wall second and per CPU second of
the process (all its threads: on a shared machine the wall figure moves with others' load).
Peak RSS is the subprocess's maximum resident set after all paths; the store size is summed over
the paths' SQLite database files (with their WAL).

Usage: .venv/bin/python bench/bulk_load.py --before /tmp/bulk-base/src [--size 100000]
       [--small 20000] [--batch 5000] [--rest-batch 1000] [--paths memory,import,rest] [--quick] [--json]
       [--database-url postgresql://…]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, nullcontext
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

import _common

DIMENSIONS = 384
SRC = Path(__file__).resolve().parents[1] / "src"
INTENTS = ("question", "complaint", "order", "feedback", "other")


class GivenVectors:
    """States the store's dimensions; never called to embed (every episode brings its vector)."""

    name = "given-bench"
    dimensions = DIMENSIONS

    def embed_documents(self, texts: Any) -> np.ndarray:
        return np.ones((len(texts), DIMENSIONS), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return np.ones(DIMENSIONS, dtype=np.float32)

    def close(self) -> None:
        pass


def batches(size: int, batch: int, seed: int = 7) -> Iterator[list[dict[str, Any]]]:
    """Yield the episodes in lists of ``batch``: JSON-ready dicts, vectors as lists of floats."""
    rng, vectors = random.Random(seed), np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(5000)]
    start = datetime(2024, 1, 1, tzinfo=UTC)
    for at in range(0, size, batch):
        count = min(batch, size - at)
        matrix = vectors.standard_normal((count, DIMENSIONS), dtype=np.float32)
        yield [
            {
                "id": f"e{i}",
                "group_id": "g",
                "actor": {"id": f"user{i % 10}"},
                "intent": INTENTS[i % len(INTENTS)],
                "content": " ".join(rng.choices(vocab, k=12)),
                "timestamp": (start + timedelta(seconds=i)).isoformat(),
                "embedding": matrix[i - at].tolist(),
            }
            for i in range(at, at + count)
        ]


DATABASE_URL: str | None = None
"""PostgreSQL server for the store (``--database-url``): a fresh schema per path; SQLite without."""


def _open(work: Path, name: str, **settings: Any) -> Any:
    from pydantic import SecretStr

    from engram.config import Settings
    from engram.memory import Memory

    fields: dict[str, Any] = {
        "data_dir": work / name,
        "extractor": "none",
        "embedder": "none",
        "classify_intents": False,
    }
    if DATABASE_URL:
        fields["database_url"] = SecretStr(_common.new_schema(DATABASE_URL, f"bulk_{name}")[1])
    return Memory.open(
        settings=Settings(**fields, **settings), embedder=GivenVectors(), background_indexing=False
    )


class Clock:
    """Wall and process CPU seconds (every thread: the SQLite writer too) spent inside ``with``."""

    def __init__(self) -> None:
        self.wall = self.cpu = 0.0

    def __enter__(self) -> None:
        self._began = (time.perf_counter(), time.process_time())

    def __exit__(self, *_: object) -> None:
        self.wall += time.perf_counter() - self._began[0]
        self.cpu += time.process_time() - self._began[1]

    def rates(self, size: int) -> tuple[float, float]:
        return size / self.wall, size / self.cpu


def _memory(work: Path, size: int, batch: int) -> tuple[float, float]:
    memory, clock = _open(work, "memory"), Clock()
    with ExitStack() as load:
        with clock:  # one load (a tree without Memory.bulk_load: none); its end counts too
            load.enter_context(getattr(memory, "bulk_load", nullcontext)())
        for items in batches(size, batch):
            with clock:
                memory.create_episodes(items)
        with clock:
            load.close()  # PostgreSQL builds its vector index here
    assert memory.stats("g").episodes == size
    memory.close()
    return clock.rates(size)


def _import(work: Path, size: int, batch: int) -> tuple[float, float]:
    path = work / "episodes.jsonl"
    with path.open("w") as out:
        for items in batches(size, batch):
            out.writelines(json.dumps(item) + "\n" for item in items)
    memory, clock = _open(work, "import"), Clock()
    with clock:
        memory.import_file(path, "jsonl", batch_size=batch)
    assert memory.stats("g").episodes == size
    memory.close()
    return clock.rates(size)


def _rest(work: Path, size: int, batch: int) -> tuple[float, float]:
    from fastapi.testclient import TestClient

    from engram.api.app import create_app

    memory, clock = _open(work, "rest", max_batch_episodes=batch, max_body_bytes=64 << 20), Clock()
    with TestClient(create_app(memory), base_url="http://127.0.0.1") as client:
        for items in batches(size, batch):
            body = json.dumps({"episodes": items})
            with clock:
                response = client.post(
                    "/v1/episodes:batch", content=body, headers={"content-type": "application/json"}
                )
            assert response.status_code == 200 and response.json()["failed"] == 0, response.text[:300]
    assert memory.stats("g").episodes == size
    memory.close()
    return clock.rates(size)


def _side(args: argparse.Namespace) -> dict[str, float]:
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as work:
        for path in args.paths.split(","):
            if path == "memory":
                out["memory"], out["memory_cpu"] = _memory(Path(work), args.size, args.batch)
            elif path == "import":
                out["import"], out["import_cpu"] = _import(Path(work), args.small, args.batch)
            elif path == "rest":
                out["rest"], out["rest_cpu"] = _rest(Path(work), args.small, args.rest_batch)
        if not DATABASE_URL:
            out["store_mib"] = sum(f.stat().st_size for f in Path(work).rglob("engram.db*")) / 2**20
    out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def _run(src: str, argv: list[str]) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": src, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, __file__, "--side", *argv], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"side {src} failed:\n{done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", help="source tree (its src/) of the baseline")
    parser.add_argument("--size", type=int, default=100_000, help="episodes for the memory path")
    parser.add_argument("--small", type=int, default=20_000, help="episodes for the import and rest paths")
    parser.add_argument("--batch", type=int, default=5000)
    parser.add_argument("--rest-batch", type=int, default=1000)
    parser.add_argument("--paths", default="memory,import,rest")
    parser.add_argument("--quick", action="store_true", help="tiny sizes (2,000 and 1,000), seconds")
    parser.add_argument("--json", action="store_true", help="print both sides as one JSON object")
    parser.add_argument("--database-url", help="PostgreSQL (a fresh schema per path) instead of SQLite")
    parser.add_argument("--side", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        global DATABASE_URL
        DATABASE_URL = args.database_url
        print(json.dumps(_side(args)))
        return
    if args.quick:
        args.size, args.small, args.batch, args.rest_batch = 2000, 1000, 500, 250
    skipped = ("before", "side", "quick", "json")
    given = {k: v for k, v in vars(args).items() if k not in skipped and v is not None}
    argv = [f"--{k.replace('_', '-')}={v}" for k, v in given.items()]
    if args.json:
        before = _run(args.before, argv) if args.before else {}
        print(json.dumps({"before": before, "after": _run(str(SRC), argv), "load": os.getloadavg()}))
        return
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, load {os.getloadavg()}", flush=True
    )
    before = _run(args.before, argv) if args.before else {}
    print(f"before done, load {os.getloadavg()}", flush=True)
    after = _run(str(SRC), argv)
    print(f"after done, load {os.getloadavg()}")
    sizes = {"memory": args.size, "import": args.small, "rest": args.small}
    print(f"{'figure':44} {'before':>10} {'after':>10} {'after/before':>12}")
    for key, new in after.items():
        old = before.get(key)
        path = key.removesuffix("_cpu")
        label = key
        if path in sizes:
            per = "CPU-second" if key.endswith("_cpu") else "s"
            label = f"{path} ({sizes[path]:,}) episodes/{per}"
        ratio = "" if not old else f"{new / old:.2f}x"
        print(f"{label:44} {'' if old is None else f'{old:,.0f}':>10} {new:>10,.0f} {ratio:>12}")
    print("CPU-seconds: the process's (all threads), so less bent by other work on the machine")


if __name__ == "__main__":
    main()
