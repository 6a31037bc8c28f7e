"""Drive a real server (uvicorn on loopback) through REST and MCP, then read /metrics: every metric
moves as it should. The LLM and the embeddings endpoint are the fake OpenAI server."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from conftest import free_port, serving
from engram import Memory, Settings
from engram.models.episodes import OPERATION_KINDS
from engram.nlp.embed import EmbedderError
from fakes.openai_server import DIMENSIONS, ChatReply, FakeOpenAI, serve_fake_openai
from metrics_support import Samples, samples, total, value

NOTHING = ChatReply(
    content=json.dumps({"entities": [], "facts": []}), prompt_tokens=100, completion_tokens=20
)
UNAVAILABLE = ChatReply(status=503, body={"error": "busy"}, headers={"retry-after": "0"})
BROKEN = {"content": "The blender arrived broken", "intent": "complain_product", "source": "chat"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Memory, FakeOpenAI]]:
    """Yield a live server's URL, its Memory (LLM extractor, OpenAI embedder, indexing by hand), the fake."""
    with serve_fake_openai(free_port()) as fake:
        settings = Settings(
            data_dir=tmp_path / "data",
            embedder="openai",
            embedder_base_url=fake.base_url,
            embedder_model="fake",
            embedder_dimensions=DIMENSIONS,
            extractor="llm",
            llm_base_url=fake.base_url,
            llm_max_retries=1,
        )
        with Memory.open(settings=settings, background_indexing=False) as memory, serving(memory) as base:
            yield base, memory, fake


def scrape(base: str) -> tuple[str, Samples]:
    page = httpx.get(f"{base}/metrics").text
    return page, samples(page)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    """Return how much the sample ``name{labels}`` grew between two scrapes."""
    return value(after, name, **labels) - value(before, name, **labels)


def mcp_calls(base: str) -> list[Any]:
    """Store graph-building episodes and search through the MCP SDK client; return the results."""

    async def scenario() -> list[Any]:
        async with Client(f"{base}/mcp") as client:
            results = []
            for content, entities, facts in [
                ("项目预算是五十万", [("Hangzhou project", "project")], [("BUDGET", 500000, 0.95, "stated")]),
                ("听说预算可能是八十万", [], [("BUDGET", 800000, 0.5, "inferred")]),
                ("Caroline says hi", [("Caroline", "person")], []),
                ("Carolyn says hi", [("Carolyn", "person")], []),
            ]:
                arguments: dict[str, Any] = {
                    "content": content,
                    "metadata": {"session": 1},
                    "entities": [{"name": n, "type": t} for n, t in entities],
                    "facts": [
                        {
                            "subject": "Hangzhou project",
                            "predicate": p,
                            "value": v,
                            "fact": content,
                            "confidence": c,
                            "source_kind": k,
                        }
                        for p, v, c, k in facts
                    ],
                }
                results.append(await client.call_tool("create_episode", arguments))
            results.append(await client.call_tool("search_episodes", {"query": "预算"}))
            results.append(await client.call_tool("get_episode", {"id": "ep_missing"}))
            results.append(await client.call_tool("no_such_tool", {}))
            return results

    return anyio.run(scenario)


def rest_traffic(http: httpx.Client, memory: Memory, fake: FakeOpenAI) -> str:
    """Create, deduplicate, extract (failing once), search, update, delete and revert over REST; return
    the first episode's id."""
    fake.script(NOTHING)  # the LLM finds nothing in the first episode
    first = http.post("/v1/episodes", json=BROKEN)
    assert first.status_code == 201
    assert http.post("/v1/episodes", json=BROKEN).json()["deduplicated"] is True
    fake.script(UNAVAILABLE, UNAVAILABLE)  # the LLM fails on the second, retry included
    odd = {"content": "Where is my invoice?", "intent": "made_up_intent", "source": "fax machine"}
    assert http.post("/v1/episodes", json=odd).status_code == 201
    fake.script(NOTHING)
    assert memory.reextract() == (1, 0)  # a library call: the failed episode extracted again

    # searches: one with hits, one filtered to nothing, one the embeddings endpoint fails (502)
    assert http.post("/v1/episodes/search", json={"query": "blender"}).json()["results"]
    nothing = {"query": "blender", "filters": {"intent": ["cancel_order"]}}
    assert http.post("/v1/episodes/search", json=nothing).json()["results"] == []
    fake.fail_next = 1  # a text not embedded before (the same text is answered from the query cache)
    assert http.post("/v1/episodes/search", json={"query": "broken blender"}).status_code == 502

    # history: an update, a stale update, a delete, a refused revert, a revert
    episode = str(first.json()["episode"]["id"])
    seen = http.patch(
        f"/v1/episodes/{episode}", json={"metadata": {"seen": True}}, headers={"If-Match": '"1"'}
    )
    assert seen.status_code == 200
    stale = http.patch(f"/v1/episodes/{episode}", json={"metadata": {"x": 1}}, headers={"If-Match": '"1"'})
    assert stale.status_code == 412
    delete = http.delete(f"/v1/episodes/{episode}").json()["operation"]["id"]
    update = http.get("/v1/operations", params={"kind": "update"}).json()["items"][0]["id"]
    assert http.post(f"/v1/operations/{update}/revert").status_code == 409
    assert http.post(f"/v1/operations/{delete}/revert").status_code == 200
    return episode


