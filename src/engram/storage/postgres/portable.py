"""Export and import of whole groups on PostgreSQL: every row out from one snapshot, back in idempotently.

The same PortableStore semantics as sqlite_portable.py. The dump reads in one REPEATABLE READ,
READ ONLY transaction through server-side cursors (a group never sits in memory whole);
"the order rows were stored" is approximated by their times (PostgreSQL keeps no row
order). A load runs in one transaction holding the group's graph lock and the advisory
locks of the episodes and threads it touches, like the write paths. Derived rows are
rebuilt: thread context (postgres_insert), entity names, fact documents (an archived fact's
from its entities' names when its latest version was written: PostgreSQL archives the stored
text); vectors by the indexer. Archived facts and search hits need the archive's tables
(schema 5): a store without them refuses those rows (InvalidInput).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from functools import partial
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from engram.errors import Conflict, InvalidInput
from engram.models.graph import Entity
from engram.storage.portable_base import (
    ArchivedFactRow,
    EntityRow,
    EpisodeRow,
    FactHitRow,
    FactRow,
    LoadCounts,
    MentionRow,
    MergeCandidateRow,
    OperationRow,
    Reindex,
    Row,
    VersionRow,
    differences,
    reconcile,
    row_key,
)
from engram.storage.postgres.graph_rows import ENTITY_COLUMNS, FACT_COLUMNS, entity_from_row, fact_from_row
from engram.storage.postgres.insert import NEIGHBOUR_IDS, NEXT_TEXT, PREVIOUS_TEXT, insert
from engram.storage.postgres.migrations import TEXT_CONFIG
from engram.storage.postgres.rows import (
    E_COLUMNS,
    EPISODE_COLUMNS,
    _has_nul,
    check_text,
    episode_from_row,
    index_text,
)
from engram.storage.protocol import NewEpisode

Connection = psycopg.Connection[Any]

_OPERATION_COLUMNS = "group_id, id, kind, actor, created_at, summary, details"
_MENTION_COLUMNS = "group_id, entity_id, episode_id, operation_id"
_CANDIDATE_COLUMNS = "group_id, entity_id, candidate_id, score, parts, created_at"


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


def _operation_row(row: Sequence[Any]) -> OperationRow:
    return OperationRow.model_construct(
        group_id=row[0],
        id=row[1],
        kind=row[2],
        actor=row[3],
        created_at=_utc(row[4]),
        summary=row[5],
        details=row[6],
    )


def _episode_row(row: Sequence[Any]) -> EpisodeRow:
    return EpisodeRow.model_construct(**dict(episode_from_row(row)), expired_by=row[18], thread=row[19])


def _entity_row(row: Sequence[Any]) -> EntityRow:
    return EntityRow.model_construct(**dict(entity_from_row(row)), expired_by=row[13])


def _fact_row(row: Sequence[Any]) -> FactRow:
    return FactRow.model_construct(**dict(fact_from_row(row)), expired_by=row[19])


def _archived_fact_row(row: Sequence[Any]) -> ArchivedFactRow:
    return ArchivedFactRow.model_construct(
        **dict(fact_from_row(row)), expired_by=row[19], archived_at=_utc(row[20]), archived_by=row[21]
    )


def _hit_row(row: Sequence[Any]) -> FactHitRow:
    return FactHitRow.model_construct(group_id=row[0], fact_id=row[1], last_returned_at=_utc(row[2]))


def _mention_row(row: Sequence[Any]) -> MentionRow:
    return MentionRow.model_construct(
        group_id=row[0], entity_id=row[1], episode_id=row[2], operation_id=row[3]
    )


def _candidate_row(row: Sequence[Any]) -> MergeCandidateRow:
    return MergeCandidateRow.model_construct(
        group_id=row[0],
        entity_id=row[1],
        candidate_id=row[2],
        score=float(row[3]),
        parts=row[4],
        created_at=_utc(row[5]),
    )


_SELECT_OPERATIONS = f"SELECT {_OPERATION_COLUMNS} FROM operations WHERE group_id = %s"
_SELECT_EPISODES = (
    f"SELECT {E_COLUMNS}, e.expired_by, d.thread FROM episodes e "
    "JOIN episode_docs d ON d.group_id = e.group_id AND d.id = e.id WHERE e.group_id = %s"
)
_SELECT_ENTITIES = f"SELECT {ENTITY_COLUMNS}, expired_by FROM entities WHERE group_id = %s"
_SELECT_FACTS = f"SELECT {FACT_COLUMNS}, expired_by FROM facts WHERE group_id = %s"
_SELECT_ARCHIVED = (
    f"SELECT {FACT_COLUMNS}, expired_by, archived_at, archived_by FROM archived_facts WHERE group_id = %s"
)
_SELECT_HITS = "SELECT group_id, fact_id, last_returned_at FROM fact_hits WHERE group_id = %s"
_SELECT_MENTIONS = f"SELECT {_MENTION_COLUMNS} FROM mentions WHERE group_id = %s"
_SELECT_CANDIDATES = f"SELECT {_CANDIDATE_COLUMNS} FROM merge_candidates WHERE group_id = %s"

_DUMPS: tuple[tuple[str, Callable[[Sequence[Any]], Row]], ...] = (
    (f"{_SELECT_OPERATIONS} ORDER BY created_at, id", _operation_row),
    (f"{_SELECT_EPISODES} ORDER BY d.created_at, d.id, e.version", _episode_row),
    (f"{_SELECT_ENTITIES} ORDER BY recorded_at, id, version", _entity_row),
    (f"{_SELECT_FACTS} ORDER BY min(recorded_at) OVER (PARTITION BY id), id, version", _fact_row),
    (f"{_SELECT_ARCHIVED} ORDER BY min(recorded_at) OVER (PARTITION BY id), id, version", _archived_fact_row),
    (f"{_SELECT_MENTIONS} ORDER BY entity_id, episode_id", _mention_row),
    (f"{_SELECT_CANDIDATES} ORDER BY created_at, entity_id, candidate_id", _candidate_row),
    (f"{_SELECT_HITS} ORDER BY fact_id", _hit_row),
)
_ARCHIVE_TABLES = ("archived_facts", "fact_hits")
"""Tables of the fact archive (schema 5); a store migrated before it has neither."""
_SELECT_VERSION = {
    "episodes": f"{_SELECT_EPISODES} AND e.id = %s AND e.version = %s",
    "entities": f"{_SELECT_ENTITIES} AND id = %s AND version = %s",
    "facts": f"{_SELECT_FACTS} AND id = %s AND version = %s",
    "archived_facts": f"{_SELECT_ARCHIVED} AND id = %s AND version = %s",
}
_FACT_TABLES = {"facts": ("archived_facts", "fact_docs"), "archived_facts": ("facts", "archived_fact_docs")}
"""Each fact table: the other one (a fact lives in one of them) and its documents."""


def _conflict(row: Row, fields: Sequence[str]) -> Conflict:
    return Conflict(
        f"{row_key(row)} in group {row.group_id!r} is already stored with other {', '.join(fields)}: "
        "the store holds another history of it; import into a fresh store or another group",
        field="id",
    )


class _Loader:
    """Loads rows on one connection inside the caller's transaction, then rebuilds derived rows."""

    def __init__(self, conn: Connection, reindex: Reindex, *, archive: bool) -> None:
        self._conn = conn
        self._reindex = reindex
        self._archive = archive
        self.counts = LoadCounts()
        self._entities: set[tuple[str, str]] = set()
        self._facts: dict[str, set[tuple[str, str]]] = {"facts": set(), "archived_facts": set()}
        self._episodes: set[tuple[str, str]] = set()
        self._new: dict[tuple[str, str], EpisodeRow] = {}  # first versions of new episodes, not yet written
        self._changed: set[tuple[str, str]] = set()  # episodes stored before, or new but not current

    def load(self, row: Row) -> None:
        if isinstance(row, ArchivedFactRow | FactHitRow) and not self._archive:
            raise InvalidInput(
                f"{row_key(row)}: this PostgreSQL store has no fact archive (schema 5); "
                "upgrade Engram, or import this group into SQLite",
                field="record",
            )
        if not isinstance(row, EpisodeRow):
            self._write_new()
        if isinstance(row, OperationRow):
            self._keyed(
                row, f"{_SELECT_OPERATIONS} AND id = %s", (row.id,), _operation_row, self._put_operation
            )
        elif isinstance(row, EpisodeRow):
            self._episode(row)
        elif isinstance(row, EntityRow):
            if self._version(row, "entities", _entity_row, self._put_entity):
                self._entities.add((row.group_id, row.id))
        elif isinstance(row, FactRow):
            self._fact(row, "facts", _fact_row)
        elif isinstance(row, ArchivedFactRow):
            self._fact(row, "archived_facts", _archived_fact_row)
        elif isinstance(row, FactHitRow):
            self._hit(row)
        elif isinstance(row, MentionRow):
            where = f"{_SELECT_MENTIONS} AND entity_id = %s AND episode_id = %s"
            self._keyed(row, where, (row.entity_id, row.episode_id), _mention_row, self._put_mention)
        else:
            where = f"{_SELECT_CANDIDATES} AND entity_id = %s AND candidate_id = %s"
            self._keyed(row, where, (row.entity_id, row.candidate_id), _candidate_row, self._put_candidate)

    def _stored(
        self, sql: str, row: Row, key: tuple[Any, ...], decode: Callable[[Sequence[Any]], Row]
    ) -> Row | None:
        found = self._conn.execute(sql, (row.group_id, *key)).fetchone()
        return None if found is None else decode(found)

    def _keyed(
        self,
        row: Row,
        sql: str,
        key: tuple[Any, ...],
        decode: Callable[[Sequence[Any]], Row],
        put: Callable[[Any], None],
    ) -> None:
        """Insert an unversioned row, or skip it when stored identically. Raises Conflict."""
        stored = self._stored(sql, row, key, decode)
        if stored is None:
            put(row)
            self.counts.created[row.record] += 1
            return
        changed = differences(stored, row)
        if changed:
            raise _conflict(row, changed)
        self.counts.skipped[row.record] += 1

    def _version(
        self, row: VersionRow, table: str, decode: Callable[[Sequence[Any]], Row], put: Callable[[Any], None]
    ) -> bool:
        """Insert, close or skip one version; return True when the store changed. Raises Conflict."""
        stored = self._stored(_SELECT_VERSION[table], row, (row.id, row.version), decode)
        if stored is None:
            put(row)
            self.counts.created[row.record] += 1
            return True
        changed = differences(stored, row)
        if changed:
            raise _conflict(row, changed)
        assert isinstance(stored, VersionRow)
        verdict = reconcile(stored.expired_at, stored.expired_by, row.expired_at, row.expired_by)
        if verdict == "conflict":
            raise _conflict(row, ["expired_at", "expired_by"])
        if verdict == "close":
            self._conn.execute(
                f"UPDATE {table} SET expired_at = %s, expired_by = %s "
                "WHERE group_id = %s AND id = %s AND version = %s",
                (row.expired_at, row.expired_by, row.group_id, row.id, row.version),
            )
            self.counts.closed[row.record] += 1
            return True
        self.counts.skipped[row.record] += 1
        return False

    # -- writes ------------------------------------------------------------------------------------

    def _episode(self, row: EpisodeRow) -> None:
        check_text(row)
        key = (row.group_id, row.id)
        if key in self._new:  # a later version of a new episode: its first must be stored
            self._write_new()
        found = self._conn.execute(
            "SELECT thread FROM episode_docs WHERE group_id = %s AND id = %s", key
        ).fetchone()
        if found is None:
            self._new[key] = row
            self.counts.created[row.record] += 1
            self._episodes.add(key)
            return
        if self._version(row, "episodes", _episode_row, self._put_episode):
            self._episodes.add(key)
            self._changed.add(key)
        if found[0] != row.thread:
            raise _conflict(row, ["thread"])

    def _write_new(self) -> None:
        """Store the new episodes met so far: documents, first versions, thread context (postgres_insert)."""
        if not self._new:
            return
        rows = list(self._new.values())
        self._new.clear()
        insert(
            self._conn, [NewEpisode(r, self._reindex.episode_text(r.content), True, r.thread) for r in rows]
        )
        self._changed.update((r.group_id, r.id) for r in rows if r.expired_at is not None)
        closed = [(r.expired_by, r.group_id, r.id, r.version) for r in rows if r.expired_by is not None]
        if closed:
            with self._conn.cursor() as cursor:
                cursor.executemany(
                    "UPDATE episodes SET expired_by = %s WHERE group_id = %s AND id = %s AND version = %s",
                    closed,
                )

    def _put_episode(self, row: EpisodeRow) -> None:
        actor = row.actor
        self._conn.execute(
            f"INSERT INTO episodes ({EPISODE_COLUMNS}, expired_by) VALUES ({', '.join(['%s'] * 19)})",
            (
                row.group_id,
                row.id,
                row.version,
                row.timestamp,
                row.recorded_at,
                row.expired_at,
                row.source,
                row.source_type,
                actor.type if actor else None,
                actor.id if actor else None,
                actor.name if actor else None,
                row.intent,
                row.content,
                Jsonb(row.metadata),
                Jsonb(row.references),
                row.fingerprint,
                row.status,
                row.operation_id,
                row.expired_by,
            ),
        )

    def _put_operation(self, row: OperationRow) -> None:
        _check_nul("operation", row.kind, row.actor, row.summary, row.details)
        self._conn.execute(
            f"INSERT INTO operations ({_OPERATION_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (row.group_id, row.id, row.kind, row.actor, row.created_at, row.summary, Jsonb(row.details)),
        )

    def _put_entity(self, row: EntityRow) -> None:
        _check_nul("entity", row.name, row.aliases, row.attributes, row.summary, row.type)
        self._conn.execute(
            f"INSERT INTO entities ({ENTITY_COLUMNS}, expired_by) VALUES ({', '.join(['%s'] * 14)})",
            (
                row.group_id,
                row.id,
                row.version,
                row.name,
                row.type,
                Jsonb(row.aliases),
                Jsonb(row.attributes),
                row.summary,
                row.first_seen,
                row.last_seen,
                row.recorded_at,
                row.expired_at,
                row.operation_id,
                row.expired_by,
            ),
        )

    def _fact(
        self, row: FactRow | ArchivedFactRow, table: str, decode: Callable[[Sequence[Any]], Row]
    ) -> None:
        """Load a live or an archived fact version; a fact held in the other table is a Conflict."""
        other = _FACT_TABLES[table][0]
        if (
            self._archive
            and self._conn.execute(
                f"SELECT 1 FROM {other} WHERE group_id = %s AND id = %s LIMIT 1", (row.group_id, row.id)
            ).fetchone()
        ):
            state = "archived" if other == "archived_facts" else "live"
            raise Conflict(
                f"fact {row.id!r} in group {row.group_id!r} is {state} here, unlike in the input: "
                "import into a fresh store or another group",
                field="id",
            )
        if self._version(row, table, decode, partial(self._put_fact, table=table)):
            self._facts[table].add((row.group_id, row.id))

    def _put_fact(self, row: FactRow | ArchivedFactRow, table: str) -> None:
        _check_nul("fact", row.fact, row.value, row.conditions, row.predicate, row.episodes)
        archived = (row.archived_at, row.archived_by) if isinstance(row, ArchivedFactRow) else ()
        columns = f"{FACT_COLUMNS}, expired_by" + (", archived_at, archived_by" if archived else "")
        self._conn.execute(
            f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * (20 + len(archived)))})",
            (
                row.group_id,
                row.id,
                row.version,
                row.subject,
                row.predicate,
                row.object,
                None if row.value is None else Jsonb(row.value),
                row.fact,
                Jsonb(row.conditions),
                row.confidence,
                row.source_kind,
                Jsonb(row.episodes),
                row.valid_at,
                row.invalid_at,
                row.recorded_at,
                row.expired_at,
                row.status,
                row.superseded_by,
                row.operation_id,
                row.expired_by,
                *archived,
            ),
        )

    def _hit(self, row: FactHitRow) -> None:
        """Record when a search last returned a fact: the later of the stored and the given time."""
        found = self._conn.execute(
            "INSERT INTO fact_hits (group_id, fact_id, last_returned_at) VALUES (%s, %s, %s) "
            "ON CONFLICT (group_id, fact_id) DO UPDATE SET last_returned_at = excluded.last_returned_at "
            "WHERE fact_hits.last_returned_at < excluded.last_returned_at RETURNING 1",
            (row.group_id, row.fact_id, row.last_returned_at),
        ).fetchone()
        (self.counts.created if found else self.counts.skipped)[row.record] += 1

    def _put_mention(self, row: MentionRow) -> None:
        self._conn.execute(
            f"INSERT INTO mentions ({_MENTION_COLUMNS}) VALUES (%s, %s, %s, %s)",
            (row.group_id, row.entity_id, row.episode_id, row.operation_id),
        )

    def _put_candidate(self, row: MergeCandidateRow) -> None:
        self._conn.execute(
            f"INSERT INTO merge_candidates ({_CANDIDATE_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)",
            (row.group_id, row.entity_id, row.candidate_id, row.score, Jsonb(row.parts), row.created_at),
        )

    # -- derived rows ------------------------------------------------------------------------------

    def finish(self) -> None:
        """Rebuild entity names and fact documents; check no object has two current versions."""
        self._write_new()
        conn = self._conn
        for table, kind, objects in (
            ("episodes", "episode", self._episodes),
            ("entities", "entity", self._entities),
            ("facts", "fact", self._facts["facts"]),
            ("archived_facts", "fact", self._facts["archived_facts"]),
        ):
            for group_id, object_id in sorted(objects):
                current = conn.execute(
                    f"SELECT count(*) FROM {table} WHERE group_id = %s AND id = %s AND expired_at IS NULL",
                    (group_id, object_id),
                ).fetchone()
                if current is not None and current[0] > 1:
                    raise Conflict(
                        f"{kind} {object_id!r} in group {group_id!r} would have {current[0]} current "
                        "versions: "
                        "the store holds another history of it; import into a fresh store or another group",
                        field="id",
                    )
        self._thread_context()
        for group_id, entity_id in sorted(self._entities):
            found = conn.execute(
                f"SELECT {ENTITY_COLUMNS} FROM entities "
                "WHERE group_id = %s AND id = %s AND expired_at IS NULL",
                (group_id, entity_id),
            ).fetchone()
            keys = (
                [] if found is None else list(dict.fromkeys(self._reindex.name_keys(entity_from_row(found))))
            )
            conn.execute(
                "DELETE FROM entity_names WHERE group_id = %s AND entity_id = %s", (group_id, entity_id)
            )
            conn.execute(
                "INSERT INTO entity_names (group_id, name_key, entity_id) "
                "SELECT %s, k, %s FROM unnest(%s::text[]) AS k ON CONFLICT DO NOTHING",
                (group_id, entity_id, keys),
            )
        for table, facts in self._facts.items():
            documents = _FACT_TABLES[table][1]
            for group_id, fact_id in sorted(facts):
                latest = conn.execute(
                    f"SELECT {FACT_COLUMNS} FROM {table} WHERE group_id = %s AND id = %s "
                    "ORDER BY version DESC LIMIT 1",
                    (group_id, fact_id),
                ).fetchone()
                assert latest is not None, "a fact that changed has a version"
                fact = fact_from_row(latest)
                text = self._reindex.fact_text(fact, partial(self._entity_at, group_id, fact.recorded_at))
                conn.execute(
                    f"INSERT INTO {documents} (group_id, id, text) VALUES (%s, %s, %s) "
                    "ON CONFLICT (group_id, id) DO UPDATE SET text = excluded.text",
                    (group_id, fact_id, index_text(text)),  # split as PostgresGraphTxn.put_fact splits
                )

    def _thread_context(self) -> None:
        """Rewrite the thread context of changed episodes and of their neighbours.

        ``insert`` gave new episodes the context the write path gives, as if each were
        current; an episode whose versions changed, or that arrived with no current version
        (deleted), changes what its current neighbours lend each other.
        """
        for group_id in sorted({group for group, _ in self._changed}):
            ids = [episode_id for group, episode_id in self._changed if group == group_id]
            stale = set(ids)
            for row in self._conn.execute(f"{NEIGHBOUR_IDS} AND d.id = ANY(%s)", (group_id, ids)).fetchall():
                stale.update(str(other) for other in row[1:] if other is not None)
            self._conn.execute(
                f"UPDATE episode_docs d SET context_doc = to_tsvector('{TEXT_CONFIG}', "
                f"concat_ws(' ', ({PREVIOUS_TEXT}), ({NEXT_TEXT}))) WHERE d.group_id = %s AND d.id = ANY(%s)",
                (group_id, sorted(stale)),
            )

    def _entity_at(self, group_id: str, at: datetime, entity_id: str) -> Entity | None:
        """Return the version of an entity that was current at ``at``."""
        found = self._conn.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE group_id = %s AND id = %s AND recorded_at <= %s "
            "AND (expired_at IS NULL OR expired_at > %s) ORDER BY version DESC LIMIT 1",
            (group_id, entity_id, at, at),
        ).fetchone()
        return None if found is None else entity_from_row(found)


