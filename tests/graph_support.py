"""Helpers of the graph tests: a group's facts read back, and its graph as comparable tuples."""

from __future__ import annotations

from typing import Any

from engram import Memory
from engram.models.graph import FactHit


def facts(memory: Memory, group: str = "llm") -> list[FactHit]:
    """Return every fact version of the group, current or not."""
    return memory.search_facts({"group_id": group, "include_history": True, "limit": 100}).results


def graph_shape(memory: Memory, group: str) -> list[tuple[Any, ...]]:
    """Return the group's facts as comparable tuples: names, values, times, status, provenance."""
    return sorted(
        (
            h.subject_name,
            h.fact.predicate,
            h.object_name,
            str(h.fact.value),
            h.fact.fact,
            sorted(h.fact.conditions.items()),
            h.fact.confidence,
            h.fact.source_kind,
            h.fact.status,
            h.fact.valid_at,
            h.fact.invalid_at,
            len(h.fact.episodes),
        )
        for h in facts(memory, group)
    )
