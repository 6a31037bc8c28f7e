"""``engram import`` on every new format: detection, idempotence, --dry-run, bad input named by place."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram.cli import app
from engram.config import Settings
from engram.memory import Memory
from engram.portable.formats import ImportFormat, detect_format

DATA = Path(__file__).resolve().parents[1] / "data" / "importers"
runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None})

SAMPLES = [
    ("mail/sample.mbox", ImportFormat.mbox, (), 8),
    ("mail/eml", ImportFormat.eml, (), 3),
    ("mail/maildir", ImportFormat.maildir, (), 3),
    ("wiki/markdown", ImportFormat.markdown, (), 24),
    ("wiki/confluence", ImportFormat.confluence, (), 11),
    ("wiki/notion", ImportFormat.notion, (), 12),
    ("crm/salesforce_activities.csv", ImportFormat.csv, ("--mapping", DATA / "crm" / "mapping.json"), 15),
    ("crm/plain.csv", ImportFormat.csv, (), 8),
    ("crm/records.json", ImportFormat.json, ("--mapping", DATA / "crm" / "mapping.toml"), 6),
    ("chat/slack", ImportFormat.slack, (), 13),
    ("chat/chatgpt/conversations.json", ImportFormat.chatgpt, (), 8),
    ("chat/claude", ImportFormat.claude, (), 6),
]


def invoke(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, ["import", *(str(a) for a in args)])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("path", "fmt", "options", "count"), SAMPLES, ids=[s[0] for s in SAMPLES])
def test_detect_import_and_import_again(
    tmp_path: Path, path: str, fmt: ImportFormat, options: tuple[object, ...], count: int
) -> None:
    assert detect_format(DATA / path) is fmt
    data = tmp_path / "data"
    code, out, err = invoke(DATA / path, *options, "--data-dir", data, "-g", "team-a")
    assert code == 0, err
    assert f"imported {count} episodes" in out and f"({fmt})" in out
    with Memory.open(settings=Settings(data_dir=data)) as memory:
        before = memory.store.counts()
        versions = {e.id: e.version for e in memory.list_episodes("team-a", limit=500).items}
    assert before["episodes"] == count
    code, out, err = invoke(DATA / path, *options, "--data-dir", data, "-g", "team-a")
    assert code == 0, err
    assert f"0 created, {count} deduplicated" in out
    with Memory.open(settings=Settings(data_dir=data)) as memory:
        assert memory.store.counts() == before  # no episode, version or operation added
        assert {e.id: e.version for e in memory.list_episodes("team-a", limit=500).items} == versions


def test_dry_run_stores_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, out, err = invoke(DATA / "mail" / "sample.mbox", "--dry-run", "--show", "2", "--data-dir", data)
    assert code == 0, err
    assert "holds 8 episodes; nothing was stored" in out
    assert "sample.mbox message 1 <CAF7q1Lx9mQ5527.20240603161244@mail.cobalt.example>" in out
    assert "sample.mbox message 3" not in out
    assert "references: doc-cobalt-quote-q-5527" in out
    assert not data.exists()


def test_bad_records_are_skipped_and_named(tmp_path: Path) -> None:
    table = tmp_path / "rows.csv"
    table.write_text(
        "time,actor,content\n2024-06-01T10:00:00Z,li,fine\nyesterday,li,no time\n", encoding="utf-8"
    )
    code, out, err = invoke(table, "--data-dir", tmp_path / "data")
    assert code == 2
    assert "imported 1 episode" in out and "1 record skipped" in out
    assert "skipped rows.csv line 3:" in err and "yesterday" in err


def test_unreadable_inputs_are_clear_errors(tmp_path: Path) -> None:
    unknown = tmp_path / "notes.bin"
    unknown.write_bytes(b"\x00\x01")
    code, _, err = invoke(unknown, "--data-dir", tmp_path / "data")
    assert code == 2 and "cannot tell the format" in err and "--format" in err
    code, _, err = invoke(tmp_path / "missing.mbox", "--data-dir", tmp_path / "data")
    assert code == 2 and "no such file or folder" in err
    broken = tmp_path / "export.json"
    broken.write_text("[{", encoding="utf-8")
    code, _, err = invoke(broken, "--format", "json", "--data-dir", tmp_path / "data")
    assert code == 2 and "export.json: not valid JSON" in err
    code, _, err = invoke(
        DATA / "mail" / "sample.mbox",
        "--mapping",
        DATA / "crm" / "mapping.json",
        "--data-dir",
        tmp_path / "data",
    )
    assert code == 2 and "--mapping applies to csv and json" in err


GARBAGE_TEXT = b"this is not mail\nat all: just two lines\n"
GARBAGE_BYTES = bytes(range(255, -1, -1)) * 4  # begins with 0xff: never UTF-8

UNREADABLE = [
    ("inbox.mbox", GARBAGE_TEXT, (), "not an mbox file", "'this is not mail'"),
    ("inbox.mbox", GARBAGE_BYTES, (), "not an mbox file", "not UTF-8 text"),
    ("notes.txt", GARBAGE_TEXT, ("--format", "mbox"), "not an mbox file", "'From '"),
    ("table.csv", GARBAGE_BYTES, (), "not UTF-8 text", "table.csv"),
    ("conversations.json", b"[]", ("--format", "chatgpt"), "nothing to import", "no chatgpt record"),
    ("records.json", b'{"records": []}', ("--format", "json"), "nothing to import", "no json record"),
]


@pytest.mark.parametrize(
    ("name", "content", "options", "why", "detail"), UNREADABLE, ids=[f"{u[0]}-{u[3]}" for u in UNREADABLE]
)
def test_an_input_that_is_not_its_format_is_refused_and_nothing_is_written(
    tmp_path: Path, name: str, content: bytes, options: tuple[str, ...], why: str, detail: str
) -> None:
    source = tmp_path / name
    source.write_bytes(content)
    data = tmp_path / "data"
    for dry_run in (("--dry-run",), ()):
        code, out, err = invoke(source, *options, *dry_run, "--data-dir", data)
        assert code == 2, (out, err)
        assert str(source) in err and why in err and detail in err, err
        assert "imported" not in out
    if data.exists():  # refused after parsing: the store may exist, it holds nothing
        with Memory.open(settings=Settings(data_dir=data)) as memory:
            assert memory.store.counts()["episodes"] == 0


def test_a_file_read_as_eml_without_headers_is_a_named_problem(tmp_path: Path) -> None:
    source = tmp_path / "letter.txt"
    source.write_bytes(GARBAGE_TEXT)
    data = tmp_path / "data"
    code, out, err = invoke(source, "--format", "eml", "--data-dir", data)
    assert code == 2
    assert "imported 0 episodes" in out and "1 record skipped" in out
    assert "skipped letter.txt: not an email message: it has no header lines" in err
    with Memory.open(settings=Settings(data_dir=data)) as memory:
        assert memory.store.counts()["episodes"] == 0
