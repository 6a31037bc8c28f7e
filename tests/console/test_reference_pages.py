"""The reference page in a real headless Chromium: from a reference to the episodes citing it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import serving
from console.browser import CHROMIUM, LAUNCH_ARGS, MISSING
from engram import Memory

if not CHROMIUM.exists():
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, expect, sync_playwright

MAIL = "email-<q3-quote@acme.example>"
RECORD = "crm-opportunity-0042"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def cited(memory: Memory) -> dict[str, str]:
    """Store an email, a reply citing it and a CRM note citing the reply's opportunity; return their ids."""
    ids = {}
    for key, payload in {
        "email": {
            "content": "Our quote for 200 licenses is $18,000 per year.",
            "timestamp": "2026-11-02T09:00:00Z",
            "metadata": {"reference_id": MAIL, "reference_names": {"Q3 quote": MAIL}},
        },
        "reply": {
            "content": "Thanks, we accept the quote; Émile will send the PO.",
            "timestamp": "2026-11-03T10:00:00Z",
            "references": [MAIL, RECORD],
        },
        "note": {
            "content": "CRM: opportunity moved to negotiation.",
            "timestamp": "2026-11-04T11:00:00Z",
            "references": [RECORD],
            "metadata": {"reference_names": {"Émile's renewal": RECORD}},
        },
        "other": {"content": "Unrelated chat about lunch.", "timestamp": "2026-11-05T12:00:00Z"},
    }.items():
        ids[key] = memory.create_episode(payload).episode.id
    return ids


@pytest.fixture
def page(browser: Browser, memory: Memory, cited: dict[str, str]) -> Iterator[Page]:
    with serving(memory) as url:
        context = browser.new_context(base_url=url, locale="en-GB")
        context.set_default_timeout(15_000)
        yield context.new_page()
        context.close()


def episodes_listed(page: Page) -> list[str]:
    links = page.locator("#reference-episodes tbody tr td:first-child a")
    return [
        str(href).rsplit("/", 1)[-1]
        for href in (links.nth(i).get_attribute("href") for i in range(links.count()))
    ]


def test_an_episodes_reference_links_to_every_episode_citing_it(page: Page, cited: dict[str, str]) -> None:
    page.goto(f"/admin/episodes/{cited['reply']}")
    page.get_by_role("link", name="(episodes citing it)").nth(1).click()  # the second reference: the record
    expect(page.get_by_role("heading", name=RECORD)).to_be_visible()
    assert page.get_by_role("searchbox", name="Reference id or name").input_value() == RECORD
    assert episodes_listed(page) == [cited["note"], cited["reply"]], "newest first, the unrelated one absent"
    page.locator("#reference-episodes").get_by_role("link").first.click()
    expect(page.get_by_text("CRM: opportunity moved to negotiation.")).to_be_visible()

    page.goto(f"/admin/episodes/{cited['email']}")  # the email itself: what it is part of, and its replies
    expect(page.get_by_text("This episode is part of")).to_be_visible()
    page.get_by_role("link", name="(episodes citing it)").click()
    expect(page.get_by_role("heading", name=MAIL)).to_be_visible()
    assert episodes_listed(page) == [cited["reply"], cited["email"]]
    expect(page.locator("#reference-episodes")).to_contain_text(f"part of {MAIL}")


def test_a_reference_typed_by_name_in_any_case_or_unknown(page: Page, cited: dict[str, str]) -> None:
    page.goto("/admin/episodes")
    page.get_by_role("link", name="References", exact=True).click()
    search = page.get_by_role("searchbox", name="Reference id or name")
    search.fill("ÉMILE'S RENEWAL")
    page.get_by_role("button", name="Show the episodes citing it").click()
    expect(page.get_by_role("heading", name=RECORD)).to_be_visible()
    expect(page.get_by_text("Found by a name written in the episodes")).to_be_visible()
    assert episodes_listed(page) == [cited["note"], cited["reply"]]

    page.get_by_role("searchbox", name="Reference id or name").fill("doc-never-cited")
    page.get_by_role("button", name="Show the episodes citing it").click()
    expect(page.get_by_text("No episode cites doc-never-cited.")).to_be_visible()
    assert episodes_listed(page) == []
