"""Input bounds over REST: filter sizes, query cost, strict JSON, timestamps, echoed ids; 422s name the field.

Filters run on SQLite and PostgreSQL: the largest filter allowed must still be valid SQL on
both, and one past it a 422 (it used to be a 500: too many SQL variables, too deep a tree).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from conftest import LOOPBACK
from engram import Memory
from engram.api.app import create_app
from engram.config import Settings
from engram.models.episodes import MAX_FILTER_VALUES, MAX_METADATA_FILTERS

PROBLEM = "application/problem+json"


@pytest.fixture
def any_client(backend: dict[str, Any]) -> Iterator[tuple[TestClient, Memory]]:
    """Yield a client and its Memory, on SQLite and on PostgreSQL."""
    with (
        Memory.open(settings=Settings(**backend, embedder="none")) as memory,
        TestClient(create_app(memory), base_url=LOOPBACK) as client,
    ):
        yield client, memory


def assert_422(response: httpx.Response, field: str) -> str:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["field"] == field, body
    assert "Traceback" not in response.text
    return str(body["detail"])


def search(client: TestClient, **body: Any) -> httpx.Response:
    return client.post("/v1/episodes/search", json={"query": "order", **body})


@pytest.mark.parametrize("name", ["actor_id", "intent", "source"])
def test_list_filters_are_bounded_on_both_backends(any_client: tuple[TestClient, Memory], name: str) -> None:
    client, _ = any_client
    client.post(
        "/v1/episodes", json={"content": "order 7", "actor": {"id": "v7"}, "intent": "v7", "source": "v7"}
    )
    values = [f"v{n}" for n in range(MAX_FILTER_VALUES)]
    largest = search(client, filters={name: values})
    assert largest.status_code == 200 and len(largest.json()["results"]) == 1
    listed = client.get("/v1/episodes", params={name: values})
    assert listed.status_code == 200 and len(listed.json()["items"]) == 1
    assert_422(search(client, filters={name: [*values, "one more"]}), f"filters.{name}")
    assert_422(search(client, filters={name: [f"a{n}" for n in range(50_000)]}), f"filters.{name}")
    assert_422(client.get("/v1/episodes", params={name: [*values, "one more"]}), name)


def test_metadata_filters_are_bounded_on_both_backends(any_client: tuple[TestClient, Memory]) -> None:
    client, _ = any_client
    keys = {f"k{n}": n for n in range(MAX_METADATA_FILTERS)}
    client.post("/v1/episodes", json={"content": "order 7", "metadata": keys})
    largest = search(client, filters={"metadata": keys})
    assert largest.status_code == 200 and len(largest.json()["results"]) == 1
    for count in (MAX_METADATA_FILTERS + 1, 1001):
        too_many = {f"k{n}": n for n in range(count)}
        assert_422(search(client, filters={"metadata": too_many}), "filters.metadata")


def test_the_query_is_bounded(client: TestClient) -> None:
    client.post("/v1/episodes", json={"content": "the order was shipped"})
    assert_422(search(client, query="order " * 2000), "query")
    assert_422(client.post("/v1/facts/search", json={"query": "x" * 10_001}), "query")
    assert_422(client.post("/v1/entities/search", json={"query": "x" * 257}), "query")
    many = " ".join(f"word{n}" for n in range(150)) + " order"
    response = search(client, query=many)
    assert response.status_code == 200
    assert any("first 64 are searched" in warning for warning in response.json()["warnings"])


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (b'{"content": "x", "metadata": {"score": NaN}}', "metadata.score"),
        (b'{"content": "x", "metadata": {"list": [1, Infinity]}}', "metadata.list.1"),
        (b'{"content": "x", "metadata": {"t": -Infinity}}', "metadata.t"),
        (b'{"content": "x", "metadata": {"big": 1e400}}', "metadata.big"),
        (b'{"content": "x", "metadata": {"big": 1.5e300}}', "metadata.big"),
        (b'{"content": "x", "metadata": {"big": 9000000000000000001}}', "metadata.big"),
        # Lists of numbers are checked at C speed on the fast path: neither a small sum nor
        # opposite numbers cancelling out may let one out-of-range item through.
        (b'{"content": "x", "metadata": {"list": [1.5, 9000000000000000001]}}', "metadata.list.1"),
        (b'{"content": "x", "metadata": {"l": [9000000000000000001, -9000000000000000000]}}', "metadata.l.0"),
        (b'{"content": "x", "embedding": [0.5, 1e400]}', "embedding.1"),
        (b'{"content": "x", "metadata": {"big": ' + b"9" * 5000 + b"}}", "metadata.big"),
        (b'{"content": "x", "metadata": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "metadata"),
        (b'{"content": "x", "metadata": ' + b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"}", "metadata"),
        (b'{"content": "x", "metadata": {"a": "\xff"}}', "body"),
        (b'{"content": "x",', "body"),
    ],
)
def test_strict_json_names_the_field(client: TestClient, memory: Memory, raw: bytes, field: str) -> None:
    response = client.post("/v1/episodes", content=raw, headers={"Content-Type": "application/json"})
    detail = assert_422(response, field)
    assert len(detail) < 300
    assert memory.store.counts()["episodes"] == 0


def test_strict_json_applies_to_every_body(client: TestClient) -> None:
    raw = b'{"query": "x", "filters": {"metadata": {"k": NaN}}}'
    response = client.post("/v1/episodes/search", content=raw, headers={"Content-Type": "application/json"})
    assert_422(response, "filters.metadata.k")
    deep = b'{"query": "x", "filters": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    response = client.post("/v1/episodes/search", content=deep, headers={"Content-Type": "application/json"})
    assert_422(response, "filters")
    fine = b'{"content": "x", "metadata": {"n": 9000000000000000000, "f": -9e18, "neg": -3, "s": " a "}}'
    stored = client.post("/v1/episodes", content=fine, headers={"Content-Type": "application/json"})
    assert stored.status_code == 201
    assert stored.json()["episode"]["metadata"] == {"n": 9 * 10**18, "f": -9e18, "neg": -3, "s": " a "}


def test_a_number_timestamp_is_always_unix_seconds(client: TestClient, memory: Memory) -> None:
    seconds = client.post("/v1/episodes", json={"content": "a", "timestamp": 1_700_000_000})
    assert seconds.json()["episode"]["timestamp"] == "2023-11-14T22:13:20Z"
    fraction = client.post("/v1/episodes", json={"content": "b", "timestamp": 1_700_000_000.25})
    assert fraction.json()["episode"]["timestamp"].startswith("2023-11-14T22:13:20.25")
    for ambiguous in (1_700_000_000_000, 99_999_999_999_999, -99_999_999_999_999):
        response = client.post("/v1/episodes", json={"content": "c", "timestamp": ambiguous})
        assert "milliseconds" in assert_422(response, "timestamp")
    fact = {"subject": "Ann", "predicate": "LIVES_IN", "object": "Paris", "valid_at": 17_000_000_000_000}
    response = client.post("/v1/episodes", json={"content": "d", "facts": [fact]})
    assert_422(response, "facts.0.valid_at")
    assert memory.store.counts()["episodes"] == 2
    listed = client.get("/v1/episodes", params={"after": "1700000000", "before": 1_700_000_001})
    assert [e["content"] for e in listed.json()["items"]] == ["b", "a"]
    assert_422(client.get("/v1/episodes", params={"after": "1700000000000"}), "after")
    assert memory.get_episode(seconds.json()["episode"]["id"]).timestamp == datetime(
        2023, 11, 14, 22, 13, 20, tzinfo=UTC
    )


def test_ids_are_bounded_and_echoed_cut_short(client: TestClient) -> None:
    assert_422(client.get("/v1/episodes/" + "a" * 129), "episode_id")
    assert_422(client.get("/v1/entities/" + "a" * 5000), "entity_id")
    assert_422(client.get("/v1/episodes", params={"group_id": "g" * 10_000}), "group_id")
    missing = client.get("/v1/episodes/" + "b" * 128)
    assert missing.status_code == 404
    detail = missing.json()["detail"]
    assert "b" * 64 + "…" in detail and "b" * 65 not in detail


def test_inputs_the_schema_allows_are_accepted(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    params = {p["name"]: p for p in schema["paths"]["/v1/episodes"]["get"]["parameters"]}
    assert params["group_id"]["schema"]["anyOf"][0]["pattern"] == "^[A-Za-z0-9._:-]{1,128}$"
    assert params["intent"]["schema"]["anyOf"][0]["items"]["minLength"] == 1
    assert params["actor_id"]["schema"]["anyOf"][0]["maxItems"] == MAX_FILTER_VALUES
    assert_422(client.get("/v1/episodes", params={"group_id": ""}), "group_id")
    assert_422(client.get("/v1/episodes", params={"intent": [""]}), "intent.0")
    assert_422(client.get("/v1/episodes", params={"intent": ["  "]}), "intent.0")


def test_merging_an_entity_into_itself_is_a_conflict(client: TestClient) -> None:
    created = client.post(
        "/v1/episodes",
        json={
            "content": "Ann lives in Paris",
            "entities": [{"name": "Ann", "type": "person"}, {"name": "Paris", "type": "place"}],
            "facts": [{"subject": "Ann", "predicate": "LIVES_IN", "object": "Paris"}],
        },
    )
    assert created.status_code == 201
    found = client.post("/v1/entities/search", json={"query": "Ann"}).json()["results"]
    ann = found[0]["id"]
    paris = client.post("/v1/entities/search", json={"query": "Paris"}).json()["results"][0]["id"]
    itself = client.post(f"/v1/entities/{ann}/merge", json={"into": ann})
    assert itself.status_code == 409 and itself.json()["field"] == "into"
    other_type = client.post(f"/v1/entities/{ann}/merge", json={"into": paris})
    assert other_type.status_code == 409 and "person" in other_type.json()["detail"]
    absent = client.post("/v1/entities/en_nope/merge", json={"into": "en_nope"})
    assert absent.status_code == 404
    documented = client.get("/openapi.json").json()["paths"]["/v1/entities/{entity_id}/merge"]["post"]
    assert {"404", "409", "422"} <= set(documented["responses"])


def test_the_openapi_documents_problem_bodies_and_statuses(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "Problem" in schema["components"]["schemas"]
    assert "HTTPValidationError" not in json.dumps(schema)
    expected = {
        ("/v1/episodes/{episode_id}", "patch"): {"404", "412", "422", "428"},
        ("/v1/episodes/{episode_id}", "get"): {"404", "422"},
        ("/v1/episodes", "post"): {"409", "422"},
        ("/v1/operations/{operation_id}/revert", "post"): {"404", "409", "422"},
        ("/healthz", "get"): set(),
    }
    for (path, method), statuses in expected.items():
        responses = schema["paths"][path][method]["responses"]
        assert statuses | {"403", "413", "421", "500", "503"} <= set(responses), (path, method)
    for path_item in schema["paths"].values():
        for operation in path_item.values():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")):
                    assert list(response["content"]) == [PROBLEM], (operation["summary"], status)
    if_match = next(
        p for p in schema["paths"]["/v1/episodes/{episode_id}"]["patch"]["parameters"] if p["in"] == "header"
    )
    assert if_match["required"] is True and if_match["name"].lower() == "if-match"
