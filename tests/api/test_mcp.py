"""The MCP server, driven by the SDK's own client: over stdio (a real ``engram mcp`` subprocess),
over streamable HTTP (a real uvicorn serving the REST app too), and in process.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import uvicorn
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult

from engram.api.app import create_app
from engram.api.mcp.server import create_mcp_server
from engram.api.results import ResultLimits
from engram.config import Settings
from engram.memory import Memory
from engram.storage.engine import SQLStorage
from engram.storage.open import open_sqlite

TOOLS = {"create_episode", "create_episodes", "update_episode", "get_episode", "list_episodes"}
TOOLS |= {"search_episodes", "search_facts", "search_entities", "get_entity", "add_facts"}
TOOLS |= {"merge_entities", "update_entity"}
TOOLS |= {"list_operations", "revert_operation", "delete_episode", "get_reference"}
ENGLISH = "Caroline moved the shipping date of order 4471 to Friday"
CHINESE = "客户投诉订单 4471 发货太慢，要求改到周五前送达"


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """Run an async scenario to completion (no pytest async plugin needed)."""
    anyio.run(scenario)


def data(result: CallToolResult) -> dict[str, Any]:
    """Return a successful result's structured content."""
    assert not result.is_error, f"tool error: {result.content}"
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def error(result: CallToolResult) -> tuple[str, dict[str, Any]]:
    """Return a tool error's text and its details (``_meta["engram/error"]``); no structured content."""
    assert result.is_error, f"expected a tool error, got {result.structured_content}"
    assert result.structured_content is None, "an error must not contradict the output schema"
    text = result.content[0].text  # type: ignore[union-attr]
    assert result.meta is not None
    details: dict[str, Any] = result.meta["engram/error"]
    if details.get("field"):
        assert f"field: {details['field']}" in text, "the text names the field"
    return text, details


async def core_flow(client: Client, group: str) -> dict[str, str]:
    """Exercise every tool the way an agent would; return the ids created."""
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    assert all(tool.output_schema and tool.description for tool in tools.values())

    first = data(await client.call_tool("create_episode", {"content": ENGLISH, "group_id": group}))
    assert first["deduplicated"] is False and first["episode"]["version"] == 1
    english_id = first["episode"]["id"]
    again = data(await client.call_tool("create_episode", {"content": ENGLISH, "group_id": group}))
    assert again["deduplicated"] is True and again["episode"]["id"] == english_id, "re-create must dedup"
    chinese = data(
        await client.call_tool(
            "create_episode",
            {
                "content": CHINESE,
                "group_id": group,
                "actor": {"type": "user", "id": "u_42", "name": "李强"},
                "intent": "complain_product",
                "timestamp": "2024-05-01T09:30:00",
                "metadata": {"channel": "wechat"},
            },
        )
    )
    chinese_id = chinese["episode"]["id"]
    assert chinese["episode"]["timestamp"].startswith("2024-05-01T09:30:00"), "naive time is read as UTC"

    got = data(await client.call_tool("get_episode", {"id": chinese_id, "group_id": group}))
    assert got["episode"]["content"] == CHINESE and got["episode"]["actor"]["id"] == "u_42"

    page1 = data(await client.call_tool("list_episodes", {"group_id": group, "limit": 1}))
    assert [e["id"] for e in page1["items"]] == [english_id], "newest first"
    assert page1["next_cursor"]
    page2 = data(
        await client.call_tool(
            "list_episodes", {"group_id": group, "limit": 1, "cursor": page1["next_cursor"]}
        )
    )
    assert [e["id"] for e in page2["items"]] == [chinese_id] and page2["next_cursor"] is None

    hits = data(
        await client.call_tool("search_episodes", {"query": "Caroline shipping date", "group_id": group})
    )
    assert hits["results"][0]["episode"]["id"] == english_id, "best hit first"
    assert hits["results"][0]["citation"] == f"[source: {english_id}]"
    hits = data(await client.call_tool("search_episodes", {"query": "客户投诉发货", "group_id": group}))
    assert hits["results"][0]["episode"]["id"] == chinese_id, "Chinese is segmented"
    assert hits["results"][0]["citation"] == f"[source: {chinese_id}]"

    updated = data(
        await client.call_tool(
            "update_episode",
            {
                "id": chinese_id,
                "group_id": group,
                "expected_version": 1,
                "patch": {"metadata": {"handled": True}},
            },
        )
    )
    assert updated["episode"]["version"] == 2
    assert updated["episode"]["metadata"] == {"channel": "wechat", "handled": True}, "metadata is merged"
    text, details = error(
        await client.call_tool(
            "update_episode",
            {"id": chinese_id, "group_id": group, "expected_version": 1, "patch": {"status": "archived"}},
        )
    )
    assert f"episode '{chinese_id}' is at version 2, not 1" in text
    assert details["current_version"] == 2 and details["type"] == "PreconditionFailed"

    text, details = error(await client.call_tool("create_episode", {"content": "   ", "group_id": group}))
    assert text.startswith("Invalid input: content:") and details["field"] == "content"
    text, details = error(await client.call_tool("get_episode", {"id": "ep_missing", "group_id": group}))
    assert "ep_missing" in text and details["type"] == "NotFound"
    text, details = error(await client.call_tool("list_episodes", {"group_id": group, "limit": "many"}))
    assert text.startswith("Invalid input: limit:") and details["field"] == "limit"

    still = data(await client.call_tool("get_episode", {"id": english_id, "group_id": group}))
    assert still["episode"]["version"] == 1, "the server keeps serving after tool errors"
    return {"english": english_id, "chinese": chinese_id}


