"""Shape what the REST and MCP shells return for a reader with a context window.

Both shells call these functions, so the limits are the same over REST and MCP:

- limit caps (``engram.models``): a page of episodes or operations holds at most
  ``LIST_LIMIT_MAX`` items, a search of episodes, facts or entities at most ``SEARCH_LIMIT_MAX``;
- long contents are cut to ``ResultLimits.content_chars`` characters, ending in
  ``CONTENT_MARKER``, with ``content_truncated: true`` (reading one episode gives it whole);
- a page of episodes, search hits or operations is cut to ``ResultLimits.budget_bytes`` of JSON
  (at least one item is always kept) and then says where to continue: ``next_cursor``.

Settings: ``ENGRAM_RESULT_CONTENT_CHARS`` (2000) and ``ENGRAM_RESULT_BUDGET_BYTES`` (32768).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, Field
from starlette.responses import Response

from engram.config import Settings
from engram.ingest.inputs import encode_cursor
from engram.models.episodes import Episode, EpisodePage, SearchQuery, SearchResponse, ThreadHits
from engram.models.history import OperationPage
from engram.models.references import ReferenceCitation, ReferenceHead, ReferencePage
from engram.search.engine import group_by_thread
from engram.search.paging import encode_search_cursor, search_offset
from engram.storage.types import PageKey

CONTENT_MARKER = "…"
"""Ends a content that was cut."""

Item = TypeVar("Item", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class ResultLimits:
    """How much one response may carry: characters of content per episode, bytes of JSON per page."""

    content_chars: int = 2000
    budget_bytes: int = 32 * 1024

    def __post_init__(self) -> None:
        if self.content_chars < 1 or self.budget_bytes < 1:
            raise ValueError("content_chars and budget_bytes must be at least 1")

    @classmethod
    def from_settings(cls, settings: Settings) -> ResultLimits:
        """Return the limits ``settings`` configure."""
        return cls(settings.result_content_chars, settings.result_budget_bytes)


# -- what the shells return ----------------------------------------------------------------------


class EpisodeView(Episode):
    """An episode whose content may have been cut (``content_truncated``)."""

    content_truncated: bool = Field(
        default=False, description="True when content was cut here (ends with …); get the episode for all."
    )


class EpisodeViewPage(BaseModel):
    """A page of episodes, newest first; pass ``next_cursor`` back as ``cursor`` for the next page."""

    items: list[EpisodeView]
    next_cursor: str | None = Field(default=None, description="Cursor of the next page; null on the last.")


class ContextView(BaseModel):
    """The episodes around a hit in its thread (session, conversation)."""

    previous: EpisodeView | None = None
    next: EpisodeView | None = None


class SearchHitView(BaseModel):
    """One hit: the episode, its score, the citation to quote and, on request, why it ranked."""

    episode: EpisodeView
    score: float
    citation: str = Field(description="`[source: <episode id>]`: quote it beside what you use.")
    explanation: dict[str, Any] | None = None
    context: ContextView | None = None


class SearchPage(BaseModel):
    """Hits best first, warnings (e.g. a truncated query) and the cursor of the next hits."""

    results: list[SearchHitView]
    warnings: list[str] = Field(default_factory=list)
    threads: list[ThreadHits] | None = Field(default=None, description="With group_by_thread only.")
    next_cursor: str | None = Field(
        default=None, description="Pass back as cursor with the same query for more hits; null: no more."
    )


class ReferenceCitationView(ReferenceCitation):
    """An episode citing the document (content cut as in lists), which version, and its citation."""

    episode: EpisodeView


class ReferencePageView(ReferenceHead):
    """The document's versions and a page of the episodes citing it, newest first."""

    items: list[ReferenceCitationView]
    next_cursor: str | None = Field(default=None, description="Cursor of the next page; null on the last.")


# -- shaping -------------------------------------------------------------------------------------


