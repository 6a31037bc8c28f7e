"""REST routes for the knowledge graph (docs/architecture.md, "API contract"): entities and facts."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from pydantic import BaseModel, ConfigDict, Field

from engram.api.rest.episodes import REST_ACTOR, GroupQuery, IdPath, KnownAtQuery, MemoryDep
from engram.api.rest.json_body import StrictJSONRoute
from engram.api.rest.problems import problem_responses
from engram.models.graph import (
    ID_PATTERN,
    SEARCH_LIMIT_MAX,
    AddFacts,
    Entity,
    EntityType,
    EntityView,
    FactSearch,
    FactSearchResponse,
    MergeCandidateView,
)
from engram.models.json_values import NUMBER_ONLY

router = APIRouter(prefix="/v1", tags=["knowledge graph"], route_class=StrictJSONRoute)


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


@router.get(
    "/entities/{entity_id}",
    summary="Get an entity with its facts and timeline",
    responses=problem_responses(404, 422),
)
def get_entity(
    memory: MemoryDep, entity_id: IdPath, group_id: GroupQuery = None, known_at: KnownAtQuery = None
) -> EntityView:
    """Return the entity, the facts about it (current, or as known at ``known_at``) and its versions."""
    return memory.get_entity(entity_id, group_id, known_at=known_at)


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
def merge_entities(memory: MemoryDep, entity_id: IdPath, merge: Annotated[Merge, Body()]) -> EntityView:
    """Merge ``entity_id`` into ``into``: names, attributes, facts and mentions move; one operation.

    404 when either is absent; 409 when they are one entity or of different types.
    """
    return memory.merge_entities(entity_id, merge.into, merge.group_id, actor=REST_ACTOR)


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
