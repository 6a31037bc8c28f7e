"""Benchmark the per-request cost of API key checking, beside requests with no check, in one run.

Two uvicorn servers (subprocesses, as ``engram serve`` runs the app) share one SQLite store
holding ``--keys`` API keys and a few episodes:

- ``open``: ``create_app(memory, authenticate=open_access)``: no key check at all (the baseline);
- ``keyed``: ``create_app(memory)``: the server's own check (engram.api.auth.KeyAuthenticator):
  SHA-256 of the bearer key, one indexed read of ``api_keys`` by digest, ``last_used_at``
  written at most once a minute.

The client (httpx, keep-alive, this process) sends the same request, GET
/v1/episodes?limit=1, alternately to both servers so they see the same machine load: to
``open`` without a key, to ``keyed`` with a valid key, and, as a third series, to ``keyed``
with an unknown key (the 401 path). Then ``Keyring.verify`` alone, in process (the check
without HTTP). Figures are wall-clock ms.

Usage: .venv/bin/python bench/keys_bench.py [--requests N] [--keys K] [--json]
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

import _common
from _common import engram_settings, summarize


def serve(data_dir: str, port: int, mode: str) -> None:
    """Run the app (``open`` or ``keyed``) on 127.0.0.1:port until killed."""
    import uvicorn

    from engram.api.app import create_app
    from engram.api.edge import open_access
    from engram.memory import Memory

    memory = Memory.open(settings=engram_settings(data_dir), background_indexing=False)
    app = create_app(memory, authenticate=open_access) if mode == "open" else create_app(memory)
    try:
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
    finally:
        memory.close()


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def prepare(data_dir: Path, keys: int) -> str:
    """Create the store with ``keys`` API keys and 20 episodes; return the secret of one key."""
    from engram.memory import Memory

    with Memory.open(settings=engram_settings(data_dir), background_indexing=False) as memory:
        memory.create_episodes([{"content": f"note {n} about the kiln schedule"} for n in range(20)])
        secrets = [memory.keys.create("read", ["default"], f"key-{n:05d}").secret for n in range(keys)]
    return secrets[len(secrets) // 2]


def start(data_dir: Path, mode: str) -> tuple[subprocess.Popen[bytes], str]:
    """Start a server subprocess; return it and its base URL once /healthz answers."""
    port = free_port()
    command = [sys.executable, __file__, "--serve", str(data_dir), str(port), mode]
    process = subprocess.Popen(command)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the {mode} server exited"
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError(f"the {mode} server did not answer")


def measure(requests: int, keys: int) -> dict[str, Any]:
    """Run the benchmark; return its figures."""
    from engram.memory import Memory

    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        secret = prepare(data_dir, keys)
        servers = [start(data_dir, "open"), start(data_dir, "keyed")]
        try:
            (_, open_base), (_, keyed_base) = servers
            series: dict[str, list[float]] = {
                "open, no key": [],
                "keyed, valid key": [],
                "keyed, unknown key": [],
            }
            calls = {
                "open, no key": (open_base, {}, 200),
                "keyed, valid key": (keyed_base, {"Authorization": f"Bearer {secret}"}, 200),
                "keyed, unknown key": (keyed_base, {"Authorization": "Bearer ek_" + "x" * 43}, 401),
            }
            with httpx.Client(timeout=30) as client:
                for n in range(requests + 50):
                    for name, (base, headers, status) in calls.items():
                        began = time.perf_counter()
                        answer = client.get(f"{base}/v1/episodes", params={"limit": 1}, headers=headers)
                        took = time.perf_counter() - began
                        assert answer.status_code == status, (name, answer.status_code, answer.text)
                        if n >= 50:  # warm-up
                            series[name].append(took)
        finally:
            for process, _ in servers:
                process.terminate()
                process.wait(timeout=30)
        with Memory.open(settings=engram_settings(data_dir), background_indexing=False) as memory:
            for _ in range(50):
                memory.keys.verify(secret)
            verify: list[float] = []
            for _ in range(requests):
                began = time.perf_counter()
                assert memory.keys.verify(secret) is not None
                verify.append(time.perf_counter() - began)
    figures = {name: summarize(values) for name, values in series.items()}
    figures["Keyring.verify alone (in process)"] = summarize(verify)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=1000, help="timed requests per series")
    parser.add_argument("--keys", type=int, default=1000, help="API keys in the store")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve", nargs=3, metavar=("DATA_DIR", "PORT", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), args.serve[2])
        return
    info = _common.machine()
    figures = measure(args.requests, args.keys)
    if args.json:
        print(json.dumps({"machine": info, "figures": figures}, indent=2))
        return
    _common.print_machine(info)
    rows = [{"series": name, **values} for name, values in figures.items()]
    title = (
        f"GET /v1/episodes?limit=1, {args.requests} requests per series, {args.keys} keys in the store (ms)"
    )
    _common.print_table(rows, ["series", "mean", "p50", "p95", "p99"], title, digits=3)
    base, keyed = figures["open, no key"], figures["keyed, valid key"]
    print(
        f"\nkey check overhead per request: mean {keyed['mean'] - base['mean']:+.3f} ms, "
        f"p50 {keyed['p50'] - base['p50']:+.3f} ms"
    )


if __name__ == "__main__":
    main()
