"""Requests run on a bounded pool of threads per server process (``ENGRAM_REQUEST_THREADS``).

anyio's default of 40 threads only made fifty clients' requests contend for the GIL; the pool is
now the setting's size (8 by default). With one thread, a request's two hops (the key check, then
the route) still never wait on each other, and concurrent writes and searches all complete.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio.to_thread
import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from conftest import LOOPBACK, serving
from engram import Memory, Settings
from engram.api.app import create_app
from engram.cli import app as cli


async def _threads() -> int:
    return int(anyio.to_thread.current_default_thread_limiter().total_tokens)


@pytest.mark.parametrize(("configured", "expected"), [({}, 8), ({"request_threads": 3}, 3)])
def test_the_server_runs_requests_on_the_configured_threads(
    tmp_path: Path, configured: dict[str, int], expected: int
) -> None:
    settings = Settings(data_dir=tmp_path / "data", embedder="none", **configured)
    with (
        Memory.open(settings=settings) as memory,
        TestClient(create_app(memory), base_url=LOOPBACK) as client,
    ):
        assert client.portal is not None
        assert client.portal.call(_threads) == expected
        assert client.get("/v1/episodes").status_code == 200


def test_one_request_thread_serves_concurrent_writes_and_searches(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extractor="none", request_threads=1)

    def write_then_search(i: int) -> list[str]:
        with httpx.Client(base_url=base, timeout=60) as http:
            created = http.post("/v1/episodes", json={"content": f"parcel {i} shipped to depot{i}"})
            assert created.status_code == 201, created.text
            found = http.post("/v1/episodes/search", json={"query": f"depot{i}"})
            assert found.status_code == 200, found.text
            return [hit["episode"]["content"] for hit in found.json()["results"]]

    with Memory.open(settings=settings) as memory, serving(memory) as base:
        with ThreadPoolExecutor(max_workers=12) as clients:
            answers = list(clients.map(write_then_search, range(24)))
        assert answers == [[f"parcel {i} shipped to depot{i}"] for i in range(24)]
        assert len(memory.list_episodes(limit=100).items) == 24


def test_serve_refuses_no_request_threads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_REQUEST_THREADS", "0")
    result = CliRunner().invoke(cli, ["serve", "--data-dir", str(tmp_path / "data"), "--port", "8799"])
    assert result.exit_code == 2, result.output
    assert "ENGRAM_REQUEST_THREADS" in result.stderr and "greater than or equal to 1" in result.stderr
