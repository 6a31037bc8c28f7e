"""Maintenance commands: ``archive`` (move old, unused fact history to cold storage)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Annotated

import typer

from engram.cli.common import CLI_ACTOR, DataDir, GroupOption, JsonOption, app, counted, fail, using_memory
from engram.errors import InvalidInput

_PART = re.compile(r"(\d+)\s*([a-z]+)")
_UNITS = {"w": "weeks", "d": "days", "h": "hours"}


MAX_AGE = timedelta(days=100 * 366)
"""Longest --older-than: a century (longer ones reach before the calendar's year 1)."""


def parse_duration(text: str, field: str = "--older-than") -> timedelta:
    """Return ``180d``, ``12h``, ``2w`` or a sum such as ``1w3d`` as a timedelta.

    Units: w (weeks), d (days), h (hours); ``m`` is refused (minutes or months?). Raises
    InvalidInput naming ``field`` for anything else, and for zero.
    """
    compact = text.strip().lower()
    parts = _PART.findall(compact)
    hint = "use a number and a unit: 180d, 12h, 2w (or a sum such as 1w3d)"
    if not parts or "".join(f"{n}{u}" for n, u in parts) != compact.replace(" ", ""):
        raise InvalidInput(f"{field} {text!r} is not a duration; {hint}", field=field)
    total = timedelta(0)
    for number, unit in parts:
        if unit not in _UNITS:
            raise InvalidInput(f"{field} {text!r}: unknown unit {unit!r}; {hint}", field=field)
        try:
            total += timedelta(**{_UNITS[unit]: int(number)})
        except OverflowError as exc:
            raise InvalidInput(f"{field} {text!r} is too long; {hint}", field=field) from exc
    if total > MAX_AGE:
        raise InvalidInput(f"{field} {text!r} is longer than {MAX_AGE.days} days; {hint}", field=field)
    if total <= timedelta(0):
        raise InvalidInput(f"{field} {text!r} must be longer than zero; {hint}", field=field)
    return total


@app.command()
def archive(
    older_than: Annotated[
        str,
        typer.Option("--older-than", help="Archive facts inactive for longer than this: 180d, 12h, 2w."),
    ],
    group: GroupOption = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would move; change nothing.")] = False,
    as_json: JsonOption = False,
    data_dir: DataDir = None,
) -> None:
    """Move old history to cold storage: inactive facts no search ever returned.

    A fact moves (every version of it) when its latest version is superseded or retracted,
    that happened longer ago than ``--older-than``, and no fact search or episode search
    ever returned it. Normal searches stop seeing it; ``include_archived`` still reads it.
    One ``archive`` operation records the fact ids in the audit log.
    """
    try:
        age = parse_duration(older_than)
    except InvalidInput as exc:
        raise fail(exc) from exc
    with using_memory(data_dir, must_exist=True) as memory:
        result = memory.archive_facts(age, group, dry_run=dry_run, actor=CLI_ACTOR)
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
        return
    facts = counted(len(result.facts), "fact")
    versions = counted(result.versions, "version")
    since = f"inactive since before {result.cutoff:%Y-%m-%d %H:%M} UTC"
    if not result.facts:
        typer.echo(f"nothing to archive in group {result.group_id} ({since}, never returned by a search)")
    elif dry_run:
        typer.echo(f"would archive {facts} ({versions}) of group {result.group_id}, {since}; nothing changed")
    else:
        typer.echo(
            f"archived {facts} ({versions}) of group {result.group_id}, {since}: "
            f"operation {result.operation_id}"
        )
