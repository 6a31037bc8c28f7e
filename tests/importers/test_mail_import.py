"""Mail importers on the sample files: mbox, .eml and Maildir, imported into a real store."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from engram.memory import Memory
from engram.models.episodes import Episode

DATA = Path(__file__).resolve().parents[1] / "data" / "importers" / "mail"


def episodes(memory: Memory, group: str | None = None) -> list[Episode]:
    """Return the group's episodes, oldest first."""
    return sorted(memory.list_episodes(group, limit=500).items, key=lambda e: e.timestamp)


def by_message_id(items: list[Episode]) -> dict[str, Episode]:
    return {e.metadata["message_id"]: e for e in items}


def test_mbox_messages_threads_and_references(memory: Memory) -> None:
    stats = memory.import_file(DATA / "sample.mbox")
    assert (stats.created, stats.problems) == (8, [])
    items = episodes(memory)
    assert [e.actor.id for e in items if e.actor] == [
        "maria.lopez@cobalt.example",
        "devin.park@fabrikam.example",
        "zhang.lei@xinghe.example",
        "maria.lopez@cobalt.example",
        "li.na@yuanhang.example",
        "devin.park@fabrikam.example",
        "zhang.lei@xinghe.example",
        "wang.jianguo@yuanhang.example",
    ]
    assert items[0].timestamp == datetime(2024, 6, 3, 16, 12, 44, tzinfo=UTC)
    assert items[-1].timestamp == datetime(2024, 6, 10, 0, 31, 5, tzinfo=UTC)
    assert all(e.source == "email" for e in items)
    # 3 threads: EN 1-2-4-6, ZH 3-5-7, 8 alone
    threads = [e.metadata["thread_id"] for e in items]
    assert len(set(threads)) == 3
    assert threads[0] == threads[1] == threads[3] == threads[5]
    assert threads[2] == threads[4] == threads[6]
    # 5 reply references, child -> parent
    ids = by_message_id(items)
    replies = {
        (e.metadata["message_id"], ref.removeprefix("email-"))
        for e in items
        for ref in e.references
        if ref.startswith("email-")
    }
    n = [e.metadata["message_id"] for e in items]
    assert replies == {(n[1], n[0]), (n[3], n[1]), (n[5], n[3]), (n[4], n[2]), (n[6], n[4])}
    assert ids[n[1]].metadata["in_reply_to"] == n[0]
    # attachments are references and metadata, not content
    assert "doc-cobalt-quote-q-5527" in items[0].references
    assert items[0].metadata["attachments"] == [
        {"filename": "Cobalt_Quote_Q-5527.pdf", "content_type": "application/pdf", "size": 760}
    ]
    assert items[2].metadata["subject"] == "关于《合同草案》及报价单_v2"
    assert {"doc-报价单-v2", "doc-合同草案"} <= set(items[2].references)
    assert items[2].metadata["attachments"][0]["filename"] == "报价单_v2.pdf"
    assert "doc-msa-v4" in items[3].references  # a link to a file is a document reference
    assert items[0].metadata["reference_id"] == f"email-{n[0]}"


@pytest.mark.parametrize(
    ("index", "kept", "dropped"),
    [
        (0, "see attached quote Q-5527", "Account Executive"),
        (1, "could you get us to $18", "Thanks for the call this morning"),
        (2, "《合同草案》我方法务已修改完毕", "销售经理"),
        (3, "$19 per seat", "could you get us to $18"),
        (4, "验收合格后30天内付款", "根据上周的沟通"),
        (5, "$19 for 150 seats over 24 months works for us", "Good news"),
        (6, "6月14日（周五）上午10点签约", "报价收到了"),
        (7, "2台外壳开裂", "Return-Path"),
    ],
)
def test_quotes_and_signatures_are_stripped(memory: Memory, index: int, kept: str, dropped: str) -> None:
    memory.import_file(DATA / "sample.mbox", "mbox")
    content = episodes(memory)[index].content
    assert kept in content
    assert dropped not in content
    assert not any(line.startswith(">") for line in content.splitlines())


def test_eml_folder(memory: Memory) -> None:
    stats = memory.import_file(DATA / "eml")
    assert stats.created == 3
    found = {e.actor.id: e for e in episodes(memory) if e.actor}
    order = found["orders@nordhaven.example"]
    assert order.timestamp == datetime(2024, 6, 17, 7, 40, tzinfo=UTC)
    minutes = found["zhao.min@xinghe.example"]
    assert minutes.timestamp == datetime(2024, 6, 12, 9, 30, 41, tzinfo=UTC)
    assert minutes.metadata["subject"] == "【会议纪要】华信医药项目周会 6月12日"
    assert len(minutes.metadata["to"]) == 2 and len(minutes.metadata["cc"]) == 1
    assert "<" not in minutes.content  # the text/plain part, not the HTML one
    forward = found["karen.wu@brightline.example"]
    assert forward.timestamp == datetime(2024, 6, 18, 17, 2, 19, tzinfo=UTC)
    assert "cracked" in forward.content  # the forwarded text is kept: it is the substance


def test_one_eml_file(memory: Memory) -> None:
    stats = memory.import_file(DATA / "eml" / "order-confirmation.eml")
    assert stats.created == 1
    assert episodes(memory)[0].actor.name == "Nordhaven Order Desk"  # type: ignore[union-attr]


def test_maildir(memory: Memory) -> None:
    stats = memory.import_file(DATA / "maildir")
    assert (stats.created, stats.problems) == (3, [])
    items = episodes(memory)
    assert [e.timestamp for e in items] == [
        datetime(2024, 6, 13, 2, 15, 2, tzinfo=UTC),
        datetime(2024, 6, 13, 6, 48, 30, tzinfo=UTC),
        datetime(2024, 6, 14, 14, 22, 9, tzinfo=UTC),
    ]
    assert items[0].metadata["thread_id"] == items[1].metadata["thread_id"] != items[2].metadata["thread_id"]
    assert items[1].references[0] == "email-" + items[0].metadata["message_id"]
    assert "doc-考试系统操作手册" in items[1].references
    assert "写道" not in items[1].content
    assert [e.metadata["seen"] for e in items] == [True, True, False]


def test_thread_context_joins_replies(memory: Memory) -> None:
    memory.import_file(DATA / "sample.mbox")
    hits = memory.search_episodes({"query": "MSA v4 legal", "context": True, "limit": 3}).results
    assert hits and hits[0].context is not None
    thread = {e.metadata["thread_id"] for e in [hits[0].episode] if e}
    neighbours = [n for n in (hits[0].context.previous, hits[0].context.next) if n is not None]
    assert neighbours and all(n.metadata["thread_id"] in thread for n in neighbours)


def test_bad_message_is_skipped_and_named(memory: Memory, tmp_path: Path) -> None:
    mbox = tmp_path / "broken.mbox"
    good = (DATA / "eml" / "order-confirmation.eml").read_bytes()
    undated = b"Message-ID: <no-date@x.example>\nFrom: a@x.example\nSubject: hi\n\nno date here\n"
    mbox.write_bytes(
        b"From a@x.example Mon Jun  3 16:12:44 2024\n"
        + undated
        + b"\n"
        + b"From b@x.example Mon Jun  3 16:12:44 2024\n"
        + good
    )
    stats = memory.import_file(mbox, "mbox")
    assert stats.created == 1
    assert len(stats.problems) == 1
    problem = stats.problems[0]
    assert problem.where == "broken.mbox message 1 <no-date@x.example>"
    assert problem.field == "Date"
