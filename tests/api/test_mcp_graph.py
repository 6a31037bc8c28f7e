"""The MCP knowledge-graph tools (search_facts, search_entities, get_entity, add_facts) and
create_episode's agent-supplied entities and facts, driven by the SDK's own client.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
import pytest
import uvicorn
from mcp import Client
from mcp_types import CallToolResult

from engram.api.app import create_app
from engram.api.mcp.server import create_mcp_server
from engram.config import Settings
from engram.memory import Memory

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)
LI = {"type": "user", "id": "u_7", "name": "李强"}
CAROLINE = {"type": "user", "id": "u_8", "name": "Caroline"}


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


def just_before(iso: str) -> str:
    """Return the ISO time one microsecond before ``iso``."""
    return (datetime.fromisoformat(iso) - timedelta(microseconds=1)).isoformat()


def at(days: int) -> str:
    """Return the ISO time ``days`` after T0."""
    return (T0 + timedelta(days=days)).isoformat()


@pytest.fixture
def memory(backend: dict[str, Any]) -> Iterator[Memory]:
    """Yield a Memory on each backend with the builtin extractor and no embedder (fast)."""
    settings = Settings(**backend, embedder="none", extractor="builtin")
    with Memory.open(settings=settings) as opened:
        yield opened


def in_process(memory: Memory, scenario: Callable[[Client], Awaitable[None]]) -> None:
    """Run ``scenario`` against create_mcp_server(memory) through the SDK's in-process client."""

    async def main() -> None:
        async with Client(create_mcp_server(memory)) as client:
            await scenario(client)

    anyio.run(main)


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call ``tool`` and return its structured content, failing on a tool error."""
    return data(await client.call_tool(tool, arguments))


def triples(hits: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Return (subject name, predicate, object name or value, status) of fact hits, sorted."""
    return sorted(
        (
            h["subject_name"],
            h["fact"]["predicate"],
            h["object_name"] or h["fact"]["value"],
            h["fact"]["status"],
        )
        for h in hits
    )


async def budget_update(client: Client) -> tuple[str, str]:
    """Store ACME's budget 500k, then 800k a month later; return both episode ids."""
    first = await call(
        client,
        "create_episode",
        content="ACME 的预算是五十万",
        timestamp=at(0),
        actor=LI,
        entities=[{"name": "ACME", "type": "organisation"}],
        facts=[{"subject": "ACME", "predicate": "BUDGET", "value": 500000, "fact": "ACME 的预算是五十万"}],
    )
    second = await call(
        client,
        "create_episode",
        content="Update: ACME's budget is now 800k",
        timestamp=at(30),
        actor=CAROLINE,
        facts=[{"subject": "ACME", "predicate": "budget", "value": 800000, "fact": "ACME budget is 800k"}],
    )
    return first["episode"]["id"], second["episode"]["id"]


