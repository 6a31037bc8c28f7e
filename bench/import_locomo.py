"""Benchmark importing the LoCoMo dev file: through the library, through the CLI, and the SQLite floor.

Each repetition starts from an empty store in a fresh temporary directory, embeddings off
(``embedder="none"``; the target is "without embeddings").

- library: ``engram.portable.locomo.load_locomo`` + ``locomo_records`` (the public parser),
  then ``Memory.create_episodes`` in batches of ``--batch-size`` (500, the CLI default).
  "parse" is reading the JSON and building the EpisodeIn records; "store" is the
  create_episodes calls (validation, fingerprints, segmentation, SQLite writes with the
  full-text index and thread context); opening the store is left out (reported apart).
- CLI: ``engram import FILE --format locomo --data-dir D`` as a subprocess, timed from
  spawn to exit (Python start-up and imports included), plus the rate the CLI prints itself.
- per CPU second: the same episodes divided by the CPU time used (process_time for the
  library, RUSAGE_CHILDREN for the CLI): what the import costs when other processes on this
  shared machine stretch wall time.
- BASELINE (same run, same rows, same batches, same pragmas: WAL, synchronous=NORMAL):
  raw apsw INSERTs into a plain table without indexes or FTS (the floor), and into the same
  plain table plus an FTS5 table with the store's tokenizer (the full-text floor).

Each path runs with Engram's default extractor (the builtin knowledge-graph extraction runs
inside create_episodes) and with ``extractor="none"`` (episodes only).

Growth probe: the realistic generated stream of bench/_common.py (LoCoMo text cycled with
varied actors, ~3% Chinese) stored into ONE group in batches, episodes/s per block: shows
whether the write path slows down as a group grows.

Target (foundation issue): ≥ 1,000 episodes/s without embeddings.

Usage: .venv/bin/python bench/import_locomo.py [--repeat R] [--batch-size B] [--grow N] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import apsw

import _common
from _common import LOCOMO_DEV, batched, engram_settings, episode_stream
from engram.memory import Memory
from engram.portable.locomo import load_locomo, locomo_records

TARGET = 1000.0
ENGRAM_CLI = Path(sys.executable).with_name("engram")


def library_run(path: Path, data_dir: Path, batch_size: int, extractor: str | None) -> dict[str, float]:
    """Import ``path`` through the parser and Memory.create_episodes; return timings (s) and counts."""
    start = time.perf_counter()
    records = list(locomo_records(load_locomo(path)))
    parsed = time.perf_counter()
    memory = Memory.open(settings=engram_settings(data_dir, extractor=extractor))
    opened = time.perf_counter()
    cpu_start = time.process_time()
    created = 0
    try:
        for batch in batched(records, batch_size):
            results = memory.create_episodes([record.episode for record in batch], kind="import")
            created += sum(not result.deduplicated for result in results)
        stored = time.perf_counter()
        cpu = time.process_time() - cpu_start
    finally:
        memory.close()
    return {
        "episodes": len(records),
        "created": created,
        "parse_s": parsed - start,
        "open_s": opened - parsed,
        "store_s": stored - opened,
        "store_cpu_s": cpu,
    }


def cli_run(path: Path, data_dir: Path, batch_size: int, extractor: str | None) -> dict[str, Any]:
    """Run ``engram import`` in a subprocess; return wall and CPU seconds and the rate it printed."""
    env = {**os.environ, "ENGRAM_EMBEDDER": "none"}
    if extractor is not None:
        env["ENGRAM_EXTRACTOR"] = extractor
    cmd = [str(ENGRAM_CLI), "import", str(path), "--format", "locomo", "--data-dir", str(data_dir)]
    cmd += ["--batch-size", str(batch_size)]
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime
    if done.returncode != 0:
        raise SystemExit(f"engram import failed ({done.returncode}): {done.stderr[-2000:]}")
    match = re.search(r"imported ([\d,]+) episodes?.*?([\d,]+) episodes/s", done.stdout)
    episodes = int(match.group(1).replace(",", "")) if match else None
    rate = float(match.group(2).replace(",", "")) if match else None
    return {
        "wall_s": seconds,
        "cpu_s": cpu,
        "episodes": episodes,
        "printed_rate": rate,
        "stdout": done.stdout.strip(),
    }


def cli_startup() -> float:
    """Return the seconds ``engram --help`` takes (interpreter start-up and CLI imports)."""
    start = time.perf_counter()
    subprocess.run([str(ENGRAM_CLI), "--help"], capture_output=True, check=True)
    return time.perf_counter() - start


def floor_rows(path: Path) -> list[tuple[Any, ...]]:
    """Return the rows the floor baselines insert: the same episodes, as plain values."""
    rows = []
    for record in locomo_records(load_locomo(path)):
        episode = record.episode
        rows.append(
            (
                episode.group_id,
                episode.id,
                episode.timestamp.isoformat() if episode.timestamp else None,
                episode.actor.id if episode.actor else None,
                episode.source,
                episode.content_text(),
                json.dumps(episode.metadata, ensure_ascii=False),
            )
        )
    return rows


def floor_run(rows: list[tuple[Any, ...]], db: Path, batch_size: int, *, fts: bool) -> float:
    """Insert ``rows`` with raw apsw (plain table, optionally + FTS5); return seconds."""
    conn = apsw.Connection(str(db))
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute(
        "CREATE TABLE plain (group_id TEXT, id TEXT, timestamp TEXT, actor_id TEXT, source TEXT, "
        "content TEXT, metadata TEXT)"
    )
    if fts:
        conn.execute(
            "CREATE VIRTUAL TABLE plain_fts USING fts5 (text, content = '', contentless_delete = 1, "
            "tokenize = 'porter unicode61 remove_diacritics 2')"
        )
    start = time.perf_counter()
    for batch in batched(rows, batch_size):
        with conn:
            conn.executemany("INSERT INTO plain VALUES (?, ?, ?, ?, ?, ?, ?)", batch)
            if fts:
                last = conn.last_insert_rowid()
                first = last - len(batch) + 1
                conn.executemany(
                    "INSERT INTO plain_fts (rowid, text) VALUES (?, ?)",
                    [(first + i, row[5]) for i, row in enumerate(batch)],
                )
    seconds = time.perf_counter() - start
    conn.close()
    return seconds


def growth_run(n: int, data_dir: Path, batch_size: int, extractor: str | None, block: int) -> list[float]:
    """Store ``n`` generated episodes in ONE group; return episodes/s of each successive block."""
    from engram.nlp.tokenize import segment

    segment("预热")  # load jieba's dictionary (about a second) before the clock starts
    texts, _ = _common.load_locomo()
    episodes = list(episode_stream(texts, n))
    for episode in episodes:
        episode["group_id"] = "grow"
    rates: list[float] = []
    with Memory.open(settings=engram_settings(data_dir, extractor=extractor)) as memory:
        done, started = 0, time.perf_counter()
        for batch in batched(episodes, batch_size):
            memory.create_episodes(batch, kind="import")
            done += len(batch)
            if done % block == 0:
                rates.append(block / (time.perf_counter() - started))
                started = time.perf_counter()
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--file", type=Path, default=LOCOMO_DEV, help="LoCoMo JSON file")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (median reported)")
    parser.add_argument("--batch-size", type=int, default=500)
    parser.add_argument("--grow", type=int, default=10_000, help="episodes of the one-group growth probe")
    parser.add_argument("--quick", action="store_true", help="one repetition, growth probe of 2,000")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.grow = 1, 2000

    info = _common.machine()
    rows = floor_rows(args.file)
    n = len(rows)
    extractors: dict[str, str | None] = {"default extractor": None, "extractor none": "none"}
    runs: dict[str, list[Any]] = {"floor": [], "floor_fts": [], "startup": []}
    for label in extractors:
        runs[f"library {label}"] = []
        runs[f"cli {label}"] = []
    for _ in range(args.repeat):
        # Interleave the variants so that machine load hits them alike.
        with tempfile.TemporaryDirectory(prefix="engram-bench-import-") as tmp:
            base = Path(tmp)
            runs["floor"].append(floor_run(rows, base / "floor.db", args.batch_size, fts=False))
            runs["floor_fts"].append(floor_run(rows, base / "floor_fts.db", args.batch_size, fts=True))
            for label, extractor in extractors.items():
                slug = label.replace(" ", "-")
                runs[f"library {label}"].append(
                    library_run(args.file, base / f"lib-{slug}", args.batch_size, extractor)
                )
                runs[f"cli {label}"].append(
                    cli_run(args.file, base / f"cli-{slug}", args.batch_size, extractor)
                )
            runs["startup"].append(cli_startup())

    med = statistics.median

    def row(path: str, seconds: list[float], *, target: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": path,
            "ms": round(med(seconds) * 1000, 1),
            "episodes/s": round(n / med(seconds)),
            "best episodes/s": round(n / min(seconds)),
        }
        if target:
            out["target"] = "met" if out["episodes/s"] >= TARGET else "MISSED"
        return out

    table = [
        row("BASELINE raw apsw INSERT, plain table, no indexes, no FTS", runs["floor"], target=False),
        row("BASELINE raw apsw INSERT, plain table + FTS5", runs["floor_fts"], target=False),
    ]
    lib0 = runs["library default extractor"]
    table.append(
        row("library: parse only (load_locomo + locomo_records)", [r["parse_s"] for r in lib0], target=False)
    )
    for label in extractors:
        lib, cli = runs[f"library {label}"], runs[f"cli {label}"]
        table += [
            row(f"library, {label}: store (create_episodes batches)", [r["store_s"] for r in lib]),
            row(
                f"library, {label}: store, per CPU second (all threads)",
                [r["store_cpu_s"] for r in lib],
                target=False,
            ),
            row(f"library, {label}: parse + store", [r["parse_s"] + r["store_s"] for r in lib]),
            row(f"CLI, {label}: `engram import` spawn to exit", [r["wall_s"] for r in cli]),
            row(f"CLI, {label}: per CPU second of the subprocess", [r["cpu_s"] for r in cli], target=False),
        ]
        printed = [r["printed_rate"] for r in cli if r["printed_rate"]]
        if printed:
            table.append(
                {
                    "path": f"CLI, {label}: rate it prints itself (open + parse + store)",
                    "episodes/s": round(med(printed)),
                    "best episodes/s": round(max(printed)),
                    "target": "met" if med(printed) >= TARGET else "MISSED",
                }
            )

    growth: list[dict[str, Any]] = []
    if args.grow:
        block = max(500, args.grow // 5)
        with tempfile.TemporaryDirectory(prefix="engram-bench-grow-") as tmp:
            for label, extractor in extractors.items():
                rates = growth_run(
                    args.grow, Path(tmp) / label.replace(" ", "-"), args.batch_size, extractor, block
                )
                growth.append(
                    {"settings": label, **{f"{(i + 1) * block:,}": round(r) for i, r in enumerate(rates)}}
                )
    info["loadavg_1m_end"] = round(os.getloadavg()[0], 2)
    result = {
        "machine": info,
        "file": str(args.file),
        "episodes": n,
        "repeat": args.repeat,
        "batch_size": args.batch_size,
        "open_s_median": med(r["open_s"] for r in lib0),
        "cli_startup_s_median": med(runs["startup"]),
        "cli_stdout": runs["cli default extractor"][-1]["stdout"],
        "table": table,
        "growth": growth,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    _common.print_machine(info)
    print(
        f"load average at end {info['loadavg_1m_end']}; file {args.file.name}: {n:,} episodes (turns), "
        f"{args.repeat} runs, batches of {args.batch_size}, embedder none; store open "
        f"{result['open_s_median'] * 1000:.0f} ms (not counted); `engram --help` "
        f"{result['cli_startup_s_median'] * 1000:.0f} ms"
    )
    _common.print_table(
        table,
        ["path", "ms", "episodes/s", "best episodes/s", "target"],
        f"import throughput, medians (target ≥ {TARGET:,.0f} episodes/s)",
    )
    if growth:
        _common.print_table(
            growth,
            list(growth[0]),
            f"growth probe: {args.grow:,} generated episodes into ONE group, episodes/s per block of "
            f"{max(500, args.grow // 5):,} (x = episodes stored at the end of the block)",
        )


if __name__ == "__main__":
    main()
