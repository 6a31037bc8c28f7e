"""Benchmark history and corrections: the audit log, delete, revert and purge at a realistic size.

A store of ``--episodes`` (20k) episodes from the LoCoMo stream (bench/_common.episode_stream),
built with the builtin extractor (so deletes and reverts have facts, mentions and entities to
undo) and ``embedder="none"``. Then, each beside a BASELINE measured in the same run on the
same store:

1. ``Memory.delete_episode`` and ``Memory.revert_operation`` of that delete, p50/p95 over
   ``--samples`` random episodes; BASELINE: ``Memory.update_episode`` (a one-version write)
   on other random episodes.
2. ``Memory.list_operations`` unfiltered, by kind, by episode and by entity (limit 50);
   BASELINE: ``Memory.list_episodes`` (limit 50).
3. ``Memory.merge_entities`` and its revert, on pairs of entities of one type.
4. ``Memory.purge_episode`` (erase, merge the FTS indexes, VACUUM, checkpoint): seconds per
   purge and the file size; BASELINE: a plain ``VACUUM`` of the same file.

Usage: .venv/bin/python bench/history_bench.py [--episodes N] [--samples N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import apsw

import _common
from _common import batched, episode_stream, load_locomo, time_each
from engram import Memory


def build(data_dir: Path, episodes: int) -> tuple[Memory, float]:
    memory = Memory.open(
        settings=_common.engram_settings(data_dir, embedder="none", extractor="builtin"),
        background_indexing=False,
    )
    texts, _ = load_locomo()
    began = time.perf_counter()
    for batch in batched(episode_stream(texts, episodes), 500):
        memory.create_episodes(batch)
    return memory, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    info = _common.machine()
    _common.print_machine(info)
    rng = random.Random(11)
    results: dict[str, Any] = {"machine": info, "episodes": args.episodes}
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp)
        memory, seconds = build(data_dir, args.episodes)
        print(f"built {args.episodes:,} episodes in {seconds:.0f} s")
        ids = [e.id for e in _all_episodes(memory)]
        rng.shuffle(ids)
        to_delete, to_update = ids[: args.samples], ids[args.samples : 2 * args.samples]

        def update(episode_id: str) -> object:
            return memory.update_episode(episode_id, {"metadata": {"bench": 1}}, expected_version=1)

        deletes: list[str] = []
        rows = [
            {"call": "update_episode (BASELINE)", **time_each(update, to_update, warmup=0)},
            {
                "call": "delete_episode",
                **time_each(
                    lambda i: deletes.append(memory.delete_episode(i).operation.id), to_delete, warmup=0
                ),
            },
        ]
        rows.append({"call": "revert of a delete", **time_each(memory.revert_operation, deletes, warmup=0)})
        _common.print_table(rows, ["call", "n", "p50", "p95", "p99", "cpu p50"], "writes (ms)")
        results["writes"] = rows

        episode_ids = ids[:50]
        entity_ids = [e.id for e in memory.search_entities("a", limit=50)] or ["en_none"]
        calls = {
            "list_episodes (BASELINE)": (lambda _: memory.list_episodes(limit=50), range(50)),
            "list_operations": (lambda _: memory.list_operations(limit=50), range(50)),
            "list_operations kind=extract": (
                lambda _: memory.list_operations(kind=["extract"], limit=50),
                range(50),
            ),
            "list_operations episode_id": (
                lambda i: memory.list_operations(episode_id=i, limit=50),
                episode_ids,
            ),
            "list_operations entity_id": (
                lambda i: memory.list_operations(entity_id=i, limit=50),
                entity_ids,
            ),
        }
        reads = [{"call": name, **time_each(fn, inputs)} for name, (fn, inputs) in calls.items()]
        _common.print_table(reads, ["call", "n", "p50", "p95", "p99"], "audit log reads (ms)")
        results["reads"] = reads

        people = [e.id for e in memory.search_entities("e", types=["person"], limit=40)]
        pairs = list(zip(people[0::2], people[1::2], strict=False))[:10]
        merges: list[str] = []

        def merge(pair: tuple[str, str]) -> None:
            memory.merge_entities(pair[0], pair[1])
            merges.append(memory.list_operations(kind=["merge"], limit=1).items[0].id)

        merge_rows = [
            {"call": "merge_entities", **time_each(merge, pairs, warmup=0)},
            {
                "call": "revert of a merge",
                **time_each(lambda op: memory.revert_operation(op), merges, warmup=0),
            },
        ]
        _common.print_table(merge_rows, ["call", "n", "p50", "p95", "max"], "merges (ms)")
        results["merges"] = merge_rows
        memory.close()

        database = data_dir / "engram.db"
        size = database.stat().st_size
        conn = apsw.Connection(str(database))
        began = time.perf_counter()
        conn.execute("VACUUM")
        vacuum = time.perf_counter() - began
        conn.close()
        with Memory.open(
            settings=_common.engram_settings(data_dir, embedder="none", extractor="builtin")
        ) as again:
            purges = ids[2 * args.samples : 2 * args.samples + 3]
            timings = []
            for episode_id in purges:
                began = time.perf_counter()
                again.purge_episode(episode_id)
                timings.append(time.perf_counter() - began)
        purge_rows = [
            {"call": "VACUUM (BASELINE)", "s": vacuum, "file MiB": size / 2**20},
            {"call": "purge_episode (mean of 3)", "s": sum(timings) / len(timings), "file MiB": size / 2**20},
        ]
        _common.print_table(purge_rows, ["call", "s", "file MiB"], "purge (s)")
        results["purge"] = purge_rows
    if args.json:
        json.dump(results, sys.stdout, indent=2, default=str)


def _all_episodes(memory: Memory) -> list[Any]:
    found, cursor = [], None
    while True:
        page = memory.list_episodes(limit=500, cursor=cursor)
        found += page.items
        if page.next_cursor is None:
            return found
        cursor = page.next_cursor


if __name__ == "__main__":
    main()