# -- stdio ------------------------------------------------------------------------------------------


def test_stdio_subprocess_serves_the_core_flow(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    errlog_path = tmp_path / "stderr.txt"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "engram", "mcp", "--data-dir", str(data_dir)], cwd=tmp_path
    )
    ids: dict[str, str] = {}

    async def scenario() -> None:
        with errlog_path.open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                assert client.server_info is not None and client.server_info.name == "engram"
                ids.update(await core_flow(client, "team-a"))

    run(scenario)
    stderr = errlog_path.read_text()
    assert "Traceback" not in stderr, stderr
    with Memory.open(data_dir) as memory:  # the subprocess wrote where --data-dir said
        assert memory.get_episode(ids["chinese"], "team-a").version == 2


# -- streamable HTTP ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def http_memory(tmp_path: Path) -> Iterator[Memory]:
    """Yield a Memory on a fresh SQLite file."""
    with Memory.open(settings=Settings(data_dir=tmp_path / "data")) as memory:
        yield memory


@pytest.fixture
def base_url(http_memory: Memory) -> Iterator[str]:
    """Serve create_app(http_memory) with uvicorn on 127.0.0.1 in a thread; yield its base URL."""
    port = _free_port()
    config = uvicorn.Config(create_app(http_memory), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    assert not thread.is_alive(), "uvicorn did not stop (MCP session manager stuck in lifespan?)"


def test_http_serves_the_core_flow_and_shares_memory_with_rest(base_url: str) -> None:
    rest_id = httpx.post(
        f"{base_url}/v1/episodes", json={"content": "created over REST", "group_id": "g1"}
    ).json()["episode"]["id"]
    ids: dict[str, str] = {}

    async def scenario() -> None:
        async with Client(f"{base_url}/mcp") as client:
            ids.update(await core_flow(client, "team-b"))
            seen = data(await client.call_tool("get_episode", {"id": rest_id, "group_id": "g1"}))
            assert seen["episode"]["content"] == "created over REST"

    run(scenario)
    response = httpx.get(f"{base_url}/v1/episodes/{ids['chinese']}", params={"group_id": "team-b"})
    assert response.status_code == 200 and response.headers["etag"] == '"2"', "REST sees the MCP update"


def test_http_mcp_answers_at_exactly_slash_mcp_beside_rest_docs_and_health(base_url: str) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw-http", "version": "0"},
        },
    }
    headers = {"Accept": "application/json, text/event-stream"}
    with httpx.Client(base_url=base_url, follow_redirects=False) as http:
        response = http.post("/mcp", json=initialize, headers=headers)
        assert response.status_code == 200, response.text
        assert response.json()["result"]["serverInfo"]["name"] == "engram"
        rebinding = http.post("/mcp", json=initialize, headers={**headers, "Host": "evil.example"})
        assert rebinding.status_code == 421, "DNS-rebinding protection admits only loopback Host headers"
        assert http.get("/healthz").json()["status"] == "ok"
        assert http.get("/docs").status_code == 200
        assert "/mcp" not in http.get("/openapi.json").json()["paths"]
        created = http.post("/v1/episodes", json={"content": "REST still works"})
        assert created.status_code == 201


