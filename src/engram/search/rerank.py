"""Boosts, diversity and floors applied after fusion, as small pure functions.

A boost is a multiplicative factor ``1 + weight * signal`` with ``signal`` in [0, 1], so a
weight of 0 turns it off and explain can show each factor on its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from datetime import datetime
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def boost(weight: float, signal: float) -> float:
    """Return the factor ``1 + weight * signal`` (``signal`` clamped to [0, 1])."""
    return 1.0 + weight * min(1.0, max(0.0, signal))


def recency(timestamp: datetime, reference: datetime, half_life_days: float) -> float:
    """Return 0.5 ** (age / half-life): 1 now, 0.5 one half-life ago. Future times count as now."""
    if half_life_days <= 0:
        return 0.0
    age_days = max(0.0, (reference - timestamp).total_seconds() / 86_400)
    return math.pow(0.5, age_days / half_life_days)


def time_proximity(timestamp: datetime, start: datetime, end: datetime, half_life_days: float) -> float:
    """Return 1 inside [start, end), decaying by half every ``half_life_days`` outside it."""
    if start <= timestamp < end:
        return 1.0
    distance = (start - timestamp) if timestamp < start else (timestamp - end)
    return math.pow(0.5, distance.total_seconds() / 86_400 / max(half_life_days, 1e-9))


def maximal_marginal_relevance(
    ranked: Sequence[tuple[K, float]],
    similarity: Callable[[K, K], float],
    *,
    lambda_: float = 0.7,
    limit: int,
) -> list[tuple[K, float]]:
    """Reorder ``ranked`` (key, relevance), best first, to trade relevance for diversity.

    Carbonell and Goldstein, "The use of MMR, diversity-based reranking…", SIGIR 1998:
    pick argmax λ·rel(d) − (1−λ)·max_{s∈S} sim(d, s), with rel the score divided by the
    best score so both terms share a [0, 1] scale. Returns at most ``limit`` items with
    their original scores.
    """
    if not ranked:
        return []
    top = ranked[0][1] or 1.0
    remaining = list(ranked)
    chosen: list[tuple[K, float]] = []
    while remaining and len(chosen) < limit:
        best_index = max(
            range(len(remaining)),
            key=lambda i: (
                lambda_ * remaining[i][1] / top
                - (1 - lambda_) * max((similarity(remaining[i][0], c) for c, _ in chosen), default=0.0)
            ),
        )
        chosen.append(remaining.pop(best_index))
    return chosen


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Return |a ∩ b| / |a ∪ b| (0 for two empty sets)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def above_floor(ranked: Sequence[tuple[K, float]], floor: float) -> list[tuple[K, float]]:
    """Return the items whose score is at least ``floor`` (a relative floor is the caller's choice)."""
    return [(key, score) for key, score in ranked if score >= floor]
