"""SQLite's change log of episodes (migration 15), as engram.storage.episode_matrix reads it.

Every change of an episode doc (a version added, closed or purged; a vector put or dropped) gets
the next ``seq`` in ``episode_changes``. SQLite has one writer at a time, so ``seq`` follows commit
order: a group's mark is the last ``seq`` applied, and a search re-reads the docs logged past it.
Whether anything was committed at all is ``PRAGMA data_version`` (per connection, no table read).
"""

from __future__ import annotations

from engram.storage.episode_matrix import COLUMNS_READ, Key, Mark
from engram.storage.sql import Db
from engram.storage.sqlite.backend import SQLiteDb


class SQLiteChangeLog:
    """``episode_changes`` by ``seq``; marks are the last ``seq`` applied."""

    key = "v.doc"
    key_dtype = "int64"
    rows = (
        f"SELECT v.doc AS key, v.vector AS vector, {COLUMNS_READ} "
        "FROM episode_vectors v LEFT JOIN episodes e ON e.doc = v.doc AND e.expired_at IS NULL"
    )

    def __init__(self) -> None:
        self._seen: dict[tuple[int, str], tuple[object, Mark]] = {}

    def unchanged(self, db: Db, group_id: str, mark: Mark) -> bool:
        assert isinstance(db, SQLiteDb)
        version = db.conn.execute("PRAGMA data_version").fetchone()
        seen = (id(db.conn), group_id)
        if self._seen.get(seen) == (version, mark):
            return True
        if self._last(db, group_id) != mark:
            return False
        self._seen[seen] = (version, mark)
        return True

    def start(self, db: Db, group_id: str) -> Mark:
        return self._last(db, group_id)

    def since(self, db: Db, group_id: str, mark: Mark) -> tuple[list[Key] | None, Mark]:
        assert isinstance(mark, int)
        last = self._last(db, group_id)
        oldest = db.value("SELECT min(seq) AS s FROM episode_changes")
        if not mark or (oldest is not None and int(oldest) > mark + 1):
            return None, last
        changed = db.rows(
            "SELECT DISTINCT doc FROM episode_changes WHERE group_id = :g AND seq > :after AND seq <= :last",
            {"g": group_id, "after": mark, "last": last},
        )
        return [int(row["doc"]) for row in changed], last

    @staticmethod
    def _last(db: Db, group_id: str) -> int:
        sql = "SELECT coalesce(max(seq), 0) AS s FROM episode_changes WHERE group_id = :g"
        return int(db.value(sql, {"g": group_id}))
