"""Deleting or purging a value inside a chain of updates: the latest value stays the one current.

500k, then 800k, then 900k: deleting the 800k must not bring 500k back beside 900k; deleting the
900k afterwards brings 500k back; purging a correction brings back what it corrected.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram import Memory, Settings
from history_support import ACME, budget, say


def budgets(memory: Memory) -> dict[int, tuple[str, str | None]]:
    """Return each ACME budget with its status and the fact that replaced it."""
    hits = memory.search_facts({"limit": 50, "include_history": True}).results
    return {int(h.fact.value): (h.fact.status, h.fact.superseded_by) for h in hits}


def chain(memory: Memory) -> list[str]:
    return [
        say(memory, f"ACME budget is {value}", days=day, entities=ACME, facts=budget(value))
        for day, value in ((0, 500_000), (10, 800_000), (20, 900_000))
    ]


def current(memory: Memory) -> list[int]:
    return sorted(value for value, (status, _) in budgets(memory).items() if status == "current")


def test_deleting_the_middle_value_leaves_the_latest_current(memory: Memory) -> None:
    _, middle, last = chain(memory)
    memory.delete_episode(middle)
    found = budgets(memory)
    latest = next(h.fact.id for h in memory.search_facts({}).results)
    assert current(memory) == [900_000]
    assert found[500_000] == ("superseded", latest) and found[800_000][0] == "retracted"
    memory.delete_episode(last)  # then the one that replaced it: the first comes back
    assert current(memory) == [500_000]


@pytest.mark.parametrize("order", [("last", "middle"), ("middle", "first")])
def test_deleting_two_values_of_a_chain_in_any_order_leaves_the_one_left_current(
    memory: Memory, order: tuple[str, str]
) -> None:
    ids = dict(zip(("first", "middle", "last"), chain(memory), strict=True))
    for name in order:
        memory.delete_episode(ids[name])
    left = {"first": 500_000, "middle": 800_000, "last": 900_000}
    (remaining,) = set(left) - set(order)
    assert current(memory) == [left[remaining]]


def test_reverting_the_delete_of_the_middle_value_restores_the_chain(memory: Memory) -> None:
    _, middle, _ = chain(memory)
    before = budgets(memory)
    memory.revert_operation(memory.delete_episode(middle).operation.id)
    assert budgets(memory) == before


def test_purging_a_correction_brings_back_what_it_corrected(memory: Memory) -> None:
    kept = say(memory, "ACME budget is 500k", days=0, entities=ACME, facts=budget(500_000))
    secret = say(memory, "ACME budget is now 800k", days=5, entities=ACME, facts=budget(800_000))
    assert current(memory) == [800_000]
    operation, _ = memory.purge_episode(secret)
    assert current(memory) == [500_000]
    kinds = [o.kind for o in memory.list_operations(limit=3).items]
    assert kinds[:2] == ["purge", "delete"], "the live episode was retracted, then erased"
    assert operation.details["episode"] == secret and kept


def test_a_thread_meeting_moved_twice_keeps_the_last_move_when_the_first_is_deleted(
    memory: Memory,
) -> None:
    """The same rule across subjects: a meeting time moved by two participants in a thread."""

    def said(actor: str, day: int, value: str, content: str) -> str:
        person = {"name": actor, "type": "person"}
        fact: dict[str, Any] = {"subject": actor, "predicate": "MEETING_AT", "value": value, "fact": content}
        return say(memory, content, days=day, entities=[person], facts=[fact], metadata={"thread_id": "t1"})

    said("Alice", 0, "2024-03-08 15:00", "Let's meet Friday at 3pm.")
    moved = said("Bob", 1, "2024-03-11 10:00", "I moved the meeting to Monday at 10am.")
    said("Carol", 2, "2024-03-12 14:00", "I moved the meeting to Tuesday at 2pm instead.")
    memory.delete_episode(moved)
    live = {h.fact.value for h in memory.search_facts({"predicate": "MEETING_AT"}).results}
    assert live == {"2024-03-12 14:00"}


def test_deleting_the_middle_value_after_an_archive_leaves_the_latest_current(
    backend: dict[str, Any],
) -> None:
    """The archived older values are out of the live graph: the delete gives them nothing back."""
    now = [datetime.now(UTC)]
    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings, clock=lambda: now[0]) as memory:
        _, middle, _ = chain(memory)
        now[0] += timedelta(days=400)
        assert len(memory.archive_facts(timedelta(days=180)).facts) == 2, "the 500k and the 800k"
        memory.delete_episode(middle)
        assert current(memory) == [900_000]
