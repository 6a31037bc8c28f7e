"""Episodes in SQL, written once: insert with deduplication, versions, time travel, lists, threads.

Reads see the versions the memory holds now, or, with ``known_at`` (``filters.known_at`` for
lists and searches), the versions it held at that transaction time: the version stored by
then and not closed by then. An episode stored later is absent, one updated later shows its
old version, one deleted later is still there. ``filters.as_of`` keeps episodes whose
``timestamp`` is at or before it (valid time: what had happened by then).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from engram.errors import Conflict, InvalidInput, NotFound, PreconditionFailed
from engram.models.episodes import Episode, EpisodeFilters, Operation
from engram.models.json_values import has_nul
from engram.storage.backend import FullText
from engram.storage.rows import (
    EPISODE,
    E,
    episode_params,
    insert_episode_sql,
    insert_new_episode_sql,
    insert_operation,
)
from engram.storage.sql import Db
from engram.storage.types import NewEpisode, PageKey

ACTOR_BRANCHES = 16
"""Lists of at most this many actors read each actor through its own index (list_page)."""
CURRENT = "e.expired_at IS NULL"
"""The versions the memory holds now: the one clause the partial ``episodes_current_*`` indexes serve."""
CURRENT_JOIN = "JOIN episodes e ON e.group_id = d.group_id AND e.id = d.id AND e.expired_at IS NULL"
"""Join an ``episode_docs d`` row to its current version ``e``."""

# Only current episodes lend context: a retracted one's words must not find its neighbours.
_NEIGHBOUR = """
    SELECT n.id FROM episode_docs n
    WHERE n.group_id = d.group_id AND n.thread = d.thread AND (n.timestamp, n.id) {cmp} (d.timestamp, d.id)
      AND EXISTS (SELECT 1 FROM episodes c WHERE c.group_id = n.group_id AND c.id = n.id
                  AND c.expired_at IS NULL)
    ORDER BY n.timestamp {order}, n.id {order} LIMIT 1
"""
NEIGHBOUR_IDS = (
    f"SELECT ({_NEIGHBOUR.format(cmp='<', order='DESC')}) AS previous, "
    f"({_NEIGHBOUR.format(cmp='>', order='ASC')}) AS following "
    "FROM episode_docs d WHERE d.group_id = :group_id AND d.id = :id"
)


def held(known_at: datetime | None) -> tuple[str, dict[str, Any]]:
    """Return the clause over alias ``e`` picking the version held at ``known_at``, and its parameters.

    None: the current versions (CURRENT, unchanged, so the current-version plans stay as they are).
    A time: the version stored by then and not closed by then (an episode created later has
    none; one closed without successor, i.e. deleted, later still has its last one).
    """
    if known_at is None:
        return CURRENT, {}
    return "e.recorded_at <= :known_at AND (e.expired_at IS NULL OR e.expired_at > :known_at)", {
        "known_at": known_at
    }


def filter_sql(db: Db, filters: EpisodeFilters) -> tuple[str, dict[str, Any]]:
    """Return an ``AND …`` clause over alias ``e`` and its parameters (named ``f_*``).

    ``filters.as_of`` is ``timestamp <= as_of``; ``filters.known_at`` is not a clause here
    (see held: it picks versions, and with them the indexes). Metadata matches as the
    dialect's ``metadata_equals`` says: numbers as numbers, strings as text, None as absent.
    """
    d = db.dialect
    clauses: list[str] = []
    params: dict[str, Any] = {}
    for column, values in (
        ("intent", filters.intent),
        ("source", filters.source),
        ("actor_id", filters.actor_id),
    ):
        if values:
            clause, more = d.in_list(f"e.{column}", f"f_{column}", values)
            clauses.append(clause)
            params |= more
    for clause, name, at in (
        ("e.timestamp >= :f_after", "f_after", filters.timestamp_after),
        ("e.timestamp < :f_before", "f_before", filters.timestamp_before),
        ("e.timestamp <= :f_as_of", "f_as_of", filters.as_of),
    ):
        if at is not None:
            clauses.append(clause)
            params[name] = at
    for i, (key, value) in enumerate(filters.metadata.items()):
        clause, more = d.metadata_equals("e.metadata", key, f"f_meta{i}", value)
        clauses.append(clause)
        params |= more
    return "".join(f" AND {clause}" for clause in clauses), params


def check_nul(field: str, *values: Any) -> None:
    """Raise InvalidInput when a value holds a NUL character.

    PostgreSQL's text and JSON columns refuse NUL; SQLite would store it, so both refuse it
    and a group moves between them unchanged.
    """
    if any(has_nul(value) for value in values):
        raise InvalidInput(f"{field} must not contain NUL characters", field=field)


def check_episode_text(episode: Episode) -> None:
    """Raise InvalidInput when a field of the episode holds a NUL (see check_nul)."""
    actor = episode.actor
    for field, value in (
        ("content", episode.content),
        ("metadata", episode.metadata),
        ("references", episode.references),
        ("intent", episode.intent),
        ("source", episode.source),
        ("source_type", episode.source_type),
        ("actor", None if actor is None else [actor.type, actor.id, actor.name]),
    ):
        check_nul(field, value)


def current(db: Db, group_id: str, episode_id: str) -> Episode | None:
    """Return an episode's current version."""
    return EPISODE.one(
        db,
        f"SELECT {E} FROM episodes e WHERE e.group_id = :g AND e.id = :id AND {CURRENT}",
        {"g": group_id, "id": episode_id},
    )


