"""Counts for operators, kept per group by the database itself: current episodes per intent and
source, current facts per status, episode vectors; plus merge candidates awaiting review.

Counting current rows at scrape time costs a pass over every episode (measured at 1M episodes
on SQLite: bench/metrics_scrape.py), so each backend's migration (``SQLITE_MIGRATION``,
``POSTGRES_MIGRATION``) adds three summary tables that triggers keep current on every write —
insert, new version, close, delete, purge, import, archive — so no code path can forget them.
A read sums a few rows per group. ``''`` stands for a missing intent or source in the summary.

The read is one ``UNION ALL`` statement, the same on SQLite and PostgreSQL: one snapshot, one
round trip.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engram.storage.sql import Db

FACT_STATUSES = ("current", "superseded", "disputed", "retracted")

_COUNTS = """
SELECT 'episodes' AS kind, intent AS first, source AS second, sum(episodes) AS n
  FROM episode_counts{where_group} GROUP BY intent, source
UNION ALL
SELECT 'facts', status, NULL, sum(facts) FROM fact_counts{where_group} GROUP BY status
UNION ALL
SELECT 'merge_candidates', NULL, NULL, count(*) FROM merge_candidates{where_group}
UNION ALL
SELECT 'vectors', NULL, NULL, sum(vectors) FROM vector_counts{where_group}
"""

_TABLES = """
CREATE TABLE episode_counts (
    group_id text NOT NULL, intent text NOT NULL, source text NOT NULL, episodes bigint NOT NULL,
    PRIMARY KEY (group_id, intent, source)
);
CREATE TABLE fact_counts (
    group_id text NOT NULL, status text NOT NULL, facts bigint NOT NULL, PRIMARY KEY (group_id, status)
);
CREATE TABLE vector_counts (group_id text NOT NULL PRIMARY KEY, vectors bigint NOT NULL);
INSERT INTO episode_counts
    SELECT group_id, coalesce(intent, ''), coalesce(source, ''), count(*) FROM episodes
    WHERE expired_at IS NULL GROUP BY group_id, coalesce(intent, ''), coalesce(source, '');
INSERT INTO fact_counts
    SELECT group_id, status, count(*) FROM facts WHERE expired_at IS NULL GROUP BY group_id, status;
INSERT INTO vector_counts SELECT group_id, count(*) FROM episode_vectors GROUP BY group_id;
"""


def _match(keys: Sequence[str], row: str) -> str:
    return " AND ".join(f"{key} = coalesce({row}.{key}, '')" for key in keys)


def _increment(counts: str, keys: Sequence[str], column: str, row: str) -> str:
    """Return the statement adding 1 to the ``counts`` row of ``row``'s group and keys (created at 1)."""
    names, values = ", ".join(keys), ", ".join(f"coalesce({row}.{key}, '')" for key in keys)
    return (
        f"INSERT INTO {counts} (group_id, {names}, {column}) VALUES ({row}.group_id, {values}, 1) "
        f"ON CONFLICT (group_id, {names}) DO UPDATE SET {column} = {counts}.{column} + 1;"
    )


def _decrement(counts: str, keys: Sequence[str], column: str, row: str) -> str:
    """Return the statements taking 1 from the ``counts`` row of ``row``'s group and keys, deleting it
    at 0 (so the summary is what counting the rows gives, however the rows got there)."""
    where = f"group_id = {row}.group_id AND {_match(keys, row)}"
    return (
        f"UPDATE {counts} SET {column} = {column} - 1 WHERE {where}; "
        f"DELETE FROM {counts} WHERE {where} AND {column} = 0;"
    )


def _sqlite_triggers(table: str, counts: str, keys: Sequence[str], column: str) -> str:
    """Return SQLite triggers keeping ``counts`` equal to ``table``'s current rows, per group and ``keys``."""
    name, watched = f"{table}_count", ", ".join(["expired_at", *keys])
    return f"""
CREATE TRIGGER {name}_insert AFTER INSERT ON {table} WHEN NEW.expired_at IS NULL
BEGIN {_increment(counts, keys, column, "NEW")} END;
CREATE TRIGGER {name}_update_old AFTER UPDATE OF {watched} ON {table} WHEN OLD.expired_at IS NULL
BEGIN {_decrement(counts, keys, column, "OLD")} END;
CREATE TRIGGER {name}_update_new AFTER UPDATE OF {watched} ON {table} WHEN NEW.expired_at IS NULL
BEGIN {_increment(counts, keys, column, "NEW")} END;
CREATE TRIGGER {name}_delete AFTER DELETE ON {table} WHEN OLD.expired_at IS NULL
BEGIN {_decrement(counts, keys, column, "OLD")} END;
"""


