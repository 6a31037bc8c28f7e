"""Episodes whose graph is still to be built, kept in the store so that a crash loses none.

An episode is stored first and its graph built right after, in a transaction of its own
(engram.ingest.extraction). A process killed between the two would leave the episode without
its graph, and importing the file again would not help: the episode is a duplicate by then.
So the transaction that stores an episode also queues it here (with the caller's extraction,
if it supplied one), and the transaction that builds its graph claims it back (``claim``):
an episode is built once, by whoever claims it first. ``queued`` lists what is left, with
the process that queued it (``owner_token``), so a recovering process can take only the rows
whose writer is gone (``GraphIngest.build_queued``, engram.ingest.extraction).

The queue is short: a writer builds each batch's graph before it stores the next, so a
crashed writer leaves at most the batch it was on.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engram.storage.sql import Db, Json

_TABLE = """
CREATE TABLE extraction_queue (
    group_id   text NOT NULL,
    episode_id text NOT NULL,
    supplied   {json},
    owner      text NOT NULL,
    queued_at  {time} NOT NULL,
    PRIMARY KEY (group_id, episode_id)
);
"""
SQLITE_MIGRATION = _TABLE.format(json="text", time="text")
POSTGRES_MIGRATION = _TABLE.format(json="jsonb", time="timestamptz")


def _process_start(pid: int) -> str:
    """Return when process ``pid`` started (clock ticks since boot, Linux), or "" where unknown.

    With the pid it names one process: a pid reused after a crash has another start time.
    """
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            # The command name (field 2) may hold spaces; the fields after its ")" do not.
            return handle.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


_tokens: dict[int, str] = {}


def owner_token() -> str:
    """Return ``host:pid:start``, naming this process among every writer of the store (a forked
    child gets its own)."""
    pid = os.getpid()
    if pid not in _tokens:
        _tokens[pid] = f"{socket.gethostname()}:{pid}:{_process_start(pid)}"
    return _tokens[pid]


def owner_alive(owner: str) -> bool | None:
    """Return whether the process ``owner`` names still runs: None when it ran on another host."""
    host, _, rest = owner.partition(":")
    pid, _, start = rest.partition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return None
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        pass
    return _process_start(int(pid)) == start


@dataclass(frozen=True, slots=True)
class QueuedExtraction:
    """One queued episode: its ids, the extraction its writer supplied (None: the extractor's),
    which process queued it and when."""

    group_id: str
    episode_id: str
    supplied: dict[str, Any] | None
    owner: str
    queued_at: datetime


def enqueue(
    db: Db, items: Sequence[tuple[str, str, dict[str, Any] | None]], owner: str, at: datetime
) -> None:
    """Queue ``(group_id, episode_id, supplied extraction or None)`` items (one already queued stays)."""
    db.run_many(
        "INSERT INTO extraction_queue (group_id, episode_id, supplied, owner, queued_at) "
        "VALUES (:group_id, :episode_id, :supplied, :owner, :queued_at) ON CONFLICT DO NOTHING",
        [
            {
                "group_id": group_id,
                "episode_id": episode_id,
                "supplied": None if supplied is None else Json(supplied),
                "owner": owner,
                "queued_at": at,
            }
            for group_id, episode_id, supplied in items
        ],
    )


def claim(db: Db, group_id: str, episode_ids: Sequence[str]) -> set[str]:
    """Remove the episodes' rows; return the ids that were queued (the caller builds those)."""
    if not episode_ids:
        return set()
    condition, params = db.dialect.in_list("episode_id", "id", list(episode_ids))
    rows = db.tuples(
        f"DELETE FROM extraction_queue WHERE group_id = :group_id AND {condition} RETURNING episode_id",
        {"group_id": group_id, **params},
    )
    return {row[0] for row in rows}


def queued(db: Db, limit: int) -> list[QueuedExtraction]:
    """Return up to ``limit`` queued episodes, oldest first."""
    rows = db.tuples(
        "SELECT group_id, episode_id, supplied, owner, queued_at FROM extraction_queue "
        "ORDER BY queued_at, group_id, episode_id LIMIT :limit",
        {"limit": limit},
    )
    return [
        QueuedExtraction(group_id, episode_id, db.json(supplied), owner, db.time(queued_at))
        for group_id, episode_id, supplied, owner, queued_at in rows
    ]
