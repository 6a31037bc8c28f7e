"""Batch inserts of episodes on SQLite with the per-row insert triggers replaced by set-based statements.

The summary counts (engram.storage.stats), the reference index (engram.storage.references) and
the change log (engram.storage.sqlite.episode_matrix) are kept by triggers, so no write path can
forget them. Each fired trigger costs SQLite a sub-program and, per statement, a statement
journal: ~125 µs per episode at 20,000 rows here, more than the rows themselves
(bench/RESULTS.md, "Bulk load"). SQLite has no statement-level triggers, so a large batch
drops the INSERT triggers inside its own write transaction, writes its rows, does what those
triggers do in one statement each over the batch's new docs, and creates the triggers again
from their stored text before it commits. DDL is transactional in SQLite and the writer holds
the write lock: no other connection ever sees the store without its triggers, and a batch that
fails rolls the triggers back with everything else.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from engram.storage.references import SQLITE_BATCH_ROWS
from engram.storage.sql import Db

SUSPENDED = (
    "episodes_count_insert",
    "episode_references_insert",
    "episode_changes_insert",
    "episode_vectors_count_insert",
    "episode_changes_vector_put",
    "episode_changes_prune",
)
"""The INSERT triggers a batch replaces; any other trigger keeps firing row by row."""
BULK_MIN = 100
"""Batches of fewer episodes keep the triggers (the DDL costs about what ~20 rows' triggers do,
and every connection re-reads the schema after it)."""

_SET_BASED = (
    # episodes_count_insert: the batch's new versions are all current.
    """INSERT INTO episode_counts (group_id, intent, source, episodes)
       SELECT group_id, coalesce(intent, ''), coalesce(source, ''), count(*) FROM episodes
       WHERE doc >= :first AND expired_at IS NULL
       GROUP BY group_id, coalesce(intent, ''), coalesce(source, '')
       ON CONFLICT (group_id, intent, source)
       DO UPDATE SET episodes = episode_counts.episodes + excluded.episodes""",
    # episode_vectors_count_insert: a new doc had no vector before.
    """INSERT INTO vector_counts (group_id, vectors)
       SELECT group_id, count(*) FROM episode_vectors WHERE doc >= :first GROUP BY group_id
       ON CONFLICT (group_id) DO UPDATE SET vectors = vector_counts.vectors + excluded.vectors""",
    # episode_changes_insert and episode_changes_vector_put.
    "INSERT INTO episode_changes (group_id, doc) SELECT group_id, doc FROM episodes WHERE doc >= :first",
    "INSERT INTO episode_changes (group_id, doc) "
    "SELECT group_id, doc FROM episode_vectors WHERE doc >= :first",
    # episode_changes_prune: keep the last 100,000 changes (episode_matrix.LOG_KEPT).
    "DELETE FROM episode_changes WHERE seq <= (SELECT max(seq) FROM episode_changes) - 100000",
    *SQLITE_BATCH_ROWS,
)


def next_doc(db: Db) -> int:
    """Return the doc number the next ``episode_docs`` row gets (the writer holds the write lock)."""
    return int(db.value("SELECT coalesce(max(doc), 0) + 1 AS doc FROM episode_docs"))


@contextmanager
def set_based(db: Db, count: int) -> Iterator[None]:
    """Run the block (inserting ``count`` new episodes and their vectors) with the INSERT triggers
    replaced by one statement each over the new docs; below BULK_MIN episodes, as it is.

    Only new episode docs (numbered from ``next_doc`` on) may be written in the block: the
    statements after it read every doc from there. On an exception the caller's transaction
    rolls back, triggers included.
    """
    if count < BULK_MIN:
        yield
        return
    first = next_doc(db)
    names = ", ".join(f"'{name}'" for name in SUSPENDED)
    triggers = db.rows(f"SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ({names})")
    for trigger in triggers:
        db.run(f"DROP TRIGGER {trigger['name']}")
    yield
    for statement in _SET_BASED:
        db.run(statement, {"first": first})
    for trigger in triggers:
        db.run(str(trigger["sql"]))
