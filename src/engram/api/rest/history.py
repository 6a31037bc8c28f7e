"""REST routes for history and corrections: the audit log, revert, delete (docs/architecture.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Body, Query
from pydantic import BaseModel, ConfigDict, Field

from engram.api.rest.episodes import REST_ACTOR, GroupQuery, LimitsDep, MemoryDep
from engram.api.results import operation_page
from engram.models.episodes import LIST_LIMIT_MAX
from engram.models.history import OperationPage, OperationView

router = APIRouter(prefix="/v1", tags=["history"])


class RevertRequest(BaseModel):
    """Options of a revert."""

    model_config = ConfigDict(extra="forbid")

    force: bool = Field(
        default=False,
        strict=True,
        description="Revert even though later operations changed the same objects.",
    )


@router.get("/operations", summary="List operations (the audit log), newest first")
def list_operations(
    memory: MemoryDep,
    limits: LimitsDep,
    group_id: GroupQuery = None,
    kind: Annotated[list[str] | None, Query(description="ingest, update, extract, merge, delete, …")] = None,
    after: Annotated[datetime | None, Query(description="Inclusive lower bound on created_at.")] = None,
    before: Annotated[datetime | None, Query(description="Exclusive upper bound on created_at.")] = None,
    entity_id: Annotated[str | None, Query(description="Only operations that touched this entity.")] = None,
    episode_id: Annotated[str | None, Query(description="Only operations that touched this episode.")] = None,
    limit: Annotated[int, Query(ge=1, le=LIST_LIMIT_MAX)] = 50,
    cursor: Annotated[str | None, Query()] = None,
) -> OperationPage:
    """Return a page of operations (up to the byte budget); ``next_cursor`` continues."""
    page = memory.list_operations(
        group_id,
        kind=kind or (),
        after=after,
        before=before,
        entity_id=entity_id,
        episode_id=episode_id,
        limit=limit,
        cursor=cursor,
    )
    return operation_page(page, limits)


@router.get("/operations/{operation_id}", summary="Get an operation and the versions it changed")
def get_operation(memory: MemoryDep, operation_id: str, group_id: GroupQuery = None) -> OperationView:
    """Return the operation with every version it created and closed."""
    return memory.get_operation(operation_id, group_id)


@router.post(
    "/operations/{operation_id}/revert",
    summary="Revert an operation (as a new operation)",
    responses={409: {"description": "Later operations changed the same objects (conflicting_operations)."}},
)
def revert_operation(
    memory: MemoryDep,
    operation_id: str,
    group_id: GroupQuery = None,
    request: Annotated[RevertRequest | None, Body()] = None,
) -> OperationView:
    """Undo an operation; 409 names later operations in the way unless ``force`` is true."""
    force = request.force if request is not None else False
    return memory.revert_operation(operation_id, group_id, force=force, actor=REST_ACTOR)


@router.delete("/episodes/{episode_id}", summary="Delete (retract) an episode; revertible")
def delete_episode(memory: MemoryDep, episode_id: str, group_id: GroupQuery = None) -> OperationView:
    """Retract an episode: facts backed only by it are retracted, the rest lose its provenance.

    Returns the ``delete`` operation; ``POST /v1/operations/{id}/revert`` restores everything.
    """
    return memory.delete_episode(episode_id, group_id, actor=REST_ACTOR)
