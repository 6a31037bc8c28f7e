"""A group's episode vectors held in memory beside the columns filters test, kept current by a change log.

Per group: a float32 matrix of the vectors (one row per episode with a vector), and for each row
whether its episode has a current version, its timestamp, intent, source and actor (as integer
codes) and its metadata. A filtered vector search is then a mask over those columns and one
product over the rows it keeps: no key, vector or filter column is read from the database per
query; only the ``limit`` hits are (their current versions).

Freshness, across threads and processes: triggers log every change of an episode (a version
added, closed or purged; a vector put or dropped) in ``episode_changes``. Each backend reads its
log through a ChangeLog (engram.storage.sqlite.change_log, engram.storage.postgres.change_log):
a search asks whether anything changed since the mark its group was refreshed to (one index
seek) and re-reads only the episodes changed since. The log keeps its last LOG_KEPT changes; a
process that fell further behind reloads the group.

Memory: groups are evicted least recently used past ``budget_bytes`` (the group being searched
stays). Rows are appended in place beyond the rows a search sees, so searches never wait for a
refresh; a refresh publishes a new view when done.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from engram.models.episodes import Episode, EpisodeFilters
from engram.storage.sql import Db

EPISODES_SHARE = 16
"""A group keeps the current versions of the episodes it returned (most recent first, so hits are
not read again) in up to 1/EPISODES_SHARE of the memory budget: 256 MiB of the default 4 GiB,
some 80,000 short episodes. A fixed 5,000 halved the QPS of 50 threads at 10k (bench/RESULTS.md)."""
_EPISODE_OVERHEAD = 3_000
"""Bytes an episode object takes besides its content and metadata (for the memory budget: 3.3 KB
measured with tracemalloc for a 72-character message with an actor and one metadata key)."""
_JSON_FACTOR = 8
"""Bytes decoded metadata takes per byte of its JSON text (7.2 measured for 4,000 integer keys)."""
LOG_KEPT = 100_000
"""Changes the log keeps (pruned by a trigger every 10,000): a process further behind reloads."""
LOAD_PAGE = 10_000
"""Rows read at a time when a group is loaded."""
RELOAD_SHARE = 0.25
"""A refresh touching more than this share of a group's rows reloads it whole."""
_COLUMNS = ("intent", "source", "actor_id")
COLUMNS_READ = (
    "e.timestamp AS timestamp, e.intent AS intent, e.source AS source, e.actor_id AS actor_id, "
    "e.metadata AS metadata"
)
"""The episode columns a ChangeLog's ``rows`` select beside each row's key and vector."""
_NO_TIME = np.datetime64("NaT", "us")
_NO_METADATA: Mapping[str, Any] = {}
"""Shared by every row without metadata (read only)."""

Floats = npt.NDArray[np.float32]
Key = Any
"""An episode's key in the change log: its ``doc`` number (int) on SQLite, its id (str) on PostgreSQL."""
Mark = Hashable
"""How far a group's rows have read the change log (a ChangeLog's own token)."""
Fetch = Callable[[Sequence[Key]], dict[Key, Episode]]
"""Read the current versions of episodes by key."""


def products(matrix: Floats, vector: npt.ArrayLike) -> Floats:
    """Return ``matrix @ vector`` ((n, d) by (d,) float32 → (n,)), computed in the calling thread.

    numpy's einsum loop, not BLAS: a matrix-vector product is memory-bound, so OpenBLAS's threads
    only add hand-offs, and limiting them per call (threadpoolctl) changes process-wide state
    that concurrent searches race on, which can hang OpenBLAS (docs/decisions.md §15).
    """
    result: Floats = np.einsum("ij,j->i", matrix, np.asarray(vector, dtype=np.float32))
    return result


class ChangeLog(Protocol):
    """One backend's change log of episodes and how to read a group's rows."""

    key: str
    """The key column of ``rows`` (``v.doc``, ``v.id``): rows are paged in its order."""
    key_dtype: str
    """The numpy dtype keys are held in."""
    rows: str
    """``SELECT <key> AS key, <vector> AS vector, {COLUMNS_READ} FROM episode_vectors v …``: one
    row per vector, with its episode's current version's columns (NULL: none current)."""

    def unchanged(self, db: Db, group_id: str, mark: Mark) -> bool:
        """Return whether nothing of the group was logged since ``mark`` (a cheap check)."""

    def start(self, db: Db, group_id: str) -> Mark:
        """Return the mark a load reading the group's rows from now on reaches."""

    def since(self, db: Db, group_id: str, mark: Mark) -> tuple[list[Key] | None, Mark]:
        """Return the keys of the group changed since ``mark`` (None: the log no longer holds all
        of them) and the mark reached once their rows are read again."""