def current_many(db: Db, group_id: str, episode_ids: Sequence[str]) -> dict[str, Episode]:
    """Return the current versions of ``episode_ids`` (those that have one), by id."""
    if not episode_ids:
        return {}
    clause, params = db.dialect.in_list("e.id", "ids", episode_ids)
    sql = f"SELECT {E} FROM episodes e WHERE e.group_id = :g AND {clause} AND {CURRENT}"
    rows = db.tuples(sql, {"g": group_id, **params})
    return {episode.id: episode for episode in (EPISODE(db, row) for row in rows)}


def get(db: Db, group_id: str, episode_id: str, known_at: datetime | None) -> Episode | None:
    """Return the version held now (or at ``known_at``), through the primary key."""
    if known_at is None:
        return current(db, group_id, episode_id)
    clause, params = held(known_at)
    return EPISODE.one(
        db,
        f"SELECT {E} FROM episodes e WHERE e.group_id = :g AND e.id = :id AND {clause}",
        {"g": group_id, "id": episode_id, **params},
    )


def lock(db: Db, group_id: str, episode_id: str) -> bool:
    """Lock an episode's document row until the transaction ends; return False when it does not exist.

    Updates, reverts and deletes of one episode take it, so they serialise (a delete racing a
    PATCH on two servers could otherwise re-open the episode the delete closed).
    """
    sql = f"SELECT 1 AS found FROM episode_docs WHERE group_id = :g AND id = :id{db.dialect.for_update}"
    return db.one(sql, {"g": group_id, "id": episode_id}) is not None


def _conflict(episode: Episode) -> Conflict:
    return Conflict(
        f"episode id {episode.id!r} already names an episode with different content, "
        "actor or intent; choose another id",
        field="id",
    )


