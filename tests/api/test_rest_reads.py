"""Where a list request's store read runs: on the server's event loop on SQLite (no hand-off to a
worker thread), in a worker thread on PostgreSQL (the loop keeps serving while it waits on the
network); and a list on SQLite answers while a write transaction holds the writer."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import group_held, serving
from engram.config import Settings
from engram.memory import Memory

EPISODE = {"content": "Budget review with Acme", "actor": {"id": "ann"}, "timestamp": "2024-03-04T09:00:00Z"}


def test_a_list_reads_on_the_loop_on_sqlite_and_in_a_worker_thread_on_postgresql(
    backend: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory.open(settings=Settings(**backend, embedder="none", extractor="none")) as memory:
        memory.create_episode(EPISODE)
        on_loop: list[bool] = []
        list_episodes = memory.list_episodes

        def recorded(*args: Any, **kwargs: Any) -> Any:
            on_loop.append(_in_event_loop())
            return list_episodes(*args, **kwargs)

        monkeypatch.setattr(memory, "list_episodes", recorded)
        with serving(memory) as base:
            page = httpx.get(f"{base}/v1/episodes", params={"actor_id": "ann"}).raise_for_status().json()
    assert [item["content"] for item in page["items"]] == [EPISODE["content"]]
    assert on_loop == ["database_url" not in backend]


def _in_event_loop() -> bool:
    """Return whether the calling thread is running an event loop (uvicorn's, not a worker thread)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_a_list_on_sqlite_answers_while_a_write_holds_the_writer(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extractor="none")
    with Memory.open(settings=settings) as memory:
        memory.create_episode(EPISODE)
        with serving(memory) as base, group_held(memory):
            page = httpx.get(f"{base}/v1/episodes", timeout=10).raise_for_status().json()
    assert len(page["items"]) == 1
