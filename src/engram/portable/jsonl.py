"""Read JSON Lines of episodes: one ``EpisodeIn`` object per line (what ``engram export`` writes).

Each line is a JSON object with the fields of POST /v1/episodes (``id``, ``group_id``,
``timestamp``, ``actor``, ``intent``, ``source``, ``source_type``, ``content``,
``metadata``, ``references``); unknown fields are refused. Blank lines are skipped; a UTF-8
byte order mark on the first line is ignored. A bad line raises InvalidInput whose detail
names the file and line number (``bad.jsonl line 2: …``) and whose ``field`` names the
offending field.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import orjson
from pydantic import ValidationError

from engram.errors import InvalidInput
from engram.models.episodes import EpisodeIn
from engram.portable.base import ImportSource, Record
from engram.validation import explain, listing

STDIN = Path("-")
"""The path that means "read standard input"."""


def parse_line(text: str, number: int, *, where: str | None = None) -> EpisodeIn:
    """Return the episode on line ``number``. Raises InvalidInput naming ``where`` (default:
    ``line <number>``) and the field."""
    where = where or f"line {number}"
    try:
        # orjson reads a line of 384 floats ~10 times faster; what it refuses (NaN, huge integers,
        # bad JSON) the standard parser reads or words the error of, as it always did.
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            detail = f"{where}: not valid JSON (column {exc.colno}): {exc.msg}"
            raise InvalidInput(detail, field="line") from exc
    if not isinstance(value, dict):
        raise InvalidInput(f"{where}: expected a JSON object, got {type(value).__name__}", field="line")
    try:
        return EpisodeIn.model_validate(value)
    except ValidationError as exc:
        problems = explain(exc.errors(), "episode")
        raise InvalidInput(f"{where}: {listing(problems)}", field=problems[0][0]) from exc


def jsonl_records(lines: Iterable[bytes], name: str | None = None) -> Iterator[Record]:
    """Yield a Record per non-blank line of ``lines`` (raw bytes, as read from a binary file).

    ``name`` (the file's, or ``stdin``) starts every record's ``where`` and every error.
    """
    prefix = f"{name} " if name else ""
    for number, raw in enumerate(lines, start=1):
        where = f"{prefix}line {number}"
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"{where}: not UTF-8 text: {exc.reason}", field="line") from exc
        if number == 1:
            text = text.removeprefix("\ufeff")
        if not text.strip():
            continue
        yield Record(where, parse_line(text, number, where=where))


def count_lines(path: Path) -> int:
    """Return the number of non-blank lines in ``path`` (a quick pre-pass for the progress total)."""
    total = 0
    with path.open("rb") as handle:
        for line in handle:
            if line.strip():
                total += 1
    return total


def _read(path: Path) -> Iterator[bytes]:
    """Yield the lines of ``path`` (or standard input for ``-``) as bytes, closing the file at the end."""
    if path == STDIN:
        yield from sys.stdin.buffer
        return
    with path.open("rb") as handle:
        yield from handle


def read_jsonl(path: Path) -> ImportSource:
    """Open a JSON Lines file of episodes (``-`` for standard input); the total is counted up front."""
    total = None if path == STDIN else count_lines(path)
    name = "stdin" if path == STDIN else path.name
    return ImportSource(records=jsonl_records(_read(path), name), total=total)
