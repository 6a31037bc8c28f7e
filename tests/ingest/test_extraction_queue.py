"""A writer killed between storing episodes and building their graph loses no graph: the queue keeps them."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import Any

from conftest import LOCOMO_DEV
from engram import Memory, Settings
from engram.ingest.extraction import OTHER_HOST_GRACE, _abandoned
from engram.portable.locomo import load_locomo, locomo_records
from engram.storage.extraction_queue import QueuedExtraction, owner_alive, owner_token
from graph_support import graph_shape

TURNS = 120

# Stores the first TURNS LoCoMo turns and one episode with the caller's own facts in group
# "killed", and is killed with SIGKILL right after the batch committed, before any graph is built.
KILLED_WRITER = """
import json, os, signal, sys
from itertools import islice
from pathlib import Path
from engram import Memory, Settings
from engram.ingest.extraction import GraphIngest
from engram.portable.locomo import load_locomo, locomo_records

settings, path, turns = json.loads(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
GraphIngest._build = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
batch = [r.episode.model_copy(update={"group_id": "killed"})
         for r in islice(locomo_records(load_locomo(path)), turns)]
batch.append({"group_id": "killed", "content": "Ada runs the Lisbon office.",
              "entities": [{"name": "Ada", "type": "person"}, {"name": "Lisbon office", "type": "place"}],
              "facts": [{"subject": "Ada", "predicate": "MANAGES", "object": "Lisbon office"}]})
with Memory.open(settings=Settings(**settings, embedder="none"), background_indexing=False) as memory:
    memory.create_episodes(batch)
print("not killed")
"""


def backend_json(backend: dict[str, Any]) -> str:
    return json.dumps(
        {k: v.get_secret_value() if hasattr(v, "get_secret_value") else str(v) for k, v in backend.items()}
    )


def test_a_writer_killed_before_the_graph_build_leaves_the_episodes_queued_and_a_restart_builds_them(
    backend: dict[str, Any],
) -> None:
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_WRITER, backend_json(backend), str(LOCOMO_DEV), str(TURNS)],
        capture_output=True,
        text=True,
    )
    assert killed.returncode == -9, killed.stdout + killed.stderr
    settings = Settings(**backend, embedder="none")
    with Memory.open(settings=settings, background_indexing=False) as memory:
        assert memory.list_episodes(group_id="killed", limit=200).items  # stored...
        assert graph_shape(memory, "killed") == []  # ...without their graph
        queued = memory.store.queued_extractions(1000)
        assert len(queued) == TURNS + 1 == memory.store.counts()["graphs_queued"]  # as engram doctor says
        assert sum(row.supplied is not None for row in queued) == 1
        # The same episodes written by a writer that was not killed: the graph to expect.
        turns = [r.episode for r in islice(locomo_records(load_locomo(LOCOMO_DEV)), TURNS)]
        memory.create_episodes([t.model_copy(update={"group_id": "reference"}) for t in turns])
        expected = graph_shape(memory, "reference")
        assert len(expected) > 5
        # A writer takes its own episodes back, and leaves the killed one's (its process may run).
        assert {row.group_id for row in memory.store.queued_extractions(1000)} == {"killed"}
    with Memory.open(settings=settings) as memory:  # as a server starts: it builds them beside the requests
        assert memory._recovery is not None
        memory._recovery.join()
    with Memory.open(settings=settings, background_indexing=False) as memory:
        assert not memory.store.queued_extractions(1000)
        assert memory.store.counts()["graphs_queued"] == 0
        built = graph_shape(memory, "killed")
        supplied = [fact for fact in built if fact[1] == "MANAGES"]
        assert [(s, o) for s, _, o, *_ in supplied] == [("Ada", "Lisbon office")]
        assert [fact for fact in built if fact[1] != "MANAGES"] == expected
        assert memory.build_queued_graphs() == 0  # built once
        assert graph_shape(memory, "killed") == built


def test_episodes_a_running_writer_queued_are_left_to_it(backend: dict[str, Any]) -> None:
    settings = Settings(**backend, embedder="none")
    with Memory.open(settings=settings, background_indexing=False) as memory:
        started = memory.store.queued_extractions
        waiting: list[int] = []

        def build_queued_meanwhile(limit: int) -> list[QueuedExtraction]:
            rows = started(limit)
            waiting.append(len(rows))
            return rows

        # The moment between this writer's commit and its graph build, seen by a recovering reader.
        original = memory._extraction._build

        def build(*args: Any, **kwargs: Any) -> None:
            memory.store.queued_extractions = build_queued_meanwhile  # type: ignore[method-assign]
            assert memory.build_queued_graphs() == 0
            memory.store.queued_extractions = started  # type: ignore[method-assign]
            original(*args, **kwargs)

        memory._extraction._build = build  # type: ignore[method-assign]
        memory.create_episode({"content": "Grace moved to Paris in 2020.", "group_id": "live"})
        assert waiting == [1]  # the reader saw the row and left it
        assert not memory.store.queued_extractions(10)
        assert graph_shape(memory, "live")


def test_who_queued_a_row_decides_whether_it_is_abandoned() -> None:
    now = datetime.now(UTC)
    mine = owner_token()
    assert owner_alive(mine) is True
    host, pid, start = mine.split(":")
    assert owner_alive(f"{host}:{pid}:{start}0") is False  # the pid reused by another process
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    assert owner_alive(f"{host}:{child.stdout.strip()}:1") is False  # a process that ended
    elsewhere = f"not-{socket.gethostname()}:{os.getpid()}:1"
    assert owner_alive(elsewhere) is None

    def row(owner: str, age: timedelta) -> QueuedExtraction:
        return QueuedExtraction("g", "ep", None, owner, now - age)

    assert not _abandoned(row(mine, timedelta(days=1)), now)
    assert _abandoned(row(f"{host}:{child.stdout.strip()}:1", timedelta(0)), now)
    assert not _abandoned(row(elsewhere, OTHER_HOST_GRACE - timedelta(seconds=1)), now)
    assert _abandoned(row(elsewhere, OTHER_HOST_GRACE + timedelta(seconds=1)), now)
