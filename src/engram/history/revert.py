"""Revert an operation inside a history transaction, as a new operation.

An operation's effect is exactly the versions it created (``operation_id``) and closed
(``expired_by``). Reverting it, per object it touched: the version it closed that was
current before it (if any) is stored again as a new version; otherwise (it created the
object) the object's current version is closed. Mentions it added are removed and mentions
it removed are added back. Reverting an ingest or import retracts its episodes
(engram.history.retract). Reverting an archive moves its facts back from the archive
(engram.history.unarchive). Reverting a judgement ("not the same") withdraws it
(engram.graph.judgements). A revert is itself an operation, so reverting a revert re-applies.

If a later operation changed an object the target touched, the revert would silently undo
that change too: it is refused with Conflict naming the later operations, unless ``force``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engram.errors import Conflict, NotFound, shown
from engram.graph.build import fact_index_text, name_keys
from engram.graph.judgements import judged_pair, later_judgement
from engram.history.retract import retract_episode
from engram.history.unarchive import revert_archive, reverts_archive
from engram.models.episodes import Operation
from engram.storage.protocol import Txn
from engram.storage.types import ObjectKind, VersionRef

EPISODE_CREATING = frozenset({"ingest", "import"})
IRREVERSIBLE = {"purge": "a purge cannot be reverted: its data is gone"}
_ORDER: dict[ObjectKind, int] = {"episode": 0, "entity": 1, "fact": 2}  # names before the facts' index text


def revert_operation(
    txn: Txn, group_id: str, target_id: str, operation: Operation, *, force: bool
) -> dict[str, Any]:
    """Undo ``target_id`` as ``operation``; return the details recorded with it.

    Raises NotFound, Conflict (a purge; an operation that changed nothing still revertible; one
    already reverted) or Conflict naming ``operations`` (later operations changed the same
    objects; without ``force``): the request is well formed, the stored history forbids it.
    """
    target = txn.operation(group_id, target_id)
    if target is None:
        raise NotFound(f"no operation with id {shown(target_id)} in group {shown(group_id)}", field="id")
    if target.kind in IRREVERSIBLE:
        raise Conflict(IRREVERSIBLE[target.kind], field="id")
    if reverts_archive(target):
        return revert_archive(txn, group_id, target, operation, force=force)
    judged = judged_pair(target)
    if judged is not None:
        return _revert_judgement(txn, group_id, target, judged, force=force)
    # Facts the target changed that were archived since come back first, so their versions count.
    named = _facts_named(target.details)
    unarchived = (
        txn.unarchive_facts(group_id, named, lambda fact: fact_index_text(txn, group_id, fact))
        if named
        else []
    )
    touched = txn.touched_by(group_id, target_id)
    # Mentions of a purged episode stay gone: their episode has no version left.
    restored_mentions = [
        m for m in target.details.get("mentions_removed", []) if txn.versions(group_id, "episode", m[1])
    ]
    if not touched and not restored_mentions:
        raise Conflict(
            f"operation {target_id} changed nothing that can still be reverted "
            "(what it changed was purged or archived since)",
            field="id",
        )
    objects = {(ref.kind, ref.id) for ref in touched}
    plans, later = plan_revert(
        lambda kind, object_id: txn.versions(group_id, kind, object_id), target_id, objects
    )
    reverts = [op for op in later if _target_of(txn, group_id, op) == target_id]
    if reverts:  # force or not: undoing it twice would only write the same versions again
        raise Conflict(already_reverted(target_id, reverts[0]), field="id", operations=later)
    if later and not force:
        raise Conflict(_blocked_by(txn, group_id, target_id, later), field="id", operations=later)
    details: dict[str, Any] = {"target": target_id, "forced_over": later, "restored": [], "closed": []}
    if unarchived:
        details["facts_unarchived"] = unarchived
    if target.kind in EPISODE_CREATING:
        episodes = [ref.id for ref in touched if ref.kind == "episode" and ref.created_by == target_id]
        details["retracted"] = [
            retract_episode(txn, group_id, episode_id, operation)
            for episode_id in dict.fromkeys(episodes)
            if txn.versions(group_id, "episode", episode_id)[-1].expired_at is None
        ]
    else:
        for kind, object_id, before, last in plans:
            if before is None:
                _close(txn, group_id, kind, object_id, operation)
                details["closed"].append([kind, object_id])
            else:
                _restore(txn, group_id, kind, object_id, before.version, last + 1, operation)
                details["restored"].append([kind, object_id, before.version])
    removed = [list(m) for m in txn.remove_mentions(group_id, operation_id=target_id)]
    # Retracted episodes' mentions too: reverting this revert adds them all back.
    details["mentions_removed"] = removed + [
        m for r in details.get("retracted", []) for m in r["mentions_removed"]
    ]
    for entity_id, episode_id, _ in restored_mentions:
        txn.add_mentions(group_id, episode_id, [entity_id], operation.id)
    return details


def _facts_named(details: dict[str, Any]) -> list[str]:
    """Return the facts a delete (or an ingest's revert) says it changed."""
    parts = [details, *details.get("retracted", [])]
    keys = ("facts_retracted", "facts_unlinked", "facts_restored", "facts_unarchived")
    return sorted({str(fact_id) for part in parts for key in keys for fact_id in part.get(key, [])})


def _blocked_by(txn: Txn, group_id: str, target_id: str, later: list[str]) -> str:
    """Say which later operations keep ``target_id`` from being reverted: those still in effect can
    be reverted first; one undone since (with its revert) can only be forced over."""
    undone = {t: op for op in later if isinstance(t := _target_of(txn, group_id, op), str) and t in later}
    in_effect = [op for op in later if op not in undone and op not in undone.values()]
    said = []
    if in_effect:
        said.append(
            f"operations {', '.join(in_effect)} changed objects that {target_id} touched after it; "
            "revert them first, or pass force to overwrite their changes"
        )
    if undone:
        pairs = ", ".join(f"{op} (reverted by {by})" for op, by in undone.items())
        said.append(f"{pairs} changed them and were undone since: pass force to revert {target_id} over them")
    return "; ".join(said)


def _target_of(txn: Txn, group_id: str, operation_id: str) -> object:
    operation = txn.operation(group_id, operation_id)
    return None if operation is None else operation.details.get("target")


def plan_revert(
    versions_of: Callable[[ObjectKind, str], list[VersionRef]],
    target_id: str,
    objects: Iterable[tuple[ObjectKind, str]],
) -> tuple[list[tuple[ObjectKind, str, VersionRef | None, int]], list[str]]:
    """Return, per object the target touched, (kind, id, version to restore or None, last version),
    and the later operations that changed those objects.

    ``versions_of(kind, id)`` returns an object's versions oldest first (inside a write
    transaction, or read-only for a preview of the undo).
    """
    plans: list[tuple[ObjectKind, str, VersionRef | None, int]] = []
    later: set[str] = set()
    for kind, object_id in sorted(set(objects), key=lambda o: (_ORDER[o[0]], o[1])):
        versions = versions_of(kind, object_id)
        own = [v for v in versions if target_id in (v.created_by, v.closed_by)]
        last_own = own[-1]
        later |= {v.created_by for v in versions if v.version > last_own.version}
        if last_own.closed_by is not None:
            later.add(last_own.closed_by)
        before = next((v for v in own if v.created_by != target_id), None)
        plans.append((kind, object_id, before, versions[-1].version))
    later.discard(target_id)
    return plans, sorted(later)


def _close(txn: Txn, group_id: str, kind: ObjectKind, object_id: str, operation: Operation) -> None:
    at = operation.created_at
    if kind == "episode":
        txn.close_episode(group_id, object_id, at, operation.id)
    elif kind == "entity":
        txn.close_entity(group_id, object_id, at, operation.id)
    else:
        txn.close_fact(group_id, object_id, at, operation.id)


def _restore(
    txn: Txn,
    group_id: str,
    kind: ObjectKind,
    object_id: str,
    version: int,
    new_version: int,
    operation: Operation,
) -> None:
    """Store version ``version`` of an object again, as ``new_version`` made by ``operation``."""
    update = {
        "version": new_version,
        "recorded_at": operation.created_at,
        "expired_at": None,
        "operation_id": operation.id,
    }
    if kind == "episode":
        episode = txn.episode_version(group_id, object_id, version)
        assert episode is not None
        txn.put_episode_version(episode.model_copy(update=update))
    elif kind == "entity":
        entity = txn.entity_version(group_id, object_id, version)
        assert entity is not None
        restored = entity.model_copy(update=update)
        txn.put_entity(restored, name_keys(restored))
    else:
        fact = txn.fact_version(group_id, object_id, version)
        assert fact is not None
        restored_fact = fact.model_copy(update=update)
        txn.put_fact(restored_fact, fact_index_text(txn, group_id, restored_fact))


def already_reverted(target_id: str, revert_id: str) -> str:
    """Return why an operation cannot be undone twice (the CLI, REST, MCP and console say it alike)."""
    return f"operation {target_id} was already reverted by {revert_id}; revert that to re-apply it"


def _revert_judgement(
    txn: Txn, group_id: str, target: Operation, judged: tuple[frozenset[str], bool], *, force: bool
) -> dict[str, Any]:
    """Undo a "not the same" judgement (or its undo); return the details: the pair and the state it leaves.

    Raises Conflict naming ``operations`` when a later judgement about the pair exists (already
    undone: always; another judgement: unless ``force``): it would be silently overridden.
    """
    pair, state = judged
    later = later_judgement(lambda q, n, k: txn.list_operations(group_id, q, n, k), target)
    if later is not None and later.details.get("target") == target.id:
        raise Conflict(already_reverted(target.id, later.id), field="id", operations=[later.id])
    if later is not None and not force:
        raise Conflict(
            f"operation {later.id} judged the same pair after {target.id}; "
            "revert it first, or pass force to overwrite it",
            field="id",
            operations=[later.id],
        )
    forced = [] if later is None else [later.id]
    return {"target": target.id, "pair": sorted(pair), "distinct": not state, "forced_over": forced}