def _postgres_triggers(table: str, counts: str, keys: Sequence[str], column: str) -> str:
    """Return a PostgreSQL trigger function and trigger doing what ``_sqlite_triggers``' do."""
    name, watched = f"{table}_count", ", ".join(["expired_at", *keys])
    return f"""
CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.expired_at IS NULL THEN
        {_decrement(counts, keys, column, "OLD")}
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.expired_at IS NULL THEN
        {_increment(counts, keys, column, "NEW")}
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER {name} AFTER INSERT OR UPDATE OF {watched} OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION {name}();
"""


SQLITE_MIGRATION = (
    _TABLES
    + _sqlite_triggers("episodes", "episode_counts", ("intent", "source"), "episodes")
    + _sqlite_triggers("facts", "fact_counts", ("status",), "facts")
    + """
-- A vector replaced (INSERT OR REPLACE) is not a new one: count it before the insert, only when
-- the episode had none (the implicit delete of a replace fires no trigger).
CREATE TRIGGER episode_vectors_count_insert BEFORE INSERT ON episode_vectors
WHEN NOT EXISTS (SELECT 1 FROM episode_vectors WHERE doc = NEW.doc)
BEGIN
    INSERT INTO vector_counts (group_id, vectors) VALUES (NEW.group_id, 1)
    ON CONFLICT (group_id) DO UPDATE SET vectors = vector_counts.vectors + 1;
END;
CREATE TRIGGER episode_vectors_count_delete AFTER DELETE ON episode_vectors
BEGIN
    UPDATE vector_counts SET vectors = vectors - 1 WHERE group_id = OLD.group_id;
    DELETE FROM vector_counts WHERE group_id = OLD.group_id AND vectors = 0;
END;
"""
)
"""The SQLite migration adding the summary tables, filled from the current rows, and their triggers."""

POSTGRES_MIGRATION = (
    _TABLES
    + _postgres_triggers("episodes", "episode_counts", ("intent", "source"), "episodes")
    + _postgres_triggers("facts", "fact_counts", ("status",), "facts")
    + """
-- ON CONFLICT DO UPDATE (a vector replaced) fires UPDATE triggers, not INSERT ones: not counted.
CREATE FUNCTION episode_vectors_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO vector_counts (group_id, vectors) VALUES (NEW.group_id, 1)
        ON CONFLICT (group_id) DO UPDATE SET vectors = vector_counts.vectors + 1;
    ELSE
        UPDATE vector_counts SET vectors = vectors - 1 WHERE group_id = OLD.group_id;
        DELETE FROM vector_counts WHERE group_id = OLD.group_id AND vectors = 0;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER episode_vectors_count AFTER INSERT OR DELETE ON episode_vectors
    FOR EACH ROW EXECUTE FUNCTION episode_vectors_count();
"""
)
"""The PostgreSQL migration adding the summary tables, filled from the current rows, and their triggers."""


@dataclass(frozen=True, slots=True)
class StoreCounts:
    """What ``read_counts`` found: current episodes per (intent, source), current facts per
    status (every status present), merge candidates awaiting review, and episode vectors."""

    episodes: dict[tuple[str | None, str | None], int] = field(default_factory=dict)
    facts: dict[str, int] = field(default_factory=dict)
    merge_candidates: int = 0
    vectors: int = 0


def read_counts(db: Db, group_id: str | None = None) -> StoreCounts:
    """Return the counts of ``group_id``, or of the whole store when None."""
    where = "" if group_id is None else " WHERE group_id = :g"
    episodes: dict[tuple[str | None, str | None], int] = {}
    facts = dict.fromkeys(FACT_STATUSES, 0)
    merge_candidates = vectors = 0
    for row in db.rows(_COUNTS.format(where_group=where), {"g": group_id}):
        kind, first, second, count = row["kind"], row["first"], row["second"], row["n"]
        if kind == "episodes":
            episodes[(first or None, second or None)] = int(count)
        elif kind == "facts":
            facts[str(first)] = int(count)
        elif kind == "merge_candidates":
            merge_candidates = int(count)
        else:
            vectors = int(count or 0)
    return StoreCounts(episodes, facts, merge_candidates, vectors)
