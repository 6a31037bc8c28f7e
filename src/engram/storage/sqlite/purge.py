"""Erase one episode from an SQLite store, for right-to-erasure requests (issue #5).

The one exception to append-only storage: every version of the episode, its full-text,
thread-context and vector rows, the facts backed only by it, the entities only it
mentioned, and its id in other facts' provenance and entities' attributes are deleted or
rewritten in place. Afterwards ``compact`` merges the full-text indexes (FTS5 keeps deleted
terms in its segments until they are merged), rebuilds the file and empties the WAL: no byte
of the content stays on disk.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import apsw

from engram.errors import NotFound
from engram.models.episodes import Operation
from engram.storage.history_base import PurgeReport, Reword, entities_unmentioned
from engram.storage.sqlite.fulltext import neighbours, reindex
from engram.storage.sqlite.graph import FACT_COLUMNS, fact_from_row
from engram.storage.sqlite.rows import insert_operation, scalar


def purge_episode(
    conn: apsw.Connection, group_id: str, episode_id: str, operation: Operation, reword: Reword
) -> PurgeReport:
    """Delete the episode and what only it supports; record ``operation``. Raises NotFound."""
    doc = scalar(conn, "SELECT doc FROM episode_docs WHERE group_id = ? AND id = ?", (group_id, episode_id))
    if doc is None:
        raise NotFound(f"no episode with id {episode_id!r} in group {group_id!r}", field="id")
    around = [d for d, _ in neighbours(conn, int(doc))]
    versions = int(scalar(conn, "SELECT count(*) FROM episodes WHERE doc = ?", (doc,)))
    conn.execute("DELETE FROM episodes WHERE doc = ?", (doc,))
    conn.execute("DELETE FROM episode_vectors WHERE doc = ?", (doc,))
    conn.execute("DELETE FROM episodes_fts WHERE rowid = ?", (doc,))
    conn.execute("DELETE FROM episode_docs WHERE doc = ?", (doc,))
    reindex(conn, around)
    mentioned = {
        str(row[0])
        for row in conn.execute(
            "DELETE FROM mentions WHERE group_id = ? AND episode_id = ? RETURNING entity_id",
            (group_id, episode_id),
        ).fetchall()
    }
    unmentioned = set[str]().union(
        *(
            entities_unmentioned(json.loads(str(row[0])), episode_id)
            for row in conn.execute(
                "SELECT details FROM operations WHERE group_id = ? AND kind IN ('delete', 'revert') "
                "AND instr(details, ?) > 0",
                (group_id, episode_id),
            ).fetchall()
        )
    )
    facts, touched = _purge_facts(conn, group_id, episode_id, reword)
    entities = _purge_entities(conn, group_id, episode_id, mentioned | touched | unmentioned)
    report = PurgeReport(episode_versions=versions, facts=facts, entities=entities, mentions=len(mentioned))
    insert_operation(conn, operation, {"episode": episode_id, **asdict(report)})
    return report


def _purge_facts(
    conn: apsw.Connection, group_id: str, episode_id: str, reword: Reword
) -> tuple[int, set[str]]:
    """Delete facts (live or archived) backed only by the episode; drop it from the others' provenance,
    and reword those it worded first.

    Returns (facts deleted, entity ids the deleted facts named).
    """
    deleted, named = 0, set[str]()
    for table, index in (("facts", "facts_fts"), ("archived_facts", "archived_facts_fts")):
        rows = conn.execute(
            f"SELECT id, version, doc, episodes, subject, object FROM {table} WHERE group_id = ? AND id IN "
            f"(SELECT id FROM {table} WHERE group_id = ? "
            f"AND EXISTS (SELECT 1 FROM json_each({table}.episodes) WHERE value = ?))",
            (group_id, group_id, episode_id),
        ).fetchall()
        by_fact: dict[str, list[Any]] = {}
        for row in rows:
            by_fact.setdefault(str(row[0]), []).append(row)
        for fact_id, versions in by_fact.items():
            if all(set(json.loads(str(v[3]))) <= {episode_id} for v in versions):
                conn.execute(f"DELETE FROM {table} WHERE group_id = ? AND id = ?", (group_id, fact_id))
                conn.execute(f"DELETE FROM {index} WHERE rowid = ?", (versions[0][2],))
                conn.execute("DELETE FROM fact_vectors WHERE doc = ?", (versions[0][2],))
                conn.execute("DELETE FROM fact_hits WHERE group_id = ? AND fact_id = ?", (group_id, fact_id))
                named |= {str(v[i]) for v in versions for i in (4, 5) if v[i] is not None}
                deleted += 1
                continue
            first = min(versions, key=lambda v: int(v[1]))
            if episode_id in json.loads(str(first[3])):
                _reword(conn, table, index, group_id, fact_id, int(versions[0][2]), reword)
            for version in versions:
                cited = json.loads(str(version[3]))
                if episode_id in cited:
                    conn.execute(
                        f"UPDATE {table} SET episodes = ? WHERE group_id = ? AND id = ? AND version = ?",
                        (json.dumps([e for e in cited if e != episode_id]), group_id, fact_id, version[1]),
                    )
    return deleted, named


def _reword(
    conn: apsw.Connection, table: str, index: str, group_id: str, fact_id: str, doc: int, reword: Reword
) -> None:
    """Give every version of a fact ``reword``'s sentence and index text; drop its vector."""
    row = conn.execute(
        f"SELECT {FACT_COLUMNS} FROM {table} WHERE group_id = ? AND id = ? ORDER BY version DESC LIMIT 1",
        (group_id, fact_id),
    ).fetchone()
    assert row is not None
    fact = fact_from_row(row)
    names = [
        None
        if entity_id is None
        else scalar(
            conn,
            "SELECT name FROM entities WHERE group_id = ? AND id = ? ORDER BY version DESC LIMIT 1",
            (group_id, entity_id),
        )
        for entity_id in (fact.subject, fact.object)
    ]
    sentence, text = reword(fact, names[0], names[1])
    conn.execute(f"UPDATE {table} SET fact = ? WHERE group_id = ? AND id = ?", (sentence, group_id, fact_id))
    conn.execute(f"DELETE FROM {index} WHERE rowid = ?", (doc,))
    conn.execute(f"INSERT INTO {index} (rowid, text) VALUES (?, ?)", (doc, text))
    conn.execute("DELETE FROM fact_vectors WHERE doc = ?", (doc,))


