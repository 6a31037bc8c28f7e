"""bench/storage_before_after.py in a tiny mode: this checkout against itself, every hot path reported.

Run as a person would (a subprocess); the figures themselves are never checked, only that each
one is measured on both sides and that both sides did the same work.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from test_bench_cli import small_locomo

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
DRIVER = REPO / "bench" / "storage_before_after.py"


def run_driver(tmp_path: Path, before: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        str(DRIVER),
        f"--before={before}",
        f"--after={REPO}",
        "--episodes=200",
        "--facts=100",
        "--repeat=1",
        "--queries=3",
        "--calls=2",
        f"--locomo={small_locomo(tmp_path)}",
        f"--cache-dir={tmp_path / 'cache'}",
        "--json",
        *extra,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)


def test_every_hot_path_is_measured_on_both_trees(tmp_path: Path) -> None:
    done = run_driver(tmp_path, REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)

    assert report["trees"]["before"]["commit"] == report["trees"]["after"]["commit"]
    cases = {"import_none", "import_builtin", "list", "bm25", "hybrid", "facts"}
    assert cases <= set(report["runs"])
    for case in cases:
        assert [len(report["runs"][case][side]) for side in ("before", "after")] == [1, 1], case
    figures = {row["figure"]: row for row in report["rows"]}
    for prefix in (
        "LoCoMo import, extractor none",
        "LoCoMo import, builtin extractor",
        "graph ingest on LoCoMo",
        "list at 200",
        "filtered BM25 search at 200",
        "hybrid search at 200",
        "fact search at 100 facts",
        "200 store build",
        "200 vectors indexed",
        "100 facts store build",
    ):
        assert any(name.startswith(prefix) for name in figures), f"no row for {prefix}"
    for name, row in figures.items():
        if name.endswith(("facts/s", "facts/cpu s", "fact versions")):
            continue  # the two sessions of the small file may hold no fact the builtin rules see
        assert row["before"] > 0 and row["after"] > 0, name
        if name.endswith("(check)"):
            assert row["before"] == row["after"], f"{name}: the same tree answered differently"
    assert figures["200 vectors indexed, once: index vectors/s"]["after"] > 0, "hybrid had no vectors"


def test_a_tree_without_engram_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "not-a-checkout"
    empty.mkdir()
    done = run_driver(tmp_path, empty, "--cases=import_none")
    assert done.returncode != 0
    assert f"not from {empty / 'src'}" in done.stderr
