"""REST routes for API keys: create, list, revoke (an admin key for every group; engram.keys)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, Path
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from engram.api.rest.episodes import MemoryDep
from engram.api.rest.problems import problem_responses
from engram.api.rest.strict_route import StrictRoute
from engram.keys import MAX_GROUPS, NAME_PATTERN
from engram.models.episodes import ID_PATTERN
from engram.models.keys import ApiKey, CreatedKey
from engram.timeutil import UtcDatetime

router = APIRouter(prefix="/v1", tags=["keys"], route_class=StrictRoute)


class KeyRequest(BaseModel):
    """A new API key: its role, the groups it may touch, an optional name and expiry."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["read", "write", "admin"] = Field(
        description="read: reads; write: also changes memory; "
        "admin: also reverts, merges, archives and manages keys."
    )
    group_ids: (
        Annotated[
            list[Annotated[str, Field(pattern=ID_PATTERN)]],
            Field(min_length=1, max_length=MAX_GROUPS),
        ]
        | None
    ) = Field(description="The groups the key may read and write; null: every group (admin keys only).")
    name: Annotated[str, Field(pattern=NAME_PATTERN)] | None = Field(
        default=None,
        description="Unique name, recorded as the actor of the key's operations; default key-<8 characters>.",
    )
    expires_at: UtcDatetime | None = Field(
        default=None, description="When the key stops working (in the future); null: until revoked."
    )


class KeyList(BaseModel):
    """Every API key, revoked and expired ones included, oldest first (never a secret)."""

    items: list[ApiKey]
    next_cursor: None = Field(default=None, description="Always null: the list is whole.")


class RevokedKey(BaseModel):
    """The revoked key; ``revoked`` is false when it was revoked already (by an earlier call)."""

    key: ApiKey
    revoked: bool


@router.post(
    "/keys",
    status_code=201,
    response_model=CreatedKey,
    summary="Create an API key (shown once)",
    responses=problem_responses(409, 422),
)
def create_key(memory: MemoryDep, request: Annotated[KeyRequest, Body()]) -> JSONResponse:
    """Create a key; the response carries its secret, which is never stored or shown again.

    Needs an admin key for every group (403 otherwise); 409 when the name is taken.
    """
    created = memory.keys.create(request.role, request.group_ids, request.name, expires_at=request.expires_at)
    body = created.model_dump(mode="json")
    return JSONResponse(body, status_code=201, headers={"Cache-Control": "no-store"})


@router.get("/keys", summary="List API keys", response_model=KeyList)
def list_keys(memory: MemoryDep) -> KeyList:
    """Return every key (name, role, groups, prefix, times), never a secret or its digest."""
    return KeyList(items=memory.keys.list_keys())


@router.delete(
    "/keys/{key}",
    summary="Revoke an API key",
    response_model=RevokedKey,
    responses=problem_responses(404, 422),
)
def revoke_key(
    memory: MemoryDep,
    key: Annotated[str, Path(pattern=ID_PATTERN, description="The key's name or id.")],
) -> RevokedKey:
    """Revoke a key: every server on this store refuses it from its next request on."""
    revoked, now = memory.keys.revoke(key)
    return RevokedKey(key=revoked, revoked=now)
