"""A small memory for console tests and screenshots: a merge candidate, a dispute, searchable episodes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from engram import Memory

T0 = datetime(2026, 11, 20, 9, tzinfo=UTC)


@dataclass(frozen=True)
class Seeded:
    """Ids the tests look for."""

    caroline: str
    carolyn: str
    acme: str
    project: str
    complaint: str
    unclassified: str


def say(memory: Memory, content: str, days: float, group: str | None = None, **fields: Any) -> str:
    """Store an episode ``days`` after T0 by actor ``li`` (unless given); return its id."""
    payload = {
        "content": content,
        "timestamp": (T0 + timedelta(days=days)).isoformat(),
        "actor": {"id": "li"},
    }
    created = memory.create_episode({**payload, **fields, "group_id": group}, actor="test")
    return created.episode.id


def seed(memory: Memory, group: str | None = None) -> Seeded:
    """Fill ``memory`` (one group) with what every console page has something to show about."""
    people = [("Caroline", 0), ("Carolyn", 1)]
    for name, day in people:
        say(
            memory,
            f"{name} works at Acme",
            day,
            group,
            metadata={"session": 1},
            intent="request_info",
            source="email",
            entities=[{"name": name, "type": "person"}, {"name": "Acme", "type": "organisation"}],
            facts=[{"subject": name, "predicate": "WORKS_AT", "object": "Acme"}],
        )
    say(
        memory,
        "杭州项目预算是五十万",
        2,
        group,
        intent="provide_quote",
        source="meeting",
        entities=[{"name": "杭州项目", "type": "project"}],
        facts=[{"subject": "杭州项目", "predicate": "BUDGET", "value": 500000, "confidence": 0.95}],
    )
    say(
        memory,
        "听说杭州项目预算可能是八十万",
        3,
        group,
        intent="follow_up",
        source="phone",
        facts=[
            {
                "subject": "杭州项目",
                "predicate": "BUDGET",
                "value": 800000,
                "confidence": 0.5,
                "source_kind": "inferred",
            }
        ],
    )
    complaint = say(
        memory,
        "The customer complained that the invoice INV-2041 was wrong",
        4,
        group,
        intent="complain_product",
        source="phone",
    )
    unclassified = say(memory, "Lunch with the Globex team went well", 5, group, source="note")
    found = {
        e.name: e.id
        for q in ("Caroline", "Carolyn", "Acme", "杭州项目")
        for e in memory.search_entities(q, group)
    }
    return Seeded(
        found["Caroline"], found["Carolyn"], found["Acme"], found["杭州项目"], complaint, unclassified
    )
