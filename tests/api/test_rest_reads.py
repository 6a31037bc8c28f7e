"""A list request on SQLite answers while a write transaction holds the writer: reads never wait
for the writer thread (WAL readers; each thread its own connection)."""

from __future__ import annotations

from pathlib import Path

import httpx

from conftest import group_held, serving
from engram.config import Settings
from engram.memory import Memory

EPISODE = {"content": "Budget review with Acme", "actor": {"id": "ann"}, "timestamp": "2024-03-04T09:00:00Z"}


def test_a_list_on_sqlite_answers_while_a_write_holds_the_writer(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extractor="none")
    with Memory.open(settings=settings) as memory:
        memory.create_episode(EPISODE)
        with serving(memory) as base, group_held(memory):
            page = httpx.get(f"{base}/v1/episodes", timeout=10).raise_for_status().json()
    assert [item["content"] for item in page["items"]] == [EPISODE["content"]]


def test_head_answers_as_get_without_a_body(memory: Memory, live_server: str) -> None:
    created = memory.create_episode({**EPISODE, "entities": [{"name": "Acme", "type": "organisation"}]})
    [acme] = memory.search_entities("Acme")
    with httpx.Client(base_url=live_server, timeout=10) as http:
        for path in (f"/v1/episodes/{created.episode.id}", f"/v1/entities/{acme.id}", "/v1/episodes"):
            got, head = http.get(path), http.head(path)
            assert (head.status_code, head.content) == (200, b""), path
            assert head.headers["content-length"] == str(len(got.content))
            assert head.headers["content-type"] == got.headers["content-type"]
            assert head.headers.get("etag") == got.headers.get("etag")
        missing = http.head("/v1/episodes/nope")
        assert (missing.status_code, missing.content) == (404, b"")
        assert missing.headers["content-type"] == "application/problem+json"
        assert http.head("/v1/episodes:batch").status_code == 405, "no GET there, so no HEAD"
        counted = http.get("/metrics").text
    assert 'method="HEAD",route="/v1/episodes/{episode_id}",status="200"' in counted


def test_an_unknown_query_parameter_is_a_422_naming_it(memory: Memory, live_server: str) -> None:
    memory.create_episode(EPISODE)
    with httpx.Client(base_url=live_server, timeout=10) as http:
        # the search's name for the list's "after": once silently dropped, the page unfiltered
        refused = http.get("/v1/episodes", params={"timestamp_after": "2030-01-01T00:00:00Z"})
        assert refused.status_code == 422
        assert refused.headers["content-type"] == "application/problem+json"
        problem = refused.json()
        assert problem["field"] == "timestamp_after"
        assert "after" in problem["detail"] and "before" in problem["detail"]
        assert http.get("/v1/episodes", params={"after": "2030-01-01T00:00:00Z"}).json()["items"] == []
        facts = http.post("/v1/facts/search", params={"grup_id": "default"}, json={"query": "budget"})
        assert (facts.status_code, facts.json()["field"]) == (422, "grup_id")
        assert http.get("/v1/operations", params={"group_id": "default", "limit": 1}).status_code == 200
