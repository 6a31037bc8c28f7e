"""API keys over MCP (streamable HTTP): the official Python SDK client sends ``Authorization:
Bearer <key>`` to a real uvicorn on loopback; roles and groups hold for every tool."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from mcp.shared.exceptions import MCPError

from conftest import serving
from engram import Memory
from mcp_clients import python_client


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def leaves(error: BaseException) -> Iterator[BaseException]:
    """Yield the exceptions inside (nested) exception groups."""
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from leaves(inner)
    else:
        yield error


def refusal(result: dict[str, Any]) -> dict[str, Any]:
    """Return a tool error's details (``_meta["engram/error"]``) after checking it is one."""
    assert result.get("isError") is True, result
    details: dict[str, Any] = result["_meta"]["engram/error"]
    return details


def test_mcp_needs_a_key_once_keys_exist(memory: Memory) -> None:
    secret = memory.keys.create("read", ["default"], "reader").secret
    revoked = memory.keys.create("read", ["default"], "gone").secret
    memory.keys.revoke("gone")

    async def scenario(base: str) -> None:
        async with python_client(url=f"{base}/mcp", headers=bearer(secret)) as client:
            listed = await client.call_tool("list_episodes", {})
            assert listed["structuredContent"]["items"] == []
        for headers in ({}, bearer(revoked), bearer("ek_" + "B" * 43)):
            with pytest.raises(BaseException) as raised:
                async with python_client(url=f"{base}/mcp", headers=headers) as client:
                    await client.list_tools()
            errors = list(leaves(raised.value))
            assert any(isinstance(e, MCPError) and "error response" in str(e) for e in errors), errors

    with serving(memory) as base:
        refused = httpx.post(f"{base}/mcp", json={}, headers=bearer(revoked))
        assert refused.status_code == 401 and refused.headers["www-authenticate"].startswith("Bearer")
        anyio.run(scenario, base)


def test_mcp_tools_keep_to_the_key_role_and_groups(memory: Memory) -> None:
    hidden = memory.create_episode({"content": "team b plans", "group_id": "team-b"}).episode
    reader = memory.keys.create("read", ["team-a"], "rita").secret
    writer = memory.keys.create("write", ["team-a"], "walt").secret

    async def scenario(base: str) -> None:
        async with python_client(url=f"{base}/mcp", headers=bearer(writer)) as client:
            created = await client.call_tool("create_episode", {"content": "team a kickoff"})
            assert created["structuredContent"]["episode"]["group_id"] == "team-a"
            for tool, arguments in (
                ("create_episode", {"content": "leak", "group_id": "team-b"}),
                ("get_episode", {"id": hidden.id, "group_id": "team-b"}),
                ("search_episodes", {"query": "plans", "group_id": "team-b"}),
                ("list_operations", {"group_id": "team-b"}),
                ("delete_episode", {"id": hidden.id, "group_id": "team-b"}),
            ):
                details = refusal(await client.call_tool(tool, arguments))
                assert details["type"] == "Forbidden" and details["field"] == "group_id", tool
            [operation] = (await client.call_tool("list_operations", {}))["structuredContent"]["items"]
            details = refusal(await client.call_tool("revert_operation", {"id": operation["id"]}))
            assert details["required_role"] == "admin"
        async with python_client(url=f"{base}/mcp", headers=bearer(reader)) as client:
            found = await client.call_tool("search_episodes", {"query": "kickoff"})
            assert [hit["episode"]["content"] for hit in found["structuredContent"]["results"]] == [
                "team a kickoff"
            ]
            details = refusal(await client.call_tool("create_episode", {"content": "read only"}))
            assert (
                details["type"] == "Forbidden"
                and details["role"] == "read"
                and details["field"] == "Authorization"
            )

    with serving(memory) as base:
        anyio.run(scenario, base)
    assert [e.content for e in memory.list_episodes("team-a").items] == ["team a kickoff"]
    assert [e.content for e in memory.list_episodes("team-b").items] == ["team b plans"]
    [ingest] = memory.list_operations("team-a", kind=["ingest"]).items
    assert ingest.actor == "walt", "the key's name is the operation's actor over MCP too"
