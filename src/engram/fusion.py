"""Rank fusion as pure functions.

RRF: Cormack, Clarke and Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and
individual rank learning methods", SIGIR 2009: score(d) = Σ_c w_c / (k + rank_c(d)).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

RRF_K = 60


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[K]],
    weights: Mapping[str, float] | None = None,
    k: int = RRF_K,
) -> list[tuple[K, float]]:
    """Fuse ranked lists of keys into one list of (key, score), best first.

    ``rankings`` maps a channel name to its keys, best first (rank 1 is the first item).
    A channel missing from ``weights`` weighs 1.0. Ties keep first-seen order.
    """
    scores: dict[K, float] = {}
    for channel, keys in rankings.items():
        weight = 1.0 if weights is None else weights.get(channel, 1.0)
        for rank, key in enumerate(keys, start=1):
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda item: item[1], reverse=True)
