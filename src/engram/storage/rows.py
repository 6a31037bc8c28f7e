"""Columns named once, rows read by name: the codecs between stored rows and Engram's models.

Each table's columns are listed here and nowhere else; ``*_params`` turns a model into the
parameters of ``insert_sql(table, COLUMNS)`` and ``*_from`` turns a row (a mapping) back into
a model, decoding times and JSON through the row's Db, so one codec serves both databases.
"""

from __future__ import annotations

from typing import Any

from engram.models.episodes import Actor, Episode, Operation
from engram.models.graph import Entity, Fact
from engram.storage.sql import Db, Json, Row, insert_sql, select_list
from engram.storage.types import MergeCandidate, VersionRef

EPISODE_COLUMNS = (
    "group_id",
    "id",
    "version",
    "timestamp",
    "recorded_at",
    "expired_at",
    "source",
    "source_type",
    "actor_type",
    "actor_id",
    "actor_name",
    "intent",
    "content",
    "metadata",
    "refs",
    "fingerprint",
    "status",
    "operation_id",
    "expired_by",
)
ENTITY_COLUMNS = (
    "group_id",
    "id",
    "version",
    "name",
    "type",
    "aliases",
    "attributes",
    "summary",
    "first_seen",
    "last_seen",
    "recorded_at",
    "expired_at",
    "operation_id",
    "expired_by",
)
FACT_COLUMNS = (
    "group_id",
    "id",
    "version",
    "subject",
    "predicate",
    "object",
    "value",
    "fact",
    "conditions",
    "confidence",
    "source_kind",
    "episodes",
    "valid_at",
    "invalid_at",
    "recorded_at",
    "expired_at",
    "status",
    "superseded_by",
    "operation_id",
    "expired_by",
)
ARCHIVED_FACT_COLUMNS = (*FACT_COLUMNS, "archived_at", "archived_by")
OPERATION_COLUMNS = ("group_id", "id", "kind", "actor", "created_at", "summary", "details")
MENTION_COLUMNS = ("group_id", "entity_id", "episode_id", "operation_id")
CANDIDATE_COLUMNS = ("group_id", "entity_id", "candidate_id", "score", "parts", "created_at")
HIT_COLUMNS = ("group_id", "fact_id", "last_returned_at")

E = select_list("e", EPISODE_COLUMNS)
N = select_list("n", ENTITY_COLUMNS)
F = select_list("f", FACT_COLUMNS)
INSERT_ENTITY = insert_sql("entities", ENTITY_COLUMNS)
INSERT_FACT = insert_sql("facts", FACT_COLUMNS)
INSERT_OPERATION = insert_sql("operations", OPERATION_COLUMNS)
INSERT_MENTION = insert_sql("mentions", MENTION_COLUMNS) + " ON CONFLICT DO NOTHING"
VERSIONED_TABLES = {"episode": "episodes", "entity": "entities", "fact": "facts"}


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


