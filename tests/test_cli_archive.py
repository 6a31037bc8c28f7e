"""``engram archive`` end to end on a real SQLite file, through typer's CliRunner."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from engram.cli import app
from engram.cli.maintenance import parse_duration
from engram.config import Settings
from engram.errors import InvalidInput
from engram.memory import Memory

runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None})
LONG_AGO = datetime(2020, 1, 1, tzinfo=UTC)


def run(*args: str | Path) -> Result:
    return runner.invoke(app, [str(arg) for arg in args])


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A store whose ACME budget changed twice in 2020: two superseded facts, one current."""
    now = [LONG_AGO]
    settings = Settings(data_dir=tmp_path, embedder="none", extractor="none")
    with Memory.open(settings=settings, clock=lambda: now[0], background_indexing=False) as memory:
        for day, amount in enumerate((500, 800, 900)):
            now[0] = LONG_AGO + timedelta(days=day)
            episode = memory.create_episode({"content": f"ACME budget is {amount}", "timestamp": now[0]})
            memory.add_facts(
                {
                    "episode_id": episode.episode.id,
                    "entities": [{"name": "ACME", "type": "project"}],
                    "facts": [
                        {"subject": "ACME", "predicate": "BUDGET", "value": amount, "fact": "ACME budget"}
                    ],
                }
            )
    return tmp_path


def budgets(data_dir: Path, **search: object) -> list[tuple[object, bool]]:
    settings = Settings(data_dir=data_dir, embedder="none", extractor="none")
    with Memory.open(settings=settings, background_indexing=False) as memory:
        found = memory.search_facts({"query": "ACME budget", "include_history": True, **search}).results
    return sorted((hit.fact.value, hit.archived) for hit in found)


def test_archive_dry_run_then_archive(data_dir: Path) -> None:
    dry = run("archive", "--older-than", "180d", "--dry-run", "--data-dir", data_dir)
    assert dry.exit_code == 0, dry.output
    assert (
        dry.stdout.startswith("would archive 2 facts (4 versions) of group default")
        and "nothing changed" in dry.stdout
    )
    done = run("archive", "--older-than", "26w", "--data-dir", data_dir, "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert len(result["facts"]) == 2 and result["versions"] == 4 and result["operation_id"].startswith("op_")
    assert budgets(data_dir) == [(900, False)]
    assert budgets(data_dir, include_archived=True) == [(500, True), (800, True), (900, False)]
    again = run("archive", "--older-than", "180d", "--data-dir", data_dir)
    assert again.exit_code == 0 and again.stdout.startswith("nothing to archive in group default")


def test_archive_of_another_group_moves_nothing(data_dir: Path) -> None:
    result = run("archive", "--older-than", "180d", "--group", "team-b", "--data-dir", data_dir)
    assert result.exit_code == 0 and "nothing to archive in group team-b" in result.stdout
    assert budgets(data_dir) == [(500, False), (800, False), (900, False)]


def test_archive_keeps_facts_younger_than_the_cutoff(data_dir: Path) -> None:
    age = (datetime.now(UTC) - LONG_AGO).days + 30
    result = run("archive", "--older-than", f"{age}d", "--data-dir", data_dir)
    assert result.exit_code == 0 and result.stdout.startswith("nothing to archive")


@pytest.mark.parametrize(
    "bad", ["180", "abc", "0d", "-5d", "6m", "12x", "d", "1.5d", "", "3000000d", "99999999999d"]
)
def test_bad_older_than_exits_2_naming_the_option(data_dir: Path, bad: str) -> None:
    result = run("archive", "--older-than", bad, "--data-dir", data_dir)
    assert result.exit_code == 2, result.output
    assert "--older-than" in result.stderr and "Traceback" not in result.output


def test_archive_needs_an_existing_store(tmp_path: Path) -> None:
    result = run("archive", "--older-than", "180d", "--data-dir", tmp_path / "nowhere")
    assert result.exit_code == 2 and "no Engram database" in result.stderr


def test_parse_duration() -> None:
    assert parse_duration("180d") == timedelta(days=180)
    assert parse_duration("12h") == timedelta(hours=12)
    assert parse_duration("2w") == timedelta(weeks=2)
    assert parse_duration(" 1w 3d ") == timedelta(days=10)
    assert parse_duration("36H") == timedelta(hours=36)
    with pytest.raises(InvalidInput) as caught:
        parse_duration("6m")
    assert caught.value.field == "--older-than" and "unknown unit 'm'" in caught.value.detail
