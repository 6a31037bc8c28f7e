"""Audit and health pages through the ASGI stack: filters, undo preview, undo, conflict and force, health."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from conftest import free_port
from console.conftest import submit, text
from console.seed import Seeded
from engram import Memory, Settings
from engram.api.app import create_app
from fakes.openai_server import ChatReply, serve_fake_openai


def test_the_log_filters_by_kind_actor_entity_and_episode(
    admin: TestClient, memory: Memory, seeded: Seeded
) -> None:
    memory.merge_entities(seeded.carolyn, seeded.caroline, actor="console:amy")
    merges = text(admin.get("/admin/audit", params={"kind": "merge"}))
    assert f"merge {seeded.carolyn} into {seeded.caroline}" in merges and "extract: graph" not in merges
    by_actor = admin.get("/admin/audit", params={"actor": "console:amy"})
    assert len(re.findall(r"<tr><td>\d{4}-", by_actor.text)) == 1
    by_entity = text(admin.get("/admin/audit", params={"entity_id": seeded.project}))
    assert by_entity.count("extraction") >= 2 and "merge" not in by_entity.split("Summary")[1]
    by_episode = text(admin.get("/admin/audit", params={"episode_id": seeded.complaint}))
    assert "ingest" in by_episode and "merge" not in by_episode.split("Summary")[1]
    assert "No operations." in text(admin.get("/admin/audit", params={"actor": "nobody"}))
    bad = admin.get("/admin/audit", params={"kind": "nonsense"})
    assert bad.status_code == 422 and "kind 'nonsense' is not one of" in text(bad)


def test_the_log_pages_with_a_cursor(admin: TestClient, memory: Memory) -> None:
    for n in range(55):
        memory.create_episode({"content": f"bulk note {n}"}, actor="bulk")
    first = admin.get("/admin/audit", params={"actor": "bulk"})
    older = re.search(r'href="(/admin/audit\?[^"]*cursor=[^"]+)"', first.text)
    assert older is not None and len(re.findall(r"<tr><td>\d{4}-", first.text)) == 50
    second = admin.get(older.group(1).replace("&amp;", "&"))
    assert len(re.findall(r"<tr><td>\d{4}-", second.text)) == 5


def test_undo_shows_a_preview_then_reverts_a_merge(admin: TestClient, memory: Memory, seeded: Seeded) -> None:
    memory.merge_entities(seeded.carolyn, seeded.caroline, actor="console:amy")
    [merge] = memory.list_operations(kind=["merge"]).items
    page = admin.get(f"/admin/audit/{merge.id}")
    shown = text(page)
    assert "Undoing this operation will change:" in shown
    assert f"entity {seeded.carolyn} restored to its earlier version expired_at" in shown
    assert (
        '<td>aliases</td><td class="old"><code>["Carolyn"]</code></td><td class="new"><code>[]</code>'
        in page.text
    )
    assert "Undo this operation" in shown and "Undo anyway (force)" not in shown
    undone = submit(admin, f"/admin/audit/{merge.id}", f"/admin/audit/{merge.id}/undo", {})
    assert undone.status_code == 303
    revert_page = text(admin.get(undone.headers["location"]))
    assert f"Operation {merge.id} undone." in revert_page and "revert (undo)" in revert_page
    assert memory.get_entity(seeded.carolyn).entity.name == "Carolyn"
    again = text(admin.get(f"/admin/audit/{merge.id}"))
    assert "This operation cannot be undone:" in again and "already reverted" in again


def test_json_on_console_pages_shows_chinese_as_characters(admin: TestClient, memory: Memory) -> None:
    said = memory.create_episode(
        {
            "content": "李强周末住在杭州",
            "metadata": {"项目": "杭州"},
            "entities": [{"name": "李强", "type": "person"}],
            "facts": [
                {"subject": "李强", "predicate": "LIVES_IN", "value": "杭州", "conditions": {"时间": "周末"}}
            ],
        }
    )
    memory.update_episode(said.episode.id, {"intent": "follow_up"}, expected_version=1)
    [li] = memory.search_entities("李强")
    page = f"/admin/entities/{li.id}"
    form = {"version": str(li.version), "new_key": "城市", "new_value": "杭州"}
    assert submit(admin, page, f"{page}/attributes", form).status_code == 303
    [edit] = memory.list_operations(kind=["entity_update"]).items
    audit = admin.get(f"/admin/audit/{edit.id}").text
    assert '"attributes": [\n  "城市"\n ]' in audit, "the details"
    assert '<td>attributes</td><td class="old"><code>{"城市": {"episode": null' in audit, "the undo preview"
    entity = admin.get(page).text
    assert '<span class="muted">{"时间": "周末"}</span>' in entity, "a fact's conditions"
    episode = admin.get(f"/admin/episodes/{said.episode.id}").text
    assert '<code>{"项目": "杭州"}</code>' in episode, "the versions' metadata"
    for shown in (audit, entity, episode):
        assert "\\u" not in shown


def test_a_conflicting_undo_shows_the_later_operations_and_offers_force(
    admin: TestClient, memory: Memory, seeded: Seeded
) -> None:
    survivor = memory.merge_entities(seeded.carolyn, seeded.caroline)
    [merge] = memory.list_operations(kind=["merge"]).items
    memory.update_entity(
        seeded.caroline, {"team": "sales"}, expected_version=survivor.entity.version, actor="console:bo"
    )
    [edit] = memory.list_operations(kind=["entity_update"]).items
    preview = text(admin.get(f"/admin/audit/{merge.id}"))
    assert "Later operations changed the same objects" in preview and edit.id in preview
    refused = submit(admin, f"/admin/audit/{merge.id}", f"/admin/audit/{merge.id}/undo", {})
    assert refused.status_code == 409
    shown = text(refused)
    assert "The undo was refused" in shown and f"entity edit {edit.id}" in shown
    assert "Undo anyway (force)" in shown
    forced = submit(admin, f"/admin/audit/{merge.id}", f"/admin/audit/{merge.id}/undo", {"force": "1"})
    assert forced.status_code == 303 and memory.get_entity(seeded.carolyn).entity.name == "Carolyn"
    assert "team" not in memory.get_entity(seeded.caroline).entity.attributes


def test_not_the_same_is_undone_from_its_audit_page(
    admin: TestClient, memory: Memory, seeded: Seeded
) -> None:
    distinct = memory.mark_distinct(seeded.caroline, seeded.carolyn)
    page = text(admin.get(f"/admin/audit/{distinct.id}"))
    assert "judgement between the two entities flips" in page and "Undo this operation" in page
    assert "distinct true false" in page, "the diff shows the judgement flipping"
    undone = submit(admin, f"/admin/audit/{distinct.id}", f"/admin/audit/{distinct.id}/undo", {})
    assert undone.status_code == 303
    assert "Not the same" in text(admin.get("/admin/review/candidates")), "the pair is back in review"
    again = text(admin.get(f"/admin/audit/{distinct.id}"))
    assert "This operation cannot be undone" in again and "already reverted" in again


def test_operations_that_cannot_be_undone_say_so(admin: TestClient, memory: Memory, seeded: Seeded) -> None:
    episode = memory.create_episode({"content": "a note to purge"}).episode
    purge, _ = memory.purge_episode(episode.id)
    page = text(admin.get(f"/admin/audit/{purge.id}"))
    assert "This operation cannot be undone: a purge cannot be reverted" in page
    assert "Undo this operation" not in page


def test_health_shows_the_numbers_memory_reports(admin: TestClient, memory: Memory, seeded: Seeded) -> None:
    report = memory.health()
    page = text(admin.get("/admin/health"))
    assert f"{sum(report.total.by_intent.values())} episodes" in page
    assert f"{report.disputed_facts} disputed facts" in page and report.disputed_facts == 1
    assert (
        f"{report.pending_candidates} merge candidates to review" in page and report.pending_candidates == 1
    )
    for label in (
        "Request information",
        "Provide a quote",
        "Follow up",
        "Complain about a product or service",
        "no intent",
    ):
        assert label in page
    assert "No failed extractions." in page and "Retry extraction" not in page
    zh = text(admin.get("/admin/health", headers={"accept-language": "zh"}))
    assert "有争议的事实" in zh and "咨询信息" in zh


def test_retry_extraction_from_the_health_page(tmp_path: Path) -> None:
    with serve_fake_openai(free_port()) as fake:
        settings = Settings(
            data_dir=tmp_path / "llm",
            extractor="llm",
            llm_base_url=fake.base_url,
            llm_model="fake-chat",
            llm_max_retries=0,
            embedder="none",
        )
        with (
            Memory.open(settings=settings) as memory,
            TestClient(create_app(memory), base_url="http://127.0.0.1") as client,
        ):
            fake.script(ChatReply(status=503))
            failed = memory.create_episode(
                {"content": "I live in Hangzhou", "actor": {"id": "li"}}
            ).episode.id
            error = memory.get_episode(failed).metadata["extraction_error"]
            page = text(client.get("/admin/health"))
            assert f"[source: {failed}] {error}" in page and "Retry extraction" in page
            assert "extraction failed" in page, "the warning is among the recent errors"
            fake.script(
                ChatReply(content='{"entities": [{"name": "Hangzhou", "type": "place"}], "facts": []}')
            )
            retried = submit(client, "/admin/health", "/admin/health/reextract", {})
            assert retried.status_code == 303
            after = text(client.get("/admin/health"))
    assert "Extraction retried: 1 succeeded, 0 still failing." in after and "No failed extractions." in after
