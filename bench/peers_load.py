"""Load generators for bench/peers.py: N client threads in process, N HTTP connections, RSS.

Closed loop: each client sends its next request when the previous one answered, for a fixed
time; QPS = completed requests / wall time, latency percentiles nearest-rank over every
completed request (bench/_common.py). The HTTP client is httpx's AsyncClient, one
connection per client, in this process: its own cost shares the 2 cores with the server, so
every HTTP run is printed beside the same client against ``GET /healthz`` (the client's and
the framework's ceiling on this machine).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx

from _common import summarize


def _result(wall: float, durations: list[float], errors: list[str], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"qps": len(durations) / wall if wall else 0.0, "completed": len(durations)}
    if durations:
        stats = summarize(durations)
        out.update({"p50": stats["p50"], "p95": stats["p95"], "p99": stats["p99"]})
    out["errors"] = len(errors)
    if errors:
        out["first_error"] = errors[0]
    return {**out, **extra}


def threads_qps(
    fn: Callable[..., object], calls: Sequence[tuple[Any, ...]], clients: int, seconds: float
) -> dict[str, Any]:
    """Run ``clients`` threads calling ``fn(*call)`` round-robin over ``calls`` for ``seconds``."""
    durations: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    go = threading.Event()
    stop_at = [0.0]

    def client(offset: int) -> None:
        mine: list[float] = []
        index = offset
        go.wait()
        while time.perf_counter() < stop_at[0]:
            call = calls[index % len(calls)]
            index += clients
            start = time.perf_counter()
            try:
                fn(*call)
            except Exception as exc:  # noqa: BLE001 - a failing call is counted and shown, not fatal
                with lock:
                    errors.append(repr(exc)[:300])
                continue
            mine.append(time.perf_counter() - start)
        with lock:
            durations.extend(mine)

    workers = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for worker in workers:
        worker.start()
    began = time.perf_counter()
    stop_at[0] = began + seconds
    go.set()
    for worker in workers:
        worker.join()
    return _result(time.perf_counter() - began, durations, errors, clients=clients)


def process_cpu_seconds(pid: int) -> float:
    """Return the user + system CPU seconds process ``pid`` has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def http_qps(
    base: str,
    requests: Sequence[tuple[str, str, Any]],
    clients: int,
    seconds: float,
    server_pid: int | None = None,
) -> dict[str, Any]:
    """Send ``requests`` (method, path, JSON body) round-robin from ``clients`` connections for ``seconds``.

    Non-2xx answers count as errors. With ``server_pid``, the server's CPU milliseconds per
    completed request are reported too.
    """

    async def run() -> dict[str, Any]:
        durations: list[float] = []
        errors: list[str] = []
        limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
        async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120.0) as client:
            for method, path, body in requests[: min(len(requests), clients)]:  # open the connections
                await client.request(method, path, json=body)
            stop_at = time.perf_counter() + seconds

            async def one(offset: int) -> None:
                index = offset
                while time.perf_counter() < stop_at:
                    method, path, body = requests[index % len(requests)]
                    index += clients
                    start = time.perf_counter()
                    try:
                        response = await client.request(method, path, json=body)
                    except httpx.HTTPError as exc:
                        errors.append(repr(exc)[:300])
                        continue
                    if response.status_code >= 300:
                        errors.append(f"{response.status_code}: {response.text[:200]}")
                        continue
                    durations.append(time.perf_counter() - start)

            cpu_before = process_cpu_seconds(server_pid) if server_pid else 0.0
            began = time.perf_counter()
            await asyncio.gather(*(one(i) for i in range(clients)))
            wall = time.perf_counter() - began
            extra: dict[str, Any] = {"clients": clients}
            if server_pid and durations:
                cpu = process_cpu_seconds(server_pid) - cpu_before
                extra["server_cpu_ms_per_request"] = cpu * 1000 / len(durations)
            return _result(wall, durations, errors, **extra)

    return asyncio.run(run())


def rss_mib(pid: int | str = "self") -> dict[str, float]:
    """Return the resident set size now and at its peak (VmRSS, VmHWM) in MiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            name, value = line.split(":", 1)
            fields[name] = int(value.split()[0]) / 1024
    return {"rss_mib": fields.get("VmRSS", 0.0), "peak_rss_mib": fields.get("VmHWM", 0.0)}
