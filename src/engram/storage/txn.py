"""The one write transaction of the knowledge graph and the history: reads that see its own writes.

Resolution, arbitration, merges, reverts and deletes run inside ``Storage.write(fn)``: ``fn``
receives a Txn and everything it does commits (or rolls back) as one unit with its operation.
Before its first statement about a group the transaction takes that group's graph lock
(PostgreSQL: graph writers of one group serialise; SQLite's single writer needs none).
Current entities it reads, and which entities each name it looked up finds, are remembered and
kept current as it writes entities (no other writer can: the group is locked), which saves
repeated lookups while one batch of extractions stores many facts. So are the facts about
entities it created: no fact about them can exist that it did not write, so asking for their
live facts needs no read (on PostgreSQL a read waits for every write sent before it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from copy import deepcopy
from datetime import datetime

from engram.models.episodes import Episode, Operation
from engram.models.graph import Entity, Fact
from engram.storage import archive, episodes, extraction_queue, graph, history
from engram.storage.backend import Backend
from engram.storage.name_pools import NamePools
from engram.storage.rows import episode_params, insert_episode_sql, insert_operation
from engram.storage.sql import Db
from engram.storage.types import MergeCandidate, ObjectKind, OperationQuery, PendingEntity, Vector, VersionRef

_LIVE = ("current", "disputed")
"""The statuses Txn.facts_about returns."""


def _copied(entity: Entity) -> Entity:
    """Return a copy of ``entity`` that shares nothing mutable with it: its lists and dicts are
    copied deeply, its strings and times shared (half of ``model_copy(deep=True)``'s cost)."""
    fields = vars(entity).items()
    return entity.model_copy(update={name: deepcopy(v) for name, v in fields if isinstance(v, list | dict)})


class Txn:
    """Reads and writes of entities, facts, mentions, candidates and versions inside one transaction."""

    def __init__(self, db: Db, backend: Backend) -> None:
        self._db = db
        self._backend = backend
        self._locked: set[str] = set()
        self._entities: dict[tuple[str, str], Entity | None] = {}
        # (group, name key) → ids of the current entities found by it, for the keys read in this
        # transaction; and (group, entity id) → those of its keys. Exact while the transaction
        # lasts: it holds the group's graph lock, and every entity write passes through here.
        self._named: dict[tuple[str, str], set[str]] = {}
        self._keys_of: dict[tuple[str, str], set[str]] = {}
        self._pools = NamePools()
        # (group, entity id) → the facts about it by id, for the entities whose first version this
        # transaction wrote; and (group, fact id) → the subject it is kept under.
        self._facts_of_new: dict[tuple[str, str], dict[str, Fact]] = {}
        self._kept_under: dict[tuple[str, str], str] = {}
        self.written = 0

    def hold(self, group_id: str) -> None:
        """Take the group's graph lock now (else taken at the first statement about the group):
        another writer of the group's graph waits until this transaction ends."""
        self._group(group_id)

    def begin(
        self, group_id: str, kind: str, summary: str, clock: Callable[[], datetime], actor: str | None
    ) -> Operation:
        """Take the group's graph lock, then return a new operation stamped by ``clock``.

        Stamped once the group is this transaction's, not when it was asked for: a writer that
        waited for another must not close what that one recorded at a time before it was
        recorded (the versions' transaction times follow the order writers committed in).
        """
        self.hold(group_id)
        return Operation.begin(group_id, kind, summary, at=clock(), actor=actor)

    def _group(self, group_id: str) -> Db:
        if group_id not in self._locked:
            self._db.lock([(group_id, "graph")])
            self._locked.add(group_id)
        return self._db

    @contextmanager
    def pipeline(self) -> Iterator[None]:
        """Send the writes of the block without waiting for each (see Db.pipeline)."""
        with self._db.pipeline():
            yield

    # -- entities ----------------------------------------------------------------------------------

    def entities_named(self, group_id: str, name_keys: Sequence[str]) -> list[Entity]:
        """Return current entities whose normalised name or alias is one of ``name_keys``, by id
        (keys read before in this transaction are not read again)."""
        wanted = list(dict.fromkeys(name_keys))
        unread = [key for key in wanted if (group_id, key) not in self._named]
        if unread:
            for key in unread:
                self._named[group_id, key] = set()
            for key, found in graph.entities_by_name(self._group(group_id), group_id, unread):
                self._named[group_id, key].add(found.id)
                self._keys_of.setdefault((group_id, found.id), set()).add(key)
                self._entities[group_id, found.id] = found
        ids = sorted({entity_id for key in wanted for entity_id in self._named[group_id, key]})
        return [entity for entity in (self.entity(group_id, entity_id) for entity_id in ids) if entity]

    def _renamed(self, group_id: str, entity_id: str, name_keys: Sequence[str]) -> None:
        """Keep the name cache exact after an entity's names became ``name_keys``."""
        for key in self._keys_of.pop((group_id, entity_id), set()):
            self._named[group_id, key].discard(entity_id)
        cached = [key for key in name_keys if (group_id, key) in self._named]
        for key in cached:
            self._named[group_id, key].add(entity_id)
        if cached:
            self._keys_of[group_id, entity_id] = set(cached)

    def names_of_type(self, group_id: str, type_: str, limit: int) -> list[tuple[str, list[str]]]:
        """Return (id, [name, *aliases]) of up to ``limit`` current entities of a type, most recently
        seen first."""
        pool = self._pools.get(group_id, type_, limit)
        if pool is None:  # read once a transaction, then kept as its entity writes change it
            rows = graph.names_of_type(self._group(group_id), group_id, type_, limit)
            self._pools.read(group_id, type_, limit, rows)
            pool = [(entity_id, names) for entity_id, _, names in rows]
        return pool

    def entity(self, group_id: str, entity_id: str) -> Entity | None:
        """Return an entity's current version."""
        found = self._cached_entity(group_id, entity_id)
        return None if found is None else _copied(found)  # the caller may change it

    def _cached_entity(self, group_id: str, entity_id: str) -> Entity | None:
        key = (group_id, entity_id)
        if key not in self._entities:
            self._entities[key] = graph.entity(self._group(group_id), group_id, entity_id)
        return self._entities[key]

    def names(self, group_id: str, entity_id: str) -> list[str]:
        """Return an entity's current name and aliases ([] when it has no current version)."""
        found = self._cached_entity(group_id, entity_id)
        return [] if found is None else [found.name, *found.aliases]

    def recent_threads(self, group_id: str, entity_id: str) -> set[str]:
        """Return the threads of the episodes that mention the entity most recently."""
        return graph.recent_threads(self._group(group_id), group_id, entity_id)

    def thread_entities(self, group_id: str, thread: str) -> list[str]:
        """Return the entities mentioned in the thread's latest episodes (a thread key, by id)."""
        return graph.thread_entities(self._group(group_id), group_id, thread)

    def put_entity(self, entity: Entity, name_keys: Sequence[str]) -> None:
        """Store an entity version (closing the previous one) and index its names.

        ``name_keys`` are what the entity's name and aliases normalise to, so a version that keeps
        the name and aliases of the one it follows keeps that one's stored keys: they are not
        rewritten (most versions a build writes only move the entity's last sighting)."""
        previous = self._entities.get((entity.group_id, entity.id))
        same_names = (
            previous is not None
            and previous.version == entity.version - 1
            and (previous.name, previous.aliases) == (entity.name, entity.aliases)
        )
        graph.put_entity(self._group(entity.group_id), entity, None if same_names else name_keys)
        self._pools.written(entity)
        if entity.version == 1:
            self._facts_of_new[entity.group_id, entity.id] = {}
        self._entities[entity.group_id, entity.id] = _copied(entity)  # as a read returns it
        self._renamed(entity.group_id, entity.id, name_keys)
        self.written += 1

    def close_entity(self, group_id: str, entity_id: str, at: datetime, operation_id: str) -> None:
        """End an entity's current version (merged away by ``operation_id``); forget its names."""
        self._entities.pop((group_id, entity_id), None)
        self._facts_of_new.pop((group_id, entity_id), None)
        self._pools.closed(group_id, entity_id)
        graph.close_entity(self._group(group_id), group_id, entity_id, at, operation_id)
        self._renamed(group_id, entity_id, [])

    def nearest_entities(
        self, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        """Return up to ``limit`` current entities of ``types`` whose name vector has cosine ≥ ``floor``."""
        db = self._group(group_id)
        return self._backend.vectors.nearest_entities(db, group_id, vector, types, limit, floor)

    def put_entity_vector(self, entity: Entity, vector: Vector) -> None:
        """Store the vector of ``entity.name`` (made before the transaction)."""
        db = self._group(entity.group_id)
        self._backend.vectors.put_entities(
            db, [(PendingEntity(entity.group_id, entity.id, entity.name), vector)]
        )

    # -- facts -------------------------------------------------------------------------------------

    def facts_about(self, group_id: str, subjects: Sequence[str], predicates: Sequence[str]) -> list[Fact]:
        """Return the current and disputed facts with one of ``subjects`` and one of ``predicates``,
        by id (those of entities this transaction created from what it wrote, not read again)."""
        subjects = list(dict.fromkeys(subjects))  # a subject named twice gives its facts once
        known = [self._facts_of_new.get((group_id, subject)) for subject in subjects]
        others = [subject for subject, facts in zip(subjects, known, strict=True) if facts is None]
        found = graph.facts_about(self._group(group_id), group_id, others, predicates) if others else []
        wanted = set(predicates)
        for facts in known:
            found += [
                fact
                for fact in (facts or {}).values()
                if fact.predicate in wanted and fact.expired_at is None and fact.status in _LIVE
            ]
        return sorted(found, key=lambda fact: fact.id) if len(others) < len(subjects) else found

    def facts_superseded_by(self, group_id: str, fact_id: str) -> list[Fact]:
        """Return the live facts whose successor is ``fact_id``."""
        return graph.facts_superseded_by(self._group(group_id), group_id, fact_id)

    def facts_touching(self, group_id: str, entity_id: str) -> list[Fact]:
        """Return every current fact whose subject or object is the entity (any status)."""
        return graph.facts_touching(self._group(group_id), group_id, entity_id)

    def facts_citing(self, group_id: str, episode_id: str) -> list[Fact]:
        """Return the current version of every fact whose provenance includes the episode."""
        return graph.facts_citing(self._group(group_id), group_id, episode_id)

    def episode_threads(self, group_id: str, episode_ids: Sequence[str]) -> dict[str, str]:
        """Return the thread of each of the episodes that has one (episode id → thread key)."""
        return episodes.threads_of(self._group(group_id), group_id, episode_ids)

    def put_fact(self, fact: Fact, index_text: str) -> None:
        """Store a fact version (closing the previous one) and index ``index_text``."""
        graph.put_fact(self._group(fact.group_id), self._backend.fulltext, fact, index_text)
        self.written += 1
        self._forget_fact(fact.group_id, fact.id)  # a merge moves a fact to another subject
        facts = self._facts_of_new.get((fact.group_id, fact.subject))
        if facts is not None:
            facts[fact.id] = fact
            self._kept_under[fact.group_id, fact.id] = fact.subject

    def _forget_fact(self, group_id: str, fact_id: str) -> None:
        subject = self._kept_under.pop((group_id, fact_id), None)
        if subject is not None:
            self._facts_of_new.get((group_id, subject), {}).pop(fact_id, None)

    def close_fact(self, group_id: str, fact_id: str, at: datetime, operation_id: str) -> None:
        """End a fact's current version with no successor (its full-text row serves reads at known_at)."""
        episodes.close_version(self._group(group_id), "facts", group_id, fact_id, at, operation_id)
        self._forget_fact(group_id, fact_id)

    def fact_version(self, group_id: str, fact_id: str, version: int) -> Fact | None:
        """Return one stored version of a fact."""
        return graph.fact_version(self._group(group_id), "facts", group_id, fact_id, version)

    def archive_fact_ids(
        self, group_id: str, fact_ids: Sequence[str], operation: Operation, index_text: Callable[[Fact], str]
    ) -> tuple[list[str], int]:
        """Move every version of the live facts among ``fact_ids`` to the archive; return (ids, versions)."""
        db = self._group(group_id)
        self._forget_facts_of_new()  # facts move out of the table
        return archive.archive_ids(
            db, self._backend, group_id, fact_ids, operation.created_at, operation.id, index_text
        )

    def unarchive_facts(
        self,
        group_id: str,
        fact_ids: Sequence[str],
        index_text: Callable[[Fact], str],
        *,
        archived_by: str | None = None,
    ) -> list[str]:
        """Move every version of the archived facts among ``fact_ids`` back; return their ids.

        Only facts archived by ``archived_by`` when given; ids not in the archive are skipped.
        """
        db = self._group(group_id)
        self._forget_facts_of_new()  # facts come back: read them from the table from now on
        return archive.unarchive_ids(db, self._backend, group_id, fact_ids, archived_by, index_text)

    def _forget_facts_of_new(self) -> None:
        self._facts_of_new.clear()
        self._kept_under.clear()

    def archived_superseded_by(self, group_id: str, fact_id: str) -> list[str]:
        """Return the archived facts whose latest version is superseded by ``fact_id``."""
        return archive.archived_superseded_by(self._group(group_id), group_id, fact_id)

    # -- mentions, candidates, operations ----------------------------------------------------------

    def episodes_mentioning(self, group_id: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        """Return ids of episodes that mention any of the entities, newest first."""
        return graph.episodes_mentioning(self._group(group_id), group_id, entity_ids, limit)

    def add_mentions(
        self, group_id: str, episode_id: str, entity_ids: Sequence[str], operation_id: str
    ) -> None:
        """Record that an episode mentions these entities (added by ``operation_id``)."""
        graph.add_mentions(self._group(group_id), group_id, episode_id, entity_ids, operation_id)

    def remove_mentions(
        self, group_id: str, *, operation_id: str | None = None, episode_id: str | None = None
    ) -> list[tuple[str, str, str | None]]:
        """Delete the mentions an operation added, or an episode's; return (entity, episode, operation)."""
        db = self._group(group_id)
        return graph.remove_mentions(db, group_id, operation_id=operation_id, episode_id=episode_id)

    def add_merge_candidate(self, group_id: str, candidate: MergeCandidate) -> None:
        """Record a possible duplicate for review."""
        graph.add_merge_candidate(self._group(group_id), group_id, candidate)

    def claim_extractions(self, group_id: str, episode_ids: Sequence[str]) -> set[str]:
        """Take the episodes out of the extraction queue; return those that were in it (the
        others' graphs were built by another writer)."""
        return extraction_queue.claim(self._db, group_id, episode_ids)

    def record_operation(self, operation: Operation, details: dict[str, object] | None = None) -> None:
        """Store the operation these changes belong to, ``details`` merged into its own."""
        insert_operation(self._group(operation.group_id), operation, details)

    def operation(self, group_id: str, operation_id: str) -> Operation | None:
        """Return a recorded operation."""
        return history.get_operation(self._group(group_id), group_id, operation_id)

    def list_operations(
        self, group_id: str, query: OperationQuery, limit: int, after_key: tuple[datetime, str] | None
    ) -> list[Operation]:
        """Return operations matching ``query``, newest first, after the (created_at, id) key."""
        return history.list_operations(self._group(group_id), group_id, query, limit, after_key)

    # -- versions ----------------------------------------------------------------------------------

    def touched_by(self, group_id: str, operation_id: str) -> list[VersionRef]:
        """Return every version the operation created or closed (episodes, entities, facts)."""
        return history.touched_by(self._group(group_id), group_id, operation_id)

    def versions(self, group_id: str, kind: ObjectKind, object_id: str) -> list[VersionRef]:
        """Return every version of one object, oldest first (an episode's under its lock)."""
        db = self._group(group_id)
        if kind == "episode":
            episodes.lock(db, group_id, object_id)
        return history.versions(db, group_id, kind, object_id)

    def episode_version(self, group_id: str, episode_id: str, version: int) -> Episode | None:
        """Return one stored version of an episode."""
        return history.episode_version(self._group(group_id), group_id, episode_id, version)

    def entity_version(self, group_id: str, entity_id: str, version: int) -> Entity | None:
        """Return one stored version of an entity."""
        return history.entity_version(self._group(group_id), group_id, entity_id, version)

    def put_episode_version(self, episode: Episode) -> None:
        """Store an episode version (closing the current one, if any, by ``episode.operation_id``).

        Re-indexes the thread context around it: a restored episode is searchable again.
        """
        db = self._group(episode.group_id)
        episodes.lock(db, episode.group_id, episode.id)
        episodes.close_version(
            db, "episodes", episode.group_id, episode.id, episode.recorded_at, episode.operation_id
        )
        db.run(insert_episode_sql(db), episode_params(episode))
        stale = [episode.id, *episodes.around(db, episode.group_id, episode.id)]
        self._backend.fulltext.refresh(db, episode.group_id, stale)

    def close_episode(self, group_id: str, episode_id: str, at: datetime, operation_id: str) -> None:
        """End an episode's current version with no successor (retracted).

        Its vector is dropped and its neighbours' thread context no longer includes it, so no
        search channel returns its content; its versions stay for history and revert.
        """
        db = self._group(group_id)
        if not episodes.lock(db, group_id, episode_id):
            return
        episodes.close_version(db, "episodes", group_id, episode_id, at, operation_id)
        self._backend.vectors.drop_episode(db, group_id, episode_id)
        self._backend.fulltext.refresh(db, group_id, episodes.around(db, group_id, episode_id))
