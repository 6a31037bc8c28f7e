"""A group's episode vectors held in memory beside the columns filters test, kept current by a change log.

Per group: a float32 matrix of the vectors (one row per episode doc with a vector), and for each
row whether its episode has a current version, its timestamp, intent, source and actor (as
integer codes) and its metadata. A filtered vector search is then a mask over those columns and
one product over the rows it keeps: no doc id, vector or filter column is read from the database
per query; only the ``limit`` hits are (their current versions).

Freshness, across threads and processes: triggers log every change of an episode doc (a version
added, closed or purged; a vector put or dropped) in ``episode_changes`` (migration 13). A search
compares the group's last ``seq`` with the one applied (one index seek, skipped while
``PRAGMA data_version`` says nothing was committed), and re-reads only the docs changed since. The
log keeps its last LOG_KEPT changes; a process that fell further behind reloads the group.

Memory: groups are evicted least recently used past ``budget_bytes`` (the group being searched
stays). Rows are appended in place beyond the rows a search sees, so searches never wait for a
refresh; a refresh publishes a new view when done.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.models.episodes import Episode, EpisodeFilters
from engram.storage.sql import Db
from engram.storage.sqlite.backend import SQLiteDb

EPISODES_KEPT = 5_000
"""Current episode versions kept per group (most recently returned), so hits are not read again."""
_EPISODE_OVERHEAD = 1_000
"""Bytes an episode object takes besides its content (an estimate, for the memory budget)."""
LOG_KEPT = 100_000
"""Changes the log keeps (pruned by a trigger every 10,000): a process further behind reloads."""
LOAD_PAGE = 10_000
"""Rows read at a time when a group is loaded."""
RELOAD_SHARE = 0.25
"""A refresh touching more than this share of a group's rows reloads it whole."""
_COLUMNS = ("intent", "source", "actor_id")
_ROW = (
    "SELECT v.doc AS doc, v.vector AS vector, e.timestamp AS timestamp, e.intent AS intent, "
    "e.source AS source, e.actor_id AS actor_id, e.metadata AS metadata "
    "FROM episode_vectors v LEFT JOIN episodes e ON e.doc = v.doc AND e.expired_at IS NULL"
)
_NO_TIME = np.datetime64("NaT", "us")
_NO_METADATA: Mapping[str, Any] = {}
"""Shared by every row without metadata (read only)."""

Floats = npt.NDArray[np.float32]


def _time(text: str | None) -> np.datetime64:
    """Return a stored timestamp (ISO text in UTC, ``…+00:00``) as datetime64[us]."""
    return _NO_TIME if text is None else np.datetime64(text[:26], "us")


def _time_of(at: datetime) -> np.datetime64:
    return np.datetime64(at.astimezone(UTC).replace(tzinfo=None), "us")


def metadata_key(value: Any) -> Any:
    """Return ``value`` as SQLite's ``json_extract(metadata, '$.key') IS ?`` compares it.

    Booleans are 1/0, numbers compare as numbers (1 == 1.0, as Python's dict keys do), strings as
    text, an absent key or JSON null as None, an object or array as its compact JSON text.
    """
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return value


@dataclass(frozen=True, slots=True)
class View:
    """What one search reads: the first ``n`` rows of a group's arrays, never changed under it."""

    n: int
    docs: npt.NDArray[np.int64]
    matrix: Floats
    alive: npt.NDArray[np.bool_]
    timestamp: npt.NDArray[np.datetime64]
    codes: Mapping[str, npt.NDArray[np.int32]]
    vocab: Mapping[str, Mapping[Any, int]]
    owner: GroupMatrix

    def mask(self, filters: EpisodeFilters) -> npt.NDArray[np.bool_]:
        """Return which rows hold a current episode passing ``filters`` (``known_at`` aside)."""
        keep = self.alive.copy()
        for column in _COLUMNS:
            wanted = getattr(filters, column)
            if wanted:
                known = [self.vocab[column][v] for v in wanted if v in self.vocab[column]]
                if len(known) == 1:
                    keep &= self.codes[column] == known[0]
                else:
                    keep &= np.isin(self.codes[column], np.asarray(known, dtype=np.int32))
        for at, test in (
            (filters.timestamp_after, np.greater_equal),
            (filters.timestamp_before, np.less),
            (filters.as_of, np.less_equal),
        ):
            if at is not None:
                keep &= test(self.timestamp, _time_of(at))
        for key, value in filters.metadata.items():
            vocab, codes = self.owner.metadata_codes(key)
            code = vocab.get(metadata_key(value))
            if code is None:
                return np.zeros(self.n, dtype=bool)
            keep &= codes[: self.n] == code
        return keep


