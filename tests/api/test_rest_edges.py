"""Edge cases found by trying to break the REST API: each must be a clean 4xx, nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import Memory
from engram.errors import InvalidInput
from engram.ingest.indexer import MAX_EMBEDDING_CHARS, embedding_text


def nested(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        node["a"] = {}
        node = node["a"]
    return root


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"content": "x", "metadata": nested(300)}, "metadata"),
        ({"content": "x", "metadata": {"blob": "x" * 70_000}}, "metadata"),
        ({"content": "x", "timestamp": "0001-01-01T00:00:00+14:00"}, "timestamp"),
        ({"content": 5}, "content"),
        (
            {"content": "x", "metadata": {"k": "v"}, "facts": [{"subject": "a", "predicate": "LIKES"}]},
            "facts.0",
        ),
    ],
)
def test_refused_before_anything_is_written(
    client: TestClient, memory: Memory, body: Any, field: str
) -> None:
    response = client.post("/v1/episodes", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == field
    assert memory.store.counts()["episodes"] == 0


def test_a_value_every_branch_refuses_is_one_error_at_its_own_field(
    client: TestClient, memory: Memory
) -> None:
    """A metadata value is a string, flag, number, list, object or null: a number out of range
    deep inside lists is one error where it is, worded as the library words it."""
    body = {"content": "x", "metadata": {"a": {"b": [1, {"c": "ok"}, [1e300]]}}}
    response = client.post("/v1/episodes", json=body)
    problem = response.json()
    assert response.status_code == 422, response.text
    assert problem["field"] == "metadata.a.b.2.0" and len(problem["errors"]) == 1
    assert problem["detail"] == "metadata.a.b.2.0: 1e+300 is beyond ±9e18, the largest number stored"
    with pytest.raises(InvalidInput) as refused:
        memory.create_episode(body)
    assert (refused.value.field, refused.value.detail) == (problem["field"], problem["detail"])
    assert memory.store.counts()["episodes"] == 0


def test_a_malformed_etag_or_body_says_what_is_wanted(client: TestClient) -> None:
    episode = client.post("/v1/episodes", json={"content": "x"}).json()["episode"]
    response = client.patch(
        f"/v1/episodes/{episode['id']}", json={"content": "y"}, headers={"If-Match": "abc"}
    )
    assert response.status_code == 422
    assert response.json()["detail"] == 'If-Match: must be the ETag you read, e.g. "3"'
    for body, kind in (("hello", "text/plain"), ("[1, 2]", "application/json")):
        response = client.post("/v1/episodes", content=body, headers={"content-type": kind})
        assert response.status_code == 422
        assert response.json()["detail"] == "body: must be a JSON object, sent as application/json"


def test_patch_keeps_metadata_bounded(client: TestClient, memory: Memory) -> None:
    episode = client.post("/v1/episodes", json={"content": "x"}).json()["episode"]
    response = client.patch(
        f"/v1/episodes/{episode['id']}", json={"metadata": nested(100)}, headers={"If-Match": '"1"'}
    )
    assert response.status_code == 422 and response.json()["field"] == "metadata"
    assert memory.get_episode(episode["id"]).version == 1


@pytest.mark.parametrize(
    "patch",
    [{}, {"metadata": None}, {"metadata": {}}, {"metadata": {"tier": "gold"}}, {"status": "active"}],
)
def test_a_patch_that_changes_nothing_makes_no_new_version(
    client: TestClient, patch: dict[str, object]
) -> None:
    body = {"content": "x", "metadata": {"tier": "gold"}}
    episode = client.post("/v1/episodes", json=body).json()["episode"]
    url = f"/v1/episodes/{episode['id']}"
    response = client.patch(url, json=patch, headers={"If-Match": '"1"'})
    assert response.status_code == 200 and response.headers["etag"] == '"1"'
    assert client.patch(url, json=patch, headers={"If-Match": '"7"'}).status_code == 412
    updates = client.get("/v1/operations", params={"kind": "update", "episode_id": episode["id"]})
    assert updates.json()["items"] == []
    changed = client.patch(url, json={"metadata": {"tier": None}}, headers={"If-Match": '"1"'})
    assert changed.headers["etag"] == '"2"' and changed.json()["episode"]["metadata"] == {}


@pytest.mark.parametrize(
    "params",
    [
        {"after": "0001-01-01T00:00:00+01:00"},
        {"before": "9999-12-31T23:59:59-12:00"},
    ],
)
def test_list_with_out_of_range_times_is_a_422(client: TestClient, params: dict[str, str]) -> None:
    assert client.get("/v1/episodes", params=params).status_code == 422


@pytest.mark.parametrize("reference", ["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"])
def test_time_words_at_the_ends_of_the_calendar_search_without_a_range(
    client: TestClient, reference: str
) -> None:
    client.post("/v1/episodes", json={"content": "next year we plan a trip"})
    for query in ("next year", "tomorrow", "last week", "去年三月"):
        response = client.post("/v1/episodes/search", json={"query": query, "reference_time": reference})
        assert response.status_code == 200, (query, response.text)


def test_embedding_text_is_bounded() -> None:
    from datetime import UTC, datetime

    from engram.models.episodes import Episode

    episode = Episode(
        id="e",
        group_id="g",
        version=1,
        timestamp=datetime.now(UTC),
        recorded_at=datetime.now(UTC),
        source_type="message",
        content="word " * 100_000,
        fingerprint="f",
        operation_id="o",
    )
    assert len(embedding_text(episode, episode)) == MAX_EMBEDDING_CHARS
