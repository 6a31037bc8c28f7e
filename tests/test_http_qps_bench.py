"""bench/http_qps.py, run as a person would: a tiny store, wrk against engram serve, every series
answered without an error and the health check beside the routes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import LOCOMO_DEV

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[1] / "bench" / "http_qps.py"


@pytest.mark.skipif(shutil.which("wrk") is None, reason="needs wrk on the PATH (Debian: apt-get install wrk)")
@pytest.mark.skipif(not LOCOMO_DEV.is_file(), reason=f"the bench's store is built from {LOCOMO_DEV}")
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


@pytest.mark.parametrize("argument", ["--seconds=0.5", "--connections=0", "--episodes=-3", "--workers=0"])
def test_http_qps_bench_refuses_a_count_below_one_naming_it(argument: str) -> None:
    done = subprocess.run([sys.executable, str(BENCH), argument], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and argument.split("=")[0] in done.stderr and "at least 1" in done.stderr


@pytest.mark.skipif(shutil.which("wrk") is None, reason="needs wrk on the PATH (Debian: apt-get install wrk)")
@pytest.mark.skipif(not LOCOMO_DEV.is_file(), reason=f"the bench's store is built from {LOCOMO_DEV}")
def test_http_qps_bench_mixes_in_batch_writers_and_a_health_probe() -> None:
    command = [
        sys.executable,
        str(BENCH),
        "--episodes=300",
        "--seconds=1",
        "--connections=4",
        "--writers=1",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["writers"] == 1
    for kind, row in result["series"].items():
        assert row["batches"] >= 1 and 0 < row["healthz_p50_ms"] <= row["healthz_p99_ms"], (kind, row)
        assert row["non_2xx"] == 0, (kind, row)
