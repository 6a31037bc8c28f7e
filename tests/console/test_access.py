"""Access to the console: loopback local admin, API-key sign-in, roles, groups, CSRF tokens, cookies."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from console.conftest import csrf, submit, text
from console.seed import Seeded
from engram import Memory
from engram.api.app import create_app
from engram.api.console import check_api_key

Clients = Callable[..., TestClient]


def test_on_loopback_without_keys_everyone_is_the_local_admin(admin: TestClient) -> None:
    page = admin.get("/admin/health")
    assert "Signed in as local · administrator" in text(page)
    cookie = page.headers["set-cookie"]
    assert "engram_console=" in cookie and "path=/admin" in cookie and "httponly" in cookie.lower()
    assert "samesite=lax" in cookie.lower()


def test_without_keys_a_remote_server_admits_no_one(memory: Memory, seeded: Seeded) -> None:
    with TestClient(create_app(memory, host="0.0.0.0"), base_url="http://127.0.0.1") as client:
        away = client.get("/admin/episodes", follow_redirects=False)
        assert away.status_code == 303 and away.headers["location"] == "/admin/sign-in?next=/admin/episodes"
        page = client.get("/admin/sign-in")
        assert "No API key is in force" in text(page) and 'name="key"' not in page.text
        refused = client.post(
            "/admin/episodes/new", data={"csrf_token": "", "content": "x"}, follow_redirects=False
        )
    assert refused.status_code == 403 and "x" not in {e.content for e in memory.list_episodes().items}
    assert check_api_key(memory.keys, "ek_anything") is None, "no keys exist yet"


def test_a_loopback_visitor_through_a_proxy_is_not_the_local_admin(memory: Memory, seeded: Seeded) -> None:
    with TestClient(create_app(memory), base_url="http://127.0.0.1") as client:
        proxied = client.get(
            "/admin/episodes", headers={"X-Forwarded-For": "203.0.113.9"}, follow_redirects=False
        )
    assert proxied.status_code == 303 and proxied.headers["location"].startswith("/admin/sign-in")


def test_once_a_key_exists_the_local_admin_session_ends(admin: TestClient, memory: Memory) -> None:
    assert "Signed in as local" in text(admin.get("/admin/health"))
    memory.keys.create("admin", None, "root")
    assert admin.get("/admin/health", follow_redirects=False).status_code == 303, "keys now in force"


def test_sign_in_with_a_key_and_out(with_keys: Clients, secrets: dict[str, str]) -> None:
    client = with_keys()
    assert client.get("/admin/episodes", follow_redirects=False).status_code == 303, (
        "keys exist: no automatic admin"
    )
    wrong = submit(client, "/admin/sign-in", "/admin/sign-in", {"key": "ek_guess", "next": "/admin/health"})
    assert wrong.status_code == 401 and 'id="key-error">This key is not valid.' in wrong.text
    data = {"key": secrets["write-key"], "next": "/admin/health"}
    signed = submit(client, "/admin/sign-in", "/admin/sign-in", data)
    assert signed.status_code == 303 and signed.headers["location"] == "/admin/health"
    assert "Signed in as walt · can write" in text(client.get("/admin/health"))
    assert secrets["write-key"] not in str(client.cookies.jar), "the session keeps the key's id, not the key"
    outside = submit(
        client,
        "/admin/health",
        "/admin/sign-in",
        {"key": secrets["write-key"], "next": "https://evil.example"},
    )
    assert outside.headers["location"] == "/admin/episodes"
    out = submit(client, "/admin/health", "/admin/sign-out", {})
    assert out.status_code == 303 and client.get("/admin/health", follow_redirects=False).status_code == 303


def test_a_read_only_key_sees_no_write_buttons_and_is_refused_writes(
    with_keys: Clients, memory: Memory, seeded: Seeded
) -> None:
    client = with_keys("read-key")
    pages = {
        "/admin/episodes/new": "Save episode",
        f"/admin/episodes/{seeded.complaint}": "Save changes",
        f"/admin/entities/{seeded.acme}": "Save attributes",
        "/admin/review/candidates": "Not the same",
        "/admin/review/disputes": "Keep both",
    }
    for path, button in pages.items():
        page = client.get(path)
        assert page.status_code == 200 and button not in page.text, path
    assert "Your key is read-only" in text(client.get("/admin/episodes/new"))
    token = csrf(client.get("/admin/health"))
    for action, data in (
        ("/admin/episodes/new", {"content": "sneaky"}),
        (f"/admin/episodes/{seeded.complaint}/delete", {}),
        ("/admin/review/candidates/distinct", {"entity_id": seeded.caroline, "candidate_id": seeded.carolyn}),
        (f"/admin/entities/{seeded.carolyn}/merge", {"into": seeded.caroline}),
    ):
        refused = client.post(action, data={"csrf_token": token, **data})
        assert refused.status_code == 403 and "Your key may not do this." in text(refused), action
    assert memory.list_operations(kind=["delete", "distinct", "merge"]).items == []
    assert "sneaky" not in {e.content for e in memory.list_episodes().items}


def test_only_administrators_undo(with_keys: Clients, memory: Memory, seeded: Seeded) -> None:
    [ingest] = memory.list_operations(kind=["ingest"], episode_id=seeded.unclassified).items
    writer = with_keys("write-key")
    page = writer.get(f"/admin/audit/{ingest.id}")
    assert "Only administrators can undo operations." in text(page) and "Undo this operation" not in page.text
    refused = writer.post(f"/admin/audit/{ingest.id}/undo", data={"csrf_token": csrf(page)})
    assert refused.status_code == 403
    admin = with_keys("admin-key")
    done = submit(admin, f"/admin/audit/{ingest.id}", f"/admin/audit/{ingest.id}/undo", {})
    assert done.status_code == 303
    [revert] = memory.list_operations(kind=["revert"]).items
    assert revert.actor == "ada", "the key's name is the operation's actor"
    audit = admin.get("/admin/audit", params={"actor": "ada"})
    assert revert.id in audit.text


def test_actions_are_attributed_to_the_key_and_a_revoked_key_ends_its_session(
    with_keys: Clients, memory: Memory
) -> None:
    client = with_keys("write-key")
    assert (
        submit(client, "/admin/episodes/new", "/admin/episodes/new", {"content": "by walt"}).status_code
        == 303
    )
    [ingest] = memory.list_operations(kind=["ingest"], actor="walt").items
    assert "by walt" in {e.content for e in memory.list_episodes().items} and ingest.group_id == "default"
    memory.keys.revoke("walt")
    assert client.get("/admin/health", follow_redirects=False).status_code == 303, "revoked: signed out"
    assert client.get("/admin/sign-in").status_code == 200


def test_a_key_limited_to_groups_sees_only_them(with_keys: Clients, memory: Memory, seeded: Seeded) -> None:
    client = with_keys("team-a-key")
    assert client.get("/admin/episodes").status_code == 200, "its only group is the one it works in"
    assert "team-a" in text(client.get("/admin/episodes"))
    chosen = client.get(
        "/admin/group", params={"group_id": "team-a", "next": "/admin/episodes/new"}, follow_redirects=False
    )
    assert chosen.status_code == 303 and chosen.headers["location"] == "/admin/episodes/new"
    created = submit(client, "/admin/episodes/new", "/admin/episodes/new", {"content": "team note"})
    assert created.status_code == 303
    assert [e.content for e in memory.list_episodes("team-a").items] == ["team note"]
    other = client.get("/admin/group", params={"group_id": "default"})
    assert other.status_code == 403 and "This group is not one of your key's groups." in text(other)
    assert (
        client.get(f"/admin/episodes/{seeded.complaint}", params={"group_id": "default"}).status_code == 403
    )


def test_every_post_needs_the_session_csrf_token(admin: TestClient, memory: Memory, seeded: Seeded) -> None:
    page = admin.get("/admin/episodes/new")
    missing = admin.post("/admin/episodes/new", data={"content": "no token"})
    forged = admin.post("/admin/episodes/new", data={"content": "bad token", "csrf_token": "x" * 43})
    assert missing.status_code == forged.status_code == 403
    assert "This form expired" in text(missing)
    other = TestClient(admin.app, base_url="http://127.0.0.1")
    other.get("/admin/health")
    stolen = other.post("/admin/episodes/new", data={"content": "cross session", "csrf_token": csrf(page)})
    assert stolen.status_code == 403, "a token is only good in its own session"
    for action in (
        f"/admin/episodes/{seeded.complaint}/delete",
        "/admin/review/disputes/resolve",
        "/admin/sign-out",
    ):
        assert admin.post(action, data={}).status_code == 403, action
    assert {e.content for e in memory.list_episodes().items}.isdisjoint(
        {"no token", "bad token", "cross session"}
    )
