"""Batch insertion for the PostgreSQL store: deduplication, rows and thread context in a few statements.

A batch of n episodes costs a constant number of round trips rather than ~5n: one lookup of
the ids and one of the fingerprints already stored, one lookup of the stored thread
neighbours, pipelined inserts (each new episode written once, with its thread context), and
one UPDATE of the stored episodes that gained a new neighbour. Duplicates are decided
as SQLiteStore decides them one by one (earlier items of the same batch count as stored).
The caller holds the advisory locks on every id, fingerprint and thread of the batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg

from engram.errors import Conflict
from engram.models.episodes import Episode
from engram.storage.postgres.migrations import TEXT_CONFIG
from engram.storage.postgres.rows import (
    CURRENT_JOIN,
    E_COLUMNS,
    INSERT_EPISODE,
    episode_from_row,
    episode_row,
    index_text,
)
from engram.storage.protocol import NewEpisode

Connection = psycopg.Connection[Any]

# Only current episodes lend context: a retracted one's words must not find its neighbours.
CURRENT_NEIGHBOUR = (
    "EXISTS (SELECT 1 FROM episodes c WHERE c.group_id = {alias}.group_id AND c.id = {alias}.id "
    "AND c.expired_at IS NULL)"
)
_NEIGHBOUR = f"""
    SELECT n.{{column}} FROM episode_docs n
    WHERE n.group_id = d.group_id AND n.thread = d.thread AND (n.timestamp, n.id) {{cmp}} (d.timestamp, d.id)
      AND {CURRENT_NEIGHBOUR.format(alias="n")}
    ORDER BY n.timestamp {{order}}, n.id {{order}} LIMIT 1
"""
PREVIOUS_ID = _NEIGHBOUR.format(column="id", cmp="<", order="DESC")
NEXT_ID = _NEIGHBOUR.format(column="id", cmp=">", order="ASC")
PREVIOUS_TEXT = _NEIGHBOUR.format(column="text", cmp="<", order="DESC")
NEXT_TEXT = _NEIGHBOUR.format(column="text", cmp=">", order="ASC")
NEIGHBOUR_IDS = f"SELECT d.id, ({PREVIOUS_ID}), ({NEXT_ID}) FROM episode_docs d WHERE d.group_id = %s"

INSERT_DOC = (
    "INSERT INTO episode_docs (group_id, id, fingerprint, thread, timestamp, created_at, text, context_doc) "
    f"VALUES (%s, %s, %s, %s, %s, %s, %s, to_tsvector('{TEXT_CONFIG}', %s))"
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
            deleted = conn.execute(  # stored, but with no current version
                "SELECT id FROM episode_docs WHERE group_id = %s AND id = ANY(%s) AND NOT id = ANY(%s)",
                (group_id, ids, list(self.by_id)),
            ).fetchone()
            if deleted is not None:
                raise Conflict(
                    f"episode id {deleted[0]!r} names a deleted episode; revert its delete operation "
                    "to restore it, or choose another id",
                    field="id",
                )
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
        contexts = _contexts(conn, created)
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
                        contexts.new.get((item.episode.group_id, item.episode.id), ""),
                    )
                    for item in created
                ],
            )
            cursor.executemany(INSERT_EPISODE, [episode_row(item.episode) for item in created])
        for group_id in dict.fromkeys(group for group, _ in contexts.stale):
            stale = [episode_id for group, episode_id in contexts.stale if group == group_id]
            conn.execute(
                f"UPDATE episode_docs d SET context_doc = to_tsvector('{TEXT_CONFIG}', "
                f"concat_ws(' ', ({PREVIOUS_TEXT}), ({NEXT_TEXT}))) WHERE d.group_id = %s AND d.id = ANY(%s)",
                (group_id, stale),
            )
    return results


@dataclass
class _Contexts:
    new: dict[tuple[str, str], str] = field(default_factory=dict)
    """(group, id) of a new episode → its neighbours' text."""
    stale: list[tuple[str, str]] = field(default_factory=list)
    """(group, id) of stored episodes that gain a new neighbour: their context is rewritten."""


def _contexts(conn: Connection, created: Sequence[NewEpisode]) -> _Contexts:
    """Work out the thread context of the new episodes before they are written (one write each).

    A new episode's neighbours are among the other new episodes of its thread and the stored
    episodes right before and after it, so one lookup of those and a sort per thread suffice.
    The stored episodes that become neighbours of a new one are returned as stale.
    """
    result = _Contexts()
    threaded = [item for item in created if item.thread is not None]
    by_group: dict[str, list[NewEpisode]] = {}
    for item in threaded:
        by_group.setdefault(item.episode.group_id, []).append(item)
    for group_id, items in by_group.items():
        rows = conn.execute(
            f"SELECT k.thread, p.id, p.timestamp, p.text, n.id, n.timestamp, n.text "
            "FROM unnest(%s::text[], %s::text[], %s::timestamptz[]) AS k(id, thread, ts) "
            f"LEFT JOIN LATERAL ({_STORED.format(cmp='<', order='DESC')}) p ON true "
            f"LEFT JOIN LATERAL ({_STORED.format(cmp='>', order='ASC')}) n ON true",
            (
                [item.episode.id for item in items],
                [item.thread for item in items],
                [item.episode.timestamp for item in items],
                group_id,
                group_id,
            ),
        ).fetchall()
        nodes: dict[str, dict[str, tuple[datetime, str, bool]]] = {}
        for item in items:
            assert item.thread is not None
            text = index_text(item.search_text)
            nodes.setdefault(item.thread, {})[item.episode.id] = (item.episode.timestamp, text, True)
        for thread, *neighbours in rows:
            for found, stamp, text in (neighbours[0:3], neighbours[3:6]):
                if found is not None and found not in nodes[thread]:
                    nodes[thread][found] = (stamp, text, False)
        for members in nodes.values():
            order = sorted(members.items(), key=lambda member: (member[1][0], member[0]))
            for position, (episode_id, (_, _, new)) in enumerate(order):
                around = [order[i] for i in (position - 1, position + 1) if 0 <= i < len(order)]
                if new:
                    result.new[(group_id, episode_id)] = " ".join(text for _, (_, text, _) in around)
                elif any(neighbour_new for _, (_, _, neighbour_new) in around):
                    result.stale.append((group_id, episode_id))
    return result


_STORED = f"""
    SELECT s.id, s.timestamp, s.text FROM episode_docs s
    WHERE s.group_id = %s AND s.thread = k.thread AND (s.timestamp, s.id) {{cmp}} (k.ts, k.id)
      AND {CURRENT_NEIGHBOUR.format(alias="s")}
    ORDER BY s.timestamp {{order}}, s.id {{order}} LIMIT 1
"""
