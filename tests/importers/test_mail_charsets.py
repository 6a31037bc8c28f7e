"""Mail whose bytes are not what its headers say, and mail cut short: decoded right, or named."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram.cli import app
from engram.config import Settings
from engram.memory import Memory

DATA = Path(__file__).resolve().parents[1] / "data" / "importers" / "mail"
runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None})
ENVELOPE = b"From ann@b.example Mon Jun  3 16:12:44 2024\n"


def message(body: bytes, *, subject: bytes = b"hello", content_type: bytes = b"", number: int = 1) -> bytes:
    """Return one mbox entry: headers (8-bit bytes allowed), an optional Content-Type, the body."""
    return (
        ENVELOPE
        + b"From: Ann <ann@b.example>\nTo: bo@c.example\nSubject: "
        + subject
        + b"\nDate: Mon, 3 Jun 2024 16:12:44 +0000\n"
        + f"Message-ID: <m{number}@b.example>\n".encode()
        + (b"Content-Type: " + content_type + b"\n" if content_type else b"")
        + b"\n"
        + body
        + b"\n\n"
    )


def invoke(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, ["import", *(str(a) for a in args)])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


DECODED = [
    # no charset, Latin-1 / Windows-1252 bytes, and the same bytes in a raw 8-bit Subject
    (b"Un caf\xe9 cr\xe8me, \x93s'il vous pla\xeet\x94", b"", "Un café crème, “s'il vous plaît”"),
    # no charset, UTF-8 bytes: UTF-8 first, not read as Windows-1252 ("cafÃ©")
    ("Un café, 谢谢".encode(), b"", "Un café, 谢谢"),
    # declared ISO-8859-1 with Windows-1252 quotes: read as its superset, as browsers do
    (b"\x93caf\xe9\x94", b"text/plain; charset=iso-8859-1", "“café”"),
    # declared GB2312 holding a GBK character (镕): read as GB18030
    ("朱镕基的报价".encode("gbk"), b"text/plain; charset=gb2312", "朱镕基的报价"),
]


@pytest.mark.parametrize(("body", "content_type", "expected"), DECODED, ids=["latin1", "utf8", "iso", "gbk"])
def test_text_in_a_missing_or_wrong_charset_is_decoded(
    memory: Memory, tmp_path: Path, body: bytes, content_type: bytes, expected: str
) -> None:
    mbox = tmp_path / "inbox.mbox"
    mbox.write_bytes(message(body, subject=b"caf\xe9 cr\xe8me", content_type=content_type))
    stats = memory.import_file(mbox)
    assert (stats.created, stats.problems) == (1, [])
    episode = memory.list_episodes(None).items[0]
    assert episode.content == expected
    assert "\ufffd" not in episode.content
    assert episode.metadata["subject"] == "café crème"


UNREADABLE = [
    (b"caf\x81\x8d", b"", "the text/plain body is not UTF-8 or Windows-1252 text"),
    (b"\x81\x20\xff\xfe", b"text/plain; charset=gb2312", "the text/plain body is not gb2312, UTF-8 text"),
]


@pytest.mark.parametrize(("body", "content_type", "detail"), UNREADABLE, ids=["undeclared", "gb2312"])
def test_text_no_charset_reads_is_skipped_and_named(
    tmp_path: Path, body: bytes, content_type: bytes, detail: str
) -> None:
    mbox = tmp_path / "inbox.mbox"
    mbox.write_bytes(message(body, content_type=content_type) + message(b"readable", number=2))
    data = tmp_path / "data"
    code, out, err = invoke(mbox, "--data-dir", data, "--no-classify")
    assert code == 2, err
    assert "imported 1 episode" in out and "1 record skipped" in out
    assert f"skipped inbox.mbox message 1 <m1@b.example>: {detail}" in err
    with Memory.open(settings=Settings(data_dir=data, embedder="none")) as memory:
        assert [e.content for e in memory.list_episodes(None).items] == ["readable"]


def test_a_subject_no_charset_reads_is_named_and_junk_in_other_headers_is_not(
    memory: Memory, tmp_path: Path
) -> None:
    mbox = tmp_path / "inbox.mbox"
    junk = message(b"fine", number=2).replace(b"To: ", b"X-Junk: \x81\x8d\nTo: ")
    mbox.write_bytes(message(b"fine", subject=b"caf\x81\x8d") + junk)
    stats = memory.import_file(mbox)
    assert stats.created == 1
    assert [(p.where, p.detail, p.field) for p in stats.problems] == [
        (
            "inbox.mbox message 1 <m1@b.example>",
            "the Subject header is not UTF-8 or Windows-1252 text",
            "Subject",
        )
    ]


def test_a_truncated_mbox_names_the_cut_message_and_keeps_the_whole_ones(tmp_path: Path) -> None:
    raw = (DATA / "sample.mbox").read_bytes()
    third = raw.index(b"From zhang.lei@xinghe.example")
    cut = raw.index(b"Content-Transfer-Encoding: base64", third) + 60  # inside a base64 part
    mbox = tmp_path / "cut.mbox"
    mbox.write_bytes(raw[:cut])
    data = tmp_path / "data"
    for dry_run in (("--dry-run",), ()):
        code, out, err = invoke(mbox, *dry_run, "--data-dir", data, "--no-classify")
        assert code == 2, (out, err)
        assert "cut.mbox message 3 <" in err
        assert "incomplete message (a multipart part has no end boundary" in err
        assert "is the file cut short?" in err
    assert "imported 2 episodes" in out and "1 record skipped" in out
    with Memory.open(settings=Settings(data_dir=data, embedder="none")) as memory:
        assert memory.store.counts()["episodes"] == 2


def test_an_attachment_cut_mid_base64_is_named(tmp_path: Path) -> None:
    mbox = tmp_path / "sample.mbox"
    mbox.write_bytes((DATA / "sample.mbox").read_bytes()[:1500])  # `head -c 1500 sample.mbox`
    code, out, err = invoke(mbox, "--data-dir", tmp_path / "data", "--no-classify")
    assert code == 2, (out, err)
    assert "skipped sample.mbox message 1 <CAF7q1Lx9mQ5527.20240603161244@mail.cobalt.example>" in err
    assert "base64 content is cut mid-way" in err
