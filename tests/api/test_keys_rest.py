"""API keys over REST, through the whole ASGI stack: who may call, which groups, which role."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from conftest import LOOPBACK
from engram import Memory
from engram.api.app import create_app
from engram.config import Settings


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def assert_problem(answer: httpx.Response, status: int, field: str | None) -> dict[str, Any]:
    """Check ``answer`` is a problem+json with ``status`` naming ``field``; return its body."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = answer.json()
    assert body["status"] == status and body.get("field") == field, body
    return body


def assert_unauthorized(answer: httpx.Response) -> None:
    assert_problem(answer, 401, "Authorization")
    assert answer.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.fixture
def http(memory: Memory) -> Iterator[TestClient]:
    with TestClient(create_app(memory), base_url=LOOPBACK) as client:
        yield client


def test_loopback_without_keys_serves_everyone_until_the_first_key(http: TestClient) -> None:
    assert http.post("/v1/episodes", json={"content": "dev mode note"}).status_code == 201
    created = http.post("/v1/keys", json={"role": "admin", "group_ids": None, "name": "root"})
    assert created.status_code == 201 and created.headers["cache-control"] == "no-store"
    secret = created.json()["secret"]
    assert secret.startswith("ek_") and len(secret) >= 40
    assert_unauthorized(http.get("/v1/episodes"))
    assert http.get("/v1/episodes", headers=bearer(secret)).json()["items"][0]["content"] == "dev mode note"
    assert http.get("/healthz").status_code == 200 and http.get("/metrics").status_code == 200


def test_a_missing_wrong_or_malformed_key_is_401(memory: Memory, http: TestClient) -> None:
    secret = memory.keys.create("read", ["default"], "reader").secret
    for headers in (
        {},
        bearer("ek_" + "A" * 43),
        bearer(secret[:-1]),
        {"Authorization": f"Basic {secret}"},
        {"Authorization": "Bearer "},
        bearer("ek_" + "x" * 300),
    ):
        assert_unauthorized(http.get("/v1/episodes", headers=headers))
        assert_unauthorized(http.post("/mcp", headers=headers, json={}))
    assert http.get("/v1/episodes", headers=bearer(secret)).status_code == 200


def test_a_server_off_loopback_without_keys_refuses_every_caller(memory: Memory) -> None:
    with TestClient(create_app(memory, host="0.0.0.0"), base_url=LOOPBACK) as client:
        refused = client.get("/v1/episodes")
        assert_unauthorized(refused)
        assert "engram keys create" in refused.json()["detail"]
        assert client.get("/healthz").status_code == 200


def test_a_revoked_key_is_refused_at_its_next_request(memory: Memory, http: TestClient) -> None:
    secret = memory.keys.create("write", ["default"], "temp").secret
    admin = memory.keys.create("admin", None, "root").secret
    assert http.get("/v1/episodes", headers=bearer(secret)).status_code == 200
    revoked = http.delete("/v1/keys/temp", headers=bearer(admin))
    assert revoked.status_code == 200 and revoked.json()["revoked"] is True
    assert revoked.json()["key"]["revoked_at"] is not None
    assert_unauthorized(http.get("/v1/episodes", headers=bearer(secret)))
    again = http.delete(f"/v1/keys/{revoked.json()['key']['id']}", headers=bearer(admin))
    assert again.status_code == 200 and again.json()["revoked"] is False
    assert_problem(http.delete("/v1/keys/nobody-here", headers=bearer(admin)), 404, "key")


def test_an_expired_key_is_refused_but_keys_stay_in_force(tmp_path: Path) -> None:
    now = [datetime(2030, 1, 1, tzinfo=UTC)]
    settings = Settings(data_dir=tmp_path / "data", embedder="none")
    with Memory.open(settings=settings, clock=lambda: now[0]) as memory:
        secret = memory.keys.create("read", ["default"], expires_at=now[0] + timedelta(hours=1)).secret
        with TestClient(create_app(memory), base_url=LOOPBACK) as client:
            assert client.get("/v1/episodes", headers=bearer(secret)).status_code == 200
            now[0] += timedelta(hours=1)
            expired = client.get("/v1/episodes", headers=bearer(secret))
            assert_unauthorized(expired)
            assert "expired" in expired.json()["detail"]
            assert_unauthorized(client.get("/v1/episodes")), "an expired key does not reopen the server"


def test_a_read_key_reads_and_cannot_write(memory: Memory, http: TestClient) -> None:
    memory.create_episode({"content": "already here"})
    secret = memory.keys.create("read", ["default"], "reader").secret
    listed = http.get("/v1/episodes", headers=bearer(secret))
    assert [e["content"] for e in listed.json()["items"]] == ["already here"]
    found = http.post("/v1/episodes/search", json={"query": "already"}, headers=bearer(secret))
    assert found.status_code == 200 and found.json()["results"]
    refused = http.post("/v1/episodes", json={"content": "sneaky"}, headers=bearer(secret))
    body = assert_problem(refused, 403, "Authorization")
    assert body["role"] == "read" and body["required_role"] == "write"
    episode_id = listed.json()["items"][0]["id"]
    assert_problem(http.delete(f"/v1/episodes/{episode_id}", headers=bearer(secret)), 403, "Authorization")
    assert [e.content for e in memory.list_episodes().items] == ["already here"]


