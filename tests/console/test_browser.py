"""The console's main flows in a real headless Chromium; controls found by role and label, as people do."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from conftest import serving
from console.browser import CHROMIUM, LAUNCH_ARGS, MISSING
from console.seed import Seeded
from engram import Memory

if not CHROMIUM.exists():
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, expect, sync_playwright


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def base(memory: Memory, seeded: Seeded) -> Iterator[str]:
    with serving(memory) as url:
        yield url


@pytest.fixture
def page(browser: Browser, base: str) -> Iterator[Page]:
    context = browser.new_context(base_url=base, locale="en-GB")
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def test_create_an_episode_with_the_form_and_find_it(page: Page, memory: Memory, seeded: Seeded) -> None:
    page.goto("/admin/episodes/new")
    page.get_by_label("Intent").select_option(label="Complain about a product or service")
    page.get_by_label("Content").fill("The customer says the delivery of order PO-7788 arrived broken")
    page.get_by_label("Actor").fill("zhao")
    page.get_by_label("Source").fill("phone")
    reference = page.get_by_label("Reference 1")
    reference.press_sequentially("INV-20", delay=30)
    expect(page.locator("#reference-options option[value='invoice:2041']")).to_have_count(1)  # htmx filled it
    reference.fill("invoice:2041")
    page.get_by_role("button", name="Add a reference").click()
    expect(page.get_by_label("Reference 3")).to_be_visible()
    page.get_by_label("Priority").select_option(label="High")
    page.get_by_label("Due date").fill("2026-12-24")
    page.get_by_role("button", name="Save episode").click()
    expect(page.get_by_role("heading", name="What the extractor made of it")).to_be_visible()
    expect(page.get_by_text("Episode stored.")).to_be_visible()
    episode_id = page.url.split("/")[-1].split("?")[0]
    stored = memory.get_episode(episode_id)
    assert stored.intent == "complain_product" and stored.references == ["invoice:2041"]
    assert stored.metadata == {"priority": "high", "due": "2026-12-24"}

    page.get_by_role("link", name="Episodes", exact=True).click()
    page.get_by_role("searchbox", name="Search").fill("delivery broken")
    page.get_by_role("button", name="Search").click()
    hit = page.get_by_role("link", name=f"[source: {episode_id}]")
    expect(hit).to_be_visible()
    expect(page.locator("mark", has_text="broken")).to_have_count(1)
    hit.click()
    expect(page.get_by_role("heading", name=re.compile(episode_id))).to_be_visible()


def test_a_duplicate_and_field_errors_in_the_browser(page: Page, seeded: Seeded) -> None:
    page.goto("/admin/episodes/new")
    page.get_by_label("Due date").fill("2026-12-24")
    page.get_by_role("button", name="Save episode").click()
    content = page.get_by_label("Content")
    expect(content).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#content-error")).to_have_text("Required.")
    content.fill("Lunch with the Globex team went well")
    page.get_by_label("Actor").fill("li")
    page.get_by_label("Source").fill("note")
    page.get_by_role("button", name="Save episode").click()
    expect(page.get_by_role("link", name=seeded.unclassified)).to_be_visible()
    expect(page.get_by_text("Already stored:")).to_be_visible()


def test_merge_two_entities_and_undo_it_from_the_audit_page(
    page: Page, memory: Memory, seeded: Seeded
) -> None:
    page.goto(f"/admin/entities/{seeded.carolyn}")
    page.get_by_label("Merge into (name or id)").fill("Caroline")
    page.get_by_role("button", name="Merge", exact=True).click()
    expect(page.get_by_text(re.compile(r"Merged into Caroline \(operation op_"))).to_be_visible()
    expect(page.get_by_role("heading", name="Caroline (person)")).to_be_visible()
    assert "Carolyn" in memory.get_entity(seeded.caroline).entity.aliases

    page.get_by_role("link", name="Audit", exact=True).click()
    page.get_by_label("Kind").select_option(label="merge")
    page.get_by_role("button", name="Filter").click()
    page.get_by_role("link", name="merge", exact=True).click()
    expect(page.get_by_text("Undoing this operation will change:")).to_be_visible()
    expect(page.get_by_role("cell", name="aliases")).to_be_visible()
    page.get_by_role("button", name="Undo this operation").click()
    expect(page.get_by_text(re.compile(r"Operation op_\w+ undone\."))).to_be_visible()
    assert memory.get_entity(seeded.carolyn).entity.name == "Carolyn"
    assert "Carolyn" not in memory.get_entity(seeded.caroline).entity.aliases


def test_resolve_a_merge_candidate_and_a_disputed_fact(page: Page, memory: Memory, seeded: Seeded) -> None:
    page.goto("/admin/review/candidates")
    expect(page.get_by_text("Shared neighbours:")).to_be_visible()
    page.get_by_role("button", name="Not the same").click()
    expect(page.get_by_text(re.compile(r"Recorded as not the same"))).to_be_visible()
    expect(page.get_by_text("No merge candidates to review.")).to_be_visible()

    page.get_by_role("link", name="Disputed facts").click()
    page.get_by_role("button", name="Keep 500000").click()
    expect(page.get_by_text(re.compile(r"Settled \(operation op_"))).to_be_visible()
    expect(page.get_by_text("No disputed facts.")).to_be_visible()
    history = memory.search_facts({"subject": seeded.project, "include_history": True}).results
    assert {h.fact.value: h.fact.status for h in history} == {500000: "current", 800000: "superseded"}
    assert [op.actor for op in memory.list_operations(kind=["distinct", "arbitrate"]).items] == [
        "console:local"
    ] * 2


def test_a_stale_edit_says_someone_else_changed_it(
    browser: Browser, base: str, memory: Memory, seeded: Seeded
) -> None:
    context = browser.new_context(base_url=base, locale="en-GB")
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):
        tab.goto(f"/admin/episodes/{seeded.complaint}")
    first.get_by_label("Priority").select_option(label="High")
    first.get_by_role("button", name="Save changes").click()
    expect(first.get_by_text("Saved as version 2.")).to_be_visible()

    second.get_by_label("Priority").select_option(label="Low")
    second.get_by_role("button", name="Save changes").click()
    expect(second.get_by_role("heading", name="Someone else changed this episode")).to_be_visible()
    expect(second.get_by_role("row", name=re.compile(r"Priority low high"))).to_be_visible()
    assert memory.get_episode(seeded.complaint).metadata["priority"] == "high"
    second.get_by_role("button", name="Apply my changes to version 2").click()
    expect(second.get_by_text("Saved as version 3.")).to_be_visible()
    assert memory.get_episode(seeded.complaint).metadata["priority"] == "low"
    context.close()


def test_the_console_in_chinese(browser: Browser, base: str, seeded: Seeded) -> None:
    context = browser.new_context(base_url=base, locale="zh-CN")
    page = context.new_page()
    page.goto("/admin/review/disputes")
    expect(page.get_by_role("heading", name="审核")).to_be_visible()
    expect(page.get_by_role("button", name="两者都保留")).to_be_visible()
    page.get_by_role("link", name="English").click()
    expect(page.get_by_role("button", name="Keep both")).to_be_visible()
    context.close()
