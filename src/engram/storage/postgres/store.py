"""The server store: PostgreSQL ≥ 15 with pgvector, through psycopg 3 and a connection pool.

Several processes (``engram serve`` behind a load balancer) may share one database, so
concurrency control lives in the database rather than in a writer thread as in SQLite:

- ``insert_episodes`` takes transaction-scoped advisory locks, in sorted order, on every
  (group, id), (group, fingerprint) and (group, thread) it touches before it looks for
  duplicates, so two processes can never both insert one episode, and thread neighbours
  always see each other's text;
- ``update_episode`` locks the episode's row (``SELECT … FOR NO KEY UPDATE``) before it reads
  the current version, so concurrent conditional writers serialise and none is lost.

Full text: each ``episode_docs`` row holds generated tsvectors of its own text and of its
thread neighbours' text (GIN-indexed); postgres_text.py ranks matches with a BM25
approximation, the neighbours' text counting at CONTEXT_WEIGHT.

The knowledge graph (GraphStore) is postgres_graph.py's mixin: ``graph_write`` runs in one
transaction under a per-group advisory lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from engram.errors import NotFound, PreconditionFailed, StoreError
from engram.models.episodes import Episode, EpisodeFilters, Operation
from engram.storage.postgres import vectors as vectors
from engram.storage.postgres.archive import PostgresArchiveMixin
from engram.storage.postgres.fulltext import TextSearch
from engram.storage.postgres.graph import PostgresGraphMixin
from engram.storage.postgres.graph_text import FactText
from engram.storage.postgres.graph_vectors import PostgresGraphVectorsMixin
from engram.storage.postgres.history import PostgresHistoryMixin
from engram.storage.postgres.insert import NEIGHBOUR_IDS, insert
from engram.storage.postgres.migrations import LATEST_VERSION, MIGRATIONS
from engram.storage.postgres.portable import PostgresPortableMixin
from engram.storage.postgres.rows import (
    CURRENT,
    CURRENT_JOIN,
    E_COLUMNS,
    EPISODE_COLUMNS,
    INSERT_EPISODE,
    check_text,
    episode_from_row,
    episode_row,
    filter_sql,
    held_sql,
    insert_operation,
    lock_key,
)
from engram.storage.protocol import NewEpisode, PageKey, ScoredEpisode, Vector

ANALYZE_AFTER = 1000
"""Inserted episodes after which a process refreshes statistics (or after a fifth of the table)."""

Connection = psycopg.Connection[Any]


def describe_conninfo(conninfo: str) -> str:
    """Return ``conninfo`` as ``postgresql://user@host:port/dbname``, without any password."""
    params = conninfo_to_dict(conninfo)
    user = f"{params['user']}@" if params.get("user") else ""
    host = str(params.get("host") or "localhost")
    port = f":{params['port']}" if params.get("port") else ""
    return f"postgresql://{user}{host}{port}/{params.get('dbname') or ''}"


