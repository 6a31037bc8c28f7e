"""What every importer yields: episodes parsed from a file, each with where it came from.

An importer is pure parsing: it reads its input and yields ``Record``s, and never touches a
store. The CLI (or any caller) batches the records into ``Memory.create_episodes``; see
``engram.portable.batch``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engram.models.episodes import EpisodeIn


@dataclass(frozen=True, slots=True)
class Record:
    """One parsed input record: the episode, and where it is in the input (for error messages).

    ``where`` is human-readable, e.g. ``"line 12"`` or ``"conv-26 session 1 turn D1:3"``.
    """

    where: str
    episode: EpisodeIn


@dataclass(frozen=True, slots=True)
class ImportSource:
    """An opened input: its records, lazily parsed, and how many there are when cheap to know."""

    records: Iterator[Record]
    total: int | None
