"""Console review queues: merge candidates, disputed facts, unclassified episodes (choices: operations)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from engram.api.console.auth import CONSOLE_ACTOR
from engram.api.console.context import MOUNT, flash, reader, see_other, writer
from engram.api.console.entities import merge_operation
from engram.api.console.render import page
from engram.errors import Conflict

router = APIRouter()
FormText = Annotated[str, Form()]
FormList = Annotated[list[str], Form()]
CANDIDATES_SHOWN = 20


@router.get("/review")
def review(request: Request) -> Response:
    """Open the first queue."""
    reader(request)
    return see_other(f"{MOUNT}/review/candidates")


@router.get("/review/candidates")
def candidates(request: Request) -> Response:
    """List possible duplicate entities with their evidence: names, attributes, shared neighbours."""
    who, memory, group = reader(request)
    return page(
        request,
        "review_candidates.html",
        who,
        queue="candidates",
        items=memory.merge_evidence(group, limit=CANDIDATES_SHOWN),
    )


@router.post("/review/candidates/merge")
def merge_candidate(
    request: Request, csrf_token: FormText = "", entity_id: FormText = "", into: FormText = ""
) -> Response:
    """Merge one entity of a candidate pair into the other (administrators)."""
    _who, memory, group = writer(request, csrf_token, role="admin")
    survivor = memory.merge_entities(entity_id, into, group, actor=CONSOLE_ACTOR)
    flash(
        request,
        "entity.merged",
        name=survivor.entity.name,
        operation=merge_operation(memory, group, into) or "",
    )
    return see_other(f"{MOUNT}/review/candidates")


@router.post("/review/candidates/distinct")
def distinct(
    request: Request, csrf_token: FormText = "", entity_id: FormText = "", candidate_id: FormText = ""
) -> Response:
    """Record that the pair is not the same entity (a ``distinct`` operation); it leaves the queue."""
    _who, memory, group = writer(request, csrf_token)
    operation = memory.mark_distinct(entity_id, candidate_id, group, actor=CONSOLE_ACTOR)
    flash(request, "review.distinct_done", operation=operation.id)
    return see_other(f"{MOUNT}/review/candidates")


@router.get("/review/disputes")
def disputes(request: Request) -> Response:
    """List disputed facts grouped by subject and predicate, each with its evidence."""
    who, memory, group = reader(request)
    return page(request, "review_disputes.html", who, queue="disputes", items=memory.disputes(group))


@router.post("/review/disputes/resolve")
def resolve(
    request: Request,
    csrf_token: FormText = "",
    subject: FormText = "",
    predicate: FormText = "",
    keep: FormText = "",
    keep_all: FormText = "",
    fact: FormList | None = None,
) -> Response:
    """Keep one fact current (the others superseded) or keep all of them: one ``arbitrate`` operation."""
    _who, memory, group = writer(request, csrf_token)
    chosen = list(fact or []) if keep_all else [keep]
    try:
        operation = memory.resolve_dispute(subject, predicate, chosen, group, actor=CONSOLE_ACTOR)
    except Conflict:
        flash(request, "review.dispute_gone")
        return see_other(f"{MOUNT}/review/disputes")
    flash(request, "review.dispute_done", operation=operation.id)
    return see_other(f"{MOUNT}/review/disputes")


@router.get("/review/unclassified")
def unclassified(request: Request) -> Response:
    """List the newest episodes with no intent (set one on the episode's page)."""
    who, memory, group = reader(request)
    return page(
        request,
        "review_unclassified.html",
        who,
        queue="unclassified",
        items=memory.unclassified_episodes(group),
    )
