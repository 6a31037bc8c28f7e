"""Portable export/import through PostgreSQL: a SQLite group moves there and back unchanged, and
a PostgreSQL group to another PostgreSQL schema row for row (thread context and archive included)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from conftest import with_search_path
from engram.config import Settings
from engram.errors import NotFound
from engram.memory import Memory
from test_portable import OTHER, Clock, G, build, export, open_memory, stored_rows


@pytest.fixture
def postgres_memory(postgres_url: str) -> Iterator[Memory]:
    settings = Settings(database_url=postgres_url, embedder="none")  # type: ignore[arg-type]
    with Memory.open(settings=settings, background_indexing=False) as memory:
        yield memory


def canonical(items: list[dict[str, Any]]) -> list[str]:
    """Return the rows and end lines as sorted JSON text (PostgreSQL keeps no row order; headers differ)."""
    return sorted(json.dumps(item, sort_keys=True) for item in items if item["record"] != "engram-export")


def test_a_group_moves_to_postgresql_and_back(postgres_memory: Memory, tmp_path: Path) -> None:
    clock = Clock()
    with open_memory(tmp_path / "source", clock) as memory:
        moments = build(memory, clock)
        items = export(memory, G, OTHER)
        assert {"archived_fact", "fact_hit"} <= {item["record"] for item in items}
        counts = postgres_memory.import_records(items, batch_size=7)
        assert not counts.skipped and counts.groups == [G, OTHER]
        again = postgres_memory.import_records(items)
        assert not again.created and not again.closed and sum(again.skipped.values()) == again.rows
        back = export(postgres_memory, G, OTHER)
        assert canonical(back) == canonical(items)

        for record in (i for i in items if i["record"] in ("episode", "entity") and i["group_id"] == G):
            for at in (None, *moments.values()):
                episode = record["record"] == "episode"
                read = memory.get_episode if episode else memory.get_entity
                there = postgres_memory.get_episode if episode else postgres_memory.get_entity
                try:
                    expected: Any = read(record["id"], G, known_at=at)
                except NotFound:
                    expected = None
                try:
                    found: Any = there(record["id"], G, known_at=at)
                except NotFound:
                    found = None
                assert found == expected, (record["id"], at)
        history = {"query": "", "group_id": G, "include_history": True, "limit": 100}
        assert postgres_memory.search_facts(history) == memory.search_facts(history)

        with open_memory(tmp_path / "back") as copy:
            copy.import_records(back)
            assert stored_rows(copy) == stored_rows(memory)


def pg_rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Return every row of the portable tables (thread context as text), sorted, JSON key order aside."""
    queries = {
        "episode_docs": "SELECT group_id, id, fingerprint, thread, timestamp, created_at, text, "
        "context_doc::text FROM episode_docs",
        "episodes": "SELECT * FROM episodes",
        "operations": "SELECT * FROM operations",
        "entities": "SELECT * FROM entities",
        "entity_names": "SELECT * FROM entity_names",
        "facts": "SELECT * FROM facts",
        "fact_docs": "SELECT group_id, id, text FROM fact_docs",
        "mentions": "SELECT * FROM mentions",
        "merge_candidates": "SELECT * FROM merge_candidates",
        "archived_facts": "SELECT * FROM archived_facts",
        "archived_fact_docs": "SELECT group_id, id, text FROM archived_fact_docs",
        "fact_hits": "SELECT * FROM fact_hits",
    }
    with psycopg.connect(url) as conn:
        return {
            table: sorted((tuple(map(repr, row)) for row in conn.execute(sql).fetchall()), key=repr)
            for table, sql in queries.items()
        }


def test_postgresql_to_postgresql_keeps_rows_and_thread_context(
    postgres_server: str, postgres_memory: Memory, postgres_url: str
) -> None:
    clock = Clock()
    settings = Settings(database_url=postgres_url, embedder="none")  # type: ignore[arg-type]
    with Memory.open(settings=settings, background_indexing=False, clock=clock) as source:
        build(source, clock)  # deletes m7, a turn of thread s1; archives a fact; records a hit
        items = export(source, G, OTHER)
        assert {"archived_fact", "fact_hit"} <= {item["record"] for item in items}
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    target_url = with_search_path(postgres_server, schema)
    try:
        target = Settings(database_url=target_url, embedder="none")  # type: ignore[arg-type]
        with Memory.open(settings=target, background_indexing=False) as copy:
            copy.import_records(items, batch_size=5)
        assert pg_rows(target_url) == pg_rows(postgres_url)
    finally:
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