def episode_params(episode: Episode, expired_by: str | None = None) -> dict[str, Any]:
    """Return the parameters of one episode version's row."""
    actor = episode.actor
    return {
        "group_id": episode.group_id,
        "id": episode.id,
        "version": episode.version,
        "timestamp": episode.timestamp,
        "recorded_at": episode.recorded_at,
        "expired_at": episode.expired_at,
        "source": episode.source,
        "source_type": episode.source_type,
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


def episode_fields(db: Db, row: Row) -> dict[str, Any]:
    """Return the Episode fields of a row (for models that extend Episode)."""
    actor_id = row["actor_id"]
    return {
        "id": row["id"],
        "group_id": row["group_id"],
        "version": row["version"],
        "timestamp": db.time(row["timestamp"]),
        "recorded_at": db.time(row["recorded_at"]),
        "expired_at": db.optional_time(row["expired_at"]),
        "source": row["source"],
        "source_type": row["source_type"],
        "actor": None
        if actor_id is None
        else Actor.model_construct(type=row["actor_type"], id=actor_id, name=row["actor_name"]),
        "intent": row["intent"],
        "content": row["content"],
        "metadata": db.json(row["metadata"]),
        "references": db.json(row["refs"]),
        "fingerprint": row["fingerprint"],
        "status": row["status"],
        "operation_id": row["operation_id"],
    }


def episode_from(db: Db, row: Row) -> Episode:
    """Return the Episode of a row holding EPISODE_COLUMNS."""
    return Episode.model_construct(**episode_fields(db, row))


def entity_params(entity: Entity, expired_by: str | None = None) -> dict[str, Any]:
    """Return the parameters of one entity version's row."""
    return {
        "group_id": entity.group_id,
        "id": entity.id,
        "version": entity.version,
        "name": entity.name,
        "type": entity.type,
        "aliases": Json(entity.aliases),
        "attributes": Json(entity.attributes),
        "summary": entity.summary,
        "first_seen": entity.first_seen,
        "last_seen": entity.last_seen,
        "recorded_at": entity.recorded_at,
        "expired_at": entity.expired_at,
        "operation_id": entity.operation_id,
        "expired_by": expired_by,
    }


def entity_fields(db: Db, row: Row) -> dict[str, Any]:
    """Return the Entity fields of a row."""
    return {
        "id": row["id"],
        "group_id": row["group_id"],
        "version": row["version"],
        "name": row["name"],
        "type": row["type"],
        "aliases": db.json(row["aliases"]),
        "attributes": db.json(row["attributes"]),
        "summary": row["summary"],
        "first_seen": db.time(row["first_seen"]),
        "last_seen": db.time(row["last_seen"]),
        "recorded_at": db.time(row["recorded_at"]),
        "expired_at": db.optional_time(row["expired_at"]),
        "operation_id": row["operation_id"],
    }


def entity_from(db: Db, row: Row) -> Entity:
    """Return the Entity of a row holding ENTITY_COLUMNS."""
    return Entity.model_construct(**entity_fields(db, row))


def fact_params(fact: Fact, expired_by: str | None = None) -> dict[str, Any]:
    """Return the parameters of one fact version's row."""
    return {
        "group_id": fact.group_id,
        "id": fact.id,
        "version": fact.version,
        "subject": fact.subject,
        "predicate": fact.predicate,
        "object": fact.object,
        "value": None if fact.value is None else Json(fact.value),
        "fact": fact.fact,
        "conditions": Json(fact.conditions),
        "confidence": fact.confidence,
        "source_kind": fact.source_kind,
        "episodes": Json(fact.episodes),
        "valid_at": fact.valid_at,
        "invalid_at": fact.invalid_at,
        "recorded_at": fact.recorded_at,
        "expired_at": fact.expired_at,
        "status": fact.status,
        "superseded_by": fact.superseded_by,
        "operation_id": fact.operation_id,
        "expired_by": expired_by,
    }


def fact_fields(db: Db, row: Row) -> dict[str, Any]:
    """Return the Fact fields of a row."""
    return {
        "id": row["id"],
        "group_id": row["group_id"],
        "version": row["version"],
        "subject": row["subject"],
        "predicate": row["predicate"],
        "object": row["object"],
        "value": db.json(row["value"]),
        "fact": row["fact"],
        "conditions": db.json(row["conditions"]),
        "confidence": row["confidence"],
        "source_kind": row["source_kind"],
        "episodes": db.json(row["episodes"]),
        "valid_at": db.optional_time(row["valid_at"]),
        "invalid_at": db.optional_time(row["invalid_at"]),
        "recorded_at": db.time(row["recorded_at"]),
        "expired_at": db.optional_time(row["expired_at"]),
        "status": row["status"],
        "superseded_by": row["superseded_by"],
        "operation_id": row["operation_id"],
    }


def fact_from(db: Db, row: Row) -> Fact:
    """Return the Fact of a row holding FACT_COLUMNS."""
    return Fact.model_construct(**fact_fields(db, row))


def operation_params(operation: Operation, extra: dict[str, object] | None = None) -> dict[str, Any]:
    """Return the parameters of an operation's row, ``extra`` merged into its details."""
    return {
        "group_id": operation.group_id,
        "id": operation.id,
        "kind": operation.kind,
        "actor": operation.actor,
        "created_at": operation.created_at,
        "summary": operation.summary,
        "details": Json({**operation.details, **(extra or {})}),
    }


def operation_from(db: Db, row: Row) -> Operation:
    """Return the Operation of a row holding OPERATION_COLUMNS."""
    created_at = db.time(row["created_at"])
    return Operation.model_construct(
        id=row["id"],
        group_id=row["group_id"],
        kind=row["kind"],
        actor=row["actor"],
        created_at=created_at,
        summary=row["summary"],
        details=db.json(row["details"]),
    )


def insert_operation(db: Db, operation: Operation, extra: dict[str, object] | None = None) -> None:
    """Store ``operation`` with ``extra`` merged into its details."""
    db.run(INSERT_OPERATION, operation_params(operation, extra))


def candidate_from(db: Db, row: Row) -> MergeCandidate:
    """Return the MergeCandidate of a row holding CANDIDATE_COLUMNS."""
    created_at = db.time(row["created_at"])
    return MergeCandidate(
        row["entity_id"], row["candidate_id"], float(row["score"]), db.json(row["parts"]), created_at
    )


def version_ref_from(db: Db, kind: Any, row: Row) -> VersionRef:
    """Return the VersionRef of a row holding id, version, operation_id, expired_by, expired_at."""
    return VersionRef(
        kind,
        str(row["id"]),
        int(row["version"]),
        str(row["operation_id"]),
        row["expired_by"],
        db.optional_time(row["expired_at"]),
    )
