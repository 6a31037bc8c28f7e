"""The knowledge graph in SQL, written once: entity and fact versions, names, mentions, candidates.

Rows are append-only versions: putting version n+1 closes version n (``expired_at``,
``expired_by``). Live facts are in ``facts``, archived ones in ``archived_facts`` (same
columns plus when and by which operation they moved); both are read by ``find_facts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from engram.models.graph import Entity, Fact
from engram.nlp.names import normalise_name
from engram.storage.backend import FullText
from engram.storage.episodes import check_nul, close_version
from engram.storage.rows import ENTITIES, ENTITY, FACT, FACTS, MENTIONS, F, N, candidate_from
from engram.storage.sql import Db, Json
from engram.storage.types import FactQuery, MergeCandidate

RECENT_MENTIONS = 200
"""Most recent mentions of an entity whose threads count as its context."""
_NAMED = (
    f"SELECT {N} FROM entities n WHERE n.group_id = :g AND n.expired_at IS NULL AND n.id IN "
    "(SELECT m.entity_id FROM entity_names m WHERE m.group_id = :g"
)
"""Current entities found by their names (the caller adds its match on ``m.name_key`` and ``)``)."""


def _current_of(alias: str, known_at: datetime | None) -> tuple[str, dict[str, Any]]:
    """Return the clause picking the versions held at ``known_at`` (the current ones when None)."""
    if known_at is None:
        return f"{alias}.expired_at IS NULL", {}
    return (
        f"{alias}.recorded_at <= :known_at AND ({alias}.expired_at IS NULL OR {alias}.expired_at > "
        ":known_at)",
        {"known_at": known_at},
    )


def fact_filter(query: FactQuery) -> tuple[str, dict[str, Any]]:
    """Return the clause (alias ``f``) and parameters selecting the facts ``query`` asks for."""
    clause, params = _current_of("f", query.known_at)
    if query.as_of is not None:
        clause += (
            " AND (f.valid_at IS NULL OR f.valid_at <= :as_of) AND (f.invalid_at IS NULL OR f.invalid_at > "
            ":as_of)"
            " AND f.status != 'retracted'"
        )
        params["as_of"] = query.as_of
    elif not query.include_history:
        clause += " AND f.status IN ('current', 'disputed')"
    if query.subject is not None:
        clause += " AND (f.subject = :about OR f.object = :about)"
        params["about"] = query.subject
    if query.predicate is not None:
        clause += " AND f.predicate = :predicate"
        params["predicate"] = query.predicate
    return clause, params


# -- entities -------------------------------------------------------------------------------------


def entities_named(db: Db, group_id: str, name_keys: Sequence[str]) -> list[Entity]:
    """Return current entities whose normalised name or alias is one of ``name_keys``, by id."""
    found = {entity.id: entity for _, entity in entities_by_name(db, group_id, name_keys)}
    return sorted(found.values(), key=lambda entity: entity.id)  # here: SQLite's ORDER BY made it 3× slower


def entities_by_name(db: Db, group_id: str, name_keys: Sequence[str]) -> list[tuple[str, Entity]]:
    """Return (name key, current entity) for every entity found by one of ``name_keys``: one
    pair per key that finds it."""
    if not name_keys:
        return []
    clause, params = db.dialect.in_list("m.name_key", "keys", list(dict.fromkeys(name_keys)))
    # CROSS JOIN: SQLite reads the names first, each key through the primary key's index (which
    # it would not for a long list of keys in a small group), not the group's entities.
    names = f"entity_names m{db.dialect.indexed_by('sqlite_autoindex_entity_names_1')}"
    rows = db.tuples(
        f"SELECT {N}, m.name_key FROM {names} CROSS JOIN entities n WHERE m.group_id = :g "
        f"AND {clause} AND n.group_id = :g AND n.id = m.entity_id AND n.expired_at IS NULL",
        {"g": group_id, **params},
    )
    return [(str(row[-1]), ENTITY(db, row)) for row in rows]


def names_of_type(db: Db, group_id: str, type_: str, limit: int) -> list[tuple[str, datetime, list[str]]]:
    """Return (id, last_seen, [name, *aliases]) of up to ``limit`` current entities of a type, most
    recently seen first (names only: resolution compares them all and reads the few that match)."""
    rows = db.tuples(
        "SELECT n.id, n.last_seen, n.name, n.aliases FROM entities n WHERE n.group_id = :g "
        "AND n.type = :type AND n.expired_at IS NULL ORDER BY n.last_seen DESC, n.id LIMIT :limit",
        {"g": group_id, "type": type_, "limit": limit},
    )
    time, decode = db.dialect.decode_time, db.dialect.decode_json
    return [(str(id_), time(seen), [str(name), *decode(aliases)]) for id_, seen, name, aliases in rows]


def entity(db: Db, group_id: str, entity_id: str, known_at: datetime | None = None) -> Entity | None:
    """Return an entity as held now (or at ``known_at``)."""
    clause, params = _current_of("n", known_at)
    # One version is current; the newest wins should a past time match two (ORDER BY costs 3×).
    latest = "" if known_at is None else " ORDER BY n.version DESC LIMIT 1"
    return ENTITY.one(
        db,
        f"SELECT {N} FROM entities n WHERE n.group_id = :g AND n.id = :id AND {clause}{latest}",
        {"g": group_id, "id": entity_id, **params},
    )


def entity_names(db: Db, group_id: str, entity_ids: Sequence[str]) -> dict[str, str]:
    """Return the current name of each of ``entity_ids`` that is current (one query, no models)."""
    if not entity_ids:
        return {}
    clause, params = db.dialect.in_list("id", "ids", list(dict.fromkeys(entity_ids)))
    rows = db.tuples(
        f"SELECT id, name FROM entities WHERE group_id = :g AND expired_at IS NULL AND {clause}",
        {"g": group_id, **params},
    )
    return {str(entity_id): str(name) for entity_id, name in rows}


def entity_versions(db: Db, group_id: str, entity_id: str) -> list[Entity]:
    """Return every version of an entity, oldest first."""
    return ENTITY.all(
        db,
        f"SELECT {N} FROM entities n WHERE n.group_id = :g AND n.id = :id ORDER BY n.version",
        {"g": group_id, "id": entity_id},
    )


def recent_threads(db: Db, group_id: str, entity_id: str) -> set[str]:
    """Return the threads of the entity's most recent RECENT_MENTIONS mentions (enough evidence).

    Reads every mention of the entity (recent by the episodes' stored order: a client may choose
    episode ids that do not sort by time), so resolution asks only when the context can decide.
    """
    params = {"g": group_id, "e": entity_id, "n": RECENT_MENTIONS}
    threads = db.rows(
        "SELECT DISTINCT thread FROM (SELECT d.thread FROM mentions m "
        f"{db.dialect.cross_join} episode_docs d ON d.group_id = m.group_id AND d.id = m.episode_id "
        "WHERE m.group_id = :g AND m.entity_id = :e AND d.thread IS NOT NULL "
        f"ORDER BY {db.dialect.stored_order(descending=True)} LIMIT :n) t",
        params,
    )
    return {str(r["thread"]) for r in threads}


def thread_entities(db: Db, group_id: str, thread: str) -> list[str]:
    """Return the entities mentioned in the thread's RECENT_MENTIONS latest episodes (by time)."""
    rows = db.rows(
        "SELECT DISTINCT m.entity_id FROM (SELECT d.id FROM episode_docs d WHERE d.group_id = :g "
        "AND d.thread = :t ORDER BY d.timestamp DESC, d.id DESC LIMIT :n) d "
        "JOIN mentions m ON m.group_id = :g AND m.episode_id = d.id ORDER BY m.entity_id",
        {"g": group_id, "t": thread, "n": RECENT_MENTIONS},
    )
    return [str(r["entity_id"]) for r in rows]


