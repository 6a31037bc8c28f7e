"""The graph build reads through indexes on SQLite: no statement it runs walks a whole group.

Every statement a build of agent-supplied facts runs on the writer connection is recorded (apsw's
exec trace), then asked for its plan (``EXPLAIN QUERY PLAN``) on the built store after
``ANALYZE``. A step that searches a graph table by ``group_id`` alone (or ``group_id`` and a type)
reads every row of the group: the build then slows as the group grows (bench/RESULTS.md, "Graph
build flat to 100k facts"). Plans are the planner's choice, not timings: they do not vary with
the machine.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import apsw
import pytest

from engram import Memory, Settings

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)
GRAPH_TABLES = ("facts", "entities", "entity_names", "mentions", "merge_candidates")
GROUP_WALK = re.compile(r"^(?:SCAN (?P<scan>\w+)|SEARCH \w+ USING (?:COVERING )?INDEX \S+ \(group_id=\?\))$")
"""A plan step reading a whole table or a whole group (tables appear by their alias)."""
TYPE_SORT = re.compile(r"^SEARCH \w+ USING (?:COVERING )?INDEX \S+ \(group_id=\? AND type=\?\)$")
"""All the entities of a type, a walk when they are then sorted (not read in the index's order)."""


@pytest.fixture
def traced() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Record (sql, bindings) of every statement run on connections opened meanwhile."""
    statements: list[tuple[str, dict[str, Any]]] = []

    def trace(cursor: apsw.Cursor, sql: str, bindings: Any) -> bool:
        if isinstance(bindings, dict):
            statements.append((sql, dict(bindings)))
        return True

    def hook(conn: apsw.Connection) -> None:
        conn.exec_trace = trace

    apsw.connection_hooks.append(hook)
    try:
        yield statements
    finally:
        apsw.connection_hooks.remove(hook)


def episode(i: int) -> dict[str, Any]:
    """An episode of agent-supplied facts about one of 30 people (cities and employers shared)."""
    person, city, org = f"Person {i % 30}", f"City {i % 7}", f"Org {i % 5}"
    return {
        "content": f"{person} lives in {city}, works at {org} and likes item {i}.",
        "actor": {"id": "agent", "type": "agent"},
        "timestamp": T0 + timedelta(days=i),
        "metadata": {"thread_id": f"user-{i % 30}"},
        "entities": [
            {"name": person, "type": "person"},
            {"name": city, "type": "place"},
            {"name": org, "type": "organisation"},
        ],
        "facts": [
            {"subject": person, "predicate": "LIVES_IN", "object": city},
            {"subject": person, "predicate": "WORKS_AT", "object": org},
            {"subject": person, "predicate": "LIKES", "value": f"item {i}"},
        ],
    }


def group_walks(path: Path, statements: list[tuple[str, dict[str, Any]]]) -> dict[str, list[str]]:
    """Return the graph statements whose plan walks a group, with the offending plan lines."""
    conn = apsw.Connection(str(path))
    conn.execute("ANALYZE")
    walks: dict[str, list[str]] = {}
    for sql, bindings in dict(statements).items():  # each statement once, with its last bindings
        if not sql.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE")):
            continue
        details = [str(row[3]) for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", bindings)]
        subqueries = {line.split()[-1] for line in details if line.startswith("CO-ROUTINE")}
        bad = [line for line in details if (m := GROUP_WALK.match(line)) and m["scan"] not in subqueries]
        if "USE TEMP B-TREE FOR ORDER BY" in details:
            bad += [line for line in details if TYPE_SORT.match(line)]
        if bad:
            walks[sql] = bad
    conn.close()
    return walks


def test_no_statement_of_the_graph_build_walks_the_group(
    tmp_path: Path, traced: list[tuple[str, dict[str, Any]]]
) -> None:
    settings = Settings(data_dir=tmp_path, embedder="none", extractor="none")
    with Memory.open(settings=settings, background_indexing=False) as memory:
        for start in range(0, 120, 40):
            memory.create_episodes([episode(i) for i in range(start, start + 40)])
        merged = memory.search_facts({"subject": "Person 1"}).results
    assert merged, "the build wrote facts about Person 1"
    graph_statements = [(sql, b) for sql, b in traced if any(t in sql for t in GRAPH_TABLES)]
    assert any("FROM facts" in sql for sql, _ in graph_statements), "the trace saw the build's reads"
    assert group_walks(tmp_path / "engram.db", graph_statements) == {}
