"""The Store protocol: the narrow interface every storage backend implements.

It speaks Engram's own types. Every method takes a ``group_id`` and touches nothing
outside that group. One contract suite (tests/store/test_contract.py) runs on every
implementation.

Reads see the versions the memory holds now, or, with ``known_at`` (``filters.known_at`` for
lists and searches), the versions it held at that transaction time: the version stored by
then and not closed by then. An episode stored later is absent, one updated later shows its
old version, one deleted later is still there. ``filters.as_of`` keeps episodes whose
``timestamp`` is at or before it (valid time: what had happened by then).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import numpy as np
import numpy.typing as npt

from engram.models.episodes import Episode, EpisodeFilters, Operation

Vector = npt.NDArray[np.float32]

CONTEXT_WEIGHT = 0.5
"""BM25 weight of the thread-neighbour column relative to the episode's own text.

Measured on the LoCoMo dev split (docs/decisions.md): BM25 recall@10 0.55 without context,
0.69 with the previous turn only, 0.72 with previous and next at 0.5."""


@dataclass(frozen=True, slots=True)
class NewEpisode:
    """A fully prepared episode version 1, ready to store.

    ``search_text`` is what the full-text index receives (content segmented for CJK).
    ``client_id`` tells the store the id came from the caller, so it identifies the
    episode: the same id again is a duplicate, and no fingerprint lookup is made.
    ``thread`` names the conversation the episode belongs to: episodes of one thread,
    ordered by timestamp, lend each other context in the full-text index; None stands alone.
    """

    episode: Episode
    search_text: str
    client_id: bool
    thread: str | None


@dataclass(frozen=True, slots=True)
class PageKey:
    """Position in the newest-first episode order: (timestamp, id) of the last item seen."""

    timestamp: datetime
    id: str


@dataclass(frozen=True, slots=True)
class ScoredEpisode:
    """A search candidate: the episode version read and its channel's score (higher is better)."""

    episode: Episode
    score: float


class Store(Protocol):
    """Storage of episodes and operations, scoped by group."""

    def insert_episodes(
        self, items: Sequence[NewEpisode], operation: Operation
    ) -> list[tuple[Episode, bool]]:
        """Store new episodes and ``operation`` in one transaction.

        Returns, per item and in order, the stored episode and whether it was a duplicate
        (same client id with the same fingerprint, or, without a client id, the same
        fingerprint in the group). Nothing is written when any item fails.

        Raises:
            Conflict: a client id already names an episode with other content.
        """
        ...

    def get_episode(self, group_id: str, episode_id: str, known_at: datetime | None = None) -> Episode | None:
        """Return the version of an episode held now (or at ``known_at``), or None."""
        ...

    def update_episode(
        self,
        group_id: str,
        episode_id: str,
        expected_version: int,
        apply: Callable[[Episode], Episode],
        operation: Operation,
    ) -> Episode:
        """Append version n+1 made by ``apply(current)`` and close version n, atomically.

        Raises:
            NotFound: no such episode.
            PreconditionFailed: the current version is not ``expected_version``.
        """
        ...

    def list_episodes(
        self, group_id: str, filters: EpisodeFilters, limit: int, after_key: PageKey | None = None
    ) -> list[Episode]:
        """Return held episodes matching ``filters``, newest first, after ``after_key``."""
        ...

    def search_text(
        self, group_id: str, terms: Sequence[str], filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return up to ``limit`` held episodes matching any of ``terms``, best BM25 first.

        ``terms`` are already segmented words; the store quotes them for its engine. An
        episode's own text counts fully; the text of its thread neighbours (previous and
        next episode) counts at ``CONTEXT_WEIGHT``, so a reply such as "Yes, last week!"
        is found by the words of the question it answers.
        """
        ...

    def groups(self) -> list[str]:
        """Return the ids of every group holding at least one episode, sorted.

        For administration (export, doctor); request paths always name one group.
        """
        ...

    def search_vectors(
        self, group_id: str, vector: Vector, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return up to ``limit`` held episodes nearest to ``vector`` (cosine), best first."""
        ...

    def pending_embeddings(self, limit: int) -> list[Episode]:
        """Return up to ``limit`` current episodes that have no vector yet, oldest first."""
        ...

    def put_vectors(self, items: Sequence[tuple[Episode, Vector]]) -> None:
        """Store one vector per episode (replacing any it had), in one transaction."""
        ...

    def clear_vectors(self) -> int:
        """Delete every stored vector (before re-embedding); return how many there were."""
        ...

    def get_meta(self, key: str) -> str | None:
        """Return a store-level setting, e.g. ``embedder``, or None."""
        ...

    def set_meta(self, key: str, value: str) -> None:
        """Record a store-level setting."""
        ...

    def neighbours(
        self, group_id: str, episode_id: str, known_at: datetime | None = None
    ) -> tuple[Episode | None, Episode | None]:
        """Return the previous and next episodes of ``episode_id``'s thread (None at the ends).

        The neighbours are today's; each is read as held at ``known_at`` (None when it was not held then).
        """
        ...

    def counts(self) -> dict[str, int]:
        """Return row counts for diagnostics: episodes (current), versions, groups, operations."""
        ...

    def schema_version(self) -> int:
        """Return the version of the schema the store is at."""
        ...

    def describe(self) -> str:
        """Return where the store keeps its data, for people (a file path; a URL without password)."""
        ...

    def integrity_check(self) -> str | None:
        """Return the backend's integrity verdict ("ok" when healthy), or None when it has no such check."""
        ...

    def close(self) -> None:
        """Release connections and threads; the store is unusable afterwards."""
        ...
