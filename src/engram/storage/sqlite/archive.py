"""Fact hits and the fact archive on SQLite (issue #5): FactArchive for SQLiteStore.

``fact_hits`` holds, per fact, when a search last returned it (written in batches by a
HitBuffer). ``archive_facts`` moves every version of old, inactive, never-returned facts
from ``facts`` to ``archived_facts`` and their full-text row from ``facts_fts`` to
``archived_facts_fts``, in one transaction with its ``archive`` operation. ``archive_rows`` and
``unarchive_rows`` move given facts either way inside a history transaction (revert, delete).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import apsw

from engram.errors import StoreError
from engram.models.episodes import Operation
from engram.models.graph import Fact
from engram.storage.graph_protocol import FactQuery, GraphTxn
from engram.storage.hit_buffer import Hit, HitBuffer
from engram.storage.sqlite.graph import FACT_COLUMNS, F, SQLiteGraphTxn, fact_from_row, search_facts_in
from engram.storage.sqlite.rows import ts

_ARCHIVABLE = f"""
    SELECT {F}, f.doc FROM facts f
    WHERE f.group_id = ?
      AND f.version = (SELECT max(v.version) FROM facts v WHERE v.group_id = f.group_id AND v.id = f.id)
      AND (f.status NOT IN ('current', 'disputed') OR f.expired_at IS NOT NULL)
      AND coalesce(f.expired_at, f.recorded_at) < ?
      AND NOT EXISTS (SELECT 1 FROM fact_hits h WHERE h.group_id = f.group_id AND h.fact_id = f.id)
    ORDER BY f.id
"""

logger = logging.getLogger("engram.store")
_CREATING = threading.Lock()  # guards the lazy creation of a store's hit buffer

_MOVE = (
    f"INSERT INTO archived_facts (doc, {FACT_COLUMNS}, expired_by, archived_at, archived_by) "
    f"SELECT doc, {FACT_COLUMNS}, expired_by, ?, ? FROM facts WHERE group_id = ? AND id = ?"
)
_LATEST_LIVE = (
    f"SELECT {F}, f.doc FROM facts f WHERE f.group_id = ? AND f.id = ? ORDER BY f.version DESC LIMIT 1"
)
_LATEST_ARCHIVED = (
    f"SELECT {F}, f.doc FROM archived_facts f WHERE f.group_id = ? AND f.id = ? "
    "AND (? IS NULL OR f.archived_by = ?) ORDER BY f.version DESC LIMIT 1"
)
_RESTORE = (
    f"INSERT INTO facts (doc, {FACT_COLUMNS}, expired_by) "
    f"SELECT doc, {FACT_COLUMNS}, expired_by FROM archived_facts WHERE group_id = ? AND id = ?"
)
_SUPERSEDED_BY = """
    SELECT f.id FROM archived_facts f
    WHERE f.group_id = ? AND f.superseded_by = ?
      AND f.version = (SELECT max(v.version) FROM archived_facts v
                       WHERE v.group_id = f.group_id AND v.id = f.id)
    ORDER BY f.id
