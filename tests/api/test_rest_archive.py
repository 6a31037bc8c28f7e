"""Archived facts over REST (POST /v1/facts/search) and MCP (search_facts): include_archived."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client

from conftest import LOOPBACK
from engram.api.app import create_app
from engram.api.mcp.server import create_mcp_server
from engram.config import Settings
from engram.memory import Memory

T0 = datetime(2024, 1, 1, 9, tzinfo=UTC)


@pytest.fixture
def archived(backend: dict[str, Any]) -> Iterator[Memory]:
    """A memory (each backend) where ACME's budget went 500 -> 800 in January 2024, the 500 archived."""
    now = [T0]
    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings, clock=lambda: now[0], background_indexing=False) as memory:
        for day, amount in ((0, 500), (10, 800)):
            now[0] = T0 + timedelta(days=day)
            memory.create_episode(
                {
                    "content": f"ACME budget is {amount}",
                    "timestamp": now[0],
                    "entities": [{"name": "ACME", "type": "project"}],
                    "facts": [
                        {"subject": "ACME", "predicate": "BUDGET", "value": amount, "fact": "ACME budget"}
                    ],
                }
            )
        now[0] = T0 + timedelta(days=365)
        assert len(memory.archive_facts(timedelta(days=180)).facts) == 1
        yield memory


def values(hits: list[dict[str, Any]]) -> list[tuple[Any, str, bool]]:
    return [(h["fact"]["value"], h["fact"]["status"], h["archived"]) for h in hits]


def test_rest_include_archived(archived: Memory) -> None:
    with TestClient(create_app(archived), base_url=LOOPBACK) as client:
        body = {"query": "ACME budget", "include_history": True}
        live = client.post("/v1/facts/search", json=body)
        assert live.status_code == 200 and values(live.json()["results"]) == [(800, "current", False)]
        both = client.post("/v1/facts/search", json={"query": "ACME budget", "include_archived": True})
        assert values(both.json()["results"]) == [(800, "current", False), (500, "superseded", True)]
        assert both.json()["results"][1]["citations"][0].startswith("[source: ep_")
        then = client.post(
            "/v1/facts/search",
            json={"subject": "ACME", "as_of": "2024-01-05T00:00:00Z", "include_archived": True},
        )
        assert values(then.json()["results"]) == [(500, "superseded", True)]
        current = client.post("/v1/facts/search", json={"query": "ACME budget"})
        assert values(current.json()["results"]) == [(800, "current", False)]
        bad = client.post("/v1/facts/search", json={"query": "x", "include_archived": "maybe"})
        assert bad.status_code == 422


def test_mcp_search_facts_include_archived(archived: Memory) -> None:
    async def main() -> None:
        async with Client(create_mcp_server(archived)) as client:
            result = await client.call_tool(
                "search_facts", {"query": "ACME budget", "include_archived": True}
            )
            assert not result.is_error and isinstance(result.structured_content, dict)
            assert values(result.structured_content["results"]) == [
                (800, "current", False),
                (500, "superseded", True),
            ]

    anyio.run(main)
