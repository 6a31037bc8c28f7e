"""REST route for references: the episodes citing a document, asked for by id or by name."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from engram.api.rest.episodes import CURSOR_PATTERN, GroupQuery, KnownAtQuery, LimitsDep, MemoryDep
from engram.api.rest.problems import problem_responses
from engram.api.rest.strict_route import StrictRoute
from engram.api.results import ReferencePageView, reference_page
from engram.models.episodes import LIST_LIMIT_MAX

router = APIRouter(prefix="/v1", tags=["references"], route_class=StrictRoute)


@router.get(
    "/references/{ref:path}/episodes",
    summary="List the episodes citing a document (by reference id or name)",
    responses=problem_responses(404, 422),
)
def reference_episodes(
    memory: MemoryDep,
    limits: LimitsDep,
    ref: Annotated[
        str,
        Path(
            description="A reference id (doc-quote-2024-q3-v2; without the version: every version), "
            "or a name people write for it (a file name, a title). URL-encoded."
        ),
    ],
    group_id: GroupQuery = None,
    limit: Annotated[int, Query(ge=1, le=LIST_LIMIT_MAX)] = 50,
    cursor: Annotated[
        str | None, Query(pattern=CURSOR_PATTERN, description="next_cursor of the previous page.")
    ] = None,
    known_at: KnownAtQuery = None,
) -> ReferencePageView:
    """Return the document's known versions (the latest marked) and the episodes citing it, newest first.

    Each item says which version it cites (``cites``) or is part of (``part_of``); ``note`` says
    when the version asked for is not the latest. Pass ``next_cursor`` back as ``cursor``.
    """
    page = memory.reference_episodes(ref, group_id, limit=limit, cursor=cursor, known_at=known_at)
    return reference_page(page, limits)
