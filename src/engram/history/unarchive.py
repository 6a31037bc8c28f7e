"""Revert of archives: archived facts back to the live tables, and archived again.

An ``archive`` operation (and a revert that archived facts again) creates no version: it moves
every version of its facts to ``archived_facts``, each row naming it in ``archived_by``.
Reverting it moves back the facts still archived by it (purged ones are gone, ones a delete
brought back are live already) and records them as ``unarchived``; reverting that revert
archives the same facts again, recorded as ``archived``. A fact changed after it came back
(a new version, or its latest closed) is a conflict, as in the generic revert.
"""

from __future__ import annotations

from typing import Any

from engram.errors import Conflict, InvalidInput
from engram.graph.build import fact_index_text
from engram.models.episodes import Operation
from engram.models.graph import Fact
from engram.storage.protocol import Txn


def archived_by(target: Operation) -> list[str] | None:
    """Return the fact ids an operation archived (an archive, or a revert that re-archived), else None."""
    if target.kind == "archive":
        return [str(i) for i in target.details.get("facts", [])]
    if target.kind == "revert" and "archived" in target.details:
        return [str(i) for i in target.details["archived"]]
    return None


def reverts_archive(target: Operation) -> bool:
    """Return whether reverting ``target`` moves facts between the archive and the live tables."""
    return archived_by(target) is not None or (target.kind == "revert" and "unarchived" in target.details)


def revert_archive(
    txn: Txn, group_id: str, target: Operation, operation: Operation, *, force: bool
) -> dict[str, Any]:
    """Undo an operation that archived or unarchived facts, as ``operation``; return its details.

    Raises InvalidInput when none of its facts can move any more (purged, or moved since),
    Conflict naming ``operations`` when a fact to archive again changed since (without ``force``).
    """

    def index_text(fact: Fact) -> str:
        return fact_index_text(txn, group_id, fact)

    details: dict[str, Any] = {
        "target": target.id,
        "forced_over": [],
        "restored": [],
        "closed": [],
        "mentions_removed": [],
    }
    ids = archived_by(target)
    if ids is not None:
        restored = txn.unarchive_facts(group_id, ids, index_text, archived_by=target.id)
        if not restored:
            raise InvalidInput(
                f"operation {target.id} archived nothing that is still archived by it "
                "(its facts were restored or purged since)",
                field="id",
            )
        latest = {fact_id: txn.versions(group_id, "fact", fact_id)[-1] for fact_id in restored}
        details["unarchived"] = restored
        details["latest"] = {fact_id: [ref.version, ref.closed_by] for fact_id, ref in latest.items()}
        return details
    recorded: dict[str, list[Any]] = target.details.get("latest", {})
    live = {i: txn.versions(group_id, "fact", i) for i in target.details["unarchived"]}
    live = {fact_id: versions for fact_id, versions in live.items() if versions}
    if not live:
        raise InvalidInput(
            f"operation {target.id} restored nothing that is still live (archived again or purged since)",
            field="id",
        )
    later: set[str] = set()
    for fact_id, versions in live.items():
        version, closed_by = recorded.get(fact_id, [versions[-1].version, versions[-1].closed_by])
        later |= {v.created_by for v in versions if v.version > version}
        later |= {
            v.closed_by
            for v in versions
            if v.version == version and v.closed_by is not None and v.closed_by != closed_by
        }
    if later and not force:
        raise Conflict(
            f"operations {', '.join(sorted(later))} changed facts that {target.id} restored after it; "
            "revert them first, or pass force to archive the facts as they are now",
            field="id",
            operations=sorted(later),
        )
    moved, versions_moved = txn.archive_fact_ids(group_id, list(live), operation, index_text)
    details.update(forced_over=sorted(later), archived=moved, versions=versions_moved)
    return details