def _purge_entities(conn: apsw.Connection, group_id: str, episode_id: str, candidates: set[str]) -> int:
    """Delete entities nothing else mentions or names; strip attributes the episode gave the rest."""
    deleted = 0
    for entity_id in sorted(candidates):
        still_used = scalar(
            conn,
            "SELECT 1 FROM mentions WHERE group_id = ? AND entity_id = ? UNION ALL "
            "SELECT 1 FROM facts WHERE group_id = ? AND subject = ? UNION ALL "
            "SELECT 1 FROM facts WHERE group_id = ? AND object = ? UNION ALL "
            "SELECT 1 FROM archived_facts WHERE group_id = ? AND subject = ? UNION ALL "
            "SELECT 1 FROM archived_facts WHERE group_id = ? AND object = ? LIMIT 1",
            (group_id, entity_id) * 5,
        )
        if still_used is None:
            for table, column in (
                ("entities", "id"),
                ("entity_names", "entity_id"),
                ("entity_vectors", "entity_id"),
                ("merge_candidates", "entity_id"),
                ("merge_candidates", "candidate_id"),
            ):
                conn.execute(
                    f"DELETE FROM {table} WHERE group_id = ? AND {column} = ?", (group_id, entity_id)
                )
            deleted += 1
            continue
        for version, attributes in conn.execute(
            "SELECT version, attributes FROM entities WHERE group_id = ? AND id = ?", (group_id, entity_id)
        ).fetchall():
            kept = {
                key: value
                for key, value in json.loads(str(attributes)).items()
                if not (isinstance(value, dict) and value.get("episode") == episode_id)
            }
            conn.execute(
                "UPDATE entities SET attributes = ? WHERE group_id = ? AND id = ? AND version = ?",
                (json.dumps(kept, ensure_ascii=False), group_id, entity_id, version),
            )
    return deleted


def compact(conn: apsw.Connection) -> None:
    """Merge the full-text indexes (dropping deleted terms), rewrite the file, empty the WAL.

    Pages keep the bytes of rows deleted or rewritten earlier (an update of ``expired_at``
    moves a row and leaves its old copy in free space), so only VACUUM, which rebuilds the
    file, guarantees no copy of the content remains. Run outside a transaction. Cost:
    proportional to the store's size (measured in bench/RESULTS.md, "Purge").
    """
    for table in ("episodes_fts", "facts_fts", "archived_facts_fts"):
        conn.execute(f"INSERT INTO {table} ({table}) VALUES ('optimize')")
    conn.execute("VACUUM")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
