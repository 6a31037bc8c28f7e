"""The ``engram`` format of ``engram export`` and ``engram import``: whole groups, every version.

``engram export --format engram`` writes each group's section (engram.portable.group_format): its
operations and every version of its episodes, entities and facts, with ids and times;
``engram import FILE --format engram`` loads it into any store (another machine, backend or
embedder; vectors are embedded again there), idempotently.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TextIO

import typer

from engram.cli.common import counted, fail, note, open_memory
from engram.errors import EngramError, InvalidInput
from engram.memory import Memory
from engram.models.portable import ROW_KINDS
from engram.portable.base import ImportStats
from engram.portable.group_format import FORMAT, ImportCounts, is_export, read_lines

STDIN = Path("-")
Acknowledgements = Callable[[int | None, str], AbstractContextManager[Callable[[ImportStats, int], None]]]
"""The per-batch progress display of ``engram import`` (a bar on a terminal, else log lines)."""

HEADER_BYTES = 64 * 1024
"""How much of a file's first line is read to tell an engram export from other JSON."""
_FRAMES = (b'{"record":"' + FORMAT.encode() + b'"', b'{"record":"end"')


def export_engram(memory: Memory, out: TextIO, groups: Sequence[str]) -> str:
    """Write the sections of ``groups`` to ``out``, one JSON object per line; return what was written.

    The summary reads ``1204 rows (operation 40, episode 380, …)``.
    """
    written: Counter[str] = Counter()
    for group in groups:
        for item in memory.export_group(group):
            out.write(json.dumps(item, ensure_ascii=False, separators=(",", ":")))
            out.write("\n")
            if item["record"] not in (FORMAT, "end"):
                written[item["record"]] += 1
    kinds = ", ".join(f"{kind} {written[kind]}" for kind in ROW_KINDS if written[kind])
    return f"{counted(sum(written.values()), 'row')}" + (f" ({kinds})" if kinds else "")


def looks_like_export(path: Path) -> bool:
    """Return True when the first non-blank line of the file ``path`` is an engram export header."""
    try:
        with path.open("rb") as handle:
            while line := handle.readline(HEADER_BYTES):  # a header is short; other files may be one line
                if line.strip():
                    return is_export(line)
    except OSError:
        return False
    return False


def _rows(path: Path) -> int:
    """Return how many lines of an export are rows (not a group's header or end line), for progress."""
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip() and not line.startswith(_FRAMES))


def _lines(path: Path) -> Iterator[bytes]:
    if path == STDIN:
        yield from sys.stdin.buffer
        return
    with path.open("rb") as handle:
        yield from handle


def import_engram(
    path: Path, batch_size: int | None, data_dir: Path | None, acknowledgements: Acknowledgements
) -> None:
    """Load an engram export into the store; print the counts. Exits 2 (bad input) or 4 (conflict)."""
    started = time.perf_counter()
    memory = open_memory(data_dir)
    committed = ImportCounts()

    def adapt(on_commit: Callable[[ImportStats, int], None]) -> Callable[[ImportCounts, int], None]:
        def on_batch(counts: ImportCounts, size: int) -> None:
            nonlocal committed
            committed = counts
            written = sum(counts.created.values()) + sum(counts.closed.values())
            on_commit(ImportStats(written, sum(counts.skipped.values()), counts.batches), size)

        return on_batch

    try:
        total = None if path == STDIN else _rows(path)
        label = "importing stdin" if path == STDIN else f"importing {path.name}"
        with acknowledgements(total, label) as on_commit:
            counts = memory.import_records(
                read_lines(_lines(path)), batch_size=batch_size, on_batch=adapt(on_commit)
            )
    except EngramError as exc:
        exit_ = fail(exc)
        if committed.batches:
            note(
                f"{counted(committed.rows, 'row')} in {counted(committed.batches, 'batch', 'batches')} "
                "were committed before the error; the failing batch was not written. "
                "Importing again is idempotent."
            )
        raise exit_ from exc
    except KeyboardInterrupt:
        note(f"interrupted: {committed.rows} rows committed; run the same import again to finish.")
        raise typer.Exit(130) from None
    except OSError as exc:
        raise fail(InvalidInput(f"cannot read {path}: {exc}", field="PATH")) from exc
    finally:
        memory.close()
    seconds = time.perf_counter() - started
    rate = counts.rows / seconds if seconds > 0 else 0.0
    typer.echo(
        f"imported {counted(len(counts.groups), 'group')} ({counted(counts.rows, 'row')}) from {path} "
        f"into {memory.store.describe()}: {counts.summary()}; {counts.batches} batches, "
        f"{seconds:.2f} s, {rate:,.0f} rows/s"
    )
