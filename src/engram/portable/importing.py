"""Import a file or folder of any episode format into a Memory: detect, parse, batch, report.

The library entry point behind ``engram import`` and ``Memory.import_file``. Formats that hold
many independent records (mail, wiki, tables, chat) keep going past a record they cannot read
or the store refuses, and report it (``ImportStats.problems``, each naming the file and line,
message, record or section); ``jsonl`` and ``locomo`` stop at the first bad line, as before.
An empty input (a file of nothing or only whitespace, a folder without a non-empty file) and one
without any record of its format are refused (InvalidInput, field ``PATH``) in every format:
importing nothing is most likely the wrong file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from engram.errors import InvalidInput
from engram.memory import Memory
from engram.portable.base import ImportSource, ImportStats, Problem, Record
from engram.portable.batch import BatchImporter
from engram.portable.formats import ImportFormat, detect_format, open_source

STRICT = frozenset({ImportFormat.jsonl, ImportFormat.locomo})
"""Formats whose first bad record stops the import (a file of one kind of record, fixed and re-run)."""
OWN_GROUPS = frozenset({ImportFormat.locomo})
"""Formats whose importer puts each record in a group of its own choosing (LoCoMo: the sample id);
an explicit group replaces it."""
_CHUNK = 1 << 16


def resolve_format(path: Path, fmt: ImportFormat | str | None) -> ImportFormat:
    """Return ``fmt`` as an ImportFormat, or the format ``path`` is detected as. Raises InvalidInput."""
    if fmt is not None:
        try:
            return ImportFormat(fmt)
        except ValueError as exc:
            known = ", ".join(f.value for f in ImportFormat)
            raise InvalidInput(f"unknown format {fmt!r}; formats: {known}", field="--format") from exc
    detected = detect_format(path)
    if detected is None:
        known = ", ".join(f.value for f in ImportFormat)
        raise InvalidInput(f"cannot tell the format of {path}; pass --format ({known})", field="--format")
    return detected


def in_group(
    records: Iterator[Record | Problem], group_id: str | None, *, replace: bool = False
) -> Iterator[Record | Problem]:
    """Yield ``records`` with ``group_id`` set on every episode that names none (every one: ``replace``)."""
    for record in records:
        named = isinstance(record, Record) and record.episode.group_id is not None
        if group_id is not None and isinstance(record, Record) and (replace or not named):
            record.episode.group_id = group_id
        yield record


def _has_content(path: Path) -> bool:
    """Return whether ``path`` holds anything: a file with a non-whitespace byte, or a folder with a
    non-empty file."""
    if path.is_dir():
        return any(p.is_file() and p.stat().st_size > 0 for p in path.rglob("*"))
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            if chunk.strip():
                return True
    return False


def check_not_empty(path: Path) -> None:
    """Raise InvalidInput (field ``PATH``) when ``path`` is empty: nothing to import, in any format."""
    if not _has_content(path):
        what = "the folder holds no file with anything in it" if path.is_dir() else "the file is empty"
        raise InvalidInput(f"{path}: nothing to import: {what}", field="PATH")


def open_path(
    path: Path,
    fmt: ImportFormat | str | None = None,
    *,
    mapping: Path | None = None,
    group_id: str | None = None,
) -> tuple[ImportFormat, ImportSource]:
    """Return the format and the (lazily parsed) records of ``path``. Raises InvalidInput.

    ``group_id`` fills the group of records that name none; for ``OWN_GROUPS`` formats it
    replaces the group the importer chose.
    """
    chosen = resolve_format(path, fmt)
    if not path.exists():
        raise InvalidInput(f"no such file or folder: {path}", field="PATH")
    try:
        check_not_empty(path)
        source = open_source(path, chosen, mapping)
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc}", field="PATH") from exc
    records = in_group(source.records, group_id, replace=chosen in OWN_GROUPS)
    return chosen, ImportSource(records, source.total)


def check_something_read(path: Path, fmt: ImportFormat, records: int, problems: int) -> None:
    """Raise InvalidInput (field ``PATH``) when an input gave no record and no problem.

    A file that is not of the format (a text file read as mbox, a folder of other files) reads
    as nothing at all: that is an error to report, not an import of zero episodes.
    """
    if records == 0 and problems == 0:
        raise InvalidInput(
            f"{path}: nothing to import: no {fmt} record found in it; is it {fmt}? (--format)",
            field="PATH",
        )


def preview(
    path: Path,
    fmt: ImportFormat | str | None = None,
    *,
    mapping: Path | None = None,
    group_id: str | None = None,
    limit: int = 5,
) -> tuple[ImportFormat, list[Record], list[Problem], int]:
    """Parse ``path`` without storing anything: the first ``limit`` records, every problem, the count.

    Intents left to the classifier show as None here: classification happens on import.
    """
    chosen, source = open_path(path, fmt, mapping=mapping, group_id=group_id)
    shown: list[Record] = []
    problems: list[Problem] = []
    count = 0
    for item in source.records:
        if isinstance(item, Problem):
            problems.append(item)
            continue
        count += 1
        if len(shown) < limit:
            shown.append(item)
    check_something_read(path, chosen, count, len(problems))
    return chosen, shown, problems, count


def import_path(
    memory: Memory,
    path: Path,
    fmt: ImportFormat | str | None = None,
    *,
    mapping: Path | None = None,
    group_id: str | None = None,
    batch_size: int | None = None,
    actor: str | None = None,
    on_commit: Callable[[ImportStats, int], None] | None = None,
    on_open: Callable[[ImportFormat, int | None], None] | None = None,
    classify: bool | None = None,
) -> ImportStats:
    """Import ``path`` into ``memory``, one transaction per batch; return the totals and problems.

    ``classify`` sends episodes without an intent to the classifier (when Memory has one);
    default: yes for the outside sources, no for jsonl and locomo, which keep their episodes as
    they were (an ``engram export`` read back unchanged).
    ``on_open(format, total)`` is called once the input is opened (to size a progress bar);
    ``on_commit(stats, batch size)`` after every committed batch. Raises InvalidInput (unknown
    or undetectable format, unreadable input, a non-empty input without any record of the
    format, a bad record of a strict format) or Conflict.
    """
    chosen, source = open_path(
        path, fmt, mapping=mapping, group_id=memory.group(group_id) if group_id else None
    )
    if on_open is not None:
        on_open(chosen, source.total)
    importer = BatchImporter(
        memory,
        batch_size=batch_size or memory.settings.import_batch_size,
        actor=actor,
        on_commit=on_commit,
        keep_going=chosen not in STRICT,
        classify=chosen not in STRICT if classify is None else classify,
    )
    with memory.bulk_load():  # PostgreSQL may build its vector index once after the vectors
        stats = importer.run(source.records)
    check_something_read(path, chosen, stats.committed, len(stats.problems))
    return stats
