"""Columns named once, rows read by name: the codecs between stored rows and Engram's models.

Each table's columns are listed here and nowhere else, with which of them hold times and
JSON. ``Table.params`` turns a model into the parameters of ``table.insert``; ``Table.fields``
turns a row (a mapping) back into a model's fields, decoding times and JSON through the
row's Db, so one codec serves both databases. Episodes have their own codec (an actor in
three columns, ``refs`` for ``references``), the hottest one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engram.models.episodes import Actor, Episode, Operation
from engram.models.graph import Entity, Fact
from engram.models.keys import ApiKey
from engram.storage.sql import Db, Json, Row, insert_sql, select_list
from engram.storage.types import MergeCandidate, ObjectKind, VersionRef


@dataclass(frozen=True)
class Table:
    """A table's columns and, among them, the time and JSON columns."""

    name: str
    columns: tuple[str, ...]
    times: frozenset[str] = field(default_factory=frozenset)
    json: frozenset[str] = field(default_factory=frozenset)

    @property
    def insert(self) -> str:
        """Return ``INSERT INTO name (columns) VALUES (:columns)``."""
        return insert_sql(self.name, self.columns)

    def select(self, alias: str) -> str:
        """Return the column list qualified by ``alias``."""
        return select_list(alias, self.columns)

    def params(self, model: Any, **values: Any) -> dict[str, Any]:
        """Return a row's parameters from ``model``'s attributes (JSON wrapped), ``values`` first."""
        params = {c: values[c] if c in values else getattr(model, c, None) for c in self.columns}
        for column in self.json:
            if params[column] is not None:
                params[column] = Json(params[column])
        return params

    def fields(self, db: Db, row: Row) -> dict[str, Any]:
        """Return the row's columns, times and JSON decoded."""
        fields = {c: row[c] for c in self.columns}
        for column in self.times:
            fields[column] = db.optional_time(fields[column])
        for column in self.json:
            fields[column] = db.json(fields[column])
        return fields


def _set(*names: str) -> frozenset[str]:
    return frozenset(names)


EPISODE_COLUMNS = (
    *("group_id", "id", "version", "timestamp", "recorded_at", "expired_at", "source", "source_type"),
    *("actor_type", "actor_id", "actor_name", "intent", "content", "metadata", "refs", "fingerprint"),
    *("status", "operation_id", "expired_by"),
)
ENTITIES = Table(
    "entities",
    (
        *("group_id", "id", "version", "name", "type", "aliases", "attributes", "summary", "first_seen"),
        *("last_seen", "recorded_at", "expired_at", "operation_id", "expired_by", "episode_id"),
        *("alias_sources", "summary_source"),
    ),
    times=_set("first_seen", "last_seen", "recorded_at", "expired_at"),
    json=_set("aliases", "attributes", "alias_sources", "summary_source"),
)
FACTS = Table(
    "facts",
    (
        *("group_id", "id", "version", "subject", "predicate", "object", "value", "fact", "conditions"),
        *("confidence", "source_kind", "episodes", "valid_at", "invalid_at", "recorded_at", "expired_at"),
        *("status", "superseded_by", "operation_id", "status_reason", "expired_by"),
    ),  # expired_by last: storage/archive.py restores it apart
    times=_set("valid_at", "invalid_at", "recorded_at", "expired_at"),
    json=_set("value", "conditions", "episodes"),
)
ARCHIVED_FACTS = Table(
    "archived_facts",
    (*FACTS.columns, "archived_at", "archived_by"),
    times=FACTS.times | {"archived_at"},
    json=FACTS.json,
)
OPERATIONS = Table(
    "operations",
    ("group_id", "id", "kind", "actor", "created_at", "summary", "details"),
    times=_set("created_at"),
    json=_set("details"),
)
MENTIONS = Table("mentions", ("group_id", "entity_id", "episode_id", "operation_id"))
CANDIDATES = Table(
    "merge_candidates",
    ("group_id", "entity_id", "candidate_id", "score", "parts", "created_at"),
    times=_set("created_at"),
    json=_set("parts"),
)
HITS = Table("fact_hits", ("group_id", "fact_id", "last_returned_at"), times=_set("last_returned_at"))
API_KEYS = Table(
    "api_keys",
    (
        "id",
        "name",
        "role",
        "group_ids",
        "digest",
        "prefix",
        "created_at",
        "expires_at",
        "revoked_at",
        "last_used_at",
    ),
    times=_set("created_at", "expires_at", "revoked_at", "last_used_at"),
    json=_set("group_ids"),
)

FACT_COLUMNS = FACTS.columns
E = select_list("e", EPISODE_COLUMNS)
N = ENTITIES.select("n")
F = FACTS.select("f")
VERSIONED_TABLES: dict[ObjectKind, str] = {"episode": "episodes", "entity": "entities", "fact": "facts"}


