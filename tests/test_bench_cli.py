"""``engram bench locomo`` and ``engram reembed``, and the evaluation's pure functions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import LOCOMO_DEV, free_port
from engram import Memory, Settings
from engram.cli import app
from engram.evaluation.locomo import clean_evidence, score_ranking
from fakes.openai_server import DIMENSIONS, serve_fake_openai

runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None})


def small_locomo(tmp_path: Path) -> Path:
    """Write the first two sessions of the first dev conversation, with the questions they answer."""
    if not LOCOMO_DEV.is_file():
        pytest.skip(f"LoCoMo dev file not found at {LOCOMO_DEV}")
    sample: dict[str, Any] = json.loads(LOCOMO_DEV.read_text())[0]
    conversation = {
        key: value
        for key, value in sample["conversation"].items()
        if key in {"speaker_a", "speaker_b"} or key.split("_")[1] in {"1", "2"}
    }
    known = {turn["dia_id"] for key in ("session_1", "session_2") for turn in conversation[key]}
    qa = [q for q in sample["qa"] if q.get("evidence") and set(q["evidence"]) <= known]
    qa.append({"question": "Broken evidence?", "answer": "x", "evidence": ["D99:1", "D:1:2"], "category": 4})
    path = tmp_path / "small.json"
    path.write_text(json.dumps([{**sample, "conversation": conversation, "qa": qa}]))
    return path


def test_bench_locomo_json_report(tmp_path: Path) -> None:
    path = small_locomo(tmp_path)
    result = runner.invoke(app, ["bench", "locomo", str(path), "--json"], env={"ENGRAM_EMBEDDER": "none"})
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report["pipelines"]) == {"bm25", "full"}, "no embedder: the vector pipeline is skipped"
    assert report["dropped_evidence"] == 1 and report["questions"] >= 5
    for metrics in report["pipelines"].values():
        overall = metrics["overall"]
        assert 0 < overall["recall@10"] <= overall["recall@20"] <= 1
        assert overall["recall@1"] <= overall["recall@5"] <= overall["recall@10"]
        assert overall["p95_ms"] >= overall["p50_ms"] > 0
        assert set(metrics["by_category"]) <= {"1", "2", "3", "4"}
    assert report["index_seconds"] > 0


def test_bench_locomo_tables_and_bad_input(tmp_path: Path) -> None:
    path = small_locomo(tmp_path)
    shown = runner.invoke(
        app, ["bench", "locomo", str(path), "--pipelines", "bm25"], env={"ENGRAM_EMBEDDER": "none"}
    )
    assert shown.exit_code == 0, shown.output
    assert "recall@10 by category" in shown.stdout and "bm25" in shown.stdout
    bad = runner.invoke(app, ["bench", "locomo", str(path), "--pipelines", "magic"])
    assert bad.exit_code == 2 and "--pipelines" in bad.stderr
    missing = runner.invoke(app, ["bench", "locomo", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2


def test_clean_evidence_and_scores() -> None:
    known = {"D1:1", "D1:2", "D11:26", "D8:6", "D9:17"}
    assert clean_evidence(["D1:1", "D8:6; D9:17", "D:11:26", "D99:1", "garbage"], known) == (
        {"D1:1", "D8:6", "D9:17", "D11:26"},
        2,
    )
    scores = score_ranking(["D1:2", "D1:1", "D2:5"], frozenset({"D1:1", "D2:7"}))
    assert scores["recall@1"] == 0 and scores["recall@5"] == 0.5
    assert scores["session_recall@5"] == 1.0  # sessions D1 and D2 both appear in the top 5
    assert scores["ndcg@10"] == pytest.approx((1 / 1.5849625) / (1 + 1 / 1.5849625), rel=1e-6)


def test_reembed_switches_the_embedder(tmp_path: Path) -> None:
    with serve_fake_openai(free_port()) as fake:
        openai_env = {
            "ENGRAM_EMBEDDER": "openai",
            "ENGRAM_EMBEDDER_BASE_URL": fake.base_url,
            "ENGRAM_EMBEDDER_MODEL": "fake-embed",
            "ENGRAM_EMBEDDER_DIMENSIONS": str(DIMENSIONS),
        }
        with Memory.open(
            settings=Settings(
                data_dir=tmp_path,
                **{
                    "embedder": "openai",
                    "embedder_base_url": fake.base_url,
                    "embedder_model": "fake-embed",
                    "embedder_dimensions": DIMENSIONS,
                },
            ),
            background_indexing=False,
        ) as memory:
            memory.create_episodes([{"content": "the puppy sat"}, {"content": "budget meeting"}])
            memory.index_pending()
        refused = runner.invoke(
            app,
            ["search", "puppy", "--data-dir", str(tmp_path)],
            env={**openai_env, "ENGRAM_EMBEDDER_MODEL": "other-model"},
        )
        assert refused.exit_code == 5 and "engram reembed" in refused.stderr
        done = runner.invoke(
            app,
            ["reembed", "--data-dir", str(tmp_path)],
            env={**openai_env, "ENGRAM_EMBEDDER_MODEL": "other-model"},
        )
        assert done.exit_code == 0, done.output
        assert "re-embedded 2 episodes" in done.stdout
        assert fake.requests[-1]["model"] == "other-model"
        again = runner.invoke(
            app,
            ["search", "puppy", "--data-dir", str(tmp_path)],
            env={**openai_env, "ENGRAM_EMBEDDER_MODEL": "other-model"},
        )
        assert again.exit_code == 0 and "the puppy sat" in again.stdout
