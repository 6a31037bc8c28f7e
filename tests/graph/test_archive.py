"""Decay and archive of inactive facts, through Memory on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import apsw
import psycopg
import pytest

from engram import Memory, Settings
from engram.errors import InvalidInput

T0 = datetime(2024, 1, 1, 9, tzinfo=UTC)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


@pytest.fixture
def memory(backend: dict[str, Any], clock: Clock) -> Iterator[Memory]:
    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings, clock=clock, background_indexing=False) as mem:
        yield mem


def state(memory: Memory, clock: Clock, name: str, amount: int, *, days: int) -> str:
    """Record at T0 + days that ``name``'s budget is ``amount``; return the fact id (no search)."""
    clock.now = T0 + timedelta(days=days)
    episode = memory.create_episode({"content": f"{name} budget is {amount}", "timestamp": clock.now}).episode
    fact = {"subject": name, "predicate": "BUDGET", "value": amount, "fact": f"{name} budget is {amount}"}
    done = memory.add_facts(
        {"episode_id": episode.id, "entities": [{"name": name, "type": "project"}], "facts": [fact]}
    )
    fact_ids = done.fact_ids
    assert isinstance(fact_ids, list)
    return str(fact_ids[0])


def history(memory: Memory, name: str, **extra: Any) -> list[tuple[Any, str, float, bool]]:
    """Return (value, status, score, archived) of "<name> budget" facts about ``name``, history included."""
    search = {"query": f"{name} budget", "subject": name, "include_history": True, "limit": 50}
    hits = memory.search_facts({**search, **extra}).results
    return [(hit.fact.value, hit.fact.status, hit.score, hit.archived) for hit in hits]


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


