"""The ``engram`` CLI end to end on real SQLite files: import, list, search, export, doctor, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from engram.cli import app
from engram.memory import Memory
from engram.models.episodes import Episode

LOCOMO_DEV = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "locomo" / "locomo-dev.json"
needs_locomo = pytest.mark.skipif(
    not LOCOMO_DEV.is_file(), reason=f"LoCoMo dev split not present at {LOCOMO_DEV}"
)

runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None})


def run(*args: str | Path, input: str | None = None) -> Result:
    """Invoke the CLI in-process and return the result (stdout and stderr kept apart)."""
    return runner.invoke(app, [str(arg) for arg in args], input=input)


def ok(*args: str | Path, input: str | None = None) -> Result:
    """Invoke the CLI and assert it succeeded."""
    result = run(*args, input=input)
    assert result.exit_code == 0, f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    return result


def failed(result: Result, code: int) -> str:
    """Assert ``result`` is a clean failure with ``code`` (a message, no traceback); return stderr."""
    assert result.exit_code == code, (
        f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    )
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    return result.stderr


def comparable(episode: Episode) -> dict[str, Any]:
    """Return the episode's fields that an export/import round trip must preserve."""
    return episode.model_dump(exclude={"recorded_at", "operation_id"})


# -- LoCoMo -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def locomo_samples() -> list[dict[str, Any]]:
    if not LOCOMO_DEV.is_file():
        pytest.skip(f"LoCoMo dev split not present at {LOCOMO_DEV}")
    samples: list[dict[str, Any]] = json.loads(LOCOMO_DEV.read_text(encoding="utf-8"))
    return samples


def turns_per_sample(samples: list[dict[str, Any]]) -> Counter[str]:
    return Counter(
        {
            s["sample_id"]: sum(len(v) for k, v in s["conversation"].items() if isinstance(v, list))
            for s in samples
        }
    )


@pytest.fixture(scope="module")
def locomo_dir(tmp_path_factory: pytest.TempPathFactory, locomo_samples: list[dict[str, Any]]) -> Path:
    """Return a data dir holding the LoCoMo dev split, imported once through the CLI."""
    data_dir = tmp_path_factory.mktemp("locomo")
    result = ok("import", LOCOMO_DEV, "--format", "locomo", "--data-dir", data_dir)
    turns = sum(turns_per_sample(locomo_samples).values())
    assert f"imported {turns} episodes" in result.stdout
    assert f"{turns} created, 0 deduplicated" in result.stdout
    assert f"committed {turns}/{turns}" in result.stderr
    return data_dir


@needs_locomo
def test_locomo_import_counts_every_turn(locomo_dir: Path, locomo_samples: list[dict[str, Any]]) -> None:
    expected = turns_per_sample(locomo_samples)
    with Memory.open(locomo_dir) as memory:
        assert memory.store.counts()["episodes"] == sum(expected.values())
        assert memory.groups() == sorted(expected)
    exported = ok("export", "--data-dir", locomo_dir).stdout.splitlines()
    assert Counter(json.loads(line)["group_id"] for line in exported) == expected


@needs_locomo
def test_locomo_turn_field_by_field(locomo_dir: Path, locomo_samples: list[dict[str, Any]]) -> None:
    conversation = next(s for s in locomo_samples if s["sample_id"] == "conv-26")["conversation"]
    turn = conversation["session_1"][4]
    assert turn["dia_id"] == "D1:5" and "blip_caption" in turn
    with Memory.open(locomo_dir) as memory:
        episode = memory.get_episode("conv-26:D1:5", "conv-26")
    assert episode.group_id == "conv-26"
    assert conversation["session_1_date_time"] == "1:56 pm on 8 May, 2023"
    assert episode.timestamp == datetime(2023, 5, 8, 13, 56, 4, tzinfo=UTC)  # 5th turn: +4 s
    assert episode.actor is not None
    assert episode.actor.model_dump() == {"type": "user", "id": turn["speaker"], "name": turn["speaker"]}
    assert episode.source == "locomo"
    assert episode.source_type == "message"
    assert episode.content == f"{turn['text']} [image: {turn['blip_caption']}]"
    assert "[image: a photo of a dog walking past a wall" in episode.content
    assert episode.metadata == {"session": 1, "dia_id": "D1:5", "img_url": turn["img_url"]}


