"""REST routes for history and corrections: the audit log, revert, delete (docs/architecture.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query
from pydantic import BaseModel, ConfigDict, Field

from engram.api.rest.episodes import (
    CURSOR_PATTERN,
    REST_ACTOR,
    TIME,
    GroupQuery,
    IdPath,
    LimitsDep,
    MemoryDep,
)
from engram.api.rest.problems import problem_responses
from engram.api.rest.strict_route import StrictRoute
from engram.api.results import operation_page
from engram.models.episodes import ID_PATTERN, LIST_LIMIT_MAX, MAX_FILTER_VALUES, OPERATION_KINDS
from engram.models.history import OperationPage, OperationView
from engram.timeutil import UtcDatetime

router = APIRouter(prefix="/v1", tags=["history"], route_class=StrictRoute)
# Memory checks the kind (422 naming it); the schema lists the kinds so clients can offer them.
OperationKind = Annotated[str, Field(json_schema_extra={"enum": sorted(OPERATION_KINDS)})]


class RevertRequest(BaseModel):
    """Options of a revert."""

    model_config = ConfigDict(extra="forbid")

    force: bool = Field(
        default=False,
        strict=True,
        description="Revert even though later operations changed the same objects.",
    )


@router.get(
    "/operations", summary="List operations (the audit log), newest first", responses=problem_responses(422)
)
def list_operations(
    memory: MemoryDep,
    limits: LimitsDep,
    group_id: GroupQuery = None,
    kind: Annotated[
        list[OperationKind] | None,
        Query(max_length=MAX_FILTER_VALUES, description="Any of these kinds (repeat the parameter)."),
    ] = None,
    after: Annotated[
        UtcDatetime | None, Query(description="Inclusive lower bound on created_at." + TIME)
    ] = None,
    before: Annotated[
        UtcDatetime | None, Query(description="Exclusive upper bound on created_at." + TIME)
    ] = None,
    entity_id: Annotated[
        str | None, Query(pattern=ID_PATTERN, description="Only operations that touched this entity.")
    ] = None,
    episode_id: Annotated[
        str | None, Query(pattern=ID_PATTERN, description="Only operations that touched this episode.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=LIST_LIMIT_MAX)] = 50,
    cursor: Annotated[
        str | None, Query(pattern=CURSOR_PATTERN, description="next_cursor of the previous page.")
    ] = None,
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


@router.get(
    "/operations/{operation_id}",
    summary="Get an operation and the versions it changed",
    responses=problem_responses(404, 422),
)
def get_operation(memory: MemoryDep, operation_id: IdPath, group_id: GroupQuery = None) -> OperationView:
    """Return the operation with every version it created and closed."""
    return memory.get_operation(operation_id, group_id)


@router.post(
    "/operations/{operation_id}/revert",
    summary="Revert an operation (as a new operation)",
    responses=problem_responses(404, 409, 422),
)
def revert_operation(
    memory: MemoryDep,
    operation_id: IdPath,
    group_id: GroupQuery = None,
    request: Annotated[RevertRequest | None, Body()] = None,
) -> OperationView:
    """Undo an operation as a new one.

    409 when the history forbids it: later operations in the way (``conflicting_operations``;
    ``force`` overrides), already reverted, a purge, or nothing left to revert.
    """
    force = request.force if request is not None else False
    return memory.revert_operation(operation_id, group_id, force=force, actor=REST_ACTOR)


@router.delete(
    "/episodes/{episode_id}",
    summary="Delete (retract) an episode; revertible",
    responses=problem_responses(404, 422),
)
def delete_episode(memory: MemoryDep, episode_id: IdPath, group_id: GroupQuery = None) -> OperationView:
    """Retract an episode: facts backed only by it are retracted, the rest lose its provenance.

    Returns the ``delete`` operation; ``POST /v1/operations/{id}/revert`` restores everything.
    """
    return memory.delete_episode(episode_id, group_id, actor=REST_ACTOR)
