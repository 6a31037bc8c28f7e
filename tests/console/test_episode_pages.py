"""The episode pages through the ASGI stack: new-episode form, search, edit with the version check, delete."""

from __future__ import annotations

import re

import httpx
from fastapi.testclient import TestClient

from console.conftest import submit, text
from console.seed import Seeded
from engram import Memory

NEW = "/admin/episodes/new"


def new_episode(client: TestClient, **fields: object) -> httpx.Response:
    data = {"intent": "", "content": "", "actor": "", "time": "", "source": "", "priority": "", "due": ""}
    return submit(client, NEW, NEW, {**data, **fields})


def test_the_form_stores_an_episode_and_shows_what_was_extracted(admin: TestClient, memory: Memory) -> None:
    form = admin.get(NEW)
    assert re.search(
        r'id="time" name="time" type="datetime-local" value="\d{4}-\d\d-\d\dT\d\d:\d\d"', form.text
    )
    labels = re.findall(r'<label for="([^"]+)"', form.text)
    for control in (
        "intent",
        "content",
        "actor",
        "time",
        "source",
        "reference-1",
        "reference-2",
        "priority",
        "due",
    ):
        assert control in labels, f"{control} has a visible label"
    assert (
        "Complain about a product or service" in form.text
        and "跟进" in admin.get(NEW, headers={"accept-language": "zh"}).text
    )
    created = new_episode(
        admin,
        intent="cancel_order",
        content="客户要求取消订单 DEAL-7890，请联系李强",
        actor="li",
        time="2026-11-30T10:00",
        source="phone",
        references=["deal:7890", "", "  "],
        priority="high",
        due="2026-12-05",
    )
    assert created.status_code == 303
    episode_id = created.headers["location"].split("/")[-1].split("?")[0]
    stored = memory.get_episode(episode_id)
    assert (stored.intent, stored.source, stored.actor and stored.actor.id) == ("cancel_order", "phone", "li")
    assert stored.timestamp.isoformat() == "2026-11-30T10:00:00+00:00" and stored.references == ["deal:7890"]
    assert stored.metadata == {"priority": "high", "due": "2026-12-05"}
    [ingest] = memory.list_operations(kind=["ingest"], episode_id=episode_id).items
    assert ingest.actor == "console:local"
    page = admin.get(created.headers["location"])
    shown = text(page)
    assert "Episode stored." in shown and "What the extractor made of it" in shown
    assert "DEAL-7890 (deal)" in shown and "李强 (person)" in shown and 'class="card highlight"' in page.text


def test_field_errors_are_shown_next_to_their_fields(admin: TestClient, memory: Memory) -> None:
    before = len(memory.list_episodes().items)
    failed = new_episode(
        admin, content="  ", intent="not_an_intent", due="05/12/2026", priority="urgent", time="soon"
    )
    assert failed.status_code == 422
    for field, message in (
        ("content", "Required."),
        ("intent", "Choose an intent from the list."),
        ("due", "Enter a date (YYYY-MM-DD)."),
        ("priority", "Choose high, medium or low."),
        ("time", "Enter a date and time."),
    ):
        assert f'aria-invalid="true" aria-describedby="{field}-error"' in failed.text, field
        assert re.search(rf'id="{field}-error">{re.escape(message)}', failed.text), field
    assert 'value="urgent"' not in failed.text and "05/12/2026" in failed.text, "typed values are kept"
    too_big = new_episode(admin, content="x" * 300_000)
    assert too_big.status_code == 422
    assert re.search(
        r'id="content-error">Not accepted: content is 300000 bytes; the limit is 262144', too_big.text
    )
    chinese = submit(admin, NEW, NEW, {"content": ""}, headers={"accept-language": "zh-CN"})
    assert chinese.status_code == 422 and 'id="content-error">必填。' in chinese.text
    assert len(memory.list_episodes().items) == before, "nothing half-written"


def test_a_duplicate_is_shown_as_already_stored_with_a_link(admin: TestClient, memory: Memory) -> None:
    first = new_episode(
        admin, content="Please call back about the refund", actor="wang", intent="request_refund"
    )
    stored_id = first.headers["location"].split("/")[-1].split("?")[0]
    again = new_episode(
        admin, content="Please call back about the refund", actor="wang", intent="request_refund"
    )
    assert again.status_code == 200
    assert (
        "Already stored:" in text(again)
        and f'<a href="/admin/episodes/{stored_id}">{stored_id}</a>' in again.text
    )
    assert memory.health().deduplicated == 1


def test_add_a_reference_works_without_javascript_and_with_htmx(admin: TestClient) -> None:
    more = new_episode(admin, content="draft", references=["doc:price", ""], add_reference="1")
    assert more.status_code == 200 and 'id="reference-3"' in more.text and 'value="doc:price"' in more.text
    row = admin.get("/admin/fragments/reference-row?references=a&references=&references=")
    assert (
        '<label for="reference-4">Reference 4</label>' in row.text and 'list="reference-options"' in row.text
    )


def test_reference_autocomplete_offers_documents_and_episodes(admin: TestClient, seeded: Seeded) -> None:
    options = admin.get("/admin/suggest/references", params={"references": "INV-2041"}).text
    assert '<option value="invoice:2041">INV-2041 (invoice)</option>' in options
    assert f'<option value="{seeded.complaint}">' in options, "the episode that mentions it"
    assert admin.get("/admin/suggest/references", params={"q": " "}).text.strip() == ""


