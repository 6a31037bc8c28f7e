"""Retract an episode inside a history transaction: the episode and what only it supports.

``DELETE /v1/episodes/{id}`` (docs/architecture.md): the episode's current version is closed (its
versions stay, so the retraction can be reverted); facts backed only by it get a
``retracted`` version; facts backed by other episodes too get a version without it in their
provenance; every arbitration decision its claims made (an older fact superseded, ended by a
stop statement, closed by a negation or disputed) is undone, bringing a superseded fact back
from the archive first if it was archived; its mentions are removed. Every change is a version
of the retracting operation.

Reverting the retraction (the generic revert) supersedes the older fact again: it stays in
the live tables, not archived (a later archive run may move it again).
"""

from __future__ import annotations

from typing import Any

from engram.errors import NotFound, shown
from engram.graph.build import fact_index_text
from engram.models.episodes import Operation
from engram.models.graph import Fact
from engram.storage.protocol import Txn

_ARBITRATION_FIELDS = ("status", "status_reason", "invalid_at", "superseded_by", "confidence")


def retract_episode(txn: Txn, group_id: str, episode_id: str, operation: Operation) -> dict[str, Any]:
    """Retract one episode as part of ``operation``; return what changed (for its details).

    Raises NotFound when the episode does not exist or is already retracted.
    """
    versions = txn.versions(group_id, "episode", episode_id)
    if not versions:
        raise NotFound(f"no episode with id {shown(episode_id)} in group {shown(group_id)}", field="id")
    if versions[-1].expired_at is not None:
        raise NotFound(
            f"episode {shown(episode_id)} was deleted by operation {versions[-1].closed_by}; "
            "revert that operation to restore it",
            field="id",
        )
    txn.close_episode(group_id, episode_id, operation.created_at, operation.id)
    mentions = txn.remove_mentions(group_id, episode_id=episode_id)
    # The operations that built the episode's graph: those that recorded its mentions or facts.
    arrivals = {str(mention[2]) for mention in mentions}
    retracted: list[str] = []
    unlinked: list[str] = []
    unarchived: list[str] = []
    for fact in txn.facts_citing(group_id, episode_id):
        arrivals.add(txn.versions(group_id, "fact", fact.id)[0].created_by)
        remaining = [cited for cited in fact.episodes if cited != episode_id]
        if remaining:
            _put(txn, fact, operation, episodes=remaining)
            unlinked.append(fact.id)
        else:
            _put(txn, fact, operation, status="retracted")
            retracted.append(fact.id)
            unarchived += _unarchive_superseded(txn, fact)
    restored = _undo_decisions(txn, group_id, episode_id, sorted(arrivals), operation)
    restored += _pass_on(txn, group_id, retracted, set(restored), operation)
    return {
        "episode": episode_id,
        "facts_retracted": retracted,
        "facts_unlinked": unlinked,
        "facts_restored": restored,
        "facts_unarchived": unarchived,
        "mentions_removed": [list(m) for m in mentions],
    }


def _put(txn: Txn, fact: Fact, operation: Operation, **changes: Any) -> None:
    updated = fact.model_copy(
        update={
            **changes,
            "version": fact.version + 1,
            "recorded_at": operation.created_at,
            "operation_id": operation.id,
        }
    )
    txn.put_fact(updated, fact_index_text(txn, fact.group_id, updated))


def _unarchive_superseded(txn: Txn, retracted: Fact) -> list[str]:
    """Move the archived facts the retracted fact superseded back to the live tables; return their ids."""
    group_id = retracted.group_id
    found = txn.archived_superseded_by(group_id, retracted.id)
    if not found:
        return []
    return txn.unarchive_facts(group_id, found, lambda fact: fact_index_text(txn, group_id, fact))


