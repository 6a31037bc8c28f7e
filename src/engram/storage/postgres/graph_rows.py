"""Row codec for the PostgreSQL graph: entities and facts to and from rows, version and fact filters."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from engram.models.graph import Entity, Fact
from engram.storage.graph_protocol import FactQuery

Connection = psycopg.Connection[Any]

ENTITY_COLUMNS = (
    "group_id, id, version, name, type, aliases, attributes, summary, first_seen, last_seen, "
    "recorded_at, expired_at, operation_id"
)
FACT_COLUMNS = (
    "group_id, id, version, subject, predicate, object, value, fact, conditions, confidence, source_kind, "
    "episodes, valid_at, invalid_at, recorded_at, expired_at, status, superseded_by, operation_id"
)
E = ", ".join(f"e.{c.strip()}" for c in ENTITY_COLUMNS.split(","))
F = ", ".join(f"f.{c.strip()}" for c in FACT_COLUMNS.split(","))
N_FACT_COLUMNS = 19
INSERT_ENTITY = f"INSERT INTO entities ({ENTITY_COLUMNS}) VALUES ({', '.join(['%s'] * 13)})"
INSERT_FACT = f"INSERT INTO facts ({FACT_COLUMNS}) VALUES ({', '.join(['%s'] * N_FACT_COLUMNS)})"


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def entity_from_row(row: Sequence[Any]) -> Entity:
    """Return the Entity of the first 13 columns of ``row`` (ENTITY_COLUMNS order)."""
    (
        group_id,
        id_,
        version,
        name,
        type_,
        aliases,
        attributes,
        summary,
        first_seen,
        last_seen,
        recorded_at,
        expired_at,
        operation_id,
    ) = row[:13]
    return Entity(
        id=id_,
        group_id=group_id,
        version=version,
        name=name,
        type=type_,
        aliases=aliases,
        attributes=attributes,
        summary=summary,
        first_seen=first_seen.astimezone(UTC),
        last_seen=last_seen.astimezone(UTC),
        recorded_at=recorded_at.astimezone(UTC),
        expired_at=_utc(expired_at),
        operation_id=operation_id,
    )


def entity_row(entity: Entity) -> tuple[Any, ...]:
    """Return the INSERT_ENTITY parameters of a new (current) version."""
    return (
        entity.group_id,
        entity.id,
        entity.version,
        entity.name,
        entity.type,
        Jsonb(entity.aliases),
        Jsonb(entity.attributes),
        entity.summary,
        entity.first_seen,
        entity.last_seen,
        entity.recorded_at,
        None,
        entity.operation_id,
    )


def fact_from_row(row: Sequence[Any]) -> Fact:
    """Return the Fact of the first N_FACT_COLUMNS of ``row`` (FACT_COLUMNS order)."""
    (
        group_id,
        id_,
        version,
        subject,
        predicate,
        object_,
        value,
        fact,
        conditions,
        confidence,
        source_kind,
        episodes,
        valid_at,
        invalid_at,
        recorded_at,
        expired_at,
        status,
        superseded_by,
        operation_id,
    ) = row[:N_FACT_COLUMNS]
    return Fact(
        id=id_,
        group_id=group_id,
        version=version,
        subject=subject,
        predicate=predicate,
        object=object_,
        value=value,
        fact=fact,
        conditions=conditions,
        confidence=confidence,
        source_kind=source_kind,
        episodes=episodes,
        valid_at=_utc(valid_at),
        invalid_at=_utc(invalid_at),
        recorded_at=recorded_at.astimezone(UTC),
        expired_at=_utc(expired_at),
        status=status,
        superseded_by=superseded_by,
        operation_id=operation_id,
    )


def fact_row(fact: Fact) -> tuple[Any, ...]:
    """Return the INSERT_FACT parameters of a new (current) version."""
    return (
        fact.group_id,
        fact.id,
        fact.version,
        fact.subject,
        fact.predicate,
        fact.object,
        None if fact.value is None else Jsonb(fact.value),
        fact.fact,
        Jsonb(fact.conditions),
        fact.confidence,
        fact.source_kind,
        Jsonb(fact.episodes),
        fact.valid_at,
        fact.invalid_at,
        fact.recorded_at,
        None,
        fact.status,
        fact.superseded_by,
        fact.operation_id,
    )


def time_filter(alias: str, known_at: datetime | None) -> tuple[str, list[Any]]:
    """Return the clause picking the versions held at ``known_at`` (the current ones when None)."""
    if known_at is None:
        return f"{alias}.expired_at IS NULL", []
    return (
        f"{alias}.recorded_at <= %s AND ({alias}.expired_at IS NULL OR {alias}.expired_at > %s)",
        [known_at, known_at],
    )


def fact_filter(query: FactQuery) -> tuple[str, list[Any]]:
    """Return the clause (alias ``f``) and parameters selecting the facts ``query`` asks for."""
    clause, params = time_filter("f", query.known_at)
    if query.as_of is not None:
        clause += (
            " AND (f.valid_at IS NULL OR f.valid_at <= %s) AND (f.invalid_at IS NULL OR f.invalid_at > %s)"
            " AND f.status != 'retracted'"
        )
        params += [query.as_of, query.as_of]
    elif not query.include_history:
        clause += " AND f.status IN ('current', 'disputed')"
    if query.subject is not None:
        clause += " AND (f.subject = %s OR f.object = %s)"
        params += [query.subject, query.subject]
    if query.predicate is not None:
        clause += " AND f.predicate = %s"
        params.append(query.predicate)
    return clause, params


def like_patterns(keys: Sequence[str]) -> list[str]:
    """Return the ``%key%`` patterns SQLite's store matches names with (``_`` stays a wildcard there too).

    Keys are normalised names and query words: ``_`` in a query word matches the space that
    normalisation made of it in a name; ``%`` never survives normalisation.
    """
    return [f"%{key}%" for key in keys]
