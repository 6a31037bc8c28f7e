"""Benchmark the importers' throughput per format on generated inputs, beside the jsonl importer.

Generates, in a temporary folder, N episodes' worth of each format from one list of
bilingual business messages (so every format stores the same texts): an mbox of N messages
(threads of 4, one attachment in 10), a Markdown folder of N/4 pages of 4 sections, a CSV of N
rows with a mapping-free ``time,actor,content,channel`` header, a Slack export of N messages in
2 channels (threads of 4), a ChatGPT ``conversations.json`` of N/4 conversations of 4 messages,
and, as the BASELINE, a JSON Lines file of the same N episodes (``engram import --format jsonl``).

For each: parse only (records/s, nothing stored), then ``Memory.import_file`` into a fresh
SQLite store (episodes/s; batches of 500; the builtin graph extractor on, no embedder and no
intent classification, so the figure is the importer's and the store's), then the same import
again (idempotence: everything deduplicated). Median of ``--repeat`` runs, after a warm-up
import of 8 episodes per format (module imports, jieba's dictionary: not measured).

Usage: .venv/bin/python bench/import_formats_bench.py [--episodes N] [--repeat R] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from engram.config import Settings
from engram.memory import Memory
from engram.portable.base import Record
from engram.portable.importing import open_path

TEXTS = [
    "Can we move Thursday's kickoff to next Tuesday? Our CISO is out this week.",
    "报价单已更新：标准版80个授权，合计12.6万元，报价有效期至12月31日。",
    "The two scanners arrived with cracked housings; please send replacements before Friday.",
    "客户同意分两批交付，6月14日上午10点签约，请准备盖章版合同。",
    "Please cancel PO 4500-2219, the project was put on hold by finance.",
    "付款条款改为验收合格后30天内付款，其余条款不变。",
    "We can do $19 per seat for 150 seats on a 24-month term.",
    "系统升级后报表导出一直报错500，麻烦尽快排查。",
]
PEOPLE = ["Maria Lopez", "Devin Park", "张磊", "李娜", "Jonas Schulz", "陈晨"]
START = datetime(2024, 6, 1, 8, 0, tzinfo=UTC)


def _text(n: int) -> str:
    return f"{TEXTS[n % len(TEXTS)]} (#{n})"


def _email(n: int) -> str:
    return PEOPLE[n % len(PEOPLE)].lower().replace(" ", ".") + "@example.com"


def write_mbox(folder: Path, count: int) -> Path:
    path = folder / "bench.mbox"
    with path.open("wb") as out:
        for n in range(count):
            message = EmailMessage()
            message["Message-ID"] = f"<m{n}@bench.example>"
            message["From"] = f"{PEOPLE[n % len(PEOPLE)]} <{_email(n)}>"
            message["To"] = "team@bench.example"
            message["Subject"] = f"Thread {n // 4}"
            message["Date"] = format_datetime(START + timedelta(minutes=n))
            if n % 4:
                message["In-Reply-To"] = f"<m{n - 1}@bench.example>"
                message["References"] = " ".join(f"<m{k}@bench.example>" for k in range(n - n % 4, n))
            body = _text(n) + "\n\nBest regards,\nSomeone\n"
            if n % 4:
                body += f"\nOn Mon, Jun 3, 2024 someone wrote:\n> {_text(n - 1)}\n"
            message.set_content(body)
            if n % 10 == 0:
                message.add_attachment(
                    b"%PDF-1.4 bench", maintype="application", subtype="pdf", filename=f"quote-{n}_v2.pdf"
                )
            out.write(f"From {_email(n)} Mon Jun  3 16:12:44 2024\n".encode())
            out.write(message.as_bytes().replace(b"\nFrom ", b"\n>From "))
            out.write(b"\n")
    return path


def write_markdown(folder: Path, count: int) -> Path:
    root = folder / "wiki"
    root.mkdir()
    pages = max(count // 4, 1)
    for page in range(pages):
        link = f"[next](page-{(page + 1) % pages}.md)"
        sections = "\n\n".join(f"## Section {s}\n\n{_text(page * 4 + s)} {link}" for s in range(4))
        (root / f"page-{page}.md").write_text(f"# Page {page}\n\n{sections}\n", encoding="utf-8")
    return root


def write_csv(folder: Path, count: int) -> Path:
    path = folder / "rows.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["time", "actor", "content", "channel"])
        for n in range(count):
            writer.writerow([(START + timedelta(minutes=n)).isoformat(), PEOPLE[n % 6], _text(n), "crm"])
    return path


def write_slack(folder: Path, count: int) -> Path:
    root = folder / "slack"
    root.mkdir()
    users = [{"id": f"U{k}", "real_name": name} for k, name in enumerate(PEOPLE)]
    channels = [{"id": "C1", "name": "deals"}, {"id": "C2", "name": "support"}]
    (root / "users.json").write_text(json.dumps(users), encoding="utf-8")
    (root / "channels.json").write_text(json.dumps(channels), encoding="utf-8")
    for channel in channels:
        (root / channel["name"]).mkdir()
        messages: list[dict[str, Any]] = []
        for n in range(count // 2):
            ts = f"{(START + timedelta(minutes=n)).timestamp():.6f}"
            parent = f"{(START + timedelta(minutes=n - n % 4)).timestamp():.6f}"
            messages.append(
                {
                    "type": "message",
                    "user": f"U{n % 6}",
                    "ts": ts,
                    "thread_ts": parent,
                    "text": f"<@U{(n + 1) % 6}> {_text(n)} :pray:",
                }
            )
        (root / channel["name"] / "2024-06-01.json").write_text(json.dumps(messages), encoding="utf-8")
    return root


def write_chatgpt(folder: Path, count: int) -> Path:
    conversations = []
    for c in range(max(count // 4, 1)):
        mapping: dict[str, Any] = {f"c{c}-root": {"id": f"c{c}-root", "message": None, "parent": None}}
        parent = f"c{c}-root"
        for k in range(4):
            node = f"c{c}-{k}"
            role = "user" if k % 2 == 0 else "assistant"
            mapping[node] = {
                "id": node,
                "parent": parent,
                "message": {
                    "author": {"role": role},
                    "create_time": (START + timedelta(minutes=c * 4 + k)).timestamp(),
                    "content": {"content_type": "text", "parts": [_text(c * 4 + k)]},
                },
            }
            parent = node
        conversations.append(
            {"id": f"conv-{c}", "title": f"Chat {c}", "mapping": mapping, "current_node": parent}
        )
    path = folder / "conversations.json"
    path.write_text(json.dumps(conversations, ensure_ascii=False), encoding="utf-8")
    return path


def write_jsonl(folder: Path, count: int) -> Path:
    path = folder / "episodes.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for n in range(count):
            record = {
                "id": f"j{n}",
                "timestamp": (START + timedelta(minutes=n)).isoformat(),
                "actor": {"id": _email(n)},
                "content": _text(n),
                "metadata": {"thread_id": f"t{n // 4}"},
            }
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


FORMATS = {
    "jsonl (baseline)": (write_jsonl, "jsonl"),
    "mbox": (write_mbox, "mbox"),
    "markdown": (write_markdown, "markdown"),
    "csv": (write_csv, "csv"),
    "slack": (write_slack, "slack"),
    "chatgpt": (write_chatgpt, "chatgpt"),
}


def measure(path: Path, fmt: str, folder: Path, run: int) -> dict[str, float]:
    started = time.perf_counter()
    _, source = open_path(path, fmt)
    parsed = sum(1 for item in source.records if isinstance(item, Record))
    parse_seconds = time.perf_counter() - started
    settings = Settings(data_dir=folder / f"store-{fmt}-{run}", embedder="none", classify_intents=False)
    with Memory.open(settings=settings) as memory:
        started = time.perf_counter()
        stats = memory.import_file(path, fmt)
        seconds = time.perf_counter() - started
        started = time.perf_counter()
        again = memory.import_file(path, fmt)
        again_seconds = time.perf_counter() - started
    assert stats.created == parsed and again.deduplicated == parsed and not stats.problems
    return {
        "episodes": parsed,
        "parse_per_s": parsed / parse_seconds,
        "import_per_s": parsed / seconds,
        "again_per_s": parsed / again_seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="100 episodes per format.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.episodes = 100
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        warm = folder / "warm-up"
        warm.mkdir()
        for write, fmt in FORMATS.values():  # imports, jieba's dictionary, regex compilation: not measured
            measure(write(warm / fmt if (warm / fmt).mkdir() is None else warm, 8), fmt, warm / fmt, 0)
        for name, (write, fmt) in FORMATS.items():
            sub = folder / fmt
            sub.mkdir()
            path = write(sub, args.episodes)
            runs = [measure(path, fmt, sub, run) for run in range(args.repeat)]
            results[name] = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    if args.json:
        json.dump(results, sys.stdout, indent=2)
        print()
        return
    print(f"{'format':18} {'episodes':>8} {'parse/s':>9} {'import/s':>9} {'again/s':>9}")
    for name, r in results.items():
        print(
            f"{name:18} {r['episodes']:8.0f} {r['parse_per_s']:9,.0f} {r['import_per_s']:9,.0f} "
            f"{r['again_per_s']:9,.0f}"
        )


if __name__ == "__main__":
    main()
