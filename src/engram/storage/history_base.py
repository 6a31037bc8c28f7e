"""The history side of the Store protocol: the operation log, version bookkeeping, retraction, purge.

Every row version names the operation that created it (``operation_id``) and the one that
closed it (``expired_by``), so an operation's effect is exactly those versions; revert and
delete (engram.history) are built from the few primitives below, inside ``graph_write``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from engram.models.episodes import Episode, Operation
from engram.models.graph import Entity, Fact
from engram.storage.graph_protocol import GraphTxn

ObjectKind = Literal["episode", "entity", "fact"]
Reword = Callable[[Fact, str | None, str | None], tuple[str, str]]
"""(fact, subject name, object name) -> (sentence, full-text index text) in no episode's words."""
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class VersionRef:
    """One stored version of an episode, entity or fact, and the operations that opened and closed it."""

    kind: ObjectKind
    id: str
    version: int
    created_by: str
    closed_by: str | None
    expired_at: datetime | None


@dataclass(frozen=True, slots=True)
class OperationQuery:
    """Which operations to list: by kind, time (``after`` inclusive, ``before`` exclusive) and object."""

    kinds: Sequence[str] = ()
    after: datetime | None = None
    before: datetime | None = None
    entity_id: str | None = None
    episode_id: str | None = None


def entities_unmentioned(details: dict[str, Any], episode_id: str) -> set[str]:
    """Return the entities whose mentions of ``episode_id`` an operation removed (from its details).

    A delete records them under ``mentions_removed`` (entity, episode, operation); a revert of
    an ingest under each of its ``retracted`` episodes. Purge reads them: an entity only a
    deleted episode mentioned has no mention row left, yet only that episode supports it.
    """
    found: set[str] = set()
    for part in [details, *details.get("retracted", [])]:
        for removed in part.get("mentions_removed", []):
            if len(removed) >= 2 and removed[1] == episode_id:
                found.add(str(removed[0]))
    return found


@dataclass(frozen=True, slots=True)
class PurgeReport:
    """What a purge removed, in rows (the purge's audit record keeps these counts, no content)."""

    episode_versions: int
    facts: int
    entities: int
    mentions: int


class HistoryTxn(GraphTxn, Protocol):
    """Reads and writes of past versions inside one graph transaction."""

    def operation(self, group_id: str, operation_id: str) -> Operation | None:
        """Return a recorded operation."""
        ...

    def touched_by(self, group_id: str, operation_id: str) -> list[VersionRef]:
        """Return every version the operation created or closed (episodes, entities, facts)."""
        ...

    def versions(self, group_id: str, kind: ObjectKind, object_id: str) -> list[VersionRef]:
        """Return every version of one object, oldest first."""
        ...

    def episode_version(self, group_id: str, episode_id: str, version: int) -> Episode | None:
        """Return one stored version of an episode."""
        ...

    def entity_version(self, group_id: str, entity_id: str, version: int) -> Entity | None:
        """Return one stored version of an entity."""
        ...

    def fact_version(self, group_id: str, fact_id: str, version: int) -> Fact | None:
        """Return one stored version of a fact."""
        ...

    def facts_citing(self, group_id: str, episode_id: str) -> list[Fact]:
        """Return the current version of every fact whose provenance includes the episode."""
        ...

    def put_episode_version(self, episode: Episode) -> None:
        """Store an episode version (closing the current one, if any, by ``episode.operation_id``).

        Re-indexes the thread context around it: a restored episode is searchable again.
        """
        ...

    def close_episode(self, group_id: str, episode_id: str, at: datetime, operation_id: str) -> None:
        """End an episode's current version with no successor (retracted).

        Its vector is dropped and its neighbours' thread context no longer includes it, so no
        search channel returns its content; its versions stay for history and revert.
        """
        ...

    def close_fact(self, group_id: str, fact_id: str, at: datetime, operation_id: str) -> None:
        """End a fact's current version with no successor and drop it from full-text search."""
        ...

    def remove_mentions(
        self, group_id: str, *, operation_id: str | None = None, episode_id: str | None = None
    ) -> list[tuple[str, str, str | None]]:
        """Delete the mentions an operation added, or an episode's; return (entity, episode, operation)."""
        ...

    def record_history_operation(self, operation: Operation) -> None:
        """Store an operation with its details as given."""
        ...

    def archive_fact_ids(
        self,
        group_id: str,
        fact_ids: Sequence[str],
        operation: Operation,
        index_text: Callable[[Fact], str],
    ) -> tuple[list[str], int]:
        """Move every version of the live facts among ``fact_ids`` to the archive, archived by ``operation``.

        Like FactArchive.archive_facts without its selection: their full-text row moves to the
        archive's index (``index_text(latest version)`` on SQLite) and their vector is dropped.
        Ids not in ``facts`` are skipped. Returns (ids moved, versions moved).
        """
        ...

    def unarchive_facts(
        self,
        group_id: str,
        fact_ids: Sequence[str],
        index_text: Callable[[Fact], str],
        *,
        archived_by: str | None = None,
    ) -> list[str]:
        """Move every version of the archived facts among ``fact_ids`` back to ``facts``; return their ids.

        Only facts archived by the operation ``archived_by`` when given; ids not in the archive
        (never archived, restored or purged since) are skipped. Versions keep their operations
        and times; the live full-text row is rebuilt (``index_text(latest version)`` on SQLite)
        and the archive's dropped; the vector waits for the indexer again.
        """
        ...

    def archived_superseded_by(self, group_id: str, fact_id: str) -> list[str]:
        """Return the archived facts whose latest version is superseded by ``fact_id``."""
        ...


@runtime_checkable
class HistoryStore(Protocol):
    """The operation log and the history transaction of a store."""

    def history_write(self, fn: Callable[[HistoryTxn], T]) -> T:
        """Run ``fn(txn: HistoryTxn)`` in one write transaction and return its result; roll back on error."""
        ...

    def list_operations(
        self, group_id: str, query: OperationQuery, limit: int, after_key: tuple[datetime, str] | None
    ) -> list[Operation]:
        """Return operations matching ``query``, newest first, after the (created_at, id) key."""
        ...

    def get_operation(self, group_id: str, operation_id: str) -> Operation | None:
        """Return one operation."""
        ...

    def operation_effects(self, group_id: str, operation_id: str) -> list[VersionRef]:
        """Return every version the operation created or closed."""
        ...

    def purge_episode(
        self, group_id: str, episode_id: str, operation: Operation, reword: Reword
    ) -> PurgeReport:
        """Erase an episode and everything derived only from it, irreversibly; record ``operation``.

        A fact other episodes still support keeps them, but if the purged episode worded it
        first, every version gets ``reword(latest version, subject name, object name)``'s
        sentence and full-text text instead (and its vector is dropped, to be made again).

        Removes every version, its full-text and vector rows, facts backed only by it, entities
        only it mentioned, and its id from other facts' provenance; then compacts the indexes
        and the file so no byte of the content remains. Raises NotFound.
        """
        ...
