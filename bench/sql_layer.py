"""What the one SQL layer costs on the hot reads, beside raw apsw and SQLAlchemy Core, in one run.

The same SQLite file (``--episodes`` episodes in one group, written through Engram) is read
four ways:

- ``engram``: ``SQLStorage.get_episode`` / ``list_episodes`` (named parameters through the
  dialect, rows as tuples, the shared reader building ``Episode`` models);
- ``apsw positional``: the same SQL with positional parameters and tuple rows decoded by
  position into ``Episode`` models, as the store before the shared layer did (the baseline);
- ``apsw tuples``: the same, without building models (the floor: the database alone);
- ``sqlalchemy core``: a Core ``select()`` of the same table on SQLAlchemy's SQLite dialect
  (stdlib sqlite3 driver: SQLAlchemy has no apsw dialect), its rows decoded by the shared
  reader into ``Episode`` models.

``get`` reads one episode by primary key; ``list`` reads the newest 50 of the group. Usage:
``.venv/bin/python bench/sql_layer.py [--episodes 10000] [--repeat 2000]`` (SQLAlchemy is not
an Engram dependency: ``pip install sqlalchemy`` into the venv first, else its rows are skipped).
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import apsw

from _common import machine, print_machine
from engram.models.episodes import Actor, Episode, EpisodeFilters, Operation
from engram.storage.open import open_sqlite
from engram.storage.rows import EPISODE, EPISODES
from engram.storage.sqlite.backend import SQLiteDb
from engram.storage.types import NewEpisode


def _positional(row: tuple) -> Episode:
    """Decode a row by position, as the store before the shared SQL layer did."""
    actor = None if row[9] is None else Actor(type=row[8], id=row[9], name=row[10])
    return Episode.model_construct(
        group_id=row[0],
        id=row[1],
        version=row[2],
        timestamp=datetime.fromisoformat(row[3]),
        recorded_at=datetime.fromisoformat(row[4]),
        expired_at=None if row[5] is None else datetime.fromisoformat(row[5]),
        source=row[6],
        source_type=row[7],
        actor=actor,
        intent=row[11],
        content=row[12],
        metadata=json.loads(row[13]),
        references=json.loads(row[14]),
        fingerprint=row[15],
        status=row[16],
        operation_id=row[17],
    )


def _build(path: Path, count: int) -> list[str]:
    store = open_sqlite(path)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    ids = []
    for chunk in range(0, count, 1000):
        items = []
        for i in range(chunk, min(chunk + 1000, count)):
            at = start + timedelta(minutes=i)
            episode = Episode(
                id=f"e{i}",
                group_id="g",
                version=1,
                timestamp=at,
                recorded_at=at,
                source_type="text",
                content=f"episode number {i} about budgets and meetings",
                metadata={"n": i},
                fingerprint=f"f{i}",
                operation_id="op_bench",
            )
            items.append(NewEpisode(episode, episode.content, True, None))
            ids.append(episode.id)
        store.insert_episodes(items, Operation.begin("g", "import", "bench", at=start))
    store.close()
    return ids


def _time(fn: Callable[[], object], repeat: int) -> float:
    """Return the median microseconds of ``fn`` over ``repeat`` calls (after a warm-up)."""
    for _ in range(20):
        fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e6)
    samples.sort()
    return samples[len(samples) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    print_machine(machine())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "engram.db"
        ids = _build(path, args.episodes)
        rng = random.Random(1)
        store = open_sqlite(path)
        columns = ", ".join(EPISODES.columns)
        conn = apsw.Connection(str(path))
        get_sql = f"SELECT {columns} FROM episodes WHERE group_id = ? AND id = ? AND expired_at IS NULL"
        list_sql = (
            f"SELECT {columns} FROM episodes WHERE group_id = ? AND expired_at IS NULL "
            "ORDER BY timestamp DESC, id DESC LIMIT 50"
        )
        results: dict[str, dict[str, float]] = {
            "engram": {
                "get": _time(lambda: store.get_episode("g", rng.choice(ids)), args.repeat),
                "list": _time(lambda: store.list_episodes("g", EpisodeFilters(), 50), args.repeat),
            },
            "apsw positional": {
                "get": _time(
                    lambda: [_positional(r) for r in conn.execute(get_sql, ("g", rng.choice(ids)))],
                    args.repeat,
                ),
                "list": _time(lambda: [_positional(r) for r in conn.execute(list_sql, ("g",))], args.repeat),
            },
            "apsw tuples": {
                "get": _time(lambda: conn.execute(get_sql, ("g", rng.choice(ids))).fetchall(), args.repeat),
                "list": _time(lambda: conn.execute(list_sql, ("g",)).fetchall(), args.repeat),
            },
        }
        try:
            import sqlalchemy as sa
        except ImportError:
            print("sqlalchemy not installed: pip install sqlalchemy to compare it")
        else:
            engine = sa.create_engine("sqlite://", creator=lambda: sqlite3.connect(str(path)))
            table = sa.Table("episodes", sa.MetaData(), *(sa.Column(c) for c in EPISODES.columns))
            read = [table.c[c] for c in EPISODE.at]  # the shared reader's columns, in its order
            codec = SQLiteDb(conn)  # decodes times and JSON as the SQLite backend does
            with engine.connect() as connection:

                def get() -> object:
                    stmt = sa.select(*read).where(
                        table.c.group_id == "g", table.c.id == rng.choice(ids), table.c.expired_at.is_(None)
                    )
                    return [EPISODE(codec, r) for r in connection.execute(stmt)]

                def newest() -> object:
                    stmt = (
                        sa.select(*read)
                        .where(table.c.group_id == "g", table.c.expired_at.is_(None))
                        .order_by(table.c.timestamp.desc(), table.c.id.desc())
                        .limit(50)
                    )
                    return [EPISODE(codec, r) for r in connection.execute(stmt)]

                results["sqlalchemy core"] = {
                    "get": _time(get, args.repeat),
                    "list": _time(newest, args.repeat),
                }
        store.close()
        conn.close()
    floor = results["apsw positional"]
    print(f"\nmedian µs per call, {args.episodes} episodes, {args.repeat} calls each")
    print(f"{'reader':<18}{'get':>10}{'× base':>8}{'list 50':>10}{'× base':>8}")
    for name, figures in results.items():
        print(
            f"{name:<18}{figures['get']:>10.1f}{figures['get'] / floor['get']:>8.2f}"
            f"{figures['list']:>10.1f}{figures['list'] / floor['list']:>8.2f}"
        )


if __name__ == "__main__":
    main()
