"""Fact hits and the fact archive on PostgreSQL (issue #5): FactArchive for PostgresStore.

The same semantics as sqlite_archive.py on the tables of postgres_schema.py migration 5.
``fact_hits`` is written in batches by a HitBuffer (one upsert transaction per batch).
``archive_facts`` runs in one transaction under the group's graph lock (graph writers of the
group wait), and moves the facts' versions to ``archived_facts`` and their ``fact_docs``
rows, text included, to ``archived_fact_docs``: the stored text is moved, so the callback
that rebuilds index text (SQLite's contentless index needs it) is not called here.
``archive_rows`` and ``unarchive_rows`` move given facts either way inside a history
transaction (revert, delete).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

import psycopg

from engram.errors import StoreError
from engram.models.episodes import Operation
from engram.models.graph import Fact
from engram.storage.graph_protocol import FactQuery, GraphTxn
from engram.storage.hit_buffer import Hit, HitBuffer
from engram.storage.postgres.graph_rows import FACT_COLUMNS, F, fact_filter, fact_from_row
from engram.storage.postgres.graph_text import FactText
from engram.storage.postgres.rows import insert_operation

logger = logging.getLogger("engram.store")
Connection = psycopg.Connection[Any]
_CREATING = threading.Lock()  # guards the lazy creation of a store's hit buffer

_ARCHIVABLE = """
    SELECT f.id FROM facts f
    WHERE f.group_id = %s
      AND f.version = (SELECT max(v.version) FROM facts v WHERE v.group_id = f.group_id AND v.id = f.id)
      AND (f.status NOT IN ('current', 'disputed') OR f.expired_at IS NOT NULL)
      AND coalesce(f.expired_at, f.recorded_at) < %s
      AND NOT EXISTS (SELECT 1 FROM fact_hits h WHERE h.group_id = f.group_id AND h.fact_id = f.id)
    ORDER BY f.id
"""
_MOVE = (
    f"INSERT INTO archived_facts ({FACT_COLUMNS}, expired_by, archived_at, archived_by) "
    f"SELECT {FACT_COLUMNS}, expired_by, %s, %s FROM facts WHERE group_id = %s AND id = ANY(%s)"
)
_MOVE_DOCS = (
    "INSERT INTO archived_fact_docs (group_id, id, text) "
    "SELECT group_id, id, text FROM fact_docs WHERE group_id = %s AND id = ANY(%s) "
    "ON CONFLICT (group_id, id) DO UPDATE SET text = excluded.text"
)
_ARCHIVED_IDS = (
    "SELECT DISTINCT id FROM archived_facts WHERE group_id = %s AND id = ANY(%s) "
    "AND (%s::text IS NULL OR archived_by = %s)"
)
# Archives made before expired_by was moved lost it: a version closed by its successor is
# closed by the operation that stored the successor.
_RESTORE = (
    f"INSERT INTO facts ({FACT_COLUMNS}, expired_by) SELECT {F}, CASE WHEN f.expired_at IS NULL THEN NULL "
    "ELSE coalesce(f.expired_by, (SELECT n.operation_id FROM archived_facts n WHERE n.group_id = f.group_id "
    "AND n.id = f.id AND n.version = f.version + 1)) END FROM archived_facts f "
    "WHERE f.group_id = %s AND f.id = ANY(%s)"
)
_RESTORE_DOCS = (
    "INSERT INTO fact_docs (group_id, id, text) "
    "SELECT group_id, id, text FROM archived_fact_docs WHERE group_id = %s AND id = ANY(%s) "
    "ON CONFLICT (group_id, id) DO UPDATE SET text = excluded.text"
)
_SUPERSEDED_BY = """
    SELECT f.id FROM archived_facts f
    WHERE f.group_id = %s AND f.superseded_by = %s
      AND f.version = (SELECT max(v.version) FROM archived_facts v
                       WHERE v.group_id = f.group_id AND v.id = f.id)
    ORDER BY f.id
