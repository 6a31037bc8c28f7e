"""What episodes cite, indexed: reference ids and the names people write for them, in SQL written once.

Every episode version's ``references`` (role ``cites``) and ``metadata.reference_id`` (role
``source``: the episode is part of that document, e.g. a wiki page's section, an email itself)
are rows of ``episode_references``; its ``metadata.reference_names`` (``{name: reference id}``,
written by the importers) are rows of ``reference_names``. Triggers on ``episodes`` keep both
(each backend's migration: ``SQLITE_MIGRATION``, ``POSTGRES_MIGRATION``), so no write path —
create, update, revert, import, purge — can forget them, exactly as ``engram.storage.stats``.

Rows are per episode version and never change: a read joins the version the memory holds now
(or held at ``known_at``), so a superseded or deleted version cites nothing. Reference ids and
names longer than ``MAX_REFERENCE_CHARS`` characters are not indexed (a B-tree entry must stay
under PostgreSQL's ~2.7 kB). Names match by key: ``engram_fold`` (NFKC, then Unicode's simple
lower case; engram.fold), the same function on both backends and in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from engram.fold import SQL_FUNCTION, fold, postgres_function
from engram.models.episodes import Episode
from engram.models.references import MAX_REFERENCE_CHARS
from engram.storage.episodes import held
from engram.storage.rows import EPISODE, E
from engram.storage.sql import Db
from engram.storage.types import CitedReference, PageKey

_TABLES = """
CREATE TABLE episode_references (
    group_id   text NOT NULL,
    reference  text{collate} NOT NULL,
    episode_id text NOT NULL,
    version    integer NOT NULL,
    role       text NOT NULL,
    PRIMARY KEY (group_id, reference, episode_id, version, role)
);
CREATE INDEX episode_references_episode ON episode_references (group_id, episode_id, version);
CREATE TABLE reference_names (
    group_id   text NOT NULL,
    name_key   text NOT NULL,
    reference  text{collate} NOT NULL,
    episode_id text NOT NULL,
    version    integer NOT NULL,
    name       text NOT NULL,
    PRIMARY KEY (group_id, name_key, reference, episode_id, version)
);
CREATE INDEX reference_names_reference ON reference_names (group_id, reference);
CREATE INDEX reference_names_episode ON reference_names (group_id, episode_id, version);
"""

# SQLite: JSON is text; json_each walks an array or object. {row} is NEW in the trigger, e in the backfill.
_SQLITE_CITES = """
INSERT OR IGNORE INTO episode_references (group_id, reference, episode_id, version, role)
    SELECT {row}.group_id, r.value, {row}.id, {row}.version, 'cites' FROM {source}json_each({row}.refs) r
    WHERE r.type = 'text' AND length(r.value) BETWEEN 1 AND {max};
INSERT OR IGNORE INTO episode_references (group_id, reference, episode_id, version, role)
    SELECT {row}.group_id, json_extract({row}.metadata, '$.reference_id'), {row}.id, {row}.version, 'source'
    {source_from}WHERE json_type({row}.metadata, '$.reference_id') = 'text'
      AND length(json_extract({row}.metadata, '$.reference_id')) BETWEEN 1 AND {max};
"""
_SQLITE_NAMES = """
INSERT OR IGNORE INTO reference_names (group_id, name_key, reference, episode_id, version, name)
    SELECT {row}.group_id, {fold}(trim(n.key)), n.value, {row}.id, {row}.version, trim(n.key)
    FROM {source}json_each({row}.metadata, '$.reference_names') n
    WHERE json_type({row}.metadata, '$.reference_names') = 'object' AND n.type = 'text'
      AND length(trim(n.key)) BETWEEN 1 AND {max} AND length(n.value) BETWEEN 1 AND {max};
"""
_SQLITE_ROWS = _SQLITE_CITES + _SQLITE_NAMES


def _sqlite_trigger(fold: str) -> str:
    rows = _SQLITE_ROWS.format(row="NEW", source="", source_from="", max=MAX_REFERENCE_CHARS, fold=fold)
    return f"""
CREATE TRIGGER episode_references_insert AFTER INSERT ON episodes
BEGIN {rows} END;
"""


SQLITE_MIGRATION = (
    _TABLES.format(collate="")
    + _SQLITE_ROWS.format(
        row="e", source="episodes e, ", source_from="FROM episodes e ", max=MAX_REFERENCE_CHARS, fold="lower"
    )
    + _sqlite_trigger("lower")
    + """