def _check_nul(field: str, *values: Any) -> None:
    if any(_has_nul(value) for value in values):
        raise InvalidInput(f"{field} must not contain NUL characters", field=field)


def _lock_keys(rows: Sequence[Row]) -> list[tuple[str, ...]]:
    """Return the advisory locks a load takes: each group's graph, each episode's id and thread."""
    keys: list[tuple[str, ...]] = []
    for row in rows:
        keys.append((row.group_id, "graph"))
        if isinstance(row, EpisodeRow):
            keys += [(row.group_id, "id", row.id), (row.group_id, "fingerprint", row.fingerprint)]
            if row.thread is not None:
                keys.append((row.group_id, "thread", row.thread))
    return keys


class PostgresPortableMixin:
    """The PortableStore methods of PostgresStore (which provides connections, locks and statistics)."""

    _connection: Callable[[], AbstractContextManager[Connection]]
    _transaction: Callable[[], AbstractContextManager[Connection]]
    _lock: Callable[[Connection, Sequence[tuple[str, ...]]], None]
    _inserted: Callable[[int], None]

    def dump_group(self, group_id: str) -> Iterator[Row]:
        """Yield every row of the group from one REPEATABLE READ snapshot; see PortableStore."""
        flush = getattr(self, "flush_fact_hits", None)  # the archive's mixin, when this store has it
        if flush is not None:
            flush()  # hits still buffered in memory are part of the group
        with self._connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            archive = _has_archive(conn)
            for number, (sql, decode) in enumerate(_DUMPS):
                if not archive and any(f"FROM {table} " in sql for table in _ARCHIVE_TABLES):
                    continue
                with conn.cursor(name=f"engram_dump_{number}") as cursor:
                    cursor.itersize = 2000
                    cursor.execute(sql, (group_id,))
                    for found in cursor:
                        yield decode(found)

    def load_rows(self, rows: Sequence[Row], reindex: Reindex) -> LoadCounts:
        """Store rows in one transaction, skipping identical ones; see PortableStore."""
        with self._transaction() as conn:
            self._lock(conn, _lock_keys(rows))
            loader = _Loader(conn, reindex, archive=_has_archive(conn))
            for row in rows:
                loader.load(row)
            loader.finish()
        self._inserted(sum(loader.counts.created.values()))
        return loader.counts


def _has_archive(conn: Connection) -> bool:
    """Return True when the schema has the fact archive's tables."""
    row = conn.execute("SELECT to_regclass('archived_facts') IS NOT NULL").fetchone()
    return bool(row and row[0])
