"""Every console page renders through the ASGI stack, in English and Chinese, offline, on both backends."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from console.conftest import submit, text
from console.seed import Seeded, seed
from engram import Memory, Settings
from engram.api.app import create_app
from engram.api.console.i18n import catalogue, negotiate


def pages(s: Seeded, memory: Memory) -> list[str]:
    operation = memory.list_operations(limit=1).items[0].id
    return [
        "/admin/episodes/new",
        "/admin/episodes",
        "/admin/episodes?q=Acme&intent=request_info",
        f"/admin/episodes/{s.complaint}",
        f"/admin/episodes/{s.complaint}/delete",
        "/admin/entities?q=Acme",
        f"/admin/entities/{s.project}",
        "/admin/review/candidates",
        "/admin/review/disputes",
        "/admin/review/unclassified",
        "/admin/audit",
        f"/admin/audit/{operation}",
        "/admin/health",
        "/admin/sign-in",
    ]


@pytest.fixture
def any_backend(backend: dict[str, Any]) -> Iterator[tuple[TestClient, Memory, Seeded]]:
    with Memory.open(settings=Settings(**backend, embedder="none")) as memory:
        seeded = seed(memory)
        with TestClient(create_app(memory), base_url="http://127.0.0.1") as client:
            yield client, memory, seeded


def test_every_page_renders_in_both_languages_on_each_backend(
    any_backend: tuple[TestClient, Memory, Seeded],
) -> None:
    client, memory, seeded = any_backend
    for path in pages(seeded, memory):
        english = client.get(path, headers={"accept-language": "en-GB,en;q=0.9"})
        chinese = client.get(path, headers={"accept-language": "zh-CN,zh;q=0.9,en;q=0.8"})
        assert english.status_code == chinese.status_code == 200, path
        assert '<html lang="en">' in english.text and '<html lang="zh-CN">' in chinese.text, path
        assert "Sign out" in english.text and "退出" in chinese.text, path
        assert "退出" not in english.text, path


def test_pages_show_what_is_stored(admin: TestClient, seeded: Seeded) -> None:
    disputes = text(admin.get("/admin/review/disputes"))
    assert "杭州项目" in disputes and "Keep 500000" in disputes and "Keep 800000" in disputes
    candidates = text(admin.get("/admin/review/candidates"))
    assert "Caroline" in candidates and "Carolyn" in candidates and "Shared neighbours: Acme" in candidates
    unclassified = text(admin.get("/admin/review/unclassified"))
    assert "Lunch with the Globex team" in unclassified and "Acme" not in unclassified
    project = text(admin.get(f"/admin/entities/{seeded.project}"))
    assert "No current facts." not in project and "听说杭州项目预算可能是八十万" in project, (
        "the stated budget stays current, the weaker claim is disputed in the timeline"
    )


def test_the_language_switch_is_remembered_and_beats_the_browser(admin: TestClient) -> None:
    switched = admin.get("/admin/language?set=zh&next=/admin/health", follow_redirects=False)
    assert switched.status_code == 303 and switched.headers["location"] == "/admin/health"
    page = admin.get("/admin/health", headers={"accept-language": "en"})
    assert "运行状况" in page.text and '<html lang="zh-CN">' in page.text
    away = admin.get("/admin/language?set=en&next=https://evil.example/", follow_redirects=False)
    assert away.headers["location"] == "/admin/episodes", "never a redirect off the console"
    assert admin.get("/admin/language?set=fr").status_code == 404


def test_accept_language_negotiation() -> None:
    assert negotiate("zh-TW,zh;q=0.9") == "zh"
    assert negotiate("fr-FR,fr;q=0.9,zh;q=0.5,en;q=0.7") == "en"
    assert negotiate("de, zh;q=0") == "en", "q=0 means not acceptable"
    assert negotiate(None) == "en" and negotiate("*") == "en"


def test_both_catalogues_have_the_same_messages_and_placeholders() -> None:
    english, chinese = catalogue("en").messages, catalogue("zh").messages
    assert english.keys() == chinese.keys()
    for key, message in english.items():
        assert set(re.findall(r"{(\w+)}", message)) == set(re.findall(r"{(\w+)}", chinese[key])), key


def test_every_arbitration_outcome_has_a_label_in_both_catalogues() -> None:
    from engram.graph.arbitrate import Outcome

    for language in ("en", "zh"):
        messages = catalogue(language).messages
        missing = [o.value for o in Outcome if f"decision.{o.value}" not in messages]
        assert not missing, (language, missing)  # the episode page shows what the extractor made of it


def test_every_message_a_template_names_exists(admin: TestClient) -> None:
    from importlib.resources import files

    templates = files("engram.api.console").joinpath("templates")
    used = {
        key
        for entry in templates.iterdir()
        for key in re.findall(r"\bt\('([a-z_.0-9]+)'", entry.read_text(encoding="utf-8"))
        if not key.endswith(".")
    }
    assert used and used <= catalogue("en").messages.keys(), sorted(used - catalogue("en").messages.keys())


def test_assets_are_served_by_the_console_and_nothing_comes_from_elsewhere(admin: TestClient) -> None:
    page = admin.get("/admin/episodes/new").text
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert "/admin/static/htmx.min.js" in sources and "/admin/static/console.css" in sources
    assert not [s for s in sources if s.startswith(("http:", "https:", "//"))]
    script = admin.get("/admin/static/htmx.min.js")
    assert script.status_code == 200 and "htmx" in script.text[:200]
    assert "Zero-Clause BSD" in admin.get("/admin/static/htmx.LICENSE").text
    assert admin.get("/admin/static/console.css").headers["content-type"].startswith("text/css")
    headers = admin.get("/admin/health").headers
    assert (
        "script-src" not in headers["content-security-policy"]
        and "default-src 'self'" in headers["content-security-policy"]
    )
    assert headers["x-frame-options"] == "DENY" and headers["cache-control"] == "no-store"
    assert "no-store" not in script.headers.get("cache-control", ""), "static assets may be cached"


def test_errors_are_pages_not_json(admin: TestClient) -> None:
    missing = admin.get("/admin/episodes/ep_nope")
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
    assert "Not found." in text(missing) and "no episode with id 'ep_nope'" in text(missing)
    bad = admin.get("/admin/episodes?limit=1000")
    assert bad.status_code == 422 and bad.headers["content-type"].startswith("text/html")
    api = admin.get("/v1/episodes/ep_nope")
    assert api.headers["content-type"] == "application/problem+json", "the API keeps its problem+json"


def test_the_writing_pages_work_on_each_backend(any_backend: tuple[TestClient, Memory, Seeded]) -> None:
    client, memory, seeded = any_backend
    created = submit(
        client,
        "/admin/episodes/new",
        "/admin/episodes/new",
        {"content": "备忘：周五前回复报价", "intent": "follow_up"},
    )
    assert created.status_code == 303
    episode_id = created.headers["location"].split("/")[-1].split("?")[0]
    page = f"/admin/episodes/{episode_id}"
    form = {
        "version": "1",
        "intent": "follow_up",
        "status": "active",
        "priority": "high",
        "due": "",
        "metadata": "",
    }
    assert submit(client, page, f"{page}/edit", form).status_code == 303
    assert submit(client, page, f"{page}/edit", {**form, "priority": "low"}).status_code == 409, "stale"
    [dispute] = memory.disputes()
    kept = dispute.facts[0].fact.id
    resolve = {"subject": seeded.project, "predicate": "BUDGET", "keep": kept}
    assert (
        submit(client, "/admin/review/disputes", "/admin/review/disputes/resolve", resolve).status_code == 303
    )
    [arbitration] = memory.list_operations(kind=["arbitrate"]).items
    assert "restored to its earlier version" in text(client.get(f"/admin/audit/{arbitration.id}"))
    undone = submit(client, f"/admin/audit/{arbitration.id}", f"/admin/audit/{arbitration.id}/undo", {})
    assert undone.status_code == 303 and len(memory.disputes()) == 1
    assert memory.get_episode(episode_id).metadata == {"priority": "high"}