def test_a_key_for_one_group_cannot_touch_another(memory: Memory, http: TestClient) -> None:
    other = memory.create_episode({"content": "team b secret", "group_id": "team-b"}).episode
    secret = memory.keys.create("write", ["team-a"], "tam").secret
    headers = bearer(secret)
    created = http.post("/v1/episodes", json={"content": "team a note"}, headers=headers)
    assert created.status_code == 201 and created.json()["episode"]["group_id"] == "team-a", "its only group"
    refusals = [
        http.post("/v1/episodes", json={"content": "x", "group_id": "team-b"}, headers=headers),
        http.get("/v1/episodes", params={"group_id": "team-b"}, headers=headers),
        http.get(f"/v1/episodes/{other.id}", params={"group_id": "team-b"}, headers=headers),
        http.get("/v1/episodes", params={"group_id": "never-used"}, headers=headers),
        http.post("/v1/episodes/search", json={"query": "secret", "group_id": "team-b"}, headers=headers),
        http.post("/v1/facts/search", json={"query": "secret", "group_id": "team-b"}, headers=headers),
        http.get("/v1/operations", params={"group_id": "team-b"}, headers=headers),
        http.delete(f"/v1/episodes/{other.id}", params={"group_id": "team-b"}, headers=headers),
    ]
    for refused in refusals:
        assert "team b" not in assert_problem(refused, 403, "group_id")["detail"]
    assert [e.content for e in memory.list_episodes("team-b").items] == ["team b secret"]
    assert [e.content for e in memory.list_episodes("team-a").items] == ["team a note"]


def test_operations_record_the_key_name_and_its_use(memory: Memory, http: TestClient) -> None:
    secret = memory.keys.create("write", ["default"], "ingest-bot").secret
    assert memory.keys.list_keys()[0].last_used_at is None
    http.post("/v1/episodes", json={"content": "from the bot"}, headers=bearer(secret))
    [operation] = memory.list_operations(kind=["ingest"]).items
    assert operation.actor == "ingest-bot"
    assert memory.keys.list_keys()[0].last_used_at is not None


def test_only_an_admin_key_for_every_group_manages_keys_and_reverts(memory: Memory, http: TestClient) -> None:
    writer = bearer(memory.keys.create("write", ["default"], "walt").secret)
    group_admin = bearer(memory.keys.create("admin", ["default"], "gina").secret)
    admin = bearer(memory.keys.create("admin", None, "ada").secret)
    new = {"role": "read", "group_ids": ["default"]}
    for headers in (writer, group_admin):
        assert_problem(http.post("/v1/keys", json=new, headers=headers), 403, "Authorization")
        assert_problem(http.get("/v1/keys", headers=headers), 403, "Authorization")
        assert_problem(http.delete("/v1/keys/walt", headers=headers), 403, "Authorization")
    created = http.post("/v1/episodes", json={"content": "to undo"}, headers=writer).json()
    [ingest] = memory.list_operations(kind=["ingest"]).items
    body = assert_problem(
        http.post(f"/v1/operations/{ingest.id}/revert", headers=writer), 403, "Authorization"
    )
    assert body["required_role"] == "admin"
    reverted = http.post(f"/v1/operations/{ingest.id}/revert", headers=group_admin)
    assert reverted.status_code == 200 and reverted.json()["operation"]["actor"] == "gina"
    assert created["episode"]["id"]
    made = http.post("/v1/keys", json=new, headers=admin)
    assert made.status_code == 201
    listed = http.get("/v1/keys", headers=admin).json()
    assert [k["name"] for k in listed["items"]] == ["walt", "gina", "ada", made.json()["key"]["name"]]
    text = http.get("/v1/keys", headers=admin).text
    assert made.json()["secret"] not in text and "digest" not in text, "never a secret or its digest"


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        ({"role": "owner", "group_ids": ["default"]}, "role", 422),
        ({"role": "read", "group_ids": None}, "group_ids", 422),
        ({"role": "read", "group_ids": []}, "group_ids", 422),
        ({"role": "read", "group_ids": ["bad group"]}, "group_ids.0", 422),
        ({"role": "read", "group_ids": ["default"], "name": "rest"}, "name", 422),
        ({"role": "read", "group_ids": ["default"], "name": "ada"}, "name", 409),
        ({"role": "read", "group_ids": ["default"], "expires_at": "2001-01-01T00:00:00Z"}, "expires_at", 422),
        ({"role": "read", "group_ids": ["default"], "secret": "mine"}, "secret", 422),
    ],
)
def test_bad_key_requests_name_the_field(
    memory: Memory, http: TestClient, body: dict[str, Any], field: str, status: int
) -> None:
    admin = bearer(memory.keys.create("admin", None, "ada").secret)
    answer = http.post("/v1/keys", json=body, headers=admin)
    assert_problem(answer, status, field)
    if field == "expires_at":
        assert "is not in the future" in answer.json()["detail"]
    assert [k.name for k in memory.keys.list_keys()] == ["ada"], "nothing half-written"
