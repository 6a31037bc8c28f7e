"""Query embeddings cached by text: the same query text is embedded once (an LRU of its vectors).

Agents repeat queries (retries, polling, several agents asking the same thing), and a query
embedding costs ~18 ms of CPU with the packaged model, the largest part of a hybrid search.
Documents pass through: they are embedded once anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from engram.nlp.embed import Embedder, Vectors


class CachedQueries:
    """An Embedder that remembers the vectors of the last ``size`` distinct query texts (thread-safe)."""

    def __init__(self, embedder: Embedder, size: int) -> None:
        self.inner = embedder
        self.name = embedder.name
        self.dimensions = embedder.dimensions
        self._embed_query = lru_cache(maxsize=size)(self._embed_fresh)

    def _embed_fresh(self, text: str) -> Vectors:
        vector = np.array(self.inner.embed_query(text), dtype=np.float32)
        vector.setflags(write=False)  # shared by every caller of the same text
        return vector

    def embed_query(self, text: str) -> Vectors:
        """Return the query's vector, from the cache when the same text was embedded before."""
        return self._embed_query(text)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Return the documents' vectors (never cached)."""
        return self.inner.embed_documents(texts)

    def cache_info(self) -> tuple[int, int]:
        """Return (hits, misses) so far."""
        info = self._embed_query.cache_info()
        return info.hits, info.misses

    def close(self) -> None:
        """Close the wrapped embedder."""
        self.inner.close()