def operations(backend: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    rows = read(backend, "SELECT group_id, id, actor, details FROM operations WHERE kind = ?", kind)
    return [
        {"group_id": g, "id": i, "actor": a, "details": d if isinstance(d, dict) else json.loads(str(d))}
        for g, i, a, d in rows
    ]


def table_sizes(backend: dict[str, Any]) -> list[tuple[Any, ...]]:
    return read(
        backend,
        "SELECT (SELECT count(*) FROM facts), (SELECT count(*) FROM archived_facts), "
        "(SELECT count(*) FROM operations)",
    )


# -- decay ----------------------------------------------------------------------------------------


def test_superseded_fact_weighs_half_and_ranks_below_the_current_one(memory: Memory, clock: Clock) -> None:
    state(memory, clock, "ACME", 500, days=0)
    state(memory, clock, "ACME", 800, days=10)
    (new, new_status, new_score, _), (old, old_status, old_score, _) = history(memory, "ACME")
    assert (new, new_status, old, old_status) == (800, "current", 500, "superseded")
    assert old_score == pytest.approx(new_score * 0.5), "equally matching sentences: exactly half"
    # as_of brings the superseded fact back as it was true then: nothing current to compare with.
    then = memory.search_facts({"query": "ACME budget", "as_of": T0 + timedelta(days=5)}).results
    assert [(h.fact.value, h.score) for h in then] == [(500, pytest.approx(old_score))]


def test_inactive_fact_weight_is_a_setting(backend: dict[str, Any], clock: Clock) -> None:
    settings = Settings(**backend, embedder="none", extractor="none", search={"inactive_fact_weight": 1.0})
    with Memory.open(settings=settings, clock=clock, background_indexing=False) as memory:
        state(memory, clock, "ACME", 500, days=0)
        state(memory, clock, "ACME", 800, days=10)
        scores = [score for *_, score, _ in history(memory, "ACME")]
    assert scores[0] == pytest.approx(scores[1])


def test_decay_applies_before_the_limit(memory: Memory, clock: Clock) -> None:
    """The weighted score decides which facts make the limit, not the raw BM25 order."""
    state(memory, clock, "ACME", 500, days=0)
    state(memory, clock, "ACME", 800, days=10)
    [(value, status, *_)] = history(memory, "ACME", limit=1)
    assert (value, status) == (800, "current")


# -- archive --------------------------------------------------------------------------------------


@pytest.fixture
def aged(memory: Memory, clock: Clock) -> dict[str, str]:
    """Facts of every kind the archive must tell apart, then the clock a year later."""
    ids = {
        "old": state(memory, clock, "ACME", 500, days=0),  # superseded on day 10: archivable
        "acme_now": state(memory, clock, "ACME", 800, days=10),  # current
        "returned": state(memory, clock, "Beta", 100, days=0),  # superseded on day 10, but searched
        "beta_now": state(memory, clock, "Beta", 200, days=10),
        "young": state(memory, clock, "Gamma", 1, days=0),  # superseded on day 300: too recent
        "gamma_now": state(memory, clock, "Gamma", 2, days=300),
    }
    clock.now = T0 + timedelta(days=20)
    returned = memory.search_facts({"subject": "Beta", "include_history": True}).results
    assert [h.fact.value for h in returned] == [200, 100]
    clock.now = T0 + timedelta(days=400)
    return ids


def test_archive_moves_only_old_inactive_never_returned_facts(
    memory: Memory, aged: dict[str, str], backend: dict[str, Any]
) -> None:
    current_before = memory.search_facts({"limit": 50}).model_dump()
    result = memory.archive_facts(timedelta(days=180), actor="test")
    assert result.facts == [aged["old"]] and result.versions == 2  # created current, then superseded
    assert result.cutoff == T0 + timedelta(days=220) and not result.dry_run
    assert [(v, status, archived) for v, status, _, archived in history(memory, "ACME")] == [
        (800, "current", False)
    ]
    assert [v for v, *_ in history(memory, "Beta")] == [200, 100], "a returned fact stays"
    assert [v for v, *_ in history(memory, "Gamma")] == [2, 1], "a recent one stays"
    assert memory.search_facts({"limit": 50}).model_dump() == current_before, "current reads unchanged"
    [op] = operations(backend, "archive")
    assert op["id"] == result.operation_id and op["actor"] == "test" and op["group_id"] == "default"
    assert op["details"]["facts"] == [aged["old"]] and op["details"]["versions"] == 2
    again = memory.archive_facts(timedelta(days=180))
    assert (again.facts, again.operation_id) == ([], None)
    assert len(operations(backend, "archive")) == 1, "an archive that moves nothing records nothing"


def test_include_archived_reads_archived_facts(
    memory: Memory, aged: dict[str, str], backend: dict[str, Any]
) -> None:
    memory.archive_facts(timedelta(days=180))
    search = {"query": "ACME budget", "subject": "ACME", "include_archived": True, "limit": 50}
    found = memory.search_facts(search).results
    assert [(h.fact.value, h.fact.status, h.archived) for h in found] == [
        (800, "current", False),
        (500, "superseded", True),
    ]
    assert found[1].fact.id == aged["old"] and found[1].citations and found[1].subject_name == "ACME"
    if "database_url" in backend:  # the live table's word statistics score the archive too
        assert found[1].score == pytest.approx(found[0].score * 0.5)
    else:  # the archive's own index: in a one-fact archive every word is common, worth ~nothing
        assert 0 < found[1].score < found[0].score * 0.5
    # without a query: newest first; as_of: what was true then, from the archive.
    listed = memory.search_facts({"subject": "ACME", "include_archived": True}).results
    assert [(h.fact.value, h.archived) for h in listed][:2] == [(800, False), (500, True)]
    then = memory.search_facts({"subject": "ACME", "as_of": T0 + timedelta(days=5), "include_archived": True})
    assert [(h.fact.value, h.archived) for h in then.results] == [(500, True)]
    assert memory.search_facts({"subject": "ACME", "as_of": T0 + timedelta(days=5)}).results == []


def test_dry_run_changes_nothing(memory: Memory, aged: dict[str, str], backend: dict[str, Any]) -> None:
    memory.store.flush_fact_hits()  # type: ignore[attr-defined]
    before = table_sizes(backend)
    result = memory.archive_facts(timedelta(days=180), dry_run=True)
    assert (result.facts, result.versions, result.dry_run, result.operation_id) == (
        [aged["old"]],
        2,
        True,
        None,
    )
    assert table_sizes(backend) == before
    assert operations(backend, "archive") == []
    assert memory.archive_facts(timedelta(days=180)).facts == [aged["old"]], "the dry run told the truth"


def test_a_search_just_before_the_archive_keeps_the_fact(memory: Memory, aged: dict[str, str]) -> None:
    """Hits wait in a buffer; the archive writes them before it decides."""
    history(memory, "ACME")
    assert memory.archive_facts(timedelta(days=180)).facts == []


def test_episode_search_through_the_graph_channel_counts_as_returned(memory: Memory, clock: Clock) -> None:
    first = state(memory, clock, "ACME", 500, days=0)
    memory.search_episodes({"query": "ACME budget"})  # the graph channel reads ACME's BUDGET fact
    state(memory, clock, "ACME", 800, days=10)
    clock.now = T0 + timedelta(days=400)
    assert memory.archive_facts(timedelta(days=180)).facts == [], f"{first} was returned as evidence"


def test_archive_is_per_group(memory: Memory, aged: dict[str, str]) -> None:
    assert memory.archive_facts(timedelta(days=180), "other").facts == []
    assert memory.archive_facts(timedelta(days=180), "default").facts == [aged["old"]]


def test_a_new_fact_after_an_archive_keeps_its_own_document(
    memory: Memory, clock: Clock, aged: dict[str, str]
) -> None:
    memory.archive_facts(timedelta(days=180))
    state(memory, clock, "Delta", 7, days=401)
    assert [v for v, *_ in history(memory, "Delta")] == [7]
    assert [v for v, *_ in history(memory, "ACME", include_archived=True)] == [800, 500]


def test_bad_older_than_is_invalid_input(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as caught:
        memory.archive_facts(timedelta(0))
    assert caught.value.field == "older_than"
