"""The graph side of the Store protocol: entities, facts, mentions and merge candidates.

Writes happen inside ``graph_write(fn)``: ``fn`` receives a GraphTxn whose reads see the
transaction's own writes, so resolution and arbitration decide on a consistent graph and
commit (or roll back) with the episode's operation as one unit. Rows are append-only
versions: putting version n+1 closes version n (``expired_at``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, TypeVar, runtime_checkable

from engram.models.episodes import Operation
from engram.models.graph import Entity, Fact

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class FactQuery:
    """Which facts to read: time travel and history (DESIGN.md §4).

    ``known_at`` (transaction time) reads the versions the memory held then; ``as_of``
    (valid time) keeps facts true at that moment, superseded ones included; by default
    only current and disputed facts are returned, or every status with ``include_history``.
    ``inactive_weight`` multiplies the search score of inactive (superseded, retracted)
    versions, so that a current fact outranks an equally matching old one (1: no decay).
    """

    as_of: datetime | None = None
    known_at: datetime | None = None
    include_history: bool = False
    subject: str | None = None
    predicate: str | None = None
    inactive_weight: float = 1.0


@dataclass(frozen=True, slots=True)
class MergeCandidate:
    """A possible duplicate the resolver recorded for review."""

    entity_id: str
    candidate_id: str
    score: float
    parts: dict[str, float]
    created_at: datetime


class GraphTxn(Protocol):
    """Reads and writes inside one graph transaction."""

    def entities_named(self, group_id: str, name_keys: Sequence[str]) -> list[Entity]:
        """Return current entities whose normalised name or alias is one of ``name_keys``."""
        ...

    def entities_of_type(self, group_id: str, type_: str, limit: int) -> list[Entity]:
        """Return up to ``limit`` current entities of a type, most recently seen first."""
        ...

    def entity(self, group_id: str, entity_id: str) -> Entity | None:
        """Return an entity's current version."""
        ...

    def related(self, group_id: str, entity_id: str) -> tuple[set[str], set[str]]:
        """Return (entities linked to it by current facts, threads of episodes mentioning it)."""
        ...

    def put_entity(self, entity: Entity, name_keys: Sequence[str]) -> None:
        """Store an entity version (closing the previous one) and index its names."""
        ...

    def facts_about(self, group_id: str, subject: str, predicate: str) -> list[Fact]:
        """Return the current and disputed facts with this subject and predicate."""
        ...

    def put_fact(self, fact: Fact, index_text: str) -> None:
        """Store a fact version (closing the previous one) and index ``index_text``."""
        ...

    def facts_touching(self, group_id: str, entity_id: str) -> list[Fact]:
        """Return every current fact whose subject or object is the entity (any status)."""
        ...

    def close_entity(self, group_id: str, entity_id: str, at: datetime, operation_id: str) -> None:
        """End an entity's current version (it was merged away by ``operation_id``); forget its names."""
        ...

    def episodes_mentioning(self, group_id: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        """Return ids of episodes that mention any of the entities, newest first."""
        ...

    def add_mentions(
        self, group_id: str, episode_id: str, entity_ids: Sequence[str], operation_id: str
    ) -> None:
        """Record that an episode mentions these entities (added by ``operation_id``)."""
        ...

    def add_merge_candidate(self, group_id: str, candidate: MergeCandidate) -> None:
        """Record a possible duplicate for review."""
        ...

    def record_operation(self, operation: Operation, details: dict[str, object]) -> None:
        """Store the operation these changes belong to."""
        ...


@runtime_checkable
class GraphStore(Protocol):
    """Storage of the knowledge graph, scoped by group."""

    def graph_write(self, fn: Callable[[GraphTxn], T]) -> T:
        """Run ``fn`` in one write transaction and return its result; roll back on error."""
        ...

    def get_entity(self, group_id: str, entity_id: str, known_at: datetime | None = None) -> Entity | None:
        """Return an entity as the memory held it (now, or at ``known_at``)."""
        ...

    def entity_history(self, group_id: str, entity_id: str) -> list[Entity]:
        """Return every version of an entity, oldest first."""
        ...

    def find_facts(self, group_id: str, query: FactQuery, limit: int) -> list[Fact]:
        """Return facts matching ``query``, newest valid time first."""
        ...

    def search_facts(
        self, group_id: str, terms: Sequence[str], query: FactQuery, limit: int
    ) -> list[tuple[Fact, float]]:
        """Return facts whose sentence or names match any term, best BM25 first."""
        ...

    def search_entities(
        self, group_id: str, name_keys: Sequence[str], types: Sequence[str], limit: int
    ) -> list[Entity]:
        """Return current entities whose names contain any key, of the given types (all if empty)."""
        ...

    def entities_with_names(self, group_id: str, name_keys: Sequence[str]) -> list[Entity]:
        """Return current entities whose normalised name or alias equals one of ``name_keys``."""
        ...

    def merge_candidates(self, group_id: str) -> list[MergeCandidate]:
        """Return the recorded merge candidates, best score first."""
        ...

    def mentioned_entities(self, group_id: str, episode_id: str) -> list[str]:
        """Return the ids of entities an episode mentions."""
        ...

    def episodes_mentioning(self, group_id: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        """Return ids of episodes that mention any of the entities, newest first."""
        ...


@runtime_checkable
class FactArchive(Protocol):
    """Decay bookkeeping and cold storage of facts (issue #5), beside GraphStore.

    A store without it serves the graph without hit recording or archive; the service says so
    when asked to archive or to read archived facts.
    """

    def record_fact_hits(self, group_id: str, fact_ids: Sequence[str], at: datetime) -> None:
        """Remember that a search returned these facts at ``at``; may buffer (written within seconds)."""
        ...

    def flush_fact_hits(self) -> None:
        """Write buffered hits now (before an archive reads them, and at close)."""
        ...

    def archive_facts(
        self,
        group_id: str,
        cutoff: datetime,
        operation: Operation,
        index_text: Callable[[GraphTxn, Fact], str],
        *,
        dry_run: bool,
    ) -> tuple[list[str], int]:
        """Move every version of the group's archivable facts to the archive, in one transaction.

        Archivable: the latest version is inactive (not current or disputed, or closed), was
        recorded (or closed) before ``cutoff``, and no search ever returned the fact.
        ``index_text(txn, latest)`` gives the archived full-text row. Records ``operation`` with
        the fact ids when anything moved. Returns (fact ids, versions moved); ``dry_run``
        returns what would move and changes nothing.
        """
        ...

    def search_archived_facts(
        self, group_id: str, terms: Sequence[str], query: FactQuery, limit: int
    ) -> list[tuple[Fact, float]]:
        """Return archived fact versions matching ``query`` like GraphStore.search_facts does live ones."""
        ...
