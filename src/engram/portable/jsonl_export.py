"""Write current episodes as JSON Lines that ``engram import --format jsonl`` reads back.

One object per line with the ``EpisodeIn`` fields: ``id``, ``group_id``, ``timestamp``
(ISO 8601, UTC), ``actor``, ``intent``, ``source``, ``source_type``, ``content``,
``metadata``, ``references``. Groups are written in id order, each newest first. Every
episode carries its id, so importing the file again is idempotent (all deduplicated), and
importing it into an empty store reproduces the episodes.

Only the current version is written: ``version``, ``recorded_at``, ``status``, the
operation log and earlier versions are not (a fuller ``engram`` format is planned).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from engram.memory import Memory
from engram.models.episodes import Episode

PAGE_SIZE = 500


def episode_record(episode: Episode) -> dict[str, Any]:
    """Return the re-importable JSON object for ``episode`` (the EpisodeIn fields)."""
    return {
        "id": episode.id,
        "group_id": episode.group_id,
        "timestamp": episode.timestamp.isoformat(),
        "actor": None if episode.actor is None else episode.actor.model_dump(mode="json"),
        "intent": episode.intent,
        "source": episode.source,
        "source_type": episode.source_type,
        "content": episode.content,
        "metadata": episode.metadata,
        "references": episode.references,
    }


def group_episodes(memory: Memory, group_id: str) -> Iterator[Episode]:
    """Yield every current episode of ``group_id``, newest first, a page at a time."""
    cursor: str | None = None
    while True:
        page = memory.list_episodes(group_id, limit=PAGE_SIZE, cursor=cursor)
        yield from page.items
        if page.next_cursor is None:
            return
        cursor = page.next_cursor


def export_jsonl(memory: Memory, out: TextIO, groups: Iterable[str]) -> int:
    """Write the current episodes of ``groups`` to ``out``, one JSON object per line.

    Returns the number of episodes written. Raises InvalidInput for a malformed group id.
    """
    written = 0
    for group_id in groups:
        for episode in group_episodes(memory, group_id):
            out.write(json.dumps(episode_record(episode), ensure_ascii=False, separators=(",", ":")))
            out.write("\n")
            written += 1
    return written
