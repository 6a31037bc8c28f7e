"""The values the storage protocol speaks besides Engram's models: queries, keys, candidates, counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from engram.models.episodes import Episode
from engram.models.graph import Entity, Fact

Vector = npt.NDArray[np.float32]
ObjectKind = Literal["episode", "entity", "fact"]
Reword = Callable[[Fact, str | None, str | None], tuple[str, str]]
NameKeys = Callable[[Entity], Sequence[str]]
"""The normalised names an entity is found by (engram.graph.entities.name_keys)."""
"""(fact, subject name, object name) -> (sentence, full-text index text) in no episode's words."""

CONTEXT_WEIGHT = 0.5
"""BM25 weight of the thread-neighbour text relative to the episode's own text (docs/decisions.md §2)."""

KEY_SEPARATOR = "\x1f"


@dataclass(frozen=True, slots=True)
class NewEpisode:
    """A fully prepared episode version 1, ready to store.

    ``search_text`` is what the full-text index receives (content segmented for CJK).
    ``client_id`` tells the store the id came from the caller, so it identifies the
    episode: the same id again is a duplicate, and no fingerprint lookup is made.
    ``vector`` (optional) is stored with it. ``thread`` names the conversation the episode
    belongs to: episodes of one thread, ordered by timestamp, lend each other context in the
    full-text index; None stands alone. ``queued``: the episode waits for its graph in the
    extraction queue (engram.storage.extraction_queue), with ``supplied``, the caller's
    extraction as JSON-ready values (None: the extractor's).
    """

    episode: Episode
    search_text: str
    client_id: bool
    thread: str | None
    vector: Vector | None = None
    queued: bool = False
    supplied: dict[str, Any] | None = None
    """A precomputed embedding (unit length), stored in the insert's transaction."""


@dataclass(frozen=True, slots=True)
class PageKey:
    """Position in the newest-first episode order: (timestamp, id) of the last item seen."""

    timestamp: datetime
    id: str


@dataclass(frozen=True, slots=True)
class CitedReference:
    """A reference id the held episodes cite or are part of: how many, and their first and last timestamp."""

    reference: str
    episodes: int
    first_seen: datetime
    last_seen: datetime


@dataclass(frozen=True, slots=True)
class ScoredEpisode:
    """A search candidate: the episode version read and its channel's score (higher is better)."""

    episode: Episode
    score: float


@dataclass(frozen=True, slots=True)
class FactQuery:
    """Which facts to read: time travel and history (docs/architecture.md, "Vocabulary").

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
    """Which operations to list: by kind, time (``after`` inclusive, ``before`` exclusive), object, actor."""

    kinds: Sequence[str] = ()
    after: datetime | None = None
    before: datetime | None = None
    entity_id: str | None = None
    episode_id: str | None = None
    actor: str | None = None


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


@dataclass(slots=True)
class LoadCounts:
    """What loading rows did, by row kind: rows written, rows already stored, versions closed."""

    created: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    closed: Counter[str] = field(default_factory=Counter)

    def add(self, other: LoadCounts) -> None:
        """Add ``other``'s counts to these."""
        self.created.update(other.created)
        self.skipped.update(other.skipped)
        self.closed.update(other.closed)


class Reindex(Protocol):
    """How a loading store derives its indexes from rows (the same rules as when writing them)."""

    def episode_text(self, content: str) -> str:
        """Return the full-text document of an episode's content (segmented for CJK)."""
        ...

    def name_keys(self, entity: Entity) -> list[str]:
        """Return the normalised names an entity is found by."""
        ...

    def fact_text(self, fact: Fact, entity: Callable[[str], Entity | None]) -> str:
        """Return the full-text document of a fact; ``entity(id)`` gives its entities as then known."""
        ...
