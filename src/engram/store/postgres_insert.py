"""Batch insertion for the PostgreSQL store: deduplication, rows and thread context in a few statements.

A batch of n episodes costs a constant number of round trips rather than ~5n: one lookup of
the ids and one of the fingerprints already stored, pipelined inserts, one lookup of the
thread neighbours and one UPDATE of the affected thread contexts. Duplicates are decided
as SQLiteStore decides them one by one (earlier items of the same batch count as stored).
The caller holds the advisory locks on every id, fingerprint and thread of the batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from engram.errors import Conflict
from engram.models import Episode
from engram.store.base import NewEpisode
from engram.store.postgres_rows import (
    CURRENT_JOIN,
    E_COLUMNS,
    INSERT_EPISODE,
    episode_from_row,
    episode_row,
    index_text,
)

Connection = psycopg.Connection[Any]

_NEIGHBOUR = """
    SELECT n.{column} FROM episode_docs n
    WHERE n.group_id = d.group_id AND n.thread = d.thread AND (n.timestamp, n.id) {cmp} (d.timestamp, d.id)
    ORDER BY n.timestamp {order}, n.id {order} LIMIT 1
"""
PREVIOUS_ID = _NEIGHBOUR.format(column="id", cmp="<", order="DESC")
NEXT_ID = _NEIGHBOUR.format(column="id", cmp=">", order="ASC")
PREVIOUS_TEXT = _NEIGHBOUR.format(column="text", cmp="<", order="DESC")
NEXT_TEXT = _NEIGHBOUR.format(column="text", cmp=">", order="ASC")
NEIGHBOUR_IDS = f"SELECT d.id, ({PREVIOUS_ID}), ({NEXT_ID}) FROM episode_docs d WHERE d.group_id = %s"

INSERT_DOC = (
    "INSERT INTO episode_docs (group_id, id, fingerprint, thread, timestamp, created_at, text) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s)"
)


class _Stored:
    """What one group already holds of a batch's ids and fingerprints."""

    def __init__(self, conn: Connection, group_id: str, items: Sequence[NewEpisode]) -> None:
        ids = [item.episode.id for item in items if item.client_id]
        fingerprints = [item.episode.fingerprint for item in items if not item.client_id]
        self.by_id: dict[str, tuple[str, Episode]] = {}
        self.by_fingerprint: dict[str, Episode] = {}
        if ids:
            rows = conn.execute(
                f"SELECT d.fingerprint, {E_COLUMNS} FROM episode_docs d {CURRENT_JOIN} "
                "WHERE d.group_id = %s AND d.id = ANY(%s)",
                (group_id, ids),
            ).fetchall()
            self.by_id = {str(row[2]): (str(row[0]), episode_from_row(row[1:])) for row in rows}
        if fingerprints:
            rows = conn.execute(
                f"SELECT DISTINCT ON (d.fingerprint) d.fingerprint, {E_COLUMNS} "
                f"FROM episode_docs d {CURRENT_JOIN} WHERE d.group_id = %s AND d.fingerprint = ANY(%s) "
                "ORDER BY d.fingerprint, d.created_at, d.id",
                (group_id, fingerprints),
            ).fetchall()
            self.by_fingerprint = {str(row[0]): episode_from_row(row[1:]) for row in rows}


def _conflict(episode: Episode) -> Conflict:
    return Conflict(
        f"episode id {episode.id!r} already names an episode with different content, "
        "actor or intent; choose another id",
        field="id",
    )


def insert(conn: Connection, items: Sequence[NewEpisode]) -> list[tuple[Episode, bool]]:
    """Insert the items that are not duplicates; return (stored episode, duplicate) per item, in order.

    Raises Conflict when a client id already names an episode with other content.
    """
    stored = {
        group: _Stored(conn, group, [item for item in items if item.episode.group_id == group])
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
                original, current = group.by_id[episode.id]
                if episode.fingerprint not in (original, current.fingerprint):
                    raise _conflict(episode)
                duplicate_of = current
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
        with conn.cursor() as cursor:
            cursor.executemany(
                INSERT_DOC,
                [
                    (
                        item.episode.group_id,
                        item.episode.id,
                        item.episode.fingerprint,
                        item.thread,
                        item.episode.timestamp,
                        item.episode.recorded_at,
                        index_text(item.search_text),
                    )
                    for item in created
                ],
            )
            cursor.executemany(INSERT_EPISODE, [episode_row(item.episode) for item in created])
        for group_id in dict.fromkeys(item.episode.group_id for item in created):
            threaded = [i.episode.id for i in created if i.thread and i.episode.group_id == group_id]
            if threaded:
                _link(conn, group_id, threaded)
    return results


def _link(conn: Connection, group_id: str, new_ids: list[str]) -> None:
    """Rewrite the thread context of new episodes and of their neighbours, which now include them.

    Any stored episode whose previous or next episode changed has a new episode as its new
    neighbour, so the new episodes' neighbours are all that can need rewriting.
    """
    rows = conn.execute(f"{NEIGHBOUR_IDS} AND d.id = ANY(%s)", (group_id, new_ids)).fetchall()
    affected = dict.fromkeys(
        str(found) for row in rows if row[1] is not None or row[2] is not None for found in row if found
    )
    if affected:
        conn.execute(
            f"UPDATE episode_docs d SET context = concat_ws(' ', ({PREVIOUS_TEXT}), ({NEXT_TEXT})) "
            "WHERE d.group_id = %s AND d.id = ANY(%s)",
            (group_id, list(affected)),
        )
