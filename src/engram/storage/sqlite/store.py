"""The embedded default store: SQLite through apsw, WAL mode, one writer thread, per-thread readers.

This is the datasette pattern: every write is a function run on a single dedicated
thread inside ``BEGIN IMMEDIATE … COMMIT``, so writes are serialised and atomic; each
reading thread keeps its own connection, and WAL lets reads run beside the writer.
apsw is used rather than the stdlib module because it bundles a current SQLite
(FTS5 with ``contentless_delete``; the stdlib build here is 3.40).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import apsw

from engram.errors import Conflict, NotFound, PreconditionFailed, StoreError
from engram.models.episodes import Episode, EpisodeFilters, Operation
from engram.storage.protocol import CONTEXT_WEIGHT, NewEpisode, PageKey, ScoredEpisode, Vector
from engram.storage.sqlite.archive import SQLiteArchiveMixin
from engram.storage.sqlite.fulltext import NEXT, PREVIOUS, fts_query, index_with_neighbours, pruned_fts_query
from engram.storage.sqlite.graph import SQLiteGraphMixin
from engram.storage.sqlite.graph_vectors import SQLiteGraphVectorsMixin
from engram.storage.sqlite.history import SQLiteHistoryMixin
from engram.storage.sqlite.migrations import LATEST_VERSION, MIGRATIONS
from engram.storage.sqlite.portable import SQLitePortableMixin
from engram.storage.sqlite.rows import (
    CURRENT,
    E_COLUMNS,
    EPISODE_COLUMNS,
    INSERT_EPISODE,
    episode_from_row,
    episode_row,
    filter_sql,
    held_branches,
    held_sql,
    insert_operation,
    scalar,
    ts,
)
from engram.storage.sqlite.vectors import VectorCache, nearest, to_blob

T = TypeVar("T")


OPTIMIZE_EVERY = 2000
"""Episodes stored between two ``PRAGMA optimize`` runs (statistics for the query planner)."""


SELECT_FIRST_MAX = 25_000
"""Filters selecting at most this many episodes are searched among them (see _selects_few)."""


def _selects_few(conn: apsw.Connection, group_id: str, filters: EpisodeFilters) -> bool:
    """Return True when the filters select few enough current episodes to search among them.

    They must name a column a current-version index leads with (intent, source, actor, a
    time window), and select at most SELECT_FIRST_MAX episodes: counted in that index alone,
    ~1 ms at the cap. Not at a past ``known_at`` (other versions, other indexes), nor with
    metadata (tested row by row), nor for ``as_of`` alone. Measured at 100k: a wide window
    searched this way took 56 ms p50 against 12 ms through the match-driven query.
    """
    indexed = filters.intent or filters.source or filters.actor_id
    window = filters.timestamp_after is not None or filters.timestamp_before is not None
    if filters.known_at is not None or filters.metadata or not (indexed or window):
        return False
    where, params = filter_sql(filters)
    count = scalar(
        conn,
        f"SELECT count(*) FROM (SELECT 1 FROM episodes e WHERE e.group_id = ? AND {CURRENT}{where} LIMIT ?)",
        (group_id, *params, SELECT_FIRST_MAX + 1),
    )
    return int(count) <= SELECT_FIRST_MAX


class SQLiteStore(
    SQLiteGraphVectorsMixin, SQLiteGraphMixin, SQLiteHistoryMixin, SQLiteArchiveMixin, SQLitePortableMixin
):
    """Store on one SQLite file. Thread-safe; several processes may share the file.

    Raises StoreError when the file's schema is newer than this Engram knows.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._connections: list[apsw.Connection] = []
        self._connections_lock = threading.Lock()
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engram-sqlite-writer")
        self._closed = False
        self._vectors = VectorCache()
        self._inserted_since_optimize = 0
        self._write(self._migrate)
        # Statistics let the planner see that an actor filter is selective (without them it
        # walked the time index: 38 ms p95 at 100k); 0x10002 = analyse where useful, bounded.
        self._write(lambda conn: conn.execute("PRAGMA optimize=0x10002"))

    # -- connections ---------------------------------------------------------------------------

    def _connection(self) -> apsw.Connection:
        """Return this thread's connection, opening it on first use."""
        if self._closed:
            raise StoreError("the store is closed")
        conn: apsw.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = apsw.Connection(str(self.path))
            conn.set_busy_timeout(10_000)
            conn.execute("PRAGMA journal_mode = WAL")
            # NORMAL in WAL mode survives a process crash (kill -9); only power loss can drop
            # the last transactions.
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            # Bounds the work of ANALYZE inside PRAGMA optimize (SQLite recommends 100-1000).
            conn.execute("PRAGMA analysis_limit = 1000")
            self._local.conn = conn
            with self._connections_lock:
                self._connections.append(conn)
        return conn

    def _write(self, fn: Callable[[apsw.Connection], T]) -> T:
        """Run ``fn(conn)`` on the writer thread inside one immediate transaction."""
        return self._on_writer(lambda conn: self._transaction(conn, fn))

    def _on_writer(self, fn: Callable[[apsw.Connection], T]) -> T:
        """Run ``fn(conn)`` on the writer thread, outside any transaction (for pragmas and checkpoints)."""
        if self._closed:
            raise StoreError("the store is closed")
        return self._writer.submit(lambda: fn(self._connection())).result()

    @staticmethod
    def _transaction(conn: apsw.Connection, fn: Callable[[apsw.Connection], T]) -> T:
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = fn(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return result

    def _migrate(self, conn: apsw.Connection) -> None:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        current = int(scalar(conn, "SELECT coalesce(max(version), 0) FROM schema_migrations"))
        if current > LATEST_VERSION:
            raise StoreError(
                f"{self.path} has schema version {current}, newer than this Engram ({LATEST_VERSION}); "
                "upgrade Engram"
            )
        for version, sql in MIGRATIONS:
            if version > current:
                conn.execute(sql)
                conn.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                    (version, ts(datetime.now(UTC))),
                )

    def close(self) -> None:
        """Write buffered fact hits, close every connection and stop the writer thread."""
        if self._closed:
            return
        self._close_fact_hits()
        self._writer.shutdown(wait=True)
        self._closed = True
        with self._connections_lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()

    # -- episodes ------------------------------------------------------------------------------

    def insert_episodes(
        self, items: Sequence[NewEpisode], operation: Operation
    ) -> list[tuple[Episode, bool]]:
        """Store new episodes and their operation in one transaction; see Store."""

        def insert(conn: apsw.Connection) -> list[tuple[Episode, bool]]:
            results: list[tuple[Episode, bool]] = []
            for item in items:
                episode = item.episode
                existing = self._existing_id(conn, item)
                if existing is not None:
                    stored = self._current(conn, episode.group_id, existing)
                    assert stored is not None, "episode_docs and episodes disagree"
                    results.append((stored, True))
                    continue
                conn.execute(
                    "INSERT INTO episode_docs (group_id, id, fingerprint, thread, timestamp, text) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        episode.group_id,
                        episode.id,
                        episode.fingerprint,
                        item.thread,
                        ts(episode.timestamp),
                        item.search_text,
                    ),
                )
                doc = conn.last_insert_rowid()
                conn.execute(INSERT_EPISODE, episode_row(episode, doc))
                index_with_neighbours(conn, doc)
                results.append((episode, False))
            created = [episode.id for episode, duplicate in results if not duplicate]
            if created:
                insert_operation(conn, operation, {"episodes": created})
            return results

        results = self._write(insert)
        self._inserted_since_optimize += sum(not duplicate for _, duplicate in results)
        if self._inserted_since_optimize >= OPTIMIZE_EVERY:
            # Fresh statistics keep the planner on the selective indexes as a group grows
            # (measured: import stayed at 760-930/s to 10k episodes instead of falling to 250/s).
            self._inserted_since_optimize = 0
            self._write(lambda conn: conn.execute("PRAGMA optimize=0x10002"))
        return results

    @staticmethod
    def _existing_id(conn: apsw.Connection, item: NewEpisode) -> str | None:
        """Return the id of the stored episode ``item`` duplicates, if any.

        A client id matches when the fingerprint equals the original one or the current
        version's (an intent changed by an update changes the fingerprint).
        """
        episode = item.episode
        if item.client_id:
            rows = conn.execute(
                "SELECT d.fingerprint, e.fingerprint FROM episode_docs d "
                "LEFT JOIN episodes e ON e.doc = d.doc AND e.expired_at IS NULL "
                "WHERE d.group_id = ? AND d.id = ?",
                (episode.group_id, episode.id),
            ).fetchall()
            if not rows:
                return None
            if rows[0][1] is None:
                raise Conflict(
                    f"episode id {episode.id!r} names a deleted episode; revert its delete operation "
                    "to restore it, or choose another id",
                    field="id",
                )
            if episode.fingerprint not in rows[0]:
                raise Conflict(
                    f"episode id {episode.id!r} already names an episode with different content, "
                    "actor or intent; choose another id",
                    field="id",
                )
            return episode.id
        existing: str | None = scalar(
            conn,
            "SELECT id FROM episode_docs d WHERE group_id = ? AND fingerprint = ? "
            "AND EXISTS (SELECT 1 FROM episodes e WHERE e.doc = d.doc AND e.expired_at IS NULL) "
            "ORDER BY doc LIMIT 1",
            (episode.group_id, episode.fingerprint),
        )
        return existing

    @staticmethod
    def _current(conn: apsw.Connection, group_id: str, episode_id: str) -> Episode | None:
        rows = conn.execute(
            f"SELECT {EPISODE_COLUMNS} FROM episodes WHERE group_id = ? AND id = ? AND expired_at IS NULL",
            (group_id, episode_id),
        ).fetchall()
        return episode_from_row(rows[0]) if rows else None

    def get_episode(self, group_id: str, episode_id: str, known_at: datetime | None = None) -> Episode | None:
        """Return the version of an episode held now (or at ``known_at``), or None; see Store."""
        conn = self._connection()
        if known_at is None:
            return self._current(conn, group_id, episode_id)
        held, params = held_sql(known_at)
        rows = conn.execute(
            f"SELECT {E_COLUMNS} FROM episodes e WHERE e.group_id = ? AND e.id = ? AND {held}",
            (group_id, episode_id, *params),
        ).fetchall()
        return episode_from_row(rows[0]) if rows else None

    def update_episode(
        self,
        group_id: str,
        episode_id: str,
        expected_version: int,
        apply: Callable[[Episode], Episode],
        operation: Operation,
    ) -> Episode:
        """Append version n+1 and close version n atomically; see Store."""

        def update(conn: apsw.Connection) -> Episode:
            current = self._current(conn, group_id, episode_id)
            if current is None:
                raise NotFound(f"no episode with id {episode_id!r} in group {group_id!r}", field="id")
            if current.version != expected_version:
                raise PreconditionFailed(
                    f"episode {episode_id!r} is at version {current.version}, not {expected_version}",
                    current_version=current.version,
                )
            new = apply(current)
            conn.execute(
                "UPDATE episodes SET expired_at = ?, expired_by = ? "
                "WHERE group_id = ? AND id = ? AND version = ?",
                (ts(new.recorded_at), operation.id, group_id, episode_id, current.version),
            )
            doc = int(
                scalar(
                    conn, "SELECT doc FROM episode_docs WHERE group_id = ? AND id = ?", (group_id, episode_id)
                )
            )
            conn.execute(INSERT_EPISODE, episode_row(new, doc))
            insert_operation(conn, operation, {"episode": episode_id, "version": new.version})
            return new

        return self._write(update)

    def list_episodes(
        self, group_id: str, filters: EpisodeFilters, limit: int, after_key: PageKey | None = None
    ) -> list[Episode]:
        """Return held episodes matching ``filters`` (and ``known_at``), newest first; see Store."""
        where, params = filter_sql(filters)
        if after_key is not None:
            # A row value is an index range for SQLite; the OR form was a filter over every
            # newer row, so a deep page cost O(depth) (bench/RESULTS.md: 15 ms -> 1 ms at 100k).
            where += " AND (e.timestamp, e.id) < (?, ?)"
            params += [ts(after_key.timestamp), after_key.id]
        # One actor is a small slice of a group: read it through its own index (the planner,
        # guessing, walked the whole time index: 37 ms p95 at 100k).
        index = " INDEXED BY episodes_current_actor" if len(filters.actor_id) == 1 else ""
        select = "SELECT {E_COLUMNS} FROM episodes e{index} WHERE e.group_id = ? AND {held}{where} "
        select += "ORDER BY e.timestamp DESC, e.id DESC LIMIT ?"
        if filters.known_at is None:
            sql = select.format(E_COLUMNS=E_COLUMNS, index=index, held=CURRENT, where=where)
            values: tuple[Any, ...] = (group_id, *params, limit)
        else:
            # Held at t = current and stored by t (through the current indexes, in time order)
            # plus closed after t and stored by t: the changes since t, few, chosen in the
            # covering index episodes_closed before their rows are read. The walk in time order
            # passes over the episodes stored after t, so one intent or source takes its index.
            if not index and (len(filters.intent) == 1 or len(filters.source) == 1):
                index = f" INDEXED BY episodes_current_{'intent' if len(filters.intent) == 1 else 'source'}"
            (current, now_params), (closed, closed_params) = held_branches(filters.known_at)
            first = select.format(E_COLUMNS=E_COLUMNS, index=index, held=current, where=where)
            changed = select.format(
                E_COLUMNS="e.rowid", index=" INDEXED BY episodes_closed", held=closed, where=where
            )
            sql = (
                f"SELECT * FROM ({first}) UNION ALL "
                f"SELECT {E_COLUMNS} FROM episodes e WHERE e.rowid IN ({changed}) "
                "ORDER BY timestamp DESC, id DESC LIMIT ?"
            )
            values = (group_id, *now_params, *params, limit, group_id, *closed_params, *params, limit, limit)
        rows = self._connection().execute(sql, values).fetchall()
        return [episode_from_row(row) for row in rows]

    def search_text(
        self, group_id: str, terms: Sequence[str], filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return held episodes matching any term, best BM25 first; see Store."""
        if not terms:
            return []
        conn = self._connection()
        if _selects_few(conn, group_id, filters):
            return self._ranked_among(conn, fts_query(terms), group_id, filters, limit)
        pruned = pruned_fts_query(conn, terms)
        if pruned is not None:
            found = self._ranked(conn, pruned, group_id, filters, limit)
            if len(found) >= limit:
                return found
        return self._ranked(conn, fts_query(terms), group_id, filters, limit)

    @staticmethod
    def _ranked(
        conn: apsw.Connection, expression: str, group_id: str, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return the best BM25 matches of an FTS5 expression that pass the filters."""
        where, params = filter_sql(filters)
        if where:
            # Filters: score only the rows that pass them. FTS5 drives, through the doc index
            # (without it SQLite may walk the time index and probe FTS5 per row: seconds).
            order = f"-bm25(episodes_fts, 1.0, {CONTEXT_WEIGHT}) AS score"
            rank, sort = "", "score DESC"
        else:
            # No filter: FTS5 ranks by itself, so the join stops after ``limit`` rows instead
            # of decoding every match for SQLite's sorter (same scores).
            order = "-f.rank AS score"
            rank, sort = f" AND f.rank MATCH 'bm25(1.0, {CONTEXT_WEIGHT})'", "f.rank"
        # At a past transaction time, the versions of each matching doc through (doc, version).
        held, at = held_sql(filters.known_at)
        index = "episodes_current_doc" if filters.known_at is None else "episodes_doc_versions"
        rows = conn.execute(
            f"SELECT {E_COLUMNS}, {order} "
            f"FROM episodes_fts f CROSS JOIN episodes e INDEXED BY {index} "
            f"ON e.doc = f.rowid AND {held} "
            f"WHERE episodes_fts MATCH ?{rank} AND e.group_id = ?{where} ORDER BY {sort} LIMIT ?",
            (*at, expression, group_id, *params, limit),
        ).fetchall()
        return [ScoredEpisode(episode_from_row(row), float(row[18])) for row in rows]  # type: ignore[arg-type]

    @classmethod
    def _ranked_among(
        cls, conn: apsw.Connection, expression: str, group_id: str, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return the best BM25 matches among the current episodes an indexed filter selects.

        The filters pick their docs from a covering index first (one actor: a few hundred);
        FTS5 then walks its matches, tests each against that set and scores only those in it,
        and only the ``limit`` best are read from the table. Every match is considered, so no
        pruning is needed (the set test is what made filtered searches slow: a join per match,
        53-63 ms p95 at 100k against 6-23 ms; bench/RESULTS.md). ``+rowid``: a plain rowid
        constraint would let SQLite probe FTS5 once per selected doc.
        """
        where, params = filter_sql(filters)
        rows = conn.execute(
            f"SELECT rowid, -bm25(episodes_fts, 1.0, {CONTEXT_WEIGHT}) AS score FROM episodes_fts "
            "WHERE episodes_fts MATCH ? AND +rowid IN "
            f"(SELECT e.doc FROM episodes e WHERE e.group_id = ? AND {CURRENT}{where}) "
            "ORDER BY score DESC LIMIT ?",
            (expression, group_id, *params, limit),
        ).fetchall()
        scored = [(int(row[0]), float(row[1])) for row in rows]  # type: ignore[arg-type]
        episodes = cls._held_by_docs(conn, [doc for doc, _ in scored])
        return [ScoredEpisode(episodes[doc], score) for doc, score in scored if doc in episodes]

    def search_vectors(
        self, group_id: str, vector: Vector, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return held episodes nearest to ``vector``, best first; see Store."""
        conn = self._connection()
        where, params = filter_sql(filters)
        hits = nearest(
            conn,
            self._vectors,
            group_id,
            vector,
            limit,
            where,
            params,
            filters.known_at,
            select_first=_selects_few(conn, group_id, filters),
        )
        episodes = self._held_by_docs(conn, [doc for doc, _ in hits], filters.known_at)
        return [ScoredEpisode(episodes[doc], score) for doc, score in hits if doc in episodes]

    def pending_embeddings(self, limit: int) -> list[Episode]:
        """Return current episodes without a vector, oldest first; see Store."""
        rows = (
            self._connection()
            .execute(
                f"SELECT {E_COLUMNS} FROM episode_docs d "
                "JOIN episodes e ON e.doc = d.doc AND e.expired_at IS NULL "
                "WHERE NOT EXISTS (SELECT 1 FROM episode_vectors v WHERE v.doc = d.doc) "
                "ORDER BY d.doc LIMIT ?",
                (limit,),
            )
            .fetchall()
        )
        return [episode_from_row(row) for row in rows]

    def put_vectors(self, items: Sequence[tuple[Episode, Vector]]) -> None:
        """Store one vector per episode in one transaction; see Store."""

        def put(conn: apsw.Connection) -> None:
            for episode, vector in items:
                conn.execute(
                    "INSERT OR REPLACE INTO episode_vectors (doc, group_id, vector) "
                    "SELECT doc, group_id, ? FROM episode_docs WHERE group_id = ? AND id = ?",
                    (to_blob(vector), episode.group_id, episode.id),
                )

        self._write(put)

    def clear_vectors(self) -> int:
        """Delete every vector; see Store."""

        def clear(conn: apsw.Connection) -> int:
            count = int(scalar(conn, "SELECT count(*) FROM episode_vectors"))
            conn.execute("DELETE FROM episode_vectors")
            return count

        count = self._write(clear)
        self._vectors.clear()
        return count

    def get_meta(self, key: str) -> str | None:
        """Return a store-level setting or None; see Store."""
        value = scalar(self._connection(), "SELECT value FROM store_meta WHERE key = ?", (key,))
        return None if value is None else str(value)

    def set_meta(self, key: str, value: str) -> None:
        """Record a store-level setting; see Store."""
        self._write(
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)", (key, value)
            )
        )

    @staticmethod
    def _held_by_docs(
        conn: apsw.Connection, docs: Sequence[int], known_at: datetime | None = None
    ) -> dict[int, Episode]:
        """Return the versions of ``docs`` held now (or at ``known_at``), by doc."""
        if not docs:
            return {}
        held, at = held_sql(known_at)
        index = "" if known_at is None else " INDEXED BY episodes_doc_versions"
        rows = conn.execute(
            f"SELECT {E_COLUMNS}, e.doc FROM episodes e{index} "
            f"WHERE e.doc IN ({', '.join('?' * len(docs))}) AND {held}",
            (*docs, *at),
        ).fetchall()
        return {int(row[18]): episode_from_row(row) for row in rows}  # type: ignore[arg-type]

    def neighbours(
        self, group_id: str, episode_id: str, known_at: datetime | None = None
    ) -> tuple[Episode | None, Episode | None]:
        """Return the previous and next episodes of the thread, as held (at ``known_at``); see Store."""
        conn = self._connection()
        doc = scalar(
            conn, "SELECT doc FROM episode_docs WHERE group_id = ? AND id = ?", (group_id, episode_id)
        )
        if doc is None:
            return None, None
        docs = [conn.execute(sql, (doc,)).fetchone() for sql in (PREVIOUS, NEXT)]
        previous, following = (None if row is None else int(row[0]) for row in docs)
        episodes = self._held_by_docs(conn, [d for d in (previous, following) if d is not None], known_at)
        return (
            None if previous is None else episodes.get(previous),
            None if following is None else episodes.get(following),
        )

    # -- diagnostics ---------------------------------------------------------------------------

    def groups(self) -> list[str]:
        """Return the ids of every group holding at least one episode, sorted; see Store."""
        sql = "SELECT DISTINCT group_id FROM episode_docs ORDER BY group_id"
        rows = self._connection().execute(sql).fetchall()
        return [str(row[0]) for row in rows]

    def counts(self) -> dict[str, int]:
        """Return row counts: episodes (current), episode_versions, groups, operations."""
        conn = self._connection()

        def one(sql: str) -> int:
            return int(scalar(conn, sql))

        return {
            "episodes": one("SELECT count(*) FROM episodes WHERE expired_at IS NULL"),
            "episode_versions": one("SELECT count(*) FROM episodes"),
            "groups": one("SELECT count(DISTINCT group_id) FROM episode_docs"),
            "operations": one("SELECT count(*) FROM operations"),
        }

    def schema_version(self) -> int:
        """Return the highest applied migration."""
        return int(scalar(self._connection(), "SELECT coalesce(max(version), 0) FROM schema_migrations"))

    def describe(self) -> str:
        """Return the database file's absolute path and size, e.g. ``/data/engram.db (1,204 KiB)``."""
        return f"{self.path.resolve()} ({self.path.stat().st_size / 1024:,.0f} KiB)"

    def integrity_check(self) -> str:
        """Return SQLite's ``PRAGMA integrity_check`` verdict ("ok" when healthy)."""
        rows = self._connection().execute("PRAGMA integrity_check").fetchall()
        return "; ".join(str(row[0]) for row in rows)
