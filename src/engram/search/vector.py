"""The vector channel: dense retrieval over episode embeddings, plus the store/embedder pact.

A store's vectors are only comparable with queries embedded by the same model, so the
store records which embedder made them (``store_meta``); opening it with another is an
error that names both and the way out (``engram reembed``).
"""

from __future__ import annotations

from engram.errors import StoreError
from engram.models.episodes import EpisodeFilters
from engram.nlp.embed import Embedder
from engram.search.engine import ChannelHit
from engram.search.query import ParsedQuery
from engram.storage.protocol import Storage

EMBEDDER_META_KEY = "embedder"


def embedder_signature(embedder: Embedder) -> str:
    """Return how a store records an embedder: ``<name>/<dimensions>``."""
    return f"{embedder.name}/{embedder.dimensions}"


def check_embedder(store: Storage, embedder: Embedder, *, reset: bool = False) -> None:
    """Record ``embedder`` in a store that has none; raise StoreError if it has another.

    With ``reset`` every stored vector (episodes, facts, entity names) is deleted first and
    ``embedder`` recorded. The store is then prepared for its dimension.
    """
    wanted = embedder_signature(embedder)
    if reset:
        store.clear_vectors()
    recorded = store.get_meta(EMBEDDER_META_KEY)
    if recorded is None or reset:
        store.set_meta(EMBEDDER_META_KEY, wanted)
    elif recorded != wanted:
        raise StoreError(
            f"this store's vectors were made by {recorded}, but the configured embedder is {wanted}; "
            "run `engram reembed` to re-embed every episode with the configured one "
            "(or set ENGRAM_EMBEDDER back)",
            field="embedder",
        )
    store.prepare_vectors(embedder.dimensions)


class VectorChannel:
    """Dense retrieval: cosine similarity between the query's and the episodes' embeddings."""

    name = "vector"

    def __init__(self, store: Storage, embedder: Embedder) -> None:
        self._store = store
        self._embedder = embedder

    def search(
        self, group_id: str, query: ParsedQuery, filters: EpisodeFilters, limit: int
    ) -> list[ChannelHit]:
        """Return the episodes nearest to the query text."""
        vector = self._embedder.embed_query(query.text)
        return [
            ChannelHit(m.episode, m.score)
            for m in self._store.search_vectors(group_id, vector, filters, limit)
        ]
