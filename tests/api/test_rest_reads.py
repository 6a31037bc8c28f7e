"""A list request on SQLite answers while a write transaction holds the writer: reads never wait
for the writer thread (WAL readers; each thread its own connection)."""

from __future__ import annotations

from pathlib import Path

import httpx

from conftest import group_held, serving
from engram.config import Settings
from engram.memory import Memory

EPISODE = {"content": "Budget review with Acme", "actor": {"id": "ann"}, "timestamp": "2024-03-04T09:00:00Z"}


def test_a_list_on_sqlite_answers_while_a_write_holds_the_writer(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extractor="none")
    with Memory.open(settings=settings) as memory:
        memory.create_episode(EPISODE)
        with serving(memory) as base, group_held(memory):
            page = httpx.get(f"{base}/v1/episodes", timeout=10).raise_for_status().json()
    assert [item["content"] for item in page["items"]] == [EPISODE["content"]]
