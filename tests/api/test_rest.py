"""The REST API through the real ASGI stack (and a live uvicorn server for concurrency)."""

from __future__ import annotations

import threading

import httpx
import pytest
from fastapi.testclient import TestClient

from engram import Memory

PROBLEM = "application/problem+json"


def create(client: TestClient, **body: object) -> httpx.Response:
    return client.post("/v1/episodes", json={"content": "Caroline joined a support group", **body})


def assert_problem(response: httpx.Response, status: int, field: str | None) -> dict[str, object]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body: dict[str, object] = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    assert "Traceback" not in response.text
    if field is not None:
        assert body["field"] == field
        assert field in str(body["detail"])
    return body


def test_create_get_and_dedup(client: TestClient) -> None:
    response = create(client, actor={"type": "user", "id": "caroline"}, timestamp="2023-05-08T13:56:00")
    assert response.status_code == 201
    body = response.json()
    assert body["deduplicated"] is False
    episode = body["episode"]
    assert response.headers["etag"] == '"1"'
    assert episode["timestamp"] in ("2023-05-08T13:56:00Z", "2023-05-08T13:56:00+00:00")
    again = create(client, actor={"type": "user", "id": "caroline"}, timestamp="2023-05-08T13:56:00")
    assert again.status_code == 200
    assert again.json() == {"episode": episode, "deduplicated": True}
    fetched = client.get(f"/v1/episodes/{episode['id']}")
    assert fetched.status_code == 200
    assert fetched.json() == {"episode": episode}
    assert fetched.headers["etag"] == '"1"'


def test_group_is_a_query_parameter_on_reads(client: TestClient) -> None:
    episode = create(client, group_id="conv-26").json()["episode"]
    assert_problem(client.get(f"/v1/episodes/{episode['id']}"), 404, "id")
    assert client.get(f"/v1/episodes/{episode['id']}", params={"group_id": "conv-26"}).status_code == 200


def test_patch_needs_if_match(client: TestClient) -> None:
    episode_id = create(client, metadata={"a": 1}).json()["episode"]["id"]
    url = f"/v1/episodes/{episode_id}"
    assert_problem(client.patch(url, json={"metadata": {"b": 2}}), 428, "If-Match")
    assert_problem(
        client.patch(url, json={"metadata": {"b": 2}}, headers={"If-Match": "banana"}), 422, "If-Match"
    )
    ok = client.patch(
        url,
        json={"metadata": {"b": 2}, "intent": "support"},
        headers={"If-Match": '"1"', "Content-Type": "application/merge-patch+json"},
    )
    assert ok.status_code == 200, ok.text
    assert ok.headers["etag"] == '"2"'
    assert ok.json()["episode"]["metadata"] == {"a": 1, "b": 2}
    assert ok.json()["episode"]["intent"] == "support"
    stale = assert_problem(
        client.patch(url, json={"status": "archived"}, headers={"If-Match": '"1"'}), 412, "If-Match"
    )
    assert stale["current_version"] == 2
    # ETags compare strongly (RFC 9110 §13.1.1): a weak one never matches, even the current version.
    weak = assert_problem(
        client.patch(url, json={"status": "archived"}, headers={"If-Match": 'W/"2"'}), 412, "If-Match"
    )
    assert weak["current_version"] == 2 and "weak" in weak["detail"]
    assert client.get(url).json()["episode"]["version"] == 2
    # "*" asks only that the episode exists: the patch applies to whatever version is current.
    starred = client.patch(url, json={"metadata": {"c": 3}}, headers={"If-Match": "*"})
    assert starred.status_code == 200, starred.text
    assert starred.headers["etag"] == '"3"' and starred.json()["episode"]["metadata"]["c"] == 3
    assert_problem(client.patch("/v1/episodes/nope", json={}, headers={"If-Match": "*"}), 404, "id")
    assert_problem(client.patch(url, json={"content": "new"}, headers={"If-Match": '"3"'}), 422, "content")
    assert_problem(client.patch("/v1/episodes/nope", json={}, headers={"If-Match": '"1"'}), 404, "id")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "content"),
        ({"content": ""}, "content"),
        ({"content": "x", "unknown": 1}, "unknown"),
        ({"content": "x", "group_id": "no spaces allowed"}, "group_id"),
        ({"content": "x", "timestamp": "yesterday-ish"}, "timestamp"),
        ({"content": "x", "actor": {"type": "user"}}, "actor.id"),
        ({"content": "x", "metadata": []}, "metadata"),
        ({"content": "x" * (256 * 1024 + 1)}, "content"),
    ],
)
def test_bad_bodies_are_problems_naming_the_field(
    client: TestClient, memory: Memory, body: object, field: str
) -> None:
    assert_problem(client.post("/v1/episodes", json=body), 422, field)
    assert memory.store.counts()["episodes"] == 0


