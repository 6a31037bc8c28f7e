"""Benchmark moving a group between stores: ``--format engram`` export and import, against JSON Lines.

The source store holds the LoCoMo dev file imported as ``engram import --format locomo`` does
(``locomo_records`` + ``Memory.create_episodes`` in batches of 500, the builtin extractor
building the graph, ``embedder="none"``), ``--copies`` times under distinct group ids.
Each repetition then measures, into a fresh store:

- engram export: ``Memory.export_group`` of every group, one JSON object per line, to a file
  (every version of every episode, entity and fact, mentions, operations);
- engram import: ``engram.portable.group_format.read_lines`` of that file into ``Memory.import_records``
  (batches of 500 rows; full-text index, thread context, entity names and fact index rebuilt),
  and a second import of the same file into the same store (all skipped: idempotence cost);
- BASELINE jsonl export: ``engram.portable.jsonl_export.export_jsonl`` (current episodes only);
- BASELINE jsonl import: ``read_jsonl`` + ``Memory.create_episodes`` in batches of 500, as
  ``engram import FILE --format jsonl`` runs, with the builtin extractor (the graph is built
  again, history lost: the way a group moved before) and with ``extractor="none"``.

Rates are per second of wall time (median of ``--repeat``) and per CPU second of this process.
Every engram import is checked: the copy's export equals the source's (headers aside).
Then, once, the CLI end to end (``engram export --format engram`` and ``engram import`` as
subprocesses, Python start-up included) beside the jsonl commands.

Usage: .venv/bin/python bench/portable_bench.py [--copies K] [--repeat R] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import _common
from _common import LOCOMO_DEV, batched, engram_settings
from engram.memory import Memory
from engram.portable.group_format import read_lines
from engram.portable.jsonl import read_jsonl
from engram.portable.jsonl_export import export_jsonl
from engram.portable.locomo import load_locomo, locomo_records

BATCH = 500
ENGRAM_CLI = Path(sys.executable).with_name("engram")


def build_source(data_dir: Path, copies: int) -> tuple[dict[str, int], int]:
    """Import LoCoMo ``copies`` times (groups ``conv-26``, ``conv-26.1``, …); return row counts, groups."""
    samples = load_locomo(LOCOMO_DEV)
    with Memory.open(settings=engram_settings(data_dir), background_indexing=False) as memory:
        for copy in range(copies):
            episodes = []
            for record in locomo_records(samples):
                episode = record.episode
                if copy:
                    episode = episode.model_copy(update={"group_id": f"{episode.group_id}.{copy}"})
                episodes.append(episode)
            for batch in batched(episodes, BATCH):
                memory.create_episodes(batch, kind="import")
        counts: dict[str, int] = {}
        groups = memory.groups()
        for group in groups:
            for item in memory.export_group(group):
                counts[item["record"]] = counts.get(item["record"], 0) + 1
    return counts, len(groups)


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """Return (wall s, CPU s, result) of ``fn()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def engram_export(source: Path, out: Path) -> int:
    with Memory.open(settings=engram_settings(source), background_indexing=False) as memory:
        rows = 0
        with out.open("w", encoding="utf-8") as handle:
            for group in memory.groups():
                for item in memory.export_group(group):
                    handle.write(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n")
                    rows += item["record"] not in ("engram-export", "end")
        return rows


def engram_import(dump: Path, target: Path) -> int:
    with (
        Memory.open(settings=engram_settings(target), background_indexing=False) as memory,
        dump.open("rb") as handle,
    ):
        return memory.import_records(read_lines(handle), batch_size=BATCH).rows


def jsonl_export(source: Path, out: Path) -> int:
    with (
        Memory.open(settings=engram_settings(source), background_indexing=False) as memory,
        out.open("w", encoding="utf-8") as handle,
    ):
        return export_jsonl(memory, handle, memory.groups())


def jsonl_import(dump: Path, target: Path, extractor: str | None) -> int:
    settings = engram_settings(target, extractor=extractor)
    with Memory.open(settings=settings, background_indexing=False) as memory:
        created = 0
        for batch in batched(read_jsonl(dump).records, BATCH):
            created += len(memory.create_episodes([r.episode for r in batch], kind="import"))
        return created


def same_export(source: Path, copy: Path) -> bool:
    """Return True when both stores export the same rows (headers aside)."""

    def rows(path: Path) -> list[dict[str, Any]]:
        with Memory.open(settings=engram_settings(path), background_indexing=False) as memory:
            return [
                item
                for group in memory.groups()
                for item in memory.export_group(group)
                if item["record"] != "engram-export"
            ]

    return rows(source) == rows(copy)


def cli(*args: str) -> float:
    env = {**os.environ, "ENGRAM_EMBEDDER": "none"}
    start = time.perf_counter()
    subprocess.run([str(ENGRAM_CLI), *args], env=env, capture_output=True, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--copies", type=int, default=1, help="LoCoMo copies in the source (distinct groups)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one repetition, no CLI runs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    info = _common.machine()
    if not args.json:
        _common.print_machine(info)
    with tempfile.TemporaryDirectory(prefix="engram-portable-") as tmp:
        run(Path(tmp), args, repeat, info)


def run(work: Path, args: argparse.Namespace, repeat: int, info: dict[str, Any]) -> None:
    """Build the source in ``work``, measure every step, print the tables (or JSON)."""
    source = work / "source"
    started = time.perf_counter()
    counts, groups = build_source(source, args.copies)
    build_s = time.perf_counter() - started
    rows = sum(v for k, v in counts.items() if k not in ("engram-export", "end"))
    episodes = sum(1 for _ in locomo_records(load_locomo(LOCOMO_DEV))) * args.copies

    runs: dict[str, list[tuple[float, float]]] = {}
    identical = True
    for n in range(repeat):
        dump, lines = work / f"dump{n}.jsonl", work / f"episodes{n}.jsonl"
        steps: dict[str, Callable[[], int]] = {
            "engram export": partial(engram_export, source, dump),
            "engram import": partial(engram_import, dump, work / f"copy{n}"),
            "engram import again (all skipped)": partial(engram_import, dump, work / f"copy{n}"),
            "jsonl export (baseline)": partial(jsonl_export, source, lines),
            "jsonl import, builtin extractor (baseline)": partial(jsonl_import, lines, work / f"j{n}", None),
            "jsonl import, extractor none (baseline)": partial(jsonl_import, lines, work / f"n{n}", "none"),
        }
        for name, fn in steps.items():
            wall, cpu, _ = timed(fn)
            runs.setdefault(name, []).append((wall, cpu))
        identical = identical and same_export(source, work / f"copy{n}")
    sizes = {
        "engram file MB": (work / "dump0.jsonl").stat().st_size / 1e6,
        "jsonl file MB": (work / "episodes0.jsonl").stat().st_size / 1e6,
    }
    table = []
    for name, measured in runs.items():
        wall = statistics.median(w for w, _ in measured)
        cpu = statistics.median(c for _, c in measured)
        table.append(
            {
                "step": name,
                "s": wall,
                "rows/s": rows / wall if name.startswith("engram") else None,
                "episodes/s": episodes / wall,
                "episodes/cpu s": episodes / cpu if cpu else None,
            }
        )
    cli_rows = []
    if not args.quick:
        dump = work / "cli.jsonl"
        lines, at = str(work / "cli-e.jsonl"), ("--data-dir", str(source))
        commands = {
            "engram export --format engram -o F": ("export", "-f", "engram", "-o", str(dump), *at),
            "engram import F (engram)": ("import", str(dump), "--data-dir", str(work / "cli-copy")),
            "engram export -o F (jsonl, baseline)": ("export", "-o", lines, *at),
            "engram import F --format jsonl (baseline)": ("import", lines, "--data-dir", str(work / "cli-j")),
        }
        cli_rows = [{"command": label, "s": cli(*command)} for label, command in commands.items()]
        for row in cli_rows:
            row["episodes/s"] = episodes / row["s"]
    result = {
        "machine": info,
        "copies": args.copies,
        "groups": groups,
        "episodes": episodes,
        "rows": rows,
        "row_counts": counts,
        "build_source_s": build_s,
        "sizes": sizes,
        "identical": identical,
        "steps": table,
        "cli": cli_rows,
    }
    if args.json:
        print(json.dumps(result, indent=2, default=str))
        return
    print(
        f"source: {episodes:,} episodes in {groups} groups, {rows:,} rows "
        f"({', '.join(f'{k} {v:,}' for k, v in counts.items() if k not in ('engram-export', 'end'))}); "
        f"built in {build_s:.1f} s; files: engram {sizes['engram file MB']:.1f} MB, "
        f"jsonl {sizes['jsonl file MB']:.1f} MB; "
        f"copies identical to the source: {'yes' if identical else 'NO'}"
    )
    _common.print_table(table, ["step", "s", "rows/s", "episodes/s", "episodes/cpu s"], f"median of {repeat}")
    if cli_rows:
        _common.print_table(cli_rows, ["command", "s", "episodes/s"], "CLI, once, Python start-up included")


if __name__ == "__main__":
    main()
