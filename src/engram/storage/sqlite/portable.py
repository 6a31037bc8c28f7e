"""Export and import of whole groups on SQLite: every row out from one snapshot, back in idempotently.

Rows keep their ids, versions and times; the internal document numbers (``doc``) are
assigned anew in the order rows arrive, which is the order they were first stored, so ties
in full-text ranking break the same way. Derived rows are rebuilt, not copied: the episode
index with thread context, entity names, the fact indexes (a live fact's text from the
names its entities had when its latest version was written, an archived fact's from those
they had when it was archived) and, by the indexer, vectors.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import apsw

from engram.errors import Conflict
from engram.models.episodes import Actor
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
from engram.storage.sqlite.fulltext import neighbours, reindex
from engram.storage.sqlite.graph import ENTITY_COLUMNS, FACT_COLUMNS, entity_from_row, fact_from_row
from engram.storage.sqlite.rows import E_COLUMNS, EPISODE_COLUMNS, dt, episode_row, scalar, ts

_OPERATION_COLUMNS = "group_id, id, kind, actor, created_at, summary, details"
_MENTION_COLUMNS = "group_id, entity_id, episode_id, operation_id"
_CANDIDATE_COLUMNS = "group_id, entity_id, candidate_id, score, parts, created_at"


def _operation_row(row: Sequence[Any]) -> OperationRow:
    return OperationRow.model_construct(
        group_id=row[0],
        id=row[1],
        kind=row[2],
        actor=row[3],
        created_at=datetime.fromisoformat(row[4]),
        summary=row[5],
        details=json.loads(row[6]),
    )


def _episode_row(row: Sequence[Any]) -> EpisodeRow:
    # One construction (not Episode, then EpisodeRow): episodes are most of a dump.
    actor = None if row[9] is None else Actor(type=row[8], id=row[9], name=row[10])
    return EpisodeRow.model_construct(
        group_id=row[0],
        id=row[1],
        version=row[2],
        timestamp=datetime.fromisoformat(row[3]),
        recorded_at=datetime.fromisoformat(row[4]),
        expired_at=dt(row[5]),
        source=row[6],
        source_type=row[7],
        actor=actor,
        intent=row[11],
        content=row[12],
        metadata=json.loads(row[13]),
        references=json.loads(row[14]),
        fingerprint=row[15],
        status=row[16],
        operation_id=row[17],
        expired_by=row[18],
        thread=row[19],
    )


def _entity_row(row: Sequence[Any]) -> EntityRow:
    return EntityRow.model_construct(**dict(entity_from_row(row)), expired_by=row[13])


def _fact_row(row: Sequence[Any]) -> FactRow:
    return FactRow.model_construct(**dict(fact_from_row(row)), expired_by=row[19])


def _archived_fact_row(row: Sequence[Any]) -> ArchivedFactRow:
    return ArchivedFactRow.model_construct(
        **dict(fact_from_row(row)),
        expired_by=row[19],
        archived_at=datetime.fromisoformat(row[20]),
        archived_by=row[21],
    )


def _hit_row(row: Sequence[Any]) -> FactHitRow:
    return FactHitRow.model_construct(
        group_id=row[0], fact_id=row[1], last_returned_at=datetime.fromisoformat(row[2])
    )


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
        parts=json.loads(row[4]),
        created_at=datetime.fromisoformat(row[5]),
    )


_SELECT_OPERATIONS = f"SELECT {_OPERATION_COLUMNS} FROM operations WHERE group_id = ?"
_SELECT_EPISODES = (
    f"SELECT {E_COLUMNS}, e.expired_by, d.thread FROM episodes e JOIN episode_docs d ON d.doc = e.doc "
    "WHERE e.group_id = ?"
)
_SELECT_ENTITIES = f"SELECT {ENTITY_COLUMNS}, expired_by FROM entities WHERE group_id = ?"
_SELECT_FACTS = f"SELECT {FACT_COLUMNS}, expired_by FROM facts WHERE group_id = ?"
_SELECT_ARCHIVED = (
    f"SELECT {FACT_COLUMNS}, expired_by, archived_at, archived_by FROM archived_facts WHERE group_id = ?"
)
_SELECT_HITS = "SELECT group_id, fact_id, last_returned_at FROM fact_hits WHERE group_id = ?"
_SELECT_MENTIONS = f"SELECT {_MENTION_COLUMNS} FROM mentions WHERE group_id = ?"
_SELECT_CANDIDATES = f"SELECT {_CANDIDATE_COLUMNS} FROM merge_candidates WHERE group_id = ?"

_DUMPS: tuple[tuple[str, Callable[[Sequence[Any]], Row]], ...] = (
    (f"{_SELECT_OPERATIONS} ORDER BY rowid", _operation_row),
    (f"{_SELECT_EPISODES} ORDER BY e.doc, e.version", _episode_row),
    (f"{_SELECT_ENTITIES} ORDER BY rowid", _entity_row),
    (f"{_SELECT_FACTS} ORDER BY doc, version", _fact_row),
    (f"{_SELECT_ARCHIVED} ORDER BY doc, version", _archived_fact_row),
    (f"{_SELECT_MENTIONS} ORDER BY rowid", _mention_row),
    (f"{_SELECT_CANDIDATES} ORDER BY rowid", _candidate_row),
    (f"{_SELECT_HITS} ORDER BY fact_id", _hit_row),
)


_SELECT_VERSION = {
    "episodes": f"{_SELECT_EPISODES} AND e.id = ? AND e.version = ?",
    "entities": f"{_SELECT_ENTITIES} AND id = ? AND version = ?",
    "facts": f"{_SELECT_FACTS} AND id = ? AND version = ?",
    "archived_facts": f"{_SELECT_ARCHIVED} AND id = ? AND version = ?",
}
_FACT_TABLES = {"facts": "archived_facts", "archived_facts": "facts"}
"""Each fact table and the other one: a fact lives in one of them."""


def _opt(value: Any) -> str | None:
    return None if value is None else ts(value)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class _Loader:
    """Loads rows on the writer's connection inside one transaction, then rebuilds derived rows."""

    def __init__(self, conn: apsw.Connection, reindex: Reindex) -> None:
        self._conn = conn
        self._reindex = reindex
        self.counts = LoadCounts()
        self._docs: set[int] = set()  # episode documents whose versions changed
        self._entities: set[tuple[str, str]] = set()
        self._facts: dict[str, set[tuple[str, str]]] = {"facts": set(), "archived_facts": set()}
        self._next_fact_doc: int | None = None

    def load(self, row: Row) -> None:
        if isinstance(row, OperationRow):
            self._keyed(
                row, f"{_SELECT_OPERATIONS} AND id = ?", (row.id,), _operation_row, self._put_operation
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
            where = f"{_SELECT_MENTIONS} AND entity_id = ? AND episode_id = ?"
            self._keyed(row, where, (row.entity_id, row.episode_id), _mention_row, self._put_mention)
        else:
            where = f"{_SELECT_CANDIDATES} AND entity_id = ? AND candidate_id = ?"
            self._keyed(row, where, (row.entity_id, row.candidate_id), _candidate_row, self._put_candidate)

    # -- identity checks ---------------------------------------------------------------------------

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
        self,
        row: VersionRow,
        table: str,
        decode: Callable[[Sequence[Any]], Row],
        put: Callable[[Any], None],
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
                f"UPDATE {table} SET expired_at = ?, expired_by = ? "
                "WHERE group_id = ? AND id = ? AND version = ?",
                (_opt(row.expired_at), row.expired_by, row.group_id, row.id, row.version),
            )
            self.counts.closed[row.record] += 1
            return True
        self.counts.skipped[row.record] += 1
        return False

    # -- writes ------------------------------------------------------------------------------------

    def _episode(self, row: EpisodeRow) -> None:
        conn = self._conn
        found = conn.execute(
            "SELECT doc, thread FROM episode_docs WHERE group_id = ? AND id = ?", (row.group_id, row.id)
        ).fetchone()
        if found is None:
            conn.execute(
                "INSERT INTO episode_docs (group_id, id, fingerprint, thread, timestamp, text) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    row.group_id,
                    row.id,
                    row.fingerprint,
                    row.thread,
                    ts(row.timestamp),
                    self._reindex.episode_text(row.content),
                ),
            )
            doc = conn.last_insert_rowid()
        else:
            doc = int(found[0])
        if self._version(row, "episodes", _episode_row, lambda new: self._put_episode(new, doc)):
            self._docs.add(doc)
        if found is not None and found[1] != row.thread:  # a new version of a stored episode
            raise _conflict(row, ["thread"])

    def _put_episode(self, row: EpisodeRow, doc: int) -> None:
        self._conn.execute(
            f"INSERT INTO episodes (doc, {EPISODE_COLUMNS}, expired_by) VALUES ({', '.join('?' * 20)})",
            (*episode_row(row, doc), row.expired_by),
        )

    def _put_operation(self, row: OperationRow) -> None:
        self._conn.execute(
            f"INSERT INTO operations ({_OPERATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (row.group_id, row.id, row.kind, row.actor, ts(row.created_at), row.summary, _json(row.details)),
        )

    def _put_entity(self, row: EntityRow) -> None:
        self._conn.execute(
            f"INSERT INTO entities ({ENTITY_COLUMNS}, expired_by) VALUES ({', '.join('?' * 14)})",
            (
                row.group_id,
                row.id,
                row.version,
                row.name,
                row.type,
                _json(row.aliases),
                _json(row.attributes),
                row.summary,
                ts(row.first_seen),
                ts(row.last_seen),
                ts(row.recorded_at),
                _opt(row.expired_at),
                row.operation_id,
                row.expired_by,
            ),
        )

    def _fact(
        self, row: FactRow | ArchivedFactRow, table: str, decode: Callable[[Sequence[Any]], Row]
    ) -> None:
        """Load a live or an archived fact version; a fact held in the other table is a Conflict."""
        other = _FACT_TABLES[table]
        if scalar(self._conn, f"SELECT 1 FROM {other} WHERE group_id = ? AND id = ?", (row.group_id, row.id)):
            state = "archived" if other == "archived_facts" else "live"
            raise Conflict(
                f"fact {row.id!r} in group {row.group_id!r} is {state} here, unlike in the input: "
                "import into a fresh store or another group",
                field="id",
            )
        if self._version(row, table, decode, partial(self._put_fact, table=table)):
            self._facts[table].add((row.group_id, row.id))

    def _put_fact(self, row: FactRow | ArchivedFactRow, table: str) -> None:
        conn = self._conn
        doc = scalar(
            conn, f"SELECT doc FROM {table} WHERE group_id = ? AND id = ? LIMIT 1", (row.group_id, row.id)
        )
        if doc is None:
            doc = self._fact_doc()
        archived = (ts(row.archived_at), row.archived_by) if isinstance(row, ArchivedFactRow) else ()
        columns = f"doc, {FACT_COLUMNS}, expired_by" + (", archived_at, archived_by" if archived else "")
        conn.execute(
            f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' * (21 + len(archived)))})",
            (
                doc,
                row.group_id,
                row.id,
                row.version,
                row.subject,
                row.predicate,
                row.object,
                None if row.value is None else _json(row.value),
                row.fact,
                _json(row.conditions),
                row.confidence,
                row.source_kind,
                _json(row.episodes),
                _opt(row.valid_at),
                _opt(row.invalid_at),
                ts(row.recorded_at),
                _opt(row.expired_at),
                row.status,
                row.superseded_by,
                row.operation_id,
                row.expired_by,
                *archived,
            ),
        )

    def _fact_doc(self) -> int:
        """Return a new fact document number (unique across live and archived facts)."""
        if self._next_fact_doc is None:
            tables = [
                str(r[0])
                for r in self._conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND name IN ('facts', 'archived_facts')"
                ).fetchall()
            ]
            highest = [int(scalar(self._conn, f"SELECT coalesce(max(doc), 0) FROM {t}")) for t in tables]
            self._next_fact_doc = max(highest, default=0) + 1
        doc = self._next_fact_doc
        self._next_fact_doc += 1
        return doc

    def _hit(self, row: FactHitRow) -> None:
        """Record when a search last returned a fact: the later of the stored and the given time."""
        stamp = ts(row.last_returned_at)
        stored = scalar(
            self._conn,
            "SELECT last_returned_at FROM fact_hits WHERE group_id = ? AND fact_id = ?",
            (row.group_id, row.fact_id),
        )
        if stored is not None and stored >= stamp:
            self.counts.skipped[row.record] += 1
            return
        self._conn.execute(
            "INSERT OR REPLACE INTO fact_hits (group_id, fact_id, last_returned_at) VALUES (?, ?, ?)",
            (row.group_id, row.fact_id, stamp),
        )
        self.counts.created[row.record] += 1

    def _put_mention(self, row: MentionRow) -> None:
        self._conn.execute(
            f"INSERT INTO mentions ({_MENTION_COLUMNS}) VALUES (?, ?, ?, ?)",
            (row.group_id, row.entity_id, row.episode_id, row.operation_id),
        )

    def _put_candidate(self, row: MergeCandidateRow) -> None:
        self._conn.execute(
            f"INSERT INTO merge_candidates ({_CANDIDATE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
            (
                row.group_id,
                row.entity_id,
                row.candidate_id,
                row.score,
                json.dumps(row.parts),
                ts(row.created_at),
            ),
        )

    # -- derived rows ------------------------------------------------------------------------------

    def finish(self) -> None:
        """Rebuild what the changed rows derive, and check no object was left with two current versions."""
        conn = self._conn
        for group_id, entity_id in sorted(self._entities):
            self._single_current("entities", "entity", group_id, entity_id)
            conn.execute(
                "DELETE FROM entity_names WHERE group_id = ? AND entity_id = ?", (group_id, entity_id)
            )
            found = conn.execute(
                f"SELECT {ENTITY_COLUMNS} FROM entities WHERE group_id = ? AND id = ? AND expired_at IS NULL",
                (group_id, entity_id),
            ).fetchone()
            if found is not None:
                for key in dict.fromkeys(self._reindex.name_keys(entity_from_row(found))):
                    conn.execute(
                        "INSERT OR IGNORE INTO entity_names (group_id, name_key, entity_id) VALUES (?, ?, ?)",
                        (group_id, key, entity_id),
                    )
        for table, facts in self._facts.items():
            for group_id, fact_id in sorted(facts):
                self._reindex_fact(table, group_id, fact_id)
        for doc in sorted(self._docs):
            keys = conn.execute("SELECT group_id, id FROM episode_docs WHERE doc = ?", (doc,)).fetchone()
            assert keys is not None, "an episode that changed has a document"
            self._single_current("episodes", "episode", str(keys[0]), str(keys[1]))
            conn.execute(
                "DELETE FROM episode_vectors WHERE doc = ? "
                "AND NOT EXISTS (SELECT 1 FROM episodes WHERE doc = ? AND expired_at IS NULL)",
                (doc, doc),
            )
        # Each changed episode's index row, and its thread neighbours' (their context may now
        # include or leave it out), is written once, from the current neighbours: the state
        # index_with_neighbours reaches episode by episode, at a quarter of the statements.
        rows = set(self._docs)
        for doc in self._docs:
            rows.update(neighbour for neighbour, _ in neighbours(conn, doc))
        reindex(conn, sorted(rows))

    def _reindex_fact(self, table: str, group_id: str, fact_id: str) -> None:
        """Rewrite a fact's full-text row from its latest version, with its entities' names of then."""
        conn = self._conn
        self._single_current(table, "fact", group_id, fact_id)
        archived = ", archived_at" if table == "archived_facts" else ""
        latest = conn.execute(
            f"SELECT doc, {FACT_COLUMNS}{archived} FROM {table} WHERE group_id = ? AND id = ? "
            "ORDER BY version DESC LIMIT 1",
            (group_id, fact_id),
        ).fetchone()
        assert latest is not None, "a fact that changed has a version"
        doc, fact = latest[0], fact_from_row(latest[1:])
        written = datetime.fromisoformat(str(latest[20])) if archived else fact.recorded_at
        text = self._reindex.fact_text(fact, partial(self._entity_at, group_id, ts(written)))
        conn.execute(f"DELETE FROM {table}_fts WHERE rowid = ?", (doc,))
        conn.execute(f"INSERT INTO {table}_fts (rowid, text) VALUES (?, ?)", (doc, text))

    def _entity_at(self, group_id: str, stamp: str, entity_id: str) -> Entity | None:
        """Return the version of an entity that was current at ``stamp`` (a stored time)."""
        found = self._conn.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE group_id = ? AND id = ? AND recorded_at <= ? "
            "AND (expired_at IS NULL OR expired_at > ?) ORDER BY version DESC LIMIT 1",
            (group_id, entity_id, stamp, stamp),
        ).fetchone()
        return None if found is None else entity_from_row(found)

    def _single_current(self, table: str, kind: str, group_id: str, object_id: str) -> None:
        current = int(
            scalar(
                self._conn,
                f"SELECT count(*) FROM {table} WHERE group_id = ? AND id = ? AND expired_at IS NULL",
                (group_id, object_id),
            )
        )
        if current > 1:
            raise Conflict(
                f"{kind} {object_id!r} in group {group_id!r} would have {current} current versions: "
                "the store holds another history of it; import into a fresh store or another group",
                field="id",
            )


