"""Erase one episode, for right-to-erasure requests: the one exception to append-only storage.

Every version of the episode, its full-text, thread-context and vector rows, the facts backed
only by it, the entities only it mentioned, and its id in other facts' provenance and
entities' attributes are deleted or rewritten in place; a fact other episodes still support
but this one worded first is reworded. Afterwards the backend compacts its storage
(``Backend.compact``) so no byte of the content stays on disk.
"""

from __future__ import annotations

from typing import Any

from engram.errors import NotFound
from engram.models.episodes import Operation
from engram.models.history import PurgeReport
from engram.storage.backend import Backend
from engram.storage.episodes import around, lock
from engram.storage.graph import entity, fact_version, remove_mentions, set_names
from engram.storage.history import entities_unmentioned
from engram.storage.rows import insert_operation
from engram.storage.sql import Db, Json
from engram.storage.types import NameKeys, Reword

_FACT_TABLES = ("facts", "archived_facts")


def purge_episode(
    db: Db,
    backend: Backend,
    group_id: str,
    episode_id: str,
    operation: Operation,
    reword: Reword,
    names: NameKeys,
) -> PurgeReport:
    """Delete the episode and what only it supports; record ``operation``. Raises NotFound."""
    key = {"g": group_id, "id": episode_id}
    if not lock(db, group_id, episode_id):
        raise NotFound(f"no episode with id {episode_id!r} in group {group_id!r}", field="id")
    neighbours = around(db, group_id, episode_id)
    versions = int(db.value("SELECT count(*) AS n FROM episodes WHERE group_id = :g AND id = :id", key))
    db.run("DELETE FROM episodes WHERE group_id = :g AND id = :id", key)
    backend.vectors.drop_episode(db, group_id, episode_id)
    backend.fulltext.remove_episode(db, group_id, episode_id)
    backend.fulltext.refresh(db, group_id, neighbours)
    mentioned = {entity for entity, _, _ in remove_mentions(db, group_id, episode_id=episode_id)}
    unmentioned = set[str]().union(
        *(
            entities_unmentioned(db.json(row["details"]), episode_id)
            for row in db.rows(
                "SELECT details FROM operations WHERE group_id = :g AND kind IN ('delete', 'revert')", key
            )
        )
    )
    facts, named = _purge_facts(db, backend, group_id, episode_id, reword)
    entities = _purge_entities(db, backend, group_id, episode_id, mentioned | named | unmentioned, names)
    report = PurgeReport(episode_versions=versions, facts=facts, entities=entities, mentions=len(mentioned))
    insert_operation(db, operation, {"episode": episode_id, **report.model_dump()})
    return report


def _purge_facts(
    db: Db, backend: Backend, group_id: str, episode_id: str, reword: Reword
) -> tuple[int, set[str]]:
    """Delete facts (live or archived) backed only by the episode; drop it from the others' provenance,
    and reword those it worded first.

    Returns (facts deleted, entity ids the deleted facts named).
    """
    deleted: list[str] = []
    named: set[str] = set()
    has = db.dialect.json_array_has("episodes", "ep")
    for table in _FACT_TABLES:
        rows = db.rows(
            f"SELECT id, version, episodes, subject, object FROM {table} WHERE group_id = :g AND id IN "
            f"(SELECT id FROM {table} WHERE group_id = :g AND {has}) ORDER BY id, version",
            {"g": group_id, "ep": episode_id},
        )
        by_fact: dict[str, list[Any]] = {}
        for row in rows:
            by_fact.setdefault(str(row["id"]), []).append(row)
        for fact_id, found in by_fact.items():
            cited = [list(db.json(v["episodes"])) for v in found]
            if all(set(c) <= {episode_id} for c in cited):
                db.run(
                    f"DELETE FROM {table} WHERE group_id = :g AND id = :id", {"g": group_id, "id": fact_id}
                )
                deleted.append(fact_id)
                named |= {str(v[c]) for v in found for c in ("subject", "object") if v[c] is not None}
                continue
            if episode_id in cited[0]:
                _reword(db, backend, table, group_id, fact_id, reword)
            for version, episodes in zip(found, cited, strict=True):
                if episode_id in episodes:
                    db.run(
                        f"UPDATE {table} SET episodes = :e WHERE group_id = :g AND id = :id AND version = :v",
                        {
                            "e": Json([e for e in episodes if e != episode_id]),
                            "g": group_id,
                            "id": fact_id,
                            "v": version["version"],
                        },
                    )
    if deleted:
        backend.vectors.drop_facts(db, group_id, deleted)  # first: SQLite finds them through fact_docs
        backend.fulltext.remove_facts(db, group_id, deleted)
        clause, params = db.dialect.in_list("fact_id", "ids", deleted)
        db.run(f"DELETE FROM fact_hits WHERE group_id = :g AND {clause}", {"g": group_id, **params})
    return len(deleted), named


