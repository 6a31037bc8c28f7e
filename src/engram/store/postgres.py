"""The server store: PostgreSQL ≥ 15 with pgvector, through psycopg 3 and a connection pool.

Several processes (``engram serve`` behind a load balancer) may share one database, so
concurrency control lives in the database rather than in a writer thread as in SQLite:

- ``insert_episodes`` takes transaction-scoped advisory locks, in sorted order, on every
  (group, id), (group, fingerprint) and (group, thread) it touches before it looks for
  duplicates, so two processes can never both insert one episode, and thread neighbours
  always see each other's text;
- ``update_episode`` locks the episode's row (``SELECT … FOR NO KEY UPDATE``) before it reads
  the current version, so concurrent conditional writers serialise and none is lost.

Full text: each ``episode_docs`` row holds a generated tsvector of its own text (weight A) and
its thread neighbours' text (weight B); ``ts_rank_cd`` weighs B at CONTEXT_WEIGHT. That is
cover-density ranking, not BM25 (core PostgreSQL has none): see docs/deployment.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolTimeout

from engram.errors import Conflict, NotFound, PreconditionFailed, StoreError
from engram.models import Episode, EpisodeFilters, Operation
from engram.store import postgres_vectors as vectors
from engram.store.base import CONTEXT_WEIGHT, NewEpisode, PageKey, ScoredEpisode, Vector
from engram.store.postgres_rows import (
    CURRENT_JOIN,
    E_COLUMNS,
    EPISODE_COLUMNS,
    INSERT_EPISODE,
    N_COLUMNS,
    check_text,
    episode_from_row,
    episode_row,
    filter_sql,
    index_text,
    lock_key,
)
from engram.store.postgres_schema import LATEST_VERSION, MIGRATIONS, TEXT_CONFIG

RANK_WEIGHTS = f"{{0.1, 0.2, {CONTEXT_WEIGHT}, 1.0}}"
"""ts_rank_cd weights of D, C, B, A: own text (A) counts fully, thread context (B) at CONTEXT_WEIGHT."""
RANK_NORMALISATION = 1
"""ts_rank_cd normalisation: divide by 1 + log(document length), as BM25 discounts long documents."""

_NEIGHBOUR = """
    SELECT n.{column} FROM episode_docs n
    WHERE n.group_id = d.group_id AND n.thread = d.thread AND (n.timestamp, n.id) {cmp} (d.timestamp, d.id)
    ORDER BY n.timestamp {order}, n.id {order} LIMIT 1
"""
PREVIOUS_ID = _NEIGHBOUR.format(column="id", cmp="<", order="DESC")
NEXT_ID = _NEIGHBOUR.format(column="id", cmp=">", order="ASC")
NEIGHBOUR_IDS = f"SELECT ({PREVIOUS_ID}), ({NEXT_ID}) FROM episode_docs d WHERE d.group_id = %s AND d.id = %s"
PREVIOUS_TEXT = _NEIGHBOUR.format(column="text", cmp="<", order="DESC")
NEXT_TEXT = _NEIGHBOUR.format(column="text", cmp=">", order="ASC")

Connection = psycopg.Connection[Any]


def describe_conninfo(conninfo: str) -> str:
    """Return ``conninfo`` as ``postgresql://user@host:port/dbname``, without any password."""
    params = conninfo_to_dict(conninfo)
    user = f"{params['user']}@" if params.get("user") else ""
    host = str(params.get("host") or "localhost")
    port = f":{params['port']}" if params.get("port") else ""
    return f"postgresql://{user}{host}{port}/{params.get('dbname') or ''}"


