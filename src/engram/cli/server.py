"""Commands that serve the memory or check it: ``serve``, ``mcp``, ``doctor``."""

from __future__ import annotations

import os
import platform
import secrets
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any

import apsw
import typer

from engram import __version__
from engram.cli.common import (
    DataDir,
    app,
    err,
    fail,
    load_settings,
    open_memory,
    using_memory,
)
from engram.errors import EngramError, InvalidInput, StoreError

# -- serve, mcp ------------------------------------------------------------------------------------

WORKER_HEALTHCHECK_SECONDS = 60
SERVER_OPTIONS: dict[str, Any] = {
    "log_level": "warning",
    "timeout_graceful_shutdown": 5,
    "http": "engram.api.strict_http:StrictHttpToolsProtocol",
}
"""uvicorn's options for every serve. HTTP is parsed by httptools, refusing what RFC 9112 says a
server must and h11 does (two Host headers, an absolute-form target): engram.api.strict_http."""


@app.command()
def serve(
    data_dir: DataDir = None,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to bind.")] = 8765,
    allow_remote: Annotated[
        bool,
        typer.Option(
            "--allow-remote",
            help="Start on a non-loopback address before any API key exists (every request but "
            "/healthz and /metrics is refused until `engram keys create` makes one).",
        ),
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Worker processes sharing the port and the database (one per core is the useful most).",
        ),
    ] = 1,
) -> None:
    """Serve REST (/v1, /docs), MCP over streamable HTTP (/mcp), the console (/admin) and /metrics.

    On loopback (the default) with no API key, the machine's own user is the administrator.
    Any other address needs API keys: `engram serve` refuses to start (exit 2) until one exists,
    unless --allow-remote. With --workers N, uvicorn runs N processes on one port, each with its
    own memory over the same database (engram.api.workers).
    """
    import uvicorn

    from engram.api.app import LOOPBACK, create_app
    from engram.api.edge import ALL_INTERFACES

    memory = open_memory(data_dir, serving=workers == 1)
    try:
        if host not in LOOPBACK and not allow_remote and not memory.keys.configured():
            raise InvalidInput(
                f"refusing to serve {host} without API keys: anyone who reaches it could read and change "
                "the memory. Create a key first (`engram keys create --role admin --all-groups`), bind "
                "127.0.0.1, or pass --allow-remote to start refusing every request until a key exists",
                field="--host",
            )
        application = create_app(memory, host=host)
    except EngramError as exc:
        memory.close()
        raise fail(exc) from exc
    if host.strip("[]") in ALL_INTERFACES and not memory.settings.trusted_hosts:
        err.print(
            f"[yellow]warning:[/yellow] bound to {host}, which names no host: requests are served only "
            "when their Host header is a loopback name; list the names clients use in ENGRAM_TRUSTED_HOSTS"
        )
    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    if memory.keys.configured():
        access = "API keys (Authorization: Bearer <key>)"
    elif host in LOOPBACK:
        access = "no API keys: this machine's own users are the administrator"
    else:
        access = "no API keys yet: every request is refused until `engram keys create` makes one"
    err.print(
        f"Engram serving {memory.store.describe()}\n  REST  {base}/v1\n  docs  {base}/docs\n"
        f"  MCP   {base}/mcp\n  console {base}/admin\n  access  {access}"
        + (f"\n  workers {workers} processes" if workers > 1 else ""),
        highlight=False,
    )
    if workers > 1:
        memory.close()  # each worker opens its own; this one only checked the store and the keys
        _serve_workers(data_dir, host, port, workers)
        return
    try:
        uvicorn.run(application, host=host, port=port, **SERVER_OPTIONS)
    finally:
        memory.close()


def _serve_workers(data_dir: Path | None, host: str, port: int, workers: int) -> None:
    """Run ``workers`` uvicorn worker processes on the app factory, with their metrics in one directory
    and one console secret (a random one unless ENGRAM_CONSOLE_SECRET is set)."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from engram.api.listeners import worker_listeners
    from engram.api.workers import HOST_VARIABLE

    if data_dir is not None:
        os.environ["ENGRAM_DATA_DIR"] = str(data_dir.resolve())
    os.environ[HOST_VARIABLE] = host
    # The console's session cookies must verify in whichever worker the next request reaches.
    os.environ.setdefault("ENGRAM_CONSOLE_SECRET", secrets.token_urlsafe(32))
    own_metrics_dir = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
    if own_metrics_dir:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="engram-metrics-")
    try:
        config = uvicorn.Config(
            "engram.api.workers:app_from_environment",
            factory=True,
            workers=workers,
            host=host,
            port=port,
            **SERVER_OPTIONS,
            # uvicorn kills a worker that does not answer its ping in time; a worker importing
            # Engram and opening the store on a busy machine takes well over the default 5 s.
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
        )
        # What uvicorn.run does for workers, with a listening socket per worker (Linux).
        Multiprocess(config, sockets=worker_listeners(config)).run()
    finally:
        if own_metrics_dir:
            shutil.rmtree(os.environ.pop("PROMETHEUS_MULTIPROC_DIR"), ignore_errors=True)


@app.command()
def mcp(data_dir: DataDir = None) -> None:
    """Serve MCP over stdio (for agent clients that launch a subprocess)."""
    from engram.api.mcp.server import run_stdio

    memory = open_memory(data_dir, serving=True)
    try:
        run_stdio(memory)
    finally:
        memory.close()


# -- doctor ---------------------------------------------------------------------------------------


@app.command()
def doctor(data_dir: DataDir = None) -> None:
    """Print versions, the data directory, schema version, row counts and an integrity check.

    Exits 0 when the store is healthy, 5 when the integrity check fails.
    """
    import jieba

    lines: list[tuple[str, str]] = [
        ("engram", __version__),
        ("python", f"{platform.python_version()} ({sys.executable})"),
        ("sqlite", f"{apsw.sqlite_lib_version()} (apsw {apsw.apsw_version()})"),
        ("jieba", str(jieba.__version__)),
    ]
    settings = load_settings(data_dir)
    origin = (
        "--data-dir"
        if data_dir is not None
        else ("$ENGRAM_DATA_DIR" if os.environ.get("ENGRAM_DATA_DIR") else "default")
    )
    lines.append(("data dir", f"{settings.data_dir.resolve()} (from {origin})"))
    _print_pairs(lines)
    with using_memory(data_dir, must_exist=True) as memory:
        store = memory.store
        facts: list[tuple[str, str]] = [
            ("database", store.describe()),
            ("schema version", str(store.schema_version())),
            ("default group", settings.default_group),
        ]
        facts += [(name.replace("_", " "), str(count)) for name, count in store.counts().items()]
        verdict = store.integrity_check()
    facts.append(("integrity check", verdict or "not available for this store"))
    _print_pairs(facts)
    if verdict is not None and verdict != "ok":
        raise fail(StoreError(f"integrity check failed: {verdict}", field="database"))


def _print_pairs(pairs: list[tuple[str, str]]) -> None:
    for name, value in pairs:
        typer.echo(f"{name:<17}{value}")