class _Stored:
    """What one group already holds of a batch's ids and fingerprints."""

    def __init__(self, db: Db, group_id: str, items: Sequence[NewEpisode]) -> None:
        d = db.dialect
        ids = [item.episode.id for item in items if item.client_id]
        fingerprints = [item.episode.fingerprint for item in items if not item.client_id]
        self.by_id: dict[str, tuple[str, Episode]] = {}
        self.by_fingerprint: dict[str, Episode] = {}
        if ids:
            clause, params = d.in_list("d.id", "ids", ids)
            rows = db.tuples(
                f"SELECT {E}, d.fingerprint FROM episode_docs d {CURRENT_JOIN} "
                f"WHERE d.group_id = :g AND {clause}",
                {"g": group_id, **params},
            )
            for row in rows:  # with the fingerprint first stored under the id
                episode = EPISODE(db, row)
                self.by_id[episode.id] = (row[EPISODE.width], episode)
            known = db.rows(
                f"SELECT d.id FROM episode_docs d WHERE d.group_id = :g AND {clause}",
                {"g": group_id, **params},
            )
            deleted = sorted(row["id"] for row in known if row["id"] not in self.by_id)
            if deleted:  # stored, but with no current version
                raise Conflict(
                    f"episode id {deleted[0]!r} names a deleted episode; revert its delete operation "
                    "to restore it, or choose another id",
                    field="id",
                )
        if fingerprints:
            clause, params = d.in_list("d.fingerprint", "fingerprints", fingerprints)
            rows = db.tuples(
                f"SELECT {E}, d.fingerprint FROM episode_docs d {CURRENT_JOIN} "
                f"WHERE d.group_id = :g AND {clause} ORDER BY {d.stored_order()}",
                {"g": group_id, **params},
            )
            for row in rows:  # the first stored of each fingerprint
                self.by_fingerprint.setdefault(row[EPISODE.width], EPISODE(db, row))


def insert(
    db: Db, fulltext: FullText, items: Sequence[NewEpisode], operation: Operation
) -> list[tuple[Episode, bool]]:
    """Store the items that are not duplicates and ``operation``; return (episode, duplicate) per item.

    Duplicates are decided as if the items were stored one by one (earlier items of the batch
    count as stored). The caller's transaction holds the locks on every id, fingerprint and
    thread of the batch. Raises Conflict when a client id already names another episode.
    """
    for item in items:
        check_episode_text(item.episode)
    stored = {
        group: _Stored(db, group, [item for item in items if item.episode.group_id == group])
        for group in dict.fromkeys(item.episode.group_id for item in items)
    }
    new_ids: dict[tuple[str, str], Episode] = {}
    new_fingerprints: dict[tuple[str, str], Episode] = {}
    results: list[tuple[Episode, bool]] = []
    created: list[NewEpisode] = []
    for item in items:
        episode = item.episode
        group = stored[episode.group_id]
        duplicate_of: Episode | None = None
        if item.client_id:
            if episode.id in group.by_id:
                original, now = group.by_id[episode.id]
                if episode.fingerprint not in (original, now.fingerprint):
                    raise _conflict(episode)
                duplicate_of = now
            elif (episode.group_id, episode.id) in new_ids:
                duplicate_of = new_ids[(episode.group_id, episode.id)]
                if episode.fingerprint != duplicate_of.fingerprint:
                    raise _conflict(episode)
        else:
            duplicate_of = group.by_fingerprint.get(episode.fingerprint) or new_fingerprints.get(
                (episode.group_id, episode.fingerprint)
            )
        if duplicate_of is not None:
            results.append((duplicate_of, True))
            continue
        new_ids[(episode.group_id, episode.id)] = episode
        new_fingerprints.setdefault((episode.group_id, episode.fingerprint), episode)
        created.append(item)
        results.append((episode, False))
    if created:
        added = fulltext.add_documents(db, created)
        docs = fulltext.added_docs(added)
        if docs is None:
            db.run_many(insert_episode_sql(db), [episode_params(item.episode) for item in created])
        else:
            rows = [
                episode_params(item.episode) | {"doc": doc} for item, doc in zip(created, docs, strict=True)
            ]
            db.run_many(insert_new_episode_sql(db), rows)
        fulltext.index_added(db, added)
        insert_operation(db, operation, {"episodes": [item.episode.id for item in created]})
    return results


def lock_keys(items: Sequence[NewEpisode]) -> list[tuple[str, ...]]:
    """Return the lock keys a batch insert takes: every (group, id), (group, fingerprint), (group,
    thread), and the summary count rows it will add to (count_lock_key)."""
    keys: list[tuple[str, ...]] = []
    for item in items:
        group = item.episode.group_id
        keys += [(group, "id", item.episode.id), (group, "fingerprint", item.episode.fingerprint)]
        keys.append(count_lock_key(item.episode))
        if item.thread is not None:
            keys.append((group, "thread", item.thread))
    return keys


