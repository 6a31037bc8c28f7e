"""A large batch is extracted in a forked worker process while it is stored: same graph, less wall time."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from itertools import islice
from pathlib import Path
from typing import Any

from conftest import LOCOMO_DEV
from engram import Memory, Settings
from engram.errors import InvalidInput
from engram.ingest.worker import CHUNK, MIN_EPISODES, ExtractionWorker
from engram.models.episodes import Episode
from engram.models.graph import EntityIn, Extraction
from engram.portable.locomo import load_locomo, locomo_records


class PidExtractor:
    """Names one entity after the process that extracted the episode; raises on "boom"."""

    name = "pid"
    pure = True

    def extract(self, episode: Episode) -> Extraction:
        if "boom" in episode.content:
            raise InvalidInput("boom", field="content")
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


def graph_of(memory: Memory, group: str) -> list[tuple[Any, ...]]:
    """Every fact version of the group as comparable tuples."""
    hits = memory.search_facts({"group_id": group, "include_history": True, "limit": 100}).results
    return sorted(
        (
            h.subject_name,
            h.fact.predicate,
            h.object_name,
            str(h.fact.value),
            h.fact.fact,
            str(h.fact.valid_at),
        )
        for h in hits
    )


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
            graphs.append(graph_of(memory, group))
            again = memory.create_episodes(batch)  # a re-import: duplicates, nothing built twice
            assert all(created.deduplicated for created in again)
            assert graph_of(memory, group) == graphs[-1]
        assert not multiprocessing.active_children()  # closing the memory stops its worker
    assert len(graphs[0]) > 20
    assert graphs[0] == graphs[1]


def test_the_worker_takes_chunks_from_the_front_and_the_caller_reclaims_from_the_end() -> None:
    worker = ExtractionWorker(PidExtractor(), 1)
    try:
        batch = episodes(MIN_EPISODES * 2)
        batch[5] = batch[5].model_copy(update={"content": "boom"})
        started = worker.start(batch)
        assert len(started.chunks) == len(batch) // CHUNK
        started.chunks[0][1].result(timeout=60)  # the worker has begun at the front
        reclaimed = list(worker.reclaim(started))
        ids = [e.id for e in batch]
        assert [e.id for chunk in reversed(reclaimed) for e in chunk] == ids[
            len(ids) - len(reclaimed) * CHUNK :
        ]
        found = worker.collect(started)
        assert "ep_5" not in found  # the extractor raised there: left for the caller to record
        assert sorted(found) == sorted(set(ids[: len(ids) - len(reclaimed) * CHUNK]) - {"ep_5"})
        names = {entity.name for extraction in found.values() for entity in extraction.entities}
        assert names and f"pid {os.getpid()}" not in names  # extracted in another process
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
