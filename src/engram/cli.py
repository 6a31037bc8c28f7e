"""The ``engram`` command line: a thin shell over Memory (typer + rich)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from engram.config import Settings
from engram.errors import EngramError
from engram.memory import Memory

app = typer.Typer(help="Engram: long-term memory for AI agents.", no_args_is_help=True, add_completion=False)
err = Console(stderr=True)

DataDir = Annotated[
    Path | None,
    typer.Option(
        "--data-dir", help="Directory of the embedded store [default: $ENGRAM_DATA_DIR or ./engram-data]."
    ),
]


def open_memory(data_dir: Path | None) -> Memory:
    """Open the memory the command works on; exits with the error's code on failure."""
    settings = Settings() if data_dir is None else Settings(data_dir=data_dir)
    try:
        return Memory.open(settings=settings)
    except EngramError as exc:
        raise fail(exc) from exc


def fail(exc: EngramError) -> typer.Exit:
    """Print ``exc`` on stderr and return the Exit to raise, carrying its exit code."""
    where = f" ({exc.field})" if exc.field else ""
    err.print(f"[red]error{where}:[/red] {exc.detail}", highlight=False)
    return typer.Exit(exc.exit_code)


@app.command()
def serve(
    data_dir: DataDir = None,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to bind.")] = 8765,
    allow_remote: Annotated[
        bool, typer.Option("--allow-remote", help="Allow binding an address other than loopback.")
    ] = False,
) -> None:
    """Serve REST (/v1, /docs), MCP over streamable HTTP (/mcp) and /metrics."""
    import uvicorn

    from engram.api.app import create_app

    loopback = host in {"127.0.0.1", "localhost", "::1"}
    if not loopback and not allow_remote:
        err.print(f"[red]error (--host):[/red] refusing to bind {host} without --allow-remote")
        raise typer.Exit(2)
    if not loopback:
        err.print("[yellow]warning:[/yellow] no authentication is configured: anyone who reaches this port can "
                  "read and write the memory")
    memory = open_memory(data_dir)
    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    err.print(f"Engram serving {memory.settings.database_path}\n  REST  {base}/v1\n  docs  {base}/docs\n"
              f"  MCP   {base}/mcp", highlight=False)
    try:
        uvicorn.run(create_app(memory), host=host, port=port, log_level="warning")
    finally:
        memory.close()


@app.command()
def mcp(data_dir: DataDir = None) -> None:
    """Serve MCP over stdio (for agent clients that launch a subprocess)."""
    from engram.api.mcp import run_stdio

    memory = open_memory(data_dir)
    try:
        run_stdio(memory)
    finally:
        memory.close()


def main() -> None:
    """Run the CLI."""
    app()


if __name__ == "__main__":
    sys.exit(main())
