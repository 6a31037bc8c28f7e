"""The ``engram`` command line: a thin shell over Memory (typer + rich).

Every command takes ``--data-dir`` (default ``$ENGRAM_DATA_DIR`` or ``./engram-data``).
Results go to stdout; progress, warnings and errors to stderr. An ``EngramError`` becomes a
one-line message naming the field and the error's exit code (``engram.errors``): 2 bad
input, 3 not found, 4 conflict, 5 store unusable; 130 when interrupted.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import apsw
import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from engram import __version__
from engram.config import Settings
from engram.errors import EngramError, InvalidInput, StoreError
from engram.importers.base import ImportSource
from engram.importers.batch import BatchImporter, ImportStats
from engram.importers.export import export_jsonl
from engram.importers.jsonl import STDIN, read_jsonl
from engram.importers.locomo import read_locomo
from engram.memory import Memory
from engram.models import Episode
from engram.store.sqlite import SQLiteStore

app = typer.Typer(
    help="Engram: long-term memory for AI agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    rich_markup_mode="markdown",
)
err = Console(stderr=True)
out = Console()

CLI_ACTOR = "cli"
"""The actor recorded on operations made through the CLI."""
SNIPPET_CHARS = 160

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


class ImportFormat(StrEnum):
    """Input formats of ``engram import``."""

    jsonl = "jsonl"
    locomo = "locomo"


IMPORTERS: dict[ImportFormat, Callable[[Path], ImportSource]] = {
    ImportFormat.jsonl: read_jsonl,
    ImportFormat.locomo: read_locomo,
}


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


def open_memory(data_dir: Path | None, *, must_exist: bool = False) -> Memory:
    """Open the memory the command works on; exits with the error's code on failure.

    With ``must_exist`` a missing database is an error rather than created (read commands).
    """
    settings = load_settings(data_dir)
    directory = settings.data_dir
    try:
        if directory.exists() and not directory.is_dir():
            raise InvalidInput(f"{directory} is a file, not a directory", field="--data-dir")
        if must_exist and not settings.database_path.is_file():
            raise InvalidInput(
                f"no Engram database at {settings.database_path}; `engram import` or `engram serve` "
                "creates one (or pass --data-dir)",
                field="--data-dir",
            )
        return Memory.open(settings=settings)
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


def _actor_label(episode: Episode) -> str:
    if episode.actor is None:
        return ""
    return episode.actor.name or episode.actor.id


def _stamp(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S")


# -- serve, mcp ------------------------------------------------------------------------------------


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
        err.print(
            "[yellow]warning:[/yellow] no authentication is configured: anyone who reaches this port can "
            "read and write the memory"
        )
    memory = open_memory(data_dir)
    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    err.print(
        f"Engram serving {memory.settings.database_path}\n  REST  {base}/v1\n  docs  {base}/docs\n"
        f"  MCP   {base}/mcp",
        highlight=False,
    )
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


# -- import ---------------------------------------------------------------------------------------


class _RateColumn(ProgressColumn):
    """Show the import rate in episodes per second."""

    def render(self, task: Task) -> Text:
        """Return the task's speed as text."""
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f} episodes/s", style="progress.data.speed")


@contextmanager
def _acknowledgements(total: int | None, label: str) -> Iterator[Callable[[ImportStats, int], None]]:
    """Yield the per-batch callback: a progress bar on a terminal, else a "committed" line per batch.

    The line (``committed <records so far>[/<total>] ...``) is printed after the batch's
    transaction committed, so a log or a supervising process knows what is durable.
    """
    if not err.is_terminal:

        def log(stats: ImportStats, size: int) -> None:
            of = "" if total is None else f"/{total}"
            print(
                f"committed {stats.committed}{of} (batch {stats.batches}: {size} records; "
                f"created {stats.created}, deduplicated {stats.deduplicated})",
                file=sys.stderr,
                flush=True,
            )

        yield log
        return
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err) as progress:
        task = progress.add_task(label, total=total)
        yield lambda stats, size: progress.update(task, completed=stats.committed)


def _infer_format(path: Path) -> ImportFormat:
    if path == STDIN or path.suffix.lower() in {".jsonl", ".ndjson"}:
        return ImportFormat.jsonl
    raise fail(
        InvalidInput(f"cannot tell the format of {path}; pass --format jsonl or locomo", field="--format")
    )


