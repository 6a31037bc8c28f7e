"""What every importer yields: episodes parsed from a file, each with where it came from.

An importer is pure parsing: it reads its input and yields ``Record``s, and never touches a
store. The CLI (or any caller) batches the records into ``Memory.create_episodes``; see
``engram.portable.batch``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

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

    records: Iterator[Record | Problem]
    total: int | None


@dataclass(frozen=True, slots=True)
class Problem:
    """A record an importer could not read: where (``mail/x.mbox message 3 <id@host>``), why, which field.

    Importers of many independent records (mail, wiki pages, rows, chat messages) yield a
    Problem instead of raising, so the other records are still imported.
    """

    where: str
    detail: str
    field: str | None = None

    def __str__(self) -> str:
        """Return ``where: detail (field)``; the field is left out when the detail quotes it."""
        named = not self.field or f'"{self.field}"' in self.detail
        return f"{self.where}: {self.detail}" + ("" if named else f" ({self.field})")


Parsed = Record | Problem
"""What an importer yields: a record, or the problem that kept one from being read."""


@dataclass(slots=True)
class ImportStats:
    """Running totals of an import: episodes created, deduplicated, and batches committed."""

    created: int = 0
    deduplicated: int = 0
    batches: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def committed(self) -> int:
        """Return how many records are stored so far (created plus deduplicated)."""
        return self.created + self.deduplicated
