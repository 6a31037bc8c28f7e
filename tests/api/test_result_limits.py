"""The same result limits over REST and MCP: contents cut with a marker, pages cut to a byte budget
with a cursor that continues exactly where the cut was, for lists, searches and the audit log.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
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

BUDGET = 3000
CONTENT_CHARS = 120
T0 = datetime(2024, 5, 1, tzinfo=UTC)


@pytest.fixture
def tight(tmp_path: Path) -> Iterator[Memory]:
    """Yield a Memory with a small byte budget and content limit, holding 30 episodes about pottery."""
    settings = Settings(
        data_dir=tmp_path / "data",
        embedder="none",
        extractor="none",
        result_budget_bytes=BUDGET,
        result_content_chars=CONTENT_CHARS,
    )
    with Memory.open(settings=settings) as memory:
        memory.create_episodes(
            [
                {
                    "content": f"pottery class {n}: " + "glaze and kiln notes " * (2 + n % 9),
                    "timestamp": T0 + timedelta(hours=n),
                }
                for n in range(30)
            ]
        )
        yield memory


def mcp(memory: Memory, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Return the structured results of ``calls`` made through the SDK's in-process client."""
    results: list[dict[str, Any]] = []

    async def main() -> None:
        async with Client(create_mcp_server(memory)) as client:
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                assert not result.is_error, result.content
                assert isinstance(result.structured_content, dict)
                results.append(result.structured_content)

    anyio.run(main)
    return results


def rest_pages(
    http: TestClient, method: str, path: str, body: dict[str, Any], key: str
) -> list[list[dict[str, Any]]]:
    """Follow next_cursor from the first page to the last; return the pages' items."""
    pages: list[list[dict[str, Any]]] = []
    cursor = None
    while True:
        payload = {**body, **({"cursor": cursor} if cursor else {})}
        response = http.get(path, params=payload) if method == "GET" else http.post(path, json=payload)
        assert response.status_code == 200, response.text
        page = response.json()
        pages.append(page[key])
        cursor = page["next_cursor"]
        if cursor is None:
            return pages
        assert len(pages) < 40, "the cursor must make progress"


def test_list_pages_stop_at_the_budget_and_continue_without_gaps(tight: Memory) -> None:
    with TestClient(create_app(tight), base_url=LOOPBACK) as http:
        pages = rest_pages(http, "GET", "/v1/episodes", {"limit": 100}, "items")
        first_mcp = mcp(tight, [("list_episodes", {"limit": 100})])[0]
    assert len(pages) > 1, "30 episodes of ~200 bytes of content do not fit in 3000 bytes"
    ids = [item["id"] for page in pages for item in page]
    assert ids == [e.id for e in tight.list_episodes(limit=100).items], "every episode once, in order"
    assert [e["id"] for e in first_mcp["items"]] == [e["id"] for e in pages[0]], "MCP cuts where REST cuts"
    for page in pages:
        # a page holds what fits, plus at most the one item that crossed the budget
        assert sum(len(json.dumps(item, ensure_ascii=False).encode()) for item in page[:-1]) <= BUDGET * 1.1
    cut = [item for page in pages for item in page if item["content_truncated"]]
    assert cut and all(
        len(item["content"]) == CONTENT_CHARS and item["content"].endswith("…") for item in cut
    )
    full = tight.get_episode(cut[0]["id"]).content
    assert len(full) > CONTENT_CHARS and full.startswith(cut[0]["content"][:-1])


def test_search_pages_continue_the_same_ranking(tight: Memory) -> None:
    query = {"query": "pottery kiln", "limit": 30}
    whole = [hit.episode.id for hit in tight.search_episodes(query).results]
    with TestClient(create_app(tight), base_url=LOOPBACK) as http:
        pages = rest_pages(http, "POST", "/v1/episodes/search", query, "results")
        assert len(pages) > 1
        assert [hit["episode"]["id"] for page in pages for hit in page] == whole, "no hit lost or repeated"
        first = http.post("/v1/episodes/search", json=query).json()
        other = http.post(
            "/v1/episodes/search", json={**query, "query": "glaze", "cursor": first["next_cursor"]}
        )
        assert other.status_code == 422 and other.json()["field"] == "cursor", "a cursor belongs to its query"
    [first_mcp, second_mcp] = mcp(
        tight,
        [("search_episodes", query), ("search_episodes", {**query, "cursor": first["next_cursor"]})],
    )
    assert [h["episode"]["id"] for h in first_mcp["results"]] == [h["episode"]["id"] for h in pages[0]]
    assert [h["episode"]["id"] for h in second_mcp["results"]] == [h["episode"]["id"] for h in pages[1]]


def test_library_search_cursor_pages_through_the_ranking(tight: Memory) -> None:
    whole = [hit.episode.id for hit in tight.search_episodes({"query": "pottery", "limit": 30}).results]
    seen: list[str] = []
    cursor = None
    while True:
        page = tight.search_episodes({"query": "pottery", "limit": 7, "cursor": cursor})
        seen += [hit.episode.id for hit in page.results]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == whole


def test_search_limit_cap_is_the_same_over_rest_and_mcp(tight: Memory) -> None:
    with TestClient(create_app(tight), base_url=LOOPBACK) as http:
        assert http.post("/v1/episodes/search", json={"query": "x", "limit": 100}).status_code == 200
        assert http.post("/v1/episodes/search", json={"query": "x", "limit": 101}).status_code == 422

    async def main() -> None:
        async with Client(create_mcp_server(tight)) as client:
            assert not (await client.call_tool("search_episodes", {"query": "x", "limit": 100})).is_error
            assert (await client.call_tool("search_episodes", {"query": "x", "limit": 101})).is_error

    anyio.run(main)


def test_operations_pages_stop_at_the_budget(tight: Memory) -> None:
    for episode in tight.list_episodes(limit=30).items[:25]:
        tight.delete_episode(episode.id)
    with TestClient(create_app(tight), base_url=LOOPBACK) as http:
        pages = rest_pages(http, "GET", "/v1/operations", {"limit": 100}, "items")
    assert len(pages) > 1
    ids = [operation["id"] for page in pages for operation in page]
    assert ids == [o.id for o in tight.list_operations(limit=100).items]
