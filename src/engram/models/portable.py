"""The portable export format's rows: every stored row of a group, as ``engram export --format engram``
writes them (one JSON object per line) and ``engram import`` reads them back.

Every version of every episode, entity and fact, the mentions, the merge candidates, the
operation log, archived facts and search hits, each with the ids and times it has in the
store. Derived indexes (full text, entity names, vectors) are not rows: the loading store
rebuilds them. engram.portable.group_format frames the rows as JSON Lines.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

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