def test_agent_extracted_facts_in_chinese_and_english_are_found_with_citations(memory: Memory) -> None:
    async def scenario(client: Client) -> None:
        chinese = await call(
            client,
            "create_episode",
            content="我住在杭州，在阿里巴巴工作。",
            actor=LI,
            timestamp=at(0),
            entities=[
                {"name": "李强", "type": "person", "aliases": ["小李"]},
                {"name": "杭州", "type": "place"},
                {"name": "阿里巴巴", "type": "organisation"},
            ],
            facts=[
                {"subject": "李强", "predicate": "住在", "object": "杭州", "fact": "李强住在杭州"},
                {
                    "subject": "李强",
                    "predicate": "WORKS_AT",
                    "object": "阿里巴巴",
                    "fact": "李强在阿里巴巴工作",
                },
            ],
        )
        chinese_id = chinese["episode"]["id"]
        english = await call(
            client,
            "create_episode",
            content="I prefer tea on weekends.",
            actor=CAROLINE,
            timestamp=at(1),
            entities=[{"name": "Caroline", "type": "person"}],
            facts=[
                {
                    "subject": "Caroline",
                    "predicate": "PREFERS",
                    "value": "tea",
                    "conditions": {"when": "weekends"},
                    "fact": "Caroline prefers tea on weekends",
                    "confidence": 0.9,
                    "source_kind": "stated",
                }
            ],
        )
        english_id = english["episode"]["id"]

        [hit] = (await call(client, "search_facts", query="杭州"))["results"]
        assert (hit["subject_name"], hit["fact"]["predicate"], hit["object_name"]) == (
            "李强",
            "LIVES_IN",
            "杭州",
        )
        assert hit["fact"]["fact"] == "李强住在杭州" and hit["fact"]["status"] == "current"
        assert hit["citations"] == [f"[source: {chinese_id}]"], "synonym 住在 mapped, fact cited"
        by_alias = await call(client, "search_facts", subject="小李", predicate="works at")
        assert triples(by_alias["results"]) == [("李强", "WORKS_AT", "阿里巴巴", "current")]
        [tea] = (await call(client, "search_facts", query="tea"))["results"]
        assert tea["fact"]["conditions"] == {"when": "weekends"} and tea["fact"]["confidence"] == 0.9
        assert tea["citations"] == [f"[source: {english_id}]"]

        # without entities/facts the builtin extractor runs; empty lists build no graph
        await call(client, "create_episode", content="I live in Boston.", actor=CAROLINE, timestamp=at(2))
        found = await call(client, "search_facts", subject="Caroline", predicate="LIVES_IN")
        assert triples(found["results"]) == [("Caroline", "LIVES_IN", "Boston", "current")]
        await call(
            client, "create_episode", content="I work at Initech.", actor=CAROLINE, entities=[], facts=[]
        )
        assert (await call(client, "search_entities", query="Initech"))["results"] == []

    in_process(memory, scenario)


def test_an_update_hides_the_old_fact_unless_history_is_asked(memory: Memory) -> None:
    async def scenario(client: Client) -> None:
        first, second = await budget_update(client)
        current = await call(client, "search_facts", query="budget")
        assert triples(current["results"]) == [("ACME", "BUDGET", 800000, "current")]
        assert current["results"][0]["citations"] == [f"[source: {second}]"]

        history = (await call(client, "search_facts", subject="ACME", include_history=True))["results"]
        by_value = {h["fact"]["value"]: h for h in history}
        assert {v: h["fact"]["status"] for v, h in by_value.items()} == {
            500000: "superseded",
            800000: "current",
        }
        old, new = by_value[500000], by_value[800000]
        assert old["fact"]["superseded_by"] == new["fact"]["id"] and old["citations"] == [
            f"[source: {first}]"
        ]
        assert old["fact"]["invalid_at"] == new["fact"]["valid_at"]

        then = await call(client, "search_facts", subject="ACME", as_of=at(10))
        assert [h["fact"]["value"] for h in then["results"]] == [500000], "as_of is valid time"
        before = just_before(new["fact"]["recorded_at"])
        believed = await call(client, "search_facts", subject="ACME", known_at=before)
        assert [h["fact"]["value"] for h in believed["results"]] == [500000], "known_at is transaction time"

        await call(
            client,
            "create_episode",
            content="听说 ACME 的预算可能是一百万",
            timestamp=at(31),
            facts=[
                {
                    "subject": "ACME",
                    "predicate": "BUDGET",
                    "value": 1000000,
                    "confidence": 0.4,
                    "source_kind": "inferred",
                }
            ],
        )
        disputed = await call(client, "search_facts", subject="ACME")
        assert triples(disputed["results"]) == [
            ("ACME", "BUDGET", 800000, "current"),
            ("ACME", "BUDGET", 1000000, "disputed"),
        ], "a weaker conflicting claim is disputed; the stated one stays current"
        weaker = next(h["fact"] for h in disputed["results"] if h["fact"]["status"] == "disputed")
        assert "less credible" in weaker["status_reason"]

    in_process(memory, scenario)