def count_lock_key(episode: Episode) -> tuple[str, ...]:
    """Return the lock key of the ``episode_counts`` row the episode counts in (engram.storage.stats).

    Taken with the others in their global order before writing: two batches of mixed intents
    otherwise update those rows in their own orders and deadlock each other on PostgreSQL.
    """
    return (episode.group_id, "counts", episode.intent or "", episode.source or "")


def update(
    db: Db,
    group_id: str,
    episode_id: str,
    expected_version: int,
    apply: Callable[[Episode], Episode | None],
    operation: Operation,
) -> Episode:
    """Append version n+1 made by ``apply(current)`` and close version n, under the episode's lock;
    when ``apply`` returns None (nothing changes) write nothing and return the current version.

    Raises NotFound (no such episode) or PreconditionFailed (not at ``expected_version``).
    """
    peek = current(db, group_id, episode_id)
    if peek is not None:  # the count rows before the row lock, as inserts take them (no lock cycle)
        ahead = apply(peek) if peek.version == expected_version else None
        db.lock([count_lock_key(peek), *([count_lock_key(ahead)] if ahead is not None else [])])
    now = current(db, group_id, episode_id) if lock(db, group_id, episode_id) else None
    if now is None:
        raise NotFound(f"no episode with id {episode_id!r} in group {group_id!r}", field="id")
    if now.version != expected_version:
        raise PreconditionFailed(
            f"episode {episode_id!r} is at version {now.version}, not {expected_version}",
            current_version=now.version,
        )
    new = apply(now)
    if new is None:
        return now
    check_episode_text(new)
    db.lock([count_lock_key(now), count_lock_key(new)])  # held already unless it changed meanwhile
    close_version(db, "episodes", group_id, episode_id, new.recorded_at, operation.id)
    db.run(insert_episode_sql(db), episode_params(new))
    insert_operation(db, operation, {"episode": episode_id, "version": new.version})
    return new


def close_version(db: Db, table: str, group_id: str, object_id: str, at: datetime, operation_id: str) -> None:
    """End the current version of an episode, entity or fact (``table``), closed by ``operation_id``."""
    db.run(
        f"UPDATE {table} SET expired_at = :at, expired_by = :by "
        "WHERE group_id = :g AND id = :id AND expired_at IS NULL",
        {"at": at, "by": operation_id, "g": group_id, "id": object_id},
    )


def list_page(
    db: Db, group_id: str, filters: EpisodeFilters, limit: int, after_key: PageKey | None
) -> list[Episode]:
    """Return held episodes matching ``filters`` (and ``known_at``), newest first, after ``after_key``."""
    d = db.dialect
    # Several actors: the newest of each through its index, then the newest of those. One IN
    # list walked the time index past every other actor's episodes (100 ms at 100k for the
    # graph channel's "newest episode of any of these ids"); a branch reads ≤ limit rows.
    actors = list(dict.fromkeys(filters.actor_id))
    branched = filters.known_at is None and 1 < len(actors) <= ACTOR_BRANCHES
    where, params = filter_sql(db, filters.model_copy(update={"actor_id": []}) if branched else filters)
    params |= {"g": group_id, "limit": limit}
    if after_key is not None:
        # A row value is an index range; the OR form was a filter over every newer row, so a
        # deep page cost O(depth).
        where += " AND (e.timestamp, e.id) < (:key_at, :key_id)"
        params |= {"key_at": after_key.timestamp, "key_id": after_key.id}
    # One actor is a small slice of a group: read it through its own index (SQLite's planner,
    # guessing, walked the whole time index; docs/decisions.md §15).
    index = d.indexed_by("episodes_current_actor") if len(actors) == 1 or branched else ""
    order = "ORDER BY e.timestamp DESC, e.id DESC LIMIT :limit"
    if branched:
        branches = " UNION ALL ".join(
            f"SELECT * FROM (SELECT {E} FROM episodes e{index} WHERE e.group_id = :g AND {CURRENT} "
            f"AND e.actor_id = :a{i}{where} {order}) b{i}"
            for i in range(len(actors))
        )
        params |= {f"a{i}": actor for i, actor in enumerate(actors)}
        sql = f"SELECT * FROM ({branches}) u ORDER BY timestamp DESC, id DESC LIMIT :limit"
        return EPISODE.all(db, sql, params)
    if filters.known_at is None:
        sql = f"SELECT {E} FROM episodes e{index} WHERE e.group_id = :g AND {CURRENT}{where} {order}"
        return EPISODE.all(db, sql, params)
    # Held at t = current and stored by t (the current indexes, in time order) plus closed after t
    # and stored by t (the changes since t: few, through episodes_closed). The walk in time order
    # passes over the episodes stored after t, so one intent or source takes its own index.
    if not index and (len(filters.intent) == 1 or len(filters.source) == 1):
        index = d.indexed_by(f"episodes_current_{'intent' if len(filters.intent) == 1 else 'source'}")
    params["known_at"] = filters.known_at
    now = (
        f"SELECT {E} FROM episodes e{index} WHERE e.group_id = :g AND {CURRENT} "
        f"AND e.recorded_at <= :known_at{where} {order}"
    )
    closed = (
        f"SELECT {E} FROM episodes e{d.indexed_by('episodes_closed')} WHERE e.group_id = :g "
        f"AND e.expired_at > :known_at AND e.recorded_at <= :known_at{where} {order}"
    )
    sql = (
        f"SELECT * FROM ({now}) a UNION ALL SELECT * FROM ({closed}) b "
        "ORDER BY timestamp DESC, id DESC LIMIT :limit"
    )
    return EPISODE.all(db, sql, params)


