"""Shared pieces of the CLI: the typer app, consoles, options, opening the memory, error exits.

Every command takes ``--data-dir`` (default ``$ENGRAM_DATA_DIR`` or ``./engram-data``).
Results go to stdout; progress, warnings and errors to stderr. An ``EngramError`` becomes a
one-line message naming the field and the error's exit code (``engram.errors``): 2 bad
input, 3 not found, 4 conflict, 5 store unusable; 130 when interrupted.
"""

from __future__ import annotations

import getpass
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import FrameType
from typing import Annotated

import apsw
import typer
from pydantic import ValidationError
from pydantic_settings import SettingsError
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from engram.config import Settings
from engram.errors import EngramError, InvalidInput, StoreError
from engram.memory import Memory
from engram.models.episodes import Episode

app = typer.Typer(
    help="Engram: long-term memory for AI agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    rich_markup_mode="markdown",
)
PIPED_WIDTH = 200
"""Columns of output written to a pipe or file (rich would assume 80 and fold every table)."""
err = Console(stderr=True)
out = Console(width=None if sys.stdout.isatty() or "COLUMNS" in os.environ else PIPED_WIDTH)


def _cli_actor() -> str:
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):  # no user name in the environment or the password database
        return "cli"


CLI_ACTOR = _cli_actor()
"""The actor recorded on operations made through the CLI: ``cli:<login name>``."""
SNIPPET_CHARS = 160
TEXT_MIN_WIDTH = 24

