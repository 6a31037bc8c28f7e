"""SQLStorage: the one implementation of the storage protocol, over a SQLite or PostgreSQL backend.

Every operation is written once here and in the SQL modules it calls (episodes, graph,
history, archive, purge, portable); the backend supplies connections and transactions,
the full-text index and vectors (engram.storage.backend). Every method takes a ``group_id``
(or objects that name one) and touches nothing outside that group.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, TypeVar

from engram.errors import EngramError, StoreError
from engram.models.episodes import Episode, EpisodeFilters, Operation
from engram.models.graph import Entity, Fact
from engram.models.history import PurgeReport
from engram.models.keys import ApiKey
from engram.models.portable import Row
from engram.storage import (
    archive,
    episodes,
    extraction_queue,
    graph,
    history,
    keys,
    portable,
    purge,
    references,
    stats,
)
from engram.storage.backend import Backend
from engram.storage.extraction_queue import QueuedExtraction
from engram.storage.hit_buffer import Hit, HitBuffer
from engram.storage.rows import insert_operation
from engram.storage.sql import Db
from engram.storage.stats import StoreCounts
from engram.storage.txn import Txn
from engram.storage.types import (
    CitedReference,
    FactQuery,
    LoadCounts,
    MergeCandidate,
    NameKeys,
    NewEpisode,
    ObjectKind,
    OperationQuery,
    PageKey,
    PendingEntity,
    PendingFact,
    Reindex,
    Reword,
    ScoredEpisode,
    Vector,
    VersionRef,
)

T = TypeVar("T")
logger = logging.getLogger("engram.store")


def index_metadata_keys(db: Db, keys: Sequence[str]) -> None:
    """Create (if missing) an index per metadata key of its current values, per group.

    The index holds the expression ``Dialect.metadata_equals`` tests, so a filter on a declared
    key reads its episodes through it (on PostgreSQL: string values) instead of testing every row.
    """
    db.lock([("schema",)])
    for key in dict.fromkeys(keys):
        digest = hashlib.blake2b(key.encode(), digest_size=4).hexdigest()
        name = f"episodes_meta_{re.sub(r'[^A-Za-z0-9_]', '_', key)[:40]}_{digest}"
        db.run(
            f"CREATE INDEX IF NOT EXISTS {name} ON episodes (group_id, {db.dialect.metadata_index(key)}) "
            "WHERE expired_at IS NULL"
        )


class SQLStorage:
    """Episodes, the knowledge graph, history, archive and export on one database. Thread-safe.

    See engram.storage.protocol.Storage for the contract each method keeps.
    """

    def __init__(self, backend: Backend, *, indexed_metadata_keys: Sequence[str] = ()) -> None:
        """Serve ``backend``; each of ``indexed_metadata_keys`` gets an index of its current values.

        Raises InvalidInput(field="metadata") for a key that is not a metadata filter key.
        """
        self._backend = backend
        self._hits = HitBuffer(self._write_hits)
        self.name = backend.dialect.name
        if indexed_metadata_keys:
            backend.write(lambda db: index_metadata_keys(db, indexed_metadata_keys))

    def _read(self, fn: Callable[..., T], *args: Any) -> T:
        with self._backend.read() as db:
            return fn(db, *args)

    # -- transactions ------------------------------------------------------------------------------

    def write(self, fn: Callable[[Txn], T]) -> T:
        """Run ``fn(txn)`` in one write transaction and return its result; roll back on error.

        ``fn`` may run more than once (PostgreSQL runs a transaction aborted by a deadlock
        again): it must change nothing outside the transaction.
        """

        def run(db: object) -> tuple[T, int]:
            txn = Txn(db, self._backend)  # type: ignore[arg-type]
            return fn(txn), txn.written

        result, written = self._backend.write(run)
        if written:
            self._backend.inserted(written)
        return result

    # -- episodes ----------------------------------------------------------------------------------

    def insert_episodes(
        self, items: Sequence[NewEpisode], operation: Operation
    ) -> list[tuple[Episode, bool]]:
        """Store new episodes and ``operation`` in one transaction; return (episode, duplicate) per item.

        Items with a ``vector`` get it stored in the same transaction (not embedded later).
        Raises Conflict when a client id already names an episode with other content.
        """
        return self.insert_episode_batches([(items, operation)])[0]

    def insert_episode_batches(
        self, batches: Sequence[tuple[Sequence[NewEpisode], Operation]]
    ) -> list[list[tuple[Episode, bool]]]:
        """Store each batch of new episodes with its operation (one per group), all in one
        transaction: every batch is stored or, on any error, none. Returns the results of each
        batch as insert_episodes does. A new ``queued`` episode joins the extraction queue in
        the same transaction."""
        fulltext, vectors = self._backend.fulltext, self._backend.vectors

        def insert(db: Db) -> list[list[tuple[Episode, bool]]]:
            db.lock(episodes.lock_keys([item for items, _ in batches for item in items]))
            out = []
            for items, operation in batches:
                with self._backend.batch_insert(db, len(items)):
                    results = episodes.insert(db, fulltext, items, operation)
                    given = [
                        (episode, item.vector)
                        for item, (episode, duplicate) in zip(items, results, strict=True)
                        if not duplicate and item.vector is not None
                    ]
                    if given:
                        vectors.put_episodes(db, given)
                    waiting = [
                        (episode.group_id, episode.id, item.supplied)
                        for item, (episode, duplicate) in zip(items, results, strict=True)
                        if not duplicate and item.queued
                    ]
                    if waiting:
                        owner = extraction_queue.owner_token()
                        extraction_queue.enqueue(db, waiting, owner, operation.created_at)
                out.append(results)
            return out

        results = self._backend.write(insert)
        self._backend.inserted(sum(not duplicate for batch in results for _, duplicate in batch))
        self._backend.given_vectors(
            sum(
                item.vector is not None and not duplicate
                for (items, _), batch in zip(batches, results, strict=True)
                for item, (_, duplicate) in zip(items, batch, strict=True)
            )
        )
        return results

    def get_episode(self, group_id: str, episode_id: str, known_at: datetime | None = None) -> Episode | None:
        """Return the version of an episode held now (or at ``known_at``), or None."""
        return self._read(episodes.get, group_id, episode_id, known_at)

    def update_episode(
        self,
        group_id: str,
        episode_id: str,
        expected_version: int,
        apply: Callable[[Episode], Episode | None],
        operation: Operation,
    ) -> Episode:
        """Append version n+1 made by ``apply(current)`` and close version n, atomically; when
        ``apply`` returns None (nothing changes) write nothing and return the current version.
        ``apply`` may be called more than once (see write).

        Raises NotFound or PreconditionFailed (not at ``expected_version``).
        """
        return self._backend.write(
            lambda db: episodes.update(db, group_id, episode_id, expected_version, apply, operation)
        )

    def list_episodes(
        self, group_id: str, filters: EpisodeFilters, limit: int, after_key: PageKey | None = None
    ) -> list[Episode]:
        """Return held episodes matching ``filters``, newest first, after ``after_key``."""
        return self._read(episodes.list_page, group_id, filters, limit, after_key)

    def neighbours(
        self, group_id: str, episode_id: str, known_at: datetime | None = None
    ) -> tuple[Episode | None, Episode | None]:
        """Return the previous and next episodes of the thread (today's), each as held at ``known_at``."""
        with self._backend.read() as db:
            found = episodes.neighbour_ids(db, group_id, episode_id)
            if found is None:
                return None, None
            previous, following = (
                None if other is None else episodes.get(db, group_id, other, known_at) for other in found
            )
        return previous, following

    def episode_counts(
        self, group_id: str, column: str, after: datetime | None = None, before: datetime | None = None
    ) -> dict[str | None, int]:
        """Return current episodes by ``column`` (intent or source) with a timestamp in [after, before)."""
        return self._read(episodes.counts_by, group_id, column, after, before)

    def episodes_without_intent(self, group_id: str, limit: int) -> list[Episode]:
        """Return up to ``limit`` current episodes with no intent, newest first."""
        return self._read(episodes.without_intent, group_id, limit)

    # -- references --------------------------------------------------------------------------------

    def document_references(
        self, group_id: str, document: str, known_at: datetime | None = None
    ) -> list[CitedReference]:
        """Return ``document`` and its ``document-v…`` ids as held episodes cite them (or are part of)."""
        return self._read(references.document_references, group_id, document, known_at)

    def episodes_citing(
        self,
        group_id: str,
        refs: Sequence[str],
        limit: int,
        after_key: PageKey | None = None,
        known_at: datetime | None = None,
    ) -> list[Episode]:
        """Return held episodes citing (or part of) any of ``refs``, newest first, after ``after_key``."""
        return self._read(references.episodes_citing, group_id, refs, limit, after_key, known_at)

    def references_named(
        self, group_id: str, name: str, known_at: datetime | None = None
    ) -> list[tuple[str, str]]:
        """Return (reference id, name as written) for every held episode that wrote ``name`` for one."""
        return self._read(references.references_named, group_id, name, known_at)

    def reference_names(
        self, group_id: str, refs: Sequence[str], known_at: datetime | None = None
    ) -> list[tuple[str, str]]:
        """Return (reference id, name as written) for the names held episodes wrote for ``refs``."""
        return self._read(references.names_of, group_id, refs, known_at)

    def queued_extractions(self, limit: int) -> list[QueuedExtraction]:
        """Return up to ``limit`` episodes whose graph is still to be built, oldest first."""
        return self._read(extraction_queue.queued, limit)

    def search_text(
        self, group_id: str, terms: Sequence[str], filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return up to ``limit`` held episodes matching any term, best BM25 first.

        ``terms`` are segmented words; an episode's thread neighbours' text counts at CONTEXT_WEIGHT.
        """
        if not terms:
            return []
        return self._read(self._backend.fulltext.search_episodes, group_id, terms, filters, limit)

    def search_vectors(
        self, group_id: str, vector: Vector, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return up to ``limit`` held episodes nearest to ``vector`` (cosine), best first."""
        return self._read(self._backend.vectors.search_episodes, group_id, vector, filters, limit)

    def pending_embeddings(self, limit: int) -> list[Episode]:
        """Return up to ``limit`` current episodes that have no vector yet, oldest first."""
        return self._read(self._backend.vectors.pending_episodes, limit)

    def put_vectors(self, items: Sequence[tuple[Episode, Vector]]) -> None:
        """Store one vector per episode (replacing any it had), in one transaction."""
        if items:
            self._backend.write(lambda db: self._backend.vectors.put_episodes(db, items))
            self._backend.inserted(len(items))

    def loading_vectors(self) -> AbstractContextManager[None]:
        """Return the context storing the episode vectors put inside it as one load: where the
        backend's vector index is cheaper built once after them than kept up per row
        (PostgreSQL's HNSW, once the vectors waiting or brought by episodes are at least a
        quarter of those stored), it is dropped then and built at the end, also when the block
        fails. Searches in between scan exactly."""
        return self._backend.loading_vectors()

    def prepare_vectors(self, dimensions: int) -> None:
        """Get ready for vectors of ``dimensions``; raise StoreError when others are stored."""
        self._backend.write(lambda db: self._backend.vectors.prepare(db, dimensions))

    def clear_vectors(self) -> int:
        """Delete every vector (episodes, facts, entity names); return how many there were."""
        return self._backend.write(self._backend.vectors.clear)

    # -- the knowledge graph -----------------------------------------------------------------------

    def get_entity(self, group_id: str, entity_id: str, known_at: datetime | None = None) -> Entity | None:
        """Return an entity as the memory held it (now, or at ``known_at``)."""
        return self._read(graph.entity, group_id, entity_id, known_at)

    def entity_names(self, group_id: str, entity_ids: Sequence[str]) -> dict[str, str]:
        """Return the current names of the current entities among ``entity_ids``."""
        return self._read(graph.entity_names, group_id, entity_ids)

    def entity_history(self, group_id: str, entity_id: str) -> list[Entity]:
        """Return every version of an entity, oldest first."""
        return self._read(graph.entity_versions, group_id, entity_id)

    def find_facts(self, group_id: str, query: FactQuery, limit: int) -> list[Fact]:
        """Return facts matching ``query``, newest valid time first."""
        return self._read(graph.find_facts, "facts", group_id, query, limit)

    def search_facts(
        self, group_id: str, terms: Sequence[str], query: FactQuery, limit: int, *, archived: bool = False
    ) -> list[tuple[Fact, float]]:
        """Return live (or archived) facts whose sentence or names match any term, best BM25 first.

        Superseded and retracted versions score ``query.inactive_weight`` of their match.
        """
        table = "archived_facts" if archived else "facts"
        with self._backend.read() as db:
            if not terms:
                return [(fact, 0.0) for fact in graph.find_facts(db, table, group_id, query, limit)]
            where = graph.fact_filter(query)
            return self._backend.fulltext.search_facts(
                db, group_id, terms, where, limit, query.inactive_weight, archived=archived
            )

    def search_entities(
        self, group_id: str, name_keys: Sequence[str], types: Sequence[str], limit: int
    ) -> list[Entity]:
        """Return current entities whose names contain any key, of the given types (all if empty)."""
        return self._read(graph.search_entities, group_id, name_keys, types, limit)

    def entities_with_names(self, group_id: str, name_keys: Sequence[str]) -> list[Entity]:
        """Return current entities whose normalised name or alias equals one of ``name_keys``."""
        return self._read(graph.entities_named, group_id, name_keys)

    def merge_candidates(self, group_id: str) -> list[MergeCandidate]:
        """Return the recorded merge candidates, best score first."""
        return self._read(graph.merge_candidates, group_id)

    def episodes_mentioning(self, group_id: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        """Return ids of episodes that mention any of the entities, newest first."""
        return self._read(graph.episodes_mentioning, group_id, entity_ids, limit)

    def mentioned_entities(self, group_id: str, episode_id: str) -> list[str]:
        """Return the ids of entities an episode mentions."""
        return self._read(graph.mentioned_entities, group_id, episode_id)

    def disputed_facts(self, group_id: str, limit: int) -> list[Fact]:
        """Return up to ``limit`` current disputed facts, grouped by subject and predicate."""
        return self._read(graph.disputed_facts, group_id, limit)

    def count_disputed(self, group_id: str) -> int:
        """Return how many facts of the group are disputed now."""
        return self._read(graph.count_disputed, group_id)

    # -- graph vectors -----------------------------------------------------------------------------

    def pending_fact_vectors(self, limit: int) -> list[PendingFact]:
        """Return up to ``limit`` current facts whose current text has no vector, oldest first."""
        return self._read(self._backend.vectors.pending_facts, limit)

    def put_fact_vectors(self, items: Sequence[tuple[PendingFact, Vector]]) -> None:
        """Store one vector per fact (replacing an older text's), in one transaction."""
        if items:
            self._backend.write(lambda db: self._backend.vectors.put_facts(db, items))

    def facts_without_vectors(self, group_id: str, fact_ids: Sequence[str]) -> set[str]:
        """Return those of ``fact_ids`` that have no vector yet (written since the indexer last ran)."""
        return self._read(self._backend.vectors.facts_without, group_id, fact_ids)

    def search_fact_vectors(
        self, group_id: str, vector: Vector, query: FactQuery, limit: int
    ) -> list[tuple[Fact, float]]:
        """Return fact versions matching ``query`` nearest to ``vector``, best first (cosine, inactive
        versions times ``query.inactive_weight``)."""
        with self._backend.read() as db:
            where = graph.fact_filter(query)
            return self._backend.vectors.search_facts(
                db, group_id, vector, where, limit, query.inactive_weight
            )

    def pending_entity_vectors(self, limit: int) -> list[PendingEntity]:
        """Return up to ``limit`` current entities whose name has no vector."""
        return self._read(self._backend.vectors.pending_entities, limit)

    def put_entity_vectors(self, items: Sequence[tuple[PendingEntity, Vector]]) -> None:
        """Store one name vector per entity, in one transaction."""
        if items:
            self._backend.write(lambda db: self._backend.vectors.put_entities(db, items))

    def search_entity_vectors(
        self, group_id: str, vector: Vector, types: Sequence[str], limit: int, floor: float
    ) -> list[tuple[Entity, float]]:
        """Return up to ``limit`` current entities (of ``types``) whose name vector has cosine ≥ ``floor``."""
        return self._read(self._backend.vectors.nearest_entities, group_id, vector, types, limit, floor)

    # -- decay and archive -------------------------------------------------------------------------

    def record_fact_hits(self, group_id: str, fact_ids: Sequence[str], at: datetime) -> None:
        """Remember that a search returned these facts at ``at`` (written within about a second)."""
        self._hits.add(group_id, fact_ids, at)

    def _write_hits(self, hits: Sequence[Hit]) -> None:
        try:
            self._backend.write(lambda db: archive.write_hits(db, hits))
        except self._backend.errors as exc:
            raise StoreError(f"cannot record fact hits: {exc}") from exc

    def flush_fact_hits(self) -> None:
        """Write buffered hits now."""
        self._hits.flush()

    def archive_facts(
        self,
        group_id: str,
        cutoff: datetime,
        operation: Operation,
        index_text: Callable[[Txn, Fact], str],
        *,
        dry_run: bool,
    ) -> tuple[list[str], int]:
        """Move every version of the group's archivable facts to the archive, in one transaction.

        Archivable: the latest version is inactive (not current or disputed, or closed), was
        recorded (or closed) before ``cutoff``, and no search ever returned the fact.
        ``index_text(txn, latest)`` gives the archived full-text row. Records ``operation``
        with the fact ids when anything moved. Returns (fact ids, versions moved); ``dry_run``
        returns what would move and changes nothing.
        """
        self.flush_fact_hits()

        def run(txn: Txn) -> tuple[list[str], int]:
            db = txn._group(group_id)
            latest = archive.archivable(db, group_id, cutoff)
            if dry_run:
                ids = [fact.id for fact in latest]
                return ids, archive.count_versions(db, "facts", group_id, ids) if ids else 0
            ids, versions = archive.move_out(
                db,
                self._backend,
                group_id,
                latest,
                operation.created_at,
                operation.id,
                lambda f: index_text(txn, f),
            )
            if ids:
                insert_operation(
                    db, operation, {"facts": ids, "versions": versions, "cutoff": cutoff.isoformat()}
                )
            return ids, versions

        return self.write(run)

    # -- history -----------------------------------------------------------------------------------

    def list_operations(
        self, group_id: str, query: OperationQuery, limit: int, after_key: tuple[datetime, str] | None
    ) -> list[Operation]:
        """Return operations matching ``query``, newest first, after the (created_at, id) key."""
        return self._read(history.list_operations, group_id, query, limit, after_key)

    def get_operation(self, group_id: str, operation_id: str) -> Operation | None:
        """Return one operation."""
        return self._read(history.get_operation, group_id, operation_id)

    def versions(self, group_id: str, kind: ObjectKind, object_id: str) -> list[VersionRef]:
        """Return every version of one object, oldest first, with the operations that opened and closed it."""
        return self._read(history.versions, group_id, kind, object_id)

    def version(
        self, group_id: str, kind: ObjectKind, object_id: str, number: int
    ) -> Episode | Entity | Fact | None:
        """Return one stored version of an episode, entity or fact, or None."""
        return self._read(history.version, group_id, kind, object_id, number)

    def operation_effects(self, group_id: str, operation_id: str) -> list[VersionRef]:
        """Return every version the operation created or closed."""
        return self._read(history.touched_by, group_id, operation_id)

    def purge_episode(
        self, group_id: str, episode_id: str, operation: Operation, reword: Reword, names: NameKeys
    ) -> PurgeReport:
        """Erase an episode and everything derived only from it, irreversibly; record ``operation``.

        A fact other episodes still support keeps them, but if the purged episode worded it
        first, every version gets ``reword(latest version, subject name, object name)``'s
        sentence and full-text text instead (and its vector is dropped, to be made again).
        Aliases and summaries the episode introduced leave every version of their entity
        (``names`` gives the name keys it is then found by). Then the backend compacts its
        storage so no byte of the content remains. Raises NotFound.
        """
        self.flush_fact_hits()

        def run(txn: Txn) -> PurgeReport:
            txn._group(group_id)
            txn._db.lock([(group_id, "id", episode_id)])
            return purge.purge_episode(txn._db, self._backend, group_id, episode_id, operation, reword, names)

        report = self.write(run)
        self._backend.compact()
        return report

    # -- export and import -------------------------------------------------------------------------

    def dump_group(self, group_id: str) -> Iterator[Row]:
        """Yield every row of the group, read from one snapshot, in ROW_KINDS order.

        The read lasts as long as the iteration: exhaust or close the iterator.
        """
        self.flush_fact_hits()  # hits still buffered in memory are part of the group
        with self._backend.snapshot() as db:
            yield from portable.dump_group(db, group_id)

    def load_rows(self, rows: Sequence[Row], reindex: Reindex) -> LoadCounts:
        """Store ``rows`` in one transaction: all of them, or (on any error) none.

        A row already stored identically is skipped; an open version the rows show closed is
        closed. Raises Conflict (another history of an object) or InvalidInput.
        """

        def load(db: object) -> LoadCounts:
            db.lock(portable.lock_keys(rows))  # type: ignore[attr-defined]
            loader = portable.Loader(db, self._backend, reindex)  # type: ignore[arg-type]
            for row in rows:
                loader.load(row)
            loader.finish()
            return loader.counts

        counts = self._backend.write(load)
        self._backend.inserted(sum(counts.created.values()))
        return counts

    # -- API keys ----------------------------------------------------------------------------------

    def insert_api_key(self, key: ApiKey, digest: str) -> bool:
        """Store a key and its digest; return False (storing nothing) when the name is taken."""
        return self._backend.write(lambda db: keys.insert(db, key, digest))

    def api_key_by_digest(self, digest: str) -> ApiKey | None:
        """Return the key (revoked or not) with this digest, or None."""
        return self._read(keys.by_digest, digest)

    def api_key(self, key_id: str) -> ApiKey | None:
        """Return the key (revoked or not) with this id, or None."""
        return self._read(keys.by_id, key_id)

    def api_keys(self) -> list[ApiKey]:
        """Return every key, revoked ones included, oldest first."""
        return self._read(keys.list_all)

    def has_api_keys(self) -> bool:
        """Return whether any key is not revoked."""
        return self._read(keys.any_active)

    def revoke_api_key(self, key_id: str, at: datetime) -> bool:
        """Mark a key revoked; return False when it was revoked already or is absent."""
        return self._backend.write(lambda db: keys.revoke(db, key_id, at))

    def touch_api_key(self, key_id: str, at: datetime, unless_since: datetime) -> None:
        """Record that a key was used at ``at``, unless it was recorded at or after ``unless_since``."""
        self._backend.write(lambda db: keys.touch(db, key_id, at, unless_since))

    # -- the store itself --------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        """Return a store-level setting, e.g. ``embedder``, or None."""
        with self._backend.read() as db:
            value = db.value("SELECT value FROM store_meta WHERE key = :k", {"k": key})
        return None if value is None else str(value)

    def set_meta(self, key: str, value: str) -> None:
        """Record a store-level setting."""
        self._backend.write(
            lambda db: db.run(
                "INSERT INTO store_meta (key, value) VALUES (:k, :v) ON CONFLICT (key) DO UPDATE SET value "
                "= excluded.value",
                {"k": key, "v": value},
            )
        )

    def groups(self) -> list[str]:
        """Return the ids of every group holding at least one episode, sorted (administration only)."""
        with self._backend.read() as db:
            return [
                str(row["group_id"])
                for row in db.rows("SELECT DISTINCT group_id FROM episode_docs ORDER BY group_id")
            ]

    def counts(self) -> dict[str, int]:
        """Return row counts for diagnostics: episodes (current), episode_versions, groups, operations,
        and graphs_queued (episodes whose graph is still to be built: engram.storage.extraction_queue)."""
        with self._backend.read() as db:
            row = db.one(
                "SELECT (SELECT count(*) FROM episodes WHERE expired_at IS NULL) AS episodes, "
                "(SELECT count(*) FROM episodes) AS episode_versions, "
                "(SELECT count(DISTINCT group_id) FROM episode_docs) AS groups, "
                "(SELECT count(*) FROM operations) AS operations, "
                "(SELECT count(*) FROM extraction_queue) AS graphs_queued"
            )
        assert row is not None
        return {name: int(value) for name, value in row.items()}

    def summary_counts(self, group_id: str | None = None) -> StoreCounts:
        """Return the group's (or, with None, the store's) counts kept by the database: current episodes
        per intent and source, facts per status, merge candidates, episode vectors. Cheap at any size."""
        return self._read(stats.read_counts, group_id)

    def schema_version(self) -> int:
        """Return the version of the schema the store is at."""
        with self._backend.read() as db:
            return int(db.value("SELECT coalesce(max(version), 0) AS v FROM schema_migrations"))

    def describe(self) -> str:
        """Return where the store keeps its data, for people (a file path; a URL without password)."""
        return self._backend.describe()

    def integrity_check(self) -> str | None:
        """Return the backend's integrity verdict ("ok" when healthy), or None when it has no such check."""
        return self._backend.integrity_check()

    def close(self) -> None:
        """Write buffered fact hits, then release connections and threads; unusable afterwards."""
        try:
            self._hits.flush()
        except EngramError as exc:
            logger.warning("fact hits lost at close: %s", exc.detail)
        self._backend.close()
