"""The most recently seen entities of a type, read once per transaction and kept exact as it writes.

Resolution compares a new name with the names of the ``limit`` current entities of its type
seen most recently (storage.graph.names_of_type); a batch of extractions asks that for every
new name. A transaction holds its group's graph lock and writes every entity version through
its Txn, so a pool it read stays exact when each write is applied to it here: an entity seen
again moves up (its last sighting only grows in a build), a new one enters, the one pushed past
``limit`` leaves. Where the pool cannot know the answer (an entity leaves a full pool, or is
seen earlier than before: the next one down was never read) it is dropped and read again.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from engram.models.graph import Entity

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _rank(last_seen: datetime) -> int:
    """Sort key of ORDER BY last_seen DESC: minus the microseconds since 1970, exactly."""
    return -((last_seen - _EPOCH) // _MICROSECOND)


@dataclass(slots=True)
class _Pool:
    limit: int
    complete: bool  # fewer than `limit` rows were read: every current entity of the type is here
    entries: list[tuple[int, str, list[str]]]  # (_rank(last_seen), id, names), ascending: the read's order
    where: dict[str, int] = field(init=False)  # id → its rank in `entries`

    def __post_init__(self) -> None:
        self.where = {entity_id: rank for rank, entity_id, _ in self.entries}

    def drop(self, entity_id: str) -> None:
        rank = self.where.pop(entity_id)
        del self.entries[bisect_left(self.entries, (rank, entity_id))]

    def add(self, entity: Entity) -> None:
        """Put ``entity`` where the read's ORDER BY last_seen DESC, id puts it; keep ``limit``."""
        rank = _rank(entity.last_seen)
        insort(self.entries, (rank, entity.id, [entity.name, *entity.aliases]))
        self.where[entity.id] = rank
        if len(self.entries) > self.limit:
            self.complete = False
            del self.where[self.entries.pop()[1]]


class NamePools:
    """Pools of (id, names) of the most recently seen current entities, per group and type."""

    def __init__(self) -> None:
        self._pools: dict[tuple[str, str], _Pool] = {}

    def get(self, group_id: str, type_: str, limit: int) -> list[tuple[str, list[str]]] | None:
        """Return the pool as names_of_type would, or None when it must be read."""
        pool = self._pools.get((group_id, type_))
        if pool is None or pool.limit != limit:
            return None
        return [(entity_id, list(names)) for _, entity_id, names in pool.entries]

    def read(
        self, group_id: str, type_: str, limit: int, rows: list[tuple[str, datetime, list[str]]]
    ) -> None:
        """Remember what names_of_type returned: (id, last_seen, names) in its order."""
        entries = [(_rank(seen), entity_id, names) for entity_id, seen, names in rows]
        self._pools[group_id, type_] = _Pool(limit, len(rows) < limit, entries)

    def written(self, entity: Entity) -> None:
        """Apply a new current version of ``entity`` to every pool of its group."""
        for (group_id, type_), pool in list(self._pools.items()):
            if group_id != entity.group_id:
                continue
            seen = pool.where.get(entity.id)
            if type_ != entity.type:
                if seen is not None:
                    self._left(group_id, type_, pool, entity.id)
                continue
            if seen is not None:
                if _rank(entity.last_seen) > seen and not pool.complete:
                    del self._pools[group_id, type_]  # it may now rank below entities never read
                    continue
                pool.drop(entity.id)
            pool.add(entity)

    def closed(self, group_id: str, entity_id: str) -> None:
        """Apply the end of an entity's current version (a merge) to every pool of its group."""
        for (group, type_), pool in list(self._pools.items()):
            if group == group_id and entity_id in pool.where:
                self._left(group, type_, pool, entity_id)

    def _left(self, group_id: str, type_: str, pool: _Pool, entity_id: str) -> None:
        if pool.complete:
            pool.drop(entity_id)
        else:  # the next entity down takes its place, and it was never read
            del self._pools[group_id, type_]