def test_get_entity_shows_facts_and_a_bounded_timeline(memory: Memory) -> None:
    async def scenario(client: Client) -> None:
        first, second = await budget_update(client)
        [acme] = (await call(client, "search_entities", query="acme"))["results"]
        view = await call(client, "get_entity", id=acme["id"])
        assert view["entity"]["name"] == "ACME" and view["entity"]["type"] == "organisation"
        assert triples(view["facts"]) == [("ACME", "BUDGET", 800000, "current")], "current facts only"
        assert view["facts"][0]["citations"] == [f"[source: {second}]"]
        assert [v["version"] for v in view["timeline"]] == list(range(1, acme["version"] + 1))
        assert view["facts_truncated"] is False and view["timeline_truncated"] is False

        before = just_before(view["facts"][0]["fact"]["recorded_at"])
        known = await call(client, "get_entity", id=acme["id"], known_at=before)
        assert [h["fact"]["value"] for h in known["facts"]] == [500000], "as memory knew it then"

        for n in range(22):  # each new alias is a new entity version
            await call(
                client,
                "create_episode",
                content=f"ACME unit {n}",
                timestamp=at(40 + n),
                entities=[{"name": "ACME", "type": "organisation", "aliases": [f"Acme Unit {n:02d}"]}],
                facts=[],
            )
        await call(
            client,
            "add_facts",
            episode_id=first,
            facts=[{"subject": acme["id"], "predicate": "USES", "value": f"tool-{n:03d}"} for n in range(55)],
        )
        view = await call(client, "get_entity", id=acme["id"])
        assert len(view["facts"]) == 50 and view["facts_truncated"] is True
        assert len(view["timeline"]) == 20 and view["timeline_truncated"] is True
        assert view["timeline"][-1]["version"] == view["entity"]["version"], "the newest versions are kept"

    in_process(memory, scenario)


def test_search_entities_by_name_alias_and_type(memory: Memory) -> None:
    async def scenario(client: Client) -> None:
        supplied = [
            ("李强（强哥）买了一台 Apple 电脑", [{"name": "李强", "type": "person", "aliases": ["强哥"]}]),
            ("Apple the company", [{"name": "Apple", "type": "organisation"}]),
            ("an apple to eat", [{"name": "Apple", "type": "food"}]),
        ]
        for content, entities in supplied:
            await call(client, "create_episode", content=content, entities=entities, facts=[])
        [li] = (await call(client, "search_entities", query="强哥"))["results"]
        assert li["name"] == "李强" and li["aliases"] == ["强哥"] and li["id"].startswith("en_")
        both = (await call(client, "search_entities", query="apple"))["results"]
        assert {e["type"] for e in both} == {"organisation", "food"}, "different types never merge"
        only = (await call(client, "search_entities", query="apple", types=["food"], limit=5))["results"]
        assert [e["type"] for e in only] == ["food"]
        assert (await call(client, "search_entities", query="nobody", group_id="other"))["results"] == []

    in_process(memory, scenario)


def test_add_facts_to_an_existing_episode(memory: Memory) -> None:
    async def scenario(client: Client) -> None:
        note = await call(
            client, "create_episode", content="Bob: tea please, and I'm off to Kyoto", entities=[], facts=[]
        )
        episode_id = note["episode"]["id"]
        assert (await call(client, "search_facts"))["results"] == [], "empty lists built no graph"
        facts = [
            {"subject": "Bob", "predicate": "LIKES", "value": "tea", "fact": "Bob likes tea"},
            {
                "subject": "Bob",
                "predicate": "plans to visit",
                "object": "Kyoto",
                "fact": "Bob will visit Kyoto",
            },
        ]
        entities = [{"name": "Bob", "type": "person"}, {"name": "Kyoto", "type": "place"}]
        added = await call(client, "add_facts", episode_id=episode_id, entities=entities, facts=facts)
        assert added["episode_id"] == episode_id and added["facts"] == {"new": 2}
        assert len(added["fact_ids"]) == 2 and len(added["entities_created"]) == 2
        again = await call(client, "add_facts", episode_id=episode_id, facts=facts[:1])
        assert again["facts"] == {"restatement": 1}, "the same claim again is not a second fact"
        found = await call(client, "search_facts", subject="Bob")
        assert triples(found["results"]) == [
            ("Bob", "LIKES", "tea", "current"),
            ("Bob", "PLANS_TO_VISIT", "Kyoto", "current"),
        ]
        assert all(h["citations"] == [f"[source: {episode_id}]"] for h in found["results"])

    in_process(memory, scenario)