def _conflict(row: Row, fields: Sequence[str]) -> Conflict:
    return Conflict(
        f"{row_key(row)} in group {row.group_id!r} is already stored with other {', '.join(fields)}: "
        "the store holds another history of it; import into a fresh store or another group",
        field="id",
    )


class SQLitePortableMixin:
    """The PortableStore methods of SQLiteStore (which provides ``path``, ``_write`` and its counters)."""

    path: Path
    _write: Callable[..., Any]
    flush_fact_hits: Callable[[], None]

    def dump_group(self, group_id: str) -> Iterator[Row]:
        """Yield every row of the group from one read snapshot; see PortableStore."""
        self.flush_fact_hits()  # hits still buffered in memory are part of the group
        conn = apsw.Connection(str(self.path))
        try:
            conn.set_busy_timeout(10_000)
            conn.execute("BEGIN")  # deferred: the snapshot is taken by the first read and kept
            for sql, decode in _DUMPS:
                for found in conn.execute(sql, (group_id,)):
                    yield decode(found)
            conn.execute("COMMIT")
        finally:
            conn.close(True)

    def load_rows(self, rows: Sequence[Row], reindex: Reindex) -> LoadCounts:
        """Store rows in one transaction, skipping identical ones; see PortableStore."""

        def load(conn: apsw.Connection) -> LoadCounts:
            loader = _Loader(conn, reindex)
            for row in rows:
                loader.load(row)
            loader.finish()
            return loader.counts

        result: LoadCounts = self._write(load)
        return result