def top(scores: Floats, k: int) -> npt.NDArray[np.intp]:
    """Return the indexes of the ``k`` highest scores, best first."""
    if k >= len(scores):
        return np.argsort(-scores, kind="stable")
    part = np.argpartition(-scores, k)[:k]
    return part[np.argsort(-scores[part], kind="stable")]


def _time(value: str | datetime | None) -> np.datetime64:
    """Return a stored timestamp (ISO text in UTC, ``…+00:00``, or a datetime) as datetime64[us]."""
    if value is None:
        return _NO_TIME
    return _time_of(value) if isinstance(value, datetime) else np.datetime64(value[:26], "us")


def _vector(value: Any) -> Floats:
    """Return a stored vector (float32 bytes, or pgvector's Vector) as float32."""
    if isinstance(value, bytes | memoryview):
        return np.frombuffer(value, dtype="<f4")
    return np.asarray(value.to_numpy(), dtype=np.float32)


def _metadata(value: str | Mapping[str, Any]) -> Mapping[str, Any]:
    """Return stored metadata (JSON text, or a decoded jsonb object) as a mapping."""
    if isinstance(value, str):
        return _NO_METADATA if value == "{}" else json.loads(value)
    return value or _NO_METADATA


def _episode_size(episode: Episode) -> int:
    """Return the estimated bytes a kept episode version takes."""
    metadata = json.dumps(episode.metadata) if episode.metadata else ""
    return _EPISODE_OVERHEAD + len(episode.content.encode()) + _JSON_FACTOR * len(metadata)


def _metadata_size(raw: str | Mapping[str, Any] | None) -> int:
    """Return the estimated bytes of a row's decoded metadata (JSON text, or a decoded object)."""
    if not raw or raw == "{}":
        return 0
    return _JSON_FACTOR * len(raw if isinstance(raw, str) else json.dumps(raw))


def _time_of(at: datetime) -> np.datetime64:
    return np.datetime64(at.astimezone(UTC).replace(tzinfo=None), "us")


def metadata_key(value: Any) -> Any:
    """Return ``value`` as the dialects' ``metadata_equals`` compares it with a filter value.

    Numbers compare as the decimals they are written as (PostgreSQL's numeric: jsonb keeps
    ``1.2345678901234568e+18`` as the integer 1234567890123456800, which is that float's text, not
    its binary value), so a float is its shortest text as a Decimal; ints and Decimals compare and
    hash alike (1 == 1.0). Booleans are 1/0, strings text, an absent key or JSON null None; an object
    or array equals no filter value (filters are scalars), so it is a key of its own kind. (SQLite
    compares a float with an integer past 2**53 by binary value: the one case that differs.)
    """
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, dict | list):
        return ("json", json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False))
    return value


