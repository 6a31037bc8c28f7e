"""Helpers of the history tests (tests/history): episodes at known times, ACME budget facts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from engram import Memory

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)
ACME = [{"name": "ACME", "type": "organization"}]


def say(memory: Memory, content: str, *, days: int, **extra: Any) -> str:
    """Store an episode by actor ``li`` ``days`` after T0; return its id."""
    body = {"content": content, "actor": {"id": "li"}, "timestamp": T0 + timedelta(days=days)}
    return memory.create_episode({**body, **extra}).episode.id


def budget(value: int) -> list[dict[str, Any]]:
    """Return the agent-supplied fact "ACME's budget is ``value``"."""
    return [{"subject": "ACME", "predicate": "BUDGET", "value": value, "fact": f"ACME budget {value}"}]
