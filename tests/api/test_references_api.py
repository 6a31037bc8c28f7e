"""From a search hit to the documents behind it, over REST (the ASGI stack) and MCP (the official
Python SDK client): import the sample mailbox and Confluence export, search, follow the hit's
references to ``GET /v1/references/{ref}/episodes`` and ``get_reference``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client

from conftest import LOOPBACK
from engram.api.app import create_app
from engram.api.mcp.server import create_mcp_server
from engram.config import Settings
from engram.memory import Memory

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "importers"
DRAFT = "doc-合同草案"
ONBOARDING = "page-confluence-project-alpha-65540-v7"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """Yield a Memory holding the sample mailbox and Confluence space in group ``alpha``."""
    data = tmp_path_factory.mktemp("refs") / "data"
    with Memory.open(settings=Settings(data_dir=data, embedder="none", extractor="none")) as memory:
        for sample in ("mail/sample.mbox", "wiki/confluence"):
            stats = memory.import_file(SAMPLES / sample, group_id="alpha")
            assert stats.created > 0 and not stats.problems
        yield memory


@pytest.fixture(scope="module")
def http(imported: Memory) -> Iterator[TestClient]:
    with TestClient(create_app(imported), base_url=LOOPBACK) as client:
        yield client


def citing(http: TestClient, ref: str, **params: Any) -> Any:
    response = http.get(
        f"/v1/references/{quote(ref, safe='')}/episodes", params={"group_id": "alpha", **params}
    )
    return response


def test_a_search_hit_leads_to_the_email_and_the_wiki_page_citing_the_same_contract(http: TestClient) -> None:
    hits = http.post("/v1/episodes/search", json={"query": "合同草案 法务", "group_id": "alpha"}).json()
    hit = next(h for h in hits["results"] if DRAFT in h["episode"]["references"])
    body = citing(http, DRAFT).json()
    assert body["resolved"] == DRAFT and body["latest"] == DRAFT
    sources = {item["episode"]["source"] for item in body["items"]}
    assert sources == {"email", "confluence"}, "the mailbox and the wiki cite one id"
    assert hit["citation"] in {item["citation"] for item in body["items"]}
    assert all(item["cites"] == [DRAFT] for item in body["items"])


def test_a_page_asked_by_its_title_or_without_version_lists_its_sections_and_citers(http: TestClient) -> None:
    by_title = citing(http, "Customer Onboarding").json()
    assert (by_title["resolved"], by_title["resolved_by"]) == (ONBOARDING, "learned name")
    document = citing(http, "page-confluence-project-alpha-65540").json()
    assert document["resolved_by"] == "id" and document["latest"] == ONBOARDING
    assert [v["reference"] for v in document["versions"]] == [ONBOARDING]
    assert document["versions"][0]["names"] == ["Customer Onboarding"]
    parts = [item for item in document["items"] if item["part_of"] == ONBOARDING]
    citers = [item for item in document["items"] if item["cites"] == [ONBOARDING]]
    assert len(parts) == 4 and {i["episode"]["metadata"]["title"] for i in parts} == {"Customer Onboarding"}
    assert {i["episode"]["metadata"]["title"] for i in citers} == {"Project Alpha Home", "交付流程"}


def test_attachment_names_in_any_script_and_the_email_itself(http: TestClient) -> None:
    quote_v2 = citing(http, "报价单_v2.pdf").json()
    assert (quote_v2["resolved"], quote_v2["resolved_by"]) == ("doc-报价单-v2", "learned name")
    assert quote_v2["items"][0]["episode"]["metadata"]["attachments"][0]["filename"] == "报价单_v2.pdf"
    email = citing(http, "email-CAF7q1Lx9mQ5527.20240603161244@mail.cobalt.example").json()
    roles = [(i["part_of"] is not None, bool(i["cites"])) for i in email["items"]]
    assert roles == [(False, True), (True, False)], "the reply cites it; the first message is it"


def test_pages_follow_the_cursor_within_the_byte_budget(http: TestClient) -> None:
    first = citing(http, DRAFT, limit=1).json()
    assert len(first["items"]) == 1 and first["next_cursor"]
    rest = citing(http, DRAFT, limit=1, cursor=first["next_cursor"]).json()
    assert rest["items"] and rest["items"][0]["citation"] != first["items"][0]["citation"]


def test_problems_name_the_field(http: TestClient) -> None:
    missing = citing(http, "doc-no-such-thing")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("application/problem+json")
    assert missing.json()["field"] == "ref" and "doc-no-such-thing" in missing.json()["detail"]
    too_long = citing(http, "d" * 600)
    assert too_long.status_code == 422 and too_long.json()["field"] == "ref"
    assert citing(http, DRAFT, limit=0).json()["field"] == "limit"
    assert citing(http, DRAFT, cursor="@@").json()["field"] == "cursor"
    other = http.get(f"/v1/references/{quote(DRAFT)}/episodes", params={"group_id": "nobody"})
    assert other.status_code == 404, "another group's documents are absent"


def test_the_mcp_tool_gives_the_same_answer_with_citations(imported: Memory) -> None:
    async def scenario() -> None:
        async with Client(create_mcp_server(imported)) as client:
            result = await client.call_tool("get_reference", {"ref": "《合同草案》", "group_id": "alpha"})
            assert not result.is_error
            data = result.structured_content
            assert data is not None and data["resolved"] == DRAFT
            text = result.content[0].text  # type: ignore[union-attr]
            for item in data["items"]:
                assert item["citation"] in text
            assert f"latest {DRAFT}" in text
            refused = await client.call_tool(
                "get_reference", {"ref": "doc-no-such-thing", "group_id": "alpha"}
            )
            assert refused.is_error and refused.meta is not None
            assert refused.meta["engram/error"]["field"] == "ref"

    anyio.run(scenario)
