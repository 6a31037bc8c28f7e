"""Fact hits and the fact archive in SQL written once: cold storage for old, unused fact history.

``fact_hits`` holds, per fact, when a search last returned it (written in batches by a
HitBuffer). Archiving moves every version of old, inactive, never-returned facts from
``facts`` to ``archived_facts``, their full-text row to the archive's index, and drops their
vector, in one transaction with its ``archive`` operation. ``archive_ids`` and
``unarchive_ids`` move given facts either way inside a history transaction (revert, delete).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from engram.models.graph import Fact
from engram.storage.backend import Backend
from engram.storage.graph import fact_version
from engram.storage.rows import FACT, FACTS, F
from engram.storage.sql import Db, select_list

_COLUMNS = ", ".join(FACTS.columns)
_LATEST = "f.version = (SELECT max(v.version) FROM {table} v WHERE v.group_id = f.group_id AND v.id = f.id)"
"""True for the latest version ``f`` of a fact in ``table``."""
_ARCHIVABLE = f"""
    SELECT {F} FROM facts f
    WHERE f.group_id = :g AND {_LATEST.format(table="facts")}
      AND (f.status NOT IN ('current', 'disputed') OR f.expired_at IS NOT NULL)
      AND coalesce(f.expired_at, f.recorded_at) < :cutoff
      AND NOT EXISTS (SELECT 1 FROM fact_hits h WHERE h.group_id = f.group_id AND h.fact_id = f.id)
    ORDER BY f.id
"""
# Archives made before expired_by moved with the versions lost it: a version closed by its
# successor was closed by the operation that stored the successor.
_RESTORED_EXPIRED_BY = (
    "CASE WHEN f.expired_at IS NULL THEN NULL ELSE coalesce(f.expired_by, (SELECT n.operation_id "
    "FROM archived_facts n WHERE n.group_id = f.group_id AND n.id = f.id AND n.version = f.version + 1)) END"
)
_RESTORE = (
    f"INSERT INTO facts ({_COLUMNS}) SELECT {select_list('f', FACTS.columns[:-1])}, {_RESTORED_EXPIRED_BY} "
    "FROM archived_facts f WHERE f.group_id = :g AND "
)


def write_hits(db: Db, hits: Sequence[tuple[str, str, datetime]]) -> None:
    """Record when searches returned facts: per fact, the later of the stored and the given time."""
    db.run_many(
        "INSERT INTO fact_hits (group_id, fact_id, last_returned_at) VALUES (:g, :f, :at) "
        "ON CONFLICT (group_id, fact_id) DO UPDATE SET last_returned_at = "
        f"{db.dialect.greatest}(fact_hits.last_returned_at, excluded.last_returned_at)",
        [{"g": group, "f": fact, "at": at} for group, fact, at in hits],
    )


def archivable(db: Db, group_id: str, cutoff: datetime) -> list[Fact]:
    """Return the latest version of every fact the archive may take: inactive, older than ``cutoff``,
    never returned by a search."""
    return FACT.all(db, _ARCHIVABLE, {"g": group_id, "cutoff": cutoff})


def count_versions(db: Db, table: str, group_id: str, fact_ids: Sequence[str]) -> int:
    """Return how many versions the facts have in ``table``."""
    clause, params = db.dialect.in_list("id", "ids", fact_ids)
    return int(
        db.value(
            f"SELECT count(*) AS n FROM {table} WHERE group_id = :g AND {clause}", {"g": group_id, **params}
        )
    )


def move_out(
    db: Db,
    backend: Backend,
    group_id: str,
    latest: Sequence[Fact],
    at: datetime,
    operation_id: str,
    index_text: Callable[[Fact], str],
) -> tuple[list[str], int]:
    """Move every version of the facts (their latest versions given) to the archive; return (ids, "
    "versions)."""
    ids = [fact.id for fact in latest]
    if not ids:
        return [], 0
    versions = count_versions(db, "facts", group_id, ids)
    clause, params = db.dialect.in_list("id", "ids", ids)
    params |= {"g": group_id, "at": at, "by": operation_id}
    db.run(
        f"INSERT INTO archived_facts ({_COLUMNS}, archived_at, archived_by) "
        f"SELECT {_COLUMNS}, :at, :by FROM facts WHERE group_id = :g AND {clause}",
        params,
    )
    db.run(f"DELETE FROM facts WHERE group_id = :g AND {clause}", params)
    backend.fulltext.move_facts(db, group_id, latest, index_text, archive=True)
    backend.vectors.drop_facts(db, group_id, ids)
    return ids, versions


def archive_ids(
    db: Db,
    backend: Backend,
    group_id: str,
    fact_ids: Sequence[str],
    at: datetime,
    operation_id: str,
    index_text: Callable[[Fact], str],
) -> tuple[list[str], int]:
    """Move every version of the live facts among ``fact_ids`` to the archive; return (ids, versions)."""
    latest = [
        f for f in (fact_version(db, "facts", group_id, i) for i in dict.fromkeys(fact_ids)) if f is not None
    ]
    return move_out(db, backend, group_id, latest, at, operation_id, index_text)


def unarchive_ids(
    db: Db,
    backend: Backend,
    group_id: str,
    fact_ids: Sequence[str],
    archived_by: str | None,
    index_text: Callable[[Fact], str],
) -> list[str]:
    """Move every version of the archived facts among ``fact_ids`` back to ``facts``; return their ids.

    Only facts archived by ``archived_by`` when given; ids not in the archive are skipped.
    Versions keep their operations and times; the vector waits for the indexer again.
    """
    if not fact_ids:
        return []
    clause, params = db.dialect.in_list("f.id", "ids", list(dict.fromkeys(fact_ids)))
    by = " AND f.archived_by = :by" if archived_by is not None else ""
    latest = FACT.all(
        db,
        f"SELECT {F} FROM archived_facts f WHERE f.group_id = :g AND {clause}{by} "
        f"AND {_LATEST.format(table='archived_facts')} ORDER BY f.id",
        {"g": group_id, "by": archived_by, **params},
    )
    ids = [fact.id for fact in latest]
    if not ids:
        return []
    clause, params = db.dialect.in_list("f.id", "ids", ids)
    db.run(_RESTORE + clause, {"g": group_id, **params})
    db.run(
        f"DELETE FROM archived_facts WHERE group_id = :g AND {clause.replace('f.id', 'id')}",
        {"g": group_id, **params},
    )
    backend.fulltext.move_facts(db, group_id, latest, index_text, archive=False)
    return ids


def archived_superseded_by(db: Db, group_id: str, fact_id: str) -> list[str]:
    """Return the archived facts whose latest version names ``fact_id`` as its successor."""
    rows = db.rows(
        "SELECT f.id FROM archived_facts f WHERE f.group_id = :g AND f.superseded_by = :id "
        f"AND {_LATEST.format(table='archived_facts')} ORDER BY f.id",
        {"g": group_id, "id": fact_id},
    )
    return [str(row["id"]) for row in rows]