def _reword(db: Db, backend: Backend, table: str, group_id: str, fact_id: str, reword: Reword) -> None:
    """Give every version of a fact ``reword``'s sentence and index text; drop its vector."""
    fact = fact_version(db, table, group_id, fact_id)
    assert fact is not None
    names = [
        None
        if entity_id is None
        else db.value(
            "SELECT name FROM entities WHERE group_id = :g AND id = :id ORDER BY version DESC LIMIT 1",
            {"g": group_id, "id": entity_id},
        )
        for entity_id in (fact.subject, fact.object)
    ]
    sentence, text = reword(fact, names[0], names[1])
    db.run(
        f"UPDATE {table} SET fact = :s WHERE group_id = :g AND id = :id",
        {"s": sentence, "g": group_id, "id": fact_id},
    )
    backend.fulltext.index_fact(db, fact, text, archived=table == "archived_facts")
    backend.vectors.drop_facts(db, group_id, [fact_id])


def _purge_entities(
    db: Db, backend: Backend, group_id: str, episode_id: str, candidates: set[str], names: NameKeys
) -> int:
    """Delete entities nothing else mentions or names; strip the attributes, aliases and summary
    the episode gave the rest (in every version), and re-index the names they are found by."""
    deleted = 0
    for entity_id in sorted(candidates):
        key = {"g": group_id, "e": entity_id}
        still_used = db.one(
            "SELECT 1 AS used FROM mentions WHERE group_id = :g AND entity_id = :e UNION ALL "
            "SELECT 1 FROM facts WHERE group_id = :g AND subject = :e UNION ALL "
            "SELECT 1 FROM facts WHERE group_id = :g AND object = :e UNION ALL "
            "SELECT 1 FROM archived_facts WHERE group_id = :g AND subject = :e UNION ALL "
            "SELECT 1 FROM archived_facts WHERE group_id = :g AND object = :e LIMIT 1",
            key,
        )
        if still_used is None:
            for table, column in (
                ("entities", "id"),
                ("entity_names", "entity_id"),
                ("merge_candidates", "entity_id"),
                ("merge_candidates", "candidate_id"),
            ):
                db.run(f"DELETE FROM {table} WHERE group_id = :g AND {column} = :e", key)
            backend.vectors.drop_entities(db, group_id, [entity_id])
            deleted += 1
            continue
        for row in db.rows(
            "SELECT version, attributes, aliases, alias_sources, summary_source, episode_id FROM entities "
            "WHERE group_id = :g AND id = :e",
            key,
        ):
            _strip_version(db, row, episode_id, key)
        current = entity(db, group_id, entity_id)
        if current is not None:
            set_names(db, group_id, entity_id, names(current))
    return deleted


def _strip_version(db: Db, row: Any, episode_id: str, key: dict[str, str]) -> None:
    """Take out of one entity version what ``episode_id`` introduced: attributes, aliases, summary."""
    attributes = db.json(row["attributes"])
    kept = {
        name: value
        for name, value in attributes.items()
        if not (isinstance(value, dict) and value.get("episode") == episode_id)
    }
    sources = db.json(row["alias_sources"]) or {}
    dropped = {alias for alias, origin in sources.items() if (origin or {}).get("episode") == episode_id}
    aliases = [alias for alias in db.json(row["aliases"]) if alias not in dropped]
    summary_source = db.json(row["summary_source"])
    clear_summary = bool(summary_source and summary_source.get("episode") == episode_id)
    if kept == attributes and not dropped and not clear_summary and row["episode_id"] != episode_id:
        return
    summary = "summary = NULL, summary_source = NULL, " if clear_summary else ""
    db.run(
        f"UPDATE entities SET attributes = :a, aliases = :al, alias_sources = :s, {summary}"
        "episode_id = CASE WHEN episode_id = :ep THEN NULL ELSE episode_id END "
        "WHERE group_id = :g AND id = :e AND version = :v",
        {
            "a": Json(kept),
            "al": Json(aliases),
            "s": Json({k: v for k, v in sources.items() if k not in dropped}),
            "ep": episode_id,
            "v": row["version"],
            **key,
        },
    )