def put_entity(db: Db, entity: Entity, name_keys: Sequence[str] | None) -> None:
    """Store an entity version (closing the previous one) and index its names (None: the names
    the previous version is found by stay, as when only its last sighting moved)."""
    check_nul("entities", entity.name, entity.aliases, entity.attributes, entity.summary, entity.type)
    with db.pipeline():
        if entity.version > 1:  # a first version has none to close
            close_version(db, "entities", entity.group_id, entity.id, entity.recorded_at, entity.operation_id)
        db.run(ENTITIES.insert, ENTITIES.params(entity))
        if name_keys is not None:
            set_names(db, entity.group_id, entity.id, name_keys)


def set_names(db: Db, group_id: str, entity_id: str, name_keys: Sequence[str]) -> None:
    """Replace the normalised names an entity is found by."""
    db.run("DELETE FROM entity_names WHERE group_id = :g AND entity_id = :e", {"g": group_id, "e": entity_id})
    db.run_many(
        "INSERT INTO entity_names (group_id, name_key, entity_id) VALUES (:g, :k, :e) ON CONFLICT DO NOTHING",
        [{"g": group_id, "k": key, "e": entity_id} for key in dict.fromkeys(name_keys)],
    )


def close_entity(db: Db, group_id: str, entity_id: str, at: datetime, operation_id: str) -> None:
    """End an entity's current version (merged away by ``operation_id``); forget its names."""
    with db.pipeline():
        close_version(db, "entities", group_id, entity_id, at, operation_id)
        set_names(db, group_id, entity_id, [])