# -- in process: the finer points of the contract -------------------------------------------------


@pytest.fixture
def memory_dir(tmp_path: Path) -> Iterator[Memory]:
    """Yield a Memory on a fresh SQLite file, for in-process servers."""
    with Memory.open(settings=Settings(data_dir=tmp_path / "inproc")) as memory:
        yield memory


def in_process(memory: Memory, scenario: Callable[[Client], Awaitable[None]], **options: Any) -> None:
    """Run ``scenario`` against create_mcp_server(memory) through the SDK's in-process client."""

    async def main() -> None:
        async with Client(create_mcp_server(memory, **options)) as client:
            await scenario(client)

    run(main)


def test_lists_and_search_truncate_long_content_but_get_returns_it_whole(memory_dir: Memory) -> None:
    long = "pottery class " * 20  # 280 characters

    async def scenario(client: Client) -> None:
        created = data(await client.call_tool("create_episode", {"content": long}))
        view = created["episode"]
        assert (
            view["content_truncated"] is True and len(view["content"]) == 40 and view["content"].endswith("…")
        )
        listed = data(await client.call_tool("list_episodes", {}))["items"][0]
        assert listed["content_truncated"] is True and len(listed["content"]) == 40
        hit = data(await client.call_tool("search_episodes", {"query": "pottery"}))["results"][0]
        assert hit["episode"]["content_truncated"] is True and len(hit["episode"]["content"]) == 40
        full = data(await client.call_tool("get_episode", {"id": view["id"]}))["episode"]
        assert full["content"] == long.strip()
        short = data(await client.call_tool("create_episode", {"content": "short"}))["episode"]
        assert short["content_truncated"] is False and short["content"] == "short"

    in_process(memory_dir, scenario, limits=ResultLimits(content_chars=40))


def test_limits_are_capped_and_unknown_arguments_refused(memory_dir: Memory) -> None:
    async def scenario(client: Client) -> None:
        assert data(await client.call_tool("list_episodes", {"limit": 500}))["items"] == []
        text, details = error(await client.call_tool("list_episodes", {"limit": 501}))
        assert "limit" in text and details["field"] == "limit"
        assert data(await client.call_tool("search_episodes", {"query": "x", "limit": 100}))["results"] == []
        text, details = error(await client.call_tool("search_episodes", {"query": "x", "limit": 101}))
        assert "limit" in text and details["field"] == "limit"
        text, details = error(await client.call_tool("create_episode", {"content": "hi", "grup_id": "g"}))
        assert text.startswith("Invalid input: grup_id: unknown argument") and details["field"] == "grup_id"
        text, details = error(
            await client.call_tool("search_episodes", {"query": "x", "filters": {"intnet": []}})
        )
        assert "filters.intnet: unknown field" in text
        text, details = error(await client.call_tool("list_episodes", {"cursor": "not-a-cursor"}))
        assert details["field"] == "cursor"
        text, details = error(await client.call_tool("get_episode", {"id": "x", "group_id": "no spaces"}))
        assert details["field"] == "group_id"

    in_process(memory_dir, scenario)