@app.command("import")
def import_(
    path: Annotated[
        Path, typer.Argument(metavar="PATH", help="File to import; - reads JSON Lines from stdin.")
    ],
    fmt: Annotated[
        ImportFormat | None,
        typer.Option("--format", "-f", help="Input format [default: jsonl for .jsonl/.ndjson files]."),
    ] = None,
    batch_size: Annotated[
        int | None,
        typer.Option(
            "--batch-size",
            min=1,
            help="Episodes per transaction [default: $ENGRAM_IMPORT_BATCH_SIZE or 500].",
        ),
    ] = None,
    data_dir: DataDir = None,
) -> None:
    """Import episodes from a file, one transaction per batch; re-running is idempotent.

    Formats: ``jsonl`` (one episode object per line, as ``engram export`` writes) and
    ``locomo`` (the LoCoMo benchmark JSON: one episode per turn, group = sample id).
    A terminal shows a progress bar; otherwise every committed batch prints a
    ``committed N`` line on stderr. A batch is all-or-nothing, so after an error or a
    crash every acknowledged batch is stored: fix the input and run the import again.
    """
    fmt = fmt or _infer_format(path)
    if path == STDIN and fmt is not ImportFormat.jsonl:
        raise fail(InvalidInput("only --format jsonl can be read from stdin", field="--format"))
    if path != STDIN and not path.is_file():
        raise fail(InvalidInput(f"no such file: {path}", field="PATH"))
    started = time.perf_counter()
    memory = open_memory(data_dir)
    importer = BatchImporter(
        memory, batch_size=batch_size or memory.settings.import_batch_size, actor=CLI_ACTOR
    )
    stats = importer.stats
    try:
        source = IMPORTERS[fmt](path)
        label = "importing stdin" if path == STDIN else f"importing {path.name}"
        with _acknowledgements(source.total, label) as on_commit:
            importer.on_commit = on_commit
            importer.run(source.records)
    except EngramError as exc:
        exit_ = fail(exc)
        if stats.batches:
            note(
                f"{counted(stats.committed, 'record')} in {counted(stats.batches, 'batch', 'batches')} "
                "were committed before the error; "
                "the failing batch was not written. Importing again is idempotent."
            )
        raise exit_ from exc
    except KeyboardInterrupt:
        note(f"interrupted: {stats.committed} records committed; run the same import again to finish.")
        raise typer.Exit(130) from None
    except OSError as exc:
        raise fail(InvalidInput(f"cannot read {path}: {exc}", field="PATH")) from exc
    finally:
        memory.close()
    seconds = time.perf_counter() - started
    rate = stats.committed / seconds if seconds > 0 else 0.0
    typer.echo(
        f"imported {counted(stats.committed, 'episode')} from {path} into {memory.settings.database_path}: "
        f"{stats.created} created, {stats.deduplicated} deduplicated, {stats.batches} batches, "
        f"{seconds:.2f} s, {rate:,.0f} episodes/s"
    )


# -- export ---------------------------------------------------------------------------------------


@app.command()
def export(
    group: Annotated[
        list[str] | None,
        typer.Option("--group", "-g", help="Group to export (repeatable) [default: all groups]."),
    ] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="File to write; - for stdout.")] = STDIN,
    data_dir: DataDir = None,
) -> None:
    """Write current episodes as JSON Lines, re-importable with ``engram import FILE --format jsonl``.

    A file is written under a temporary name and renamed when complete, so a partial
    export never looks like a finished one.
    """
    with using_memory(data_dir, must_exist=True) as memory:
        groups = [memory.group(g) for g in group] if group else memory.groups()
        if output == STDIN:
            written = export_jsonl(memory, sys.stdout, groups)
            sys.stdout.flush()
        else:
            partial = output.with_name(f".{output.name}.partial")
            try:
                with partial.open("w", encoding="utf-8") as handle:
                    written = export_jsonl(memory, handle, groups)
                partial.replace(output)
            except OSError as exc:
                partial.unlink(missing_ok=True)
                raise InvalidInput(f"cannot write {output}: {exc}", field="--output") from exc
    where = "stdout" if output == STDIN else str(output)
    note(f"exported {counted(written, 'episode')} from {counted(len(groups), 'group')} to {where}")


