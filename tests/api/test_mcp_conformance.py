"""Conformance: both official MCP SDK clients (Python, TypeScript) drive every tool's success and
error paths, the prompt and the resources, over stdio (``engram mcp``) and streamable HTTP
(``engram serve`` at /mcp).

The clients check what they check on their own: the TypeScript SDK validates every structured
result against the tool's output schema and throws otherwise (an error result carrying a
structured body used to fail that way). On top, every result must read well: a success carries
structured content once plus compact text (not a JSON dump); an error carries ``isError``, its
message and the field in the text, details in ``_meta``, and no structured content.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_clients import (
    ClientRaised,
    McpClient,
    engram_serve,
    ensure_typescript_sdk,
    python_client,
    typescript_client,
)

TOOLS = {"create_episode", "create_episodes", "update_episode", "get_episode", "list_episodes"}
TOOLS |= {"search_episodes", "search_facts", "search_entities", "get_entity", "add_facts"}
TOOLS |= {"merge_entities", "update_entity", "list_operations", "revert_operation", "delete_episode"}
TOOLS |= {"get_reference"}
LI = {"type": "user", "id": "u_7", "name": "李强"}
TOOLS_LIST_BUDGET = 25 * 1024
"""tools/list (16 tools) must stay small: it goes into every agent's context."""


def text(result: dict[str, Any]) -> str:
    """Return the text part of a result."""
    return "\n".join(block["text"] for block in result["content"] if block["type"] == "text")


def ok(result: dict[str, Any]) -> dict[str, Any]:
    """Return a success's structured content; check its text is compact lines, not a JSON dump."""
    assert not result.get("isError"), text(result)
    structured = result["structuredContent"]
    assert isinstance(structured, dict)
    assert not text(result).lstrip().startswith("{"), "the text part must not repeat the JSON"
    return structured


def refused(result: dict[str, Any], field: str, *words: str) -> str:
    """Check an error result that names ``field`` (and ``words``) in its text; return the text."""
    assert result.get("isError") is True, result
    assert "structuredContent" not in result, "an error must not carry a body that contradicts the schema"
    message = text(result)
    assert f"field: {field}" in message, message
    assert result["_meta"]["engram/error"]["field"] == field
    for word in words:
        assert word in message, (word, message)
    return message


def every_property_described(schema: dict[str, Any], where: str) -> None:
    """Check every argument, nested ones included, has a description."""
    for name, prop in schema.get("properties", {}).items():
        assert prop.get("description"), f"{where}.{name} has no description"
    for name, nested in schema.get("$defs", {}).items():
        every_property_described(nested, f"{where}.{name}")


