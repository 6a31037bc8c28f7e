"""Benchmark the reference index: what it costs on the write path, and how fast a lookup answers.

Writes N episodes into fresh SQLite stores (twice each, alternated, after a warm-up; median;
no embedder, no extractor, batches of 500): the BASELINE without references, then the same
texts each citing 3 documents (one of ``--documents``, in 1-3 versions) and naming 2 of them
in ``metadata.reference_names``, so the triggers index 5 rows per episode. Then times, on a
cited store, ``Memory.reference_episodes`` by versioned id, by document (every version) and
by learned name, first page of 50, beside ``Memory.list_episodes`` (limit 50) as the
BASELINE read.

Usage: .venv/bin/python bench/references_bench.py [--episodes N] [--documents D] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _common import batched, engram_settings, machine, print_machine, print_table, time_each
from engram.memory import Memory

TEXTS = [
    "Please find the updated quote attached; pricing holds until the end of the quarter.",
    "报价单已更新：标准版80个授权，合计12.6万元，报价有效期至12月31日。",
    "Legal reviewed the MSA and wants the liability cap at 12 months of fees.",
    "《合同草案》第11条我们可以接受，但付款条款希望改为验收合格后30天内付款。",
]
START = datetime(2024, 1, 1, tzinfo=UTC)


def episodes(n: int, documents: int, *, cite: bool, seed: int = 11) -> list[dict[str, Any]]:
    """Return ``n`` episodes; with ``cite``, each cites 3 documents and names 2 of them."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        episode: dict[str, Any] = {
            "id": f"bench-{i}",
            "content": f"{TEXTS[i % len(TEXTS)]} ({i})",
            "timestamp": (START + timedelta(minutes=i)).isoformat(),
            "actor": {"type": "person", "id": f"p{i % 17}"},
        }
        if cite:
            picked = [rng.randrange(documents) for _ in range(3)]
            refs = [f"doc-contract-{d}-v{1 + (i * d) % 3}" for d in picked]
            episode["references"] = list(dict.fromkeys(refs))
            episode["metadata"] = {
                "reference_names": {f"Contract {d}.pdf": refs[k] for k, d in enumerate(picked[:2])}
            }
        out.append(episode)
    return out


def store(path: Path, items: list[dict[str, Any]]) -> float:
    """Store ``items`` in batches of 500 into a fresh store at ``path``; return episodes per second."""
    with Memory.open(settings=engram_settings(path, extractor="none")) as memory:
        began = time.perf_counter()
        for batch in batched(items, 500):
            memory.create_episodes(batch)
        return len(items) / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=20_000)
    parser.add_argument("--documents", type=int, default=2_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    info = machine()
    print_machine(info)
    root = Path(tempfile.mkdtemp(prefix="refs-bench-"))
    store(root / "warm-up", episodes(200, args.documents, cite=True))  # module imports, jieba: not measured
    rates: dict[bool, list[float]] = {False: [], True: []}
    for run in range(2):  # alternated, so a change in the machine's load hits both
        for cite in (False, True):
            name = f"{'cited' if cite else 'plain'}-{run}"
            rates[cite].append(store(root / name, episodes(args.episodes, args.documents, cite=cite)))
    plain, cited = statistics.median(rates[False]), statistics.median(rates[True])
    writes = [
        {"store": "BASELINE no references", "episodes/s": plain},
        {"store": "3 references + 2 names each (5 index rows)", "episodes/s": cited},
    ]
    print_table(
        writes, ["store", "episodes/s"], f"Writes, {args.episodes:,} episodes, batches of 500, median of 2"
    )
    rng = random.Random(5)
    reads: list[dict[str, Any]] = []
    with Memory.open(settings=engram_settings(root / "cited-1", extractor="none")) as memory:
        # 200 documents the episodes cite, each with a version and a name it was cited by (untimed)
        docs: list[int] = []
        version: dict[int, str] = {}
        while len(docs) < 200:
            d = rng.randrange(args.documents)
            page = memory.reference_episodes(f"doc-contract-{d}")
            docs.append(d)
            version[d] = page.versions[0].reference

        def listed(_: int) -> int:
            return len(memory.list_episodes(limit=50).items)

        def by_version(d: int) -> int:
            return len(memory.reference_episodes(version[d], limit=50).items)

        def by_document(d: int) -> int:
            return len(memory.reference_episodes(f"doc-contract-{d}", limit=50).items)

        def by_name(d: int) -> int:
            return len(memory.reference_episodes(f"contract {d}.pdf", limit=50).items)

        for name, fn in (
            ("BASELINE list_episodes, limit 50", listed),
            ("reference_episodes: one version", by_version),
            ("reference_episodes: the document (all versions)", by_document),
            ("reference_episodes: a learned name", by_name),
        ):
            reads.append({"read": name, **time_each(fn, docs)})
    print_table(reads, ["read", "n", "p50", "p95", "cpu p50", "returned"], "Reads (ms), 200 documents")
    if args.json:
        print(json.dumps({"machine": info, "writes": writes, "reads": reads}, indent=2, default=str))


if __name__ == "__main__":
    main()