def test_an_unknown_predicate_is_kept_and_said_with_the_closest_known_one(memory: Memory) -> None:
    async def scenario(client: Client) -> None:
        facts = [{"subject": "Ann", "predicate": "WORK_AT", "object": "Acme", "fact": "Ann works at Acme"}]
        result = await client.call_tool(
            "create_episode", {"content": "Ann works at Acme", "entities": [], "facts": facts}
        )
        created = data(result)
        assert created["unknown_predicates"] == ["WORK_AT"]
        text = result.content[0].text  # type: ignore[union-attr]
        assert "Unknown predicates" in text and "WORK_AT (did you mean WORKS_AT?)" in text
        added = await call(
            client,
            "add_facts",
            episode_id=created["episode"]["id"],
            facts=[{**facts[0], "predicate": "NOT_A_PRED"}],
        )
        assert added["unknown_predicates"] == ["NOT_A_PRED"]

    in_process(memory, scenario)


def test_graph_errors_are_tool_errors_and_the_server_keeps_serving(memory: Memory) -> None:
    async def scenario(client: Client) -> None:
        episode_id = (await call(client, "create_episode", content="note", facts=[]))["episode"]["id"]
        fact = {"subject": "Bob", "predicate": "LIKES", "value": "tea"}

        text, details = error(await client.call_tool("get_entity", {"id": "en_01ABCDEFGHJKMNPQRSTVWXYZ00"}))
        assert "en_01ABCDEFGHJKMNPQRSTVWXYZ00" in text
        assert details["type"] == "NotFound" and details["field"] == "id"
        text, details = error(await client.call_tool("add_facts", {"episode_id": "ep_nope", "facts": [fact]}))
        assert "ep_nope" in text and details["type"] == "NotFound" and details["field"] == "episode_id"
        both = {**fact, "object": "Kyoto"}
        text, details = error(
            await client.call_tool("add_facts", {"episode_id": episode_id, "facts": [both]})
        )
        assert "exactly one of object" in text and details["field"] == "facts.0"
        text, details = error(
            await client.call_tool("create_episode", {"content": "x", "facts": [{**fact, "value": None}]})
        )
        assert "exactly one of object" in text and details["type"] == "InvalidInput"
        text, details = error(await client.call_tool("add_facts", {"episode_id": episode_id, "facts": []}))
        assert details["field"] == "facts"
        text, details = error(
            await client.call_tool(
                "create_episode", {"content": "x", "entities": [{"name": "A", "kind": "x"}]}
            )
        )
        assert "entities.0.kind: unknown field" in text
        text, details = error(await client.call_tool("search_facts", {"subject": "Nobody"}))
        assert "Nobody" in text and details["field"] == "subject"
        text, details = error(await client.call_tool("search_facts", {"limit": 101}))
        assert details["field"] == "limit"
        text, details = error(await client.call_tool("search_entities", {"query": "x", "limit": 101}))
        assert details["field"] == "limit"
        text, details = error(await client.call_tool("get_entity", {"id": "x", "as_of": "2024-01-01"}))
        assert text.startswith("Invalid input: as_of: unknown argument")

        added = await call(client, "add_facts", episode_id=episode_id, facts=[fact])
        assert added["facts"] == {"new": 1}, "the server keeps serving after tool errors"

    in_process(memory, scenario)


