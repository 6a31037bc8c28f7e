"""The ``engram`` command line: a thin shell over Memory (typer + rich).

Every command takes ``--data-dir`` (default ``$ENGRAM_DATA_DIR`` or ``./engram-data``).
Results go to stdout; progress, warnings and errors to stderr. An ``EngramError`` becomes a
one-line message naming the field and the error's exit code (``engram.errors``): 2 bad
input, 3 not found, 4 conflict, 5 store unusable; 130 when interrupted.
"""

from __future__ import annotations

from engram.cli import episodes, history, maintenance, references, server  # noqa: F401  (each registers its commands)
from engram.cli.bench import bench_app, reembed, reextract
from engram.cli.common import app
from engram.cli.intents import intents_app
from engram.cli.keys import keys_app

app.add_typer(bench_app, name="bench")
app.add_typer(intents_app, name="intents")
app.add_typer(keys_app, name="keys")
app.command()(reembed)
app.command()(reextract)

__all__ = ["app", "main"]


def main() -> None:
    """Run the CLI."""
    app()
