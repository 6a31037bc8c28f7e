"""REST routes for episodes (docs/architecture.md, "API contract"). Each route is a few lines over Memory."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from fastapi.responses import JSONResponse

from engram.api.results import EpisodeViewPage, ResultLimits, SearchPage, episode_page, search_page
from engram.errors import InvalidInput, PreconditionRequired
from engram.memory import Memory
from engram.models.episodes import AS_OF, KNOWN_AT, LIST_LIMIT_MAX, EpisodeIn, EpisodePatch, SearchQuery

REST_ACTOR = "rest"
_ETAG = re.compile(r'^\s*(?:W/)?"?(\d+)"?\s*$')

router = APIRouter(prefix="/v1")


def get_memory(request: Request) -> Memory:
    """Return the app's Memory (set by create_app)."""
    memory: Memory = request.app.state.memory
    return memory


MemoryDep = Annotated[Memory, Depends(get_memory)]


def get_limits(request: Request) -> ResultLimits:
    """Return the result limits of the app's Memory (the same as over MCP)."""
    return ResultLimits.from_settings(get_memory(request).settings)


LimitsDep = Annotated[ResultLimits, Depends(get_limits)]
GroupQuery = Annotated[str | None, Query(description="Group of the episode; the default group when absent.")]
KnownAtQuery = Annotated[datetime | None, Query(description=KNOWN_AT)]


def _episode_response(body: dict[str, Any], etag: str, status_code: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status_code, headers={"ETag": etag})


def parse_if_match(value: str | None) -> int:
    """Return the version an ``If-Match`` header names (``"3"``, ``W/"3"`` or ``3``).

    Raises PreconditionRequired when absent, InvalidInput when it names no version.
    """
    if value is None:
        raise PreconditionRequired("PATCH needs an If-Match header with the ETag you read", field="If-Match")
    match = _ETAG.match(value)
    if match is None:
        raise InvalidInput(f"If-Match {value!r} is not an ETag of this API", field="If-Match")
    return int(match.group(1))


@router.post(
    "/episodes",
    status_code=201,
    responses={200: {"description": "Duplicate: the stored episode, with deduplicated true."}},
    summary="Create an episode",
)
def create_episode(memory: MemoryDep, episode: Annotated[EpisodeIn, Body()]) -> JSONResponse:
    """Store an episode; a duplicate fingerprint (or client id) returns the stored one with 200."""
    created = memory.create_episode(episode, actor=REST_ACTOR)
    body = created.model_dump(
        mode="json", exclude={"unknown_predicates"} if not created.unknown_predicates else None
    )
    return _episode_response(body, created.episode.etag, 200 if created.deduplicated else 201)


@router.get("/episodes/{episode_id}", summary="Get an episode")
def get_episode(
    memory: MemoryDep, episode_id: str, group_id: GroupQuery = None, known_at: KnownAtQuery = None
) -> JSONResponse:
    """Return the current version of an episode (or the one held at ``known_at``), with its ETag."""
    episode = memory.get_episode(episode_id, group_id, known_at=known_at)
    return _episode_response({"episode": episode.model_dump(mode="json")}, episode.etag)


@router.patch("/episodes/{episode_id}", summary="Update an episode's metadata, intent, status or references")
def update_episode(
    memory: MemoryDep,
    episode_id: str,
    patch: Annotated[EpisodePatch, Body()],
    group_id: GroupQuery = None,
    if_match: Annotated[str | None, Header()] = None,
) -> JSONResponse:
    """Apply a JSON merge patch as a new version; needs ``If-Match`` (stale 412, missing 428)."""
    episode = memory.update_episode(
        episode_id, patch, expected_version=parse_if_match(if_match), group_id=group_id, actor=REST_ACTOR
    )
    return _episode_response({"episode": episode.model_dump(mode="json")}, episode.etag)


@router.get("/episodes", summary="List episodes, newest first")
def list_episodes(
    memory: MemoryDep,
    limits: LimitsDep,
    group_id: GroupQuery = None,
    after: Annotated[datetime | None, Query(description="Inclusive lower bound on timestamp.")] = None,
    before: Annotated[datetime | None, Query(description="Exclusive upper bound on timestamp.")] = None,
    intent: Annotated[list[str] | None, Query()] = None,
    source: Annotated[list[str] | None, Query()] = None,
    actor_id: Annotated[list[str] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=LIST_LIMIT_MAX)] = 50,
    cursor: Annotated[str | None, Query()] = None,
    known_at: KnownAtQuery = None,
    as_of: Annotated[datetime | None, Query(description=AS_OF)] = None,
) -> EpisodeViewPage:
    """Return a page of episodes; pass ``next_cursor`` back as ``cursor`` for the next one.

    Long contents are cut (``content_truncated``) and the page stops at the byte budget.
    """
    page = memory.list_episodes(
        group_id,
        after=after,
        before=before,
        intent=intent or (),
        source=source or (),
        actor_id=actor_id or (),
        limit=limit,
        cursor=cursor,
        known_at=known_at,
        as_of=as_of,
    )
    return episode_page(page, limits)


@router.post("/episodes/search", summary="Search episodes")
def search_episodes(
    memory: MemoryDep, limits: LimitsDep, query: Annotated[SearchQuery, Body()]
) -> SearchPage:
    """Return the best matching episodes, each with ``score`` and ``citation``.

    Long contents are cut (``content_truncated``); past the byte budget, ``next_cursor`` continues.
    """
    return search_page(memory.search_episodes(query), query, limits)


health_router = APIRouter()


@health_router.get("/healthz", summary="Liveness")
def healthz(memory: MemoryDep, response: Response) -> dict[str, Any]:
    """Return ok with the schema version when the store answers."""
    response.headers["Cache-Control"] = "no-store"
    return {"status": "ok", "schema_version": memory.store.schema_version()}