@needs_locomo
def test_locomo_reimport_is_idempotent(locomo_dir: Path, locomo_samples: list[dict[str, Any]]) -> None:
    turns = sum(turns_per_sample(locomo_samples).values())
    result = ok("import", LOCOMO_DEV, "--format", "locomo", "--batch-size", "700", "--data-dir", locomo_dir)
    assert f"0 created, {turns} deduplicated" in result.stdout
    with Memory.open(locomo_dir) as memory:
        assert memory.store.counts()["episodes"] == turns


@needs_locomo
def test_locomo_search_and_list_from_cli(locomo_dir: Path, locomo_samples: list[dict[str, Any]]) -> None:
    found = json.loads(
        ok(
            "search", "transgender stories inspiring", "-g", "conv-26", "--json", "--data-dir", locomo_dir
        ).stdout
    )
    citations = [hit["citation"] for hit in found["results"]]
    assert "[source: conv-26:D1:5]" in citations[:3]
    table = ok("search", "transgender stories inspiring", "-g", "conv-26", "--data-dir", locomo_dir).stdout
    assert "[source: conv-26:D1:5]" in table

    window = json.loads(
        ok(
            "list",
            "-g",
            "conv-26",
            "--after",
            "2023-05-08T13:56:00",
            "--before",
            "2023-05-08T13:56:05",
            "--json",
            "--data-dir",
            locomo_dir,
        ).stdout
    )
    assert [e["id"] for e in window["items"]] == [f"conv-26:D1:{k}" for k in (5, 4, 3, 2, 1)]
    listed = ok("list", "-g", "conv-26", "-n", "3", "--data-dir", locomo_dir)
    conversation = next(s for s in locomo_samples if s["sample_id"] == "conv-26")["conversation"]
    last_session = max(int(k.split("_")[1]) for k, v in conversation.items() if isinstance(v, list))
    assert f"conv-26:{conversation[f'session_{last_session}'][-1]['dia_id']}" in listed.stdout
    assert "more: --cursor" in listed.stderr

    exported = ok("export", "-g", "conv-26", "--data-dir", locomo_dir).stdout
    assert '"id":"conv-26:D1:5"' in exported


# -- JSON Lines round trip ---------------------------------------------------------------------------


def seed(memory: Memory) -> None:
    memory.create_episodes(
        [
            {"group_id": "alpha", "content": "Plain note", "timestamp": "2024-03-01T10:00:00Z"},
            {
                "id": "chosen-id",
                "group_id": "alpha",
                "content": {"order": 7, "item": "乌龙茶"},
                "actor": {"type": "agent", "id": "bot-1", "name": "Bot"},
                "intent": "confirm_date",
                "source": "crm",
                "metadata": {"nested": {"list": [1, 2.5, None, True]}, "zh": "你好"},
                "references": ["https://example.org/a", "ep_other"],
                "timestamp": "2024-03-02T08:30:00.123456+02:00",
            },
            {"group_id": "beta", "content": "第三个记忆：用户喜欢绿茶", "actor": {"id": "u7"}},
        ]
    )


def all_episodes(data_dir: Path) -> dict[tuple[str, str], Episode]:
    with Memory.open(data_dir) as memory:
        return {
            (e.group_id, e.id): e for g in memory.groups() for e in memory.list_episodes(g, limit=500).items
        }


def test_jsonl_round_trip_reproduces_episodes(tmp_path: Path) -> None:
    source_dir, copy_dir, dump = tmp_path / "source", tmp_path / "copy", tmp_path / "dump.jsonl"
    with Memory.open(source_dir) as memory:
        seed(memory)
    exported = ok("export", "--output", dump, "--data-dir", source_dir)
    assert "exported 3 episodes from 2 groups" in exported.stderr
    assert not list(tmp_path.glob(".*.partial"))

    imported = ok("import", dump, "--data-dir", copy_dir)
    assert "3 created, 0 deduplicated" in imported.stdout
    original, copy = all_episodes(source_dir), all_episodes(copy_dir)
    assert original.keys() == copy.keys()
    for key, episode in original.items():
        assert comparable(copy[key]) == comparable(episode), key

    again = ok("import", dump, "--format", "jsonl", "--data-dir", source_dir)
    assert "0 created, 3 deduplicated" in again.stdout
    from_stdin = ok("import", "-", "--data-dir", copy_dir, input=dump.read_text(encoding="utf-8"))
    assert "0 created, 3 deduplicated" in from_stdin.stdout


