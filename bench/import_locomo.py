"""Benchmark importing the LoCoMo dev file: through the library, through the CLI, and the SQLite floor.

Each repetition starts from an empty store in a fresh temporary directory, embeddings off
(``embedder="none"``; the target is "without embeddings").

- library: ``engram.importers.locomo.load_locomo`` + ``locomo_records`` (the public parser),
  then ``Memory.create_episodes`` in batches of ``--batch-size`` (500, the CLI default).
  "parse" is reading the JSON and building the EpisodeIn records; "store" is the
  create_episodes calls (validation, fingerprints, segmentation, SQLite writes with the
  full-text index and thread context); opening the store is left out (reported apart).
- CLI: ``engram import FILE --format locomo --data-dir D`` as a subprocess, timed from
  spawn to exit (Python start-up and imports included), plus the rate the CLI prints itself.
- BASELINE (same run, same rows, same batches, same pragmas: WAL, synchronous=NORMAL):
  raw apsw INSERTs into a plain table without indexes or FTS (the floor), and into the same
  plain table plus an FTS5 table with the store's tokenizer (the full-text floor).

Target (foundation issue): ≥ 1,000 episodes/s without embeddings.

Usage: .venv/bin/python bench/import_locomo.py [--repeat R] [--batch-size B] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import apsw

import _common
from _common import LOCOMO_DEV, batched, engram_settings
from engram.importers.locomo import load_locomo, locomo_records
from engram.memory import Memory

TARGET = 1000.0
ENGRAM_CLI = Path(sys.executable).with_name("engram")


def library_run(path: Path, data_dir: Path, batch_size: int) -> dict[str, float]:
    """Import ``path`` through the parser and Memory.create_episodes; return timings (s) and counts."""
    start = time.perf_counter()
    records = list(locomo_records(load_locomo(path)))
    parsed = time.perf_counter()
    memory = Memory.open(settings=engram_settings(data_dir))
    opened = time.perf_counter()
    created = 0
    try:
        for batch in batched(records, batch_size):
            results = memory.create_episodes([record.episode for record in batch], kind="import")
            created += sum(not result.deduplicated for result in results)
        stored = time.perf_counter()
    finally:
        memory.close()
    return {
        "episodes": len(records),
        "created": created,
        "parse_s": parsed - start,
        "open_s": opened - parsed,
        "store_s": stored - opened,
    }


def cli_run(path: Path, data_dir: Path, batch_size: int) -> dict[str, Any]:
    """Run ``engram import`` in a subprocess; return wall seconds and the rate it printed."""
    env = {**os.environ, "ENGRAM_EMBEDDER": "none"}
    cmd = [str(ENGRAM_CLI), "import", str(path), "--format", "locomo", "--data-dir", str(data_dir)]
    cmd += ["--batch-size", str(batch_size)]
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"engram import failed ({done.returncode}): {done.stderr[-2000:]}")
    match = re.search(r"imported ([\d,]+) episodes?.*?([\d,]+) episodes/s", done.stdout)
    episodes = int(match.group(1).replace(",", "")) if match else None
    rate = float(match.group(2).replace(",", "")) if match else None
    return {"wall_s": seconds, "episodes": episodes, "printed_rate": rate, "stdout": done.stdout.strip()}


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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--file", type=Path, default=LOCOMO_DEV, help="LoCoMo JSON file")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (median reported)")
    parser.add_argument("--batch-size", type=int, default=500)
    parser.add_argument("--quick", action="store_true", help="one repetition")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    if args.quick:
        args.repeat = 1

    info = _common.machine()
    rows = floor_rows(args.file)
    runs: dict[str, list[Any]] = {"library": [], "cli": [], "floor": [], "floor_fts": [], "startup": []}
    for _ in range(args.repeat):
        # Interleave the variants so that machine load hits them alike.
        with tempfile.TemporaryDirectory(prefix="engram-bench-import-") as tmp:
            base = Path(tmp)
            runs["floor"].append(floor_run(rows, base / "floor.db", args.batch_size, fts=False))
            runs["floor_fts"].append(floor_run(rows, base / "floor_fts.db", args.batch_size, fts=True))
            runs["library"].append(library_run(args.file, base / "lib", args.batch_size))
            runs["cli"].append(cli_run(args.file, base / "cli", args.batch_size))
            runs["startup"].append(cli_startup())

    n = len(rows)
    med = statistics.median

    def rate(seconds: float) -> float:
        return n / seconds

    lib = runs["library"]
    table = [
        {
            "path": "BASELINE raw apsw INSERT, plain table, no indexes, no FTS",
            "seconds": med(runs["floor"]),
            "episodes/s": rate(med(runs["floor"])),
            "best episodes/s": rate(min(runs["floor"])),
        },
        {
            "path": "BASELINE raw apsw INSERT, plain table + FTS5",
            "seconds": med(runs["floor_fts"]),
            "episodes/s": rate(med(runs["floor_fts"])),
            "best episodes/s": rate(min(runs["floor_fts"])),
        },
        {
            "path": "library: parse only (load_locomo + locomo_records)",
            "seconds": med(r["parse_s"] for r in lib),
            "episodes/s": rate(med(r["parse_s"] for r in lib)),
            "best episodes/s": rate(min(r["parse_s"] for r in lib)),
        },
        {
            "path": "library: store only (Memory.create_episodes batches)",
            "seconds": med(r["store_s"] for r in lib),
            "episodes/s": rate(med(r["store_s"] for r in lib)),
            "best episodes/s": rate(min(r["store_s"] for r in lib)),
        },
        {
            "path": "library: parse + store",
            "seconds": med(r["parse_s"] + r["store_s"] for r in lib),
            "episodes/s": rate(med(r["parse_s"] + r["store_s"] for r in lib)),
            "best episodes/s": rate(min(r["parse_s"] + r["store_s"] for r in lib)),
        },
        {
            "path": "CLI `engram import` subprocess, spawn to exit",
            "seconds": med(r["wall_s"] for r in runs["cli"]),
            "episodes/s": rate(med(r["wall_s"] for r in runs["cli"])),
            "best episodes/s": rate(min(r["wall_s"] for r in runs["cli"])),
        },
    ]
    printed = [r["printed_rate"] for r in runs["cli"] if r["printed_rate"]]
    if printed:
        table.append(
            {
                "path": "CLI, rate it prints itself (open + parse + store)",
                "episodes/s": med(printed),
                "best episodes/s": max(printed),
            }
        )
    for row in table:
        if "seconds" in row:
            row["ms"] = round(row.pop("seconds") * 1000, 1)
        row["episodes/s"] = round(row["episodes/s"])
        row["best episodes/s"] = round(row["best episodes/s"])
    for row in table[2:]:
        if not row["path"].startswith("library: parse only"):
            row["target"] = "met" if row["episodes/s"] >= TARGET else "MISSED"
    result = {
        "machine": info,
        "file": str(args.file),
        "episodes": n,
        "created_per_run": [r["created"] for r in lib],
        "cli_episodes": [r["episodes"] for r in runs["cli"]],
        "repeat": args.repeat,
        "batch_size": args.batch_size,
        "open_s_median": med(r["open_s"] for r in lib),
        "cli_startup_s_median": med(runs["startup"]),
        "cli_stdout": runs["cli"][-1]["stdout"],
        "table": table,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    _common.print_machine(info)
    print(
        f"file: {args.file.name}, {n:,} episodes (turns), {args.repeat} runs, batches of {args.batch_size}, "
        f"embedder none; store open {result['open_s_median'] * 1000:.0f} ms (not counted); "
        f"`engram --help` {result['cli_startup_s_median'] * 1000:.0f} ms"
    )
    _common.print_table(
        table,
        ["path", "ms", "episodes/s", "best episodes/s", "target"],
        f"import throughput, medians (target ≥ {TARGET:,.0f} episodes/s)",
    )


if __name__ == "__main__":
    main()