def test_search_filters_highlights_and_citations(admin: TestClient, seeded: Seeded) -> None:
    found = admin.get("/admin/episodes", params={"q": "invoice wrong", "source": "phone"})
    assert f"[source: {seeded.complaint}]" in found.text
    assert "<mark>invoice</mark>" in found.text and "<mark>wrong</mark>" in found.text
    assert "1 results" in text(found)
    none = admin.get("/admin/episodes", params={"q": "invoice", "source": "email"})
    assert "No episodes found." in text(none)
    by_intent = text(admin.get("/admin/episodes", params={"intent": "follow_up"}))
    assert "听说杭州项目预算可能是八十万" in by_intent and "Caroline" not in by_intent
    window = text(admin.get("/admin/episodes", params={"after": "2026-11-24", "before": "2026-11-24"}))
    assert "The customer complained" in window and "Lunch" not in window, "before is the last day, inclusive"
    bad = admin.get("/admin/episodes", params={"after": "yesterday"})
    assert bad.status_code == 422 and 'id="timestamp_after-error"' in bad.text
    escaped = admin.get("/admin/episodes", params={"q": "<script>"})
    assert "<script>" not in escaped.text.split("<main>")[1]


def test_an_edit_makes_a_version_and_a_stale_edit_shows_both(
    admin: TestClient, memory: Memory, seeded: Seeded
) -> None:
    page = f"/admin/episodes/{seeded.complaint}"
    form = {
        "version": "1",
        "intent": "request_refund",
        "status": "active",
        "priority": "low",
        "due": "",
        "metadata": '{"ticket": "T-9"}',
        "references": ["invoice:2041"],
    }
    saved = submit(admin, page, f"{page}/edit", form)
    assert saved.status_code == 303
    stored = memory.get_episode(seeded.complaint)
    assert (stored.version, stored.intent, stored.references) == (2, "request_refund", ["invoice:2041"])
    assert stored.metadata == {"priority": "low", "ticket": "T-9"}
    assert "Saved as version 2." in text(admin.get(page))
    # Someone else saves version 3; this form still says version 2.
    memory.update_episode(
        seeded.complaint, {"metadata": {"priority": "high"}}, expected_version=2, actor="rest"
    )
    stale = submit(admin, page, f"{page}/edit", {**form, "version": "2", "priority": "medium"})
    assert stale.status_code == 409
    shown = text(stale)
    assert "Someone else changed this episode" in shown and "now at version 3" in shown
    row = re.search(r"Priority</th><td>([^<]*)</td><td>([^<]*)</td>", stale.text)
    assert row is not None and row.groups() == ("medium", "high"), "yours beside the stored value"
    assert memory.get_episode(seeded.complaint).metadata["priority"] == "high", "nothing overwritten"
    applied = submit(admin, page, f"{page}/edit", {**form, "version": "3", "priority": "medium"})
    assert (
        applied.status_code == 303 and memory.get_episode(seeded.complaint).metadata["priority"] == "medium"
    )
    unchanged = submit(
        admin,
        page,
        f"{page}/edit",
        {**form, "version": "4", "priority": "medium", "references": ["invoice:2041"]},
    )
    assert unchanged.status_code == 303 and memory.get_episode(seeded.complaint).version == 4
    bad = submit(admin, page, f"{page}/edit", {**form, "version": "4", "metadata": "[1, 2]"})
    assert bad.status_code == 422 and 'id="metadata-error">Enter a JSON object' in bad.text


def test_the_episode_page_links_references_and_lists_versions(
    admin: TestClient, memory: Memory, seeded: Seeded
) -> None:
    memory.update_episode(
        seeded.unclassified,
        {"references": [seeded.complaint, "invoice:2041", "https://x.example/a"]},
        expected_version=1,
    )
    page = admin.get(f"/admin/episodes/{seeded.unclassified}")
    assert f'<a href="/admin/episodes/{seeded.complaint}">{seeded.complaint}</a>' in page.text
    invoice = memory.search_entities("INV-2041")[0]
    assert f'<a href="/admin/entities/{invoice.id}">invoice:2041</a>' in page.text
    assert "https://x.example/a" in page.text and 'href="https://x.example/a"' not in page.text
    versions = re.findall(r"<tr><td>(\d+)</td><td>\d{4}-", page.text)
    assert versions == ["2", "1"]


def test_delete_asks_first_then_retracts_and_offers_the_undo(
    admin: TestClient, memory: Memory, seeded: Seeded
) -> None:
    confirm = admin.get(f"/admin/episodes/{seeded.complaint}/delete")
    assert "Delete this episode?" in text(confirm) and "The customer complained" in text(confirm)
    deleted = submit(
        admin, f"/admin/episodes/{seeded.complaint}/delete", f"/admin/episodes/{seeded.complaint}/delete", {}
    )
    assert deleted.status_code == 303 and deleted.headers["location"].startswith("/admin/audit/op_")
    audit = admin.get(deleted.headers["location"])
    shown = text(audit)
    assert "deleted. Undo it here" in shown and "restored to its earlier version expired_at" in shown
    assert admin.get(f"/admin/episodes/{seeded.complaint}").status_code == 404
    undone = submit(admin, deleted.headers["location"], deleted.headers["location"] + "/undo", {})
    assert undone.status_code == 303 and memory.get_episode(seeded.complaint).content.startswith(
        "The customer"
    )
