"""REST routes for the knowledge graph (docs/architecture.md, "API contract"): entities and facts."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from engram.api.rest.episodes import (
    ETAG_HEADER,
    ETAG_PATTERN,
    REST_ACTOR,
    GroupQuery,
    IdPath,
    KnownAtQuery,
    MemoryDep,
    expected_version,
)
from engram.api.rest.problems import problem_responses
from engram.api.rest.strict_route import StrictRoute
from engram.errors import InvalidInput
from engram.models.graph import (
    ID_PATTERN,
    SEARCH_LIMIT_MAX,
    AddFacts,
    Entity,
    EntityPatch,
    EntityType,
    EntityView,
    FactSearch,
    FactSearchResponse,
    MergeCandidateView,
)
from engram.models.json_values import NUMBER_ONLY

router = APIRouter(prefix="/v1", tags=["knowledge graph"], route_class=StrictRoute)


class EntitySearch(BaseModel):
    """An entity search by name or alias."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    query: Annotated[str, Field(min_length=1, max_length=256, pattern=r"\S")]
    group_id: Annotated[str, Field(pattern=ID_PATTERN)] | None = None
    types: list[EntityType] = Field(default_factory=list, max_length=32)
    limit: Annotated[int, Field(ge=1, le=SEARCH_LIMIT_MAX), NUMBER_ONLY] = 10


class EntityResults(BaseModel):
    """Entities found."""

    results: list[Entity]


class MergeCandidates(BaseModel):
    """Possible duplicate entities, best first."""

    items: list[MergeCandidateView]


@router.get(
    "/entities/merge-candidates",
    summary="List possible duplicate entities for review",
    responses=problem_responses(422),
)
def merge_candidates(memory: MemoryDep, group_id: GroupQuery = None) -> MergeCandidates:
    """Return pairs the resolver was unsure about; merge with POST /v1/entities/{id}/merge."""
    return MergeCandidates(items=memory.merge_candidates(group_id))


def entity_etag(view: EntityView) -> str:
    """Return the ETag of an entity: its version, quoted."""
    return f'"{view.entity.version}"'


@router.get(
    "/entities/{entity_id}",
    summary="Get an entity with its facts and timeline",
    responses={200: {"description": "The entity.", "headers": ETAG_HEADER}, **problem_responses(404, 422)},
)
def get_entity(
    memory: MemoryDep,
    response: Response,
    entity_id: IdPath,
    group_id: GroupQuery = None,
    known_at: KnownAtQuery = None,
) -> EntityView:
    """Return the entity, the facts about it (current, or as known at ``known_at``) and its versions.

    The ETag is the entity's version: send it as ``If-Match`` to PATCH the entity.
    """
    view = memory.get_entity(entity_id, group_id, known_at=known_at)
    response.headers["ETag"] = entity_etag(view)
    return view


@router.patch(
    "/entities/{entity_id}",
    summary="Update an entity's attributes, aliases, summary or type",
    response_model=EntityView,
    responses={
        200: {"description": "The new version.", "headers": ETAG_HEADER},
        **problem_responses(404, 412, 422, 428),
    },
)
def update_entity(
    memory: MemoryDep,
    entity_id: IdPath,
    patch: Annotated[EntityPatch, Body()],
    if_match: Annotated[
        str,
        Header(pattern=ETAG_PATTERN, description='The ETag read, e.g. "3"; stale: 412, absent: 428.'),
    ],
    group_id: GroupQuery = None,
) -> JSONResponse:
    """Apply the change as a new entity version (one ``entity_update`` operation, revertible).

    ``attributes`` is a JSON merge patch (null removes one), ``aliases`` ``{add, remove}``,
    ``summary`` replaces (null removes) it, ``type`` retypes. Needs ``If-Match`` with the
    entity's ETag (its version): stale 412, missing 428. 200 with the entity and its new ETag.
    """
    view = memory.update_entity(
        entity_id,
        patch=patch,
        expected_version=expected_version(
            if_match, lambda: memory.get_entity(entity_id, group_id=group_id).entity.version
        ),
        group_id=group_id,
        actor=REST_ACTOR,
    )
    return JSONResponse(view.model_dump(mode="json"), headers={"ETag": entity_etag(view)})


class Merge(BaseModel):
    """Which entity survives a merge."""

    model_config = ConfigDict(extra="forbid")

    into: Annotated[
        str, Field(pattern=ID_PATTERN, description="The entity that survives; not the one merged.")
    ]
    group_id: Annotated[str, Field(pattern=ID_PATTERN)] | None = None


@router.post(
    "/entities/{entity_id}/merge",
    summary="Merge this entity into another",
    responses=problem_responses(404, 409, 422),
)
def merge_entities(
    memory: MemoryDep, entity_id: IdPath, merge: Annotated[Merge, Body()], group_id: GroupQuery = None
) -> EntityView:
    """Merge ``entity_id`` into ``into``: names, attributes, facts and mentions move; one operation.

    The group is the ``group_id`` query parameter, as for every route that addresses one
    object (the body's ``group_id`` is still read; the two must agree). 404 when either is
    absent; 409 when they are one entity or of different types.
    """
    if group_id is not None and merge.group_id is not None and group_id != merge.group_id:
        raise InvalidInput("the query and the body name different groups", field="group_id")
    return memory.merge_entities(entity_id, merge.into, group_id or merge.group_id, actor=REST_ACTOR)


ENTITY_LINKS = {
    "MergeFirst": {
        "operationRef": "#/paths/~1v1~1entities~1{entity_id}~1merge/post",
        "parameters": {"entity_id": "$response.body#/results/0/id"},
        "description": "Merge the best match into another entity.",
    },
    "GetFirst": {
        "operationRef": "#/paths/~1v1~1entities~1{entity_id}/get",
        "parameters": {"entity_id": "$response.body#/results/0/id"},
        "description": "Read the best match with its facts.",
    },
}


@router.post(
    "/entities/search",
    summary="Search entities by name or alias",
    responses={
        200: {"description": "Entities found, best first.", "links": ENTITY_LINKS},
        **problem_responses(422),
    },
)
def search_entities(memory: MemoryDep, search: Annotated[EntitySearch, Body()]) -> EntityResults:
    """Return entities whose name or alias contains the query's words."""
    found = memory.search_entities(search.query, search.group_id, types=search.types, limit=search.limit)
    return EntityResults(results=found)


@router.post(
    "/facts/search",
    summary="Search facts (current by default; as_of, known_at, history)",
    responses=problem_responses(404, 422),
)
def search_facts(memory: MemoryDep, search: Annotated[FactSearch, Body()]) -> FactSearchResponse:
    """Return facts best first, each with the entities it connects and citations of its episodes."""
    return memory.search_facts(search)


@router.post(
    "/facts",
    status_code=201,
    summary="Add facts extracted from a stored episode",
    responses=problem_responses(404, 422),
)
def add_facts(memory: MemoryDep, request: Annotated[AddFacts, Body()]) -> dict[str, Any]:
    """Resolve the entities and arbitrate the facts against what is known; return the outcomes."""
    return {"result": memory.add_facts(request, actor=REST_ACTOR)}
