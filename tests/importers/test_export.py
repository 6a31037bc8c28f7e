"""The JSON Lines exporter: every current episode, paged, in a re-importable shape."""

from __future__ import annotations

import io
import json

from engram.memory import Memory
from engram.models.episodes import EpisodeIn
from engram.portable.jsonl_export import PAGE_SIZE, episode_record, export_jsonl


def test_export_pages_through_every_group(memory: Memory) -> None:
    count = PAGE_SIZE * 2 + 7
    memory.create_episodes([{"group_id": "big", "content": f"note {i}"} for i in range(count)])
    memory.create_episode({"group_id": "small", "content": "alone"})
    buffer = io.StringIO()
    written = export_jsonl(memory, buffer, memory.groups())
    rows = [json.loads(line) for line in buffer.getvalue().splitlines()]
    assert written == len(rows) == count + 1
    assert len({row["id"] for row in rows}) == count + 1
    assert [row["group_id"] for row in rows].count("small") == 1
    stamps = [row["timestamp"] for row in rows if row["group_id"] == "big"]
    assert stamps == sorted(stamps, reverse=True)


def test_record_is_a_valid_episode_in(memory: Memory) -> None:
    created = memory.create_episode(
        {
            "group_id": "g",
            "content": {"order": 42, "item": "茶"},
            "actor": {"type": "agent", "id": "bot"},
            "intent": "confirm_date",
            "metadata": {"nested": {"a": [1, 2]}},
            "references": ["https://example.org/x"],
        }
    ).episode
    record = episode_record(created)
    assert set(record) == {
        "id",
        "group_id",
        "timestamp",
        "actor",
        "intent",
        "source",
        "source_type",
        "content",
        "metadata",
        "references",
    }
    again = EpisodeIn.model_validate(record)
    assert again.content == created.content  # canonical JSON text, source_type kept as "json"
    assert again.source_type == "json"
    assert again.actor is not None and again.actor.name is None
