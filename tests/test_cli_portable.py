"""``engram export --format engram`` / ``engram import`` end to end through the CLI, on real SQLite files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engram.memory import Memory
from test_cli import failed, ok, run
from test_portable import OTHER, Clock, G, build, open_memory, stored_rows


@pytest.fixture
def source_dir(tmp_path: Path) -> Path:
    """Return a data dir holding the test_portable scenario (closed again, for the CLI to open)."""
    clock = Clock()
    with open_memory(tmp_path / "source", clock) as memory:
        build(memory, clock)
        memory.store.flush_fact_hits()
    return tmp_path / "source"


def rows_of(data_dir: Path) -> dict[str, list[tuple[object, ...]]]:
    with Memory.open(data_dir, background_indexing=False) as memory:
        return stored_rows(memory)


def test_export_then_import_moves_every_group(source_dir: Path, tmp_path: Path) -> None:
    dump, copy = tmp_path / "dump.jsonl", tmp_path / "copy"
    exported = ok("export", "--format", "engram", "-o", dump, "--data-dir", source_dir)
    assert "from 2 groups to" in exported.stderr
    # fact 5: the builtin extractor reads 杭州项目 BUDGET 800000 from the one episode without agent facts
    assert "(operation 11, episode 12, entity 13, fact 5, archived_fact 4," in exported.stderr
    lines = [json.loads(line) for line in dump.read_text(encoding="utf-8").splitlines()]
    assert [line["group_id"] for line in lines if line["record"] == "engram-export"] == [OTHER, G]
    assert not list(tmp_path.glob(".*.partial"))

    imported = ok("import", dump, "--batch-size", "9", "--data-dir", copy)  # the format is detected
    assert "imported 2 groups" in imported.stdout and "episode 12 created" in imported.stdout
    assert "committed" in imported.stderr
    assert rows_of(copy) == rows_of(source_dir)

    again = ok("import", dump, "--format", "engram", "--data-dir", copy)
    assert "created" not in again.stdout and "episode 12 skipped" in again.stdout
    piped = ok("import", "-", "-f", "engram", "--data-dir", copy, input=dump.read_text(encoding="utf-8"))
    assert "created" not in piped.stdout
    assert rows_of(copy) == rows_of(source_dir)


def test_export_of_one_group_to_stdout(source_dir: Path) -> None:
    out = ok("export", "-g", OTHER, "-f", "engram", "--data-dir", source_dir).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    records = [line["record"] for line in lines]
    assert records[0] == "engram-export" and records[-1] == "end" and records.count("episode") == 1
    assert {line["group_id"] for line in lines} == {OTHER}
    for fmt in ("engram", "jsonl"):
        assert "no episodes in group 'nosuch'" in failed(
            run("export", "-g", "nosuch", "-f", fmt, "--data-dir", source_dir), 3
        )


def test_bad_line_exits_2_naming_it_and_keeps_committed_batches(source_dir: Path, tmp_path: Path) -> None:
    dump = tmp_path / "dump.jsonl"
    ok("export", "-g", G, "-f", "engram", "-o", dump, "--data-dir", source_dir)
    lines = dump.read_text(encoding="utf-8").splitlines()
    lines[12] = lines[12][:-5]  # line 13: cut JSON
    dump.write_text("\n".join(lines) + "\n", encoding="utf-8")
    stderr = failed(run("import", dump, "--batch-size", "5", "--data-dir", tmp_path / "copy"), 2)
    assert "line 13: not valid JSON" in stderr
    assert "10 rows in 2 batches were committed before the error" in stderr

    truncated = tmp_path / "truncated.jsonl"
    truncated.write_text(
        "\n".join(dump.read_text(encoding="utf-8").splitlines()[:5]) + "\n", encoding="utf-8"
    )
    stderr = failed(run("import", truncated, "--data-dir", tmp_path / "other"), 2)
    assert "has no end line" in stderr and "truncated" in stderr


def test_another_history_exits_4(source_dir: Path, tmp_path: Path) -> None:
    dump, busy = tmp_path / "dump.jsonl", tmp_path / "busy"
    ok("export", "-g", G, "-f", "engram", "-o", dump, "--data-dir", source_dir)
    with Memory.open(busy, background_indexing=False) as memory:
        memory.create_episode({"id": "m1", "group_id": G, "content": "something else"})
    stderr = failed(run("import", dump, "--data-dir", busy), 4)
    assert "episode 'm1' version 1 in group 'team' is already stored with other" in stderr
    assert "content" in stderr