async def conformance(client: McpClient, group: str) -> None:
    """Call every tool the way an agent would, on success and error paths; then prompts and resources."""
    tools = {tool["name"]: tool for tool in await client.list_tools()}
    assert set(tools) == TOOLS
    listed = json.dumps({"tools": list(tools.values())}, ensure_ascii=False, separators=(",", ":"))
    assert len(listed.encode()) < TOOLS_LIST_BUDGET
    for name, tool in tools.items():
        assert tool["description"] and tool["outputSchema"]["type"] == "object"
        every_property_described(tool["inputSchema"], name)

    # create_episode
    g = {"group_id": group}
    entities = [{"name": "李强", "type": "person"}, {"name": "杭州", "type": "place"}]
    fact = {"subject": "李强", "predicate": "LIVES_IN", "object": "杭州", "fact": "李强住在杭州"}
    created = ok(
        await client.call_tool(
            "create_episode",
            {"content": "我住在杭州", "actor": LI, "entities": entities, "facts": [fact], **g},
        )
    )
    home = created["episode"]["id"]
    assert created["deduplicated"] is False and created["episode"]["version"] == 1
    again = await client.call_tool("create_episode", {"content": "我住在杭州", "actor": LI, **g})
    assert ok(again)["deduplicated"] is True and "deduplicated" in text(again)
    refused(await client.call_tool("create_episode", {"content": "  ", **g}), "content", "Invalid input")
    refused(await client.call_tool("create_episode", {"content": "x", "grup_id": "a"}), "grup_id", "unknown")

    # get_episode
    got = await client.call_tool("get_episode", {"id": home, **g})
    assert ok(got)["episode"]["content"] == "我住在杭州" and f"[source: {home}]" in text(got)
    refused(await client.call_tool("get_episode", {"id": "ep_missing", **g}), "id", "ep_missing")

    # update_episode
    updated = ok(
        await client.call_tool(
            "update_episode", {"id": home, "expected_version": 1, "patch": {"metadata": {"seen": True}}, **g}
        )
    )
    assert updated["episode"]["version"] == 2
    stale = {"id": home, "expected_version": 1, "patch": {"intent": "note"}, **g}
    refused(await client.call_tool("update_episode", stale), "expected_version", "current_version: 2")
    refused(await client.call_tool("update_episode", {"id": home, "patch": {}, **g}), "expected_version")

    # list_episodes, a page at a time
    work = ok(
        await client.call_tool(
            "create_episode",
            {"content": "Caroline moved the shipping date to Friday", "source": "slack", **g},
        )
    )["episode"]["id"]
    first = await client.call_tool("list_episodes", {"limit": 1, **g})
    page = ok(first)
    assert [e["id"] for e in page["items"]] == [work] and page["next_cursor"] in text(first)
    rest = ok(await client.call_tool("list_episodes", {"limit": 1, "cursor": page["next_cursor"], **g}))
    assert [e["id"] for e in rest["items"]] == [home] and rest["next_cursor"] is None
    refused(await client.call_tool("list_episodes", {"limit": "abc", **g}), "limit")

    # search_episodes
    hits = await client.call_tool("search_episodes", {"query": "shipping date Friday", **g})
    assert ok(hits)["results"][0]["citation"] == f"[source: {work}]" and f"[source: {work}]" in text(hits)
    refused(await client.call_tool("search_episodes", {"query": "x", "limit": 101, **g}), "limit")

    # get_reference: the episodes citing a document, by id or by name
    cited = {"content": "合同见《主合同》第3条", "references": ["doc-主合同-v2"], "source": "email", **g}
    contract = ok(await client.call_tool("create_episode", cited))["episode"]["id"]
    reference = await client.call_tool("get_reference", {"ref": "主合同_v2.pdf", **g})
    assert [i["citation"] for i in ok(reference)["items"]] == [f"[source: {contract}]"]
    assert "latest doc-主合同-v2" in text(reference) and f"[source: {contract}]" in text(reference)
    refused(await client.call_tool("get_reference", {"ref": "doc-none", **g}), "ref", "doc-none")

    # search_facts, search_entities, get_entity
    facts = await client.call_tool("search_facts", {"query": "杭州", **g})
    assert ok(facts)["results"][0]["fact"]["predicate"] == "LIVES_IN" and f"[source: {home}]" in text(facts)
    refused(await client.call_tool("search_facts", {"subject": "Nobody", **g}), "subject")
    found = ok(await client.call_tool("search_entities", {"query": "李强", **g}))["results"]
    li = found[0]["id"]
    refused(await client.call_tool("search_entities", {"query": "", **g}), "query")
    entity = await client.call_tool("get_entity", {"id": li, **g})
    assert ok(entity)["entity"]["name"] == "李强" and "LIVES_IN 杭州" in text(entity)
    refused(await client.call_tool("get_entity", {"id": "en_missing", **g}), "id")

    # add_facts
    budget = {"subject": "李强", "predicate": "BUDGET", "value": 500000, "fact": "李强的预算是五十万"}
    added = await client.call_tool("add_facts", {"episode_id": home, "facts": [budget], **g})
    assert ok(added)["facts"] == {"new": 1} and "new 1" in text(added)
    refused(
        await client.call_tool("add_facts", {"episode_id": "ep_nope", "facts": [budget], **g}), "episode_id"
    )

    # merge_entities
    nick = ok(
        await client.call_tool(
            "create_episode",
            {"content": "小李今天请假", "entities": [{"name": "小李", "type": "person"}], "facts": [], **g},
        )
    )["episode"]["id"]
    small = ok(await client.call_tool("search_entities", {"query": "小李", **g}))["results"][0]["id"]
    merged = ok(await client.call_tool("merge_entities", {"id": small, "into": li, **g}))
    assert "小李" in merged["entity"]["aliases"]
    refused(await client.call_tool("merge_entities", {"id": small, "into": li, **g}), "id")

    # delete_episode, list_operations, revert_operation
    deleted = ok(await client.call_tool("delete_episode", {"id": nick, **g}))["operation"]["id"]
    refused(await client.call_tool("delete_episode", {"id": "ep_missing", **g}), "id")
    log = await client.call_tool("list_operations", {"kind": ["delete"], **g})
    assert [o["id"] for o in ok(log)["items"]] == [deleted] and deleted in text(log)
    refused(await client.call_tool("list_operations", {"cursor": "@@", **g}), "cursor")
    revert = ok(await client.call_tool("revert_operation", {"id": deleted, **g}))["operation"]["id"]
    message = refused(await client.call_tool("revert_operation", {"id": deleted, **g}), "id", "Conflict")
    assert revert in message, "the text names the conflicting operations"

    # the prompt, in English and Chinese, brings the evidence and its citations
    prompts = {prompt["name"]: prompt for prompt in await client.list_prompts()}
    assert {a["name"] for a in prompts["answer_from_memory"]["arguments"]} == {
        "question",
        "group_id",
        "language",
    }
    english = await client.get_prompt("answer_from_memory", {"question": "李强住在哪里", "group_id": group})
    words = english["messages"][0]["content"]["text"]
    assert "[source: <episode id>]" in words and "does not know" in words and f"[source: {home}]" in words
    chinese = await client.get_prompt(
        "answer_from_memory", {"question": "李强住在哪里", "group_id": group, "language": "zh"}
    )
    words = chinese["messages"][0]["content"]["text"]
    assert "只根据" in words and "有争议" in words and f"[source: {home}]" in words
    with pytest.raises(ClientRaised):
        await client.get_prompt("answer_from_memory", {"question": "x", "language": "fr"})
    with pytest.raises(ClientRaised, match="needs the argument 'question'"):  # not "Internal server error"
        await client.get_prompt("answer_from_memory", {"group_id": group})

    # resources open a citation
    templates = {t["uriTemplate"] for t in await client.list_resource_templates()}
    assert templates == {
        "engram://groups/{group_id}/episodes/{id}",
        "engram://groups/{group_id}/entities/{id}",
    }
    opened = await client.read_resource(f"engram://groups/{group}/episodes/{home}")
    assert "我住在杭州" in opened["contents"][0]["text"]
    person = await client.read_resource(f"engram://groups/{group}/entities/{li}")
    assert "LIVES_IN 杭州" in person["contents"][0]["text"]
    with pytest.raises(ClientRaised, match="ep_missing"):
        await client.read_resource(f"engram://groups/{group}/episodes/ep_missing")