class PostgresStore(
    PostgresGraphVectorsMixin,
    PostgresGraphMixin,
    PostgresHistoryMixin,
    PostgresArchiveMixin,
    PostgresPortableMixin,
):
    """Store on a PostgreSQL database (``postgresql://…`` or a libpq key=value string).

    Thread-safe; any number of processes may share the database. The schema is created or
    migrated on open in the first schema of the connection's ``search_path``. Each store
    holds a pool of up to ``pool_size`` connections (one is opened at once, more on demand).

    Raises StoreError when the database cannot be reached, lacks pgvector, or has a schema
    newer than this Engram knows.
    """

    def __init__(self, conninfo: str, *, pool_size: int = 10, timeout: float = 10.0) -> None:
        self._where = describe_conninfo(conninfo)
        self._closed = False
        self._inserted_since_analyze = 0
        self._rows_at_analyze = 0
        self._text = TextSearch()
        self._fact_text = FactText()
        self._pool_size = pool_size
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
            kwargs={"autocommit": True},
            configure=self._configure,
            name="engram",
            timeout=timeout,
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except PoolTimeout as exc:
            self._pool.close()
            raise StoreError(f"cannot open {self._where}: {exc}", field="database") from exc

    # -- connections ---------------------------------------------------------------------------

    @staticmethod
    def _configure(conn: Connection) -> None:
        from pgvector.psycopg import register_vector

        conn.execute("SET TIME ZONE 'UTC'")
        register_vector(conn)

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
    def _transaction(self) -> Iterator[Connection]:
        with self._connection() as conn, conn.transaction():
            yield conn

    def _lock(self, conn: Connection, keys: Sequence[tuple[str, ...]]) -> None:
        """Take transaction-scoped advisory locks on ``keys``, in one global order (no deadlocks)."""
        numbers = sorted({lock_key(self._schema, *key) for key in keys})
        conn.execute("SELECT count(pg_advisory_xact_lock(k)) FROM unnest(%s::bigint[]) AS k", (numbers,))

    def _migrate(self, conn: Connection) -> None:
        """Bring the schema to LATEST_VERSION; an up-to-date schema is only read (so replicas open)."""
        if self._applied(conn) == LATEST_VERSION:
            return
        with conn.transaction():
            self._lock(conn, [("schema",)])
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
        if self._scalar(conn, "SELECT to_regclass('schema_migrations')") is None:
            return 0
        current = int(self._scalar(conn, "SELECT coalesce(max(version), 0) FROM schema_migrations"))
        if current > LATEST_VERSION:
            raise StoreError(
                f"{self._where} has schema version {current}, newer than this Engram "
                f"({LATEST_VERSION}); upgrade Engram",
                field="database",
            )
        return current

    @staticmethod
    def _scalar(conn: Connection, sql: str, params: Sequence[Any] = ()) -> Any:
        row = conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def close(self) -> None:
        """Write buffered fact hits and close the connection pool."""
        if not self._closed:
            self._close_fact_hits()
            self._closed = True
            self._pool.close()

    # -- episodes ------------------------------------------------------------------------------

    def insert_episodes(
        self, items: Sequence[NewEpisode], operation: Operation
    ) -> list[tuple[Episode, bool]]:
        """Store new episodes and their operation in one transaction; see Store.

        Advisory locks on every (group, id), (group, fingerprint) and (group, thread) of the
        batch make concurrent batches that share any of them run one after the other.
        """
        for item in items:
            check_text(item.episode)
        keys: list[tuple[str, ...]] = []
        for item in items:
            group = item.episode.group_id
            keys += [(group, "id", item.episode.id), (group, "fingerprint", item.episode.fingerprint)]
            if item.thread is not None:
                keys.append((group, "thread", item.thread))
        with self._transaction() as conn:
            self._lock(conn, keys)
            results = insert(conn, items)
            created = [episode.id for episode, duplicate in results if not duplicate]
            if created:
                insert_operation(conn, operation, {"episodes": created})
        self._inserted(len(created))
        return results

    def _inserted(self, rows: int) -> None:
        """Count rows this process inserted; refresh statistics when the tables grew enough."""
        self._inserted_since_analyze += rows
        if self._inserted_since_analyze > max(ANALYZE_AFTER, self._rows_at_analyze // 5):
            self._analyze()

    def _analyze(self) -> None:
        """Refresh the planner's statistics after bulk inserts (one process at a time, others skip).

        Autovacuum does this too, but only every minute; until then a store that grew from
        nothing would be planned as empty (nested loops over every episode of a group).
        """
        key = lock_key(self._schema, "analyze")
        with self._connection() as conn:
            if not self._scalar(conn, "SELECT pg_try_advisory_lock(%s)", (key,)):
                return
            try:
                conn.execute(
                    "ANALYZE episode_docs, episodes, episode_vectors, entities, entity_names, facts, "
                    "fact_docs, mentions"
                )
                self._rows_at_analyze = int(
                    self._scalar(conn, "SELECT reltuples FROM pg_class WHERE oid = 'episode_docs'::regclass")
                )
                self._inserted_since_analyze = 0
                self._text.invalidate()
                self._fact_text.invalidate()
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

    @staticmethod
    def _current(conn: Connection, group_id: str, episode_id: str) -> Episode | None:
        row = conn.execute(
            f"SELECT {EPISODE_COLUMNS} FROM episodes WHERE group_id = %s AND id = %s AND expired_at IS NULL",
            (group_id, episode_id),
        ).fetchone()
        return None if row is None else episode_from_row(row)

    def get_episode(self, group_id: str, episode_id: str, known_at: datetime | None = None) -> Episode | None:
        """Return the version of an episode held now (or at ``known_at``), or None; see Store."""
        with self._connection() as conn:
            return self._held(conn, group_id, episode_id, known_at)

    def _held(
        self, conn: Connection, group_id: str, episode_id: str, known_at: datetime | None
    ) -> Episode | None:
        """Return the version held now (``_current``) or at ``known_at``, through the primary key."""
        if known_at is None:
            return self._current(conn, group_id, episode_id)
        held, params = held_sql(known_at)
        row = conn.execute(
            f"SELECT {E_COLUMNS} FROM episodes e WHERE e.group_id = %s AND e.id = %s AND {held}",
            (group_id, episode_id, *params),
        ).fetchone()
        return None if row is None else episode_from_row(row)

    def update_episode(
        self,
        group_id: str,
        episode_id: str,
        expected_version: int,
        apply: Callable[[Episode], Episode],
        operation: Operation,
    ) -> Episode:
        """Append version n+1 and close version n atomically, under a row lock; see Store."""
        with self._transaction() as conn:
            locked = conn.execute(
                "SELECT 1 FROM episode_docs WHERE group_id = %s AND id = %s FOR NO KEY UPDATE",
                (group_id, episode_id),
            ).fetchone()
            current = None if locked is None else self._current(conn, group_id, episode_id)
            if current is None:
                raise NotFound(f"no episode with id {episode_id!r} in group {group_id!r}", field="id")
            if current.version != expected_version:
                raise PreconditionFailed(
                    f"episode {episode_id!r} is at version {current.version}, not {expected_version}",
                    current_version=current.version,
                )
            new = apply(current)
            check_text(new)
            conn.execute(
                "UPDATE episodes SET expired_at = %s, expired_by = %s "
                "WHERE group_id = %s AND id = %s AND version = %s AND expired_at IS NULL",
                (new.recorded_at, operation.id, group_id, episode_id, current.version),
            )
            conn.execute(INSERT_EPISODE, episode_row(new))
            insert_operation(conn, operation, {"episode": episode_id, "version": new.version})
            return new

    def list_episodes(
        self, group_id: str, filters: EpisodeFilters, limit: int, after_key: PageKey | None = None
    ) -> list[Episode]:
        """Return held episodes matching ``filters`` (and ``known_at``), newest first; see Store."""
        where, params = filter_sql(filters)
        if after_key is not None:
            where += " AND (e.timestamp, e.id) < (%s, %s)"
            params += [after_key.timestamp, after_key.id]
        select = "SELECT {E_COLUMNS} FROM episodes e WHERE e.group_id = %s AND {held}{where} "
        select += "ORDER BY e.timestamp DESC, e.id DESC LIMIT %s"
        if filters.known_at is None:
            sql = select.format(E_COLUMNS=E_COLUMNS, held=CURRENT, where=where)
            values: tuple[Any, ...] = (group_id, *params, limit)
        else:
            # Held at t = current and stored by t (the current indexes, in time order) plus
            # closed after t and stored by t (the changes since t: few, by episodes_closed).
            current = select.format(
                E_COLUMNS=E_COLUMNS, held=f"{CURRENT} AND e.recorded_at <= %s", where=where
            )
            closed = select.format(
                E_COLUMNS=E_COLUMNS, held="e.expired_at > %s AND e.recorded_at <= %s", where=where
            )
            sql = f"({current}) UNION ALL ({closed}) ORDER BY timestamp DESC, id DESC LIMIT %s"
            at = filters.known_at
            values = (group_id, at, *params, limit, group_id, at, at, *params, limit, limit)
        with self._connection() as conn:
            rows = conn.execute(sql, values).fetchall()
        return [episode_from_row(row) for row in rows]

    def search_text(
        self, group_id: str, terms: Sequence[str], filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return episodes held now (or at ``filters.known_at``) matching any term, best first; see Store.

        A BM25 approximation.

        Terms are split into words as the indexed text was (``index_text``); a term of several
        words is a phrase. Ranking: postgres_text.py.
        """
        where, params = filter_sql(filters)
        with self._connection() as conn:
            return self._text.search(conn, group_id, terms, where, params, limit, held_sql(filters.known_at))

    def search_vectors(
        self, group_id: str, vector: Vector, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return held episodes nearest to ``vector`` (HNSW, cosine), best first; see Store."""
        where, params = filter_sql(filters)
        with self._connection() as conn:
            return vectors.nearest(conn, group_id, vector, limit, where, params, held_sql(filters.known_at))

    def pending_embeddings(self, limit: int) -> list[Episode]:
        """Return current episodes without a vector, oldest first; see Store."""
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {E_COLUMNS} FROM episode_docs d {CURRENT_JOIN} "
                "WHERE NOT EXISTS (SELECT 1 FROM episode_vectors v WHERE v.group_id = d.group_id "
                "AND v.id = d.id) ORDER BY d.created_at, d.group_id, d.id LIMIT %s",
                (limit,),
            ).fetchall()
        return [episode_from_row(row) for row in rows]

    def put_vectors(self, items: Sequence[tuple[Episode, Vector]]) -> None:
        """Store one vector per episode in one transaction; the first fixes the dimension; see Store."""
        if not items:
            return
        wanted = len(items[0][1])
        with self._transaction() as conn:
            if vectors.dimensions(conn) != wanted:
                self._lock(conn, [("schema",)])
                vectors.fix_dimensions(conn, wanted)
            vectors.put(conn, items)
        self._inserted(len(items))

    def clear_vectors(self) -> int:
        """Delete every vector and forget their dimension; see Store."""
        with self._transaction() as conn:
            self._lock(conn, [("schema",)])
            count = int(self._scalar(conn, "SELECT count(*) FROM episode_vectors"))
            conn.execute("DELETE FROM episode_vectors")
            vectors.reset_dimensions(conn)
        return count

    def get_meta(self, key: str) -> str | None:
        """Return a store-level setting or None; see Store."""
        with self._connection() as conn:
            value = self._scalar(conn, "SELECT value FROM store_meta WHERE key = %s", (key,))
        return None if value is None else str(value)

    def set_meta(self, key: str, value: str) -> None:
        """Record a store-level setting; see Store."""
        with self._connection() as conn:
            conn.execute(
                "INSERT INTO store_meta (key, value) VALUES (%s, %s) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def neighbours(
        self, group_id: str, episode_id: str, known_at: datetime | None = None
    ) -> tuple[Episode | None, Episode | None]:
        """Return the previous and next episodes of the thread, as held (at ``known_at``); see Store."""
        with self._connection() as conn:
            row = conn.execute(f"{NEIGHBOUR_IDS} AND d.id = %s", (group_id, episode_id)).fetchone()
            if row is None:
                return None, None
            previous, following = (
                None if other is None else self._held(conn, group_id, str(other), known_at)
                for other in row[1:]
            )
        return previous, following

    # -- diagnostics ---------------------------------------------------------------------------

    def groups(self) -> list[str]:
        """Return the ids of every group holding at least one episode, sorted; see Store."""
        with self._connection() as conn:
            rows = conn.execute("SELECT DISTINCT group_id FROM episode_docs ORDER BY group_id").fetchall()
        return [str(row[0]) for row in rows]

    def counts(self) -> dict[str, int]:
        """Return row counts: episodes (current), episode_versions, groups, operations."""
        with self._connection() as conn:
            row = conn.execute(
                "SELECT (SELECT count(*) FROM episodes WHERE expired_at IS NULL), "
                "(SELECT count(*) FROM episodes), (SELECT count(DISTINCT group_id) FROM episode_docs), "
                "(SELECT count(*) FROM operations)"
            ).fetchone()
        assert row is not None
        return {
            "episodes": int(row[0]),
            "episode_versions": int(row[1]),
            "groups": int(row[2]),
            "operations": int(row[3]),
        }

    def schema_version(self) -> int:
        """Return the highest applied migration."""
        with self._connection() as conn:
            return int(self._scalar(conn, "SELECT coalesce(max(version), 0) FROM schema_migrations"))

    def describe(self) -> str:
        """Return where the data lives: server version, address (no password), schema and pool size."""
        major, minor = divmod(self._server_version, 10_000)
        where = f"{self._where} (schema {self._schema}, pool of {self._pool_size})"
        return f"PostgreSQL {major}.{minor} at {where}"

    def integrity_check(self) -> str | None:
        """Return None: PostgreSQL checks its own pages; there is no cheap whole-database verdict."""
        return None
