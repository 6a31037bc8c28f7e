"""Commands over episodes: ``import``, ``export``, ``search``, ``list``."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, TextIO

import typer
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
from rich.text import Text

from engram.cli.common import (
    CLI_ACTOR,
    ActorOption,
    DataDir,
    GroupOption,
    IntentOption,
    JsonOption,
    SourceOption,
    actor_label,
    app,
    counted,
    err,
    fail,
    note,
    open_memory,
    out,
    show_rows,
    snippet,
    stamp,
    stop_between_batches,
    using_memory,
)
from engram.cli.portable import export_engram, import_engram, looks_like_export
from engram.errors import EngramError, InvalidInput, NotFound
from engram.portable.base import ImportStats
from engram.portable.batch import BatchImporter
from engram.portable.formats import ImportFormat
from engram.portable.importing import open_path, preview, resolve_format
from engram.portable.jsonl import STDIN, jsonl_records
from engram.portable.jsonl_export import export_jsonl


class ExportFormat(StrEnum):
    """Output formats of ``engram export``."""

    jsonl = "jsonl"
    engram = "engram"


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
    transaction committed, so a log or a supervising process knows what is durable. A first
    Ctrl-C stops the import after the batch being stored (``stop_between_batches``).
    """
    with stop_between_batches() as checkpoint, _shown(total, label) as show:

        def acknowledged(stats: ImportStats, size: int) -> None:
            show(stats, size)
            checkpoint()

        yield acknowledged


@contextmanager
def _shown(total: int | None, label: str) -> Iterator[Callable[[ImportStats, int], None]]:
    """Yield the callback that shows a committed batch: a line, or a progress bar on a terminal."""
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
    if path != STDIN and path.is_file() and looks_like_export(path):
        return ImportFormat.engram
    if path == STDIN:
        return ImportFormat.jsonl
    try:
        return resolve_format(path, None)
    except InvalidInput as exc:
        raise fail(exc) from exc


