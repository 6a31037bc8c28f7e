"""A large batch is extracted in a forked worker process while it is stored: same graph, less wall time."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from conftest import LOCOMO_DEV
from engram import Memory, Settings
from engram.errors import InvalidInput
from engram.ingest.extraction import GraphIngest
from engram.ingest.worker import CHUNK, MIN_EPISODES, ExtractionWorker
from engram.models.episodes import Episode
from engram.models.graph import EntityIn, Extraction
from engram.portable.locomo import load_locomo, locomo_records
from graph_support import graph_shape


class PidExtractor:
    """Names one entity after the process that extracted the episode; raises on "boom", takes its
    time over "slow"."""

    name = "pid"
    pure = True

    def extract(self, episode: Episode) -> Extraction:
        if "boom" in episode.content:
            raise InvalidInput("boom", field="content")
        if "slow" in episode.content:
            time.sleep(0.5)
        return Extraction(entities=[EntityIn(name=f"pid {os.getpid()}", type="thing")])

    def close(self) -> None:
        pass


def episodes(count: int) -> list[Episode]:
    return [
        Episode.model_validate(
            {
                "id": f"ep_{i}",
                "group_id": "g",
                "version": 1,
                "content": f"turn {i}",
                "timestamp": "2026-01-01T00:00:00Z",
            }
            | {
                "recorded_at": "2026-01-01T00:00:00Z",
                "fingerprint": f"f{i}",
                "operation_id": "op",
                "source_type": "text",
            }
        )
        for i in range(count)
    ]


def test_a_large_import_extracted_in_a_worker_builds_the_same_graph(backend: dict[str, Any]) -> None:
    turns = [record.episode for record in islice(locomo_records(load_locomo(LOCOMO_DEV)), 300)]
    graphs = []
    for workers in (0, 1):
        group = f"workers-{workers}"
        batch = [turn.model_copy(update={"group_id": group}) for turn in turns]
        settings = Settings(**backend, embedder="none", extraction_workers=workers)
        with Memory.open(settings=settings, background_indexing=False) as memory:
            memory.create_episodes(batch)
            assert bool(multiprocessing.active_children()) == (workers == 1)
            graphs.append(graph_shape(memory, group))
            again = memory.create_episodes(batch)  # a re-import: duplicates, nothing built twice
            assert all(created.deduplicated for created in again)
            assert graph_shape(memory, group) == graphs[-1]
        assert not multiprocessing.active_children()  # closing the memory stops its worker
    assert len(graphs[0]) > 20
    assert graphs[0] == graphs[1]


def test_the_same_id_in_two_groups_of_one_batch_keeps_each_groups_graph(backend: dict[str, Any]) -> None:
    turns = [record.episode for record in islice(locomo_records(load_locomo(LOCOMO_DEV)), 200)]
    graphs: dict[int, list[list[tuple[Any, ...]]]] = {}
    for workers in (0, 1):
        first = [
            t.model_copy(update={"group_id": f"a{workers}", "id": f"t{i}"}) for i, t in enumerate(turns[:100])
        ]
        second = [
            t.model_copy(update={"group_id": f"b{workers}", "id": f"t{i}"}) for i, t in enumerate(turns[100:])
        ]
        settings = Settings(**backend, embedder="none", extraction_workers=workers)
        with Memory.open(settings=settings, background_indexing=False) as memory:
            memory.create_episodes(first + second)
            graphs[workers] = [graph_shape(memory, f"a{workers}"), graph_shape(memory, f"b{workers}")]
    assert graphs[0][0] and graphs[0][1] and graphs[0][0] != graphs[0][1]
    assert graphs[1] == graphs[0]


def test_a_worker_killed_between_batches_is_replaced(tmp_path: Path) -> None:
    turns = [record.episode for record in islice(locomo_records(load_locomo(LOCOMO_DEV)), 400)]
    reference = Settings(data_dir=tmp_path / "inline", embedder="none", extraction_workers=0)
    with Memory.open(settings=reference, background_indexing=False) as memory:
        for start in range(0, 400, 100):
            memory.create_episodes(turns[start : start + 100])
        expected = graph_shape(memory, turns[0].group_id or "default")
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extraction_workers=1)
    with Memory.open(settings=settings, background_indexing=False) as memory:
        memory.create_episodes(turns[:100])
        (killed,) = multiprocessing.active_children()
        os.kill(killed.pid, signal.SIGKILL)  # between batches: the next one finds it gone
        killed.join(30)
        for start in range(100, 400, 100):
            memory.create_episodes(turns[start : start + 100])
        (replaced,) = multiprocessing.active_children()
        assert replaced.pid != killed.pid
        assert graph_shape(memory, turns[0].group_id or "default") == expected


def test_the_worker_claims_chunks_from_the_front_and_the_caller_from_the_back() -> None:
    worker = ExtractionWorker(PidExtractor(), 1)
    try:
        batch = episodes(CHUNK * 4)
        batch[0] = batch[0].model_copy(update={"content": "slow"})  # the worker is still on chunk 0…
        batch[40] = batch[40].model_copy(update={"content": "boom"})
        started = worker.start(batch)
        taken = next(iter(worker.reclaim(started)))  # …when the caller takes the last chunk
        assert [e.id for e in taken] == [e.id for e in batch[-CHUNK:]]
        found = worker.collect(started)  # the worker claims every chunk left, from the front
        assert sorted(found) == sorted(("g", e.id) for e in batch[:-CHUNK] if e.id != "ep_40")
        names = {entity.name for extraction in found.values() for entity in extraction.entities}
        assert names == {f"pid {next(iter(multiprocessing.active_children())).pid}"}
        assert f"pid {os.getpid()}" not in names
        assert list(worker.reclaim(started)) == []  # nothing is left to claim
    finally:
        worker.close()
    assert not multiprocessing.active_children()


def test_a_small_batch_or_an_impure_extractor_stays_in_the_caller() -> None:
    small = ExtractionWorker(PidExtractor(), 1)
    assert small.start(episodes(MIN_EPISODES - 1)).chunks == ()

    class Remote(PidExtractor):
        pure = False

    assert ExtractionWorker(Remote(), 1).start(episodes(MIN_EPISODES)).chunks == ()
    assert ExtractionWorker(PidExtractor(), 0).start(episodes(MIN_EPISODES)).chunks == ()
    assert not multiprocessing.active_children()


PARENT = """
import multiprocessing, sys, time
from itertools import islice
from pathlib import Path
from engram import Memory, Settings
from engram.portable.locomo import load_locomo, locomo_records
settings = Settings(data_dir=Path(sys.argv[1]), embedder="none")
memory = Memory.open(settings=settings, background_indexing=False)
memory.create_episodes([r.episode for r in islice(locomo_records(load_locomo(Path(sys.argv[2]))), 100)])
print(*[child.pid for child in multiprocessing.active_children()], flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_the_worker_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", PARENT, str(tmp_path / "data"), str(LOCOMO_DEV)],
        stdout=subprocess.PIPE,
        text=True,
    ) as parent:
        try:
            assert parent.stdout is not None
            (worker,) = [int(pid) for pid in parent.stdout.readline().split()]
            assert alive(worker)
        finally:
            parent.kill()
    deadline = time.monotonic() + 30  # it checks every PARENT_CHECK_SECONDS
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(worker)