def episode_view(episode: Episode, max_chars: int) -> EpisodeView:
    """Return ``episode`` with its content cut to ``max_chars`` characters (ending in the marker)."""
    if len(episode.content) <= max_chars:
        return EpisodeView(**dict(episode))
    cut = episode.content[: max(max_chars - len(CONTENT_MARKER), 0)] + CONTENT_MARKER
    return EpisodeView(**{**dict(episode), "content": cut}, content_truncated=True)


def fit(items: Sequence[BaseModel], budget_bytes: int) -> int:
    """Return how many leading ``items`` fit in ``budget_bytes`` of JSON (at least one, if any)."""
    used = 0
    for count, item in enumerate(items):
        used += len(item.model_dump_json().encode())
        if used > budget_bytes and count > 0:
            return count
    return len(items)


def _cut_page(
    items: list[Item], next_cursor: str | None, budget: int, key: Callable[[Item], PageKey]
) -> tuple[list[Item], str | None]:
    kept = fit(items, budget)
    if kept == len(items):
        return items, next_cursor
    return items[:kept], encode_cursor(key(items[kept - 1]))


def episode_page(page: EpisodePage, limits: ResultLimits) -> EpisodeViewPage:
    """Return ``page`` with contents cut and as many episodes as the budget holds."""
    views = [episode_view(episode, limits.content_chars) for episode in page.items]
    items, cursor = _cut_page(
        views, page.next_cursor, limits.budget_bytes, lambda e: PageKey(e.timestamp, e.id)
    )
    return EpisodeViewPage(items=items, next_cursor=cursor)


def reference_page(page: ReferencePage, limits: ResultLimits) -> ReferencePageView:
    """Return ``page`` with contents cut and as many citing episodes as the budget holds."""
    views = [
        ReferenceCitationView(**{**dict(item), "episode": episode_view(item.episode, limits.content_chars)})
        for item in page.items
    ]
    items, cursor = _cut_page(
        views, page.next_cursor, limits.budget_bytes, lambda c: PageKey(c.episode.timestamp, c.episode.id)
    )
    head = {name: value for name, value in dict(page).items() if name not in ("items", "next_cursor")}
    return ReferencePageView(**head, items=items, next_cursor=cursor)


def operation_page(page: OperationPage, limits: ResultLimits) -> OperationPage:
    """Return ``page`` with as many operations as the budget holds."""
    items, cursor = _cut_page(
        page.items, page.next_cursor, limits.budget_bytes, lambda o: PageKey(o.created_at, o.id)
    )
    return OperationPage(items=items, next_cursor=cursor)


def search_page(response: SearchResponse, query: SearchQuery, limits: ResultLimits) -> SearchPage:
    """Return ``response`` (to ``query``) with contents cut and as many hits as the budget holds."""
    chars = limits.content_chars

    def view(episode: Episode | None) -> EpisodeView | None:
        return None if episode is None else episode_view(episode, chars)

    hits = [
        SearchHitView(
            episode=episode_view(hit.episode, chars),
            score=hit.score,
            citation=hit.citation,
            explanation=hit.explanation,
            context=None
            if hit.context is None
            else ContextView(previous=view(hit.context.previous), next=view(hit.context.next)),
        )
        for hit in response.results
    ]
    kept = fit(hits, limits.budget_bytes)
    next_cursor = response.next_cursor
    threads = response.threads
    if kept < len(hits):
        next_cursor = encode_search_cursor(query, search_offset(query) + kept)
        hits = hits[:kept]
        if threads is not None:
            threads = group_by_thread([response.results[i] for i in range(kept)])
    return SearchPage(results=hits, warnings=response.warnings, threads=threads, next_cursor=next_cursor)


def json_response(result: BaseModel) -> Response:
    """Return ``result`` as a 200 JSON response, serialised by pydantic in the caller's thread.

    A plain-function route that returns a model has FastAPI validate it against the response
    model and serialise it in its thread pool: a second thread hop, and the model checked
    twice, per request (docs/decisions.md §36). The route keeps ``response_model`` for its schema.
    """
    return Response(result.model_dump_json(), media_type="application/json")
