"""Archive of inactive facts (issue #5): move old, never-returned history to cold storage.

A fact is archivable when its latest version is inactive (superseded, retracted, or closed),
that version is older than the cutoff, and no fact search (nor the graph channel of episode
search) ever returned it. Archiving moves every version of the fact out of the live tables
and their full-text index, as one ``archive`` operation in the audit log; searches with
``include_archived`` still read them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from engram.errors import InvalidInput
from engram.graph.build import fact_index_text
from engram.models.episodes import Operation
from engram.models.graph import ArchiveResult, Fact
from engram.observability import metrics
from engram.storage.graph_protocol import FactArchive, FactQuery, GraphStore, GraphTxn


def _archive_of(store: GraphStore, field: str) -> FactArchive:
    """Return the store's archive. Raises InvalidInput naming ``field`` when it has none."""
    if not isinstance(store, FactArchive):
        raise InvalidInput(
            f"this store ({type(store).__name__}) keeps no fact archive: archive and include_archived "
            "need SQLite or PostgreSQL",
            field=field,
        )
    return store


def archive_facts(
    store: GraphStore,
    group_id: str,
    older_than: timedelta,
    now: datetime,
    *,
    dry_run: bool,
    actor: str | None,
) -> ArchiveResult:
    """Archive the group's inactive facts older than ``older_than`` that no search ever returned.

    Raises InvalidInput (field ``older_than``) unless it is positive, or (field ``store``) when
    the store has no archive.
    """
    if older_than <= timedelta(0):
        raise InvalidInput("older_than must be a positive duration, e.g. 180 days", field="older_than")
    archive = _archive_of(store, "store")
    try:
        cutoff = now - older_than
    except OverflowError as exc:
        raise InvalidInput("older_than reaches before year 1", field="older_than") from exc
    operation = Operation.begin(
        group_id, "archive", f"archive inactive facts older than {cutoff.isoformat()}", at=now, actor=actor
    )

    def index_text(txn: GraphTxn, fact: Fact) -> str:
        return fact_index_text(txn, group_id, fact)

    ids, versions = archive.archive_facts(group_id, cutoff, operation, index_text, dry_run=dry_run)
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


def search_with_archive(
    store: GraphStore, group_id: str, terms: Sequence[str], query: FactQuery, limit: int
) -> tuple[list[tuple[Fact, float]], frozenset[str]]:
    """Return the best ``limit`` live and archived facts for ``terms``, and the archived ids among them.

    With terms, best score first (both weighted by ``query.inactive_weight``); without,
    newest valid time first, like GraphStore.find_facts. Raises InvalidInput (field
    ``include_archived``) when the store has no archive.
    """
    archive = _archive_of(store, "include_archived")
    live = store.search_facts(group_id, terms, query, limit)
    cold = archive.search_archived_facts(group_id, terms, query, limit)
    merged = [*live, *cold]
    if terms:
        merged.sort(key=lambda hit: -hit[1])
    else:
        merged.sort(key=lambda hit: (hit[0].id, hit[0].version))
        merged.sort(key=lambda hit: hit[0].valid_at or hit[0].recorded_at, reverse=True)
    found = merged[:limit]
    cold_ids = {fact.id for fact, _ in cold}
    return found, frozenset(fact.id for fact, _ in found if fact.id in cold_ids)