def test_descriptions_teach_extraction_and_current_vs_history(memory: Memory) -> None:
    async def scenario(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert {"search_facts", "search_entities", "get_entity", "add_facts"} <= set(tools)
        create = tools["create_episode"].description or ""
        for phrase in ("entities=[", "facts=[", "invalid_at", '{"when": "weekends"}', "confidence"):
            assert phrase in create, phrase
        for phrase in ('"I"/"我" is the actor', "object (an entity) or value (a literal)", "no server LLM"):
            assert phrase in create, phrase
        assert {"entities", "facts"} <= set(tools["create_episode"].input_schema["properties"])
        fact_fields = tools["add_facts"].input_schema["$defs"]["FactIn"]["properties"]
        assert all(field.get("description") for field in fact_fields.values()), "FactIn fields described"
        assert "create_episode" in (tools["add_facts"].description or "")
        for phrase in ("disputed", "uncertain", "include_history", "citations"):
            assert phrase in (tools["search_facts"].description or ""), phrase
        properties = tools["search_facts"].input_schema["properties"]
        assert {"as_of", "known_at"} <= set(properties) and "Valid time" in properties["as_of"]["description"]
        assert tools["search_facts"].input_schema["properties"]["limit"]["maximum"] == 100
        assert tools["search_entities"].input_schema["properties"]["limit"]["maximum"] == 100
        assert "≤ 50" in (tools["get_entity"].description or "")
        reads = [tools[name].annotations for name in ("search_facts", "search_entities", "get_entity")]
        assert all(a is not None and a.read_only_hint for a in reads)
        assert (
            tools["add_facts"].annotations is not None and not tools["add_facts"].annotations.read_only_hint
        )
        assert "search_facts" in (client.session.instructions or "")

    in_process(memory, scenario)


def test_graph_tools_over_streamable_http(memory: Memory) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    server = uvicorn.Server(
        uvicorn.Config(create_app(memory), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)

    async def scenario() -> None:
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            await budget_update(client)
            found = await call(client, "search_facts", subject="ACME", include_history=True)
            assert triples(found["results"]) == [
                ("ACME", "BUDGET", 500000, "superseded"),
                ("ACME", "BUDGET", 800000, "current"),
            ]
            text, details = error(await client.call_tool("get_entity", {"id": "en_missing"}))
            assert details["type"] == "NotFound" and "en_missing" in text

    try:
        anyio.run(scenario)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert not thread.is_alive()


def test_merge_entities_over_mcp(memory: Memory) -> None:
    async def scenario(client: Client) -> None:
        for name in ("小李", "李强"):
            await call(
                client,
                "create_episode",
                content=f"{name} 来了",
                timestamp=at(0),
                actor=LI,
                entities=[{"name": name, "type": "person"}],
                facts=[{"subject": name, "predicate": "LIKES", "value": f"{name}的茶"}],
            )
        small = (await call(client, "search_entities", query="小李"))["results"][0]["id"]
        full = (await call(client, "search_entities", query="李强"))["results"][0]["id"]
        merged = await call(client, "merge_entities", id=small, into=full)
        assert merged["entity"]["id"] == full and "小李" in merged["entity"]["aliases"]
        assert len(merged["facts"]) == 2
        message, body = error(await client.call_tool("merge_entities", {"id": small, "into": full}))
        assert body["field"] == "id" and small in message
        assert (await call(client, "get_entity", id=full))["entity"]["id"] == full

    in_process(memory, scenario)


@pytest.mark.parametrize("order", ["as written", "reversed"])
def test_the_create_episode_example_builds_the_graph_it_describes(memory: Memory, order: str) -> None:
    """The example in create_episode's description is valid input and builds the graph it shows.

    Reversed, the older fact arrives after the current one: it keeps its own invalid_at.
    """

    async def scenario(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        description = tools["create_episode"].description or ""
        example = {
            key: json.loads(line.removeprefix(f"{key}="))
            for line in description.splitlines()
            for key in ("entities", "facts")
            if line.startswith(f"{key}=")
        }
        content = re.search(r'content\s+"([^"]+)"', description)
        assert content is not None and set(example) == {"entities", "facts"}
        if order == "reversed":
            example["facts"].reverse()
        created = await call(
            client,
            "create_episode",
            content=content.group(1),
            actor={"id": "u_7", "name": "李强"},
            timestamp="2025-01-10T09:00:00Z",
            **example,
        )
        source = f"[source: {created['episode']['id']}]"
        hits = (await call(client, "search_facts", subject="李强", include_history=True, limit=20))["results"]
        by_object = {(h["fact"]["predicate"], h["object_name"] or h["fact"]["value"]): h for h in hits}
        assert set(by_object) == {
            ("LIVES_IN", "杭州"),
            ("LIVES_IN", "上海"),
            ("WORKS_AT", "Initech"),
            ("BUDGET", 500000),
        }
        assert all(source in h["citations"] for h in hits)
        shanghai = by_object[("LIVES_IN", "上海")]["fact"]
        assert shanghai["invalid_at"].startswith("2024-03-01") and shanghai["status"] == "superseded"
        assert by_object[("LIVES_IN", "杭州")]["fact"]["status"] == "current"
        assert by_object[("WORKS_AT", "Initech")]["fact"]["conditions"] == {"when": "weekends"}
        budget = by_object[("BUDGET", 500000)]["fact"]
        assert budget["confidence"] == 0.7 and budget["source_kind"] == "inferred"

    in_process(memory, scenario)
