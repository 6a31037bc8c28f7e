"""The operation log and versions by operation, in SQL written once.

Every row version names the operation that created it (``operation_id``) and the one that
closed it (``expired_by``), so an operation's effect is exactly those versions; revert and
delete (engram.history) are built from these reads and the writes of a transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engram.models.episodes import Episode, Operation
from engram.models.graph import Entity, Fact
from engram.storage.graph import fact_version
from engram.storage.rows import (
    ENTITY,
    EPISODE,
    OPERATION,
    VERSIONED_TABLES,
    E,
    N,
    version_ref_from,
)
from engram.storage.sql import Db
from engram.storage.types import ObjectKind, OperationQuery, VersionRef

OPERATION_COLUMNS = OPERATION.select


def get_operation(db: Db, group_id: str, operation_id: str) -> Operation | None:
    """Return a recorded operation."""
    return OPERATION.one(
        db,
        f"SELECT {OPERATION_COLUMNS} FROM operations o WHERE o.group_id = :g AND o.id = :id",
        {"g": group_id, "id": operation_id},
    )


def list_operations(
    db: Db, group_id: str, query: OperationQuery, limit: int, after_key: tuple[datetime, str] | None
) -> list[Operation]:
    """Return operations matching ``query``, newest first, after the (created_at, id) key."""
    d = db.dialect
    where, params = "", {"g": group_id, "limit": limit}
    if query.kinds:
        clause, more = d.in_list("o.kind", "kinds", list(query.kinds))
        where, params = f"{where} AND {clause}", params | more
    if query.after is not None:
        where += " AND o.created_at >= :after"
        params["after"] = query.after
    if query.before is not None:
        where += " AND o.created_at < :before"
        params["before"] = query.before
    if query.actor is not None:
        where += " AND o.actor = :actor"
        params["actor"] = query.actor
    if after_key is not None:
        where += " AND (o.created_at, o.id) < (:key_at, :key_id)"
        params |= {"key_at": after_key[0], "key_id": after_key[1]}
    if query.entity_id:
        where += (
            " AND o.id IN (SELECT operation_id FROM entities WHERE group_id = :g AND id = :en "
            "UNION SELECT expired_by FROM entities WHERE group_id = :g AND id = :en "
            "UNION SELECT operation_id FROM mentions WHERE group_id = :g AND entity_id = :en "
            "UNION SELECT operation_id FROM facts WHERE group_id = :g AND subject = :en "
            "UNION SELECT operation_id FROM facts WHERE group_id = :g AND object = :en)"
        )
        params["en"] = query.entity_id
    if query.episode_id:
        where += (
            " AND (o.id IN (SELECT operation_id FROM episodes WHERE group_id = :g AND id = :ep "
            "UNION SELECT expired_by FROM episodes WHERE group_id = :g AND id = :ep) "
            f"OR {d.json_text('o.details', 'episode')} = :ep OR "
            f"{d.json_array_has('o.details', 'ep', key='episodes')})"
        )
        params["ep"] = query.episode_id
    return OPERATION.all(
        db,
        f"SELECT {OPERATION_COLUMNS} FROM operations o WHERE o.group_id = :g{where} "
        "ORDER BY o.created_at DESC, o.id DESC LIMIT :limit",
        params,
    )


def touched_by(db: Db, group_id: str, operation_id: str) -> list[VersionRef]:
    """Return every version the operation created or closed (episodes, entities, facts)."""
    refs: list[VersionRef] = []
    for kind, table in VERSIONED_TABLES.items():
        rows = db.rows(
            f"SELECT id, version, operation_id, expired_by, expired_at FROM {table} "
            "WHERE group_id = :g AND operation_id = :op UNION "
            f"SELECT id, version, operation_id, expired_by, expired_at FROM {table} "
            "WHERE group_id = :g AND expired_by = :op ORDER BY 1, 2",
            {"g": group_id, "op": operation_id},
        )
        refs += [version_ref_from(db, kind, row) for row in rows]
    return refs


def versions(db: Db, group_id: str, kind: ObjectKind, object_id: str) -> list[VersionRef]:
    """Return every version of one object, oldest first."""
    rows = db.rows(
        f"SELECT id, version, operation_id, expired_by, expired_at FROM {VERSIONED_TABLES[kind]} "
        "WHERE group_id = :g AND id = :id ORDER BY version",
        {"g": group_id, "id": object_id},
    )
    return [version_ref_from(db, kind, row) for row in rows]


def episode_version(db: Db, group_id: str, episode_id: str, version: int) -> Episode | None:
    """Return one stored version of an episode."""
    return EPISODE.one(
        db,
        f"SELECT {E} FROM episodes e WHERE e.group_id = :g AND e.id = :id AND e.version = :v",
        {"g": group_id, "id": episode_id, "v": version},
    )


def entity_version(db: Db, group_id: str, entity_id: str, version: int) -> Entity | None:
    """Return one stored version of an entity."""
    return ENTITY.one(
        db,
        f"SELECT {N} FROM entities n WHERE n.group_id = :g AND n.id = :id AND n.version = :v",
        {"g": group_id, "id": entity_id, "v": version},
    )


def version(
    db: Db, group_id: str, kind: ObjectKind, object_id: str, number: int
) -> Episode | Entity | Fact | None:
    """Return one stored version of an episode, entity or fact, or None."""
    if kind == "episode":
        return episode_version(db, group_id, object_id, number)
    if kind == "entity":
        return entity_version(db, group_id, object_id, number)
    return fact_version(db, "facts", group_id, object_id, number)


def entities_unmentioned(details: dict[str, Any], episode_id: str) -> set[str]:
    """Return the entities whose mentions of ``episode_id`` an operation removed (from its details).

    A delete records them under ``mentions_removed`` (entity, episode, operation); a revert of
    an ingest under each of its ``retracted`` episodes. Purge reads them: an entity only a
    deleted episode mentioned has no mention row left, yet only that episode supports it.
    """
    found: set[str] = set()
    for part in [details, *details.get("retracted", [])]:
        for removed in part.get("mentions_removed", []):
            if len(removed) >= 2 and removed[1] == episode_id:
                found.add(str(removed[0]))
    return found
