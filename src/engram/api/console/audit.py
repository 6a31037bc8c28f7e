"""Console audit pages: the operation log, an operation with its undo preview, the undo."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from engram.api.console.auth import CONSOLE_ACTOR
from engram.api.console.context import MOUNT, flash, reader, see_other, writer
from engram.api.console.render import page
from engram.errors import Conflict, InvalidInput
from engram.models.episodes import OPERATION_KINDS
from engram.models.review import PreviewChange

router = APIRouter()
FormText = Annotated[str, Form()]
BOOKKEEPING = frozenset({"version", "recorded_at", "expired_at", "operation_id", "fingerprint", "group_id"})
"""Fields every new version changes: left out of the undo preview's differences."""


@router.get("/audit")
def operations(
    request: Request,
    kind: str = "",
    actor: str = "",
    entity_id: str = "",
    episode_id: str = "",
    cursor: str = "",
) -> Response:
    """List operations newest first, filtered by kind, actor, entity or episode."""
    who, memory, group = reader(request)
    found = memory.list_operations(
        group,
        kind=[kind] if kind else [],
        actor=actor.strip() or None,
        entity_id=entity_id.strip() or None,
        episode_id=episode_id.strip() or None,
        cursor=cursor or None,
        limit=50,
    )
    values = {"kind": kind, "actor": actor, "entity_id": entity_id, "episode_id": episode_id}
    return page(request, "audit.html", who, found=found, values=values, kinds=sorted(OPERATION_KINDS))


SUMMARY = {"episode": ("content", "intent"), "entity": ("name", "type"), "fact": ("fact", "status")}
"""Fields that name an object the undo closes or retracts (the rest goes with it)."""


def differences(change: PreviewChange) -> list[tuple[str, Any, Any]]:
    """Return (field, now, after the undo) for every field the undo changes (bookkeeping left out);
    an object the undo ends shows only the fields that name it."""
    now, after = change.now or {}, change.after or {}
    if change.action not in ("restore", "judge"):  # a judgement's undo flips fields, like a restore
        return [(f, now.get(f), None) for f in SUMMARY[change.kind]]
    fields = [f for f in dict.fromkeys([*now, *after]) if f not in BOOKKEEPING]
    rows = [(f, now.get(f), after.get(f)) for f in fields if now.get(f) != after.get(f)]
    if now.get("expired_at") is not None:  # ended now (deleted, merged away): the undo opens it again
        rows.insert(0, ("expired_at", now["expired_at"], None))
    return rows


def operation_page(
    request: Request, operation_id: str, group_id: str | None, *, status: int = 200, **extra: Any
) -> Response:
    """Render an operation with its details, the versions it created and closed, and its undo preview."""
    who, memory, group = reader(request, group_id)
    preview = memory.preview_revert(operation_id, group)
    diffs = {(c.kind, c.id): differences(c) for c in preview.changes}
    return page(
        request,
        "operation.html",
        who,
        status,
        view=preview.operation,
        preview=preview,
        diffs=diffs,
        conflict=extra.get("conflict"),
        error=extra.get("error", ""),
    )


@router.get("/audit/{operation_id}")
def operation(request: Request, operation_id: str, group_id: str | None = None) -> Response:
    """Show an operation, what it changed, and what undoing it would change."""
    return operation_page(request, operation_id, group_id)


@router.post("/audit/{operation_id}/undo")
def undo(request: Request, operation_id: str, csrf_token: FormText = "", force: FormText = "") -> Response:
    """Revert the operation (administrators only); a conflict shows the later operations and offers force."""
    _who, memory, group = writer(request, csrf_token, role="admin")
    try:
        reverted = memory.revert_operation(operation_id, group, force=force == "1", actor=CONSOLE_ACTOR)
    except Conflict as exc:
        later = [memory.get_operation(i, group).operation for i in exc.operations or []]
        return operation_page(
            request, operation_id, None, status=409, conflict={"detail": exc.detail, "later": later}
        )
    except InvalidInput as exc:
        return operation_page(request, operation_id, None, status=422, error=exc.detail)
    flash(request, "audit.undone", operation=operation_id)
    return see_other(f"{MOUNT}/audit/{reverted.operation.id}")
