"""The server backend: PostgreSQL ≥ 15 with pgvector, through psycopg 3 and a connection pool.

Several processes (``engram serve`` behind a load balancer) may share one database, so
concurrency control lives in the database: a write transaction takes transaction-scoped
advisory locks (``Db.lock``) in one global order — on every (group, id), (group, fingerprint)
and (group, thread) an insert touches, on a group's graph before a graph write — and
updates, reverts and deletes lock the episode's row (``SELECT … FOR NO KEY UPDATE``), so
concurrent writers serialise and none is lost. Writers that still lock rows in opposite orders
(two changes to one thread's neighbours) can deadlock; PostgreSQL aborts one of them and
``PostgresBackend.write`` runs it again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from functools import partial
from typing import Any, TypeVar

import orjson
import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row, tuple_row
from psycopg.types.json import Jsonb, set_json_loads
from psycopg_pool import ConnectionPool, PoolTimeout

from engram.errors import StoreError
from engram.storage.backend import Backend
from engram.storage.postgres import change_log
from engram.storage.postgres.migrations import LATEST_VERSION, MIGRATIONS
from engram.storage.sql import Db, Dialect, Params, checked_key, psycopg_placeholders

T = TypeVar("T")
Connection = psycopg.Connection[Any]

ANALYZE_AFTER = 1000
"""Rows inserted after which a process refreshes statistics (or after a fifth of the table)."""
DUMP_ROWS = 2000
"""Rows a server-side cursor fetches at a time while an export streams a group."""
WRITE_ATTEMPTS = 5
"""Times a write transaction runs before a deadlock or serialization failure reaches the caller."""
RETRIED = (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure)

logger = logging.getLogger(__name__)


class PostgresDialect(Dialect):
    """PostgreSQL's spellings: timestamptz and jsonb columns, arrays for lists."""

    name = "postgresql"
    for_update = " FOR NO KEY UPDATE"
    cross_join = "JOIN"
    episode_doc = ("", "")
    stored_columns = ("d.created_at", "d.id")
    ilike = "ILIKE"
    greatest = "greatest"

    def placeholders(self, sql: str) -> str:
        return psycopg_placeholders(sql)

    def encode_time(self, value: datetime) -> datetime:
        return value

    def decode_time(self, raw: Any) -> datetime:
        value: datetime = raw.astimezone(UTC)
        return value

    def encode_json(self, value: Any) -> Jsonb:
        return Jsonb(value, dumps=dump_json)

    def decode_json(self, raw: Any) -> Any:
        return raw

    def in_list(self, expr: str, name: str, values: Sequence[Any]) -> tuple[str, dict[str, Any]]:
        return f"{expr} = ANY(:{name})", {name: list(values)}

    def json_array_has(self, column: str, param: str, key: str | None = None) -> str:
        target = column if key is None else f"({column} -> '{key}')"
        return f"{target} @> jsonb_build_array(CAST(:{param} AS text))"

    def json_text(self, column: str, key: str) -> str:
        return f"({column} ->> '{key}')"

    def metadata_equals(self, column: str, key: str, param: str, value: Any) -> tuple[str, dict[str, Any]]:
        """As SQLite's ``json_extract(…) IS ?``: numbers as numbers (JSON true/false as 1/0), strings
        as text, None as a missing key or a JSON null. The key is written into the SQL so that an
        index of ``metadata_index(key)`` serves a string match."""
        key = checked_key(key)
        field = f"{column} -> '{key}'"
        params: dict[str, Any] = {}
        if value is None:
            return f"coalesce({field}, 'null'::jsonb) = 'null'::jsonb", params
        if isinstance(value, bool | int | float):
            sql = (
                f"(CASE jsonb_typeof({field}) WHEN 'number' THEN ({field})::numeric "
                f"WHEN 'boolean' THEN CASE WHEN ({field})::boolean THEN 1 ELSE 0 END END) "
                f"= CAST(CAST(:{param} AS text) AS numeric)"
            )
            # As text: a float parameter would reach numeric through float8's 15 digits.
            return sql, params | {param: repr(int(value) if isinstance(value, bool) else value)}
        sql = f"(({column} ->> '{key}') = :{param} AND jsonb_typeof({field}) = 'string')"
        return sql, params | {param: value}

    def metadata_index(self, key: str) -> str:
        return f"(metadata ->> '{checked_key(key)}')"