# -- search, list ----------------------------------------------------------------------------------


def _episode_table(rows: Sequence[tuple[str, ...]], headers: tuple[str, ...]) -> Table:
    """Return a table of ``rows``; every column but the last (the content) stays on one line."""
    table = Table(show_lines=False)
    for position, header in enumerate(headers):
        last = position == len(headers) - 1
        table.add_column(
            header, no_wrap=not last, overflow="fold" if last else "ellipsis", ratio=1 if last else None
        )
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    return table


@app.command()
def search(
    query: Annotated[
        str, typer.Argument(help="Words to look for (empty: newest episodes matching the filters).")
    ],
    group: GroupOption = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=100, help="Most results to show.")] = 10,
    intent: IntentOption = None,
    source: SourceOption = None,
    actor: ActorOption = None,
    as_json: JsonOption = False,
    data_dir: DataDir = None,
) -> None:
    """Search episodes of one group: score, citation, timestamp, actor and a snippet per hit."""
    with using_memory(data_dir, must_exist=True) as memory:
        response = memory.search_episodes(
            {
                "query": query,
                "group_id": group,
                "filters": {"intent": intent or [], "source": source or [], "actor_id": actor or []},
                "limit": limit,
            }
        )
    for warning in response.warnings:
        err.print(f"[yellow]warning:[/yellow] {escape(warning)}", highlight=False)
    if as_json:
        typer.echo(response.model_dump_json(indent=2))
        return
    if not response.results:
        note("no results")
        return
    rows = [
        (
            f"{hit.score:.4f}",
            hit.citation,
            _stamp(hit.episode.timestamp),
            _actor_label(hit.episode),
            snippet(hit.episode.content),
        )
        for hit in response.results
    ]
    out.print(_episode_table(rows, ("score", "citation", "timestamp", "actor", "content")))


@app.command("list")
def list_(
    group: GroupOption = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=500, help="Most episodes to show.")] = 20,
    after: Annotated[datetime | None, typer.Option(help="Only at or after this time (UTC).")] = None,
    before: Annotated[datetime | None, typer.Option(help="Only before this time (UTC).")] = None,
    intent: IntentOption = None,
    source: SourceOption = None,
    actor: ActorOption = None,
    cursor: Annotated[str | None, typer.Option(help="Continue from a previous page's next cursor.")] = None,
    as_json: JsonOption = False,
    data_dir: DataDir = None,
) -> None:
    """List episodes of one group, newest first."""
    with using_memory(data_dir, must_exist=True) as memory:
        page = memory.list_episodes(
            group,
            after=after,
            before=before,
            intent=intent or (),
            source=source or (),
            actor_id=actor or (),
            limit=limit,
            cursor=cursor,
        )
    if as_json:
        typer.echo(page.model_dump_json(indent=2))
        return
    rows = [(_stamp(e.timestamp), e.id, _actor_label(e), snippet(e.content)) for e in page.items]
    if rows:
        out.print(_episode_table(rows, ("timestamp", "id", "actor", "content")))
    else:
        note("no episodes")
    if page.next_cursor:
        note(f"more: --cursor {page.next_cursor}")


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
        size = settings.database_path.stat().st_size
        facts: list[tuple[str, str]] = [
            ("database", f"{settings.database_path.resolve()} ({size / 1024:,.0f} KiB)"),
            ("schema version", str(store.schema_version())),
            ("default group", settings.default_group),
        ]
        facts += [(name.replace("_", " "), str(count)) for name, count in store.counts().items()]
        checked = isinstance(store, SQLiteStore)
        verdict = (
            store.integrity_check() if isinstance(store, SQLiteStore) else "not available for this store"
        )
    facts.append(("integrity check", verdict))
    _print_pairs(facts)
    if checked and verdict != "ok":
        raise fail(StoreError(f"integrity check failed: {verdict}", field="database"))


def _print_pairs(pairs: list[tuple[str, str]]) -> None:
    for name, value in pairs:
        typer.echo(f"{name:<17}{value}")


def main() -> None:
    """Run the CLI."""
    app()


if __name__ == "__main__":
    main()
