"""References as a user meets them, on SQLite and PostgreSQL: import a mailbox whose quote changes
version, then ask for the document by id, without a version, and by the names people wrote.

The index follows the memory's versions: an episode whose references are edited away, or that
is deleted, no longer cites; reading at an earlier ``known_at`` sees what was cited then.
"""

from __future__ import annotations

import json
import mailbox
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest

from engram.config import Settings
from engram.errors import InvalidInput, NotFound
from engram.memory import Memory
from engram.search.references import in_version_order
from engram.storage.types import CitedReference

QUOTE = "doc-quote-2024-q3"


def write_mailbox(path: Path) -> Path:
    """Write an mbox of three messages: the quote v1 attached, v2 attached in a reply, then a late
    message that names the old v1 file again."""
    box = mailbox.mbox(path)
    messages = [
        ("<q1@cobalt.example>", None, datetime(2024, 7, 1, 9, 0, tzinfo=UTC), "maria@cobalt.example",
         "Please find our quote attached.", "Quote 2024-Q3_v1.pdf"),
        ("<q2@cobalt.example>", "<q1@cobalt.example>", datetime(2024, 7, 8, 9, 0, tzinfo=UTC),
         "maria@cobalt.example", "Updated pricing: $19 per seat, see attached.", "Quote 2024-Q3_v2.pdf"),
        ("<q3@fabrikam.example>", "<q2@cobalt.example>", datetime(2024, 7, 9, 9, 0, tzinfo=UTC),
         "devin@fabrikam.example", "Legal still reviews Quote_2024-Q3_v1.pdf, the old terms.", None),
    ]  # fmt: skip
    for message_id, parent, sent, sender, body, attachment in messages:
        message = EmailMessage()
        message["Message-ID"] = message_id
        message["From"] = sender
        message["To"] = "sales@example.com"
        message["Subject"] = "Q3 quote"
        message["Date"] = format_datetime(sent)
        if parent:
            message["In-Reply-To"] = parent
            message["References"] = parent
        message.set_content(body)
        if attachment:
            message.add_attachment(
                b"%PDF-1.4 quote", maintype="application", subtype="pdf", filename=attachment
            )
        box.add(message)
    box.flush()
    box.close()
    return path


@pytest.fixture
def quoted(backend: dict[str, Any], tmp_path: Path) -> Iterator[Memory]:
    """Yield a Memory (each backend) holding the imported mailbox."""
    settings = Settings(**backend, embedder="none", extractor="none")
    with Memory.open(settings=settings) as memory:
        stats = memory.import_file(write_mailbox(tmp_path / "quote.mbox"), group_id="sales")
        assert stats.created == 3 and not stats.problems
        yield memory


def by_first_word(memory: Memory) -> dict[str, str]:
    """Return the group's episode ids by the first word of their content."""
    return {e.content.split()[0]: e.id for e in memory.list_episodes("sales").items}


def test_the_document_without_a_version_lists_every_version_and_labels_the_latest(quoted: Memory) -> None:
    ids = by_first_word(quoted)
    page = quoted.reference_episodes(QUOTE, "sales")
    assert (page.resolved, page.resolved_by, page.document) == (QUOTE, "id", QUOTE)
    assert [(v.reference, v.version, v.latest, v.episodes) for v in page.versions] == [
        (f"{QUOTE}-v1", "1", False, 2),
        (f"{QUOTE}-v2", "2", True, 1),
    ]
    assert page.latest == f"{QUOTE}-v2" and page.note is None
    assert page.versions[0].names == ["Quote 2024-Q3_v1.pdf", "Quote_2024-Q3_v1.pdf"]
    # newest first, each labelled with the version it cites
    assert [(i.episode.id, i.cites, i.latest) for i in page.items] == [
        (ids["Legal"], [f"{QUOTE}-v1"], False),
        (ids["Updated"], [f"{QUOTE}-v2"], True),
        (ids["Please"], [f"{QUOTE}-v1"], False),
    ]
    assert page.items[0].citation == f"[source: {ids['Legal']}]"