class PostgresStore:
    """Store on a PostgreSQL database (``postgresql://…`` or a libpq key=value string).

    Thread-safe; any number of processes may share the database. The schema is created or
    migrated on open in the first schema of the connection's ``search_path``.

    Raises StoreError when the database cannot be reached, lacks pgvector, or has a schema
    newer than this Engram knows.
    """

    def __init__(self, conninfo: str, *, pool_size: int = 10, timeout: float = 10.0) -> None:
        self._where = describe_conninfo(conninfo)
        self._closed = False
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
        if self._closed:
            raise StoreError("the store is closed")
        with self._pool.connection() as conn:
            yield conn

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with self._connection() as conn, conn.transaction():
            yield conn

    def _lock(self, conn: Connection, keys: Sequence[tuple[str, ...]]) -> None:
        """Take transaction-scoped advisory locks on ``keys``, in one global order (no deadlocks)."""
        numbers = sorted({lock_key(self._schema, *key) for key in keys})
        conn.execute("SELECT count(pg_advisory_xact_lock(k)) FROM unnest(%s::bigint[]) AS k", (numbers,))

    def _migrate(self, conn: Connection) -> None:
        with conn.transaction():
            self._lock(conn, [("schema",)])
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version integer PRIMARY KEY, applied_at timestamptz NOT NULL)"
            )
            current = self._scalar(conn, "SELECT coalesce(max(version), 0) FROM schema_migrations")
            if current > LATEST_VERSION:
                raise StoreError(
                    f"{self._where} has schema version {current}, newer than this Engram "
                    f"({LATEST_VERSION}); upgrade Engram",
                    field="database",
                )
            for version, sql in MIGRATIONS:
                if version > current:
                    conn.execute(sql)
                    conn.execute(
                        "INSERT INTO schema_migrations (version, applied_at) VALUES (%s, %s)",
                        (version, datetime.now(UTC)),
                    )

    @staticmethod
    def _scalar(conn: Connection, sql: str, params: Sequence[Any] = ()) -> Any:
        row = conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def close(self) -> None:
        """Close the connection pool."""
        if not self._closed:
            self._closed = True
            self._pool.close()

    # -- episodes ------------------------------------------------------------------------------

    def insert_episodes(
        self, items: Sequence[NewEpisode], operation: Operation
    ) -> list[tuple[Episode, bool]]:
        """Store new episodes and their operation in one transaction; see Store."""
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
                    "INSERT INTO episode_docs "
                    "(group_id, id, fingerprint, thread, timestamp, created_at, text) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (
                        episode.group_id,
                        episode.id,
                        episode.fingerprint,
                        item.thread,
                        episode.timestamp,
                        episode.recorded_at,
                        index_text(item.search_text),
                    ),
                )
                conn.execute(INSERT_EPISODE, episode_row(episode))
                if item.thread is not None:
                    self._link(conn, episode.group_id, episode.id)
                results.append((episode, False))
            created = [episode.id for episode, duplicate in results if not duplicate]
            if created:
                self._insert_operation(conn, operation, {"episodes": created})
            return results

    @staticmethod
    def _link(conn: Connection, group_id: str, episode_id: str) -> None:
        """Rewrite the thread context of a new episode and of its neighbours, which now include it."""
        row = conn.execute(
            NEIGHBOUR_IDS,
            (group_id, episode_id),
        ).fetchone()
        assert row is not None
        neighbours = [str(found) for found in row if found is not None]
        if neighbours:
            conn.execute(
                f"UPDATE episode_docs d SET context = concat_ws(' ', ({PREVIOUS_TEXT}), ({NEXT_TEXT})) "
                "WHERE d.group_id = %s AND d.id = ANY(%s)",
                (group_id, [episode_id, *neighbours]),
            )

    @staticmethod
    def _existing_id(conn: Connection, item: NewEpisode) -> str | None:
        """Return the id of the stored episode ``item`` duplicates, if any (as SQLiteStore does)."""
        episode = item.episode
        if item.client_id:
            row = conn.execute(
                f"SELECT d.fingerprint, e.fingerprint FROM episode_docs d {CURRENT_JOIN} "
                "WHERE d.group_id = %s AND d.id = %s",
                (episode.group_id, episode.id),
            ).fetchone()
            if row is None:
                return None
            if episode.fingerprint not in row:
                raise Conflict(
                    f"episode id {episode.id!r} already names an episode with different content, "
                    "actor or intent; choose another id",
                    field="id",
                )
            return episode.id
        found = conn.execute(
            "SELECT id FROM episode_docs WHERE group_id = %s AND fingerprint = %s "
            "ORDER BY created_at, id LIMIT 1",
            (episode.group_id, episode.fingerprint),
        ).fetchone()
        return None if found is None else str(found[0])

    @staticmethod
    def _current(conn: Connection, group_id: str, episode_id: str) -> Episode | None:
        row = conn.execute(
            f"SELECT {EPISODE_COLUMNS} FROM episodes WHERE group_id = %s AND id = %s AND expired_at IS NULL",
            (group_id, episode_id),
        ).fetchone()
        return None if row is None else episode_from_row(row)

    @staticmethod
    def _insert_operation(conn: Connection, operation: Operation, extra: dict[str, Any]) -> None:
        conn.execute(
            "INSERT INTO operations (group_id, id, kind, actor, created_at, summary, details) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (
                operation.group_id,
                operation.id,
                operation.kind,
                operation.actor,
                operation.created_at,
                operation.summary,
                Jsonb({**operation.details, **extra}),
            ),
        )

    def get_episode(self, group_id: str, episode_id: str) -> Episode | None:
        """Return the current version of an episode, or None."""
        with self._connection() as conn:
            return self._current(conn, group_id, episode_id)

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
                "UPDATE episodes SET expired_at = %s WHERE group_id = %s AND id = %s AND version = %s",
                (new.recorded_at, group_id, episode_id, current.version),
            )
            conn.execute(INSERT_EPISODE, episode_row(new))
            self._insert_operation(conn, operation, {"episode": episode_id, "version": new.version})
            return new

    def list_episodes(
        self, group_id: str, filters: EpisodeFilters, limit: int, after_key: PageKey | None = None
    ) -> list[Episode]:
        """Return current episodes matching ``filters``, newest first; see Store."""
        where, params = filter_sql(filters)
        if after_key is not None:
            where += " AND (e.timestamp, e.id) < (%s, %s)"
            params += [after_key.timestamp, after_key.id]
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {E_COLUMNS} FROM episodes e WHERE e.group_id = %s AND e.expired_at IS NULL{where} "
                "ORDER BY e.timestamp DESC, e.id DESC LIMIT %s",
                (group_id, *params, limit),
            ).fetchall()
        return [episode_from_row(row) for row in rows]

    def search_text(
        self, group_id: str, terms: Sequence[str], filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return current episodes matching any term, best ``ts_rank_cd`` first; see Store.

        Each term is split into words as the indexed text was (``index_text``) and becomes a
        phrase (``phraseto_tsquery``: no quoting needed); the phrases are OR-ed together.
        """
        words = [text for text in (index_text(term) for term in terms) if text]
        if not words:
            return []
        query = " || ".join([f"phraseto_tsquery('{TEXT_CONFIG}', %s)"] * len(words))
        where, params = filter_sql(filters)
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {E_COLUMNS}, ts_rank_cd('{RANK_WEIGHTS}', d.document, q.query, "
                f"{RANK_NORMALISATION}) AS score "
                f"FROM (SELECT {query} AS query) q, episode_docs d {CURRENT_JOIN} "
                f"WHERE d.group_id = %s AND d.document @@ q.query{where} "
                "ORDER BY score DESC, d.id LIMIT %s",
                (*words, group_id, *params, limit),
            ).fetchall()
        return [ScoredEpisode(episode_from_row(row), float(row[N_COLUMNS])) for row in rows]

    def search_vectors(
        self, group_id: str, vector: Vector, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return current episodes nearest to ``vector`` (HNSW, cosine), best first; see Store."""
        where, params = filter_sql(filters)
        with self._connection() as conn:
            return vectors.nearest(conn, group_id, vector, limit, where, params)

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

    def neighbours(self, group_id: str, episode_id: str) -> tuple[Episode | None, Episode | None]:
        """Return the current previous and next episodes of the episode's thread; see Store."""
        with self._connection() as conn:
            row = conn.execute(
                NEIGHBOUR_IDS,
                (group_id, episode_id),
            ).fetchone()
            if row is None:
                return None, None
            found = [None if other is None else self._current(conn, group_id, str(other)) for other in row]
        return found[0], found[1]

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
        """Return where the data lives: server version, address (no password) and schema."""
        major, minor = divmod(self._server_version, 10_000)
        return f"PostgreSQL {major}.{minor} at {self._where} (schema {self._schema})"

    def integrity_check(self) -> str | None:
        """Return None: PostgreSQL checks its own pages; there is no cheap whole-database verdict."""
        return None
