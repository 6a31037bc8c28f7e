"""Exact top-10 cosine over random unit vectors (384-d) with numpy on one BLAS thread: float32 unfiltered,
float32 with a 10 % filter mask, float16 unfiltered; at 100k and 1M rows. p50/p95 of 15 runs.
Beside them, the float32 rows through einsum (engram.storage.episode_matrix.products: no BLAS).

Usage: .venv/bin/python bench/exact_products.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from engram.storage.episode_matrix import products


def _timed(fn: Callable[[], Any]) -> tuple[float, float]:
    times = []
    for _ in range(15):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    times.sort()
    return 1000 * times[7], 1000 * times[13]


def _top(matrix: Any, query: Any) -> Any:
    return np.argpartition(-(matrix @ query), 10)[:10]


def _top_of_user(matrix: Any, users: Any, query: Any, top: Callable[[Any, Any], Any] = _top) -> Any:
    return top(matrix[np.flatnonzero(users == 3)], query)


def _top_einsum(matrix: Any, query: Any) -> Any:
    return np.argpartition(-products(matrix, query), 10)[:10]


def main() -> None:
    rng = np.random.default_rng(1)
    for n in (100_000, 1_000_000):
        matrix = rng.standard_normal((n, 384), dtype=np.float32)
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        users = rng.integers(0, 10, n).astype(np.int32)
        query = matrix[5]
        half = matrix.astype(np.float16)
        with threadpool_limits(1, "blas"):
            for name, fn in (
                ("float32 unfiltered", partial(_top, matrix, query)),
                ("float32 filtered 10 %", partial(_top_of_user, matrix, users, query)),
                ("float16 unfiltered", partial(_top, half, query.astype(np.float16))),
                ("einsum unfiltered", partial(_top_einsum, matrix, query)),
                ("einsum filtered 10 %", partial(_top_of_user, matrix, users, query, _top_einsum)),
            ):
                p50, p95 = _timed(fn)
                print(f"{n:>9} {name:24} p50 {p50:8.1f} ms  p95 {p95:8.1f} ms", flush=True)


if __name__ == "__main__":
    main()
