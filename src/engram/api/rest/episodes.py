"""REST routes for episodes (docs/architecture.md, "API contract"). Each route is a few lines over Memory."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from engram.api.rest.problems import problem_responses
from engram.api.rest.strict_route import StrictRoute
from engram.api.results import (
    EpisodeViewPage,
    ResultLimits,
    SearchPage,
    episode_page,
    json_response,
    search_page,
)
from engram.errors import InvalidInput, PreconditionFailed, PreconditionRequired
from engram.memory import Memory
from engram.models.episodes import (
    AS_OF,
    ID_PATTERN,
    KNOWN_AT,
    LIST_LIMIT_MAX,
    MAX_FILTER_VALUES,
    BatchResult,
    CreatedEpisode,
    Episode,
    EpisodeIn,
    EpisodePatch,
    SearchQuery,
)
from engram.models.json_values import NOT_BLANK
from engram.timeutil import UtcDatetime

REST_ACTOR = "rest"
ETAG_PATTERN = r'^\s*(?:\*|(W/)?"?([1-9][0-9]{0,17})"?)\s*$'
"""An ``If-Match`` value: ``*``, or one ETag (``"3"``, bare ``3``, or weak ``W/"3"``, which never matches)."""
_ETAG = re.compile(ETAG_PATTERN)
CURSOR_PATTERN = r"^[A-Za-z0-9_-]{1,512}$"
"""What a next_cursor looks like (opaque, URL-safe base64); only ones the server issued are valid."""
ETAG_HEADER = {
    "ETag": {
        "description": 'The version read, e.g. "3": send it back as If-Match.',
        "schema": {"type": "string"},
    }
}

router = APIRouter(prefix="/v1", route_class=StrictRoute, tags=["episodes"])


class EpisodeResult(BaseModel):
    """One episode version (its ETag header names the version)."""

    episode: Episode


# The dependencies are coroutines though they await nothing: FastAPI runs a plain function's
# dependency in its thread pool, a thread hop per request for reading an attribute.


async def get_memory(request: Request) -> Memory:
    """Return the app's Memory (set by create_app)."""
    memory: Memory = request.app.state.memory
    return memory


MemoryDep = Annotated[Memory, Depends(get_memory)]


async def get_limits(request: Request) -> ResultLimits:
    """Return the result limits of the app's Memory (the same as over MCP)."""
    return ResultLimits.from_settings((await get_memory(request)).settings)


LimitsDep = Annotated[ResultLimits, Depends(get_limits)]
GroupQuery = Annotated[
    str | None,
    Query(pattern=ID_PATTERN, description="Group of the object; the default group when absent."),
]
IdPath = Annotated[str, Path(pattern=ID_PATTERN, description="The object's id.")]
TIME = " ISO 8601 (no offset = UTC) or Unix seconds; years 1-9999."
KnownAtQuery = Annotated[UtcDatetime | None, Query(description=KNOWN_AT + TIME)]
LabelsQuery = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=128, pattern=NOT_BLANK)]] | None,
    Query(max_length=MAX_FILTER_VALUES, description="Any of these values (repeat the parameter)."),
]
ActorIdsQuery = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=256, pattern=NOT_BLANK)]] | None,
    Query(max_length=MAX_FILTER_VALUES, description="Any of these actor ids (repeat the parameter)."),
]


def _episode_response(body: dict[str, Any], etag: str, status_code: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status_code, headers={"ETag": etag})


def expected_version(if_match: str | None, current_version: Callable[[], int]) -> int:
    """Return the version an ``If-Match`` header requires (RFC 9110 §13.1.1).

    ``"3"`` (or bare ``3``) requires version 3; ``*`` requires only that the resource exists,
    so it names the current version (``current_version()``, which raises NotFound). ETags are
    compared strongly: a weak ``W/"3"`` never matches, so it fails as stale. Raises
    PreconditionRequired when absent, PreconditionFailed for a weak ETag, InvalidInput when
    the value names no version.
    """
    if if_match is None:
        raise PreconditionRequired("PATCH needs an If-Match header with the ETag you read", field="If-Match")
    match = _ETAG.match(if_match)
    if match is None:
        raise InvalidInput(f"If-Match {if_match!r} is not an ETag of this API", field="If-Match")
    weak, version = match.groups()
    if version is None:
        return current_version()
    if weak:
        raise PreconditionFailed(
            f"If-Match {if_match.strip()} is a weak ETag and updates compare ETags strongly: "
            f'send "{version}"',
            current_version=current_version(),
            field="If-Match",
        )
    return int(version)


@router.post(
    "/episodes",
    status_code=201,
    response_model=CreatedEpisode,
    responses={
        201: {"description": "Stored.", "headers": ETAG_HEADER},
        200: {
            "description": "Duplicate: the stored episode, with deduplicated true.",
            "model": CreatedEpisode,
            "headers": ETAG_HEADER,
        },
        **problem_responses(409, 422),
    },
    summary="Create an episode",
)
def create_episode(memory: MemoryDep, episode: Annotated[EpisodeIn, Body()]) -> JSONResponse:
    """Store an episode; a duplicate fingerprint (or client id) returns the stored one with 200."""
    created = memory.create_episode(episode, actor=REST_ACTOR)
    body = created.model_dump(
        mode="json", exclude={"unknown_predicates"} if not created.unknown_predicates else None
    )
    return _episode_response(body, created.episode.etag, 200 if created.deduplicated else 201)


