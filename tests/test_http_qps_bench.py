"""bench/http_qps.py, run as a person would: a tiny store, wrk against engram serve, every series
answered without an error and the health check beside the routes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[1] / "bench" / "http_qps.py"


@pytest.mark.skipif(shutil.which("wrk") is None, reason="needs wrk on the PATH (Debian: apt-get install wrk)")
def test_http_qps_bench_drives_every_series_without_errors() -> None:
    command = [sys.executable, str(BENCH), "--episodes=300", "--seconds=1", "--connections=8", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert set(result["series"]) == {"BASELINE GET /healthz", "filtered list", "filtered BM25 search"}
    for kind, row in result["series"].items():
        assert row["requests"] > 0 and row["qps"] > 0, kind
        assert row["non_2xx"] == 0 and not row["socket_errors"], (kind, row)
        assert 0 < row["p50_ms"] <= row["p99_ms"], (kind, row)
        assert row["server_cpu_ms_per_request"] > 0, kind


def test_http_qps_bench_says_what_to_install_without_wrk(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": str(tmp_path)},
    )
    assert done.returncode != 0 and "apt-get install wrk" in done.stderr
