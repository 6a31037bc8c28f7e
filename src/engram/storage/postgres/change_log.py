"""PostgreSQL's change log of episodes (migration 14), as engram.storage.episode_matrix reads it.

Triggers log every change of an episode (a version added, closed or purged; a vector put or
dropped) in ``episode_changes``, with the writing transaction's id (``xid``). Writers run
concurrently, so ``seq`` does not follow commit order: a change logged early may commit after
later ones were read. A mark is therefore the snapshot it was read in: every change it did not
see is a transaction's that was running then (its ``xip`` list) or began after (``xid`` at or
past its ``xmax``). "Anything new?" counts those (index reads: the range past ``xmax`` and a
point per running transaction), and a refresh reads only those, so a transaction left open
costs nothing but its own entry in the list.

Row triggers, not statement ones: Engram writes a row per statement, and statement triggers
(a transition table each, the pruning checks each time) slowed a 100k vector load by 30 %
(bench/RESULTS.md). The log keeps its last LOG_KEPT changes, pruned when a ``seq`` is a
multiple of PRUNE_EVERY, by one transaction at a time. It deletes only changes of transactions
older than every running one (a transaction left open keeps the log from shrinking past it) and
raises ``episode_changes_pruned`` to the newest ``xid`` it deleted (migration 15). A reader whose
mark is not past that may have lost changes it needs, and reloads the group: exact even for a
transaction that stayed open while more than LOG_KEPT other changes were logged, or a quiet group
whose rows were all pruned. Since a mark's xmin is never past a running transaction, marks taken
after a pruning are past everything it deleted: one reload, not one per search.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engram.storage.episode_matrix import COLUMNS_READ, LOG_KEPT, Key, Mark
from engram.storage.sql import Db

PRUNE_EVERY = 10_000
"""The log is pruned back to LOG_KEPT changes when a change's ``seq`` is a multiple of this."""

POSTGRES_MIGRATION = f"""
-- Which episodes changed, by which transaction (engram.storage.postgres.change_log).
CREATE TABLE episode_changes (
    seq      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    group_id text NOT NULL,
    id       text NOT NULL,
    xid      xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX episode_changes_group ON episode_changes (group_id, xid);
CREATE FUNCTION episode_changes_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO episode_changes (group_id, id) VALUES (OLD.group_id, OLD.id);
    ELSE
        INSERT INTO episode_changes (group_id, id) VALUES (NEW.group_id, NEW.id);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER episodes_log AFTER INSERT OR UPDATE OR DELETE ON episodes
    FOR EACH ROW EXECUTE FUNCTION episode_changes_log();
CREATE TRIGGER episode_vectors_log AFTER INSERT OR UPDATE OR DELETE ON episode_vectors
    FOR EACH ROW EXECUTE FUNCTION episode_changes_log();
-- One pruner at a time: another would wait on its deleted rows until it commits.
CREATE FUNCTION episode_changes_prune() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF pg_try_advisory_xact_lock(hashtext(current_schema() || '.episode_changes')) THEN
        DELETE FROM episode_changes WHERE seq <= NEW.seq - {LOG_KEPT};
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER episode_changes_prune AFTER INSERT ON episode_changes
    FOR EACH ROW WHEN (NEW.seq % {PRUNE_EVERY} = 0) EXECUTE FUNCTION episode_changes_prune();
"""
"""The migration adding the change log and the triggers that keep it."""

POSTGRES_PRUNED_MIGRATION = f"""
-- The newest transaction whose changes the pruning deleted: a mark not past it reloads.
CREATE TABLE episode_changes_pruned (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    xid      xid8 NOT NULL
);
-- Changes pruned before this migration came from transactions before it.
INSERT INTO episode_changes_pruned (xid) VALUES (pg_current_xact_id());
CREATE OR REPLACE FUNCTION episode_changes_prune() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    newest xid8;
BEGIN
    IF pg_try_advisory_xact_lock(hashtext(current_schema() || '.episode_changes')) THEN
        WITH gone AS (
            DELETE FROM episode_changes
            WHERE seq <= NEW.seq - {LOG_KEPT} AND xid < pg_snapshot_xmin(pg_current_snapshot())
            RETURNING xid
        )
        SELECT max(xid) INTO newest FROM gone;
        IF newest IS NOT NULL THEN
            UPDATE episode_changes_pruned SET xid = greatest(xid, newest);
        END IF;
    END IF;
    RETURN NULL;
END $$;
"""
"""The migration recording how far pruning reached (``episode_changes_pruned``)."""

