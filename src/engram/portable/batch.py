"""Store imported records in batches, one transaction per batch.

A batch is all-or-nothing (``Memory.create_episodes``): after a crash, every batch whose
commit was acknowledged is stored and no batch is half-written. With ``keep_going`` a record
the importer could not read (a ``Problem``) or the store refused is set aside with its
reason, and the others are stored: a batch the store refuses is retried record by record
(``create_each``), so one bad record fails alone. Records carry client ids
(or are deduplicated by fingerprint), so running the same import again is idempotent: what
is already stored counts as deduplicated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from engram.errors import Conflict, EngramError, InvalidInput
from engram.ingest.bulk import create_each
from engram.models.episodes import CreatedEpisode
from engram.portable.base import ImportStats, Problem, Record

if TYPE_CHECKING:  # engram.memory imports this module's callers: no import back at run time
    from engram.memory import Memory

_INDEXED_FIELD = re.compile(r"^(\d+)\.(.+)$")
_ITEM_PREFIX = re.compile(r"^item \d+: ")


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
        keep_going: bool = False,
        classify: bool = False,
    ) -> None:
        if batch_size < 1:
            raise InvalidInput("batch size must be at least 1", field="batch_size")
        self._memory = memory
        self._batch_size = batch_size
        self._actor = actor
        self.on_commit = on_commit
        self.keep_going = keep_going
        self.classify = classify
        self.stats = ImportStats()

    def run(self, records: Iterable[Record | Problem]) -> ImportStats:
        """Store every record; returns the totals (``stats.problems``: what ``keep_going`` set aside).

        Raises the importer's InvalidInput for a bad record (records of its unfinished batch
        are not written), or InvalidInput / Conflict from the store naming the record, unless
        ``keep_going``.
        """
        self._memory.build_queued_graphs()  # what an earlier, crashed run of the import left
        batch: list[Record] = []
        for record in records:
            if isinstance(record, Problem):
                if not self.keep_going:
                    raise InvalidInput(f"{record.where}: {record.detail}", field=record.field)
                self.stats.problems.append(record)
                continue
            batch.append(record)
            if len(batch) >= self._batch_size:
                self._commit(batch)
                batch = []
        if batch:
            self._commit(batch)
        return self.stats

    def _commit(self, batch: list[Record]) -> None:
        def create(items: Sequence[Any]) -> list[CreatedEpisode]:
            return self._memory.create_episodes(
                items, actor=self._actor, kind="import", classify=self.classify
            )

        episodes = [record.episode for record in batch]
        try:
            answers = create_each(create, episodes) if self.keep_going else list(create(episodes))
        except InvalidInput as exc:
            raise _located(exc, batch) from exc
        except Conflict as exc:
            raise _located_conflict(exc, batch) from exc
        results = [a for a in answers if isinstance(a, CreatedEpisode)]
        for record, answer in zip(batch, answers, strict=True):
            if isinstance(answer, EngramError):
                self.stats.problems.append(Problem(record.where, answer.detail, answer.field))
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