def test_bad_jsonl_line_exits_2_and_keeps_only_committed_batches(tmp_path: Path) -> None:
    rows = [json.dumps({"id": f"e{n}", "content": f"episode {n}"}) for n in range(1, 9)]
    rows[4] = json.dumps({"id": "e5", "contents": "typo"})  # line 5
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    data_dir = tmp_path / "data"
    stderr = failed(run("import", path, "--batch-size", "3", "--data-dir", data_dir), 2)
    assert "line 5" in stderr
    assert "content" in stderr and "contents" in stderr
    assert "3 records in 1 batch were committed" in stderr
    assert set(all_episodes(data_dir)) == {("default", "e1"), ("default", "e2"), ("default", "e3")}


def test_content_over_limit_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    path.write_text('{"content": "small"}\n{"content": "' + "x" * 64 + '"}\n', encoding="utf-8")
    result = runner.invoke(
        app, ["import", str(path), "--data-dir", str(tmp_path / "d")], env={"ENGRAM_MAX_CONTENT_BYTES": "32"}
    )
    stderr = failed(result, 2)
    assert "line 2: content is 64 bytes" in stderr
    assert all_episodes(tmp_path / "d") == {}


# -- doctor and errors --------------------------------------------------------------------------------


def test_doctor_reports_versions_schema_and_counts(tmp_path: Path) -> None:
    with Memory.open(tmp_path) as memory:
        seed(memory)
    report = ok("doctor", "--data-dir", tmp_path).stdout
    for label in ("engram", "python", "sqlite", "jieba", "data dir", "database"):
        assert label in report
    assert "schema version" in report
    assert "episodes         3" in report
    assert "groups           2" in report
    assert "integrity check  ok" in report


def test_data_dir_that_is_a_file_is_a_clear_error(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x", encoding="utf-8")
    for command in (["doctor"], ["search", "tea"], ["list"], ["export"], ["import", __file__, "-f", "jsonl"]):
        stderr = failed(run(*command, "--data-dir", not_a_dir), 2)
        assert "--data-dir" in stderr and "not a directory" in stderr


def test_read_commands_do_not_create_a_store(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    stderr = failed(run("search", "tea", "--data-dir", missing), 2)
    assert "no Engram database" in stderr
    assert not missing.exists()


def test_missing_input_file_exits_2(tmp_path: Path) -> None:
    stderr = failed(run("import", tmp_path / "absent.json", "--format", "locomo", "--data-dir", tmp_path), 2)
    assert "no such file" in stderr and "absent.json" in stderr
    stderr = failed(run("import", tmp_path / "data.txt", "--data-dir", tmp_path), 2)
    assert "--format" in stderr


def test_invalid_group_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    with Memory.open(tmp_path) as memory:
        seed(memory)
    stderr = failed(run("search", "[source: x]", "-g", "no spaces allowed", "--data-dir", tmp_path), 2)
    assert "group_id" in stderr
    assert "no results" in ok("search", "[nothing] here", "-g", "alpha", "--data-dir", tmp_path).stderr


def test_reimport_after_intent_patch_is_idempotent(tmp_path: Path) -> None:
    with Memory.open(tmp_path) as memory:
        memory.create_episode({"id": "p1", "content": "hello", "intent": "ask"})
        memory.update_episode("p1", {"intent": "complain_product"}, expected_version=1)
    dump = tmp_path / "dump.jsonl"
    ok("export", "-o", dump, "--data-dir", tmp_path)
    assert "0 created, 1 deduplicated" in ok("import", dump, "--data-dir", tmp_path).stdout


# -- Output width -----------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", ["80", None])
def test_tables_stay_readable_in_a_narrow_terminal_and_in_a_pipe(tmp_path: Path, columns: str | None) -> None:
    """At 80 columns each hit stacks (ids whole, text wrapped); piped output keeps one row a line."""
    data = tmp_path / "data"
    text = "Caroline went to the LGBTQ support group on 7 May 2023 and it was wonderful, said Melanie"
    with Memory.open(data) as memory:
        stored = memory.create_episode({"content": text, "actor": {"id": "caroline"}}).episode
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"} | {"ENGRAM_DATA_DIR": str(data)}
    if columns is not None:
        env["COLUMNS"] = columns
    for command in (["search", "support group"], ["operations"]):
        shown = subprocess.run(
            [sys.executable, "-m", "engram", *command], env=env, capture_output=True, text=True, check=True
        ).stdout
        assert stored.id in shown or "op_" in shown, shown
        if columns is not None:
            assert max(len(line.rstrip()) for line in shown.splitlines()) <= int(columns), shown
        if command[0] != "operations":
            assert " ".join(shown.split()).count("said Melanie") == 1, shown
            assert (len(shown.splitlines()) == 5) is (columns is None), shown  # a table: 4 rules + 1 row