def _undo_decisions(
    txn: Txn, group_id: str, episode_id: str, arrivals: list[str], operation: Operation
) -> list[str]:
    """Give back to older facts what the episode's claims did to them; return their ids.

    Each arrival (an operation that built the episode's graph) recorded its arbitration
    decisions, per episode when it built several: a fact one of this episode's decisions
    changed (superseded, ended by a stop statement, closed by a negation, disputed) gets its
    arbitration fields (status and its reason, invalid_at, superseded_by, confidence) from before that
    operation. A fact the episode itself stated is retracted by the caller, not restored here. When
    a later fact has since replaced the retracted one (500k, then 800k, then 900k; the 800k
    retracted), the older fact does not come back beside it: it is superseded by that later fact.
    """
    restored: list[str] = []
    for arrival in arrivals:
        recorded = txn.operation(group_id, arrival)
        decisions = [] if recorded is None else recorded.details.get("decisions", [])
        changed = {
            change["fact"]: decision.get("fact")
            for decision in decisions
            if decision.get("episode", episode_id) == episode_id
            for change in decision.get("changes", [])
        }
        for fact_id in sorted(set(changed) - set(restored)):
            versions = txn.versions(group_id, "fact", fact_id)
            if not versions:  # archived since: out of the live graph, nothing to give back there
                continue
            current = txn.fact_version(group_id, fact_id, versions[-1].version)
            # The version the arrival closed: written before it, or by it for an episode earlier in
            # its batch (the later one closes that one).
            closed = [v for v in versions if v.closed_by == arrival]
            before = next((v for v in closed if v.created_by != arrival), closed[-1] if closed else None)
            previous = None if before is None else txn.fact_version(group_id, fact_id, before.version)
            if current is None or previous is None or current.status == "retracted":
                continue
            fields = {name: getattr(previous, name) for name in _ARBITRATION_FIELDS}
            successor = _live_successor(txn, group_id, changed[fact_id])
            if successor is not None and successor.id != fact_id and fields["status"] == "current":
                fields |= _superseded_by(successor)
            if any(getattr(current, name) != value for name, value in fields.items()):
                _put(txn, current, operation, **fields)
                restored.append(fact_id)
    return restored


def _latest(txn: Txn, group_id: str, fact_id: str) -> Fact | None:
    """Return the fact's latest version, or None."""
    versions = txn.versions(group_id, "fact", fact_id)
    return txn.fact_version(group_id, fact_id, versions[-1].version) if versions else None


def _live_successor(txn: Txn, group_id: str, retracted_id: str | None, hops: int = 20) -> Fact | None:
    """Return the live fact that replaced ``retracted_id`` (following superseded_by), or None."""
    fact = _latest(txn, group_id, retracted_id) if retracted_id else None
    for _ in range(hops):
        if fact is None or fact.superseded_by is None:
            return None
        successor = _latest(txn, group_id, fact.superseded_by)
        if successor is None or successor.expired_at is not None:
            return None
        if successor.status in ("current", "disputed"):
            return successor
        fact = successor
    return None


def _superseded_by(successor: Fact) -> dict[str, Any]:
    """Return the arbitration fields of a fact whose replacement was retracted but replaced itself."""
    return {
        "status": "superseded",
        "superseded_by": successor.id,
        "invalid_at": successor.valid_at or successor.recorded_at,
        "status_reason": f"superseded by {successor.id} (the value between was retracted)",
    }


def _pass_on(
    txn: Txn, group_id: str, retracted: list[str], done: set[str], operation: Operation
) -> list[str]:
    """Give the facts a retracted fact superseded, beyond those its episode's decisions name (a
    fact handed on to it by an earlier retraction), to its live successor, or back their place
    when it has none; return their ids."""
    passed: list[str] = []
    for fact_id in retracted:
        successor = _live_successor(txn, group_id, fact_id)
        for fact in txn.facts_superseded_by(group_id, fact_id):
            if fact.id in done or fact.id in passed or fact.status != "superseded":
                continue
            fields: dict[str, Any] = (
                _superseded_by(successor)
                if successor is not None
                else {"status": "current", "superseded_by": None, "invalid_at": None, "status_reason": None}
            )
            _put(txn, fact, operation, **fields)
            passed.append(fact.id)
    return passed