def test_an_old_version_asked_by_its_file_name_says_which_is_the_latest(quoted: Memory) -> None:
    ids = by_first_word(quoted)
    page = quoted.reference_episodes("quote 2024-q3_v1.pdf", "sales")  # any case
    assert (page.resolved, page.resolved_by) == (f"{QUOTE}-v1", "learned name")
    assert page.note == f"{QUOTE}-v1 is not the latest version of {QUOTE}: {QUOTE}-v2 is"
    assert [i.episode.id for i in page.items] == [ids["Legal"], ids["Please"]]
    assert not any(i.latest for i in page.items)
    latest = quoted.reference_episodes(f"{QUOTE}-v2", "sales")
    assert latest.note is None and [i.episode.id for i in latest.items] == [ids["Updated"]]


def test_an_email_is_found_by_its_id_with_its_replies(quoted: Memory) -> None:
    ids = by_first_word(quoted)
    page = quoted.reference_episodes("email-q1@cobalt.example", "sales")
    assert [(i.episode.id, i.cites, i.part_of) for i in page.items] == [
        (ids["Updated"], ["email-q1@cobalt.example"], None),
        (ids["Please"], [], "email-q1@cobalt.example"),
    ]


def test_pages_continue_with_the_cursor(quoted: Memory) -> None:
    first = quoted.reference_episodes(QUOTE, "sales", limit=2)
    assert len(first.items) == 2 and first.next_cursor is not None
    rest = quoted.reference_episodes(QUOTE, "sales", limit=2, cursor=first.next_cursor)
    assert len(rest.items) == 1 and rest.next_cursor is None
    everything = quoted.reference_episodes(QUOTE, "sales").items
    assert [i.episode.id for i in first.items + rest.items] == [i.episode.id for i in everything]


def test_an_edited_or_deleted_episode_no_longer_cites_but_did_before(quoted: Memory) -> None:
    ids = by_first_word(quoted)
    before = datetime.now(UTC)
    legal = quoted.get_episode(ids["Legal"], "sales")
    quoted.update_episode(ids["Legal"], {"references": []}, expected_version=legal.version, group_id="sales")
    quoted.delete_episode(ids["Please"], "sales")
    with pytest.raises(NotFound) as missing:
        quoted.reference_episodes(f"{QUOTE}-v1", "sales")
    assert missing.value.field == "ref"
    now = quoted.reference_episodes(QUOTE, "sales")
    assert [v.reference for v in now.versions] == [f"{QUOTE}-v2"]
    then = quoted.reference_episodes(f"{QUOTE}-v1", "sales", known_at=before)
    assert {i.episode.id for i in then.items} == {ids["Legal"], ids["Please"]}
    assert all(i.episode.expired_at is None for i in then.items), "as the memory held them then"


def test_groups_names_and_bad_input(quoted: Memory) -> None:
    with pytest.raises(NotFound):
        quoted.reference_episodes(QUOTE, "other-group")
    with pytest.raises(NotFound) as unknown:
        quoted.reference_episodes("doc-nothing-like-it", "sales")
    assert unknown.value.field == "ref"
    for bad in ("  ", "x" * 513):
        with pytest.raises(InvalidInput) as refused:
            quoted.reference_episodes(bad, "sales")
        assert refused.value.field == "ref"
    with pytest.raises(InvalidInput) as limit:
        quoted.reference_episodes(QUOTE, "sales", limit=0)
    assert limit.value.field == "limit"


