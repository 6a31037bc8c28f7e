"""The memory's health, in one place: what the console's health page shows and metrics can read.

Volumes by intent and source (all time and per week), this process's creates and duplicates,
episodes whose extraction failed (to retry), the embedding backlog, disputed facts, merge
candidates still to review, and the last warnings and errors Engram logged.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from engram.models.review import CountsWindow, ErrorRecord
from engram.models.stats import EpisodeCount, MemoryStats
from engram.storage.protocol import Storage

RECENT_ERRORS = 50
"""How many log records of level WARNING and above the health report keeps."""


class RecentErrors(logging.Handler):
    """Keep the last warnings and errors of the ``engram`` loggers in memory (a ring buffer)."""

    def __init__(self, size: int = RECENT_ERRORS) -> None:
        super().__init__(level=logging.WARNING)
        self._records: deque[ErrorRecord] = deque(maxlen=size)

    def emit(self, record: logging.LogRecord) -> None:
        """Remember ``record``."""
        self._records.append(
            ErrorRecord(
                at=datetime.fromtimestamp(record.created, UTC),
                level=record.levelname,
                logger=record.name,
                message=record.getMessage()[:2000],
            )
        )

    def records(self) -> list[ErrorRecord]:
        """Return the kept records, newest first."""
        return list(reversed(self._records))

    def attach(self) -> None:
        """Start listening to the ``engram`` loggers."""
        logging.getLogger("engram").addHandler(self)

    def detach(self) -> None:
        """Stop listening."""
        logging.getLogger("engram").removeHandler(self)


@dataclass
class CreateCounts:
    """Episodes this process stored and found already stored (duplicates), thread-safe."""

    created: int = 0
    deduplicated: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, created: int, deduplicated: int) -> None:
        """Count one create call's outcome."""
        with self._lock:
            self.created += created
            self.deduplicated += deduplicated

    def rate(self) -> float | None:
        """Return the share of creates that were duplicates, or None before any create."""
        total = self.created + self.deduplicated
        return None if total == 0 else self.deduplicated / total


def counts_by_week(
    store: Storage, group_id: str, now: datetime, weeks: int
) -> tuple[CountsWindow, list[CountsWindow]]:
    """Return episode counts by intent and source: all time, and each of the last ``weeks`` weeks.

    Weeks end at the start of tomorrow (UTC), so today is in the last one.
    """
    end = datetime(now.year, now.month, now.day, tzinfo=UTC) + timedelta(days=1)
    windows = []
    for back in range(weeks, 0, -1):
        start = end - timedelta(weeks=back)
        windows.append(_window(store, group_id, start, start + timedelta(weeks=1)))
    return _window(store, group_id, None, None), windows


def _window(store: Storage, group_id: str, start: datetime | None, end: datetime | None) -> CountsWindow:
    counts = {column: store.episode_counts(group_id, column, start, end) for column in ("intent", "source")}
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    return CountsWindow(
        start=start or epoch,
        end=end or datetime.max.replace(tzinfo=UTC),
        by_intent=_named(counts["intent"]),
        by_source=_named(counts["source"]),
    )


def _named(counts: dict[str | None, int]) -> dict[str, int]:
    """Return counts largest first, "" standing for None (no intent, no source)."""
    return {name or "": n for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0] or ""))}


def memory_stats(store: Storage, group_id: str | None, *, embeds: bool) -> MemoryStats:
    """Return the store's summary counts as MemoryStats; the backlog (episodes without a vector) only
    when ``embeds``. Raises StoreError."""
    counts = store.summary_counts(group_id)
    episodes = sum(counts.episodes.values())
    per_pair = sorted(counts.episodes.items(), key=lambda item: item[1], reverse=True)
    return MemoryStats(
        group_id=group_id,
        episodes=episodes,
        episode_counts=[EpisodeCount(intent=i, source=s, episodes=n) for (i, s), n in per_pair],
        facts=counts.facts,
        merge_candidates=counts.merge_candidates,
        embedding_backlog=max(0, episodes - counts.vectors) if embeds else None,
    )