DataDir = Annotated[
    Path | None,
    typer.Option(
        "--data-dir", help="Directory of the embedded store [default: $ENGRAM_DATA_DIR or ./engram-data]."
    ),
]
GroupOption = Annotated[
    str | None,
    typer.Option("--group", "-g", help="Group to read (e.g. conv-26) [default: the default group]."),
]
IntentOption = Annotated[list[str] | None, typer.Option("--intent", help="Only these intents (repeatable).")]
SourceOption = Annotated[list[str] | None, typer.Option("--source", help="Only these sources (repeatable).")]
ActorOption = Annotated[list[str] | None, typer.Option("--actor", help="Only these actor ids (repeatable).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


# -- shared helpers -------------------------------------------------------------------------------


def fail(exc: EngramError) -> typer.Exit:
    """Print ``exc`` on stderr and return the Exit to raise, carrying its exit code."""
    where = f" ({exc.field})" if exc.field else ""
    err.print(f"[red]error{escape(where)}:[/red] {escape(exc.detail)}", highlight=False, soft_wrap=True)
    return typer.Exit(exc.exit_code)


def note(message: str) -> None:
    """Print ``message`` on stderr as plain text (no markup: paths and content may hold brackets)."""
    err.print(message, markup=False, highlight=False, soft_wrap=True)


def load_settings(data_dir: Path | None) -> Settings:
    """Return the settings (environment ``ENGRAM_*`` plus ``--data-dir``); exits 2 when invalid."""
    try:
        return Settings() if data_dir is None else Settings(data_dir=data_dir)
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "ENGRAM_" + "_".join(str(part) for part in first["loc"]).upper()
        raise fail(InvalidInput(f"{first['msg']} (got {first.get('input')!r})", field=name)) from exc
    except SettingsError as exc:  # e.g. a nested setting that is not valid JSON
        raise fail(InvalidInput(str(exc), field="ENGRAM_*")) from exc


def open_memory(
    data_dir: Path | None,
    *,
    must_exist: bool = False,
    serving: bool = False,
    overrides: dict[str, object] | None = None,
) -> Memory:
    """Open the memory the command works on; exits with the error's code on failure.

    With ``must_exist`` a missing SQLite database is an error rather than created (read
    commands); a PostgreSQL database (``ENGRAM_DATABASE_URL``) is always created or migrated.
    Only ``serving`` commands embed pending episodes in the background; the others stay
    read-only and quick.
    """
    settings = load_settings(data_dir)
    if overrides:
        settings = settings.model_copy(update=overrides)
    directory = settings.data_dir
    try:
        if settings.database_url is not None:
            return Memory.open(settings=settings, background_indexing=serving, defer_extractor=not serving)
        if directory.exists() and not directory.is_dir():
            raise InvalidInput(f"{directory} is a file, not a directory", field="--data-dir")
        if must_exist and not settings.database_path.is_file():
            raise InvalidInput(
                f"no Engram database at {settings.database_path}; `engram import` or `engram serve` "
                "creates one (or pass --data-dir)",
                field="--data-dir",
            )
        return Memory.open(settings=settings, background_indexing=serving, defer_extractor=not serving)
    except EngramError as exc:
        raise fail(exc) from exc
    except OSError as exc:
        raise fail(StoreError(f"cannot open {settings.database_path}: {exc}", field="--data-dir")) from exc
    except apsw.Error as exc:
        raise fail(StoreError(f"cannot open {settings.database_path}: {exc}", field="--data-dir")) from exc


@contextmanager
def using_memory(data_dir: Path | None, *, must_exist: bool = False) -> Iterator[Memory]:
    """Yield an open Memory; close it at the end and turn an EngramError into its exit code."""
    memory = open_memory(data_dir, must_exist=must_exist)
    try:
        yield memory
    except EngramError as exc:
        raise fail(exc) from exc
    finally:
        memory.close()


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """Return ``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """Return ``"1 episode"`` / ``"3 episodes"`` (``plural`` when adding "s" is wrong)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def actor_label(episode: Episode) -> str:
    if episode.actor is None:
        return ""
    return episode.actor.name or episode.actor.id


def stamp(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S")


def show_rows(rows: Iterable[Sequence[str]], headers: Sequence[str]) -> None:
    """Print ``rows`` as a table whose last column (the text) wraps and the others stay on one line.

    When the one-line columns leave the text fewer than ``TEXT_MIN_WIDTH`` characters (a
    narrow terminal), print each row as a header line and the text indented below it instead.
    """
    rows = [tuple(row) for row in rows]
    widths = [
        max([cell_len(header), *(cell_len(row[i]) for row in rows)]) for i, header in enumerate(headers[:-1])
    ]
    if sum(widths) + 3 * len(headers) + 1 + TEXT_MIN_WIDTH <= out.width:
        table = Table(show_lines=False)
        for header in headers[:-1]:
            table.add_column(header, no_wrap=True)
        table.add_column(headers[-1], overflow="fold", ratio=1)
        for row in rows:
            table.add_row(*(Text(cell) for cell in row))
        out.print(table)
        return
    for row in rows:
        out.print(Text("  ".join(cell for cell in row[:-1] if cell), style="bold"))
        out.print(Padding(Text(row[-1]), (0, 0, 0, 4), expand=False))


@contextmanager
def stop_between_batches() -> Iterator[Callable[[], None]]:
    """Yield a checkpoint to call after each committed batch: it raises KeyboardInterrupt once
    Ctrl-C was pressed. The first Ctrl-C lets the batch being stored finish, its graph included
    (interrupted between its commit and its graph, a batch's episodes would stay without a graph:
    importing again skips them as duplicates); a second stops at once. Outside the main thread
    (no signal handler can be set there) the checkpoint does nothing and Ctrl-C acts as usual.
    """
    requested = False

    def checkpoint() -> None:
        if requested:
            raise KeyboardInterrupt

    def on_interrupt(signum: int, frame: FrameType | None) -> None:
        nonlocal requested
        if requested:
            raise KeyboardInterrupt
        requested = True
        note("stopping after the batch being stored (Ctrl-C again to stop now)")

    if threading.current_thread() is not threading.main_thread():
        yield checkpoint
        return
    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield checkpoint
    finally:
        signal.signal(signal.SIGINT, previous)
