"""Vectors of the knowledge graph: fact sentences and entity names (issue #4), beside GraphStore.

Like episode vectors, they are computed after the write from a durable queue that is the
store itself: a current fact whose text (sentence, subject, object) has no vector made from
that text is pending, and so is a current entity whose name has none. The indexer drains
them after the episodes (engram.ingest.indexer); ``clear_graph_vectors`` drops them with the
episode vectors when the embedder changes (``engram reembed``).

Entity-name vectors also serve resolution inside a graph write: a GraphTxn that is also an
EntityVectorTxn proposes the nearest entities of a mention's name, and stores the vector of
a new entity's name at once (the writer embedded it before the transaction began).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from engram.models.graph import Entity, Fact
from engram.storage.graph_protocol import FactQuery

Vector = npt.NDArray[np.float32]
KEY_SEPARATOR = "\x1f"


def fact_text_key(sentence: str, subject: str, object_: str | None) -> str:
    """Return what a fact's vector is made from, as stored: sentence, subject id, object id (U+001F)."""
    return KEY_SEPARATOR.join((sentence, subject, object_ or ""))


@dataclass(frozen=True, slots=True)
class PendingFact:
    """A fact waiting for its vector: ``names`` are its subject's and object's current names."""

    group_id: str
    id: str
    text_key: str
    sentence: str
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PendingEntity:
    """An entity waiting for the vector of its (current) name."""

    group_id: str
    id: str
    name: str


@runtime_checkable
class GraphVectors(Protocol):
    """Storage and search of fact and entity-name vectors."""

    def prepare_graph_vectors(self, dimensions: int) -> None:
        """Make the store ready for vectors of ``dimensions`` (PostgreSQL: column types, HNSW indexes).

        Raises StoreError when it already holds vectors of another dimension.
        """
        ...

    def pending_fact_vectors(self, limit: int) -> list[PendingFact]:
        """Return up to ``limit`` current facts whose current text has no vector, oldest first."""
        ...

    def put_fact_vectors(self, items: Sequence[tuple[PendingFact, Vector]]) -> None:
        """Store one vector per fact (replacing an older text's), in one transaction."""
        ...

    def facts_without_vectors(self, group_id: str, fact_ids: Sequence[str]) -> set[str]:
        """Return those of ``fact_ids`` that have no vector yet (written since the indexer last ran)."""
        ...

    def search_fact_vectors(
        self, group_id: str, vector: Vector, query: FactQuery, limit: int
    ) -> list[tuple[Fact, float]]:
        """Return fact versions matching ``query`` nearest to ``vector``, best first.

        The score is the cosine similarity, times ``query.inactive_weight`` for versions that
        are neither current nor disputed (as search_facts weighs BM25).
        """
        ...

    def pending_entity_vectors(self, limit: int) -> list[PendingEntity]:
        """Return up to ``limit`` current entities whose name has no vector."""
        ...

    def put_entity_vectors(self, items: Sequence[tuple[PendingEntity, Vector]]) -> None:
        """Store one name vector per entity, in one transaction."""
        ...

    def search_entity_vectors(
        self, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        """Return up to ``limit`` current entities (of ``types``; any when empty) whose name vector
        has cosine ≥ ``floor`` with ``vector``, best first."""
        ...

    def clear_graph_vectors(self) -> int:
        """Delete every fact and entity vector (and their dimension); return how many."""
        ...


@runtime_checkable
class EntityVectorTxn(Protocol):
    """Entity-name vectors inside a graph write (a GraphTxn that has them)."""

    def nearest_entities(
        self, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        """Return up to ``limit`` current entities of ``types`` whose name vector has cosine ≥ ``floor``.

        Best first; the transaction's own new entities are included.
        """
        ...

    def put_entity_vector(self, entity: Entity, vector: Vector) -> None:
        """Store the vector of ``entity.name`` (made before the transaction)."""
        ...
