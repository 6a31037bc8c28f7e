"""Every stored row of a group, out from one snapshot and back in idempotently, in SQL written once.

Rows keep their ids, versions and times. Derived rows are rebuilt, not copied: the episode
index with thread context, entity names, the fact indexes (a live fact's text from the names
its entities had when its latest version was written, an archived fact's from those they had
when it was archived) and, by the indexer, vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from engram.errors import Conflict
from engram.models.portable import (
    ROW_KINDS,
    ArchivedFactRow,
    EntityRow,
    EpisodeRow,
    FactHitRow,
    FactRow,
    MentionRow,
    MergeCandidateRow,
    OperationRow,
    Row,
    VersionRow,
    differences,
    reconcile,
    row_key,
)
from engram.storage.archive import write_hits
from engram.storage.backend import Backend
from engram.storage.episodes import around, check_nul, count_lock_key, current
from engram.storage.graph import entity, fact_version, set_names
from engram.storage.rows import (
    ARCHIVED_FACTS,
    CANDIDATES,
    ENTITIES,
    EPISODE,
    FACTS,
    HITS,
    MENTIONS,
    OPERATIONS,
    E,
    Table,
    episode_params,
    insert_episode_sql,
)
from engram.storage.sql import Db, Json
from engram.storage.sql import Row as DbRow
from engram.storage.types import LoadCounts, NewEpisode, Reindex

_EPISODES = (
    f"SELECT {E}, e.expired_by, d.thread FROM episodes e "
    "JOIN episode_docs d ON d.group_id = e.group_id AND d.id = e.id"
)
_FACT_ORDER = "ORDER BY min(recorded_at) OVER (PARTITION BY id), id, version"
_KINDS: dict[str, tuple[Table, type[Row], str]] = {
    "operation": (OPERATIONS, OperationRow, "ORDER BY created_at, id"),
    "entity": (ENTITIES, EntityRow, "ORDER BY recorded_at, id, version"),
    "fact": (FACTS, FactRow, _FACT_ORDER),
    "archived_fact": (ARCHIVED_FACTS, ArchivedFactRow, _FACT_ORDER),
    "mention": (MENTIONS, MentionRow, "ORDER BY entity_id, episode_id"),
    "merge_candidate": (CANDIDATES, MergeCandidateRow, "ORDER BY created_at, entity_id, candidate_id"),
    "fact_hit": (HITS, FactHitRow, "ORDER BY fact_id"),
}
"""Every kind of row but episodes: its table, its export model, the order an export reads it in."""
_KEYS = {
    "operation": ("id",),
    "mention": ("entity_id", "episode_id"),
    "merge_candidate": ("entity_id", "candidate_id"),
}
_OTHER_FACT_TABLE = {"facts": "archived_facts", "archived_facts": "facts"}


def _decode(db: Db, kind: str, row: DbRow) -> Row:
    """Return the export model of a stored row of ``kind``."""
    if kind == "episode":
        fields = dict(EPISODE(db, list(row.values())))
        return EpisodeRow.model_construct(**fields, expired_by=row["expired_by"], thread=row["thread"])
    table, model, _ = _KINDS[kind]
    return model.model_construct(**table.fields(db, row))


def dump_group(db: Db, group_id: str) -> Iterator[Row]:
    """Yield every row of the group, in ROW_KINDS order; within a kind, in the order they were stored."""
    for kind in ROW_KINDS:
        if kind == "episode":
            sql = f"{_EPISODES} WHERE e.group_id = :g ORDER BY {db.dialect.stored_order()}, e.version"
        else:
            table, _, order = _KINDS[kind]
            sql = f"SELECT * FROM {table.name} WHERE group_id = :g {order}"
        for found in db.iter(sql, {"g": group_id}):
            yield _decode(db, kind, found)


def _conflict(row: Row, fields: Sequence[str]) -> Conflict:
    return Conflict(
        f"{row_key(row)} in group {row.group_id!r} is already stored with other {', '.join(fields)}: "
        "the store holds another history of it; import into a fresh store or another group",
        field="id",
    )


def lock_keys(rows: Sequence[Row]) -> list[tuple[str, ...]]:
    """Return the locks a load takes: each group's graph, each episode's id, fingerprint, thread
    and summary count row (as a batch insert takes them: engram.storage.episodes.lock_keys)."""
    keys: list[tuple[str, ...]] = []
    for row in rows:
        keys.append((row.group_id, "graph"))
        if isinstance(row, EpisodeRow):
            keys += [(row.group_id, "id", row.id), (row.group_id, "fingerprint", row.fingerprint)]
            keys.append(count_lock_key(row))
            if row.thread is not None:
                keys.append((row.group_id, "thread", row.thread))
    return keys


class Loader:
    """Loads rows inside the caller's transaction, then rebuilds derived rows (``finish``)."""

    def __init__(self, db: Db, backend: Backend, reindex: Reindex) -> None:
        self._db = db
        self._backend = backend
        self._reindex = reindex
        self.counts = LoadCounts()
        self._entities: set[tuple[str, str]] = set()
        self._facts: dict[str, set[tuple[str, str]]] = {"facts": set(), "archived_facts": set()}
        self._episodes: set[tuple[str, str]] = set()
        self._new: dict[tuple[str, str], EpisodeRow] = {}  # first versions of new episodes, not yet written
        self._changed: set[tuple[str, str]] = set()  # episodes stored before, or new but not current

    def load(self, row: Row) -> None:
        """Store one row, or skip it when stored identically. Raises Conflict, InvalidInput."""
        if isinstance(row, EpisodeRow):
            self._episode(row)
            return
        self._write_new()
        if isinstance(row, EntityRow):
            if self._version(row, self._put):
                self._entities.add((row.group_id, row.id))
        elif isinstance(row, FactRow | ArchivedFactRow):
            self._fact(row)
        elif isinstance(row, FactHitRow):
            self._hit(row)
        else:
            self._keyed(row)

    # -- identity checks ---------------------------------------------------------------------------

    def _keyed(self, row: OperationRow | MentionRow | MergeCandidateRow) -> None:
        """Insert an unversioned row, or skip it when stored identically. Raises Conflict."""
        table, _, _ = _KINDS[row.record]
        keys = _KEYS[row.record]
        found = self._db.one(
            f"SELECT * FROM {table.name} WHERE group_id = :g AND {' AND '.join(f'{k} = :{k}' for k in keys)}",
            {"g": row.group_id, **{k: getattr(row, k) for k in keys}},
        )
        if found is None:
            self._put(row)
            self.counts.created[row.record] += 1
            return
        changed = differences(_decode(self._db, row.record, found), row)
        if changed:
            raise _conflict(row, changed)
        self.counts.skipped[row.record] += 1

    def _version(self, row: VersionRow, put: Callable[[Any], None]) -> bool:
        """Insert, close or skip one version; return True when the store changed. Raises Conflict."""
        if isinstance(row, EpisodeRow):
            table, sql = "episodes", _EPISODES + " WHERE e.group_id = :g AND e.id = :id AND e.version = :v"
        else:
            table = _KINDS[row.record][0].name
            sql = f"SELECT * FROM {table} WHERE group_id = :g AND id = :id AND version = :v"
        found = self._db.one(sql, {"g": row.group_id, "id": row.id, "v": row.version})
        if found is None:
            put(row)
            self.counts.created[row.record] += 1
            return True
        stored = _decode(self._db, row.record, found)
        changed = differences(stored, row)
        if changed:
            raise _conflict(row, changed)
        assert isinstance(stored, VersionRow)
        verdict = reconcile(stored.expired_at, stored.expired_by, row.expired_at, row.expired_by)
        if verdict == "conflict":
            raise _conflict(row, ["expired_at", "expired_by"])
        if verdict == "close":
            self._db.run(
                f"UPDATE {table} SET expired_at = :at, expired_by = :by WHERE group_id = :g AND id = :id "
                "AND version = :v",
                {
                    "at": row.expired_at,
                    "by": row.expired_by,
                    "g": row.group_id,
                    "id": row.id,
                    "v": row.version,
                },
            )
            self.counts.closed[row.record] += 1
            return True
        self.counts.skipped[row.record] += 1
        return False

    # -- writes ------------------------------------------------------------------------------------

    def _episode(self, row: EpisodeRow) -> None:
        key = (row.group_id, row.id)
        if key in self._new:  # a later version of a new episode: its first must be stored
            self._write_new()
        found = self._db.one(
            "SELECT thread FROM episode_docs WHERE group_id = :g AND id = :id",
            {"g": row.group_id, "id": row.id},
        )
        if found is None:
            check_nul("episode", row.content, row.metadata, row.references, row.intent, row.source)
            self._new[key] = row
            self.counts.created[row.record] += 1
            self._episodes.add(key)
            return
        if self._version(row, self._put_episode):
            self._episodes.add(key)
            self._changed.add(key)
        if found["thread"] != row.thread:
            raise _conflict(row, ["thread"])

    def _write_new(self) -> None:
        """Store the new episodes met so far: documents, first versions, thread context."""
        if not self._new:
            return
        rows = list(self._new.values())
        self._new.clear()
        items = [NewEpisode(r, self._reindex.episode_text(r.content), True, r.thread) for r in rows]
        added = self._backend.fulltext.add_documents(self._db, items)
        self._db.run_many(insert_episode_sql(self._db), [episode_params(r, r.expired_by) for r in rows])
        self._backend.fulltext.index_added(self._db, added)
        self._changed.update((r.group_id, r.id) for r in rows if r.expired_at is not None)

    def _put_episode(self, row: EpisodeRow) -> None:
        check_nul("episode", row.content, row.metadata, row.references, row.intent, row.source)
        self._db.run(insert_episode_sql(self._db), episode_params(row, row.expired_by))

    def _put(self, row: Row) -> None:
        table = _KINDS[row.record][0]
        params = table.params(row)
        check_nul(row.record, *(v.value if isinstance(v, Json) else v for v in params.values()))
        self._db.run(table.insert, params)

    def _fact(self, row: FactRow | ArchivedFactRow) -> None:
        """Load a live or an archived fact version; a fact held in the other table is a Conflict."""
        table = _KINDS[row.record][0].name
        other = _OTHER_FACT_TABLE[table]
        if self._db.one(
            f"SELECT 1 AS found FROM {other} WHERE group_id = :g AND id = :id LIMIT 1",
            {"g": row.group_id, "id": row.id},
        ):
            state = "archived" if other == "archived_facts" else "live"
            raise Conflict(
                f"fact {row.id!r} in group {row.group_id!r} is {state} here, unlike in the input: "
                "import into a fresh store or another group",
                field="id",
            )
        if self._version(row, self._put):
            self._facts[table].add((row.group_id, row.id))

    def _hit(self, row: FactHitRow) -> None:
        """Record when a search last returned a fact: the later of the stored and the given time."""
        stored = self._db.one(
            "SELECT last_returned_at FROM fact_hits WHERE group_id = :g AND fact_id = :f",
            {"g": row.group_id, "f": row.fact_id},
        )
        if stored is not None and self._db.time(stored["last_returned_at"]) >= row.last_returned_at:
            self.counts.skipped[row.record] += 1
            return
        write_hits(self._db, [(row.group_id, row.fact_id, row.last_returned_at)])
        self.counts.created[row.record] += 1

    # -- derived rows ------------------------------------------------------------------------------

    def finish(self) -> None:
        """Rebuild what the changed rows derive; check no object was left with two current versions."""
        self._write_new()
        db = self._db
        for table, kind, objects in (
            ("episodes", "episode", self._episodes),
            ("entities", "entity", self._entities),
            ("facts", "fact", self._facts["facts"]),
            ("archived_facts", "fact", self._facts["archived_facts"]),
        ):
            for group_id, object_id in sorted(objects):
                self._single_current(table, kind, group_id, object_id)
        self._thread_context()
        for group_id, entity_id in sorted(self._entities):
            found = entity(db, group_id, entity_id)
            keys = [] if found is None else self._reindex.name_keys(found)
            set_names(db, group_id, entity_id, keys)
        for table, facts in self._facts.items():
            for group_id, fact_id in sorted(facts):
                self._reindex_fact(table, group_id, fact_id)

    def _thread_context(self) -> None:
        """Rewrite the index rows of changed episodes and of their thread neighbours; drop the
        vectors of episodes left with no current version."""
        for group_id in sorted({group for group, _ in self._changed}):
            ids = sorted(episode_id for group, episode_id in self._changed if group == group_id)
            stale = set(ids)
            for episode_id in ids:
                stale.update(around(self._db, group_id, episode_id))
                if current(self._db, group_id, episode_id) is None:
                    self._backend.vectors.drop_episode(self._db, group_id, episode_id)
            self._backend.fulltext.refresh(self._db, group_id, sorted(stale))

    def _reindex_fact(self, table: str, group_id: str, fact_id: str) -> None:
        """Rewrite a fact's full-text row from its latest version, with its entities' names of then."""
        archived = table == "archived_facts"
        fact = fact_version(self._db, table, group_id, fact_id)
        assert fact is not None, "a fact that changed has a version"
        at = fact.recorded_at
        if archived:
            at = self._db.time(
                self._db.value(
                    "SELECT archived_at FROM archived_facts WHERE group_id = :g AND id = :id "
                    "ORDER BY version DESC LIMIT 1",
                    {"g": group_id, "id": fact_id},
                )
            )
        text = self._reindex.fact_text(fact, lambda entity_id: entity(self._db, group_id, entity_id, at))
        self._backend.fulltext.index_fact(self._db, fact, text, archived=archived)

    def _single_current(self, table: str, kind: str, group_id: str, object_id: str) -> None:
        current = int(
            self._db.value(
                f"SELECT count(*) AS n FROM {table} WHERE group_id = :g AND id = :id AND expired_at IS NULL",
                {"g": group_id, "id": object_id},
            )
        )
        if current > 1:
            raise Conflict(
                f"{kind} {object_id!r} in group {group_id!r} would have {current} current versions: "
                "the store holds another history of it; import into a fresh store or another group",
                field="id",
            )
