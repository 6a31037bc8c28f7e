"""The embedded default backend: SQLite through apsw, WAL mode, one writer thread, per-thread readers.

This is the datasette pattern: every write is a function run on a single dedicated thread
inside ``BEGIN IMMEDIATE … COMMIT``, so writes are serialised and atomic (no locks needed
beyond SQLite's own; several processes may share the file); each reading thread keeps its
own connection, and WAL lets reads run beside the writer. apsw is used rather than the
stdlib module because it bundles a current SQLite (FTS5 with ``contentless_delete``; the
stdlib build here is 3.40).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from json.scanner import make_scanner
from pathlib import Path
from typing import Any, TypeVar

import apsw

from engram import fold
from engram.errors import StoreBusy, StoreError
from engram.storage.backend import Backend
from engram.storage.sql import Db, Dialect, Params, checked_key, sqlite_placeholders
from engram.storage.sqlite.bulk import set_based
from engram.storage.sqlite.migrations import LATEST_VERSION, MIGRATIONS

T = TypeVar("T")

BUSY_TIMEOUT_MS = 10_000
"""How long a write waits for another process's write lock before StoreBusy."""
OPTIMIZE_EVERY = 2000
"""Rows stored between two ``PRAGMA optimize`` runs (statistics for the query planner)."""
EXPANDED_LIST = 64
"""Lists up to this long are bound value by value (``IN (?, ?)``); longer ones as one JSON array."""
_SCAN_JSON = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed: a context, not itself


def ts(value: datetime) -> str:
    """Return a fixed-width UTC ISO-8601 string, so text order is time order."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def _sql_fold(*args: Any) -> Any:
    """Return ``engram_fold(value)``: NULL for NULL, as PostgreSQL's STRICT function of that name."""
    return None if args[0] is None else fold.fold(str(args[0]))


class SQLiteDialect(Dialect):
    """SQLite's spellings: times as fixed-width ISO text, JSON as text, json_each for lists."""

    name = "sqlite"
    for_update = ""
    cross_join = "CROSS JOIN"
    episode_doc = ("doc, ", "d.doc, ")
    stored_columns = ("d.doc",)
    ilike = "LIKE"
    greatest = "max"

    def placeholders(self, sql: str) -> str:
        return sqlite_placeholders(sql)

    def encode_time(self, value: datetime) -> str:
        return ts(value)

    def decode_time(self, raw: Any) -> datetime:
        return datetime.fromisoformat(raw)

    def encode_json(self, value: Any) -> str:
        if not value and type(value) in (dict, list):  # most episodes' metadata and references
            return "{}" if type(value) is dict else "[]"
        return json.dumps(value, ensure_ascii=False)

    def decode_json(self, raw: Any) -> Any:
        # json's C scanner alone: json.loads costs 4× as much in checks on the small values stored
        # here (2 µs a value, two to three per row). Anything it does not read whole (whitespace
        # around, bad JSON) goes through json.loads, for its value or its error.
        try:
            value, end = _SCAN_JSON(raw, 0)
        except StopIteration:
            return json.loads(raw)
        return value if end == len(raw) else json.loads(raw)

    def in_list(self, expr: str, name: str, values: Sequence[Any]) -> tuple[str, dict[str, Any]]:
        if len(values) <= EXPANDED_LIST:
            names = [f"{name}_{i}" for i in range(len(values))]
            return f"{expr} IN ({', '.join(':' + n for n in names)})", dict(zip(names, values, strict=True))
        return f"{expr} IN (SELECT value FROM json_each(:{name}))", {name: json.dumps(list(values))}

    def json_array_has(self, column: str, param: str, key: str | None = None) -> str:
        path = "" if key is None else f", '$.{key}'"
        return f"EXISTS (SELECT 1 FROM json_each({column}{path}) WHERE value = :{param})"

    def json_text(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    def metadata_equals(self, column: str, key: str, param: str, value: Any) -> tuple[str, dict[str, Any]]:
        # Quoting makes dots part of the key, not a path. A string matches a string only:
        # json_extract returns an object or array as its JSON text.
        path = f"'$.\"{checked_key(key)}\"'"
        sql = f"json_extract({column}, {path}) IS :{param}"
        if isinstance(value, str):
            sql += f" AND json_type({column}, {path}) = 'text'"
        return sql, {param: int(value) if isinstance(value, bool) else value}

    def metadata_index(self, key: str) -> str:
        return f"json_extract(metadata, '$.\"{checked_key(key)}\"')"

    def indexed_by(self, index: str) -> str:
        return f" INDEXED BY {index}"


DIALECT = SQLiteDialect()


class SQLiteDb(Db):
    """The shared SQL on an apsw connection; rows as dicts or tuples."""

    dialect = DIALECT

    def __init__(self, conn: apsw.Connection) -> None:
        self.conn = conn

    def _execute(self, sql: str, params: Params) -> Iterator[dict[str, Any]]:
        cursor = self.conn.execute(sql, params)
        try:
            names = [column[0] for column in cursor.get_description()]
        except apsw.ExecutionCompleteError:
            return iter(())
        return (dict(zip(names, row, strict=True)) for row in cursor)

    def _tuples(self, sql: str, params: Params) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, params).fetchall()

    def run_many(self, sql: str, rows: Sequence[Params]) -> None:
        if rows:
            self.conn.executemany(self.sql(sql), [self._encoded(row) for row in rows])


