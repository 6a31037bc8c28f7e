"""Store imported records in batches, one transaction per batch.

A batch is all-or-nothing (``Memory.create_episodes``): after a crash, every batch whose
commit was acknowledged is stored and no batch is half-written. Records carry client ids
(or are deduplicated by fingerprint), so running the same import again is idempotent: what
is already stored counts as deduplicated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engram.errors import Conflict, InvalidInput
from engram.memory import Memory
from engram.portable.base import Record

_INDEXED_FIELD = re.compile(r"^(\d+)\.(.+)$")
_ITEM_PREFIX = re.compile(r"^item \d+: ")


@dataclass(slots=True)
class ImportStats:
    """Running totals of an import: episodes created, deduplicated, and batches committed."""

    created: int = 0
    deduplicated: int = 0
    batches: int = 0

    @property
    def committed(self) -> int:
        """Return how many records are stored so far (created plus deduplicated)."""
        return self.created + self.deduplicated


class BatchImporter:
    """Feed records into a Memory, ``batch_size`` per transaction.

    ``on_commit(stats, batch_size)`` (settable until ``run``) is called after every committed
    batch; that call is the acknowledgement that the batch is durable (WAL,
    synchronous=NORMAL: survives a process crash). ``stats`` stays readable after an error,
    to report what was committed.
    """

    def __init__(
        self,
        memory: Memory,
        *,
        batch_size: int,
        actor: str | None = "cli",
        on_commit: Callable[[ImportStats, int], None] | None = None,
    ) -> None:
        if batch_size < 1:
            raise InvalidInput("batch size must be at least 1", field="batch_size")
        self._memory = memory
        self._batch_size = batch_size
        self._actor = actor
        self.on_commit = on_commit
        self.stats = ImportStats()

    def run(self, records: Iterable[Record]) -> ImportStats:
        """Store every record; returns the totals.

        Raises the importer's InvalidInput for a bad record (records of its unfinished batch
        are not written), or InvalidInput / Conflict from the store naming the record.
        """
        batch: list[Record] = []
        for record in records:
            batch.append(record)
            if len(batch) >= self._batch_size:
                self._commit(batch)
                batch = []
        if batch:
            self._commit(batch)
        return self.stats

    def _commit(self, batch: list[Record]) -> None:
        try:
            results = self._memory.create_episodes(
                [record.episode for record in batch], actor=self._actor, kind="import"
            )
        except InvalidInput as exc:
            raise _located(exc, batch) from exc
        except Conflict as exc:
            raise _located_conflict(exc, batch) from exc
        duplicates = sum(1 for result in results if result.deduplicated)
        self.stats.created += len(results) - duplicates
        self.stats.deduplicated += duplicates
        self.stats.batches += 1
        if self.on_commit is not None:
            self.on_commit(self.stats, len(batch))


def _located(exc: InvalidInput, batch: list[Record]) -> InvalidInput:
    """Return ``exc`` with the batch index in its field replaced by the record's location."""
    match = _INDEXED_FIELD.match(exc.field or "")
    if match is not None and int(match.group(1)) < len(batch):
        record, field = batch[int(match.group(1))], match.group(2)
    elif len(batch) == 1:
        record, field = batch[0], exc.field
    else:
        return exc
    return InvalidInput(f"{record.where}: {_ITEM_PREFIX.sub('', exc.detail)}", field=field)


def _located_conflict(exc: Conflict, batch: list[Record]) -> Conflict:
    """Return ``exc`` naming the record whose id it quotes, or else the batch's range."""
    named = [r for r in batch if r.episode.id is not None and repr(r.episode.id) in exc.detail]
    if len(named) >= 1 and len({r.episode.id for r in named}) == 1:
        return Conflict(f"{named[0].where}: {exc.detail}", field=exc.field)
    return Conflict(f"{exc.detail} (in the batch {batch[0].where} to {batch[-1].where})", field=exc.field)