def test_invalid_json_and_wrong_types(client: TestClient, memory: Memory) -> None:
    response = client.post(
        "/v1/episodes", content=b'{"content": "x",', headers={"Content-Type": "application/json"}
    )
    body = assert_problem(response, 422, "body")
    assert "invalid JSON" in str(body["detail"])
    assert_problem(client.post("/v1/episodes", json=["not", "an", "object"]), 422, None)
    assert memory.store.counts()["episodes"] == 0


def test_list_filters_and_cursor(client: TestClient) -> None:
    for i in range(5):
        create(
            client,
            content=f"turn {i}",
            timestamp=f"2024-01-01T00:0{i}:00Z",
            intent="ask" if i % 2 else "tell",
            source="chat",
            actor={"id": f"user{i % 2}"},
        )
    page = client.get("/v1/episodes", params={"limit": 2}).json()
    assert [e["content"] for e in page["items"]] == ["turn 4", "turn 3"]
    rest = client.get("/v1/episodes", params={"limit": 10, "cursor": page["next_cursor"]}).json()
    assert [e["content"] for e in rest["items"]] == ["turn 2", "turn 1", "turn 0"]
    assert rest["next_cursor"] is None
    filtered = client.get(
        "/v1/episodes",
        params={"intent": "ask", "actor_id": "user1", "after": "2024-01-01T00:02:00Z", "source": "chat"},
    ).json()
    assert [e["content"] for e in filtered["items"]] == ["turn 3"]
    both = client.get(
        "/v1/episodes", params=[("intent", "ask"), ("intent", "tell"), ("before", "2024-01-01T00:02:00")]
    )
    assert [e["content"] for e in both.json()["items"]] == ["turn 1", "turn 0"]
    assert_problem(client.get("/v1/episodes", params={"limit": 0}), 422, "limit")
    assert_problem(client.get("/v1/episodes", params={"after": "soon"}), 422, "after")
    assert_problem(client.get("/v1/episodes", params={"cursor": "%%%"}), 422, "cursor")
    assert_problem(client.get("/v1/episodes", params={"group_id": "a b"}), 422, "group_id")


def test_search(client: TestClient) -> None:
    create(client, content="客户要求取消订单 DEAL-7890", intent="cancel")
    create(client, content="The budget is 800k now", intent="plan")
    response = client.post("/v1/episodes/search", json={"query": "订单", "explain": True})
    assert response.status_code == 200
    [hit] = response.json()["results"]
    assert hit["citation"] == f"[source: {hit['episode']['id']}]"
    assert hit["score"] > 0 and hit["explanation"]["channels"]["bm25"]["rank"] == 1
    none = client.post("/v1/episodes/search", json={"query": "budget", "filters": {"intent": ["cancel"]}})
    assert none.json()["results"] == []
    assert_problem(
        client.post("/v1/episodes/search", json={"query": "x", "filters": {"mood": "sad"}}),
        422,
        "filters.mood",
    )
    assert_problem(client.post("/v1/episodes/search", json={"query": "x", "limit": 0}), 422, "limit")


def test_health_docs_openapi_metrics_and_unknown_routes(client: TestClient) -> None:
    assert client.get("/healthz").json()["status"] == "ok"
    assert "swagger" in client.get("/docs").text.lower()
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/v1/episodes", "/v1/episodes/{episode_id}", "/v1/episodes/search"} <= set(paths)
    created = 'engram_http_requests_total{method="POST",route="/v1/episodes",status="201"}'

    def count() -> float:  # the process's counters: other tests' requests count too
        line = next((x for x in client.get("/metrics").text.splitlines() if x.startswith(created)), "")
        return float(line.rsplit(" ", 1)[-1] or 0)

    before = count()
    create(client)
    assert count() == before + 1
    assert_problem(client.get("/v1/nothing-here"), 404, None)
    assert_problem(client.delete("/healthz"), 405, None)


def test_twenty_threads_patching_one_episode_lose_no_update(live_server: str) -> None:
    with httpx.Client(base_url=live_server) as http:
        episode_id = http.post("/v1/episodes", json={"content": "shared"}).json()["episode"]["id"]
    url = f"/v1/episodes/{episode_id}"
    won: list[int] = []
    lock = threading.Lock()
    barrier = threading.Barrier(20)

    def writer(n: int) -> None:
        with httpx.Client(base_url=live_server, timeout=30) as http:
            barrier.wait()
            while True:
                etag = http.get(url).headers["etag"]
                response = http.patch(url, json={"metadata": {f"writer{n}": n}}, headers={"If-Match": etag})
                if response.status_code == 200:
                    with lock:
                        won.append(int(response.headers["etag"].strip('"')))
                    return
                assert response.status_code == 412, response.text

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(won) == list(range(2, 22)), "every success is a distinct version"
    final = httpx.get(f"{live_server}{url}").json()["episode"]
    assert final["version"] == 21
    assert final["metadata"] == {f"writer{n}": n for n in range(20)}, "no update is lost"