def test_rest_and_mcp_traffic_moves_every_metric(server: tuple[str, Memory, FakeOpenAI]) -> None:
    base, memory, fake = server
    _, before = scrape(base)
    with httpx.Client(base_url=base) as http:
        episode = rest_traffic(http, memory, fake)
    # MCP: graph-building creates (a disputed budget, a merge candidate), a search, two tool errors
    results = mcp_calls(base)
    assert [r.is_error for r in results] == [False] * 5 + [True, True]

    _, middle = scrape(base)
    fake.fail_next = 1
    with pytest.raises(EmbedderError):
        memory.index_pending()
    embedded = memory.index_pending()
    page, after = scrape(base)

    # episodes created and deduplicated, labels bounded
    assert (
        moved(before, after, "engram_episodes_created_total", intent="complain_product", source="chat") == 1
    )
    assert (
        moved(before, after, "engram_episodes_deduplicated_total", intent="complain_product", source="chat")
        == 1
    )
    assert moved(before, after, "engram_episodes_created_total", intent="other", source="other") == 1
    assert moved(before, after, "engram_episodes_created_total", intent="none", source="none") == 4
    assert "made_up_intent" not in page and "fax machine" not in page and episode not in page

    # extraction outcomes and the LLM's tokens and retries
    assert moved(before, after, "engram_extractions_total", extractor="llm", outcome="ok") == 1
    assert moved(before, after, "engram_extractions_total", extractor="llm", outcome="failed") == 1
    assert moved(before, after, "engram_extractions_total", extractor="llm", outcome="retried") == 1
    assert moved(before, after, "engram_extractions_total", extractor="agent", outcome="ok") == 4
    assert moved(before, after, "engram_llm_tokens_total", type="prompt") == 200
    assert moved(before, after, "engram_llm_tokens_total", type="completion") == 40
    assert moved(before, after, "engram_llm_retries_total") == 1

    # searches per interface and channel, hits, empty answers
    assert moved(before, after, "engram_search_requests_total", interface="rest") == 3
    assert moved(before, after, "engram_search_requests_total", interface="mcp") == 1
    assert moved(before, after, "engram_search_duration_seconds_count", interface="rest") == 2, "2 answered"
    assert moved(before, after, "engram_search_empty_results_total", interface="rest") == 1
    assert moved(before, after, "engram_search_results_total", interface="rest") >= 1
    assert moved(before, after, "engram_search_results_total", interface="mcp") >= 1
    for channel in ("bm25", "graph", "vector"):  # 3 REST searches (the vector channel failing once), 1 MCP
        assert moved(before, after, "engram_search_channel_duration_seconds_count", channel=channel) == 4
    assert moved(before, after, "engram_search_channel_duration_seconds_count", channel="fusion") == 3

    # operations, conflicts, HTTP 5xx
    logged = Counter(operation.kind for operation in memory.list_operations(limit=500).items)
    assert logged["update"] == logged["delete"] == logged["revert"] == 1 and logged["extract"] == 4
    for kind in OPERATION_KINDS:  # the counter agrees with the audit log
        assert moved(before, after, "engram_operations_total", kind=kind) == logged[kind], kind
    assert moved(before, after, "engram_conflicts_total", kind="version") == 1
    assert moved(before, after, "engram_conflicts_total", kind="revert") == 1
    search_route = {"method": "POST", "route": "/v1/episodes/search"}
    assert moved(before, after, "engram_http_requests_total", **search_route, status="502") == 1
    assert moved(before, after, "engram_http_requests_total", **search_route, status="200") == 2

    # MCP tool calls and errors, per tool; unknown names bounded
    assert moved(before, after, "engram_mcp_tool_calls_total", tool="create_episode") == 4
    assert moved(before, after, "engram_mcp_tool_errors_total", tool="create_episode") == 0
    assert moved(before, after, "engram_mcp_tool_calls_total", tool="get_episode") == 1
    assert moved(before, after, "engram_mcp_tool_errors_total", tool="get_episode") == 1
    assert moved(before, after, "engram_mcp_tool_errors_total", tool="unknown") == 1
    assert "no_such_tool" not in page

    # the indexer: a failed batch, then the backlog drained, each episode's lag observed
    assert value(middle, "engram_embedding_backlog_episodes") == 6 == embedded
    assert value(after, "engram_embedding_backlog_episodes") == 0
    assert moved(before, after, "engram_embedding_failures_total") == 1
    assert moved(before, after, "engram_episodes_embedded_total") == 6
    assert moved(before, after, "engram_indexer_lag_seconds_count") == 6

    # what the store holds, read at scrape time
    assert value(after, "engram_episodes_stored", intent="complain_product", source="chat") == 1
    assert total(after, "engram_episodes_stored") == 6
    # the newer, weaker guess is disputed; the stated budget stays current
    assert value(after, "engram_facts_stored", status="disputed") == 1
    assert value(after, "engram_merge_candidates_pending") == 1
    assert value(after, "engram_store_up") == 1
    assert value(after, "engram_intent_watch_info", intent="complain_product") == 1

    # process and Python runtime metrics come with prometheus-client
    assert value(after, "process_resident_memory_bytes") > 0
    assert total(after, "python_info") == 1