def neighbour_ids(db: Db, group_id: str, episode_id: str) -> tuple[str | None, str | None] | None:
    """Return the ids of the current previous and next episodes of the episode's thread; None if unknown."""
    row = db.one(NEIGHBOUR_IDS, {"group_id": group_id, "id": episode_id})
    return None if row is None else (row["previous"], row["following"])


def around(db: Db, group_id: str, episode_id: str) -> list[str]:
    """Return the ids of the episode's current thread neighbours (previous, next; those that exist)."""
    found = neighbour_ids(db, group_id, episode_id)
    return [] if found is None else [i for i in found if i is not None]


def counts_by(
    db: Db, group_id: str, column: str, after: datetime | None, before: datetime | None
) -> dict[str | None, int]:
    """Return current episodes by ``column`` (intent or source) with a timestamp in [after, before).

    Each count reads only the column's index (group, column, timestamp). Raises InvalidInput
    for another column.
    """
    if column not in ("intent", "source"):
        raise InvalidInput(f"episodes are counted by intent or source, not {column!r}", field="column")
    where, params = "", {"g": group_id, "after": after, "before": before}
    if after is not None:
        where += " AND e.timestamp >= :after"
    if before is not None:
        where += " AND e.timestamp < :before"
    rows = db.rows(
        f"SELECT e.{column} AS value, count(*) AS n FROM episodes e "
        f"WHERE e.group_id = :g AND {CURRENT}{where} GROUP BY e.{column}",
        params,
    )
    return {row["value"]: int(row["n"]) for row in rows}


def without_intent(db: Db, group_id: str, limit: int) -> list[Episode]:
    """Return up to ``limit`` current episodes with no intent, newest first."""
    return EPISODE.all(
        db,
        f"SELECT {E} FROM episodes e WHERE e.group_id = :g AND {CURRENT} AND e.intent IS NULL "
        "ORDER BY e.timestamp DESC LIMIT :limit",
        {"g": group_id, "limit": limit},
    )


def threads_of(db: Db, group_id: str, episode_ids: Sequence[str]) -> dict[str, str]:
    """Return the thread of each of the episodes that has one (episode id → thread key)."""
    if not episode_ids:
        return {}
    clause, params = db.dialect.in_list("d.id", "ids", list(dict.fromkeys(episode_ids)))
    rows = db.rows(
        f"SELECT d.id, d.thread FROM episode_docs d WHERE d.group_id = :g AND {clause} "
        "AND d.thread IS NOT NULL",
        {"g": group_id, **params},
    )
    return {str(row["id"]): str(row["thread"]) for row in rows}
