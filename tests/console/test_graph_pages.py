"""Entity and review pages through the ASGI stack: attributes, merge, candidates, disputes."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from console.conftest import submit, text
from console.seed import Seeded
from engram import Memory


def test_entity_search_and_page(admin: TestClient, seeded: Seeded) -> None:
    found = admin.get("/admin/entities", params={"q": "Carol"})
    assert f'href="/admin/entities/{seeded.caroline}"' in found.text
    assert f'href="/admin/entities/{seeded.carolyn}"' in found.text
    page = text(admin.get(f"/admin/entities/{seeded.caroline}"))
    assert "Caroline (person)" in page and "WORKS_AT Acme current Caroline works at Acme" in page
    assert "[source: ep_" in page, "each fact cites the episodes behind it"
    assert "No entities found." in text(admin.get("/admin/entities", params={"q": "zzzz"}))


def test_attributes_are_edited_with_the_version_check(
    admin: TestClient, memory: Memory, seeded: Seeded
) -> None:
    page = f"/admin/entities/{seeded.acme}"
    version = memory.get_entity(seeded.acme).entity.version
    added = submit(
        admin, page, f"{page}/attributes", {"version": str(version), "new_key": "city", "new_value": "杭州"}
    )
    assert added.status_code == 303
    entity = memory.get_entity(seeded.acme).entity
    assert entity.attributes["city"]["value"] == "杭州" and entity.version == version + 1
    assert '<label for="attr-1">city</label>' in admin.get(page).text
    edited = submit(
        admin, page, f"{page}/attributes", {"version": str(version + 1), "key": ["city"], "value": ["宁波"]}
    )
    assert (
        edited.status_code == 303
        and memory.get_entity(seeded.acme).entity.attributes["city"]["value"] == "宁波"
    )
    stale = submit(
        admin, page, f"{page}/attributes", {"version": str(version), "key": ["city"], "value": ["上海"]}
    )
    assert stale.status_code == 409
    assert "Someone else changed this entity (now version" in text(stale) and "city=上海" in text(stale)
    removed = submit(
        admin,
        page,
        f"{page}/attributes",
        {"version": str(version + 2), "key": ["city"], "value": ["宁波"], "remove": ["city"]},
    )
    assert removed.status_code == 303 and memory.get_entity(seeded.acme).entity.attributes == {}
    kinds = [op.kind for op in memory.list_operations(entity_id=seeded.acme, kind=["entity_update"]).items]
    assert kinds == ["entity_update"] * 3


def test_merge_from_the_entity_page_by_name(admin: TestClient, memory: Memory, seeded: Seeded) -> None:
    page = f"/admin/entities/{seeded.carolyn}"
    assert 'hx-get="/admin/suggest/entities' in admin.get(page).text
    options = admin.get("/admin/suggest/entities", params={"into": "Carol", "entity_id": seeded.carolyn}).text
    assert f'value="{seeded.caroline}"' in options and seeded.carolyn not in options
    unknown = submit(admin, page, f"{page}/merge", {"into": "Nobody at all"})
    assert unknown.status_code == 422 and 'id="into-error">Not accepted:' in unknown.text
    merged = submit(admin, page, f"{page}/merge", {"into": "Caroline"})
    assert merged.status_code == 303 and merged.headers["location"] == f"/admin/entities/{seeded.caroline}"
    shown = text(admin.get(merged.headers["location"]))
    [operation] = memory.list_operations(kind=["merge"]).items
    assert f"Merged into Caroline (operation {operation.id})" in shown and "Carolyn" in shown
    assert operation.actor == "console:local"
    assert admin.get(page).status_code == 404


def test_the_merge_form_says_why_a_typed_target_cannot_be_used(
    admin: TestClient, memory: Memory, seeded: Seeded
) -> None:
    page = f"/admin/entities/{seeded.carolyn}"
    unknown = submit(admin, page, f"{page}/merge", {"into": "Nobody At All"})
    assert unknown.status_code == 422
    assert "No other entity in this group is named “Nobody At All”" in text(unknown)
    assert "no entity with id" not in text(unknown) and 'value="Nobody At All"' in unknown.text
    clash = text(submit(admin, page, f"{page}/merge", {"into": "Acme"}))
    assert "This entity’s type is “person” and Acme’s is “organisation”" in clash
    for kind in ("product", "project"):  # one name, two entities
        memory.create_episode({"content": f"Sam the {kind}", "entities": [{"name": "Sam", "type": kind}]})
    several = text(submit(admin, page, f"{page}/merge", {"into": "sam"}))
    assert "2 entities are named “sam”: Sam (" in several and "Enter the id (en_…)" in several
    assert "Sam (product) en_" in several and "Sam (project) en_" in several
    admin.cookies.set("engram_lang", "zh")
    chinese = text(submit(admin, page, f"{page}/merge", {"into": "Nobody At All"}))
    assert "本组中没有其他名为“Nobody At All”的实体" in chinese
    assert memory.list_operations(kind=["merge"]).items == [], "nothing was merged"
    admin.cookies.set("engram_lang", "en")
    merged = submit(admin, page, f"{page}/merge", {"into": "  caroline "})  # a name, in any case
    assert merged.status_code == 303 and merged.headers["location"] == f"/admin/entities/{seeded.caroline}"


def test_candidates_are_merged_or_judged_not_the_same(
    admin: TestClient, memory: Memory, seeded: Seeded
) -> None:
    queue = "/admin/review/candidates"
    page = admin.get(queue)
    buttons = re.findall(r'<button type="submit"[^>]*>([^<]+)</button>', page.text)
    assert {"Merge Carolyn into Caroline", "Merge Caroline into Carolyn", "Not the same"} <= set(buttons)
    distinct = submit(
        admin, queue, f"{queue}/distinct", {"entity_id": seeded.carolyn, "candidate_id": seeded.caroline}
    )
    assert distinct.status_code == 303
    after = text(admin.get(queue))
    assert "Recorded as not the same" in after and "No merge candidates to review." in after
    assert memory.list_operations(kind=["distinct"]).items[0].actor == "console:local"


def test_a_candidate_merge_from_the_queue(admin: TestClient, memory: Memory, seeded: Seeded) -> None:
    queue = "/admin/review/candidates"
    merged = submit(admin, queue, f"{queue}/merge", {"entity_id": seeded.carolyn, "into": seeded.caroline})
    assert merged.status_code == 303
    assert "Merged into Caroline" in text(admin.get(queue))
    assert "Carolyn" in memory.get_entity(seeded.caroline).entity.aliases


def test_disputes_keep_one_or_both(admin: TestClient, memory: Memory, seeded: Seeded) -> None:
    queue = "/admin/review/disputes"
    [dispute] = memory.disputes()
    ids = {hit.fact.value: hit.fact.id for hit in dispute.facts}
    form = {"subject": seeded.project, "predicate": "BUDGET", "fact": list(ids.values())}
    kept = submit(admin, queue, f"{queue}/resolve", {**form, "keep": ids[500000]})
    assert kept.status_code == 303
    assert "Settled (operation op_" in text(admin.get(queue))
    statuses = {
        h.fact.value: h.fact.status
        for h in memory.search_facts({"subject": seeded.project, "include_history": True}).results
    }
    assert statuses == {500000: "current", 800000: "superseded"}
    again = submit(admin, queue, f"{queue}/resolve", {**form, "keep": ids[800000]})
    assert again.status_code == 303 and "Someone settled this dispute already." in text(admin.get(queue))
    [arbitration] = memory.list_operations(kind=["arbitrate"]).items
    memory.revert_operation(arbitration.id)
    both = submit(admin, queue, f"{queue}/resolve", {**form, "keep_all": "1"})
    assert both.status_code == 303 and memory.disputes() == []
    statuses = {h.fact.value: h.fact.status for h in memory.search_facts({"subject": seeded.project}).results}
    assert statuses == {500000: "current", 800000: "current"}


def test_the_speaker_id_is_shown_but_not_edited(admin: TestClient, memory: Memory, seeded: Seeded) -> None:
    """actor_id keeps a speaker one entity (engram.graph.resolve): the form shows it, never changes it."""
    before = memory.get_entity(seeded.caroline).entity.version
    memory.update_entity(seeded.caroline, {"actor_id": "caroline@chat"}, expected_version=before)
    page = f"/admin/entities/{seeded.caroline}"
    shown = admin.get(page).text
    assert "<code>caroline@chat</code>" in shown and 'value="actor_id"' not in shown
    version = memory.get_entity(seeded.caroline).entity.version
    forged = submit(
        admin,
        page,
        f"{page}/attributes",
        {"version": str(version), "key": ["actor_id"], "value": ["mallory"], "remove": ["actor_id"]},
    )
    assert forged.status_code == 303
    assert memory.get_entity(seeded.caroline).entity.attributes["actor_id"]["value"] == "caroline@chat"
    added = submit(
        admin, page, f"{page}/attributes", {"version": str(version), "new_key": "actor_id", "new_value": "x"}
    )
    assert added.status_code == 422 and "Not accepted: 'actor_id' is set by Engram" in text(added)
    assert memory.get_entity(seeded.caroline).entity.version == version