# -- the four ways in --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Yield the /mcp URL of an ``engram serve`` subprocess."""
    root = tmp_path_factory.mktemp("served")
    with engram_serve(root / "data", root / "serve.log") as base:
        yield f"{base}/mcp"


CLIENTS = {"python": python_client, "typescript": typescript_client}


@pytest.mark.slow
@pytest.mark.parametrize("sdk", sorted(CLIENTS))
def test_over_stdio(sdk: str, tmp_path: Path) -> None:
    if sdk == "typescript":
        ensure_typescript_sdk()  # skips, saying what to install, without Node.js and npm

    async def scenario() -> None:
        async with CLIENTS[sdk](data_dir=tmp_path / "data") as client:
            await conformance(client, f"stdio-{sdk}")

    anyio.run(scenario)
    for log in tmp_path.glob("*.txt"):
        assert "Traceback" not in log.read_text(), log.read_text()


@pytest.mark.slow
@pytest.mark.parametrize("sdk", sorted(CLIENTS))
def test_over_streamable_http(sdk: str, served: str) -> None:
    if sdk == "typescript":
        ensure_typescript_sdk()

    async def scenario() -> None:
        # any header passes through (the place for "Authorization: Bearer <key>")
        async with CLIENTS[sdk](url=served, headers={"X-Client": f"conformance-{sdk}"}) as client:
            await conformance(client, f"http-{sdk}")

    anyio.run(scenario)
