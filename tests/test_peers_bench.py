"""bench/peers.py, run as a person would: a tiny store, every Engram figure, the numpy baseline beside it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from test_bench_cli import small_locomo

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[1] / "bench" / "peers.py"


def test_peers_bench_reports_every_figure_on_the_same_vectors(tmp_path: Path) -> None:
    pytest.importorskip(
        "bm25s", reason="the numpy + BM25 baseline needs the bench extra: pip install -e '.[bench]'"
    )
    command = [
        sys.executable,
        str(BENCH),
        "--sizes=300",
        "--systems=engram,engram-http,numpy",
        f"--locomo={small_locomo(tmp_path)}",
        f"--cache-dir={tmp_path / 'cache'}",
        f"--work-dir={tmp_path}",
        "--qps-seconds=0.5",
        "--queries=5",
        "--clients=4",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)

    locomo = results["locomo"]
    same = abs(locomo["engram_vector"]["recall@10"] - locomo["numpy_vector"]["recall@10"])
    assert same < 0.05, "Engram's vector channel searched the vectors numpy searched"
    assert 0 < locomo["engram_full"]["recall@10"] <= 1
    assert 0 < locomo["numpy_hybrid"]["recall@10"] <= 1
    assert locomo["engram_builtin_import_per_s"] > 0 and locomo["numpy_import_per_s"] > 0
    assert (tmp_path / "cache" / "e5-vectors.npz").is_file()

    size = results["sizes"]["300"]
    load = size["load"]["engram"]
    assert (load["stored"], load["with_vectors"], load["finished"]) == (300, 300, True)
    assert size["agreement"]["engram"] == 1.0, "Engram searched the very vectors the baseline holds"
    for key in ("engram hybrid", "engram bm25", "engram vector", "engram list", "numpy hybrid"):
        assert size["qps"][key]["completed"] > 0 and size["qps"][key]["errors"] == 0, key
    for key in ("engram hybrid", "engram hybrid unfiltered", "numpy vector"):
        assert size["latency"][key]["returned"] == 10, key
    http = size["http"]
    for key in ("ceiling healthz", "bm25", "list", "hybrid server-embedded", "embedder alone"):
        assert http[key]["completed"] > 0 and http[key]["errors"] == 0, key
    assert size["rss"]["engram"]["rss_mib"] > 0
    assert not list(tmp_path.glob("engram-peers-*")), "the stores are removed without --keep"


@pytest.mark.postgres
def test_peers_bench_runs_engram_on_postgresql(tmp_path: Path, postgres_server: str) -> None:
    """``--database-url``: the library and the server store on PostgreSQL, a schema per store,
    dropped at the end; the figures are those of the SQLite run."""
    command = [
        sys.executable,
        str(BENCH),
        "--sizes=300",
        "--systems=engram,engram-http",
        "--no-locomo",
        f"--work-dir={tmp_path}",
        "--qps-seconds=0.5",
        "--queries=5",
        "--clients=4",
        f"--database-url={postgres_server}",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    size = json.loads(done.stdout)["sizes"]["300"]
    load = size["load"]["engram"]
    assert (load["stored"], load["with_vectors"], load["finished"]) == (300, 300, True)
    assert load["store"].startswith("PostgreSQL ") and "(schema peers_s300_" in load["store"], load["store"]
    assert size["latency"]["engram hybrid"]["returned"] == 10
    assert size["http"]["bm25"]["completed"] > 0 and size["http"]["bm25"]["errors"] == 0
    with psycopg.connect(postgres_server) as conn:
        left = conn.execute("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'peers_%'").fetchone()
    assert left == (0,), "the bench drops the schemas it made"
