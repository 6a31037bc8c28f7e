"""Batched import into a real SQLite memory: totals, idempotence, and all-or-nothing batches."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engram.config import Settings
from engram.errors import Conflict, InvalidInput, NotFound
from engram.memory import Memory
from engram.models.episodes import EpisodeIn
from engram.portable.base import ImportStats, Record
from engram.portable.batch import BatchImporter


def records(count: int, *, bad_at: int | None = None) -> Iterator[Record]:
    """Yield ``count`` records with ids e1..eN; raise InvalidInput at 1-based ``bad_at``."""
    for number in range(1, count + 1):
        if number == bad_at:
            raise InvalidInput(f"line {number}: content: Field required", field="content")
        yield Record(
            f"line {number}",
            EpisodeIn(id=f"e{number}", group_id="g" if number % 2 else "h", content=f"episode {number}"),
        )


def stored_ids(memory: Memory) -> set[str]:
    return {e.id for group in ("g", "h") for e in memory.list_episodes(group, limit=500).items}


def test_batches_commit_and_report(memory: Memory) -> None:
    seen: list[tuple[int, int]] = []
    importer = BatchImporter(memory, batch_size=4, on_commit=lambda s, n: seen.append((s.committed, n)))
    stats = importer.run(records(10))
    assert (stats.created, stats.deduplicated, stats.batches) == (10, 0, 3)
    assert seen == [(4, 4), (8, 4), (10, 2)]
    assert len(stored_ids(memory)) == 10
    again = BatchImporter(memory, batch_size=3).run(records(10))
    assert (again.created, again.deduplicated) == (0, 10)
    assert memory.store.counts()["episodes"] == 10


def test_bad_record_drops_its_unfinished_batch_only(memory: Memory) -> None:
    importer = BatchImporter(memory, batch_size=3)
    with pytest.raises(InvalidInput, match="line 5"):
        importer.run(records(8, bad_at=5))
    assert importer.stats == ImportStats(created=3, deduplicated=0, batches=1)
    assert stored_ids(memory) == {"e1", "e2", "e3"}  # e4 was in the failing batch


def test_store_error_names_the_record(tmp_path_factory: pytest.TempPathFactory) -> None:
    settings = Settings(data_dir=tmp_path_factory.mktemp("small"), max_content_bytes=20)
    with Memory.open(settings=settings) as memory:
        batch = [
            Record("line 1", EpisodeIn(id="a", content="short")),
            Record("line 2", EpisodeIn(id="b", content="far too long for the limit")),
        ]
        with pytest.raises(InvalidInput) as caught:
            BatchImporter(memory, batch_size=10).run(batch)
        assert caught.value.detail.startswith("line 2: content is ")
        assert caught.value.field == "content"
        assert memory.store.counts()["episodes"] == 0


def test_conflicting_id_names_the_record(memory: Memory) -> None:
    memory.create_episode({"id": "x", "content": "original"})
    batch = [
        Record("line 1", EpisodeIn(id="y", content="new")),
        Record("line 2", EpisodeIn(id="x", content="changed")),
    ]
    with pytest.raises(Conflict) as caught:
        BatchImporter(memory, batch_size=10).run(batch)
    assert caught.value.detail.startswith("line 2: ")
    with pytest.raises(NotFound):
        memory.get_episode("y")


def test_batch_size_must_be_positive(memory: Memory) -> None:
    with pytest.raises(InvalidInput):
        BatchImporter(memory, batch_size=0)
