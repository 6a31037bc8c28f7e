"""Two ``engram serve`` processes on one PostgreSQL database, as behind a load balancer.

Conditional writers spread over both never lose an update; a write through one is found by
a search through the other at once; concurrent ingestion into two groups never mixes them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest

from conftest import free_port, with_search_path

pytestmark = pytest.mark.slow


def start_server(database_url: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "ENGRAM_DATABASE_URL": database_url, "ENGRAM_EMBEDDER": "none"}
    process = subprocess.Popen(
        [sys.executable, "-m", "engram", "serve", "--port", str(port)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    return process, f"http://127.0.0.1:{port}"


def wait_until_up(process: subprocess.Popen[bytes], base: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stderr = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"engram serve exited with {process.returncode}:\n{stderr}")
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"engram serve at {base} did not come up")


def stop(process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    """Terminate an ``engram serve`` and wait for it (killed past ``seconds``); close its stderr."""
    process.terminate()
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stderr:
        process.stderr.close()


@pytest.fixture(scope="module")
def servers(postgres_server: str) -> Iterator[list[str]]:
    """Yield the base URLs of two ``engram serve`` processes sharing one fresh database schema.

    Started once for the module (a start costs seconds); the tests use distinct words and groups.
    """
    schema = f"mp_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    started = [start_server(with_search_path(postgres_server, schema)) for _ in range(2)]
    try:
        for process, base in started:
            wait_until_up(process, base)
        yield [base for _, base in started]
    finally:
        for process, _ in started:  # all asked to stop first: they shut down side by side
            process.terminate()
        for process, _ in started:
            stop(process, 15)
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def test_conditional_writers_on_two_processes_lose_no_update(servers: list[str]) -> None:
    episode_id = httpx.post(f"{servers[0]}/v1/episodes", json={"content": "shared"}).json()["episode"]["id"]
    url = f"/v1/episodes/{episode_id}"
    writers = 16
    barrier = threading.Barrier(writers)

    def writer(n: int) -> int:
        with httpx.Client(base_url=servers[n % 2], timeout=30) as http:
            barrier.wait()
            while True:
                etag = http.get(url).headers["etag"]
                response = http.patch(url, json={"metadata": {f"w{n}": n}}, headers={"If-Match": etag})
                if response.status_code == 200:
                    return int(response.headers["etag"].strip('"'))
                assert response.status_code == 412, response.text

    with ThreadPoolExecutor(writers) as pool:
        won = list(pool.map(writer, range(writers)))
    assert sorted(won) == list(range(2, writers + 2)), "every success is a distinct version"
    for base in servers:
        final = httpx.get(f"{base}{url}").json()["episode"]
        assert final["version"] == writers + 1
        assert final["metadata"] == {f"w{n}": n for n in range(writers)}, "no update is lost"


def test_a_write_through_one_process_is_found_through_the_other_at_once(servers: list[str]) -> None:
    with httpx.Client(timeout=30) as http:
        for n in range(5):
            word = f"zebracorn{n}"
            created = http.post(f"{servers[n % 2]}/v1/episodes", json={"content": f"the {word} arrived"})
            assert created.status_code == 201
            found = http.post(f"{servers[(n + 1) % 2]}/v1/episodes/search", json={"query": word}).json()
            assert [hit["episode"]["id"] for hit in found["results"]] == [created.json()["episode"]["id"]]
            listed = http.get(f"{servers[(n + 1) % 2]}/v1/episodes", params={"limit": 1}).json()
            assert listed["items"][0]["id"] == created.json()["episode"]["id"]


def test_concurrent_ingestion_into_two_groups_never_mixes_them(servers: list[str]) -> None:
    per_client = 25

    def ingest(n: int) -> None:
        group = "group-a" if n % 2 else "group-b"
        with httpx.Client(base_url=servers[(n // 2) % 2], timeout=30) as http:
            for k in range(per_client):
                body = {"group_id": group, "content": f"{group} note {n}.{k}", "metadata": {"writer": n}}
                assert http.post("/v1/episodes", json=body).status_code == 201

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(ingest, range(8)))
    for group in ("group-a", "group-b"):
        items: list[dict[str, object]] = []
        cursor = None
        while True:
            params: dict[str, str | int] = {"group_id": group, "limit": 500}
            if cursor:
                params["cursor"] = cursor
            page = httpx.get(f"{servers[0]}/v1/episodes", params=params).json()
            items += page["items"]
            cursor = page["next_cursor"]
            if not cursor:
                break
        assert len(items) == 4 * per_client
        assert all(item["group_id"] == group for item in items)
        assert all(str(item["content"]).startswith(group) for item in items)
        hits = httpx.post(
            f"{servers[1]}/v1/episodes/search", json={"query": "note", "group_id": group, "limit": 100}
        ).json()["results"]
        assert hits and all(hit["episode"]["group_id"] == group for hit in hits)