@app.command("import")
def import_(
    path: Annotated[
        Path, typer.Argument(metavar="PATH", help="File or folder to import; - reads JSON Lines from stdin.")
    ],
    fmt: Annotated[
        ImportFormat | None,
        typer.Option("--format", "-f", help="Input format [default: detected from the file or folder]."),
    ] = None,
    group: Annotated[
        str | None,
        typer.Option(
            "--group",
            "-g",
            help="Group to import into: for episodes that name none, and every locomo conversation "
            "[default: the default group; locomo: each conversation's sample id].",
        ),
    ] = None,
    mapping: Annotated[
        Path | None, typer.Option("--mapping", help="csv/json: column mapping (JSON or TOML).")
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Parse and show the first episodes; store nothing (exit 2 if any is unreadable).",
        ),
    ] = False,
    show: Annotated[int, typer.Option("--show", min=0, help="How many episodes --dry-run shows.")] = 5,
    classify: Annotated[
        bool | None,
        typer.Option(
            "--classify/--no-classify",
            help="Classify episodes without an intent [default: yes except jsonl/locomo, if on].",
        ),
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
    """Import episodes from a file or folder, one transaction per batch; re-running is idempotent.

    Formats: ``jsonl`` (one episode object per line, as ``engram export`` writes),
    ``locomo`` (the LoCoMo benchmark JSON), ``engram`` (whole groups from ``engram export
    --format engram``), mail (``mbox``, ``eml`` file or folder, ``maildir``: one episode per
    message), wiki (``markdown`` folder, ``confluence`` or ``notion`` export: one per section),
    tables (``csv``, ``json`` records; ``--mapping`` names the columns, else presets) and chat
    (``slack`` export folder, ``chatgpt`` or ``claude`` conversations.json: one per message).
    Episodes without an intent get one from the intent classifier when it is on.
    A terminal shows a progress bar; otherwise every committed batch prints a
    ``committed N`` line on stderr. A batch is all-or-nothing, so after an error or a
    crash every acknowledged batch is stored: fix the input and run the import again.
    Mail, wiki, table and chat records that cannot be read are skipped and listed (exit 2
    once the rest is stored); ``--dry-run`` lists them too and exits 2, so it checks an input.
    An empty input (an empty file, a folder with nothing in it, empty stdin) or one holding
    no record of its format is an error (exit 2), in every format: nothing is imported.
    ``--group`` fills the group of episodes that name none; LoCoMo conversations each name
    their own (the sample id), and ``--group`` puts them all in the one group instead.
    """
    fmt = fmt or _infer_format(path)
    if path == STDIN and fmt not in (ImportFormat.jsonl, ImportFormat.engram):
        raise fail(InvalidInput("only --format jsonl or engram can be read from stdin", field="--format"))
    if path != STDIN and not path.exists():
        raise fail(InvalidInput(f"no such file or folder: {path}", field="PATH"))
    if fmt is ImportFormat.engram:
        import_engram(path, batch_size, data_dir, _acknowledgements)
        return
    if dry_run:
        _preview(path, fmt, mapping, group, show)
        return
    started = time.perf_counter()
    source = None
    if path != STDIN:  # an input that cannot be read is refused before the store is opened
        try:
            _, source = open_path(path, fmt, mapping=mapping)
        except EngramError as exc:
            raise fail(exc) from exc
        except OSError as exc:
            raise fail(InvalidInput(f"cannot read {path}: {exc}", field="PATH")) from exc
    memory = open_memory(data_dir, overrides={"classify_intents": True} if classify else None)
    stats = ImportStats()
    label = "importing stdin" if path == STDIN else f"importing {path.name}"
    try:
        if path == STDIN:
            importer = BatchImporter(
                memory,
                batch_size=batch_size or memory.settings.import_batch_size,
                actor=CLI_ACTOR,
                classify=bool(classify),
            )
            stats = importer.stats
            with _acknowledgements(None, label) as on_commit:
                importer.on_commit = on_commit
                importer.run(jsonl_records(sys.stdin.buffer, "stdin"))
            if stats.committed == 0:
                raise InvalidInput("stdin: nothing to import: no episode line in it", field="PATH")
        else:
            assert source is not None
            with _acknowledgements(source.total, label) as on_commit:

                def committed(progress: ImportStats, size: int) -> None:
                    nonlocal stats
                    stats = progress
                    on_commit(progress, size)

                stats = memory.import_file(
                    path,
                    fmt,
                    group_id=group,
                    mapping=mapping,
                    batch_size=batch_size,
                    actor=CLI_ACTOR,
                    on_commit=committed,
                    classify=classify,
                )
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
        f"imported {counted(stats.committed, 'episode')} from {path} ({fmt}) into {memory.store.describe()}: "
        f"{stats.created} created, {stats.deduplicated} deduplicated, {stats.batches} batches, "
        f"{seconds:.2f} s, {rate:,.0f} episodes/s"
        + (f"; {counted(len(stats.problems), 'record')} skipped" if stats.problems else "")
    )
    if stats.problems:
        for problem in stats.problems:
            note(f"skipped {problem}")
        raise typer.Exit(2)


def _preview(path: Path, fmt: ImportFormat, mapping: Path | None, group: str | None, show: int) -> None:
    """Print what importing ``path`` would store (the first ``show`` episodes), storing nothing."""
    try:
        chosen, shown, problems, count = preview(path, fmt, mapping=mapping, group_id=group, limit=show)
    except EngramError as exc:
        raise fail(exc) from exc
    except OSError as exc:
        raise fail(InvalidInput(f"cannot read {path}: {exc}", field="PATH")) from exc
    for record in shown:
        episode = record.episode
        actor = (episode.actor.name or episode.actor.id) if episode.actor else "-"
        when = stamp(episode.timestamp) if episode.timestamp else "now"
        out.print(f"{record.where}", style="bold", markup=False, highlight=False)
        intent = episode.intent or "(classified on import)"
        note_lines = [
            f"  id {episode.id or '(new)'} · {when} · {actor} · intent {intent}",
            f"  references: {', '.join(episode.references) or '-'}",
            f"  {snippet(episode.content_text())}",
        ]
        out.print("\n".join(note_lines), markup=False, highlight=False, soft_wrap=True)
    typer.echo(
        f"dry run: {path} ({chosen}) holds {counted(count, 'episode')}"
        + (f" and {counted(len(problems), 'record')} that cannot be read" if problems else "")
        + "; nothing was stored"
    )
    for problem in problems:
        note(f"cannot read {problem}")
    if problems:  # as the import would: the check fails when a record would be skipped
        raise typer.Exit(2)