"""


class SQLiteArchiveMixin:
    """The FactArchive methods of SQLiteStore (which provides ``_write`` and ``_connection``)."""

    _write: Callable[..., Any]
    _connection: Callable[[], apsw.Connection]
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
        rows = [(group, fact, ts(at)) for group, fact, at in hits]

        def upsert(conn: apsw.Connection) -> None:
            conn.executemany(
                "INSERT INTO fact_hits (group_id, fact_id, last_returned_at) VALUES (?, ?, ?) "
                "ON CONFLICT (group_id, fact_id) DO UPDATE SET last_returned_at = "
                "max(last_returned_at, excluded.last_returned_at)",
                rows,
            )

        try:
            self._write(upsert)
        except apsw.Error as exc:
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

        def archive(conn: apsw.Connection) -> tuple[list[str], int]:
            rows = conn.execute(_ARCHIVABLE, (group_id, ts(cutoff))).fetchall()
            latest = [(fact_from_row(row), int(row[19])) for row in rows]  # type: ignore[arg-type]
            ids = [fact.id for fact, _ in latest]
            if not ids:
                return [], 0
            versions = _count_versions(conn, group_id, ids)
            if dry_run:
                return ids, versions
            txn = SQLiteGraphTxn(conn)
            at = operation.created_at
            _move_out(conn, group_id, latest, at, operation.id, lambda fact: index_text(txn, fact))
            txn.record_operation(operation, {"facts": ids, "versions": versions, "cutoff": ts(cutoff)})
            return ids, versions

        result: tuple[list[str], int] = self._write(archive)
        return result

    def search_archived_facts(
        self, group_id: str, terms: Sequence[str], query: FactQuery, limit: int
    ) -> list[tuple[Fact, float]]:
        """Return archived fact versions matching ``query``; see FactArchive."""
        return search_facts_in(self._connection(), "archived_facts", group_id, terms, query, limit)


def _count_versions(conn: apsw.Connection, group_id: str, ids: Sequence[str]) -> int:
    """Return how many versions the facts have in ``facts``."""
    total = 0
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        row = conn.execute(
            f"SELECT count(*) FROM facts WHERE group_id = ? AND id IN ({', '.join('?' * len(chunk))})",
            (group_id, *chunk),
        ).fetchone()
        total += int(row[0]) if row else 0
    return total


def _move_out(
    conn: apsw.Connection,
    group_id: str,
    latest: Sequence[tuple[Fact, int]],
    at: datetime,
    operation_id: str,
    index_text: Callable[[Fact], str],
) -> None:
    """Move every version of the facts (latest version, doc) and their full-text row to the archive."""
    texts = [(doc, index_text(fact)) for fact, doc in latest]
    stamp = ts(at)
    conn.executemany(_MOVE, [(stamp, operation_id, group_id, fact.id) for fact, _ in latest])
    conn.executemany("DELETE FROM facts WHERE group_id = ? AND id = ?", [(group_id, f.id) for f, _ in latest])
    conn.executemany("DELETE FROM facts_fts WHERE rowid = ?", [(doc,) for doc, _ in texts])
    conn.executemany("DELETE FROM fact_vectors WHERE doc = ?", [(doc,) for doc, _ in texts])
    conn.executemany("INSERT INTO archived_facts_fts (rowid, text) VALUES (?, ?)", texts)


def archive_rows(
    conn: apsw.Connection,
    group_id: str,
    fact_ids: Sequence[str],
    at: datetime,
    operation_id: str,
    index_text: Callable[[Fact], str],
) -> tuple[list[str], int]:
    """Move every version of the live facts among ``fact_ids`` to the archive; return (ids, versions).

    Runs inside the caller's transaction; see HistoryTxn.archive_fact_ids.
    """
    latest = []
    for fact_id in dict.fromkeys(fact_ids):
        row = conn.execute(_LATEST_LIVE, (group_id, fact_id)).fetchone()
        if row is not None:
            latest.append((fact_from_row(row), int(row[19])))
    ids = [fact.id for fact, _ in latest]
    if not ids:
        return [], 0
    versions = _count_versions(conn, group_id, ids)
    _move_out(conn, group_id, latest, at, operation_id, index_text)
    return ids, versions


def unarchive_rows(
    conn: apsw.Connection,
    group_id: str,
    fact_ids: Sequence[str],
    archived_by: str | None,
    index_text: Callable[[Fact], str],
) -> list[str]:
    """Move every version of the archived facts among ``fact_ids`` back to ``facts``; return their ids.

    Only facts archived by ``archived_by`` when given. The fact keeps its doc; its live
    full-text row is rebuilt from ``index_text(latest version)`` and the archive's is dropped.
    Runs inside the caller's transaction; see HistoryTxn.unarchive_facts.
    """
    restored = []
    for fact_id in dict.fromkeys(fact_ids):
        row = conn.execute(_LATEST_ARCHIVED, (group_id, fact_id, archived_by, archived_by)).fetchone()
        if row is None:
            continue
        fact, doc = fact_from_row(row), int(row[19])
        conn.execute(_RESTORE, (group_id, fact_id))
        conn.execute("DELETE FROM archived_facts WHERE group_id = ? AND id = ?", (group_id, fact_id))
        conn.execute("DELETE FROM archived_facts_fts WHERE rowid = ?", (doc,))
        conn.execute("INSERT INTO facts_fts (rowid, text) VALUES (?, ?)", (doc, index_text(fact)))
        restored.append(fact_id)
    return restored


def archived_superseded_by(conn: apsw.Connection, group_id: str, fact_id: str) -> list[str]:
    """Return the archived facts whose latest version names ``fact_id`` as its successor."""
    return [str(row[0]) for row in conn.execute(_SUPERSEDED_BY, (group_id, fact_id)).fetchall()]
