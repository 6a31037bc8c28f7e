"""At most ``ENGRAM_CONCURRENT_READS`` REST reads and ``ENGRAM_CONCURRENT_WRITES`` writes run at
once per server process, so writes stuck behind the database's lock, however many, never take the
threads reads and /healthz need.

Through a real uvicorn server and HTTP clients, on a SQLite file another connection locks.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import apsw
import httpx
import pytest
from typer.testing import CliRunner

from conftest import serving
from engram import Memory, Settings
from engram.cli import app as cli


def settings(tmp_path: Path, reads: int) -> Settings:
    return Settings(data_dir=tmp_path / "data", embedder="none", extractor="none", concurrent_reads=reads)


def test_no_more_reads_than_configured_run_at_once(tmp_path: Path) -> None:
    with Memory.open(settings=settings(tmp_path, 2)) as memory, serving(memory) as base:
        memory.create_episode({"content": "the parcel reached the depot"})
        running, most = 0, 0
        lock = threading.Lock()
        search = memory.search_episodes

        def counted_search(*args: Any, **kwargs: Any) -> Any:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
            try:
                time.sleep(0.05)  # long enough for the other clients' searches to arrive meanwhile
                return search(*args, **kwargs)
            finally:
                with lock:
                    running -= 1

        memory.search_episodes = counted_search  # type: ignore[method-assign]

        def ask(_: int) -> list[str]:
            with httpx.Client(base_url=base, timeout=60) as http:
                found = http.post("/v1/episodes/search", json={"query": "depot"})
                assert found.status_code == 200, found.text
                return [hit["episode"]["content"] for hit in found.json()["results"]]

        with ThreadPoolExecutor(12) as clients:
            answers = list(clients.map(ask, range(12)))
    assert answers == [["the parcel reached the depot"]] * 12
    assert most == 2, f"{most} searches ran at once"


def test_writes_waiting_on_the_database_lock_hold_up_no_read(tmp_path: Path) -> None:
    with Memory.open(settings=settings(tmp_path, 2)) as memory, serving(memory) as base:
        memory.create_episode({"content": "the parcel reached the depot"})
        other = apsw.Connection(str(tmp_path / "data" / "engram.db"))
        other.execute("BEGIN IMMEDIATE")  # another process's import holding SQLite's write lock

        def write(i: int) -> int:
            with httpx.Client(base_url=base, timeout=60) as http:
                return http.post("/v1/episodes", json={"content": f"note {i}"}).status_code

        # More writes than the route pool's 40 threads: before the write slots, they took every one.
        with ThreadPoolExecutor(45) as writers:
            writes = [writers.submit(write, i) for i in range(45)]
            time.sleep(1.5)  # sixteen are in their routes waiting for the lock, the rest for a slot
            with httpx.Client(base_url=base, timeout=5) as http:
                assert http.get("/healthz").status_code == 200
                found = http.post("/v1/episodes/search", json={"query": "depot"})
                listed = http.get("/v1/episodes")
            assert found.status_code == 200 and len(found.json()["results"]) == 1
            assert listed.status_code == 200 and len(listed.json()["items"]) == 1
            assert not any(w.done() for w in writes), "the writes were still waiting for the lock"
            other.execute("COMMIT")
            assert [w.result() for w in writes] == [201] * 45
        other.close()
        assert len(memory.list_episodes(limit=100).items) == 46


def test_serve_refuses_no_concurrent_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_CONCURRENT_READS", "0")
    result = CliRunner().invoke(cli, ["serve", "--data-dir", str(tmp_path / "data"), "--port", "8799"])
    assert result.exit_code == 2, result.output
    assert "ENGRAM_CONCURRENT_READS" in result.stderr and "greater than or equal to 1" in result.stderr


def test_a_write_that_outwaits_the_lock_is_a_503_to_retry(tmp_path: Path) -> None:
    """SQLite's busy timeout (10 s) ends the wait: a 503 with Retry-After, nothing half-written."""
    with Memory.open(settings=settings(tmp_path, 8)) as memory, serving(memory) as base:
        other = apsw.Connection(str(tmp_path / "data" / "engram.db"))
        other.execute("BEGIN IMMEDIATE")
        try:
            refused = httpx.post(f"{base}/v1/episodes", json={"content": "late note"}, timeout=60)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert refused.status_code == 503, refused.text
        assert refused.headers["Retry-After"] == "1"
        assert refused.json()["title"] == "Store busy" and "retry" in refused.json()["detail"]
        assert memory.list_episodes().items == []
        again = httpx.post(f"{base}/v1/episodes", json={"content": "late note"}, timeout=60)
        assert again.status_code == 201
