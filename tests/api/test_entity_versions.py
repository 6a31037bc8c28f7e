"""Entity versions with provenance: later episodes, PATCH /v1/entities/{id}, update_entity, revert, purge.

REST through the real ASGI stack, MCP through the official SDK's in-process client, both over a
real SQLite store.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
from fastapi.testclient import TestClient
from mcp import Client

from engram.api.mcp.server import create_mcp_server
from engram.memory import Memory

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)


def post(client: TestClient, content: str, days: int, **graph: Any) -> str:
    body = {"content": content, "timestamp": (T0 + timedelta(days=days)).isoformat(), **graph}
    response = client.post("/v1/episodes", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["episode"]["id"])


def entity_named(client: TestClient, name: str) -> dict[str, Any]:
    [found] = client.post("/v1/entities/search", json={"query": name}).json()["results"]
    return dict(found)


def test_a_later_episode_makes_a_new_version_naming_its_episode(client: TestClient) -> None:
    first = post(
        client,
        "李强是销售",
        0,
        entities=[{"name": "李强", "type": "person", "attributes": {"title": "销售"}}],
    )
    later = [
        {"name": "李强", "type": "person", "attributes": {"title": "销售总监"}, "summary": "华东区销售总监"}
    ]
    second = post(client, "李强升任销售总监", 5, entities=later)
    li = entity_named(client, "李强")
    view = client.get(f"/v1/entities/{li['id']}")
    assert view.headers["ETag"] == f'"{li["version"]}"'
    timeline = view.json()["timeline"]
    assert [(v["version"], v["episode_id"]) for v in timeline] == [(1, first), (2, second)]
    assert timeline[0]["attributes"]["title"]["value"] == "销售", "the earlier value stays in the timeline"
    assert li["attributes"]["title"] == {
        "value": "销售总监",
        "episode": second,
        "operation": li["operation_id"],
    }
    assert li["summary"] == "华东区销售总监" and li["summary_source"]["episode"] == second


def test_patch_an_entity_with_if_match(client: TestClient) -> None:
    post(client, "Acme signed", 0, entities=[{"name": "Acme", "type": "organisation"}])
    acme = entity_named(client, "Acme")
    url = f"/v1/entities/{acme['id']}"
    patch = {
        "attributes": {"city": "Boston"},
        "aliases": {"add": ["Zenith Holdings"]},
        "summary": "A customer",
    }
    missing = client.patch(url, json=patch)
    assert missing.status_code == 428 and missing.json()["field"] == "If-Match"
    stale = client.patch(url, json=patch, headers={"If-Match": '"7"'})
    assert stale.status_code == 412 and stale.json()["field"] == "If-Match"
    assert stale.json()["current_version"] == acme["version"]
    done = client.patch(url, json=patch, headers={"If-Match": f'"{acme["version"]}"'})
    assert done.status_code == 200 and done.headers["ETag"] == f'"{acme["version"] + 1}"'
    entity = done.json()["entity"]
    assert entity["aliases"] == ["Zenith Holdings"] and entity["summary"] == "A customer"
    assert entity["attributes"]["city"]["value"] == "Boston" and entity["episode_id"] is None
    operation = entity["operation_id"]
    assert entity["alias_sources"]["Zenith Holdings"] == {"episode": None, "operation": operation}
    assert [
        e["id"]
        for e in client.post("/v1/entities/search", json={"query": "Zenith Holdings"}).json()["results"]
    ] == [acme["id"]]
    etag = done.headers["ETag"]
    removed = client.patch(
        url,
        json={"aliases": {"remove": ["Zenith Holdings"]}, "summary": None, "type": "customer"},
        headers={"If-Match": etag},
    )
    assert removed.status_code == 200
    assert removed.json()["entity"]["aliases"] == [] and removed.json()["entity"]["summary"] is None
    assert removed.json()["entity"]["type"] == "customer"
    assert client.post("/v1/entities/search", json={"query": "Zenith Holdings"}).json()["results"] == []
    bad = client.patch(url, json={"attributes": {"": "x"}}, headers={"If-Match": removed.headers["ETag"]})
    assert bad.status_code == 422 and bad.json()["field"] == "attributes."
    long = client.patch(
        url, json={"attributes": {"note": "x" * 1001}}, headers={"If-Match": removed.headers["ETag"]}
    )
    assert long.status_code == 422 and long.json()["field"] == "attributes.note"
    flag = client.patch(
        url, json={"attributes": {"vip": True}}, headers={"If-Match": removed.headers["ETag"]}
    )
    assert flag.status_code == 200 and flag.json()["entity"]["attributes"]["vip"]["value"] is True
    starred = client.patch(url, json={"attributes": {"tier": "gold"}}, headers={"If-Match": "*"})
    assert (
        starred.status_code == 200 and starred.headers["ETag"] == f'"{flag.json()["entity"]["version"] + 1}"'
    )
    details = client.get(f"/v1/operations/{operation}").json()["operation"]["details"]
    assert details["changed"] == ["aliases", "attributes", "summary"] and details["aliases_added"] == [
        "Zenith Holdings"
    ]


def test_an_alias_that_names_another_entity_is_a_conflict_naming_the_field(client: TestClient) -> None:
    post(client, "Acme and Globex", 0, entities=[{"name": "Acme", "type": "organisation"},
                                                 {"name": "Globex", "type": "organisation"}])  # fmt: skip
    acme = entity_named(client, "Acme")
    url = f"/v1/entities/{acme['id']}"
    taken = client.patch(url, json={"aliases": {"add": ["globex"]}}, headers={"If-Match": "*"})
    assert taken.status_code == 409 and taken.json()["field"] == "aliases.add"
    assert entity_named(client, "Globex")["id"] in taken.json()["detail"], (
        "the problem names the other entity"
    )
    assert (
        entity_named(client, "Acme")["aliases"] == []
        and entity_named(client, "Acme")["version"] == acme["version"]
    )
    fine = client.patch(url, json={"aliases": {"add": ["Acme Corp"]}}, headers={"If-Match": "*"})
    assert fine.status_code == 200 and fine.json()["entity"]["aliases"] == ["Acme Corp"]


def test_a_manual_attribute_edit_names_its_operation_and_survives_purge(
    client: TestClient, memory: Memory
) -> None:
    said = post(
        client,
        "李强是销售",
        0,
        entities=[{"name": "李强", "type": "person", "attributes": {"title": "销售"}}],
    )
    post(client, "李强明天来杭州", 1, entities=[{"name": "李强", "type": "person"}])
    before = entity_named(client, "李强")
    done = client.patch(
        f"/v1/entities/{before['id']}",
        json={"attributes": {"城市": "杭州"}, "summary": "华东区销售"},
        headers={"If-Match": f'"{before["version"]}"'},
    )
    assert done.status_code == 200, done.text
    edited = done.json()["entity"]
    operation = edited["operation_id"]
    assert edited["attributes"]["城市"] == {"value": "杭州", "episode": None, "operation": operation}
    assert edited["summary_source"] == {"episode": None, "operation": operation}
    assert edited["attributes"]["title"]["episode"] == said, "an extracted value keeps its episode"

    reverted = client.post(f"/v1/operations/{operation}/revert")
    assert reverted.status_code == 200, reverted.text
    assert entity_named(client, "李强")["attributes"] == before["attributes"]
    again = client.post(f"/v1/operations/{reverted.json()['operation']['id']}/revert")
    assert again.status_code == 200, again.text

    memory.purge_episode(said)  # takes the title it brought, not the person's edit
    after = entity_named(client, "李强")
    assert after["attributes"] == {"城市": {"value": "杭州", "episode": None, "operation": operation}}


def test_revert_of_an_entity_update_restores_it_exactly(client: TestClient) -> None:
    post(client, "Acme signed", 0, entities=[{"name": "Acme", "type": "organisation", "aliases": ["ACME"]}])
    before = entity_named(client, "Acme")
    done = client.patch(
        f"/v1/entities/{before['id']}",
        json={"attributes": {"tier": "gold"}, "aliases": {"add": ["Zenith Inc"], "remove": ["ACME"]}},
        headers={"If-Match": f'"{before["version"]}"'},
    )
    reverted = client.post(f"/v1/operations/{done.json()['entity']['operation_id']}/revert")
    assert reverted.status_code == 200, reverted.text
    after = entity_named(client, "Acme")
    keep = (
        "name",
        "type",
        "aliases",
        "attributes",
        "summary",
        "alias_sources",
        "summary_source",
        "episode_id",
    )
    assert {k: after[k] for k in keep} == {k: before[k] for k in keep}
    assert after["version"] == before["version"] + 2
    assert client.post("/v1/entities/search", json={"query": "Zenith Inc"}).json()["results"] == []


def test_revert_of_an_arbitration_brings_the_old_fact_back(client: TestClient) -> None:
    post(client, "Tom uses Slack", 0, facts=[{"subject": "Tom", "predicate": "USES", "object": "Slack"}])
    post(
        client,
        "Tom stopped using Slack",
        5,
        facts=[{"subject": "Tom", "predicate": "STOPPED_USING", "object": "Slack"}],
    )
    current = client.post("/v1/facts/search", json={"query": ""}).json()["results"]
    assert [h["fact"]["predicate"] for h in current] == ["STOPPED_USING"]
    [extract] = [
        op
        for op in client.get("/v1/operations", params={"kind": "extract"}).json()["items"]
        if op["details"]["decisions"][0]["decision"] == "ended"
    ]
    assert "ended by STOPPED_USING" in extract["details"]["decisions"][0]["changes"][0]["reason"]
    assert client.post(f"/v1/operations/{extract['id']}/revert").status_code == 200
    back = client.post("/v1/facts/search", json={"query": ""}).json()["results"]
    assert [(h["fact"]["predicate"], h["fact"]["status"], h["fact"]["invalid_at"]) for h in back] == [
        ("USES", "current", None)
    ]


def test_a_fact_restored_by_a_delete_or_a_revert_drops_its_superseded_reason(client: TestClient) -> None:
    budget = [{"subject": "ACME", "predicate": "BUDGET", "value": 500000}]
    post(client, "ACME budget is 500k", 0, entities=[{"name": "ACME", "type": "organisation"}], facts=budget)

    def old_fact() -> dict[str, Any]:
        hits = client.post("/v1/facts/search", json={"query": "", "include_history": True}).json()["results"]
        return dict(next(h["fact"] for h in hits if h["fact"]["value"] == 500000))

    for undo in ("delete", "revert"):
        update = post(client, f"ACME budget is now 800k ({undo})", 30, facts=[{**budget[0], "value": 800000}])
        assert (old_fact()["status"], old_fact()["status_reason"]) == (
            "superseded",
            "superseded by the new fact",
        )
        if undo == "delete":
            assert client.delete(f"/v1/episodes/{update}").status_code == 200
        else:
            ingest = client.get(f"/v1/episodes/{update}").json()["episode"]["operation_id"]
            assert client.post(f"/v1/operations/{ingest}/revert").status_code == 200
        assert (old_fact()["status"], old_fact()["status_reason"]) == ("current", None), undo


def test_purge_removes_the_alias_and_summary_a_purged_episode_introduced(memory: Memory) -> None:
    memory.create_episode({"content": "李强是销售", "entities": [{"name": "李强", "type": "person"}]})
    nickname = memory.create_episode(
        {
            "content": "李强，大家叫他强哥，华东区销售总监",
            "entities": [
                {"name": "李强", "type": "person", "aliases": ["强哥"], "summary": "华东区销售总监"}
            ],
        }
    ).episode.id
    [li] = memory.search_entities("李强")
    assert li.aliases == ["强哥"] and li.alias_sources["强哥"]["episode"] == nickname
    memory.purge_episode(nickname)
    [li] = memory.search_entities("李强")
    assert li.aliases == [] and li.summary is None and li.alias_sources == {}
    assert memory.search_entities("强哥") == [], "no longer found by the purged alias"
    assert all("强哥" not in v.aliases for v in memory.get_entity(li.id).timeline), "gone from every version"


def test_merge_takes_group_id_as_a_query_parameter(client: TestClient) -> None:
    for name in ("Bob", "Robert"):
        client.post(
            "/v1/episodes",
            json={"group_id": "g1", "content": name, "entities": [{"name": name, "type": "person"}]},
        )
    ids = {
        e["name"]: e["id"]
        for e in client.post("/v1/entities/search", json={"query": "b", "group_id": "g1"}).json()["results"]
    }
    merged = client.post(
        f"/v1/entities/{ids['Bob']}/merge", params={"group_id": "g1"}, json={"into": ids["Robert"]}
    )
    assert merged.status_code == 200 and merged.json()["entity"]["aliases"] == ["Bob"]
    clash = client.post(
        f"/v1/entities/{ids['Robert']}/merge", params={"group_id": "g1"}, json={"into": "x", "group_id": "g2"}
    )
    assert clash.status_code == 422 and clash.json()["field"] == "group_id"


def test_update_entity_over_mcp(memory: Memory) -> None:
    memory.create_episode({"content": "Acme signed", "entities": [{"name": "Acme", "type": "organisation"}]})
    [acme] = memory.search_entities("Acme")

    async def scenario(client: Client) -> None:
        result = await client.call_tool(
            "update_entity",
            {
                "id": acme.id,
                "expected_version": acme.version,
                "add_aliases": ["Zenith Holdings"],
                "summary": "A customer",
            },
        )
        assert not result.is_error, result.content
        assert isinstance(result.structured_content, dict)
        entity = result.structured_content["entity"]
        assert entity["aliases"] == ["Zenith Holdings"] and entity["summary"] == "A customer"
        stale = await client.call_tool(
            "update_entity", {"id": acme.id, "expected_version": acme.version, "type": "x"}
        )
        assert stale.is_error and stale.meta is not None
        assert stale.meta["engram/error"]["current_version"] == acme.version + 1

    async def main() -> None:
        async with Client(create_mcp_server(memory)) as client:
            await scenario(client)

    anyio.run(main)
    assert memory.get_entity(acme.id).entity.aliases == ["Zenith Holdings"]