def search_entities(
    db: Db, group_id: str, name_keys: Sequence[str], types: Sequence[str], limit: int
) -> list[Entity]:
    """Return current entities whose names contain a key, of ``types`` (all if empty), recent first.

    Keys are normalised here as stored names are (``normalise_name``: NFKC, Unicode case folding,
    punctuation and ``_`` as spaces), so matching does not rest on SQL's case folding, which is
    ASCII-only in SQLite and the locale's in PostgreSQL.
    """
    name_keys = [key for key in dict.fromkeys(normalise_name(k) for k in name_keys) if key]
    if not name_keys:
        return []
    likes = " OR ".join(f"m.name_key {db.dialect.ilike} :k{i}" for i in range(len(name_keys)))
    params: dict[str, Any] = {"g": group_id, "limit": limit}
    params |= {f"k{i}": f"%{key}%" for i, key in enumerate(name_keys)}
    type_clause = ""
    if types:
        type_clause, more = db.dialect.in_list("n.type", "types", types)
        type_clause, params = f" AND {type_clause}", params | more
    return ENTITY.all(
        db, f"{_NAMED} AND ({likes})){type_clause} ORDER BY n.last_seen DESC, n.id LIMIT :limit", params
    )


# -- facts ----------------------------------------------------------------------------------------


def facts_about(db: Db, group_id: str, subjects: Sequence[str], predicates: Sequence[str]) -> list[Fact]:
    """Return the current and disputed facts with one of ``subjects`` and one of ``predicates``."""
    about, params = db.dialect.in_list("f.subject", "s", list(dict.fromkeys(subjects)))
    clause, more = db.dialect.in_list("f.predicate", "p", list(dict.fromkeys(predicates)))
    return FACT.all(
        db,
        f"SELECT {F} FROM facts f WHERE f.group_id = :g AND {about} AND {clause} "
        "AND f.expired_at IS NULL AND f.status IN ('current', 'disputed') ORDER BY f.id",
        {"g": group_id, **params, **more},
    )


def facts_superseded_by(db: Db, group_id: str, fact_id: str) -> list[Fact]:
    """Return the current versions of the live facts whose successor is ``fact_id`` (a scan of the
    group's facts: retractions only)."""
    return FACT.all(
        db,
        f"SELECT {F} FROM facts f WHERE f.group_id = :g AND f.superseded_by = :id AND f.expired_at IS NULL "
        "ORDER BY f.id",
        {"g": group_id, "id": fact_id},
    )


