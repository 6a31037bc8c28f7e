"""Bulk create over REST (POST /v1/episodes:batch) and MCP (create_episodes): a result per item."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from mcp.types import TextContent

from conftest import LOOPBACK
from engram.api.app import create_app
from engram.api.mcp.server import create_mcp_server
from engram.config import Settings
from engram.memory import Memory


@pytest.fixture
def small(tmp_path: Path) -> Iterator[Memory]:
    """A memory with small limits: 40-byte contents, 3 episodes per batch."""
    settings = Settings(data_dir=tmp_path / "data", max_content_bytes=40, max_batch_episodes=3)
    with Memory.open(settings=settings) as memory:
        yield memory


def test_rest_batch_stores_the_good_and_names_the_bad(small: Memory) -> None:
    with TestClient(create_app(small), base_url=LOOPBACK) as client:
        body = {
            "episodes": [
                {"id": "a", "content": "first", "actor": {"id": "li"}},
                {"content": "x" * 100},
                {"content": "third", "group_id": "team-b", "colour": "red"},
            ]
        }
        response = client.post("/v1/episodes:batch", json=body)
        assert response.status_code == 200, response.text
        result = response.json()
        assert [r["status"] for r in result["results"]] == ["created", "failed", "failed"]
        assert (result["created"], result["deduplicated"], result["failed"]) == (1, 0, 2)
        assert result["results"][0]["episode"]["id"] == "a"
        too_big = result["results"][1]["problem"]
        assert too_big["field"] == "content" and too_big["status"] == 422 and "limit" in too_big["detail"]
        assert result["results"][2]["problem"]["field"] == "colour"
        assert client.get("/v1/episodes/a").status_code == 200

        again = client.post(
            "/v1/episodes:batch",
            json={
                "episodes": [
                    {"id": "a", "content": "first", "actor": {"id": "li"}},
                    {"id": "a", "content": "other"},
                ]
            },
        ).json()
        assert [r["status"] for r in again["results"]] == ["deduplicated", "failed"]
        assert again["results"][1]["problem"]["status"] == 409  # the id names other content

        over = client.post("/v1/episodes:batch", json={"episodes": [{"content": "x"}] * 4})
        assert over.status_code == 422
        assert over.headers["content-type"].startswith("application/problem+json")
        assert over.json()["field"] == "episodes"
        assert client.post("/v1/episodes:batch", json={"episodes": []}).status_code == 422
        # the route with a colon is its own route, not an episode id
        assert client.get("/v1/episodes/episodes:batch").status_code == 404
    assert small.store.counts()["episodes"] == 1


def test_mcp_create_episodes(small: Memory) -> None:
    async def scenario() -> dict[str, Any]:
        async with Client(create_mcp_server(small)) as client:
            result = await client.call_tool(
                "create_episodes",
                {"episodes": [{"content": "alpha", "intent": "confirm_date"}, {"content": "y" * 80}]},
            )
            assert not result.is_error, result.content
            assert isinstance(result.structured_content, dict)
            [part] = result.content
            assert isinstance(part, TextContent)
            lines = part.text.splitlines()
            assert lines[0] == "1 stored, 0 already stored, 1 failed:", "a compact reading, not JSON"
            assert lines[1].startswith("#0 created [source: ep_") and lines[-1].startswith("#1 failed: ")
            assert lines[-1].endswith("(field: content)")
            return result.structured_content

    result = anyio.run(scenario)
    assert [r["status"] for r in result["results"]] == ["created", "failed"]
    assert result["results"][0]["episode"]["intent"] == "confirm_date"
    assert result["results"][1]["problem"]["field"] == "content"
    assert small.store.counts()["episodes"] == 1