# -- export ---------------------------------------------------------------------------------------


@app.command()
def export(
    group: Annotated[
        list[str] | None,
        typer.Option("--group", "-g", help="Group to export (repeatable) [default: all groups]."),
    ] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="File to write; - for stdout.")] = STDIN,
    fmt: Annotated[
        ExportFormat, typer.Option("--format", "-f", help="jsonl: current episodes; engram: everything.")
    ] = ExportFormat.jsonl,
    data_dir: DataDir = None,
) -> None:
    """Write groups as JSON Lines: current episodes (``jsonl``) or whole groups (``engram``).

    ``jsonl`` re-imports with ``engram import FILE --format jsonl`` as new episodes.
    ``engram`` is how a group moves between stores: every version of every episode,
    entity and fact, mentions, merge candidates and the operation log, with their ids and
    times; ``engram import FILE`` reproduces them in any store (vectors are embedded again
    by its embedder). A file is written under a temporary name and renamed when complete,
    so a partial export never looks like a finished one.
    """

    def write(handle: TextIO) -> str:
        if fmt is ExportFormat.engram:
            return export_engram(memory, handle, groups)
        return counted(export_jsonl(memory, handle, groups), "episode")

    with using_memory(data_dir, must_exist=True) as memory:
        groups = [memory.group(g) for g in group] if group else memory.groups()
        missing = sorted(set(groups) - set(memory.groups()))
        if missing:
            raise fail(NotFound(f"no episodes in group {missing[0]!r}", field="--group"))
        if output == STDIN:
            written = write(sys.stdout)
            sys.stdout.flush()
        else:
            partial = output.with_name(f".{output.name}.partial")
            try:
                with partial.open("w", encoding="utf-8") as handle:
                    written = write(handle)
                partial.replace(output)
            except OSError as exc:
                partial.unlink(missing_ok=True)
                raise InvalidInput(f"cannot write {output}: {exc}", field="--output") from exc
    where = "stdout" if output == STDIN else str(output)
    note(f"exported {written} from {counted(len(groups), 'group')} to {where}")


# -- search, list ----------------------------------------------------------------------------------

TIME_FORMATS = ["%Y-%m-%d"] + [
    f"%Y-%m-%d{sep}%H:%M:%S{part}{zone}" for sep in "T " for part in ("", ".%f") for zone in ("", "%z")
]
"""ISO 8601 as --known-at and --as-of read it: a copied ``recorded_at`` (…+00:00, Z) or naive UTC."""
KnownAtOption = Annotated[
    datetime | None,
    typer.Option(
        "--known-at",
        formats=TIME_FORMATS,
        help="Read memory as it was at this time (transaction time, UTC; not in the future).",
    ),
]
AsOfOption = Annotated[
    datetime | None,
    typer.Option(
        "--as-of",
        formats=TIME_FORMATS,
        help="Only episodes that had happened by this time (valid time, UTC, inclusive).",
    ),
]


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
    known_at: KnownAtOption = None,
    as_of: AsOfOption = None,
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
                "known_at": known_at,
                "as_of": as_of,
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
            stamp(hit.episode.timestamp),
            actor_label(hit.episode),
            snippet(hit.episode.content),
        )
        for hit in response.results
    ]
    show_rows(rows, ("score", "citation", "timestamp", "actor", "content"))


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
    known_at: KnownAtOption = None,
    as_of: AsOfOption = None,
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
            known_at=known_at,
            as_of=as_of,
        )
    if as_json:
        typer.echo(page.model_dump_json(indent=2))
        return
    rows = [(stamp(e.timestamp), e.id, actor_label(e), snippet(e.content)) for e in page.items]
    if rows:
        show_rows(rows, ("timestamp", "id", "actor", "content"))
    else:
        note("no episodes")
    if page.next_cursor:
        note(f"more: --cursor {page.next_cursor}")