class BrokenExtractor(PidExtractor):
    """Builds an invalid entity (an extractor's bug) for "bad" episodes."""

    def extract(self, episode: Episode) -> Extraction:
        if "bad" in episode.content:
            EntityIn(name="", type="thing")  # raises pydantic's ValidationError
        return Extraction(entities=[EntityIn(name=f"about {episode.content}", type="thing")])


@pytest.mark.parametrize("workers", [0, 1])
def test_an_invalid_extraction_is_recorded_as_failed_and_the_batch_keeps_its_graph(
    tmp_path: Path, workers: int
) -> None:
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extraction_workers=workers)
    with Memory.open(settings=settings, background_indexing=False) as memory:
        broken = BrokenExtractor()
        memory._extraction = GraphIngest(  # the extractor a bug would give
            memory.store, memory.graph, broken, clock=datetime.now, workers=workers
        )
        items = [{"id": f"e{i}", "content": "bad" if i == 7 else f"note {i}"} for i in range(80)]
        memory.create_episodes(items)
        failed = memory.get_episode("e7").metadata
        assert failed["extraction_status"] == "failed"
        assert failed["extraction_error"].startswith("invalid extraction: name:")
        names = {e.name for e in memory.graph.search_entities(memory.group(None), "about", [], 100)}
        assert len(names) == 79 and "about note 8" in names


DEFERRED = """
import sys
from pathlib import Path
from engram import Memory, Settings
settings = Settings(data_dir=Path(sys.argv[1]), embedder="none")
command = sys.argv[2] == "command"
with Memory.open(settings=settings, defer_extractor=command) as memory:
    print("compiled at open:", "engram.ingest.patterns" in sys.modules)
    memory.list_episodes()
    memory.create_episode({"content": "I moved to Denver last year.", "actor": {"id": "kim", "name": "Kim"}})
    print("compiled after a write:", "engram.ingest.patterns" in sys.modules)
    print(*[f"{h.subject_name} {h.fact.predicate} {h.object_name}" for h in memory.search_facts({}).results])
"""


@pytest.mark.parametrize("mode", ["command", "library"])
def test_a_deferred_builtin_extractor_is_built_at_the_first_write(tmp_path: Path, mode: str) -> None:
    """A CLI command (``engram search``) compiles the patterns only if it writes; a library or server
    opening a Memory compiles them at once."""
    shown = subprocess.run(
        [sys.executable, "-c", DEFERRED, str(tmp_path / "data"), mode],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert shown[:2] == [f"compiled at open: {mode == 'library'}", "compiled after a write: True"]
    assert shown[2] == "Kim LIVES_IN Denver"
