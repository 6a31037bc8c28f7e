"""Facts about one entity at 100k facts: the store's query against the OR form it replaced.

``SQLStorage.find_facts`` reads the facts whose subject or object is an entity (what
``GET /v1/entities/{id}`` and ``search_facts`` with ``subject`` ask) as two index lookups.
BASELINE in the same run: the single ``subject = ? OR object = ?`` query it replaced, which
the planner answered by walking the group. Storage: 100,000 current facts about 5,000 entities
(a third with an object entity), stored in one ``SQLStorage.write`` transaction, then ANALYZE.

Usage: .venv/bin/python bench/facts_by_entity.py [--facts N]
"""

from __future__ import annotations

import argparse
import random
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import _common
from engram.models.graph import Fact
from engram.storage.graph import fact_filter
from engram.storage.open import open_sqlite
from engram.storage.rows import F
from engram.storage.txn import Txn
from engram.storage.types import FactQuery


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=100_000)
    args = parser.parse_args()
    _common.print_machine(_common.machine())
    with tempfile.TemporaryDirectory() as tmp:
        store = open_sqlite(Path(tmp) / "engram.db")
        rng = random.Random(3)
        now = datetime.now(UTC)

        def load(txn: Txn) -> None:
            for i in range(args.facts):
                obj = f"en_{rng.randrange(5000)}" if i % 3 == 0 else None
                fact = Fact(
                    id=f"fa_{i}",
                    group_id="g",
                    version=1,
                    subject=f"en_{rng.randrange(5000)}",
                    predicate="LIKES",
                    object=obj,
                    value=1,
                    fact="x",
                    confidence=0.8,
                    source_kind="stated",
                    episodes=[],
                    valid_at=now,
                    recorded_at=now,
                    operation_id="op",
                )
                txn.put_fact(fact, "x")

        store.write(load)
        # The store refreshes statistics with a bounded PRAGMA optimize; a full ANALYZE (as the
        # earlier runs of this bench did) makes the figures comparable with theirs.
        store._backend.write(lambda db: db.run("ANALYZE"))

        def single_or(entity: str) -> int:
            clause, params = fact_filter(FactQuery(subject=entity))
            sql = (
                f"SELECT {F} FROM facts f WHERE f.group_id = :g AND {clause} "
                "ORDER BY coalesce(f.valid_at, f.recorded_at) DESC, f.id, f.version LIMIT :limit"
            )
            # The baseline is SQL the store no longer runs: read through the backend's connection.
            with store._backend.read() as db:
                return len(db.rows(sql, {"g": "g", "limit": 200, **params}))

        def two_lookups(entity: str) -> int:
            return len(store.find_facts("g", FactQuery(subject=entity), 200))

        entities = [f"en_{i}" for i in range(0, 5000, 25)]
        rows = [
            {"query": "subject OR object (BASELINE)", **_common.time_each(single_or, entities)},
            {"query": "two index lookups (find_facts)", **_common.time_each(two_lookups, entities)},
        ]
        _common.print_table(
            rows, ["query", "n", "p50", "p95", "p99", "returned"], f"{args.facts:,} facts (ms)"
        )
        store.close()


if __name__ == "__main__":
    main()