DIALECT = PostgresDialect()


LOAD_LOCK = "vector-load"
"""The advisory lock a vector load holds (engram.storage.postgres.vectors.suspend_index)."""


def lock_key(namespace: str, *parts: str) -> int:
    """Return a signed 64-bit advisory lock key for ``parts`` (e.g. schema, group, "id", id)."""
    digest = hashlib.blake2b("\x1f".join((namespace, *parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


_LONG_NUMBER = re.compile(rb"\d{19}")
"""19 digits in a row: a number orjson may read as a float though it is an integer (past 64 bits)."""


def dump_json(value: Any) -> bytes:
    """Encode a value for a json/jsonb column, a float written in full where Python writes an
    exponent (1e16 as 10000000000000000.0, 1.5e-07 as 0.00000015): jsonb holds numbers as
    ``numeric``, which keeps the digits it is given, so "1e+16" came back as the integer
    10000000000000000. (``numeric`` has no -0: -0.0 comes back as 0.0.)"""
    try:
        return orjson.dumps(_in_full(value), option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # an integer past 64 bits, which Engram does not store: json writes it
        return json.dumps(value, ensure_ascii=False).encode()


def _in_full(value: Any) -> Any:
    kind = type(value)
    if kind is float:
        text = repr(value)
        if "e" not in text:  # (nor has inf or nan, which Engram refuses)
            return value
        digits = format(Decimal(text), "f")
        return orjson.Fragment(digits if "." in digits else f"{digits}.0")
    if kind is dict:
        return {key: _in_full(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [_in_full(item) for item in value]
    return value


def load_json(data: str | bytes) -> Any:
    """Decode a json/jsonb value as the server sends it. orjson reads the small values stored here
    several times faster than json.loads (its checks, its encoding detection: ~5 % of a graph
    build's client CPU), but reads an integer past 64 bits as a float: a value with 19 digits in a
    row (written by another program: Engram stores at most ±9e18) goes through json, exactly."""
    if isinstance(data, bytes) and not _LONG_NUMBER.search(data):
        return orjson.loads(data)
    return json.loads(data)


@dataclass
class _Load:
    """A vector load this process holds: the vectors its episodes brought, the store's at start."""

    suspended: bool = False
    stored: int = 0
    given: int = 0


class PostgresDb(Db):
    """The shared SQL on a psycopg connection (rows as dicts or tuples), advisory locks in its schema."""

    dialect = DIALECT

    def __init__(self, conn: Connection, schema: str) -> None:
        self.conn = conn
        self._schema = schema
        self._held: set[int] = set()
        self._piped = False
        self._writer: psycopg.Cursor[Any] | None = None

    def _execute(self, sql: str, params: Params) -> Iterator[dict[str, Any]]:
        cursor = self.conn.execute(sql, params, prepare=None)
        # In a pipeline the result is not in yet (no description): fetching it sends what is queued.
        return iter(cursor.fetchall()) if self._piped or cursor.description is not None else iter(())

    def _run(self, sql: str, params: Params) -> None:
        # One cursor for every statement whose rows are not read: a cursor of its own per
        # statement cost ~5 % of a graph build's client CPU (its adapters, its dumpers looked up).
        if self._writer is None:
            self._writer = self.conn.cursor()
        self._writer.execute(sql, params, prepare=None)

    def _tuples(self, sql: str, params: Params, prepare: bool | None = None) -> list[tuple[Any, ...]]:
        return self.conn.cursor(row_factory=tuple_row).execute(sql, params, prepare=prepare).fetchall()

    def tuples_unprepared(self, sql: str, params: Params) -> list[tuple[Any, ...]]:
        """Return every row of a query the server must plan for these very parameters, not prepare."""
        return self._tuples(self.sql(sql), self._encoded(params), prepare=False)

    def iter(self, sql: str, params: Params | None = None) -> Iterator[dict[str, Any]]:
        """Stream the rows through a server-side cursor (inside the snapshot's transaction)."""
        with self.conn.cursor(name=f"engram_{id(self):x}", row_factory=dict_row) as cursor:
            cursor.itersize = DUMP_ROWS
            cursor.execute(self.sql(sql), self._encoded(params))
            yield from cursor

    def run_many(self, sql: str, rows: Sequence[Params]) -> None:
        if rows:
            with self.conn.cursor() as cursor:
                cursor.executemany(self.sql(sql), [self._encoded(row) for row in rows])

    def lock(self, keys: Sequence[tuple[str, ...]]) -> None:
        numbers = sorted({lock_key(self._schema, *key) for key in keys} - self._held)
        if numbers:
            self.conn.execute(
                "SELECT count(pg_advisory_xact_lock(k)) FROM unnest(%s::bigint[]) AS k", (numbers,)
            )
            self._held.update(numbers)

    @contextmanager
    def pipeline(self) -> Iterator[None]:
        if self._piped:  # psycopg syncs at the end of a nested block: one block is one round trip
            yield
            return
        self._piped = True
        try:
            with self.conn.pipeline():
                yield
        finally:
            self._piped = False


def describe_conninfo(conninfo: str) -> str:
    """Return ``conninfo`` as ``postgresql://user@host:port/dbname``, without any password."""
    params = conninfo_to_dict(conninfo)
    user = f"{params['user']}@" if params.get("user") else ""
    host = str(params.get("host") or "localhost")
    port = f":{params['port']}" if params.get("port") else ""
    return f"postgresql://{user}{host}{port}/{params.get('dbname') or ''}"


class PostgresBackend(Backend):
    """A PostgreSQL database (``postgresql://…`` or a libpq key=value string); thread-safe.

    The schema is created or migrated on open in the first schema of the connection's
    ``search_path``. Each process holds a pool of up to ``pool_size`` connections.
    Raises StoreError when the database cannot be reached, lacks pgvector, or has a schema
    newer than this Engram knows.
    """

    dialect = DIALECT
    errors = (psycopg.Error,)

    def __init__(
        self, conninfo: str, *, pool_size: int = 10, timeout: float = 10.0, vector_cache_bytes: int = 4 << 30
    ) -> None:
        from engram.storage.postgres.fulltext import PostgresFullText
        from engram.storage.postgres.vectors import PostgresVectors

        self.fulltext: PostgresFullText
        self.vectors: PostgresVectors
        self._where = describe_conninfo(conninfo)
        self._closed = False
        self._since_analyze = 0
        self._rows_at_analyze = 0
        self._pool_size = pool_size
        self._load: _Load | None = None  # the vector load this process holds (loading_vectors)
        self._load_lock = threading.Lock()
        self._conninfo, self._connect_timeout = conninfo, max(1, int(timeout))
        self.fulltext = PostgresFullText()
        self.vectors = PostgresVectors(budget_bytes=vector_cache_bytes)
        try:
            with psycopg.connect(conninfo, autocommit=True, connect_timeout=max(1, int(timeout))) as conn:
                schema = conn.execute("SELECT current_schema()").fetchone()
                if schema is None or schema[0] is None:
                    raise StoreError(f"{self._where}: no schema of the search_path exists", field="database")
                self._schema = str(schema[0])
                self._server_version = conn.info.server_version
                self._migrate(conn)
        except psycopg.Error as exc:
            raise StoreError(f"cannot open {self._where}: {exc}".strip(), field="database") from exc
        self._pool: ConnectionPool[Connection] = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=pool_size,
            open=False,
            kwargs={"autocommit": True, "row_factory": dict_row},
            configure=self._configure,
            name="engram",
            timeout=timeout,
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except PoolTimeout as exc:
            self._pool.close()
            raise StoreError(f"cannot open {self._where}: {exc}", field="database") from exc
        self._repair_at_open()

    # -- connections -------------------------------------------------------------------------------

    @staticmethod
    def _configure(conn: Connection) -> None:
        from pgvector.psycopg import register_vector

        conn.execute("SET TIME ZONE 'UTC'")
        # The locks writers take are designed for READ COMMITTED; a server-wide SERIALIZABLE
        # default would fail many of them with serialization errors.
        conn.execute("SET default_transaction_isolation = 'read committed'")
        register_vector(conn)
        set_json_loads(load_json, conn)

    @contextmanager
    def _connection(self) -> Iterator[Connection]:
        """Yield a pooled connection; a lost or read-only database becomes StoreError (HTTP 503)."""
        if self._closed:
            raise StoreError("the store is closed")
        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.errors.ReadOnlySqlTransaction as exc:
            raise StoreError(f"{self._where} is read-only (a replica?): {exc}", field="database") from exc
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise StoreError(f"{self._where} is unavailable: {exc}", field="database") from exc

    @contextmanager
    def loading_vectors(self) -> Iterator[None]:
        """Hold the load lock (a session lock: a killed process lets it go) while the vectors
        are stored, the episode index dropped first and built after when worth it. While another
        process loads, store into its load: its end builds the index."""
        # The lock's session is a connection of its own: the load's writes take pooled ones,
        # which a pool of one would otherwise wait for while this one holds the lock.
        with self._own_connection() as conn:
            key = lock_key(self._schema, LOAD_LOCK)
            got = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
            if not (got and got[0]):  # a connection of its own: rows are tuples
                yield
                return
            load = _Load()
            try:
                load.suspended, load.stored = self.write(self.vectors.suspend_index)
                self._load = load
                try:
                    yield
                finally:
                    with self._load_lock:  # no thread drops the index for this load after this
                        self._load = None
                    if load.suspended:
                        self.write(self.vectors.restore_index)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

    def given_vectors(self, count: int) -> None:
        """Count vectors that came with their episodes (in any thread) into this process's load:
        once they are worth it, drop the index (built at the load's end) for the rest of the load."""
        from engram.storage.postgres.vectors import worth_rebuilding

        if self._load is None or not count:
            return
        with self._load_lock:
            load = self._load
            if load is None or load.suspended:
                return
            load.given += count
            if worth_rebuilding(load.given, load.stored):
                load.suspended, _ = self.write(partial(self.vectors.suspend_index, given=load.given))

    @contextmanager
    def _own_connection(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        """Yield a connection outside the pool (autocommit); unreachable becomes StoreError."""
        try:
            conn = psycopg.connect(self._conninfo, autocommit=True, connect_timeout=self._connect_timeout)
        except psycopg.OperationalError as exc:
            raise StoreError(f"{self._where} is unavailable: {exc}", field="database") from exc
        with conn:
            yield conn

    def _repair_at_open(self) -> None:
        """Build the episode index a vector load cut short left out, unless a load is running,
        and drop changes logged by another cluster (change_log.forget_restored_changes); unless
        this session cannot write (a replica). A hot standby, and a read-only session on changes
        restored ahead, search vectors in SQL (PostgresVectors.from_memory)."""

        def restore(db: Db) -> None:
            assert isinstance(db, PostgresDb)
            state = db.one(
                "SELECT pg_is_in_recovery() AS standby, "
                "current_setting('transaction_read_only') = 'on' AS read_only"
            )
            assert state is not None
            if state["standby"] or state["read_only"]:
                # A session that cannot write cannot drop changes restored ahead either: its
                # marks would miss every refresh (a reload per search), so it reads in SQL too.
                self.vectors.from_memory = not state["standby"] and not change_log.restored_ahead(db)
                return
            self.vectors.from_memory = True
            change_log.forget_restored_changes(db)
            if db.value(
                "SELECT pg_try_advisory_xact_lock(:k) AS can", {"k": lock_key(self._schema, LOAD_LOCK)}
            ):
                self.vectors.restore_index(db)

        self.write(restore)

    @contextmanager
    def read(self) -> Iterator[Db]:
        """Yield a pooled connection in autocommit mode."""
        with self._connection() as conn:
            yield PostgresDb(conn, self._schema)

    def write(self, fn: Callable[[Db], T]) -> T:
        """Run ``fn(db)`` in one transaction on a pooled connection.

        A transaction PostgreSQL aborts to break a deadlock, or as a serialization failure, is
        rolled back and run again (up to WRITE_ATTEMPTS times, after a short random pause), as
        the PostgreSQL manual advises (13.6, "Serialization Failure Handling"): ``fn`` may run
        more than once and must change nothing outside the database. Raises StoreError when
        the last attempt fails too.
        """
        attempt = 1
        while True:
            try:
                with self._connection() as conn, conn.transaction():
                    return fn(PostgresDb(conn, self._schema))
            except StoreError as exc:
                if not isinstance(exc.__cause__, RETRIED):
                    raise
                deadlock = isinstance(exc.__cause__, psycopg.errors.DeadlockDetected)
                reason = "a deadlock" if deadlock else "a serialization failure"
                if attempt == WRITE_ATTEMPTS:
                    raise StoreError(
                        f"{self._where} aborted this write {attempt} time(s) in a row ({reason} with "
                        "concurrent writes); nothing of it was stored: try again",
                        field="database",
                    ) from exc
                logger.warning("%s aborted a write (%s); running it again", self._where, reason)
            time.sleep(random.uniform(0, 0.005 * 2**attempt))  # apart, so they do not collide again
            attempt += 1

    @contextmanager
    def snapshot(self) -> Iterator[Db]:
        """Yield a connection in one REPEATABLE READ, READ ONLY transaction."""
        with self._connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield PostgresDb(conn, self._schema)

    def _migrate(self, conn: Connection) -> None:
        """Bring the schema to LATEST_VERSION; an up-to-date schema is only read (so replicas open)."""
        if self._applied(conn) == LATEST_VERSION:
            return
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(self._schema, "schema"),))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version integer PRIMARY KEY, applied_at timestamptz NOT NULL)"
            )
            current = self._applied(conn)
            for version, sql in MIGRATIONS:
                if version > current:
                    conn.execute(sql)
                    conn.execute(
                        "INSERT INTO schema_migrations (version, applied_at) VALUES (%s, %s)",
                        (version, datetime.now(UTC)),
                    )

    def _applied(self, conn: Connection) -> int:
        """Return the highest applied migration (0 for an empty schema); raise StoreError if too new."""
        row = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
        if not row or not row[0]:
            return 0
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
        current = int(row[0]) if row else 0
        if current > LATEST_VERSION:
            raise StoreError(
                f"{self._where} has schema version {current}, newer than this Engram ({LATEST_VERSION}); "
                "upgrade Engram",
                field="database",
            )
        return current

    # -- upkeep ------------------------------------------------------------------------------------

    def inserted(self, rows: int) -> None:
        """Count rows this process inserted; refresh statistics when the tables grew enough."""
        self._since_analyze += rows
        if self._since_analyze > max(ANALYZE_AFTER, self._rows_at_analyze // 5):
            self._analyze()

    def _analyze(self) -> None:
        """Refresh the planner's statistics after bulk inserts (one process at a time, others skip).

        Autovacuum does this too, but only every minute; until then a store that grew from
        nothing would be planned as empty (nested loops over every episode of a group).
        """
        key = lock_key(self._schema, "analyze")
        with self._connection() as conn:
            locked = conn.execute("SELECT pg_try_advisory_lock(%s) AS locked", (key,)).fetchone()
            if not locked or not locked["locked"]:
                return
            try:
                conn.execute(
                    "ANALYZE episode_docs, episodes, episode_vectors, entities, entity_names, facts, "
                    "fact_docs, mentions"
                )
                row = conn.execute(
                    "SELECT reltuples FROM pg_class WHERE oid = 'episode_docs'::regclass"
                ).fetchone()
                self._rows_at_analyze = int(row["reltuples"]) if row else 0
                self._since_analyze = 0
                self.fulltext.invalidate()
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

    def compact(self) -> None:
        """VACUUM the tables a purge touches, so no index or visible page keeps the deleted rows.

        Copies in WAL archives and backups are the operator's to expire (docs/deployment.md).
        """
        with self._connection() as conn:  # autocommit: VACUUM cannot run in a transaction
            for table in (
                "episodes",
                "episode_docs",
                "episode_vectors",
                "facts",
                "fact_docs",
                "entities",
                "fact_vectors",
                "entity_vectors",
                "archived_facts",
                "archived_fact_docs",
                "entity_names",
                "mentions",
            ):
                conn.execute(f"VACUUM {table}")

    def describe(self) -> str:
        """Return the server version, address (no password), schema and pool size."""
        major, minor = divmod(self._server_version, 10_000)
        return (
            f"PostgreSQL {major}.{minor} at {self._where} (schema {self._schema}, pool of {self._pool_size})"
        )

    def integrity_check(self) -> str | None:
        """Return None: PostgreSQL checks its own pages; there is no cheap whole-database verdict."""
        return None

    def close(self) -> None:
        """Close the connection pool."""
        if not self._closed:
            self._closed = True
            self._pool.close()
