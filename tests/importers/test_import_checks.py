"""``engram import`` as a check: dry runs that fail, empty inputs, messages naming file, column and
value, object content kept as JSON, and ``--group`` on LoCoMo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram.cli import app
from engram.config import Settings
from engram.memory import Memory
from engram.models.episodes import EpisodeIn

runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None})


def invoke(*args: object, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["import", *(str(a) for a in args)], input=input)
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def stored(data: Path, group: str | None = None) -> list[str]:
    """Return the contents stored in ``group``, oldest first."""
    with Memory.open(settings=Settings(data_dir=data, embedder="none")) as memory:
        items = memory.list_episodes(group, limit=500).items
    return [e.content for e in sorted(items, key=lambda e: e.timestamp)]


def test_a_dry_run_with_unreadable_records_exits_2_and_still_shows_the_preview(tmp_path: Path) -> None:
    table = tmp_path / "rows.csv"
    table.write_text("time,actor,content\n2024-06-01T10:00:00Z,li,fine\nsoon,li,no time\n", encoding="utf-8")
    data = tmp_path / "data"
    code, out, err = invoke(table, "--dry-run", "--data-dir", data)
    assert code == 2, (out, err)
    assert "rows.csv line 2" in out and "fine" in out
    assert "holds 1 episode and 1 record that cannot be read; nothing was stored" in out
    assert "cannot read rows.csv line 3:" in err
    assert not data.exists()
    table.write_text("time,actor,content\n2024-06-01T10:00:00Z,li,fine\n", encoding="utf-8")
    assert invoke(table, "--dry-run", "--data-dir", data)[0] == 0


EMPTY = [
    ("empty.mbox", b"", ()),
    ("empty.csv", b"", ()),
    ("empty.jsonl", b"", ()),
    ("blank.jsonl", b"\n  \n", ()),
    ("empty.json", b"", ("--format", "json")),
    ("empty.eml", b"", ()),
    ("notes.md", b"", ()),
    ("conversations.json", b"", ("--format", "chatgpt")),
]


@pytest.mark.parametrize(("name", "content", "options"), EMPTY, ids=[e[0] for e in EMPTY])
def test_an_empty_file_is_an_error_in_every_format(
    tmp_path: Path, name: str, content: bytes, options: tuple[str, ...]
) -> None:
    source = tmp_path / name
    source.write_bytes(content)
    for dry_run in (("--dry-run",), ()):
        code, out, err = invoke(source, *options, *dry_run, "--data-dir", tmp_path / "data")
        assert code == 2, (out, err)
        assert f"{source}: nothing to import: the file is empty" in err
        assert "imported" not in out


def test_empty_folders_stdin_and_header_only_tables_are_errors(tmp_path: Path) -> None:
    data = tmp_path / "data"
    maildir = tmp_path / "Mail"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    code, _, err = invoke(maildir, "--data-dir", data)
    assert code == 2 and "nothing to import: the folder holds no file with anything in it" in err
    code, _, err = invoke("-", "--data-dir", data, input="")
    assert code == 2 and "stdin: nothing to import" in err
    header = tmp_path / "header.csv"
    header.write_text("time,actor,content\n", encoding="utf-8")
    code, _, err = invoke(header, "--data-dir", data)
    assert code == 2 and "header.csv: nothing to import: a header line and no rows" in err


def test_a_bad_time_names_the_column_and_the_value(tmp_path: Path) -> None:
    table = tmp_path / "badrows.csv"
    table.write_text(
        "Id,Created Date,Text\n1,2024-06-01T10:00:00Z,a\n2,2024-06-02T10:00:00Z,b\n3,badtime,c\n",
        encoding="utf-8",
    )
    mapping = tmp_path / "mapping.json"
    mapping.write_text(
        json.dumps(
            {"id": {"field": "Id"}, "time": {"field": "Created Date"}, "content": {"fields": ["Text"]}}
        ),
        encoding="utf-8",
    )
    code, out, err = invoke(table, "--mapping", mapping, "--data-dir", tmp_path / "data")
    assert code == 2 and "imported 2 episodes" in out
    expected = "badrows.csv line 4: column \"Created Date\": 'badtime' is not a date/time (ISO 8601 expected)"
    assert f"skipped {expected}\n" in err
    records = tmp_path / "records.json"
    records.write_text(json.dumps([{"when": "1 June", "content": "x"}]), encoding="utf-8")
    mapping.write_text(
        json.dumps({"time": {"field": "when", "format": "%Y-%m-%d"}, "content": {"fields": ["content"]}}),
        encoding="utf-8",
    )
    code, _, err = invoke(records, "--mapping", mapping, "--dry-run")
    assert code == 2
    assert (
        "records.json record 1: field \"when\": '1 June' is not a date/time (format %Y-%m-%d expected)" in err
    )


def test_a_bad_jsonl_line_names_the_file(tmp_path: Path) -> None:
    lines = tmp_path / "bad.jsonl"
    lines.write_text('{"content": "a"}\n{"content": ""}\n', encoding="utf-8")
    code, _, err = invoke(lines, "--data-dir", tmp_path / "data")
    assert code == 2
    assert "bad.jsonl line 2: content" in err
    code, _, err = invoke("-", "--data-dir", tmp_path / "data", input='{"content": ""}\n')
    assert code == 2 and "stdin line 1: content" in err


def test_a_folder_given_as_a_table_is_refused_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "a.csv").write_text("content\nhello\n", encoding="utf-8")
    for fmt in ("csv", "json"):
        code, _, err = invoke(folder, "--format", fmt, "--data-dir", tmp_path / "data")
        assert code == 2
        assert f"--format {fmt} reads a file, and {folder} is a folder" in err
        assert "Errno" not in err


def test_an_unclosed_quote_is_reported_not_swallowed(tmp_path: Path) -> None:
    table = tmp_path / "unterminated.csv"
    table.write_text(
        'time,actor,content\n2024-06-01T10:00:00Z,li,first\n2024-06-02T10:00:00Z,li,"second\n'
        "2024-06-03T10:00:00Z,li,third\n",
        encoding="utf-8",
    )
    data = tmp_path / "data"
    code, out, err = invoke(table, "--data-dir", data)
    assert code == 2, (out, err)
    assert "imported 1 episode" in out and "1 record skipped" in out
    assert "skipped unterminated.csv line 3: a quoted field opened in this row is never closed" in err
    assert "end of the file, line 4" in err
    assert stored(data) == ["first"]
    # a closed multi-line field at the end of the file is one row, read whole
    table.write_text('time,actor,content\n2024-06-01T10:00:00Z,li,"two\nlines"\n', encoding="utf-8")
    code, _, err = invoke(table, "--data-dir", data)
    assert code == 0, err
    assert "two\nlines" in stored(data)


def test_object_content_is_kept_as_json_as_rest_keeps_it(tmp_path: Path) -> None:
    records = tmp_path / "records.json"
    records.write_text(
        json.dumps(
            [
                {"time": "2024-06-01T10:00:00Z", "content": {"nested": 1, "name": "é"}},
                {"time": "2024-06-02T10:00:00Z", "content": [1, True]},
            ]
        ),
        encoding="utf-8",
    )
    data = tmp_path / "data"
    code, _, err = invoke(records, "--data-dir", data, "--no-classify")
    assert code == 0, err
    as_rest = EpisodeIn(content={"nested": 1, "name": "é"}).content_text()
    assert stored(data) == [as_rest, "[1,true]"]
    assert json.loads(stored(data)[0]) == {"nested": 1, "name": "é"}


def locomo_sample(sample_id: str) -> dict[str, object]:
    """Return a LoCoMo sample of one session with two turns."""
    turns = [
        {"speaker": "Ann", "dia_id": "D1:1", "text": f"hello from {sample_id}"},
        {"speaker": "Bo", "dia_id": "D1:2", "text": "hi"},
    ]
    return {
        "sample_id": sample_id,
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": turns,
        },
    }


def test_group_option_puts_locomo_conversations_in_that_group(tmp_path: Path) -> None:
    dev = tmp_path / "locomo-dev.json"
    dev.write_text(json.dumps([locomo_sample("conv-1"), locomo_sample("conv-2")]), encoding="utf-8")
    data = tmp_path / "data"
    code, out, err = invoke(dev, "--format", "locomo", "-g", "lc2", "--data-dir", data)
    assert code == 0, err
    assert "imported 4 episodes" in out
    with Memory.open(settings=Settings(data_dir=data, embedder="none")) as memory:
        assert memory.groups() == ["lc2"]
        ids = {e.id for e in memory.list_episodes("lc2").items}
    assert ids == {"conv-1:D1:1", "conv-1:D1:2", "conv-2:D1:1", "conv-2:D1:2"}
    code, _, err = invoke(dev, "--format", "locomo", "--data-dir", data)  # without -g: their own groups
    assert code == 0, err
    assert len(stored(data, "conv-1")) == 2 and len(stored(data, "conv-2")) == 2