class SQLiteBackend(Backend):
    """One SQLite file. Thread-safe; several processes may share the file.

    Raises StoreError when the file's schema is newer than this Engram knows.
    """

    dialect = DIALECT
    errors = (apsw.Error,)

    def __init__(self, path: Path | str, *, vector_cache_bytes: int = 4 << 30) -> None:
        from engram.storage.sqlite.fulltext import SQLiteFullText
        from engram.storage.sqlite.vectors import SQLiteVectors

        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._connections: list[apsw.Connection] = []
        self._connections_lock = threading.Lock()
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engram-sqlite-writer")
        self._closed = False
        self._since_optimize = 0
        self.vectors = SQLiteVectors(self.read, budget_bytes=vector_cache_bytes)
        self.fulltext = SQLiteFullText(self.vectors.current_episodes)
        self._on_writer(lambda conn: self._transaction(conn, self._migrate))
        self._optimize()

    # -- connections -------------------------------------------------------------------------------

    def connection(self) -> apsw.Connection:
        """Return this thread's connection, opening it on first use."""
        if self._closed:
            raise StoreError("the store is closed")
        conn: apsw.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open()
            self._local.conn = conn
            with self._connections_lock:
                self._connections.append(conn)
        return conn

    def _open(self) -> apsw.Connection:
        conn = apsw.Connection(str(self.path))
        conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        # Reference-name keys (triggers and lookups) fold as PostgreSQL's function of the same name.
        conn.create_scalar_function(fold.SQL_FUNCTION, _sql_fold, 1, deterministic=True)
        conn.execute("PRAGMA journal_mode = WAL")
        # NORMAL in WAL mode survives a process crash (kill -9); only power loss can drop the
        # last transactions.
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        # Bounds the work of ANALYZE inside PRAGMA optimize (SQLite recommends 100-1000).
        conn.execute("PRAGMA analysis_limit = 1000")
        return conn

    @contextmanager
    def read(self) -> Iterator[Db]:
        """Yield this thread's connection (reads see the last committed state)."""
        yield SQLiteDb(self.connection())

    def write(self, fn: Callable[[Db], T]) -> T:
        """Run ``fn(db)`` on the writer thread inside one immediate transaction.

        Raises StoreBusy when another process holds the write lock past the busy timeout.
        """
        try:
            return self._on_writer(lambda conn: self._transaction(conn, lambda c: fn(SQLiteDb(c))))
        except apsw.BusyError as exc:
            raise StoreBusy(
                f"another writer held the database for {BUSY_TIMEOUT_MS // 1000} s ({exc}); nothing "
                "was written, retry shortly"
            ) from exc

    def _on_writer(self, fn: Callable[[apsw.Connection], T]) -> T:
        """Run ``fn(conn)`` on the writer thread, outside any transaction (pragmas, VACUUM)."""
        if self._closed:
            raise StoreError("the store is closed")
        return self._writer.submit(lambda: fn(self.connection())).result()

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

    @contextmanager
    def snapshot(self) -> Iterator[Db]:
        """Yield a connection of its own in a deferred transaction: its first read fixes the snapshot."""
        conn = self._open()
        try:
            conn.execute("BEGIN")
            yield SQLiteDb(conn)
            conn.execute("COMMIT")
        finally:
            conn.close(True)

    def _migrate(self, conn: apsw.Connection) -> None:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        current = int(SQLiteDb(conn).value("SELECT coalesce(max(version), 0) AS v FROM schema_migrations"))
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

    def batch_insert(self, db: Db, count: int) -> AbstractContextManager[None]:
        """Return the context of a batch insert: triggers replaced by set-based statements from
        BULK_MIN episodes on (engram.storage.sqlite.bulk)."""
        return set_based(db, count)

    # -- upkeep ------------------------------------------------------------------------------------

    def _optimize(self) -> None:
        # Statistics let the planner see that an actor filter is selective (without them it walks
        # the time index; docs/decisions.md §15); 0x10002 = analyse where useful, bounded.
        self._on_writer(lambda conn: conn.execute("PRAGMA optimize=0x10002"))

    def inserted(self, rows: int) -> None:
        """Refresh planner statistics every OPTIMIZE_EVERY rows (import stayed at 760-930/s to 10k
        episodes instead of falling to 250/s)."""
        self._since_optimize += rows
        if self._since_optimize >= OPTIMIZE_EVERY:
            self._since_optimize = 0
            self._optimize()

    def compact(self) -> None:
        """Merge the full-text indexes (dropping deleted terms), rewrite the file, empty the WAL.

        Pages keep the bytes of rows deleted or rewritten earlier (an update of ``expired_at``
        moves a row and leaves its old copy in free space), so only VACUUM, which rebuilds the
        file, guarantees no copy remains. Cost: proportional to the store's size
        (bench/RESULTS.md, "Purge").
        """

        def run(conn: apsw.Connection) -> None:
            for table in ("episodes_fts", "facts_fts", "archived_facts_fts"):
                conn.execute(f"INSERT INTO {table} ({table}) VALUES ('optimize')")
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        self._on_writer(run)
        self.vectors.forget()

    def describe(self) -> str:
        """Return the database file's absolute path and size, e.g. ``/data/engram.db (1,204 KiB)``:
        with its write-ahead log, which holds the latest writes until a checkpoint copies them."""
        wal = self.path.with_name(self.path.name + "-wal")
        size = self.path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
        return f"{self.path.resolve()} ({size / 1024:,.0f} KiB)"

    def integrity_check(self) -> str:
        """Return SQLite's ``PRAGMA integrity_check`` verdict ("ok" when healthy)."""
        rows = self.connection().execute("PRAGMA integrity_check").fetchall()
        return "; ".join(str(row[0]) for row in rows)

    def close(self) -> None:
        """Close every connection and stop the writer thread."""
        if self._closed:
            return
        self._writer.shutdown(wait=True)
        self._closed = True
        with self._connections_lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
