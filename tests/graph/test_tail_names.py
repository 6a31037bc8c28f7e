"""A project named by the tail of one known project's name is a merge candidate when the context agrees
(engram.graph.evidence.tail_of, engram.graph.build)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.graph.evidence import tail_of

T0 = datetime(2024, 3, 4, 9, tzinfo=UTC)
# ``memory`` is tests/conftest.py's: SQLite, no embedder, the default (builtin) extractor


def tell(memory: Memory, content: str, days: int, **metadata: str) -> None:
    actor = {"id": "sarah", "name": "Sarah"}
    memory.create_episode(
        {"content": content, "actor": actor, "timestamp": T0 + timedelta(days=days), "metadata": metadata}
    )


def test_the_short_name_in_the_same_conversation_is_a_candidate(memory: Memory) -> None:
    tell(memory, "The budget for the Northwind CRM rollout is $120,000.", 0, thread_id="crm")
    tell(memory, "The go-live for the CRM rollout is set for September 1.", 1, thread_id="crm")
    [candidate] = memory.merge_candidates()
    assert {candidate.entity.name, candidate.candidate.name} == {"CRM rollout", "Northwind CRM rollout"}


def test_the_short_name_with_nothing_else_shared_stays_apart(memory: Memory) -> None:
    tell(memory, "The budget for the Northwind CRM rollout is $120,000.", 0)
    tell(memory, "The go-live for the CRM rollout is set for September 1.", 1)
    assert memory.merge_candidates() == []


def test_a_tail_of_two_known_names_names_neither(memory: Memory) -> None:
    tell(memory, "The budget for the Northwind CRM rollout is $120,000.", 0, thread_id="crm")
    tell(memory, "The budget for the Globex CRM rollout is $90,000.", 0, thread_id="crm")
    tell(memory, "The go-live for the CRM rollout is set for September 1.", 1, thread_id="crm")
    assert [c for c in memory.merge_candidates() if "CRM rollout" in (c.entity.name, c.candidate.name)] == []


@pytest.mark.parametrize(
    ("key", "known", "expected"),
    [
        ("crm rollout", "northwind crm rollout", True),
        ("northwind crm rollout", "crm rollout", True),
        ("rollout", "northwind crm rollout", False),  # one word: too little
        ("crm rollout", "crm rollout", False),  # the same name is an exact match, not a tail
        ("m rollout", "crm rollout", False),  # a word boundary
    ],
)
def test_tail_of(key: str, known: str, expected: bool) -> None:
    assert tail_of(key, known) is expected
