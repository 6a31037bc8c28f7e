"""Facts about one entity at 100k facts: the store's query against the OR form it replaced.

``find_facts_in`` (SQLite) reads the facts whose subject or object is an entity (what
``GET /v1/entities/{id}`` and ``search_facts`` with ``subject`` ask) as two index lookups.
BASELINE in the same run: the single ``subject = ? OR object = ?`` query it replaced, which
the planner answered by walking the group. Storage: 100,000 current facts about 5,000 entities
(a third with an object entity), inserted directly, then ANALYZE (as PRAGMA optimize does).

Usage: .venv/bin/python bench/facts_by_entity.py [--facts N]
"""

from __future__ import annotations

import argparse
import random
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import apsw
from engram.storage.sqlite.graph import F, fact_filter, find_facts_in

import _common
from engram.storage.open import open_sqlite
from engram.storage.types import FactQuery

INSERT = (
    "INSERT INTO facts (doc, group_id, id, version, subject, predicate, object, value, fact, conditions, "
    "confidence, source_kind, episodes, valid_at, invalid_at, recorded_at, expired_at, status, "
    "superseded_by, operation_id) VALUES (?, 'g', ?, 1, ?, 'LIKES', ?, '1', 'x', '{}', 0.8, 'stated', "
    "'[]', ?, NULL, ?, NULL, 'current', NULL, 'op')"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=100_000)
    args = parser.parse_args()
    _common.print_machine(_common.machine())
    with tempfile.TemporaryDirectory() as tmp:
        store = open_sqlite(Path(tmp) / "engram.db")
        rng = random.Random(3)
        now = datetime.now(UTC).isoformat()

        def load(conn: apsw.Connection) -> None:
            for i in range(args.facts):
                obj = f"en_{rng.randrange(5000)}" if i % 3 == 0 else None
                conn.execute(INSERT, (i + 1, f"fa_{i}", f"en_{rng.randrange(5000)}", obj, now, now))

        store._write(load)
        store._write(lambda conn: conn.execute("ANALYZE"))
        conn = store._connection()

        def single_or(entity: str) -> int:
            clause, params = fact_filter(FactQuery(subject=entity))
            sql = (
                f"SELECT {F} FROM facts f WHERE f.group_id = ? AND {clause} "
                "ORDER BY coalesce(f.valid_at, f.recorded_at) DESC, f.id, f.version LIMIT ?"
            )
            return len(conn.execute(sql, ("g", *params, 200)).fetchall())

        def two_lookups(entity: str) -> int:
            return len(find_facts_in(conn, "facts", "g", FactQuery(subject=entity), 200))

        entities = [f"en_{i}" for i in range(0, 5000, 25)]
        rows = [
            {"query": "subject OR object (BASELINE)", **_common.time_each(single_or, entities)},
            {"query": "two index lookups (find_facts_in)", **_common.time_each(two_lookups, entities)},
        ]
        _common.print_table(
            rows, ["query", "n", "p50", "p95", "p99", "returned"], f"{args.facts:,} facts (ms)"
        )
        store.close()


if __name__ == "__main__":
    main()
