"""Archived facts come back: reverting an archive, and deleting the episode that superseded one."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import apsw
import psycopg
import pytest

from engram import Memory, Settings
from engram.errors import Conflict, InvalidInput

T0 = datetime(2024, 1, 1, 9, tzinfo=UTC)
ARCHIVE_AGE = timedelta(days=180)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def read(backend: dict[str, Any], sql: str, *params: object) -> list[tuple[Any, ...]]:
    """Return the rows of ``sql`` (``?`` placeholders) on the memory's database, read apart from Memory."""
    if "database_url" in backend:
        with psycopg.connect(backend["database_url"].get_secret_value()) as pg:
            return [tuple(row) for row in pg.execute(sql.replace("?", "%s"), params).fetchall()]
    conn = apsw.Connection(str(Path(backend["data_dir"]) / "engram.db"), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return [tuple(row) for row in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


@pytest.fixture
def memory(backend: dict[str, Any], clock: Clock) -> Iterator[Memory]:
    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings, clock=clock, background_indexing=False) as mem:
        yield mem


def state(memory: Memory, clock: Clock, name: str, amount: int, *, days: int) -> tuple[str, str]:
    """Record at T0 + days that ``name``'s budget is ``amount``; return (episode id, fact id)."""
    clock.now = T0 + timedelta(days=days)
    episode = memory.create_episode({"content": f"{name} budget is {amount}", "timestamp": clock.now}).episode
    fact = {"subject": name, "predicate": "BUDGET", "value": amount, "fact": f"{name} budget is {amount}"}
    done = memory.add_facts(
        {"episode_id": episode.id, "entities": [{"name": name, "type": "project"}], "facts": [fact]}
    )
    fact_ids = done.fact_ids
    assert isinstance(fact_ids, list)
    return episode.id, str(fact_ids[0])


def budgets(memory: Memory, name: str, **extra: Any) -> list[tuple[Any, str, bool]]:
    """Return (value, status, archived) of ``name``'s budget facts, best first, history included."""
    search = {"query": f"{name} budget", "subject": name, "include_history": True, "limit": 50}
    return [
        (h.fact.value, h.fact.status, h.archived) for h in memory.search_facts({**search, **extra}).results
    ]


def current(memory: Memory, name: str) -> list[Any]:
    """Return the values of ``name``'s current budget facts (a normal search)."""
    return [h.fact.value for h in memory.search_facts({"query": f"{name} budget", "subject": name}).results]


def archived_rows(backend: dict[str, Any]) -> list[tuple[Any, ...]]:
    return read(backend, "SELECT id, version, archived_by FROM archived_facts ORDER BY id, version")


@pytest.fixture
def archived(memory: Memory, clock: Clock) -> dict[str, str]:
    """ACME's budget 500 (day 0) superseded by 800 (day 10), the 500 archived on day 400."""
    old_episode, old = state(memory, clock, "ACME", 500, days=0)
    new_episode, new = state(memory, clock, "ACME", 800, days=10)
    clock.now = T0 + timedelta(days=400)
    result = memory.archive_facts(ARCHIVE_AGE)
    assert result.facts == [old] and result.operation_id is not None
    assert budgets(memory, "ACME") == [(800, "current", False)]
    return {
        "old": old,
        "new": new,
        "old_episode": old_episode,
        "new_episode": new_episode,
        "archive": result.operation_id,
    }


def test_revert_of_an_archive_brings_its_facts_back(
    memory: Memory, archived: dict[str, str], backend: dict[str, Any]
) -> None:
    reverted = memory.revert_operation(archived["archive"], actor="test")
    details = reverted.operation.details
    assert reverted.operation.kind == "revert" and details["target"] == archived["archive"]
    assert details["unarchived"] == [archived["old"]]
    # A later archive run would move it again: it is still old, inactive and never returned.
    assert memory.archive_facts(ARCHIVE_AGE, dry_run=True).facts == [archived["old"]]
    assert budgets(memory, "ACME") == [(800, "current", False), (500, "superseded", False)]
    assert budgets(memory, "ACME", include_archived=True) == budgets(memory, "ACME"), "nothing left archived"
    assert archived_rows(backend) == []
    # Every version is back as it was, with the operations that opened and closed it.
    versions = read(
        backend,
        "SELECT version, status, expired_by FROM facts WHERE id = ? ORDER BY version",
        archived["old"],
    )
    assert [(v, s) for v, s, _ in versions] == [(1, "current"), (2, "superseded")]
    assert versions[0][2] is not None and versions[1][2] is None


def test_revert_of_that_revert_archives_the_facts_again(
    memory: Memory, archived: dict[str, str], backend: dict[str, Any]
) -> None:
    back = memory.revert_operation(archived["archive"])
    again = memory.revert_operation(back.operation.id)
    assert again.operation.details["archived"] == [archived["old"]]
    assert again.operation.details["versions"] == 2
    assert budgets(memory, "ACME") == [(800, "current", False)]
    assert budgets(memory, "ACME", include_archived=True) == [
        (800, "current", False),
        (500, "superseded", True),
    ]
    assert archived_rows(backend) == [
        (archived["old"], 1, again.operation.id),
        (archived["old"], 2, again.operation.id),
    ]
    # Reverting the re-archive brings it back again; the original archive has nothing left to undo.
    memory.revert_operation(again.operation.id)
    assert budgets(memory, "ACME") == [(800, "current", False), (500, "superseded", False)]
    with pytest.raises(InvalidInput, match="restored or purged"):
        memory.revert_operation(archived["archive"])


def test_archiving_again_a_fact_changed_since_is_a_conflict(memory: Memory, archived: dict[str, str]) -> None:
    back = memory.revert_operation(archived["archive"])
    deleted = memory.delete_episode(archived["new_episode"])  # the 500 is current again
    with pytest.raises(Conflict) as conflict:
        memory.revert_operation(back.operation.id)
    assert conflict.value.operations == [deleted.operation.id]
    assert current(memory, "ACME") == [500]


def test_delete_of_the_superseding_episode_brings_an_archived_fact_back(
    memory: Memory, archived: dict[str, str], backend: dict[str, Any]
) -> None:
    deleted = memory.delete_episode(archived["new_episode"])
    assert deleted.operation.details["facts_unarchived"] == [archived["old"]]
    assert deleted.operation.details["facts_restored"] == [archived["old"]]
    assert current(memory, "ACME") == [500]
    assert budgets(memory, "ACME") == [(500, "current", False), (800, "retracted", False)]
    assert archived_rows(backend) == []
    # Reverting the delete supersedes the 500 again; it stays live (not archived).
    memory.revert_operation(deleted.operation.id)
    assert budgets(memory, "ACME") == [(800, "current", False), (500, "superseded", False)]
    assert archived_rows(backend) == []


def test_revert_of_an_archive_restores_what_was_not_purged(
    memory: Memory, clock: Clock, backend: dict[str, Any]
) -> None:
    acme_episode, _ = state(memory, clock, "ACME", 500, days=0)
    state(memory, clock, "ACME", 800, days=10)
    _, beta_old = state(memory, clock, "Beta", 100, days=0)
    state(memory, clock, "Beta", 200, days=10)
    clock.now = T0 + timedelta(days=400)
    archive = memory.archive_facts(ARCHIVE_AGE)
    assert len(archive.facts) == 2 and archive.operation_id is not None
    memory.purge_episode(acme_episode)
    reverted = memory.revert_operation(archive.operation_id)
    assert reverted.operation.details["unarchived"] == [beta_old]
    assert budgets(memory, "Beta") == [(200, "current", False), (100, "superseded", False)]
    assert budgets(memory, "ACME", include_archived=True) == [(800, "current", False)]


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)  # SQLite always moved expired_by
def test_archives_that_lost_expired_by_get_it_back_from_the_successor(
    memory: Memory, archived: dict[str, str], backend: dict[str, Any]
) -> None:
    """PostgreSQL archives made before the archive moved ``expired_by`` have it empty."""
    with psycopg.connect(backend["database_url"].get_secret_value()) as pg:
        pg.execute("UPDATE archived_facts SET expired_by = NULL")
    memory.revert_operation(archived["archive"])
    rows = read(
        backend,
        "SELECT version, operation_id, expired_by FROM facts WHERE id = ? ORDER BY version",
        archived["old"],
    )
    assert rows[0][2] == rows[1][1] and rows[1][2] is None
    assert memory.delete_episode(archived["new_episode"]).operation.details["facts_restored"] == [
        archived["old"]
    ]