class EpisodeBatch(BaseModel):
    """Many episodes to create; each is checked and stored on its own (see BatchResult)."""

    model_config = ConfigDict(extra="forbid")
    episodes: list[Any] = Field(
        min_length=1,
        description="Episodes, each as the body of POST /v1/episodes; at most ENGRAM_MAX_BATCH_EPISODES.",
    )


@router.post(
    "/episodes:batch",
    summary="Create many episodes, each with its own result",
    response_description="A result per item, in order: created, deduplicated, or failed with its problem.",
    responses=problem_responses(422),
)
def create_episodes_batch(memory: MemoryDep, batch: Annotated[EpisodeBatch, Body()]) -> BatchResult:
    """Store up to N episodes; an invalid or oversized item fails alone (its problem names the field)."""
    return memory.create_episodes_each(batch.episodes, actor=REST_ACTOR)


@router.get(
    "/episodes/{episode_id}",
    summary="Get an episode",
    response_model=EpisodeResult,
    responses={200: {"description": "The episode.", "headers": ETAG_HEADER}, **problem_responses(404, 422)},
)
def get_episode(
    memory: MemoryDep, episode_id: IdPath, group_id: GroupQuery = None, known_at: KnownAtQuery = None
) -> JSONResponse:
    """Return the current version of an episode (or the one held at ``known_at``), with its ETag."""
    episode = memory.get_episode(episode_id, group_id, known_at=known_at)
    return _episode_response({"episode": episode.model_dump(mode="json")}, episode.etag)


@router.patch(
    "/episodes/{episode_id}",
    summary="Update an episode's metadata, intent, status or references",
    response_model=EpisodeResult,
    responses={
        200: {"description": "The new version.", "headers": ETAG_HEADER},
        **problem_responses(404, 412, 422, 428),
    },
)
def update_episode(
    memory: MemoryDep,
    episode_id: IdPath,
    patch: Annotated[EpisodePatch, Body()],
    if_match: Annotated[
        str,
        Header(pattern=ETAG_PATTERN, description='The ETag read, e.g. "3"; stale: 412, absent: 428.'),
    ],
    group_id: GroupQuery = None,
) -> JSONResponse:
    """Apply a JSON merge patch as a new version; needs ``If-Match`` (stale 412, missing 428)."""
    episode = memory.update_episode(
        episode_id,
        patch,
        expected_version=expected_version(
            if_match, lambda: memory.get_episode(episode_id, group_id=group_id).version
        ),
        group_id=group_id,
        actor=REST_ACTOR,
    )
    return _episode_response({"episode": episode.model_dump(mode="json")}, episode.etag)


@router.get(
    "/episodes",
    summary="List episodes, newest first",
    response_model=EpisodeViewPage,
    responses=problem_responses(422),
)
def list_episodes(
    memory: MemoryDep,
    limits: LimitsDep,
    group_id: GroupQuery = None,
    after: Annotated[
        UtcDatetime | None, Query(description="Inclusive lower bound on timestamp." + TIME)
    ] = None,
    before: Annotated[
        UtcDatetime | None, Query(description="Exclusive upper bound on timestamp." + TIME)
    ] = None,
    intent: LabelsQuery = None,
    source: LabelsQuery = None,
    actor_id: ActorIdsQuery = None,
    limit: Annotated[int, Query(ge=1, le=LIST_LIMIT_MAX)] = 50,
    cursor: Annotated[
        str | None, Query(pattern=CURSOR_PATTERN, description="next_cursor of the previous page.")
    ] = None,
    known_at: KnownAtQuery = None,
    as_of: Annotated[UtcDatetime | None, Query(description=AS_OF + TIME)] = None,
) -> Response:
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
    return json_response(episode_page(page, limits))


@router.post(
    "/episodes/search",
    summary="Search episodes",
    response_model=SearchPage,
    responses=problem_responses(422),
)
def search_episodes(memory: MemoryDep, limits: LimitsDep, query: Annotated[SearchQuery, Body()]) -> Response:
    """Return the best matching episodes, each with ``score`` and ``citation``.

    Long contents are cut (``content_truncated``); past the byte budget, ``next_cursor`` continues.
    """
    return json_response(search_page(memory.search_episodes(query), query, limits))


health_router = APIRouter()


@health_router.get("/healthz", summary="Liveness", response_model=dict[str, Any])
def healthz(memory: MemoryDep) -> Response:
    """Return ok with the schema version when the store answers."""
    body = {"status": "ok", "schema_version": memory.store.schema_version()}
    return JSONResponse(body, headers={"Cache-Control": "no-store"})