"""


class PostgresArchiveMixin:
    """The FactArchive methods of PostgresStore (which provides connections, locks and FactText)."""

    _connection: Callable[[], AbstractContextManager[Connection]]
    _transaction: Callable[[], AbstractContextManager[Connection]]
    _lock: Callable[[Connection, Sequence[tuple[str, ...]]], None]
    _fact_text: FactText
    _hit_buffer: HitBuffer | None = None

    def _hits(self) -> HitBuffer:
        buffer = self._hit_buffer
        if buffer is None:
            with _CREATING:
                if self._hit_buffer is None:
                    self._hit_buffer = HitBuffer(self._write_hits)
                buffer = self._hit_buffer
        return buffer

    def _write_hits(self, hits: Sequence[Hit]) -> None:
        groups, facts, times = zip(*hits, strict=True) if hits else ((), (), ())
        try:
            with self._transaction() as conn:
                conn.execute(
                    "INSERT INTO fact_hits (group_id, fact_id, last_returned_at) "
                    "SELECT * FROM unnest(%s::text[], %s::text[], %s::timestamptz[]) "
                    "ON CONFLICT (group_id, fact_id) DO UPDATE SET last_returned_at = "
                    "greatest(fact_hits.last_returned_at, excluded.last_returned_at)",
                    (list(groups), list(facts), list(times)),
                )
        except psycopg.Error as exc:
            raise StoreError(f"cannot record fact hits: {exc}") from exc

    def record_fact_hits(self, group_id: str, fact_ids: Sequence[str], at: datetime) -> None:
        """Remember that a search returned these facts; see FactArchive."""
        self._hits().add(group_id, fact_ids, at)

    def flush_fact_hits(self) -> None:
        """Write buffered hits now; see FactArchive."""
        if self._hit_buffer is not None:
            self._hit_buffer.flush()

    def _close_fact_hits(self) -> None:
        """Write buffered hits before the store closes; a failure is logged, not raised."""
        try:
            self.flush_fact_hits()
        except StoreError as exc:
            logger.warning("fact hits lost at close: %s", exc.detail)

    def archive_facts(
        self,
        group_id: str,
        cutoff: datetime,
        operation: Operation,
        index_text: Callable[[GraphTxn, Fact], str],
        *,
        dry_run: bool,
    ) -> tuple[list[str], int]:
        """Move old, inactive, never-returned facts to the archive; see FactArchive."""
        self.flush_fact_hits()
        with self._transaction() as conn:
            self._lock(conn, [(group_id, "graph")])
            ids = [str(row[0]) for row in conn.execute(_ARCHIVABLE, (group_id, cutoff)).fetchall()]
            if not ids:
                return [], 0
            row = conn.execute(
                "SELECT count(*) FROM facts WHERE group_id = %s AND id = ANY(%s)", (group_id, ids)
            ).fetchone()
            versions = int(row[0]) if row else 0
            if dry_run:
                return ids, versions
            with conn.pipeline():
                _move_out(conn, group_id, ids, operation.created_at, operation.id)
                details = {"facts": ids, "versions": versions, "cutoff": cutoff.isoformat()}
                insert_operation(conn, operation, details)
        return ids, versions

    def search_archived_facts(
        self, group_id: str, terms: Sequence[str], query: FactQuery, limit: int
    ) -> list[tuple[Fact, float]]:
        """Return archived fact versions matching ``query``; see FactArchive."""
        clause, params = fact_filter(query)
        with self._connection() as conn:
            if terms:
                return self._fact_text.search(
                    conn,
                    group_id,
                    terms,
                    clause,
                    params,
                    limit,
                    inactive_weight=query.inactive_weight,
                    archived=True,
                )
            rows = conn.execute(
                f"SELECT {F} FROM archived_facts f WHERE f.group_id = %s AND {clause} "
                "ORDER BY coalesce(f.valid_at, f.recorded_at) DESC, f.id, f.version LIMIT %s",
                (group_id, *params, limit),
            ).fetchall()
        return [(fact_from_row(row), 0.0) for row in rows]


def _move_out(conn: Connection, group_id: str, ids: Sequence[str], at: datetime, operation_id: str) -> None:
    """Move every version of the facts and their full-text row to the archive; drop their vectors."""
    conn.execute(_MOVE, (at, operation_id, group_id, list(ids)))
    conn.execute("DELETE FROM facts WHERE group_id = %s AND id = ANY(%s)", (group_id, list(ids)))
    conn.execute(_MOVE_DOCS, (group_id, list(ids)))
    conn.execute("DELETE FROM fact_docs WHERE group_id = %s AND id = ANY(%s)", (group_id, list(ids)))
    conn.execute("DELETE FROM fact_vectors WHERE group_id = %s AND id = ANY(%s)", (group_id, list(ids)))


def archive_rows(
    conn: Connection, group_id: str, fact_ids: Sequence[str], at: datetime, operation_id: str
) -> tuple[list[str], int]:
    """Move every version of the live facts among ``fact_ids`` to the archive; return (ids, versions).

    Runs inside the caller's transaction (which holds the group's graph lock); see
    HistoryTxn.archive_fact_ids.
    """
    wanted = list(dict.fromkeys(fact_ids))
    rows = conn.execute(
        "SELECT id, count(*) FROM facts WHERE group_id = %s AND id = ANY(%s) GROUP BY id", (group_id, wanted)
    ).fetchall()
    counts = {str(row[0]): int(row[1]) for row in rows}
    ids = [fact_id for fact_id in wanted if fact_id in counts]
    if ids:
        _move_out(conn, group_id, ids, at, operation_id)
    return ids, sum(counts.values())


def unarchive_rows(
    conn: Connection, group_id: str, fact_ids: Sequence[str], archived_by: str | None
) -> list[str]:
    """Move every version of the archived facts among ``fact_ids`` back to ``facts``; return their ids.

    Only facts archived by ``archived_by`` when given. Their ``archived_fact_docs`` rows move
    back to ``fact_docs``. Runs inside the caller's transaction; see HistoryTxn.unarchive_facts.
    """
    wanted = list(dict.fromkeys(fact_ids))
    found = {str(row[0]) for row in conn.execute(_ARCHIVED_IDS, (group_id, wanted, archived_by, archived_by))}
    ids = [fact_id for fact_id in wanted if fact_id in found]
    if ids:
        conn.execute(_RESTORE, (group_id, ids))
        conn.execute("DELETE FROM archived_facts WHERE group_id = %s AND id = ANY(%s)", (group_id, ids))
        conn.execute(_RESTORE_DOCS, (group_id, ids))
        conn.execute("DELETE FROM archived_fact_docs WHERE group_id = %s AND id = ANY(%s)", (group_id, ids))
    return ids


def archived_superseded_by(conn: Connection, group_id: str, fact_id: str) -> list[str]:
    """Return the archived facts whose latest version names ``fact_id`` as its successor."""
    return [str(row[0]) for row in conn.execute(_SUPERSEDED_BY, (group_id, fact_id)).fetchall()]
