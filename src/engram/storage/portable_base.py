"""The portable side of the Store protocol: every stored row of a group, out and back in.

``engram export --format engram`` and ``engram import --format engram`` move a group between
stores (another machine, another backend, another embedder) through these rows: every
version of every episode, entity and fact, the mentions, the merge candidates and the
operation log, each with the ids and times it has in the store. Derived indexes (full text,
entity names, vectors) are not rows: the loading store rebuilds them (vectors are embedded
again by the indexer). engram.portable.group_format frames the rows as JSON Lines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engram.models.episodes import ID_PATTERN, Episode, Operation
from engram.models.graph import Entity, Fact
from engram.timeutil import as_utc

GroupId = Annotated[str, Field(pattern=ID_PATTERN)]
RowKind = Literal[
    "operation", "episode", "entity", "fact", "archived_fact", "mention", "merge_candidate", "fact_hit"
]
ROW_KINDS: tuple[RowKind, ...] = (
    "operation",
    "episode",
    "entity",
    "fact",
    "archived_fact",
    "mention",
    "merge_candidate",
    "fact_hit",
)
"""Every kind of row, in the order an export writes them (what a row refers to comes first)."""


class _Row(BaseModel):
    """Strict parsing shared by every row: unknown fields are refused, datetimes made UTC."""

    model_config = ConfigDict(extra="forbid")

    record: str

    @model_validator(mode="after")
    def _utc(self) -> Any:
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, datetime):
                setattr(self, name, as_utc(value))
        return self

    def to_json(self) -> dict[str, Any]:
        """Return the row as a JSON-ready object, ``record`` (its kind) first."""
        return {"record": self.record, **self.model_dump(mode="json", exclude={"record"})}


class OperationRow(_Row, Operation):
    """An operation of the audit log."""

    record: Literal["operation"] = "operation"
    group_id: GroupId


class EpisodeRow(_Row, Episode):
    """One version of an episode, with the operation that closed it and its thread.

    ``thread`` is fixed when the episode is first stored (engram.threads.thread_key of
    version 1); it is repeated on every version.
    """

    record: Literal["episode"] = "episode"
    group_id: GroupId
    id: Annotated[str, Field(pattern=ID_PATTERN)]
    version: Annotated[int, Field(ge=1)]
    expired_by: str | None = None
    thread: str | None = None


class EntityRow(_Row, Entity):
    """One version of an entity, with the operation that closed it."""

    record: Literal["entity"] = "entity"
    group_id: GroupId
    version: Annotated[int, Field(ge=1)]
    expired_by: str | None = None


class FactRow(_Row, Fact):
    """One version of a fact, with the operation that closed it."""

    record: Literal["fact"] = "fact"
    group_id: GroupId
    version: Annotated[int, Field(ge=1)]
    expired_by: str | None = None


class ArchivedFactRow(_Row, Fact):
    """One version of a fact moved to cold storage by an ``archive`` operation (``archived_by``)."""

    record: Literal["archived_fact"] = "archived_fact"
    group_id: GroupId
    version: Annotated[int, Field(ge=1)]
    expired_by: str | None = None
    archived_at: datetime
    archived_by: str


class MentionRow(_Row):
    """An episode mentions an entity (``operation_id``: who recorded it; None before schema 5)."""

    record: Literal["mention"] = "mention"
    group_id: GroupId
    entity_id: str
    episode_id: str
    operation_id: str | None = None


class MergeCandidateRow(_Row):
    """A possible duplicate the resolver recorded for review."""

    record: Literal["merge_candidate"] = "merge_candidate"
    group_id: GroupId
    entity_id: str
    candidate_id: str
    score: float
    parts: dict[str, float]
    created_at: datetime


class FactHitRow(_Row):
    """When a search last returned a fact (facts never returned may be archived)."""

    record: Literal["fact_hit"] = "fact_hit"
    group_id: GroupId
    fact_id: str
    last_returned_at: datetime


VersionRow = EpisodeRow | EntityRow | FactRow | ArchivedFactRow
Row = OperationRow | VersionRow | MentionRow | MergeCandidateRow | FactHitRow
ROW_MODELS: dict[str, type[Row]] = {
    "operation": OperationRow,
    "episode": EpisodeRow,
    "entity": EntityRow,
    "fact": FactRow,
    "archived_fact": ArchivedFactRow,
    "mention": MentionRow,
    "merge_candidate": MergeCandidateRow,
    "fact_hit": FactHitRow,
}


def row_key(row: Row) -> str:
    """Return the row's identity for messages: ``episode 'e1' version 2``, ``mention en_…/ep_…``."""
    if isinstance(row, EpisodeRow | EntityRow | FactRow | ArchivedFactRow):
        return f"{row.record.replace('_', ' ')} {row.id!r} version {row.version}"
    if isinstance(row, OperationRow):
        return f"operation {row.id!r}"
    if isinstance(row, MentionRow):
        return f"mention of {row.entity_id!r} in {row.episode_id!r}"
    if isinstance(row, FactHitRow):
        return f"fact hit of {row.fact_id!r}"
    return f"merge candidate {row.entity_id!r} ~ {row.candidate_id!r}"


def differences(stored: Row, incoming: Row) -> list[str]:
    """Return the fields where two rows with one identity differ, closing times left out.

    ``expired_at`` and ``expired_by`` are reconciled apart: closing an open version is the
    one change append-only storage allows (see ``reconcile``).
    """
    ignore = {"expired_at", "expired_by"}
    return [
        name
        for name in type(incoming).model_fields
        if name not in ignore and getattr(stored, name) != getattr(incoming, name)
    ]


def reconcile(
    stored: datetime | None, stored_by: str | None, incoming: datetime | None, incoming_by: str | None
) -> Literal["same", "close", "ahead", "conflict"]:
    """Decide what to do with a stored version whose other fields equal the incoming one's.

    ``same``: nothing. ``close``: the stored version is open and the incoming one closed, so
    the import closes it. ``ahead``: the store closed a version the input still holds open
    (an older export): nothing. ``conflict``: both closed, differently.
    """
    if (stored, stored_by) == (incoming, incoming_by):
        return "same"
    if stored is None:
        return "close"
    if incoming is None:
        return "ahead"
    return "conflict"


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


@runtime_checkable
class PortableStore(Protocol):
    """Export and import of whole groups, row by row."""

    def dump_group(self, group_id: str) -> Iterator[Row]:
        """Yield every row of the group, read from one snapshot, in ROW_KINDS order.

        Within a kind, rows come in the order they were stored: episodes by when they were
        first stored, each one's versions together and in order; facts likewise. The read
        lasts as long as the iteration: exhaust or close the iterator.
        """
        ...

    def load_rows(self, rows: Sequence[Row], reindex: Reindex) -> LoadCounts:
        """Store ``rows`` in one transaction: all of them, or (on any error) none.

        Ids, versions and times are kept as given. A row already stored identically is
        skipped, so loading the same rows again changes nothing; an open version the rows
        show closed is closed. Rows come in ROW_KINDS order across calls (a fact's index
        text is built from the entities already loaded); an object's versions may span calls.
        Derived rows (indexes, thread context, entity names) of what changed are rebuilt.

        Raises:
            Conflict: a row's identity is stored with other content (another history), or
                an object would be left with two current versions; the detail names it.
            InvalidInput: the store cannot hold a kind of row (PostgreSQL: archived facts,
                search hits) or a value (PostgreSQL: NUL characters).
        """
        ...
