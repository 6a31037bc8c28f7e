"""What undoing an operation would change, computed before it runs (nothing is written).

The same plan as the revert itself (engram.history.revert.plan_revert), read from the versions
the operation created and closed: per object, the latest version now and the version the undo
would store again (or nothing: the object is closed). Undoing an ingest or import retracts its
episodes. Later operations that changed the same objects are listed: the undo is refused
unless forced. An archive's undo moves facts back from the archive (listed, not diffed).
"""

from __future__ import annotations

from typing import Any

from engram.errors import NotFound
from engram.graph.judgements import judged_pair, later_judgement
from engram.history.revert import EPISODE_CREATING, IRREVERSIBLE, already_reverted, plan_revert
from engram.history.service import HistoryService
from engram.history.unarchive import archived_by, reverts_archive
from engram.models.episodes import Operation
from engram.models.history import OperationView
from engram.models.review import PreviewChange, RevertPreview
from engram.storage.protocol import Storage
from engram.storage.types import ObjectKind


def preview_revert(
    history: HistoryService, store: Storage, group_id: str, operation_id: str
) -> RevertPreview:
    """Return what reverting ``operation_id`` would change. Raises NotFound."""
    view = history.get_operation(group_id, operation_id)
    target = view.operation
    if target.kind in IRREVERSIBLE:
        return RevertPreview(
            operation=view,
            changes=[],
            later_operations=[],
            revertible=False,
            reason=IRREVERSIBLE[target.kind],
        )
    if reverts_archive(target):
        facts = archived_by(target) or [str(i) for i in target.details.get("unarchived", [])]
        action = "restore" if archived_by(target) is not None else "close"
        moved = [PreviewChange(kind="fact", id=i, action=action, now=None, after=None) for i in facts]
        return RevertPreview(operation=view, changes=moved, later_operations=[], revertible=True)
    judged = judged_pair(target)
    if judged is not None:
        return _preview_judgement(store, group_id, view, judged)
    objects = {(ref.kind, ref.id) for ref in [*view.created, *view.closed]}
    if not objects and not target.details.get("mentions_removed"):
        return RevertPreview(
            operation=view,
            changes=[],
            later_operations=[],
            revertible=False,
            reason="it changed no stored version (nothing to undo)",
        )

    def versions_of(kind: ObjectKind, object_id: str) -> list[Any]:
        return store.versions(group_id, kind, object_id)

    plans, later_ids = plan_revert(versions_of, operation_id, objects)
    later = [op for op in (_operation(history, group_id, i) for i in later_ids) if op is not None]
    reverted_by = [op.id for op in later if op.details.get("target") == operation_id]
    changes: list[PreviewChange] = []
    for kind, object_id, before, last in plans:
        now = _dump(store.version(group_id, kind, object_id, last))
        if target.kind in EPISODE_CREATING:
            if kind == "episode" and (now or {}).get("expired_at") is None:
                changes.append(PreviewChange(kind=kind, id=object_id, action="retract", now=now, after=None))
            continue
        if before is None:
            changes.append(PreviewChange(kind=kind, id=object_id, action="close", now=now, after=None))
        else:
            after = _dump(store.version(group_id, kind, object_id, before.version))
            changes.append(PreviewChange(kind=kind, id=object_id, action="restore", now=now, after=after))
    reason = None
    if reverted_by:
        reason = already_reverted(operation_id, reverted_by[0])
    return RevertPreview(
        operation=view, changes=changes, later_operations=later, revertible=not reverted_by, reason=reason
    )


def _preview_judgement(
    store: Storage, group_id: str, view: OperationView, judged: tuple[frozenset[str], bool]
) -> RevertPreview:
    """Return the undo of a "not the same" judgement (or of its undo): the pair's state flips."""
    target = view.operation
    pair, state = judged
    first, second = sorted(pair)
    change = PreviewChange(
        kind="entity",
        id=first,
        action="judge",
        now={"distinct_from": second, "distinct": state},
        after={"distinct_from": second, "distinct": not state},
    )
    later = later_judgement(lambda q, n, k: store.list_operations(group_id, q, n, k), target)
    if later is not None and later.details.get("target") == target.id:
        reason = already_reverted(target.id, later.id)
        return RevertPreview(
            operation=view, changes=[change], later_operations=[later], revertible=False, reason=reason
        )
    later_operations = [] if later is None else [later]
    return RevertPreview(operation=view, changes=[change], later_operations=later_operations, revertible=True)


def _operation(history: HistoryService, group_id: str, operation_id: str) -> Operation | None:
    try:
        return history.get_operation(group_id, operation_id).operation
    except NotFound:
        return None


def _dump(version: Any) -> dict[str, Any] | None:
    return None if version is None else dict(version.model_dump(mode="json"))
