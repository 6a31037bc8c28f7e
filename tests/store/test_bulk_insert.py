"""Large batches of episodes: what the per-row triggers keep (counts, references, the change log)
is the same whether a batch writes them row by row or once per batch (SQLite: storage/sqlite/bulk.py),
and a batch that fails leaves nothing behind, triggers included."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import apsw
import pytest

from engram import Conflict, Memory, Settings
from engram.storage.sqlite.bulk import BULK_MIN, SUSPENDED
from fixed_embedder import FixedEmbedder

START = datetime(2024, 1, 1, tzinfo=UTC)
SIZE = BULK_MIN + 50


def _episodes(count: int, group: str = "g") -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for i in range(count):
        metadata: dict[str, Any] = {}
        if i % 5 == 0:
            metadata = {
                "reference_id": f"doc-{i % 7}",
                "reference_names": {f"Émile RÉPORT {i % 7}": f"doc-{i % 7}"},
            }
        items.append(
            {
                "id": f"e{i}",
                "group_id": group,
                "content": f"episode {i} about thing {i % 11}",
                "intent": ["ask", "order", None][i % 3],
                "source": ["chat", "mail", None][i % 3],
                "actor": {"id": f"user{i % 4}"},
                "timestamp": START + timedelta(minutes=i),
                "metadata": metadata,
                "references": [f"ticket-{i % 9}"] if i % 2 else [],
                "embedding": [float(i % 3 + 1), 1.0, 0.0, float(i % 2)],
            }
        )
    return items


def _open(**fields: Any) -> Memory:
    settings = Settings(**fields, embedder="none", extractor="none", classify_intents=False)
    return Memory.open(settings=settings, embedder=FixedEmbedder(), background_indexing=False)


@pytest.fixture
def memory(backend: dict[str, Any]) -> Iterator[Memory]:
    with _open(**backend) as opened:
        yield opened


def _kept(path: Path) -> dict[str, Any]:
    """Return what the triggers keep in a SQLite store, in comparable form."""
    conn = apsw.Connection(str(path))
    try:
        query = conn.execute
        return {
            "episode_counts": sorted(query("SELECT * FROM episode_counts").fetchall()),
            "vector_counts": sorted(query("SELECT * FROM vector_counts").fetchall()),
            "references": sorted(query("SELECT * FROM episode_references").fetchall()),
            "names": sorted(query("SELECT * FROM reference_names").fetchall()),
            "changes": sorted(
                query(
                    "SELECT c.group_id, d.id, count(*) FROM episode_changes c "
                    "JOIN episode_docs d ON d.doc = c.doc GROUP BY c.group_id, d.id"
                ).fetchall()
            ),
            "triggers": sorted(
                query("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
            ),
        }
    finally:
        conn.close()


def test_a_large_batch_keeps_what_row_by_row_inserts_keep(tmp_path: Path) -> None:
    items = _episodes(SIZE)
    with _open(data_dir=tmp_path / "batched") as batched, _open(data_dir=tmp_path / "rows") as one_by_one:
        batched.create_episodes(items)  # one batch: the set-based statements
        for at in range(0, SIZE, 10):  # batches under BULK_MIN: the triggers
            one_by_one.create_episodes(items[at : at + 10])
        kept = _kept(batched.settings.database_path)
        assert kept == _kept(one_by_one.settings.database_path)
        one_more = {"group_id": "g", "content": "one more", "intent": "ask", "embedding": [1.0, 0, 0, 0]}
        batched.create_episode(one_more)  # the triggers fire again for the next, small, write
        assert batched.stats("g").totals("intent")["ask"] == SIZE // 3 + 1
    assert {name for name, _ in kept["triggers"]} >= set(SUSPENDED), "the triggers are back"
    assert sum(row[-1] for row in kept["episode_counts"]) == SIZE
    assert kept["vector_counts"] == [("g", SIZE)]
    assert all(n == 2 for *_, n in kept["changes"]), "each doc logged: its version and its vector"


def test_a_large_batch_counts_and_cites_on_each_backend(memory: Memory) -> None:
    created = memory.create_episodes([*_episodes(SIZE), *_episodes(3)])  # the last 3 repeat ids
    assert [c.deduplicated for c in created].count(True) == 3
    stats = memory.stats("g")
    assert stats.episodes == SIZE and stats.embedding_backlog == 0
    assert stats.totals("source") == {"chat": SIZE // 3, "mail": SIZE // 3, None: SIZE - 2 * (SIZE // 3)}
    cited = memory.reference_episodes("ticket-1", "g", limit=500)
    assert {item.episode.id for item in cited.items} == {f"e{i}" for i in range(1, SIZE, 2) if i % 9 == 1}
    named = memory.reference_episodes("émile réport 3", "g", limit=500)
    assert {item.episode.id for item in named.items} >= {f"e{i}" for i in range(0, SIZE, 5) if i % 7 == 3}
    hits = memory.search_episodes(
        {"query": "thing", "group_id": "g", "limit": 5}, channels=["vector"]
    ).results
    assert len(hits) == 5, "the batch's vectors are searched"


def test_a_failing_large_batch_leaves_nothing_and_keeps_the_triggers(memory: Memory) -> None:
    memory.create_episode({"id": "taken", "group_id": "g", "content": "first", "embedding": [1.0, 0, 0, 0]})
    before = memory.stats("g")
    clash = {"id": "taken", "group_id": "g", "content": "other words", "embedding": [1.0, 0.0, 0.0, 0.0]}
    with pytest.raises(Conflict) as caught:
        memory.create_episodes([*_episodes(SIZE), clash])
    assert caught.value.field == "id"
    assert memory.stats("g") == before, "nothing half-written"
    assert [e.id for e in memory.list_episodes("g", limit=10).items] == ["taken"]
    memory.create_episodes(_episodes(SIZE))  # the store still works, counts included
    assert memory.stats("g").episodes == SIZE + 1
