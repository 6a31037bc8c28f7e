"""The knowledge graph over REST: facts and entities, through the ASGI stack, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram.config import Settings
from engram.memory import Memory


@pytest.fixture
def memory(backend: dict[str, Any]) -> Iterator[Memory]:
    """Yield a Memory on each backend, BM25 only (the ``client`` fixture serves it)."""
    with Memory.open(settings=Settings(**backend, embedder="none")) as mem:
        yield mem


def test_facts_update_history_and_entities(client: TestClient) -> None:
    first = client.post(
        "/v1/episodes",
        json={
            "content": "杭州项目预算五十万",
            "timestamp": "2024-01-01T09:00:00Z",
            "entities": [{"name": "杭州项目", "type": "project"}],
            "facts": [
                {"subject": "杭州项目", "predicate": "预算", "value": 500000, "fact": "杭州项目预算五十万"}
            ],
        },
    ).json()["episode"]
    second = client.post(
        "/v1/episodes",
        json={
            "content": "更正：杭州项目预算八十万",
            "timestamp": "2024-02-01T09:00:00Z",
            "facts": [
                {
                    "subject": "杭州项目",
                    "predicate": "BUDGET",
                    "value": 800000,
                    "fact": "更正：杭州项目预算八十万",
                }
            ],
        },
    ).json()["episode"]
    current = client.post("/v1/facts/search", json={"query": "预算"}).json()["results"]
    assert [(h["fact"]["value"], h["citations"]) for h in current] == [
        (800000, [f"[source: {second['id']}]"])
    ]
    history = client.post("/v1/facts/search", json={"query": "预算", "include_history": True}).json()[
        "results"
    ]
    assert sorted((h["fact"]["value"], h["fact"]["status"]) for h in history) == [
        (500000, "superseded"),
        (800000, "current"),
    ]
    then = client.post(
        "/v1/facts/search", json={"subject": "杭州项目", "as_of": "2024-01-15T00:00:00Z"}
    ).json()
    assert [h["fact"]["value"] for h in then["results"]] == [500000]
    [entity] = client.post("/v1/entities/search", json={"query": "杭州项目"}).json()["results"]
    view = client.get(f"/v1/entities/{entity['id']}").json()
    assert view["entity"]["type"] == "project" and view["facts"][0]["fact"]["value"] == 800000
    assert first["id"] in view["facts"][0]["citations"][0] or second["id"] in view["facts"][0]["citations"][0]


def test_add_facts_and_errors(client: TestClient) -> None:
    # the builtin extractor finds no fact here: the agent adds the one it read
    episode = client.post("/v1/episodes", json={"content": "Lunch with Bob."}).json()["episode"]
    added = client.post(
        "/v1/facts",
        json={
            "episode_id": episode["id"],
            "entities": [{"name": "Bob", "type": "person"}],
            "facts": [{"subject": "Bob", "predicate": "LIKES", "value": "tea", "source_kind": "stated"}],
        },
    )
    assert added.status_code == 201 and added.json()["result"]["facts"] == {"new": 1}
    missing = client.post(
        "/v1/facts",
        json={"episode_id": "nope", "facts": [{"subject": "Bob", "predicate": "LIKES", "value": "x"}]},
    )
    assert missing.status_code == 404 and missing.json()["field"] == "episode_id"
    both = client.post(
        "/v1/facts",
        json={
            "episode_id": episode["id"],
            "facts": [{"subject": "Bob", "predicate": "LIKES", "value": "x", "object": "Alice"}],
        },
    )
    assert both.status_code == 422 and both.json()["field"].startswith("facts.0")
    assert client.get("/v1/entities/en_01ABCDEFGHJKMNPQRSTVWXYZ00").status_code == 404
    unknown = client.post("/v1/facts/search", json={"subject": "Nobody"})
    assert unknown.status_code == 404 and unknown.json()["field"] == "subject"


def test_merge_over_rest(client: TestClient) -> None:
    for name in ("Bobby", "Robert"):
        client.post("/v1/episodes", json={"content": name, "entities": [{"name": name, "type": "person"}]})
    bobby = client.post("/v1/entities/search", json={"query": "Bobby"}).json()["results"][0]["id"]
    robert = client.post("/v1/entities/search", json={"query": "Robert"}).json()["results"][0]["id"]
    merged = client.post(f"/v1/entities/{bobby}/merge", json={"into": robert})
    assert merged.status_code == 200 and "Bobby" in merged.json()["entity"]["aliases"]
    assert client.get(f"/v1/entities/{bobby}").status_code == 404
    again = client.post(f"/v1/entities/{bobby}/merge", json={"into": robert})
    assert again.status_code == 404 and again.json()["field"] == "id"
    assert client.post(f"/v1/entities/{robert}/merge", json={"into": robert}).json()["field"] == "into"


def test_merge_candidates_are_listed_for_review(client: TestClient) -> None:
    for name in ("Caroline", "Carolyn"):
        client.post(
            "/v1/episodes",
            json={
                "content": f"{name} says hi",
                "metadata": {"session": 1},
                "entities": [{"name": name, "type": "person"}],
            },
        )
    listed = client.get("/v1/entities/merge-candidates").json()["items"]
    assert len(listed) == 1
    pair = listed[0]
    assert {pair["entity"]["name"], pair["candidate"]["name"]} == {"Caroline", "Carolyn"}
    assert 0.45 <= pair["score"] < 0.75 and 0.75 < pair["parts"]["name"] < 1.0
    merged = client.post(f"/v1/entities/{pair['entity']['id']}/merge", json={"into": pair["candidate"]["id"]})
    assert merged.status_code == 200
    assert client.get("/v1/entities/merge-candidates").json()["items"] == []
