"""Memory's methods for bringing episodes in and out in bulk, and for what episodes are for.

Mixed into ``engram.memory.Memory`` (which sets the attributes declared here): batches with
an answer per item, file imports (mail, wiki, tables, chat; ``engram.portable.importing``),
the portable export and import of a group, the intent taxonomy and its classifier, and the
graph of episodes a stopped writer left queued (``engram.storage.extraction_queue``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from engram.access import requires
from engram.config import Settings
from engram.errors import EngramError, InvalidInput
from engram.ingest.bulk import create_batch
from engram.ingest.extraction import GraphIngest
from engram.ingest.indexer import Indexer
from engram.ingest.intents import IntentClassifier
from engram.models.episodes import BatchResult, CreatedEpisode, EpisodeIn, EpisodePage
from engram.models.intents import Intent, load_taxonomy
from engram.nlp.embed import Embedder
from engram.portable import group_format as portable
from engram.portable.base import ImportStats
from engram.storage.protocol import Storage

if TYPE_CHECKING:  # engram.memory imports this module
    from engram.memory import Memory

logger = logging.getLogger("engram.memory")


class IntakeMethods:
    """The bulk intake, export and intent part of Memory (see the module docstring)."""

    store: Storage
    settings: Settings
    embedder: Embedder | None
    _indexer: Indexer | None
    _classifier: IntentClassifier | None
    _clock: Callable[[], datetime]
    group: Callable[[str | None], str]
    groups: Callable[[], list[str]]
    list_episodes: Callable[..., EpisodePage]
    create_episodes: Callable[..., list[CreatedEpisode]]
    _extraction: GraphIngest
    _stopping: threading.Event

    # -- what a stopped writer left ------------------------------------------------------------

    def build_queued_graphs(self) -> int:
        """Build the graph of episodes a writer stored but stopped before extracting (killed,
        crashed); return how many episodes were taken.

        Runs when a server starts, before an import and in ``index_pending``; rows another
        running process queued are left to it.
        """
        return self._extraction.build_queued(self._stopping)

    def _recover(self) -> None:
        try:
            self.build_queued_graphs()
        except EngramError as exc:  # the rows stay queued for the next start
            logger.warning("could not build the graph a stopped writer left: %s", exc.detail)
        except Exception:  # a background thread: logged, the rows stay queued, serving goes on
            logger.exception("could not build the graph a stopped writer left")

    # -- intents ---------------------------------------------------------------------------------

    def intents(self) -> list[Intent]:
        """Return the intent taxonomy episodes are labelled with: names, labels per language, examples.

        The packaged sales-and-support taxonomy, or ``ENGRAM_INTENTS_FILE`` (engram.models.intents).
        """
        return list(load_taxonomy(self.settings.intents_file).intents)

    def _intent_classifier(
        self, embedder: Embedder | None, *, always: bool = False
    ) -> IntentClassifier | None:
        """Return the intent classifier when classification is on (by default: with an embedder)."""
        setting = self.settings.classify_intents
        enabled = always or setting is True or (setting is None and embedder is not None)
        if embedder is None or not enabled:
            if always or setting is True:
                raise InvalidInput("classifying intents needs an embedder", field="ENGRAM_EMBEDDER")
            return None
        taxonomy = load_taxonomy(self.settings.intents_file)
        model_path = self.settings.intents_model_path
        return IntentClassifier(embedder, taxonomy, model_path, threshold=self.settings.intent_threshold)

    def intent_classifier(self) -> IntentClassifier:
        """Return the intent classifier (even when automatic classification is off). Raises
        InvalidInput without an embedder."""
        classifier = self._classifier or self._intent_classifier(self.embedder, always=True)
        assert classifier is not None
        return classifier

    @requires("admin", every_group=True)
    def train_intents(self, *, with_episodes: bool = True) -> tuple[int, int]:
        """Train the intent classifier on the taxonomy's examples and, with ``with_episodes``,
        every current episode whose intent (in the taxonomy) was given rather than inferred;
        save it in the data directory. Return (examples, labelled episodes) used."""
        classifier = self.intent_classifier()
        known = set(classifier.taxonomy.names())
        labelled: list[tuple[str, str]] = []
        for group in self.groups() if with_episodes else []:
            page = EpisodePage(items=[], next_cursor=None)
            while True:
                page = self.list_episodes(group, limit=500, cursor=page.next_cursor)
                labelled += [
                    (e.content, str(e.intent))
                    for e in page.items
                    if e.intent in known and not e.metadata.get("intent_inferred")
                ]
                if page.next_cursor is None:
                    break
        model = classifier.retrain(labelled)
        return model.examples - len(labelled), len(labelled)

    # -- batches, imports and exports ------------------------------------------------------------

    @requires("write")
    def bulk_load(self) -> AbstractContextManager[None]:
        """Return the context for loading many episodes with their vectors (``embedding``), e.g.
        ``with memory.bulk_load(): for batch in batches: memory.create_episodes(batch)``.

        On PostgreSQL the HNSW index of episode vectors is dropped once the vectors brought
        inside the block are at least a quarter of those stored, and built once at its end (also
        when the block fails): keeping it up costs ~2.6 ms a row, building it ~0.6
        (docs/decisions.md §29). Vector searches without a filter scan exactly until the block
        ends. ``import_file`` runs in one. On SQLite, which keeps no index, nothing changes.
        """
        return self.store.loading_vectors()

    def create_episodes_each(
        self, items: Sequence[EpisodeIn | Mapping[str, Any]], *, actor: str | None = None
    ) -> BatchResult:
        """Store up to ``max_batch_episodes`` episodes, each with its own answer (engram.ingest.bulk).

        One invalid or oversized item fails alone with its problem; the rest are stored (one
        transaction unless the store refuses one). Raises InvalidInput(field="episodes") when
        the batch is empty or too large.
        """

        def create(batch: Sequence[Any]) -> list[CreatedEpisode]:
            return self.create_episodes(batch, actor=actor, kind="ingest")

        return create_batch(create, items, self.settings.max_batch_episodes)

    def export_group(self, group_id: str | None = None) -> Iterator[dict[str, Any]]:
        """Return the group in the portable format (engram.portable.group_format): JSON objects, one per line.

        A header, every operation, every version of every episode, entity and fact, the
        mentions and merge candidates, and an end line with the counts, read from one
        snapshot: exhaust or close the iterator. Raises InvalidInput (bad group id).
        """
        group = self.group(group_id)
        source = {"store": self.store.name, "schema_version": self.store.schema_version()}
        return portable.export_group(self.store, group, exported_at=self._clock(), source=source)

    @requires("admin", every_group=True)
    def import_records(
        self,
        records: Iterable[Mapping[str, Any] | portable.Item],
        *,
        batch_size: int | None = None,
        on_batch: Callable[[portable.ImportCounts, int], None] | None = None,
    ) -> portable.ImportCounts:
        """Load an export (``export_group``'s objects, or ``group_format.read_lines`` items); return counts.

        Ids, versions and times are kept; vectors are embedded again by this memory's
        embedder. One transaction per ``batch_size`` rows; importing again is idempotent.
        Raises InvalidInput (bad or out-of-order record, truncated input) or Conflict (an
        id already names something else here).
        """
        size = batch_size or self.settings.import_batch_size
        try:
            return portable.import_items(self.store, records, batch_size=size, on_batch=on_batch)
        finally:
            if self._indexer is not None:
                self._indexer.notify()

    @requires("admin", every_group=True)  # it reads the server's files
    def import_file(
        self,
        path: Path | str,
        format: str | None = None,
        *,
        group_id: str | None = None,
        mapping: Path | str | None = None,
        batch_size: int | None = None,
        actor: str | None = None,
        on_commit: Callable[[ImportStats, int], None] | None = None,
        classify: bool | None = None,
    ) -> ImportStats:
        """Import a file or folder of episodes (mail, wiki, tables, chat, jsonl, locomo); return the stats.

        ``format`` is detected when None (engram.portable.formats); ``mapping`` is a CSV/JSON
        column mapping; ``group_id`` fills episodes that name none (LoCoMo: replaces each
        conversation's own). One transaction per ``batch_size``; importing again changes nothing.
        Unreadable records are skipped and listed in ``stats.problems``. ``classify`` (default: for
        every format but jsonl and locomo, which hold episodes as they were) sends intent-less
        episodes to the classifier when it is on. Raises InvalidInput (format, path, mapping) or Conflict.
        """
        from engram.portable.importing import import_path

        return import_path(
            cast("Memory", self),  # the mixin is only ever part of a Memory
            Path(path),
            format,
            mapping=None if mapping is None else Path(mapping),
            group_id=group_id,
            batch_size=batch_size,
            actor=actor,
            on_commit=on_commit,
            classify=classify,
        )
