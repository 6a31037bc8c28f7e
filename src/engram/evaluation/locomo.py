"""Retrieval benchmark on LoCoMo: does search find the turns that answer each question?

LoCoMo: Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents",
ACL 2024. Every turn is imported as an episode (engram.portable.locomo); each question of
categories 1-4 (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop) that has evidence is
asked within its conversation's group, and the hits are compared with the evidence turns.

Metrics (turn level unless named): recall@k = |evidence ∩ top k| / |evidence|, averaged over
questions; NDCG@10 with binary relevance (Järvelin and Kekäläinen 2002); session_recall@5 =
the share of the evidence's sessions that hold at least one of the top 5 hits; p50/p95 query
latency in milliseconds, measured around ``Memory.search_episodes``.

Evidence cleaning: ids are split on ``;``, ``,`` and spaces; ``D:11:26`` is read as
``D11:26``; ids that are malformed or absent from the conversation are dropped and counted.
"""

from __future__ import annotations

import math
import re
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engram.memory import Memory
from engram.portable.batch import BatchImporter
from engram.portable.locomo import locomo_records

CATEGORIES = ("1", "2", "3", "4")
CATEGORY_NAMES = {"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop"}
K_VALUES = (1, 5, 10, 20)
_DIA_ID = re.compile(r"^D(\d+):(\d+)$")

PIPELINES: dict[str, list[str] | None] = {"bm25": ["bm25"], "vector": ["vector"], "full": None}
"""Pipeline name → the channels it searches with (None: every channel, boosts and all)."""


@dataclass(frozen=True, slots=True)
class Question:
    """One benchmark question with its cleaned evidence turn ids (``D<session>:<turn>``)."""

    sample_id: str
    text: str
    category: str
    evidence: frozenset[str]


@dataclass(slots=True)
class Questions:
    """The questions of a file, and what cleaning dropped."""

    items: list[Question] = field(default_factory=list)
    dropped_evidence: int = 0
    dropped_questions: int = 0


def clean_evidence(raw: Iterable[Any], known: set[str]) -> tuple[set[str], int]:
    """Return the valid evidence ids among ``raw`` and how many ids were dropped."""
    kept: set[str] = set()
    dropped = 0
    for entry in raw:
        for token in re.split(r"[;,\s]+", str(entry)):
            if not token:
                continue
            token = re.sub(r"^D:(\d+):", r"D\1:", token)
            if _DIA_ID.match(token) and token in known:
                kept.add(token)
            else:
                dropped += 1
    return kept, dropped


def load_questions(samples: Sequence[Mapping[str, Any]]) -> Questions:
    """Return the category 1-4 questions of ``samples`` that keep at least one evidence id."""
    questions = Questions()
    for sample in samples:
        conversation = sample["conversation"]
        known = {
            turn["dia_id"]
            for key, turns in conversation.items()
            if re.fullmatch(r"session_\d+", key) and isinstance(turns, list)
            for turn in turns
        }
        for qa in sample.get("qa", []):
            category = str(qa.get("category"))
            if category not in CATEGORIES:
                continue
            evidence, dropped = clean_evidence(qa.get("evidence", []), known)
            questions.dropped_evidence += dropped
            if not evidence:
                questions.dropped_questions += 1
                continue
            questions.items.append(
                Question(sample["sample_id"], str(qa["question"]), category, frozenset(evidence))
            )
    return questions


def _session(dia_id: str) -> str:
    return dia_id.split(":", 1)[0]


def score_ranking(ranked: Sequence[str], evidence: frozenset[str]) -> dict[str, float]:
    """Return recall@1/5/10/20, ndcg@10 and session_recall@5 of one ranked list of dia ids."""
    scores = {f"recall@{k}": len(evidence.intersection(ranked[:k])) / len(evidence) for k in K_VALUES}
    dcg = sum(1 / math.log2(rank + 2) for rank, dia_id in enumerate(ranked[:10]) if dia_id in evidence)
    ideal = sum(1 / math.log2(rank + 2) for rank in range(min(len(evidence), 10)))
    scores["ndcg@10"] = dcg / ideal
    sessions = {_session(d) for d in evidence}
    scores["session_recall@5"] = len(sessions.intersection(_session(d) for d in ranked[:5])) / len(sessions)
    return scores


def _percentile(values: Sequence[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def _summary(rows: Sequence[dict[str, float]], latencies: Sequence[float]) -> dict[str, float]:
    keys = [f"recall@{k}" for k in K_VALUES] + ["ndcg@10", "session_recall@5"]
    summary = {key: round(statistics.fmean(row[key] for row in rows), 4) if rows else 0.0 for key in keys}
    summary["p50_ms"] = round(_percentile(latencies, 50), 2)
    summary["p95_ms"] = round(_percentile(latencies, 95), 2)
    summary["questions"] = len(rows)
    return summary


def evaluate(
    memory: Memory,
    questions: Sequence[Question],
    channels: list[str] | None,
    *,
    progress: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Ask every question through ``memory`` with ``channels``; return overall and per-category metrics."""
    rows: list[tuple[str, dict[str, float]]] = []
    latencies: list[float] = []
    for question in questions:
        started = time.perf_counter()
        response = memory.search_episodes(
            {"query": question.text, "group_id": question.sample_id, "limit": max(K_VALUES)},
            channels=channels,
        )
        latencies.append((time.perf_counter() - started) * 1000)
        ranked = [hit.episode.id.split(":", 1)[1] for hit in response.results]
        rows.append((question.category, score_ranking(ranked, question.evidence)))
        if progress is not None:
            progress()
    by_category = {
        category: _summary([r for c, r in rows if c == category], [])
        for category in CATEGORIES
        if any(c == category for c, _ in rows)
    }
    for metrics in by_category.values():
        metrics.pop("p50_ms")
        metrics.pop("p95_ms")
    return {"overall": _summary([r for _, r in rows], latencies), "by_category": by_category}


def index(memory: Memory, samples: Sequence[Mapping[str, Any]], *, batch_size: int = 500) -> float:
    """Import every turn of ``samples`` into ``memory``; return the seconds it took."""
    started = time.perf_counter()
    BatchImporter(memory, batch_size=batch_size, actor="bench").run(locomo_records(samples))
    return time.perf_counter() - started
