"""Print recall@5 per query kind on the bilingual corpus: the full pipeline beside BM25 alone.

Corpus: tests/data/bilingual_corpus.json (53 Chinese and English episodes of an agent at a
small company, 46 queries of kinds zh, en, cross-lingual, synonym, time, actor, filter, each
with the episodes a person would want in the top 5). recall@5 of a query =
|expected ∩ top 5| / |expected|; a kind's figure is the mean over its queries.

Pipelines, measured in the same run on one fresh SQLite store:
- baseline: ``memory.search_episodes(q, channels=["bm25"])``: BM25 with synonyms, no boosts;
- full: ``memory.search_episodes(q)``: every configured channel, fusion, boosts (intent,
  actor, the query's time expression).

Usage: .venv/bin/python bench/bilingual_recall.py [--misses] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from engram.config import Settings
from engram.memory import Memory

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "bilingual_corpus.json"
KINDS = ("zh", "en", "cross-lingual", "synonym", "time", "actor", "filter")
PIPELINES: dict[str, list[str] | None] = {"bm25": ["bm25"], "full": None}


def run(memory: Memory, corpus: dict[str, Any], channels: list[str] | None) -> list[dict[str, Any]]:
    """Return, per query: kind, recall@5, reciprocal rank of the first expected hit, ids, milliseconds."""
    rows = []
    for query in corpus["queries"]:
        started = time.perf_counter()
        response = memory.search_episodes(
            {
                "query": query["query"],
                "group_id": corpus["group_id"],
                "limit": 5,
                "filters": query.get("filters", {}),
                "reference_time": query.get("reference_time", corpus["default_reference_time"]),
            },
            channels=channels,
        )
        elapsed_ms = (time.perf_counter() - started) * 1000
        top = [hit.episode.id for hit in response.results]
        expected = set(query["expected"])
        first = next((rank for rank, key in enumerate(top, start=1) if key in expected), None)
        rows.append(
            {
                "id": query["id"],
                "kind": query["kind"],
                "recall": len(expected & set(top)) / len(expected),
                "rr": 1 / first if first else 0.0,
                "top": top,
                "ms": elapsed_ms,
            }
        )
    return rows


def table(rows: list[dict[str, Any]], metric: str) -> dict[str, float]:
    """Return the mean of ``metric`` (recall · rr) per kind and overall ("all")."""
    per_kind: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        per_kind[row["kind"]].append(row[metric])
    figures = {kind: statistics.fmean(per_kind[kind]) for kind in KINDS if per_kind[kind]}
    figures["all"] = statistics.fmean(row[metric] for row in rows)
    return figures


def main() -> None:
    """Load the corpus, run both pipelines, print the table (and the misses or JSON on request)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list the queries below recall 1")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    with (
        tempfile.TemporaryDirectory() as tmp,
        Memory.open(settings=Settings(data_dir=Path(tmp), classify_intents=False)) as memory,
    ):
        memory.create_episodes(
            [{**episode, "group_id": corpus["group_id"]} for episode in corpus["episodes"]]
        )
        run(memory, corpus, None)  # warm-up: jieba's dictionary, SQLite pages
        results = {name: run(memory, corpus, channels) for name, channels in PIPELINES.items()}
    figures = {
        f"{name} {metric}": table(rows, metric)
        for name, rows in results.items()
        for metric in ("recall", "rr")
    }
    if args.json:
        json.dump(figures, sys.stdout, indent=2)
        print()
        return
    counts: dict[str, int] = defaultdict(int)
    for query in corpus["queries"]:
        counts[query["kind"]] += 1
    print(f"bilingual corpus: {len(corpus['episodes'])} episodes, {len(corpus['queries'])} queries, limit 5")
    print("| kind | queries | recall@5 BM25 only | recall@5 full | MRR@5 BM25 only | MRR@5 full |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in (*KINDS, "all"):
        count = len(corpus["queries"]) if kind == "all" else counts[kind]
        cells = " | ".join(
            f"{figures[column][kind]:.3f}" for column in ("bm25 recall", "full recall", "bm25 rr", "full rr")
        )
        print(f"| {kind} | {count} | {cells} |")
    latencies = sorted(row["ms"] for row in results["full"])
    print(f"full pipeline latency: p50 {statistics.median(latencies):.1f} ms, max {latencies[-1]:.1f} ms")
    if args.misses:
        for name, rows in results.items():
            print(f"\nmisses ({name}):")
            for row in rows:
                if row["recall"] < 1:
                    query = next(q for q in corpus["queries"] if q["id"] == row["id"])
                    line = f"{row['id']} {row['kind']:<13} {row['recall']:.2f} {query['query']!r}"
                    print(f"  {line} -> {row['top']}")


if __name__ == "__main__":
    main()