_MARK = (
    "pg_snapshot_xmin(s.snap)::text AS xmin, pg_snapshot_xmax(s.snap)::text AS xmax, "
    "ARRAY(SELECT pg_snapshot_xip(s.snap))::text[] AS running"
)
_SNAPSHOT = "WITH s AS (SELECT pg_current_snapshot() AS snap) "
_UNSEEN = (
    "(SELECT id FROM episode_changes WHERE group_id = :g AND xid >= CAST(:xmax AS xid8) "
    "UNION ALL SELECT id FROM episode_changes WHERE group_id = :g AND xid = ANY(CAST(:running AS xid8[])))"
)
"""The group's changes a mark's snapshot did not see: two index reads (an OR of both was planned,
once prepared, as a scan of the group's every change)."""
_PRUNED = "(SELECT xid FROM episode_changes_pruned) >= CAST(:xmin AS xid8) AS pruned"


_AHEAD = "xid >= pg_snapshot_xmax(pg_current_snapshot())"


def restored_ahead(db: Db) -> bool:
    """Return whether the log holds changes (or a pruning horizon) with transaction ids ahead of
    this cluster's, as a ``pg_dump`` restored into a younger cluster leaves them: every mark
    would count them as new, and each refresh re-read them, until the cluster's ids caught up."""
    return bool(
        db.value(
            f"SELECT EXISTS (SELECT 1 FROM episode_changes WHERE {_AHEAD}) "
            f"OR EXISTS (SELECT 1 FROM episode_changes_pruned WHERE {_AHEAD}) AS ahead"
        )
    )


def forget_restored_changes(db: Db) -> None:
    """Drop the changes ``restored_ahead`` finds; the pruning horizon moves to now, so every
    reader reloads once. Nothing is done when no id is ahead (one scan of the log)."""
    if restored_ahead(db):
        db.run(f"DELETE FROM episode_changes WHERE {_AHEAD}")
        db.run("UPDATE episode_changes_pruned SET xid = pg_current_xact_id()")


@dataclass(frozen=True, slots=True)
class PostgresMark:
    """The snapshot a group's rows were read in: its oldest running transaction, the first one
    not yet begun, and the ones running (``pg_snapshot_xmin``, ``_xmax``, ``_xip``)."""

    xmin: str
    xmax: str
    running: tuple[str, ...]

    def params(self, group_id: str) -> dict[str, Any]:
        return {"g": group_id, "xmin": self.xmin, "xmax": self.xmax, "running": list(self.running)}


class PostgresChangeLog:
    """``episode_changes`` by transaction id; marks are PostgresMark."""

    key = "v.id"
    key_dtype = "object"
    rows = (
        f"SELECT v.id AS key, v.embedding AS vector, {COLUMNS_READ} FROM episode_vectors v "
        "LEFT JOIN episodes e ON e.group_id = v.group_id AND e.id = v.id AND e.expired_at IS NULL"
    )

    def unchanged(self, db: Db, group_id: str, mark: Mark) -> bool:
        assert isinstance(mark, PostgresMark)
        # The pruning horizon too: it may have deleted changes the mark did not see.
        row = db.one(f"SELECT count(*) AS n, {_PRUNED} FROM {_UNSEEN} c", mark.params(group_id))
        assert row is not None
        return not row["pruned"] and int(row["n"]) == 0

    def start(self, db: Db, group_id: str) -> Mark:
        row = db.one(f"{_SNAPSHOT}SELECT {_MARK} FROM s")
        assert row is not None
        return _mark(row)

    def since(self, db: Db, group_id: str, mark: Mark) -> tuple[list[Key] | None, Mark]:
        """Read, in one snapshot, the episodes of the changes ``mark`` did not see, and the new mark."""
        assert isinstance(mark, PostgresMark)
        rows = db.rows(
            f"{_SNAPSHOT}SELECT {_MARK}, c.id AS id, {_PRUNED} FROM s LEFT JOIN {_UNSEEN} c ON true",
            mark.params(group_id),
        )
        if rows[0]["pruned"]:
            return None, _mark(rows[0])
        return list({row["id"] for row in rows if row["id"] is not None}), _mark(rows[0])


def _mark(row: Mapping[str, Any]) -> PostgresMark:
    return PostgresMark(str(row["xmin"]), str(row["xmax"]), tuple(str(x) for x in row["running"]))
