"""What a database backend supplies beside the shared SQL: connections, full text, vectors, upkeep.

engram.storage.engine.SQLStorage implements the whole storage protocol once, over one
Backend. A backend supplies only what really differs between databases: how connections and
transactions are made (a writer thread on SQLite, a pool and advisory locks on PostgreSQL),
the full-text index (FTS5 versus tsvectors), vectors (numpy matrices versus pgvector), and
upkeep (migrations, statistics, compaction after a purge).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from engram.models.episodes import Episode, EpisodeFilters
from engram.models.graph import Entity, Fact
from engram.storage.sql import Db, Dialect
from engram.storage.types import (
    NewEpisode,
    PendingEntity,
    PendingFact,
    ScoredEpisode,
    Vector,
    fact_text_key,
)

T = TypeVar("T")


class FullText(ABC):
    """The full-text index of episodes (own text and thread context) and of live and archived facts."""

    @abstractmethod
    def add_documents(self, db: Db, items: Sequence[NewEpisode]) -> Any:
        """Write the ``episode_docs`` rows of new episodes, before their versions; return what
        ``index_added`` needs."""

    def added_docs(self, added: Any) -> list[int] | None:
        """Return the doc number ``add_documents`` gave each new episode, in order, where the
        database numbers documents (SQLite); None where it does not."""
        return None

    @abstractmethod
    def index_added(self, db: Db, added: Any) -> None:
        """Index the new episodes (their versions are stored) and refresh their neighbours' context."""

    @abstractmethod
    def refresh(self, db: Db, group_id: str, episode_ids: Sequence[str]) -> None:
        """Rewrite these episodes' index rows from their text and their current thread neighbours."""

    @abstractmethod
    def remove_episode(self, db: Db, group_id: str, episode_id: str) -> None:
        """Delete an episode's index rows and its ``episode_docs`` row (purge)."""

    @abstractmethod
    def search_episodes(
        self, db: Db, group_id: str, terms: Sequence[str], filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return up to ``limit`` held episodes matching any term, best BM25 first."""

    @abstractmethod
    def index_fact(self, db: Db, fact: Fact, text: str, *, archived: bool = False) -> None:
        """Write (or rewrite) a fact's full-text row, in the live index or the archive's.

        Runs inside the caller's ``Db.pipeline``: it reads nothing where the driver pipelines.
        """

    def put_fact(self, db: Db, insert: str, row: dict[str, Any], fact: Fact, text: str) -> None:
        """Write a new fact version's row (``insert`` with ``row``) and index its ``text``: in two
        statements here, in one where the backend can (as ``index_fact``, reads nothing)."""
        db.run(insert, row)
        self.index_fact(db, fact, text)

    @abstractmethod
    def move_facts(
        self,
        db: Db,
        group_id: str,
        latest: Sequence[Fact],
        index_text: Callable[[Fact], str],
        *,
        archive: bool,
    ) -> None:
        """Move facts' rows into the archive's index (``archive``) or back.

        ``latest`` holds each fact's latest version; ``index_text`` gives its text where the
        index keeps none of its own (SQLite's contentless FTS5).
        """

    @abstractmethod
    def remove_facts(self, db: Db, group_id: str, fact_ids: Sequence[str]) -> None:
        """Delete the facts' rows from both indexes (purge)."""

    @abstractmethod
    def search_facts(
        self,
        db: Db,
        group_id: str,
        terms: Sequence[str],
        where: tuple[str, dict[str, Any]],
        limit: int,
        inactive_weight: float,
        *,
        archived: bool = False,
    ) -> list[tuple[Fact, float]]:
        """Return fact versions (alias ``f``, passing ``where``) matching any term, best first.

        Inactive versions (neither current nor disputed) score ``inactive_weight`` of their match.
        """


PENDING_FACTS = (
    "SELECT f.group_id, f.id, f.fact, f.subject, f.object, s.name, o.name FROM facts f "
    "LEFT JOIN entities s ON s.group_id = f.group_id AND s.id = f.subject AND s.expired_at IS NULL "
    "LEFT JOIN entities o ON o.group_id = f.group_id AND o.id = f.object AND o.expired_at IS NULL"
)
"""Current facts with their subject's and object's current names: what ``pending_facts`` reads
(each backend adds its join to vectors, its order and limit)."""


def pending_facts(db: Db, sql: str, params: dict[str, Any]) -> list[PendingFact]:
    """Return the PendingFact of each row of ``sql``, a PENDING_FACTS query."""
    return [
        PendingFact(
            group_id, fact_id, fact_text_key(fact, subject, other), fact, tuple(n for n in names if n)
        )
        for group_id, fact_id, fact, subject, other, *names in db.tuples(sql, params)
    ]


def weighted(
    hits: Sequence[tuple[Fact, float]], inactive_weight: float, limit: int
) -> list[tuple[Fact, float]]:
    """Return the best ``limit`` facts by similarity, inactive versions at ``inactive_weight`` of theirs."""
    found = [
        (fact, score * (1.0 if fact.status in ("current", "disputed") else inactive_weight))
        for fact, score in hits
    ]
    found.sort(key=lambda hit: (-hit[1], hit[0].id, -hit[0].version))
    return found[:limit]


class Vectors(ABC):
    """Vectors of episodes, facts and entity names, and exact or approximate nearest-neighbour search."""

    def forget(self) -> None:  # noqa: B027 (optional: only a backend with caches overrides it)
        """Drop whatever is cached in memory (after rows were deleted in bulk)."""

    @abstractmethod
    def prepare(self, db: Db, dimensions: int) -> None:
        """Get ready for vectors of ``dimensions``; raise StoreError if others are stored."""

    @abstractmethod
    def clear(self, db: Db) -> int:
        """Delete every vector (episodes, facts, names); return how many there were."""

    @abstractmethod
    def pending_episodes(self, db: Db, limit: int) -> list[Episode]:
        """Return up to ``limit`` current episodes with no vector, oldest first."""

    @abstractmethod
    def put_episodes(self, db: Db, items: Sequence[tuple[Episode, Vector]]) -> None:
        """Store one vector per episode (replacing any); unknown episodes are skipped."""

    @abstractmethod
    def drop_episode(self, db: Db, group_id: str, episode_id: str) -> None:
        """Delete an episode's vector."""

    @abstractmethod
    def search_episodes(
        self, db: Db, group_id: str, vector: Vector, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return up to ``limit`` held episodes nearest to ``vector`` (cosine), best first."""

    @abstractmethod
    def pending_facts(self, db: Db, limit: int) -> list[PendingFact]:
        """Return up to ``limit`` current facts whose current text has no vector, oldest first."""

    @abstractmethod
    def put_facts(self, db: Db, items: Sequence[tuple[PendingFact, Vector]]) -> None:
        """Store one vector per fact (replacing an older text's)."""

    @abstractmethod
    def facts_without(self, db: Db, group_id: str, fact_ids: Sequence[str]) -> set[str]:
        """Return those of ``fact_ids`` that have no vector."""

    @abstractmethod
    def drop_facts(self, db: Db, group_id: str, fact_ids: Sequence[str]) -> None:
        """Delete the facts' vectors."""

    @abstractmethod
    def search_facts(
        self,
        db: Db,
        group_id: str,
        vector: Vector,
        where: tuple[str, dict[str, Any]],
        limit: int,
        inactive_weight: float,
    ) -> list[tuple[Fact, float]]:
        """Return fact versions (alias ``f``, passing ``where``) nearest to ``vector``, best first."""

    @abstractmethod
    def pending_entities(self, db: Db, limit: int) -> list[PendingEntity]:
        """Return up to ``limit`` current entities whose name has no vector."""

    @abstractmethod
    def put_entities(self, db: Db, items: Sequence[tuple[PendingEntity, Vector]]) -> None:
        """Store one name vector per entity."""

    @abstractmethod
    def drop_entities(self, db: Db, group_id: str, entity_ids: Sequence[str]) -> None:
        """Delete the entities' name vectors."""

    @abstractmethod
    def nearest_entities(
        self, db: Db, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        """Return up to ``limit`` current entities (of ``types``; any when empty) whose name vector has
        cosine ≥ ``floor`` with ``vector``, best first."""


class Backend(ABC):
    """Connections, transactions and the database-specific indexes of one store."""

    dialect: Dialect
    fulltext: FullText
    vectors: Vectors
    errors: tuple[type[Exception], ...]
    """The driver's exceptions, for callers that turn them into StoreError."""

    @abstractmethod
    def read(self) -> AbstractContextManager[Db]:
        """Yield a connection for reads outside any write transaction."""

    @abstractmethod
    def write(self, fn: Callable[[Db], T]) -> T:
        """Run ``fn(db)`` in one write transaction and return its result; roll back on error."""

    @abstractmethod
    def snapshot(self) -> AbstractContextManager[Db]:
        """Yield a connection whose reads all see one snapshot (an export)."""

    def batch_insert(self, db: Db, count: int) -> AbstractContextManager[None]:
        """Return the context in which a batch writes ``count`` new episodes and their vectors.

        A backend whose per-row triggers cost more than the rows may do their work once per
        batch instead (SQLite: engram.storage.sqlite.bulk); the default changes nothing.
        """
        return nullcontext()

    def loading_vectors(self) -> AbstractContextManager[None]:
        """Return the context in which many episode vectors are stored as one load.

        A backend whose vector index is cheaper built once after the rows than kept up row by
        row may drop it first and build it at the end (PostgreSQL); the default changes nothing.
        """
        return nullcontext()

    def given_vectors(self, count: int) -> None:  # noqa: B027 (most backends keep no load)
        """Note that ``count`` episode vectors came with their episodes (committed): a load
        (``loading_vectors``) may now find its index cheaper built after it; by default nothing."""

    @abstractmethod
    def inserted(self, rows: int) -> None:
        """Note that ``rows`` rows were added (planner statistics are refreshed as tables grow)."""

    @abstractmethod
    def compact(self) -> None:
        """Rewrite storage so no byte of deleted rows remains (after a purge)."""

    @abstractmethod
    def describe(self) -> str:
        """Return where the data lives, for people (no password)."""

    @abstractmethod
    def integrity_check(self) -> str | None:
        """Return the database's integrity verdict ("ok"), or None when it has no cheap one."""

    @abstractmethod
    def close(self) -> None:
        """Release connections and threads."""