def test_update_is_a_merge_patch_that_needs_the_version(memory_dir: Memory) -> None:
    async def scenario(client: Client) -> None:
        episode = data(
            await client.call_tool(
                "create_episode",
                {"content": "ship by Friday", "intent": "confirm_date", "metadata": {"a": 1, "b": 2}},
            )
        )["episode"]
        text, details = error(
            await client.call_tool("update_episode", {"id": episode["id"], "patch": {"intent": None}})
        )
        assert details["field"] == "expected_version", text
        patched = data(
            await client.call_tool(
                "update_episode",
                {
                    "id": episode["id"],
                    "expected_version": 1,
                    "patch": {"intent": None, "metadata": {"a": None}},
                },
            )
        )["episode"]
        assert patched["intent"] is None and patched["metadata"] == {"b": 2} and patched["version"] == 2
        assert patched["content"] == "ship by Friday", "content is immutable"
        text, details = error(
            await client.call_tool(
                "update_episode",
                {"id": episode["id"], "expected_version": 2, "patch": {"content": "changed"}},
            )
        )
        assert details["field"] == "patch.content"

    in_process(memory_dir, scenario)


def test_groups_are_isolated(memory_dir: Memory) -> None:
    async def scenario(client: Client) -> None:
        episode = data(await client.call_tool("create_episode", {"content": "secret of a", "group_id": "a"}))
        episode_id = episode["episode"]["id"]
        text, _ = error(await client.call_tool("get_episode", {"id": episode_id, "group_id": "b"}))
        assert "group 'b'" in text
        assert data(await client.call_tool("list_episodes", {"group_id": "b"}))["items"] == []
        assert (
            data(await client.call_tool("search_episodes", {"query": "secret", "group_id": "b"}))["results"]
            == []
        )
        default = data(await client.call_tool("list_episodes", {}))["items"]
        assert default == [], "omitting group_id means the default group, not all groups"

    in_process(memory_dir, scenario)


def test_tool_descriptions_teach_the_agent(memory_dir: Memory) -> None:
    async def scenario(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "deduplicated" in (tools["create_episode"].description or "")
        assert "expected_version" in (tools["update_episode"].description or "")
        assert "[source: <episode id>]" in (tools["search_episodes"].description or "")
        assert "next_cursor" in (tools["list_episodes"].description or "")
        group = tools["get_episode"].input_schema["properties"]["group_id"]
        assert "namespace" in group["description"]
        assert tools["list_episodes"].input_schema["properties"]["limit"]["maximum"] == 500
        assert tools["search_episodes"].input_schema["properties"]["limit"]["maximum"] == 100
        assert (
            tools["get_episode"].annotations is not None and tools["get_episode"].annotations.read_only_hint
        )
        assert "group_id" in (client.session.instructions or "")

    in_process(memory_dir, scenario)


class GatedStore:
    """A real SQLite store whose get_episode for id "slow" waits until the test opens the gate."""

    def __init__(self, inner: SQLStorage) -> None:
        self._inner = inner
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.opened_in_time: bool | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def get_episode(self, group_id: str, episode_id: str, known_at: Any = None) -> Any:
        if episode_id == "slow":
            self.entered.set()
            self.opened_in_time = self.gate.wait(timeout=5)
        return self._inner.get_episode(group_id, episode_id, known_at)


def test_a_slow_memory_call_does_not_block_other_calls(tmp_path: Path) -> None:
    store = GatedStore(open_sqlite(tmp_path / "gated.db"))
    memory = Memory(store, Settings(data_dir=tmp_path))  # GatedStore is a Storage by delegation
    results: dict[str, CallToolResult] = {}

    async def scenario(client: Client) -> None:
        async def slow() -> None:
            results["slow"] = await client.call_tool("get_episode", {"id": "slow"})

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(slow)
            assert await anyio.to_thread.run_sync(store.entered.wait, 5), "the slow call never started"
            data(await client.call_tool("create_episode", {"content": "served while another call waits"}))
            assert len(data(await client.call_tool("list_episodes", {}))["items"]) == 1
            store.gate.set()
        assert store.opened_in_time is True, "other calls waited for the slow one: tools block the event loop"
        assert error(results["slow"])[1]["type"] == "NotFound"

    try:
        in_process(memory, scenario)
    finally:
        memory.close()
