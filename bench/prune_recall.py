"""Measure what the proposed search changes cost in retrieval quality on the LoCoMo dev split.

Imports every turn of the dev file (engram.evaluation.locomo.index: one group per
conversation, embeddings off) once per store variant, asks the category 1-4 questions
(engram.evaluation.locomo.evaluate) and prints recall@k and NDCG@10 beside the current
store's, measured in the same run. Variants (bench/proposed_store.py):

- current: ``engram.storage.sqlite.store.SQLStorage`` as it is (the baseline);
- fts_first: FTS5 drives and sorts by BM25 itself (same scores; should change nothing);
- prune X: fts_first plus candidates restricted to rows holding a term whose document
  share is ≤ X (``--mode drop``: the common terms are left out of the query;
  ``keep_scores``: they still count in the score of the remaining candidates), with
  fallback to every term when fewer than the limit pass the filters
  (here the group filter: five conversations share one index), and without it.

Usage: .venv/bin/python bench/prune_recall.py [--prune 0.02 0.05 0.1] [--mode drop|keep_scores]
       [--pipeline bm25|full] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import _common
from _common import LOCOMO_DEV, engram_settings
from engram.evaluation.locomo import PIPELINES, evaluate, index, load_questions
from engram.memory import Memory
from engram.portable.locomo import load_locomo
from engram.storage.open import open_sqlite
from proposed_store import ProposedStore


def run(
    variant: str,
    prune: float | None,
    samples: list[Any],
    pipeline: str,
    *,
    fallback: bool = True,
    mode: str = "drop",
) -> dict[str, Any]:
    """Index the samples into a fresh store of ``variant`` and evaluate the questions."""
    with tempfile.TemporaryDirectory(prefix="engram-bench-prune-") as tmp:
        settings = engram_settings(Path(tmp))
        if variant == "current":
            store: SQLStorage = open_sqlite(settings.database_path)
        else:
            store = ProposedStore(
                settings.database_path,
                optimize=False,
                prune_df=prune,
                prune_fallback=fallback,
                prune_mode=mode,
            )
        with Memory(store, settings) as memory:
            index(memory, samples)
            questions = load_questions(samples).items
            result = evaluate(memory, questions, PIPELINES[pipeline])
    return result["overall"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--prune", type=float, nargs="*", default=[0.02, 0.05, 0.1])
    parser.add_argument("--pipeline", choices=["bm25", "full"], default="bm25")
    parser.add_argument(
        "--mode", choices=["drop", "keep_scores"], default="drop", help="how terms are pruned"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    info = _common.machine()
    samples = load_locomo(LOCOMO_DEV)
    rows = [{"variant": "BASELINE current store", **run("current", None, samples, args.pipeline)}]
    rows.append({"variant": "fts_first (same scores)", **run("proposed", None, samples, args.pipeline)})
    for share in args.prune:
        for fallback in (True, False):
            metrics = run("proposed", share, samples, args.pipeline, fallback=fallback, mode=args.mode)
            label = f"fts_first + prune ({args.mode}) df > {share:g}" + ("" if fallback else ", no fallback")
            rows.append({"variant": label, **metrics})
    if args.json:
        print(json.dumps({"machine": info, "pipeline": args.pipeline, "rows": rows}, indent=2))
        return
    _common.print_machine(info)
    print(
        f"LoCoMo dev, categories 1-4, {rows[0]['questions']} questions, pipeline {args.pipeline}, "
        "no embeddings"
    )
    _common.print_table(
        rows,
        ["variant", "recall@1", "recall@5", "recall@10", "recall@20", "ndcg@10", "p50_ms", "p95_ms"],
        "retrieval quality by store variant (latency: per question on this 2,760-turn store)",
        digits=4,
    )


if __name__ == "__main__":
    main()