@dataclass(frozen=True, slots=True)
class View:
    """What one search reads: the first ``n`` rows of a group's arrays, never changed under it."""

    n: int
    keys: npt.NDArray[Any]
    matrix: Floats
    alive: npt.NDArray[np.bool_]
    timestamp: npt.NDArray[np.datetime64]
    codes: Mapping[str, npt.NDArray[np.int32]]
    vocab: Mapping[str, Mapping[Any, int]]
    owner: GroupMatrix

    def nearest(self, query: Floats, filters: EpisodeFilters, limit: int) -> list[tuple[Key, float]]:
        """Return up to ``limit`` (key, cosine) of current episodes passing ``filters`` (``known_at``
        aside), best first: ``query`` (unit length) scored against the rows the filters keep."""
        rows = np.flatnonzero(self.mask(filters))
        if len(rows) == 0:
            return []
        whole = 3 * len(rows) > self.n  # copying most of the matrix costs more than the product
        scores = products(self.matrix, query)[rows] if whole else products(self.matrix[rows], query)
        best = top(scores, limit)  # keys and scores as Python values (a store binds no numpy integers)
        return list(zip(self.keys[rows[best]].tolist(), scores[best].tolist(), strict=True))

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

    def __init__(
        self, dimensions: int, key_dtype: str, capacity: int = 0, episode_bytes: int = 1 << 28
    ) -> None:
        """Hold rows of ``dimensions``-d vectors keyed by ``key_dtype``, room for ``capacity`` rows,
        and kept episode versions up to ``episode_bytes`` (estimated)."""
        self.mark: Mark | None = None
        self.n = 0
        self._dimensions = dimensions
        self._key_dtype = key_dtype
        self._row_of: dict[Key, int] = {}
        self._vocab: dict[str, dict[Any, int]] = {column: {} for column in _COLUMNS}
        self._metadata: list[Mapping[str, Any]] = []
        self._metadata_sizes: list[int] = []
        self._metadata_codes: dict[str, tuple[dict[Any, int], npt.NDArray[np.int32]]] = {}
        # Guards rows being written, metadata codes and kept episodes: write_rows holds it
        # throughout, so codes are never built from half-written rows (re-entrant: _allocate).
        self._rows_lock = threading.RLock()
        self._episodes: OrderedDict[Key, tuple[Episode, int]] = OrderedDict()
        """Kept versions with their estimated bytes (estimated once: the metadata's JSON)."""
        self._forgotten = 0
        """How many times kept versions were dropped: a fetch that saw it move keeps nothing."""
        self._episode_bytes = 0
        self._episode_budget = episode_bytes
        self._metadata_bytes = 0
        self._keys: npt.NDArray[Any] = np.zeros(0, dtype=key_dtype)
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
        return int(self._matrix.nbytes + self._keys.nbytes * 4) + self._episode_bytes + self._metadata_bytes

    def episodes(self, keys: Sequence[Key], fetch: Fetch) -> dict[Key, Episode]:
        """Return the current versions of ``keys`` (those that have one): kept ones, the rest ``fetch``ed.

        Kept versions are dropped when the change log names their key, so they are as fresh as the view.
        A fetch overlapping such a drop may have read the version dropped: it is returned, not kept.
        """
        found: dict[Key, Episode] = {}
        missing: list[Key] = []
        with self._rows_lock:
            forgotten = self._forgotten
            for key in keys:
                kept = self._episodes.get(key)
                if kept is None:
                    missing.append(key)
                else:
                    found[key] = kept[0]
                    self._episodes.move_to_end(key)
        if missing:
            fetched = fetch(missing)
            found.update(fetched)
            with self._rows_lock:
                for key, episode in fetched.items() if forgotten == self._forgotten else ():
                    if key not in self._episodes:
                        size = _episode_size(episode)
                        self._episodes[key] = (episode, size)
                        self._episode_bytes += size
                while self._episode_bytes > self._episode_budget:
                    _, (_, size) = self._episodes.popitem(last=False)
                    self._episode_bytes -= size
        return found

    def forget_episodes(self, keys: Iterable[Key]) -> None:
        """Drop the kept versions of ``keys`` (they changed)."""
        with self._rows_lock:
            self._forgotten += 1
            for key in keys:
                old = self._episodes.pop(key, None)
                if old is not None:
                    self._episode_bytes -= old[1]

    def view(self) -> View:
        """Return the rows published so far."""
        return self._view

    def _allocate(self, capacity: int) -> None:
        old = self.n
        keys = np.zeros(capacity, dtype=self._key_dtype)
        matrix = np.zeros((capacity, self._dimensions), dtype=np.float32)
        alive = np.zeros(capacity, dtype=bool)
        timestamp = np.full(capacity, _NO_TIME, dtype="datetime64[us]")
        codes = {column: np.full(capacity, -1, dtype=np.int32) for column in _COLUMNS}
        if old:
            keys[:old], matrix[:old], alive[:old] = self._keys[:old], self._matrix[:old], self._alive[:old]
            timestamp[:old] = self._timestamp[:old]
            for column in _COLUMNS:
                codes[column][:old] = self._codes[column][:old]
        self._keys, self._matrix, self._alive, self._timestamp, self._codes = (
            keys,
            matrix,
            alive,
            timestamp,
            codes,
        )
        with self._rows_lock:  # rebuilt for the new capacity when next asked for
            self._metadata_codes.clear()

    def _make_view(self) -> View:
        n = self.n
        return View(
            n=n,
            keys=self._keys[:n],
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
        """Write (append or overwrite) each key's row from a ChangeLog ``rows`` result, then publish."""
        with self._rows_lock:
            for row in rows:
                self._write_row(row)
            self._view = self._make_view()

    def _write_row(self, row: Mapping[str, Any]) -> None:
        key = row["key"]
        at = self._row_of.get(key)
        if at is None:
            if self.n == len(self._keys):
                self._allocate(max(1024, 2 * len(self._keys)))
            at = self.n
            self._row_of[key] = at
            self.n += 1
            self._keys[at] = key
            self._metadata.append({})
            self._metadata_sizes.append(0)
        vector = row["vector"]
        current = vector is not None and row["timestamp"] is not None
        self._alive[at] = current
        if vector is not None:
            self._matrix[at] = _vector(vector)
        if current:
            self._timestamp[at] = _time(row["timestamp"])
            for column in _COLUMNS:
                self._codes[column][at] = self._code(column, row[column])
            size = _metadata_size(row["metadata"])
            self._metadata_bytes += size - self._metadata_sizes[at]
            self._metadata_sizes[at] = size
            self._metadata[at] = _metadata(row["metadata"])
            for name, (vocab, codes) in self._metadata_codes.items():
                codes[at] = _metadata_code(vocab, self._metadata[at], name)

    def fits(self, rows: Iterable[Mapping[str, Any]]) -> bool:
        """Return whether every vector of ``rows`` has this group's dimensions."""
        return all(row["vector"] is None or len(_vector(row["vector"])) == self._dimensions for row in rows)

    def drop(self, keys: Iterable[Key]) -> None:
        """Mark keys that no longer exist (purged) as not current."""
        for key in keys:
            at = self._row_of.get(key)
            if at is not None:
                self._alive[at] = False

    def metadata_codes(self, key: str) -> tuple[Mapping[Any, int], npt.NDArray[np.int32]]:
        """Return the value codes of metadata ``key`` per row (built when first asked, then kept)."""
        with self._rows_lock:
            found = self._metadata_codes.get(key)
            if found is None:
                vocab: dict[Any, int] = {}
                codes = np.full(len(self._keys), -1, dtype=np.int32)
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

    def __init__(self, log: ChangeLog, budget_bytes: int) -> None:
        self._log = log
        self._groups: OrderedDict[str, GroupMatrix] = OrderedDict()
        self._lock = threading.Lock()
        self._budget = budget_bytes

    def clear(self) -> None:
        with self._lock:
            self._groups.clear()

    def episodes(self, db: Db, group_id: str, keys: Sequence[Key], fetch: Fetch) -> dict[Key, Episode]:
        """Return the current versions of ``keys`` of the group, by key (kept ones first, then ``fetch``)."""
        self.view(db, group_id)  # refreshed: kept versions of changed keys are dropped
        group = self._groups.get(group_id)
        if group is None:
            return fetch(keys)
        before = group.nbytes
        found = group.episodes(keys, fetch)
        if group.nbytes > before:  # kept versions grew: other groups may have to go
            with self._lock:
                self._evict(keep=group_id)
        return found

    def view(self, db: Db, group_id: str) -> View | None:
        """Return the group's rows as of now (refreshed when something was logged); None if none."""
        group = self._groups.get(group_id)
        if group is None or not self._log.unchanged(db, group_id, group.mark):
            with self._lock:
                group = self._refresh(db, group_id, self._groups.get(group_id))
                self._groups.move_to_end(group_id)
                self._evict(keep=group_id)
        return group.view() if group.n else None

    def _refresh(self, db: Db, group_id: str, group: GroupMatrix | None) -> GroupMatrix:
        if group is not None and group.mark is not None:
            changed, mark = self._log.since(db, group_id, group.mark)
            if changed is not None and len(changed) <= max(1000, RELOAD_SHARE * group.n):
                group.forget_episodes(changed)
                rows = self._rows_of(db, group_id, changed)
                # A group's first vectors set its dimensions, and new ones after `engram reembed`
                # may change them: reloaded below.
                if group.fits(rows) and (group.n or not rows):
                    group.write_rows(rows)
                    group.drop(set(changed) - {row["key"] for row in rows})
                    group.mark = mark
                    return group
        mark = self._log.start(db, group_id)
        fresh = self._load(db, group_id)
        fresh.mark = mark
        self._groups[group_id] = fresh
        return fresh

    def _evict(self, keep: str) -> None:
        total = sum(group.nbytes for group in self._groups.values())
        for name in list(self._groups):
            if total <= self._budget:
                break
            if name != keep:
                total -= self._groups.pop(name).nbytes

    def _load(self, db: Db, group_id: str) -> GroupMatrix:
        """Read a group's rows into arrays of their final size, a page at a time.

        One list of every row (a vector's bytes and a dict each) took twice the matrix at 1M
        episodes, and the allocator kept it after: RSS 3.8 GiB for a 1.5 GiB matrix.
        """
        log = self._log
        count = int(
            db.value("SELECT count(*) AS n FROM episode_vectors WHERE group_id = :g", {"g": group_id})
        )
        group: GroupMatrix | None = None
        after = "" if log.key_dtype == "object" else 0
        while rows := db.rows(
            f"{log.rows} WHERE v.group_id = :g AND {log.key} > :after ORDER BY {log.key} LIMIT :page",
            {"g": group_id, "after": after, "page": LOAD_PAGE},
        ):
            if group is None:
                dimensions, kept = len(_vector(rows[0]["vector"])), self._budget // EPISODES_SHARE
                group = GroupMatrix(dimensions, log.key_dtype, capacity=count, episode_bytes=kept)
            group.write_rows(rows)
            after = rows[-1]["key"]
        return group or GroupMatrix(0, log.key_dtype)

    def _rows_of(self, db: Db, group_id: str, keys: Sequence[Key]) -> list[Mapping[str, Any]]:
        rows: list[Mapping[str, Any]] = []
        for start in range(0, len(keys), 10_000):
            clause, params = db.dialect.in_list(self._log.key, "keys", keys[start : start + 10_000])
            rows += db.rows(
                f"{self._log.rows} WHERE v.group_id = :g AND {clause} ORDER BY {self._log.key}",
                {"g": group_id, **params},
            )
        return rows