CREATE TRIGGER episode_references_delete AFTER DELETE ON episodes
BEGIN
    DELETE FROM episode_references
        WHERE group_id = OLD.group_id AND episode_id = OLD.id AND version = OLD.version;
    DELETE FROM reference_names
        WHERE group_id = OLD.group_id AND episode_id = OLD.id AND version = OLD.version;
END;
"""
)
"""The SQLite migration: the two tables, filled from the stored versions, and their triggers."""
SQLITE_BATCH_ROWS = tuple(
    f"WITH batch AS (SELECT group_id, id, version, refs, metadata FROM episodes WHERE doc >= :first) {rows}"
    for rows in _SQLITE_ROWS.format(
        row="e", source="batch e, ", source_from="FROM batch e ", max=MAX_REFERENCE_CHARS, fold=SQL_FUNCTION
    ).split(";")
    if rows.strip()
)
"""What ``episode_references_insert`` does, as one statement each over the versions of the episode
docs numbered from ``:first`` on (a batch insert: engram.storage.sqlite.bulk)."""

# PostgreSQL: jsonb; the "C" collation makes a document's versions one B-tree range (byte order).
_POSTGRES_CITES = """
INSERT INTO episode_references (group_id, reference, episode_id, version, role)
    SELECT {row}.group_id, r.value #>> '{{}}', {row}.id, {row}.version, 'cites'
    FROM {source}jsonb_array_elements(CASE WHEN jsonb_typeof({row}.refs) = 'array' THEN {row}.refs
                                           ELSE '[]'::jsonb END) r
    WHERE jsonb_typeof(r.value) = 'string' AND length(r.value #>> '{{}}') BETWEEN 1 AND {max}
    ON CONFLICT DO NOTHING;
INSERT INTO episode_references (group_id, reference, episode_id, version, role)
    SELECT {row}.group_id, {row}.metadata ->> 'reference_id', {row}.id, {row}.version, 'source'
    {source_from}WHERE jsonb_typeof({row}.metadata -> 'reference_id') = 'string'
      AND length({row}.metadata ->> 'reference_id') BETWEEN 1 AND {max}
    ON CONFLICT DO NOTHING;
"""
_POSTGRES_NAMES = """
INSERT INTO reference_names (group_id, name_key, reference, episode_id, version, name)
    SELECT {row}.group_id, {fold}(btrim(n.key)), n.value #>> '{{}}', {row}.id, {row}.version, btrim(n.key)
    FROM {source}jsonb_each(CASE WHEN jsonb_typeof({row}.metadata -> 'reference_names') = 'object'
                                 THEN {row}.metadata -> 'reference_names' ELSE '{{}}'::jsonb END) n
    WHERE jsonb_typeof(n.value) = 'string' AND length(btrim(n.key)) BETWEEN 1 AND {max}
      AND length(n.value #>> '{{}}') BETWEEN 1 AND {max}
    ON CONFLICT DO NOTHING;
"""
_POSTGRES_ROWS = _POSTGRES_CITES + _POSTGRES_NAMES


def _postgres_function(fold: str) -> str:
    rows = _POSTGRES_ROWS.format(row="NEW", source="", source_from="", max=MAX_REFERENCE_CHARS, fold=fold)
    return f"""
CREATE OR REPLACE FUNCTION episode_references_index() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM episode_references
            WHERE group_id = OLD.group_id AND episode_id = OLD.id AND version = OLD.version;
        DELETE FROM reference_names
            WHERE group_id = OLD.group_id AND episode_id = OLD.id AND version = OLD.version;
        RETURN NULL;
    END IF;
    {rows}
    RETURN NULL;
END $$;
"""


POSTGRES_MIGRATION = (
    _TABLES.format(collate=' COLLATE "C"')
    + _POSTGRES_ROWS.format(
        row="e", source="episodes e, ", source_from="FROM episodes e ", max=MAX_REFERENCE_CHARS, fold="lower"
    )
    + _postgres_function("lower")
    + """
CREATE TRIGGER episode_references_index AFTER INSERT OR DELETE ON episodes
    FOR EACH ROW EXECUTE FUNCTION episode_references_index();
"""
)
"""The PostgreSQL migration: the two tables, filled from the stored versions, and their trigger."""

# Name keys folded the same way on both backends (engram.fold), every stored key recomputed.
_REFOLD = "DELETE FROM reference_names;\n"

SQLITE_FOLD_MIGRATION = (
    "DROP TRIGGER episode_references_insert;\n"
    + _sqlite_trigger(SQL_FUNCTION)
    + _REFOLD
    + _SQLITE_NAMES.format(row="e", source="episodes e, ", max=MAX_REFERENCE_CHARS, fold=SQL_FUNCTION)
)
"""The SQLite migration to ``engram_fold`` name keys (the function is registered per connection)."""

POSTGRES_FOLD_MIGRATION = (
    postgres_function()
    + _postgres_function(SQL_FUNCTION)
    + _REFOLD
    + _POSTGRES_NAMES.format(row="e", source="episodes e, ", max=MAX_REFERENCE_CHARS, fold=SQL_FUNCTION)
)
"""The PostgreSQL migration to ``engram_fold`` name keys: the function, the trigger's, the keys."""


def _held_join(alias: str) -> str:
    return (
        f"JOIN episodes e ON e.group_id = {alias}.group_id AND e.id = {alias}.episode_id "
        f"AND e.version = {alias}.version"
    )


def document_references(
    db: Db, group_id: str, document: str, known_at: datetime | None
) -> list[CitedReference]:
    """Return ``document`` and every ``document-v…`` id the held episodes cite (or are part of).

    The caller keeps those whose suffix is a version (engram.nlp.reference_ids.split_reference):
    the range also holds ``document-very-…``.
    """
    clause, params = held(known_at)
    rows = db.rows(
        "SELECT r.reference, count(DISTINCT r.episode_id) AS episodes, min(e.timestamp) AS first_seen, "
        f"max(e.timestamp) AS last_seen FROM episode_references r {_held_join('r')} "
        "WHERE r.group_id = :g AND (r.reference = :document "
        f"OR (r.reference >= :low AND r.reference < :high)) AND {clause} GROUP BY r.reference",
        {"g": group_id, "document": document, "low": f"{document}-v", "high": f"{document}-w", **params},
    )
    return [
        CitedReference(
            str(row["reference"]), int(row["episodes"]), db.time(row["first_seen"]), db.time(row["last_seen"])
        )
        for row in rows
    ]


def episodes_citing(
    db: Db,
    group_id: str,
    references: Sequence[str],
    limit: int,
    after_key: PageKey | None,
    known_at: datetime | None,
) -> list[Episode]:
    """Return held episodes citing (or part of) any of ``references``, newest first, after ``after_key``.

    Read from the references' index rows (a few per document), then each version by primary key.
    """
    clause, params = held(known_at)
    listed, more = db.dialect.in_list("r.reference", "refs", references)
    params |= more | {"g": group_id, "limit": limit}
    after = ""
    if after_key is not None:
        after = " AND (e.timestamp, e.id) < (:key_at, :key_id)"
        params |= {"key_at": after_key.timestamp, "key_id": after_key.id}
    return EPISODE.all(
        db,
        f"SELECT {E} FROM (SELECT DISTINCT r.group_id, r.episode_id, r.version FROM episode_references r "
        f"WHERE r.group_id = :g AND {listed}) c {_held_join('c')} "
        f"WHERE {clause}{after} ORDER BY e.timestamp DESC, e.id DESC LIMIT :limit",
        params,
    )


def references_named(db: Db, group_id: str, name: str, known_at: datetime | None) -> list[tuple[str, str]]:
    """Return (reference id, name as written) for each held episode that wrote ``name`` (folded) for one."""
    clause, params = held(known_at)
    rows = db.rows(
        f"SELECT DISTINCT n.reference, n.name FROM reference_names n {_held_join('n')} "
        f"WHERE n.group_id = :g AND n.name_key = :key AND {clause} ORDER BY n.reference, n.name",
        {"g": group_id, "key": fold(name.strip()), **params},
    )
    return [(str(row["reference"]), str(row["name"])) for row in rows]


def names_of(
    db: Db, group_id: str, references: Sequence[str], known_at: datetime | None
) -> list[tuple[str, str]]:
    """Return (reference id, name as written) for the names held episodes wrote for ``references``."""
    clause, params = held(known_at)
    listed, more = db.dialect.in_list("n.reference", "refs", references)
    rows = db.rows(
        f"SELECT DISTINCT n.reference, n.name FROM reference_names n {_held_join('n')} "
        f"WHERE n.group_id = :g AND {listed} AND {clause} ORDER BY n.reference, n.name",
        {"g": group_id, **params, **more},
    )
    return [(str(row["reference"]), str(row["name"])) for row in rows]
