"""An embedder for stores whose episodes bring their own vectors: every text gets one fixed vector."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engram.nlp.embed import Vectors, normalise

DIMENSIONS = 4


class FixedEmbedder:
    """A 4-dimension embedder: the store checks given vectors against ``dimensions``; queries all
    get the same unit vector (the tests count hits, they do not rank them)."""

    name = "fixed"
    dimensions = DIMENSIONS

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return np.stack([self.embed_query(text) for text in texts])

    def embed_query(self, text: str) -> Vectors:
        return normalise(np.ones(DIMENSIONS, dtype=np.float32))

    def close(self) -> None:
        pass