def test_a_configured_name_names_a_document(backend: dict[str, Any], tmp_path: Path) -> None:
    names = tmp_path / "names.json"
    names.write_text(json.dumps({"names": {"《报价单》": QUOTE}}), encoding="utf-8")
    settings = Settings(**backend, embedder="none", extractor="none", reference_names_file=names)
    with Memory.open(settings=settings) as memory:
        memory.import_file(write_mailbox(tmp_path / "quote.mbox"), group_id="sales")
        page = memory.reference_episodes("报价单", "sales")
        assert (page.resolved, page.resolved_by, page.latest) == (QUOTE, "configured name", f"{QUOTE}-v2")
    names.write_text('{"names": {"a": "has space"}}', encoding="utf-8")
    broken = settings.model_copy(update={"reference_names_file": names})
    with Memory.open(settings=broken) as memory, pytest.raises(InvalidInput) as refused:
        memory.reference_episodes(QUOTE, "sales")
    assert refused.value.field == "ENGRAM_REFERENCE_NAMES_FILE"


def test_a_name_of_two_documents_is_refused_naming_both(backend: dict[str, Any]) -> None:
    with Memory.open(settings=Settings(**backend, embedder="none", extractor="none")) as memory:
        for ref in ("doc-plan-a", "doc-plan-b"):
            memory.create_episode(
                {"content": f"see {ref}", "references": [ref], "metadata": {"reference_names": {"Plan": ref}}}
            )
        with pytest.raises(InvalidInput) as ambiguous:
            memory.reference_episodes("plan")
        assert ambiguous.value.field == "ref"
        assert "doc-plan-a" in ambiguous.value.detail and "doc-plan-b" in ambiguous.value.detail


def test_purging_an_episode_erases_the_names_it_taught(quoted: Memory) -> None:
    ids = by_first_word(quoted)
    quoted.purge_episode(ids["Please"], "sales")
    page = quoted.reference_episodes(f"{QUOTE}-v1", "sales")
    assert [i.episode.id for i in page.items] == [ids["Legal"]]
    assert [v.reference for v in page.versions] == [f"{QUOTE}-v1", f"{QUOTE}-v2"], (
        "by number, not first cited"
    )
    assert page.versions[0].names == ["Quote_2024-Q3_v1.pdf"], "only the names the others wrote"
    quoted.purge_episode(ids["Legal"], "sales")
    with pytest.raises(NotFound):
        quoted.reference_episodes("Quote 2024-Q3_v1.pdf", "sales")


def test_versions_order_by_number_else_by_first_citation() -> None:
    def cited(ref: str, day: int) -> CitedReference:
        at = datetime(2024, 7, day, tzinfo=UTC)
        return CitedReference(ref, 1, at, at)

    numbered = [cited("doc-x-vfinal", 1), cited("doc-x-v10", 2), cited("doc-x", 9), cited("doc-x-v9", 3)]
    assert [c.reference for c in in_version_order(numbered)] == [
        "doc-x",
        "doc-x-v9",
        "doc-x-v10",
        "doc-x-vfinal",
    ]
    hashed = [cited("page-p-vc7b774cb", 5), cited("page-p-v3", 4), cited("page-p-v0be62e57", 2)]
    assert [c.reference for c in in_version_order(hashed)] == [
        "page-p-v0be62e57",
        "page-p-v3",
        "page-p-vc7b774cb",
    ]


@pytest.mark.parametrize(
    ("written", "asked"),
    [
        ("Émile's brief", "émile's BRIEF"),
        ("ＡＢＣ Plan", "abc plan"),
        ("ΣΧΈΔΙΟ", "σχέδιο"),
        ("Straße", "STRAẞE"),
    ],
)
def test_names_match_in_any_case_of_any_script_on_both_backends(
    backend: dict[str, Any], written: str, asked: str
) -> None:
    with Memory.open(settings=Settings(**backend, embedder="none", extractor="none")) as memory:
        memory.create_episode(
            {
                "content": "see the brief",
                "references": ["doc-brief"],
                "metadata": {"reference_names": {written: "doc-brief"}},
            }
        )
        page = memory.reference_episodes(asked)
        assert (page.resolved, page.resolved_by) == ("doc-brief", "learned name")
        assert [item.episode.content for item in page.items] == ["see the brief"]
        assert page.versions[0].names == [written]
        with pytest.raises(NotFound):
            memory.reference_episodes(asked + " 2")
