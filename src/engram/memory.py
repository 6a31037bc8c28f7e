"""Memory: the one object that holds Engram's behaviour. CLI, REST and MCP are thin shells over it."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engram import timeutil
from engram.access import acting, requires, visible_group
from engram.config import Settings
from engram.errors import EngramError, InvalidInput, NotFound, PreconditionRequired, shown
from engram.graph.review import ReviewService
from engram.graph.service import GraphService
from engram.health import CreateCounts, RecentErrors, memory_stats
from engram.history.archive import archive_facts
from engram.history.service import HistoryService
from engram.ids import new_id
from engram.ingest.bulk import gc_paused
from engram.ingest.extraction import GraphIngest
from engram.ingest.indexer import Indexer
from engram.ingest.inputs import (
    decode_cursor,
    encode_cursor,
    fingerprint,
    given_vector,
    merge_patch,
    supplied_extraction,
    validated,
)
from engram.keys import Keyring
from engram.memory_intake import IntakeMethods
from engram.memory_references import ReferenceMethods
from engram.memory_review import ReviewMethods
from engram.models.episodes import (
    ID_PATTERN,
    LIST_LIMIT_MAX,
    OPERATION_KINDS,
    CreatedEpisode,
    Episode,
    EpisodeFilters,
    EpisodeIn,
    EpisodePage,
    EpisodePatch,
    Operation,
    SearchQuery,
    SearchResponse,
)
from engram.models.graph import (
    AddFacts,
    ArchiveResult,
    Entity,
    EntityView,
    Extraction,
    FactsAdded,
    FactSearch,
    FactSearchResponse,
)
from engram.models.history import OperationPage, OperationView, PurgeReport
from engram.models.json_values import MAX_METADATA_DEPTH, nesting_depth
from engram.models.stats import MemoryStats
from engram.nlp.embed import Embedder
from engram.nlp.query_batch import BatchedQueries, BatchQueryEmbedder
from engram.nlp.query_cache import CachedQueries
from engram.nlp.tokenize import segment
from engram.observability import metrics
from engram.search.engine import BM25Channel, Channel, SearchEngine, group_by_thread
from engram.search.graph import GraphChannel
from engram.search.paging import encode_search_cursor, search_offset
from engram.search.vector import VectorChannel, check_embedder
from engram.storage.protocol import Storage
from engram.storage.types import NewEpisode, OperationQuery, PageKey
from engram.threads import thread_key

if TYPE_CHECKING:  # engram.portable.batch imports this module
    pass

Clock = Callable[[], datetime]


class Memory(ReviewMethods, IntakeMethods, ReferenceMethods):
    """Long-term memory over a Storage: episodes, the knowledge graph, search, history, export.

    Every method takes a ``group_id``; None means the configured default group. Errors are
    those of ``engram.errors``; bad input is InvalidInput with the field named.
    """

    def __init__(
        self,
        store: Storage,
        settings: Settings | None = None,
        *,
        embedder: Embedder | None = None,
        clock: Clock | None = None,
        background_indexing: bool = True,
        reembed: bool = False,
        defer_extractor: bool = False,
    ) -> None:
        """Serve ``store``. Without ``embedder`` there is no vector channel.

        Raises StoreError when the store's vectors were made by another embedder, unless
        ``reembed``: then every vector is dropped and the episodes wait to be embedded again.
        ``defer_extractor``: build the extractor at its first use rather than now (the builtin
        one compiles its patterns, ~1 s: a short command that may never extract skips that).
        """
        self.store = store
        self.settings = settings or Settings()
        self.embedder = embedder
        self._clock = clock or (lambda: datetime.now(UTC))
        weight = self.settings.search.inactive_fact_weight
        channels: list[Channel] = [
            BM25Channel(store),
            GraphChannel(
                store,
                clock=self._clock,
                inactive_weight=weight,
                spread_threads=self.settings.search.graph_spread_threads,
            ),
        ]
        self._indexer: Indexer | None = None
        queries: Embedder | None = embedder
        self._batcher: BatchedQueries | None = None
        if self.settings.query_batch_wait_ms and isinstance(embedder, BatchQueryEmbedder):
            queries = self._batcher = BatchedQueries(
                embedder,
                max_wait=self.settings.query_batch_wait_ms / 1000,
                max_batch=self.settings.query_batch_size,
                threads=self.settings.query_batch_threads,
            )
        if queries is not None and self.settings.query_cache_size:
            queries = CachedQueries(queries, self.settings.query_cache_size)
        if embedder is not None:
            check_embedder(store, embedder, reset=reembed)
            assert queries is not None
            channels.append(VectorChannel(store, queries))
            self._indexer = Indexer(store, embedder, batch_size=self.settings.embed_batch_size)
            if background_indexing:
                self._indexer.start()
                self._indexer.notify()
        self._search = SearchEngine(
            store, channels, self.settings.search, max_query_chars=self.settings.max_query_chars
        )
        self.history = HistoryService(store, clock=self._clock)
        self.graph = GraphService(
            store, clock=self._clock, inactive_weight=weight, embedder=queries, zone=self.settings.zone
        )
        self._extraction = GraphIngest(
            store,
            self.graph,
            self.settings.create_extractor(),
            clock=self._clock,
            workers=self.settings.extraction_workers,
        )
        if not defer_extractor:
            self._extraction.prepare()
        self._stopping = threading.Event()
        self._recovery: threading.Thread | None = None
        if background_indexing:  # a server: what a crashed writer left is built beside the requests
            self._recovery = threading.Thread(target=self._recover, name="engram-graph-recovery", daemon=True)
            self._recovery.start()
        self._review = ReviewService(store, self.graph, clock=self._clock)
        self.keys = Keyring(store, self._clock)
        self._creates = CreateCounts()
        self._recent_errors = RecentErrors()
        self._recent_errors.attach()
        self._classifier = self._intent_classifier(embedder)

    @classmethod
    def open(
        cls,
        data_dir: Path | str | None = None,
        settings: Settings | None = None,
        *,
        embedder: Embedder | None = None,
        **options: Any,
    ) -> Memory:
        """Open (creating if needed) the memory the settings name, with its embedder.

        That is the embedded SQLite store in ``data_dir``, or PostgreSQL when
        ``settings.database_url`` is set. ``embedder`` (any object with the Embedder
        protocol: ``name``, ``dimensions``, ``embed_documents``, ``embed_query``, ``close``)
        replaces the one the settings name; the memory closes it on ``close``. ``options``
        go to the constructor (e.g. ``background_indexing=False``). Raises StoreError when
        the store's vectors were made by another embedder (``name/dimensions`` differ).
        """
        from engram.storage.open import open_store

        settings = settings or Settings()
        if data_dir is not None:
            settings = settings.model_copy(update={"data_dir": Path(data_dir)})
        if embedder is None:
            embedder = settings.create_embedder()
        try:
            store = open_store(settings)
        except EngramError:
            if embedder is not None:
                embedder.close()
            raise
        try:
            return cls(store, settings, embedder=embedder, **options)
        except EngramError:
            store.close()
            if embedder is not None:
                embedder.close()
            raise

    def close(self) -> None:
        """Stop background indexing and release the store."""
        self._stopping.set()
        if self._recovery is not None:
            self._recovery.join()
        self._recent_errors.detach()
        if self._indexer is not None:
            self._indexer.stop()
        if self._batcher is not None:
            self._batcher.stop()
        if self.embedder is not None:
            self.embedder.close()
        self._extraction.close()
        self.store.close()

    def index_pending(self, on_batch: Callable[[int], None] | None = None) -> int:
        """Embed every episode (then fact and entity name) still waiting for its vector, now; return
        how many episodes.

        When it returns, everything written before the call is searchable by every channel
        (BM25 and the graph are written with the episode; only vectors lag): the way to wait
        after a bulk import, a reembed and in tests, beside the background thread, which does
        this anyway. ``on_batch(n)`` is called after each batch (for a progress bar). The graph
        of episodes a crashed writer stored is built first (``build_queued_graphs``).
        """
        self.build_queued_graphs()
        return 0 if self._indexer is None else self._indexer.index_pending(on_batch=on_batch)

    def pending_embeddings(self) -> int:
        """Return how many episodes wait for their vector (counted up to 1,000,000)."""
        return 0 if self._indexer is None else len(self.store.pending_embeddings(1_000_000))

    def stats(self, group_id: str | None = None, *, all_groups: bool = False) -> MemoryStats:
        """Return what the group (or, with ``all_groups``, the store) holds now. Raises StoreError."""
        group = None if all_groups else self.group(group_id)
        return memory_stats(self.store, group, embeds=self._indexer is not None)

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- helpers -------------------------------------------------------------------------------

    def group(self, group_id: str | None) -> str:
        """Return ``group_id`` validated, or the default group when None (the key's only group, if
        the caller's API key has one). Raises Forbidden for a group outside the caller's key
        (engram.access), InvalidInput for a malformed id."""
        if group_id is None:
            who = acting()
            fallback = self.settings.default_group
            return visible_group(fallback if who is None else who.default_group(fallback))
        if not re.fullmatch(ID_PATTERN, group_id):
            raise InvalidInput(
                f"group_id {shown(group_id)} must be 1-128 characters of A-Z a-z 0-9 . _ : -",
                field="group_id",
            )
        return visible_group(group_id)

    def _check_metadata(self, metadata: Mapping[str, Any]) -> None:
        """Raise InvalidInput(field="metadata") unless it is JSON, shallow and small enough."""
        if not metadata:
            return
        try:
            size = len(json.dumps(metadata, ensure_ascii=False).encode("utf-8"))
        except (TypeError, ValueError, RecursionError) as exc:
            raise InvalidInput(f"metadata is not JSON-serialisable: {exc}", field="metadata") from exc
        if size > self.settings.max_metadata_bytes:
            raise InvalidInput(
                f"metadata is {size} bytes; the limit is {self.settings.max_metadata_bytes}", field="metadata"
            )
        if nesting_depth(metadata) > MAX_METADATA_DEPTH:
            raise InvalidInput(f"metadata nests deeper than {MAX_METADATA_DEPTH} levels", field="metadata")

    def _prepare(
        self,
        episode_in: EpisodeIn,
        group_id: str,
        operation_id: str,
        now: datetime,
        supplied: Extraction | None,
    ) -> NewEpisode:
        content = episode_in.content_text()
        size = len(content.encode("utf-8"))
        if size > self.settings.max_content_bytes:
            raise InvalidInput(
                f"content is {size} bytes; the limit is {self.settings.max_content_bytes}", field="content"
            )
        self._check_metadata(episode_in.metadata)
        actor_id = episode_in.actor.id if episode_in.actor else None
        episode = Episode(
            id=episode_in.id or new_id("ep"),
            group_id=group_id,
            version=1,
            timestamp=episode_in.timestamp or now,
            recorded_at=now,
            source=episode_in.source,
            source_type=episode_in.source_type
            or ("json" if isinstance(episode_in.content, dict) else "message"),
            actor=episode_in.actor,
            intent=episode_in.intent,
            content=content,
            metadata=episode_in.metadata,
            references=episode_in.references,
            fingerprint=fingerprint(episode_in.intent, content, actor_id),
            operation_id=operation_id,
        )
        return NewEpisode(
            episode=episode,
            search_text=segment(content),
            client_id=episode_in.id is not None,
            thread=thread_key(episode),
            vector=None
            if episode_in.embedding is None
            else given_vector(episode_in.embedding, self.embedder),
            queued=self._extraction.queues(supplied),
            supplied=None if supplied is None else supplied.model_dump(mode="json", exclude_defaults=True),
        )

    # -- episodes ------------------------------------------------------------------------------

    @requires("write")
    def create_episode(
        self, data: EpisodeIn | Mapping[str, Any], *, actor: str | None = None
    ) -> CreatedEpisode:
        """Store one episode; an existing fingerprint (or client id) returns the stored one.

        Raises InvalidInput (field named) or Conflict (client id reused for other content).
        """
        return self.create_episodes([data], actor=actor, kind="ingest")[0]

    @requires("write")
    @metrics.counts_conflicts("id")
    def create_episodes(
        self,
        items: Sequence[EpisodeIn | Mapping[str, Any]],
        *,
        actor: str | None = None,
        kind: str = "import",
        classify: bool = True,
    ) -> list[CreatedEpisode]:
        """Store many episodes in one transaction: all are written, or (on any error) none.

        Items may name different groups; each group gets its own operation. Items without an
        intent are classified first when classification is on and ``classify`` (engram.ingest.intents); the
        operation's ``details.intents_inferred`` names them. Raises InvalidInput with the field
        prefixed by the item's index, e.g. ``3.content``.
        """
        with gc_paused(len(items)):
            return self._create_episodes(items, actor, kind, classify)

    def _create_episodes(
        self, items: Sequence[EpisodeIn | Mapping[str, Any]], actor: str | None, kind: str, classify: bool
    ) -> list[CreatedEpisode]:
        now = self._clock()
        operations: dict[str, Operation] = {}
        prepared: list[NewEpisode] = []
        supplied: list[Extraction | None] = []
        inputs: list[EpisodeIn] = []
        unknown: list[list[str]] = []
        for index, item in enumerate(items):
            try:
                inputs.append(validated(EpisodeIn, item, "episode"))
            except InvalidInput as exc:
                if len(items) == 1:
                    raise
                raise InvalidInput(f"item {index}: {exc.detail}", field=f"{index}.{exc.field}") from exc
        inferred: set[int] = set()
        if self._classifier is not None and classify:
            inputs, inferred = self._classifier.fill_missing(inputs)
        groups: dict[str | None, str] = {}  # as given → validated, once per batch
        for index, episode_in in enumerate(inputs):
            try:
                if episode_in.group_id not in groups:
                    groups[episode_in.group_id] = self.group(episode_in.group_id)
                group_id = groups[episode_in.group_id]
                if group_id not in operations:
                    operations[group_id] = Operation.begin(
                        group_id, kind, f"{kind} episodes", at=self._clock(), actor=actor
                    )
                extraction = supplied_extraction(episode_in)
                prepared.append(self._prepare(episode_in, group_id, operations[group_id].id, now, extraction))
                supplied.append(extraction)
                unknown.append([] if extraction is None else self.graph.check_supplied(group_id, extraction))
            except InvalidInput as exc:
                if len(items) == 1:
                    raise
                raise InvalidInput(f"item {index}: {exc.detail}", field=f"{index}.{exc.field}") from exc
            if index in inferred:  # the operation records the intents it inferred rather than received
                operations[group_id].details.setdefault("intents_inferred", {})[prepared[-1].episode.id] = (
                    episode_in.intent
                )
        stored: dict[int, CreatedEpisode] = {}
        positions: dict[str, list[int]] = {group_id: [] for group_id in operations}
        for i, new in enumerate(prepared):
            positions[new.episode.group_id].append(i)
        batches = [
            ([prepared[i] for i in positions[group_id]], operation)
            for group_id, operation in operations.items()
        ]
        # A large batch is extracted in a worker process while it is stored; duplicates' are dropped.
        started = self._extraction.start(
            [new.episode for new, given in zip(prepared, supplied, strict=True) if given is None]
        )
        try:
            inserted = self.store.insert_episode_batches(batches)
        except BaseException:
            self._extraction.abandon(started)
            raise
        for indexes, pairs in zip(positions.values(), inserted, strict=True):
            metrics.count_created(pairs, kind, self.settings.metrics.intents, self.settings.metrics.sources)
            for i, (episode, duplicate) in zip(indexes, pairs, strict=True):
                stored[i] = CreatedEpisode(
                    episode=episode,
                    deduplicated=duplicate,
                    unknown_predicates=[] if duplicate else unknown[i],
                )
        if self._indexer is not None:
            self._indexer.notify()
        fresh = [(stored[i].episode, supplied[i]) for i in range(len(prepared)) if not stored[i].deduplicated]
        self._extraction.ingest(fresh, actor, started)
        self._count_creates(list(stored.values()))
        return [stored[i] for i in range(len(prepared))]

    def get_episode(
        self, episode_id: str, group_id: str | None = None, *, known_at: datetime | None = None
    ) -> Episode:
        """Return the current version of an episode, or the one held at ``known_at``. Raises NotFound."""
        group = self.group(group_id)
        at = timeutil.known_at(known_at, self._clock())
        episode = self.store.get_episode(group, episode_id, at)
        if episode is None:
            then = "" if at is None else f" at {at.isoformat()}"
            raise NotFound(
                f"no episode with id {shown(episode_id)} in group {shown(group)}{then}", field="id"
            )
        return timeutil.as_believed(episode, at)

    @requires("write")
    @metrics.counts_conflicts("version")
    def update_episode(
        self,
        episode_id: str,
        patch: EpisodePatch | Mapping[str, Any],
        *,
        expected_version: int | None,
        group_id: str | None = None,
        actor: str | None = None,
    ) -> Episode:
        """Merge-patch metadata, intent, status or references into a new version.

        Raises PreconditionRequired without ``expected_version``, PreconditionFailed when it
        is stale, NotFound, InvalidInput.
        """
        changes: EpisodePatch = validated(EpisodePatch, patch, "patch")
        if expected_version is None:
            raise PreconditionRequired(
                "updates are conditional: send the version you read (If-Match / expected_version)",
                field="expected_version",
            )
        group = self.group(group_id)

        operation = Operation.begin(
            group, "update", f"update episode {episode_id}", at=self._clock(), actor=actor
        )

        def apply(current: Episode) -> Episode | None:
            """Return the next version, or None when the patch changes nothing (no version written)."""
            fields: dict[str, Any] = {}
            if changes.metadata is not None:
                fields["metadata"] = merge_patch(current.metadata, changes.metadata)
            if "intent" in changes.model_fields_set:
                fields["intent"] = changes.intent
            if changes.status is not None:
                fields["status"] = changes.status
            if changes.references is not None:
                fields["references"] = changes.references
            fields = {name: value for name, value in fields.items() if value != getattr(current, name)}
            if not fields:
                return None
            if "metadata" in fields:
                self._check_metadata(fields["metadata"])
            if "intent" in fields:
                actor_id = current.actor.id if current.actor else None
                fields["fingerprint"] = fingerprint(fields["intent"], current.content, actor_id)
            return current.model_copy(
                update={
                    **fields,
                    "version": current.version + 1,
                    "recorded_at": operation.created_at,
                    "expired_at": None,
                    "operation_id": operation.id,
                }
            )

        updated = self.store.update_episode(group, episode_id, expected_version, apply, operation)
        if updated.operation_id == operation.id:
            metrics.count_operation("update")
        return updated

    def list_episodes(
        self,
        group_id: str | None = None,
        *,
        after: datetime | None = None,
        before: datetime | None = None,
        intent: Iterable[str] = (),
        source: Iterable[str] = (),
        actor_id: Iterable[str] = (),
        limit: int = 50,
        cursor: str | None = None,
        known_at: datetime | None = None,
        as_of: datetime | None = None,
    ) -> EpisodePage:
        """Return a page of current episodes (or those held at ``known_at``), newest first by timestamp.

        ``after`` is inclusive, ``before`` exclusive; ``as_of`` keeps episodes that had happened
        by then (inclusive); ``limit`` is 1..500.
        """
        if not 1 <= limit <= LIST_LIMIT_MAX:
            raise InvalidInput(f"limit must be between 1 and {LIST_LIMIT_MAX}", field="limit")
        filters: EpisodeFilters = validated(
            EpisodeFilters,
            {
                "intent": list(intent),
                "source": list(source),
                "actor_id": list(actor_id),
                "timestamp_after": after,
                "timestamp_before": before,
                "known_at": timeutil.known_at(known_at, self._clock()),
                "as_of": as_of,
            },
            "filters",
        )
        key = decode_cursor(cursor) if cursor else None
        items = [
            timeutil.as_believed(e, filters.known_at)
            for e in self.store.list_episodes(self.group(group_id), filters, limit + 1, key)
        ]
        next_cursor = None
        if len(items) > limit:
            items = items[:limit]
            next_cursor = encode_cursor(PageKey(items[-1].timestamp, items[-1].id))
        return EpisodePage(items=items, next_cursor=next_cursor)

    def groups(self) -> list[str]:
        """Return the ids of every group that holds episodes and the caller sees, sorted."""
        who = acting()
        return [g for g in self.store.groups() if who is None or who.sees(g)]

    def search_episodes(
        self, query: SearchQuery | Mapping[str, Any], *, channels: list[str] | None = None
    ) -> SearchResponse:
        """Return the episodes best matching ``query``, each with score and citation.

        ``channels`` (e.g. ``["bm25"]``) restricts the search to those channels; ``known_at``
        and ``as_of`` search the memory as it was (transaction time) and as things were (valid time).
        """
        search: SearchQuery = validated(SearchQuery, query, "query")
        at = timeutil.known_at(search.known_at, self._clock())
        offset = search_offset(search)
        # Rank one more than the page to know whether another page follows.
        ranked = search.model_copy(update={"limit": offset + search.limit + 1})
        response = self._search.search(ranked, self.group(search.group_id), channels)
        hits = response.results[offset : offset + search.limit]
        for hit in hits if at is not None else ():
            hit.episode = timeutil.as_believed(hit.episode, at)
        more = len(response.results) > offset + search.limit
        return response.model_copy(
            update={
                "results": hits,
                "threads": group_by_thread(hits) if search.group_by_thread else None,
                "next_cursor": encode_search_cursor(search, offset + len(hits)) if more else None,
            }
        )

    # -- knowledge graph -------------------------------------------------------------------------

    def get_entity(
        self, entity_id: str, group_id: str | None = None, *, known_at: datetime | None = None
    ) -> EntityView:
        """Return an entity, the facts about it and its version timeline. Raises NotFound."""
        at = timeutil.known_at(known_at, self._clock())
        view = self.graph.get_entity(self.group(group_id), entity_id, at)
        view.entity = timeutil.as_believed(view.entity, at)
        for hit in view.facts:
            hit.fact = timeutil.as_believed(hit.fact, at)
        if at is not None:  # the timeline as it stood then: no version recorded later
            view.timeline = [timeutil.as_believed(v, at) for v in view.timeline if v.recorded_at <= at]
        return view

    @requires("write")
    def reextract(self, group_id: str | None = None, *, actor: str | None = None) -> tuple[int, int]:
        """Retry extraction of the group's episodes marked failed; return (succeeded, still failing)."""
        return self._extraction.reextract(self.group(group_id), actor)

    @requires("admin")
    def merge_entities(
        self, entity_id: str, into: str, group_id: str | None = None, *, actor: str | None = None
    ) -> EntityView:
        """Merge entity ``entity_id`` into ``into`` (one operation); return the survivor."""
        return self.graph.merge_entities(self.group(group_id), entity_id, into, actor)

    def search_entities(
        self, query: str, group_id: str | None = None, *, types: Sequence[str] = (), limit: int = 10
    ) -> list[Entity]:
        """Return entities whose name or alias contains the query's words."""
        if not 1 <= limit <= 100:
            raise InvalidInput("limit must be between 1 and 100", field="limit")
        return self.graph.search_entities(self.group(group_id), query, types, limit)

    def search_facts(self, search: FactSearch | Mapping[str, Any]) -> FactSearchResponse:
        """Return facts: current by default; ``as_of`` (valid time), ``known_at`` (transaction time)."""
        query: FactSearch = validated(FactSearch, search, "query")
        at = timeutil.known_at(query.known_at, self._clock())
        response = self.graph.search_facts(query, self.group(query.group_id))
        for hit in response.results:
            hit.fact = timeutil.as_believed(hit.fact, at)
        return response

    @requires("write")
    def add_facts(self, request: AddFacts | Mapping[str, Any], *, actor: str | None = None) -> FactsAdded:
        """Add facts (with provenance ``episode_id``) through resolution and arbitration. Raises NotFound."""
        add: AddFacts = validated(AddFacts, request, "body")
        return FactsAdded.model_validate(self.graph.add_facts(add, self.group(add.group_id), actor))

    @requires("admin")
    def archive_facts(
        self,
        older_than: timedelta,
        group_id: str | None = None,
        *,
        dry_run: bool = False,
        actor: str | None = None,
    ) -> ArchiveResult:
        """Move inactive facts older than ``older_than``, never returned by a search, to the archive."""
        group = self.group(group_id)
        return archive_facts(self.store, group, older_than, self._clock(), dry_run=dry_run, actor=actor)

    # -- history -----------------------------------------------------------------------------------

    def list_operations(
        self,
        group_id: str | None = None,
        *,
        kind: Iterable[str] = (),
        after: datetime | None = None,
        before: datetime | None = None,
        entity_id: str | None = None,
        episode_id: str | None = None,
        actor: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> OperationPage:
        """Return a page of the audit log, newest first (``after`` inclusive, ``before`` exclusive).

        ``actor`` keeps one actor's operations.
        """
        if not 1 <= limit <= LIST_LIMIT_MAX:
            raise InvalidInput(f"limit must be between 1 and {LIST_LIMIT_MAX}", field="limit")
        kinds = tuple(kind)
        unknown = sorted(set(kinds) - OPERATION_KINDS)
        if unknown:
            raise InvalidInput(
                f"kind {unknown[0]!r} is not one of {', '.join(sorted(OPERATION_KINDS))}", field="kind"
            )
        query = OperationQuery(kinds, after, before, entity_id, episode_id, actor)
        key = decode_cursor(cursor) if cursor else None
        items, following = self.history.list_operations(self.group(group_id), query, limit, key)
        return OperationPage(items=items, next_cursor=None if following is None else encode_cursor(following))

    def get_operation(self, operation_id: str, group_id: str | None = None) -> OperationView:
        """Return an operation with the versions it created and closed. Raises NotFound."""
        return self.history.get_operation(self.group(group_id), operation_id)

    @requires("admin")
    @metrics.counts_conflicts("revert")
    def revert_operation(
        self, operation_id: str, group_id: str | None = None, *, force: bool = False, actor: str | None = None
    ) -> OperationView:
        """Undo an operation as a new one. Raises NotFound, InvalidInput, Conflict (later changes)."""
        reverted = self.history.revert(self.group(group_id), operation_id, force=force, actor=actor)
        if self._indexer is not None:  # restored episodes wait for their vectors again
            self._indexer.notify()
        return reverted

    @requires("write")
    def delete_episode(
        self, episode_id: str, group_id: str | None = None, *, actor: str | None = None
    ) -> OperationView:
        """Retract an episode and what only it supports (revertible). Raises NotFound."""
        deleted = self.history.delete_episode(self.group(group_id), episode_id, actor)
        if self._indexer is not None and deleted.operation.details.get("facts_unarchived"):
            self._indexer.notify()  # facts back from the archive wait for their vectors again
        return deleted

    @requires("admin")
    def purge_episode(
        self, episode_id: str, group_id: str | None = None, *, actor: str | None = None
    ) -> tuple[Operation, PurgeReport]:
        """Erase an episode irreversibly, leaving an audit record without content. Raises NotFound."""
        return self.history.purge_episode(self.group(group_id), episode_id, actor)