def facts_touching(db: Db, group_id: str, entity_id: str) -> list[Fact]:
    """Return every current fact whose subject or object is the entity (any status)."""
    union, params = _either_side(db, "facts", FactQuery(include_history=True, subject=entity_id))
    return FACT.all(db, f"{union} ORDER BY id", {"g": group_id, **params})


def put_fact(db: Db, fulltext: FullText, fact: Fact, index_text: str) -> None:
    """Store a fact version (closing the previous one) and index ``index_text``."""
    check_nul("facts", fact.fact, fact.value, fact.conditions, fact.predicate, fact.episodes)
    with db.pipeline():
        if fact.version > 1:  # a first version has none to close
            close_version(db, "facts", fact.group_id, fact.id, fact.recorded_at, fact.operation_id)
        fulltext.put_fact(db, FACTS.insert, FACTS.params(fact), fact, index_text)


def fact_version(db: Db, table: str, group_id: str, fact_id: str, version: int | None = None) -> Fact | None:
    """Return one version of a fact in ``table`` (facts, archived_facts); the latest when None."""
    which = "AND f.version = :v" if version is not None else ""
    return FACT.one(
        db,
        f"SELECT {F} FROM {table} f WHERE f.group_id = :g AND f.id = :id {which} ORDER BY f.version DESC "
        "LIMIT 1",
        {"g": group_id, "id": fact_id, "v": version},
    )


def find_facts(db: Db, table: str, group_id: str, query: FactQuery, limit: int) -> list[Fact]:
    """Return fact versions of ``table`` (facts or archived_facts) matching ``query``, newest first."""
    order = "ORDER BY coalesce(valid_at, recorded_at) DESC, id, version LIMIT :limit"
    if query.subject is None:
        clause, params = fact_filter(query)
        sql = f"SELECT {F} FROM {table} f WHERE f.group_id = :g AND {clause} {order}"
        return FACT.all(db, sql, {"g": group_id, "limit": limit, **params})
    union, params = _either_side(db, table, query)
    return FACT.all(db, f"{union} {order}", {"g": group_id, "limit": limit, **params})


def _either_side(db: Db, table: str, query: FactQuery) -> tuple[str, dict[str, Any]]:
    """Return the facts of ``table`` matching ``query`` whose subject or object is ``query.subject``
    (``SELECT * FROM (…) u``, to order), and its parameters.

    Two index lookups (as subject, as object): SQLite answered the OR of both, or the object
    side alone (most facts have no object, which skews its statistics), by walking every fact
    of the group (docs/decisions.md §15).
    """
    clause, params = fact_filter(replace(query, subject=None))
    sides = [
        f"SELECT {F} FROM {table} f{_side_index(db, table, side, query)} WHERE f.group_id = :g "
        f"AND f.{side} = :about AND {clause}"
        for side in ("subject", "object")
    ]
    return f"SELECT * FROM ({sides[0]} UNION {sides[1]}) u", {"about": query.subject, **params}


def _side_index(db: Db, table: str, side: str, query: FactQuery) -> str:
    """Return the hint that serves ``side = :about`` in ``table``, or "" when none can."""
    if table == "archived_facts":
        return db.dialect.indexed_by(f"archived_facts_{side}")
    return db.dialect.indexed_by(f"facts_current_{side}") if query.known_at is None else ""


def disputed_facts(db: Db, group_id: str, limit: int) -> list[Fact]:
    """Return up to ``limit`` current disputed facts, grouped by subject and predicate."""
    return FACT.all(
        db,
        f"SELECT {F} FROM facts f WHERE f.group_id = :g AND f.expired_at IS NULL AND f.status = 'disputed' "
        "ORDER BY f.subject, f.predicate, f.id LIMIT :limit",
        {"g": group_id, "limit": limit},
    )


def count_disputed(db: Db, group_id: str) -> int:
    """Return how many facts of the group are disputed now."""
    return int(
        db.value(
            "SELECT count(*) AS n FROM facts WHERE group_id = :g AND expired_at IS NULL AND status = "
            "'disputed'",
            {"g": group_id},
        )
    )


