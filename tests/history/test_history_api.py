"""History over REST (real ASGI stack), MCP (the SDK's client) and the CLI, as users call it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from fastapi.testclient import TestClient
from mcp import Client
from typer.testing import CliRunner

from engram import Memory, Settings
from engram.api.mcp.server import create_mcp_server
from engram.cli import app
from engram.cli.common import CLI_ACTOR

runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None})
BUDGET = {
    "entities": [{"name": "ACME", "type": "organization"}],
    "facts": [{"subject": "ACME", "predicate": "BUDGET", "value": 500000, "fact": "ACME budget is 500k"}],
}


def test_rest_delete_list_revert_and_conflict(client: TestClient) -> None:
    created = client.post("/v1/episodes", json={"content": "ACME budget is 500k", **BUDGET}).json()
    episode = created["episode"]["id"]
    patched = client.patch(f"/v1/episodes/{episode}", json={"intent": "plan"}, headers={"If-Match": '"1"'})
    assert patched.status_code == 200

    deleted = client.delete(f"/v1/episodes/{episode}")
    assert deleted.status_code == 200
    delete_op = deleted.json()["operation"]
    assert delete_op["kind"] == "delete" and delete_op["actor"] == "rest"
    closed = {(c["kind"], c["version"]) for c in deleted.json()["closed"]}
    assert closed == {("episode", 2), ("fact", 1)}, "the episode's last version and its fact's"
    assert [(c["kind"], c["version"]) for c in deleted.json()["created"]] == [("fact", 2)], "retracted"
    assert client.get(f"/v1/episodes/{episode}").status_code == 404
    assert client.post("/v1/facts/search", json={"query": "budget"}).json()["results"] == []

    log = client.get("/v1/operations", params={"episode_id": episode}).json()
    assert [o["kind"] for o in log["items"]] == ["delete", "update", "extract", "ingest"]
    update_op = log["items"][1]["id"]
    assert client.get(f"/v1/operations/{update_op}").json()["created"] == [
        {"kind": "episode", "id": episode, "version": 2}
    ]

    conflict = client.post(f"/v1/operations/{update_op}/revert")
    assert conflict.status_code == 409
    assert conflict.headers["content-type"] == "application/problem+json"
    assert conflict.json()["conflicting_operations"] == [delete_op["id"]]

    restored = client.post(f"/v1/operations/{delete_op['id']}/revert", json={"force": False})
    assert restored.status_code == 200 and restored.json()["operation"]["kind"] == "revert"
    assert client.get(f"/v1/episodes/{episode}").json()["episode"]["intent"] == "plan"
    assert [h["fact"]["value"] for h in client.post("/v1/facts/search", json={}).json()["results"]] == [
        500000
    ]


def test_rest_history_errors_name_the_field(client: TestClient) -> None:
    missing = client.post("/v1/operations/op_nope/revert")
    assert missing.status_code == 404 and missing.json()["field"] == "id"
    assert client.delete("/v1/episodes/nope").json()["field"] == "id"
    bad = client.get("/v1/operations", params={"limit": 0})
    assert bad.status_code == 422 and bad.json()["field"] == "limit"
    unknown = client.post("/v1/operations/op_x/revert", json={"forse": True})
    assert unknown.status_code == 422 and unknown.json()["field"] == "forse"
    typo = client.get("/v1/operations", params={"kind": "merges"})
    assert typo.status_code == 422 and typo.json()["field"] == "kind" and "merge" in typo.json()["detail"]
    cursor = client.get("/v1/operations", params={"cursor": "@@"})
    assert cursor.status_code == 422 and cursor.json()["field"] == "cursor"


def test_mcp_delete_revert_and_list(memory: Memory) -> None:
    async def scenario() -> None:
        async with Client(create_mcp_server(memory)) as client:
            created = await client.call_tool("create_episode", {"content": "ACME budget is 500k", **BUDGET})
            episode = created.structured_content["episode"]["id"]  # type: ignore[index]
            deleted = await client.call_tool("delete_episode", {"id": episode})
            assert not deleted.is_error
            operation = deleted.structured_content["operation"]  # type: ignore[index]
            listed = await client.call_tool("list_operations", {"kind": ["delete"]})
            assert [o["id"] for o in listed.structured_content["items"]] == [operation["id"]]  # type: ignore[index]
            reverted = await client.call_tool("revert_operation", {"id": operation["id"]})
            assert reverted.structured_content["operation"]["kind"] == "revert"  # type: ignore[index]
            again = await client.call_tool("revert_operation", {"id": operation["id"]})
            assert again.is_error and again.structured_content is None and again.meta is not None
            error: dict[str, Any] = again.meta["engram/error"]
            revert_id = reverted.structured_content["operation"]["id"]  # type: ignore[index]
            assert error["type"] == "Conflict" and error["conflicting_operations"] == [revert_id]
            assert revert_id in again.content[0].text  # type: ignore[union-attr]
            lax = await client.call_tool("revert_operation", {"id": operation["id"], "force": "yes"})
            assert lax.is_error and lax.meta is not None and lax.meta["engram/error"]["field"] == "force"
            missing = await client.call_tool("delete_episode", {"id": "nope"})
            assert missing.is_error and missing.meta is not None
            assert missing.meta["engram/error"]["field"] == "id"

    anyio.run(scenario)
    assert memory.get_episode(memory.list_episodes().items[0].id).content == "ACME budget is 500k"


def cli(*args: str | Path) -> Any:
    return runner.invoke(app, [str(arg) for arg in args])


def test_cli_operations_delete_revert_and_purge(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Memory.open(settings=Settings(data_dir=data, embedder="none")) as memory:
        episode = memory.create_episode({"content": "Quixotla lives in Zorblaxville"}).episode.id

    deleted = cli("delete", episode, "--data-dir", data, "--json")
    assert deleted.exit_code == 0, deleted.output
    delete_op = json.loads(deleted.stdout)["operation"]["id"]
    assert json.loads(deleted.stdout)["operation"]["actor"] == CLI_ACTOR and CLI_ACTOR.startswith("cli")
    assert cli("operations", "--data-dir", data, "--kind", "deletes").exit_code == 2
    listed = cli("operations", "--data-dir", data, "--kind", "delete")
    assert listed.exit_code == 0 and delete_op in listed.stdout
    first = cli("operations", "--data-dir", data, "-n", "1")
    cursor = first.stderr.split("--cursor ")[1].split()[0]
    second = cli("operations", "--data-dir", data, "-n", "1", "--cursor", cursor, "--json")
    everything = json.loads(cli("operations", "--data-dir", data, "--json").stdout)["items"]
    assert json.loads(second.stdout)["items"][0]["id"] == everything[1]["id"]
    assert cli("revert", delete_op, "--data-dir", data).exit_code == 0
    conflict = cli("revert", delete_op, "--data-dir", data)
    assert conflict.exit_code == 4 and "already reverted by" in conflict.stderr
    assert cli("revert", delete_op, "--data-dir", data, "--force").exit_code == 4, "force does not undo twice"

    refused = cli("purge", episode, "--data-dir", data)
    assert refused.exit_code == 2 and "--yes" in refused.stderr
    purged = cli("purge", episode, "--data-dir", data, "--yes")
    assert purged.exit_code == 0, purged.output
    assert cli("purge", episode, "--data-dir", data, "--yes").exit_code == 3
    assert b"zorblax" not in (data / "engram.db").read_bytes().lower()
    assert cli("operations", "--data-dir", data, "--kind", "purge", "--json").exit_code == 0
