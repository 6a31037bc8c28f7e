"""Archive of inactive facts: move old, never-returned history to cold storage.

A fact is archivable when its latest version is inactive (superseded, retracted, or closed),
that version is older than the cutoff, and no fact search (nor the graph channel of episode
search) ever returned it. Archiving moves every version of the fact out of the live tables
and their full-text index, as one ``archive`` operation in the audit log; searches with
``include_archived`` still read them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from engram.errors import InvalidInput
from engram.graph.build import fact_index_text
from engram.models.episodes import Operation
from engram.models.graph import ArchiveResult, Fact
from engram.observability import metrics
from engram.storage.protocol import Storage, Txn


def archive_facts(
    store: Storage,
    group_id: str,
    older_than: timedelta,
    now: datetime,
    *,
    dry_run: bool,
    actor: str | None,
) -> ArchiveResult:
    """Archive the group's inactive facts older than ``older_than`` that no search ever returned.

    Raises InvalidInput (field ``older_than``) unless it is positive.
    """
    if older_than <= timedelta(0):
        raise InvalidInput("older_than must be a positive duration, e.g. 180 days", field="older_than")
    try:
        cutoff = now - older_than
    except OverflowError as exc:
        raise InvalidInput("older_than reaches before year 1", field="older_than") from exc
    operation = Operation.begin(
        group_id, "archive", f"archive inactive facts older than {cutoff.isoformat()}", at=now, actor=actor
    )

    def index_text(txn: Txn, fact: Fact) -> str:
        return fact_index_text(txn, group_id, fact)

    ids, versions = store.archive_facts(group_id, cutoff, operation, index_text, dry_run=dry_run)
    if ids and not dry_run:
        metrics.count_operation("archive")
    return ArchiveResult(
        group_id=group_id,
        cutoff=cutoff,
        dry_run=dry_run,
        facts=ids,
        versions=versions,
        operation_id=operation.id if ids and not dry_run else None,
    )