def facts_citing(db: Db, group_id: str, episode_id: str) -> list[Fact]:
    """Return the current version of every fact whose provenance includes the episode."""
    return FACT.all(
        db,
        f"SELECT {F} FROM facts f WHERE f.group_id = :g AND f.expired_at IS NULL "
        f"AND {db.dialect.json_array_has('f.episodes', 'ep')} ORDER BY f.id",
        {"g": group_id, "ep": episode_id},
    )


# -- mentions and candidates ----------------------------------------------------------------------


def episodes_mentioning(db: Db, group_id: str, entity_ids: Sequence[str], limit: int) -> list[str]:
    """Return ids of episodes that mention any of the entities, newest first."""
    if not entity_ids:
        return []
    clause, params = db.dialect.in_list("m.entity_id", "entities", entity_ids)
    rows = db.rows(
        "SELECT DISTINCT m.episode_id, d.timestamp FROM mentions m "
        f"{db.dialect.cross_join} episode_docs d ON d.group_id = m.group_id AND d.id = m.episode_id "
        f"WHERE m.group_id = :g AND {clause} ORDER BY d.timestamp DESC, m.episode_id DESC LIMIT :limit",
        {"g": group_id, "limit": limit, **params},
    )
    return [str(row["episode_id"]) for row in rows]


def mentioned_entities(db: Db, group_id: str, episode_id: str) -> list[str]:
    """Return the ids of entities an episode mentions."""
    rows = db.rows(
        "SELECT entity_id FROM mentions WHERE group_id = :g AND episode_id = :ep ORDER BY entity_id",
        {"g": group_id, "ep": episode_id},
    )
    return [str(row["entity_id"]) for row in rows]


def add_mentions(
    db: Db, group_id: str, episode_id: str, entity_ids: Sequence[str], operation_id: str
) -> None:
    """Record that an episode mentions these entities (added by ``operation_id``)."""
    db.run_many(
        MENTIONS.insert + " ON CONFLICT DO NOTHING",
        [
            {"group_id": group_id, "entity_id": e, "episode_id": episode_id, "operation_id": operation_id}
            for e in dict.fromkeys(entity_ids)
        ],
    )


def remove_mentions(
    db: Db, group_id: str, *, operation_id: str | None = None, episode_id: str | None = None
) -> list[tuple[str, str, str | None]]:
    """Delete the mentions an operation added, or an episode's; return (entity, episode, operation)."""
    column, value = ("operation_id", operation_id) if operation_id is not None else ("episode_id", episode_id)
    rows = db.rows(
        f"DELETE FROM mentions WHERE group_id = :g AND {column} = :v RETURNING entity_id, episode_id, "
        "operation_id",
        {"g": group_id, "v": value},
    )
    return sorted((str(r["entity_id"]), str(r["episode_id"]), r["operation_id"]) for r in rows)


def add_merge_candidate(db: Db, group_id: str, candidate: MergeCandidate) -> None:
    """Record (or refresh) a possible duplicate for review."""
    db.run(
        "INSERT INTO merge_candidates (group_id, entity_id, candidate_id, score, parts, created_at) "
        "VALUES (:g, :e, :c, :score, :parts, :at) ON CONFLICT (group_id, entity_id, candidate_id) "
        "DO UPDATE SET score = excluded.score, parts = excluded.parts, created_at = excluded.created_at",
        {
            "g": group_id,
            "e": candidate.entity_id,
            "c": candidate.candidate_id,
            "score": candidate.score,
            "parts": Json(candidate.parts),
            "at": candidate.created_at,
        },
    )


def merge_candidates(db: Db, group_id: str) -> list[MergeCandidate]:
    """Return the recorded merge candidates, best score first."""
    rows = db.rows(
        "SELECT * FROM merge_candidates WHERE group_id = :g ORDER BY score DESC, entity_id, candidate_id",
        {"g": group_id},
    )
    return [candidate_from(db, row) for row in rows]
