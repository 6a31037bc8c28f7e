"""Exact numpy search against HNSW indexes (usearch, hnswlib): recall@10, latency, build time, memory.

384-d float32 unit vectors at each size; top 10 by cosine for each query, one thread per query
(numpy on one BLAS thread, as Engram's vector channel runs), unfiltered and with a 10 % filter
(one of ten users). The exact side is ``bench/exact_products.py``'s. Filtered HNSW: usearch has
no filter in its Python search, so it fetches ``--oversample`` × 10 / 0.1 candidates and keeps
the user's; hnswlib calls a Python predicate per visited node. Recall@10 is against the exact
top 10 of the same (filtered) rows. Builds use ``--build-threads``.

Vectors are synthetic: around ``--clusters`` random centres (cosine ~0.78 to their centre), like
text embeddings, which gather by topic; uniform random vectors (``--data uniform``) are the
hardest case for HNSW and unlike any text.

Usage (needs ``pip install usearch hnswlib``; hnswlib builds from source):
    .venv/bin/python bench/ann_bench.py --sizes 100k,1M --libraries usearch,hnswlib
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import psutil
from threadpoolctl import threadpool_limits

from exact_products import _top

DIM = 384
K = 10
USER = 3


def vectors(n: int, rng: np.random.Generator, centres: Any, kind: str) -> Any:
    if kind == "uniform":
        out = rng.standard_normal((n, DIM), dtype=np.float32)
    else:
        out = centres[rng.integers(0, len(centres), n)]
        out += 0.8 * rng.standard_normal((n, DIM), dtype=np.float32) / np.sqrt(DIM)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out


def _top_among(matrix: Any, rows: Any, query: Any) -> Any:
    """Exact top 10 among ``rows`` (the filter's), as row numbers of ``matrix``."""
    return rows[_top(matrix[rows], query)]


def rss_mib() -> float:
    return float(psutil.Process().memory_info().rss) / 2**20


def timed(fn: Callable[[Any], Any], queries: Any) -> tuple[list[Any], float, float]:
    """Return each query's answer and the p50 / p95 ms of one call."""
    answers, times = [], []
    for query in queries:
        began = time.perf_counter()
        answers.append(fn(query))
        times.append(time.perf_counter() - began)
    times.sort()
    return answers, 1000 * times[len(times) // 2], 1000 * times[int(len(times) * 0.95)]


def recall(found: list[Any], truth: list[Any]) -> float:
    return float(
        np.mean(
            [
                len(set(np.asarray(f).tolist()) & set(t.tolist())) / K
                for f, t in zip(found, truth, strict=True)
            ]
        )
    )


def build_usearch(matrix: Any, threads: int, m: int, ef_add: int, ef_search: int) -> Any:
    from usearch.index import Index

    index = Index(
        ndim=DIM, metric="ip", dtype="f32", connectivity=m, expansion_add=ef_add, expansion_search=ef_search
    )
    index.add(np.arange(len(matrix), dtype=np.uint64), matrix, threads=threads)
    return index


def build_hnswlib(matrix: Any, threads: int, m: int, ef_add: int, ef_search: int) -> Any:
    import hnswlib

    index = hnswlib.Index(space="ip", dim=DIM)
    index.init_index(max_elements=len(matrix), M=m, ef_construction=ef_add)
    index.add_items(matrix, np.arange(len(matrix)), num_threads=threads)
    index.set_ef(ef_search)
    return index


def searches(
    library: str, index: Any, users: Any, oversample: int
) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """Return (unfiltered, filtered) search functions for one query."""
    if library == "usearch":
        fetch = int(oversample * K / 0.1)

        def usearch_filtered(q: Any) -> Any:
            keys = index.search(q, fetch, threads=1).keys
            return keys[users[keys] == USER][:K]

        return (lambda q: index.search(q, K, threads=1).keys), usearch_filtered
    mine = users == USER
    return (
        lambda q: index.knn_query(q, K, num_threads=1)[0][0],
        lambda q: index.knn_query(q, K, num_threads=1, filter=lambda label: bool(mine[label]))[0][0],
    )


def report(name: str, p50: float, p95: float, recall_at_10: float) -> None:
    print(f"    {name:22} p50 {p50:8.2f} ms  p95 {p95:8.2f} ms  recall@10 {recall_at_10:.3f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100k,1M")
    parser.add_argument("--libraries", default="usearch,hnswlib")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--data", choices=("clustered", "uniform"), default="clustered")
    parser.add_argument("--clusters", type=int, default=2000)
    parser.add_argument("--m", type=int, default=16, help="HNSW links per node (connectivity)")
    parser.add_argument("--ef-construction", type=int, default=128)
    parser.add_argument("--ef-search", default="64,128", help="comma-separated search breadths")
    parser.add_argument("--oversample", type=int, default=4)
    parser.add_argument("--build-threads", type=int, default=2)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    centres = rng.standard_normal((args.clusters, DIM), dtype=np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    for size_name in args.sizes.split(","):
        n = int(float(size_name.lower().replace("k", "e3").replace("m", "e6")))
        base_rss = rss_mib()
        matrix = vectors(n, rng, centres, args.data)
        users = rng.integers(0, 10, n).astype(np.int32)
        queries = vectors(args.queries, rng, centres, args.data)
        mine = np.flatnonzero(users == USER)
        print(
            f"\n{n:,} vectors ({args.data}), {args.queries} queries; matrix {rss_mib() - base_rss:,.0f} MiB",
            flush=True,
        )
        with threadpool_limits(1, "blas"):
            truth, p50, p95 = timed(partial(_top, matrix), queries)
            print(f"  exact unfiltered       p50 {p50:8.2f} ms  p95 {p95:8.2f} ms  recall 1.000", flush=True)
            truth_f, p50, p95 = timed(partial(_top_among, matrix, mine), queries)
            print(f"  exact filtered 10 %    p50 {p50:8.2f} ms  p95 {p95:8.2f} ms  recall 1.000", flush=True)
        for library in args.libraries.split(","):
            gc.collect()
            before = rss_mib()
            began = time.perf_counter()
            build = build_usearch if library == "usearch" else build_hnswlib
            index = build(
                matrix, args.build_threads, args.m, args.ef_construction, int(args.ef_search.split(",")[0])
            )
            built = time.perf_counter() - began
            print(
                f"  {library}: build {built:,.1f} s ({n / built:,.0f} vectors/s, "
                f"{args.build_threads} threads), "
                f"+{rss_mib() - before:,.0f} MiB RSS (M={args.m}, ef_construction={args.ef_construction})",
                flush=True,
            )
            for ef in (int(e) for e in args.ef_search.split(",")):
                if library == "usearch":
                    index.expansion_search = ef
                else:
                    index.set_ef(ef)
                unfiltered, filtered = searches(library, index, users, args.oversample)
                found, p50, p95 = timed(unfiltered, queries)
                report(f"ef {ef:<4} unfiltered", p50, p95, recall(found, truth))
                found, p50, p95 = timed(filtered, queries)
                report(f"ef {ef:<4} filtered 10 %", p50, p95, recall(found, truth_f))
            del index
        del matrix


if __name__ == "__main__":
    main()