def insert_episode_sql(db: Db) -> str:
    """Return the INSERT of an episode version: an INSERT … SELECT through its ``episode_docs`` row.

    The SELECT adds what the database keeps per episode document (SQLite: the full-text ``doc``).
    """
    columns, values = db.dialect.episode_doc
    return (
        f"INSERT INTO episodes ({columns}{', '.join(EPISODE_COLUMNS)}) "
        f"SELECT {values}{', '.join(':' + c for c in EPISODE_COLUMNS)} FROM episode_docs d "
        "WHERE d.group_id = :group_id AND d.id = :id"
    )


def insert_new_episode_sql(db: Db) -> str:
    """Return the INSERT of a new episode's first version, its ``episode_docs`` row's number given
    as ``:doc`` where the database keeps one (SQLite): a plain VALUES row, a third of the cost of
    insert_episode_sql's INSERT … SELECT per row on SQLite."""
    columns, _ = db.dialect.episode_doc
    doc = ":doc, " if columns else ""
    return (
        f"INSERT INTO episodes ({columns}{', '.join(EPISODE_COLUMNS)}) "
        f"VALUES ({doc}{', '.join(':' + c for c in EPISODE_COLUMNS)})"
    )


def episode_params(episode: Episode, expired_by: str | None = None) -> dict[str, Any]:
    """Return the parameters of one episode version's row."""
    actor = episode.actor
    return {
        **{c: getattr(episode, c) for c in EPISODE_COLUMNS[:8]},
        "actor_type": actor.type if actor else None,
        "actor_id": actor.id if actor else None,
        "actor_name": actor.name if actor else None,
        "intent": episode.intent,
        "content": episode.content,
        "metadata": Json(episode.metadata),
        "refs": Json(episode.references),
        "fingerprint": episode.fingerprint,
        "status": episode.status,
        "operation_id": episode.operation_id,
        "expired_by": expired_by,
    }


def episode_from(db: Db, row: Row) -> Episode:
    """Return the Episode of a row holding EPISODE_COLUMNS (the hottest codec: no intermediate dict)."""
    time, data = db.dialect.decode_time, db.dialect.decode_json
    actor_id, expired_at = row["actor_id"], row["expired_at"]
    return Episode.model_construct(
        id=row["id"],
        group_id=row["group_id"],
        version=row["version"],
        timestamp=time(row["timestamp"]),
        recorded_at=time(row["recorded_at"]),
        expired_at=None if expired_at is None else time(expired_at),
        source=row["source"],
        source_type=row["source_type"],
        actor=None
        if actor_id is None
        else Actor.model_construct(type=row["actor_type"], id=actor_id, name=row["actor_name"]),
        intent=row["intent"],
        content=row["content"],
        metadata=data(row["metadata"]),
        references=data(row["refs"]),
        fingerprint=row["fingerprint"],
        status=row["status"],
        operation_id=row["operation_id"],
    )


def entity_from(db: Db, row: Row) -> Entity:
    """Return the Entity of a row holding the entities' columns."""
    fields = ENTITIES.fields(db, row)
    del fields["expired_by"]
    return Entity.model_construct(**fields)


def fact_from(db: Db, row: Row) -> Fact:
    """Return the Fact of a row holding the facts' columns."""
    fields = FACTS.fields(db, row)
    del fields["expired_by"]
    return Fact.model_construct(**fields)


def operation_from(db: Db, row: Row) -> Operation:
    """Return the Operation of a row holding the operations' columns."""
    return Operation.model_construct(**OPERATIONS.fields(db, row))


def insert_operation(db: Db, operation: Operation, extra: dict[str, object] | None = None) -> None:
    """Store ``operation`` with ``extra`` merged into its details."""
    db.run(OPERATIONS.insert, OPERATIONS.params(operation, details={**operation.details, **(extra or {})}))


def api_key_from(db: Db, row: Row) -> ApiKey:
    """Return the ApiKey of a row holding the api_keys' columns (its digest left in the store)."""
    fields = API_KEYS.fields(db, row)
    del fields["digest"]
    return ApiKey.model_construct(**fields)


def candidate_from(db: Db, row: Row) -> MergeCandidate:
    """Return the MergeCandidate of a row holding the merge candidates' columns."""
    fields = CANDIDATES.fields(db, row)
    del fields["group_id"]
    return MergeCandidate(**fields)


def version_ref_from(db: Db, kind: ObjectKind, row: Row) -> VersionRef:
    """Return the VersionRef of a row holding id, version, operation_id, expired_by, expired_at."""
    return VersionRef(
        kind,
        str(row["id"]),
        int(row["version"]),
        str(row["operation_id"]),
        row["expired_by"],
        db.optional_time(row["expired_at"]),
    )