class GroupMatrix:
    """One group's rows; ``write_rows`` and ``drop`` (under the caller's lock) refresh them, ``view`` is
    safe in any thread."""

    def __init__(self, dimensions: int, capacity: int = 0) -> None:
        self.seq = 0
        self.n = 0
        self._dimensions = dimensions
        self._row_of: dict[int, int] = {}
        self._vocab: dict[str, dict[Any, int]] = {column: {} for column in _COLUMNS}
        self._metadata: list[Mapping[str, Any]] = []
        self._metadata_codes: dict[str, tuple[dict[Any, int], npt.NDArray[np.int32]]] = {}
        self._codes_lock = threading.Lock()
        self._episodes: OrderedDict[int, Episode] = OrderedDict()
        self._episode_bytes = 0
        self._docs: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self._matrix: Floats = np.zeros((0, dimensions), dtype=np.float32)
        self._alive: npt.NDArray[np.bool_] = np.zeros(0, dtype=bool)
        self._timestamp: npt.NDArray[np.datetime64] = np.zeros(0, dtype="datetime64[us]")
        self._codes = {column: np.zeros(0, dtype=np.int32) for column in _COLUMNS}
        if capacity:
            self._allocate(capacity)
        self._view = self._make_view()

    @property
    def nbytes(self) -> int:
        """Return the bytes the arrays hold (capacity included)."""
        return int(self._matrix.nbytes + self._docs.nbytes * 4) + self._episode_bytes

    def episodes(
        self, docs: Sequence[int], fetch: Callable[[Sequence[int]], dict[int, Episode]]
    ) -> dict[int, Episode]:
        """Return the current versions of ``docs`` (those that have one): kept ones, the rest ``fetch``ed.

        Kept versions are dropped when the change log names their doc, so they are as fresh as the view.
        """
        found: dict[int, Episode] = {}
        missing: list[int] = []
        with self._codes_lock:
            for doc in docs:
                episode = self._episodes.get(doc)
                if episode is None:
                    missing.append(doc)
                else:
                    found[doc] = episode
                    self._episodes.move_to_end(doc)
        if missing:
            fetched = fetch(missing)
            found.update(fetched)
            with self._codes_lock:
                for doc, episode in fetched.items():
                    if doc not in self._episodes:
                        self._episodes[doc] = episode
                        self._episode_bytes += _EPISODE_OVERHEAD + len(episode.content)
                while len(self._episodes) > EPISODES_KEPT:
                    _, old = self._episodes.popitem(last=False)
                    self._episode_bytes -= _EPISODE_OVERHEAD + len(old.content)
        return found

    def forget_episodes(self, docs: Iterable[int]) -> None:
        """Drop the kept versions of ``docs`` (they changed)."""
        with self._codes_lock:
            for doc in docs:
                old = self._episodes.pop(doc, None)
                if old is not None:
                    self._episode_bytes -= _EPISODE_OVERHEAD + len(old.content)

    def view(self) -> View:
        """Return the rows published so far."""
        return self._view

    def _allocate(self, capacity: int) -> None:
        old = self.n
        docs = np.zeros(capacity, dtype=np.int64)
        matrix = np.zeros((capacity, self._dimensions), dtype=np.float32)
        alive = np.zeros(capacity, dtype=bool)
        timestamp = np.full(capacity, _NO_TIME, dtype="datetime64[us]")
        codes = {column: np.full(capacity, -1, dtype=np.int32) for column in _COLUMNS}
        if old:
            docs[:old], matrix[:old], alive[:old] = self._docs[:old], self._matrix[:old], self._alive[:old]
            timestamp[:old] = self._timestamp[:old]
            for column in _COLUMNS:
                codes[column][:old] = self._codes[column][:old]
        self._docs, self._matrix, self._alive, self._timestamp, self._codes = (
            docs,
            matrix,
            alive,
            timestamp,
            codes,
        )
        with self._codes_lock:  # rebuilt for the new capacity when next asked for
            self._metadata_codes.clear()

    def _make_view(self) -> View:
        n = self.n
        return View(
            n=n,
            docs=self._docs[:n],
            matrix=self._matrix[:n],
            alive=self._alive[:n],
            timestamp=self._timestamp[:n],
            codes={column: self._codes[column][:n] for column in _COLUMNS},
            vocab=self._vocab,
            owner=self,
        )

    def _code(self, column: str, value: Any) -> int:
        vocab = self._vocab[column]
        if value not in vocab:
            vocab[value] = len(vocab)
        return vocab[value]

    def write_rows(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Write (append or overwrite) each doc's row from a ``_ROW`` result, then publish."""
        for row in rows:
            doc = int(row["doc"])
            at = self._row_of.get(doc)
            if at is None:
                if self.n == len(self._docs):
                    self._allocate(max(1024, 2 * len(self._docs)))
                at = self.n
                self._row_of[doc] = at
                self.n += 1
                self._docs[at] = doc
                self._metadata.append({})
            vector = row["vector"]
            current = vector is not None and row["timestamp"] is not None
            self._alive[at] = current
            if vector is not None:
                self._matrix[at] = np.frombuffer(bytes(vector), dtype="<f4")
            if current:
                self._timestamp[at] = _time(row["timestamp"])
                for column in _COLUMNS:
                    self._codes[column][at] = self._code(column, row[column])
                metadata = row["metadata"]
                self._metadata[at] = _NO_METADATA if metadata == "{}" else json.loads(metadata)
                if self._metadata_codes:
                    with self._codes_lock:
                        for key, (vocab, codes) in self._metadata_codes.items():
                            codes[at] = _metadata_code(vocab, self._metadata[at], key)
        self._view = self._make_view()

    def drop(self, docs: Iterable[int]) -> None:
        """Mark docs that no longer exist (purged) as not current."""
        for doc in docs:
            at = self._row_of.get(doc)
            if at is not None:
                self._alive[at] = False

    def metadata_codes(self, key: str) -> tuple[Mapping[Any, int], npt.NDArray[np.int32]]:
        """Return the value codes of metadata ``key`` per row (built when first asked, then kept)."""
        with self._codes_lock:
            found = self._metadata_codes.get(key)
            if found is None:
                vocab: dict[Any, int] = {}
                codes = np.full(len(self._docs), -1, dtype=np.int32)
                for i in range(self.n):
                    codes[i] = _metadata_code(vocab, self._metadata[i], key)
                found = (vocab, codes)
                self._metadata_codes[key] = found
            return found


def _metadata_code(vocab: dict[Any, int], metadata: Mapping[str, Any], key: str) -> int:
    value = metadata_key(metadata.get(key))
    if value not in vocab:
        vocab[value] = len(vocab)
    return vocab[value]


class EpisodeMatrices:
    """Every loaded group's GroupMatrix, refreshed from the change log; thread-safe."""

    def __init__(self, budget_bytes: int) -> None:
        self._groups: OrderedDict[str, GroupMatrix] = OrderedDict()
        self._seen: dict[tuple[int, str], object] = {}
        self._lock = threading.Lock()
        self._budget = budget_bytes

    def clear(self) -> None:
        with self._lock:
            self._groups.clear()
            self._seen.clear()

    def episodes(
        self,
        db: SQLiteDb,
        group_id: str,
        docs: Sequence[int],
        fetch: Callable[[Sequence[int]], dict[int, Episode]],
    ) -> dict[int, Episode]:
        """Return the current versions of ``docs`` of the group, by doc (kept ones first, then ``fetch``)."""
        self.view(db, group_id)  # refreshed: kept versions of changed docs are dropped
        group = self._groups.get(group_id)
        return fetch(docs) if group is None else group.episodes(docs, fetch)

    def view(self, db: SQLiteDb, group_id: str) -> View | None:
        """Return the group's rows as of now (refreshed when something was committed); None if none."""
        version = db.conn.execute("PRAGMA data_version").fetchone()
        seen = (id(db.conn), group_id)
        group = self._groups.get(group_id)
        if group is not None and self._seen.get(seen) == version:
            return group.view() if group.n else None
        last = int(
            db.value(
                "SELECT coalesce(max(seq), 0) AS s FROM episode_changes WHERE group_id = :g", {"g": group_id}
            )
        )
        with self._lock:
            group = self._groups.get(group_id)
            if group is None or group.seq != last:
                group = self._refresh(db, group_id, group, last)
            self._groups.move_to_end(group_id)
            self._seen[seen] = version
            self._evict(keep=group_id)
        return group.view() if group.n else None

    def _refresh(self, db: Db, group_id: str, group: GroupMatrix | None, last: int) -> GroupMatrix:
        if group is not None and group.seq:
            oldest = db.value("SELECT min(seq) AS s FROM episode_changes")
            changed = [
                int(r["doc"])
                for r in db.rows(
                    "SELECT DISTINCT doc FROM episode_changes WHERE group_id = :g AND seq > :after "
                    "AND seq <= :last",
                    {"g": group_id, "after": group.seq, "last": last},
                )
            ]
            group.forget_episodes(changed)
            complete = oldest is None or int(oldest) <= group.seq + 1
            if complete and len(changed) <= max(1000, RELOAD_SHARE * group.n):
                rows = _rows_of_docs(db, changed)
                if group.n or not rows:  # a group's first vectors set its dimensions: reloaded below
                    group.write_rows(rows)
                    group.drop(set(changed) - {int(r["doc"]) for r in rows})
                    group.seq = last
                    return group
        fresh = _load(db, group_id)
        fresh.seq = last
        self._groups[group_id] = fresh
        return fresh

    def _evict(self, keep: str) -> None:
        total = sum(group.nbytes for group in self._groups.values())
        for name in list(self._groups):
            if total <= self._budget:
                break
            if name != keep:
                total -= self._groups.pop(name).nbytes
                self._seen = {k: v for k, v in self._seen.items() if k[1] != name}


def _load(db: Db, group_id: str) -> GroupMatrix:
    """Read a group's rows into arrays of their final size, a page at a time.

    One list of every row (a vector's bytes and a dict each) took twice the matrix at 1M
    episodes, and the allocator kept it after: RSS 3.8 GiB for a 1.5 GiB matrix.
    """
    count = int(db.value("SELECT count(*) AS n FROM episode_vectors WHERE group_id = :g", {"g": group_id}))
    group: GroupMatrix | None = None
    after = 0
    while rows := db.rows(
        f"{_ROW} WHERE v.group_id = :g AND v.doc > :after ORDER BY v.doc LIMIT :page",
        {"g": group_id, "after": after, "page": LOAD_PAGE},
    ):
        if group is None:
            group = GroupMatrix(len(bytes(rows[0]["vector"])) // 4, capacity=count)
        group.write_rows(rows)
        after = int(rows[-1]["doc"])
    return group or GroupMatrix(0)


def _rows_of_docs(db: Db, docs: Sequence[int]) -> list[Mapping[str, Any]]:
    rows: list[Mapping[str, Any]] = []
    for start in range(0, len(docs), 10_000):
        clause, params = db.dialect.in_list("v.doc", "docs", docs[start : start + 10_000])
        rows += db.rows(f"{_ROW} WHERE {clause} ORDER BY v.doc", params)
    return rows
