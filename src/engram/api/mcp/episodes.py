"""The MCP server's episode tools: create, update, get, list and search episodes.

Registered by ``engram.api.mcp.server.create_mcp_server``. Each tool is a few lines over
``Memory``; lists and searches go through ``engram.api.results`` (content cut, byte budget,
cursor), exactly as the REST routes do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from engram.api.mcp.args import (
    MCP_ACTOR,
    AsOfArg,
    CursorArg,
    EntitiesArg,
    EpisodeIdArg,
    FactsArg,
    GroupIdArg,
    KnownAtArg,
    LabelList,
    ListLimitArg,
    SearchLimitArg,
)
from engram.api.mcp.guides import EXTRACTION_GUIDE
from engram.api.results import (
    EpisodeView,
    EpisodeViewPage,
    ResultLimits,
    SearchPage,
    episode_page,
    episode_view,
    search_page,
)
from engram.ingest.inputs import validated
from engram.memory import Memory
from engram.models.episodes import (
    ID_PATTERN,
    Actor,
    BatchProblem,
    Episode,
    EpisodeFilters,
    EpisodePatch,
    SearchQuery,
)
from engram.timeutil import UtcDatetime

if TYPE_CHECKING:
    from engram.api.mcp.server import EngramMCPServer


class EpisodeResult(BaseModel):
    """One episode, in full."""

    episode: Episode


class CreateEpisodeResult(BaseModel):
    """The stored episode; ``deduplicated`` is true when it already existed and nothing was written."""

    episode: EpisodeView
    deduplicated: bool
    unknown_predicates: list[str] = Field(
        default_factory=list, description="Predicates not in the registry: kept as given, many-valued."
    )


class BatchItemView(BaseModel):
    """One item's answer: ``created`` or ``deduplicated`` with the episode, or ``failed`` with the problem."""

    index: int
    status: str = Field(description="created · deduplicated · failed")
    episode: EpisodeView | None = None
    problem: BatchProblem | None = Field(default=None, description="Why it failed: title, detail, field.")


class BatchCreateResult(BaseModel):
    """A result per episode, in the order sent, and the totals."""

    results: list[BatchItemView]
    created: int
    deduplicated: int
    failed: int


EpisodesArg = Annotated[
    list[dict[str, Any]],
    Field(
        min_length=1,
        description=("Each item: create_episode's arguments. At most ENGRAM_MAX_BATCH_EPISODES (100)."),
    ),
]


def add_episode_tools(
    server: EngramMCPServer,
    memory: Memory,
    limits: ResultLimits,
    *,
    reads: ToolAnnotations,
    writes: ToolAnnotations,
) -> None:
    """Register the episode tools of ``memory`` on ``server``; results are bounded by ``limits``."""

    def create_episode(
        content: Annotated[
            str | dict[str, Any],
            Field(description="What happened: text, or a JSON object. Not empty."),
        ],
        group_id: GroupIdArg = None,
        actor: Annotated[Actor | None, Field(description="Who produced it.")] = None,
        intent: Annotated[
            str | None, Field(description="What it is for: confirm_date, complain_product, ...")
        ] = None,
        timestamp: Annotated[
            UtcDatetime | None,
            Field(description="When it happened, ISO 8601 (no offset = UTC). Default now."),
        ] = None,
        source: Annotated[
            str | None, Field(description="Where it came from: slack, email, chat, ...")
        ] = None,
        source_type: Annotated[
            str | None, Field(description="message (default for text) or json (default for objects).")
        ] = None,
        metadata: Annotated[dict[str, Any] | None, Field(description="Free JSON object; filterable.")] = None,
        references: Annotated[list[str] | None, Field(description="Ids or URLs it refers to.")] = None,
        id: Annotated[
            str | None, Field(pattern=ID_PATTERN, description="Your own id; default a new ep_… id.")
        ] = None,
        entities: EntitiesArg = None,
        facts: FactsArg = None,
    ) -> CreateEpisodeResult:
        """Store one episode (a message, note or JSON record) and the facts it states.

        Safe to retry: the same intent, content and actor id (or the same id) in the group is
        stored once; the stored one comes back with deduplicated: true. Returns the episode id
        and version (for update_episode); search_facts then finds its facts, citing it.
        """
        data: dict[str, Any] = {"content": content, "group_id": group_id, "actor": actor, "intent": intent}
        data |= {"timestamp": timestamp, "source": source, "source_type": source_type, "id": id}
        data |= {"metadata": metadata, "references": references, "entities": entities, "facts": facts}
        created = memory.create_episode({k: v for k, v in data.items() if v is not None}, actor=MCP_ACTOR)
        view = episode_view(created.episode, limits.content_chars)
        return CreateEpisodeResult(
            episode=view, deduplicated=created.deduplicated, unknown_predicates=created.unknown_predicates
        )

    def create_episodes(episodes: EpisodesArg) -> BatchCreateResult:
        """Store many episodes; each gets a result.

        created, deduplicated (a retry is safe) or failed, naming the field.
        """
        batch = memory.create_episodes_each(episodes, actor=MCP_ACTOR)
        views = [
            BatchItemView(
                index=item.index,
                status=item.status,
                episode=None if item.episode is None else episode_view(item.episode, limits.content_chars),
                problem=item.problem,
            )
            for item in batch.results
        ]
        return BatchCreateResult(
            results=views, created=batch.created, deduplicated=batch.deduplicated, failed=batch.failed
        )

    def update_episode(
        id: EpisodeIdArg,
        expected_version: Annotated[int, Field(ge=1, description="The version you last read.")],
        patch: Annotated[EpisodePatch, Field(description="JSON merge patch; absent keys stay.")],
        group_id: GroupIdArg = None,
    ) -> EpisodeResult:
        """Change an episode's metadata, intent, status or references as a new version.

        Content never changes (store a correction as a new episode). A stale expected_version
        is refused, naming the current one: get_episode, re-apply, retry.
        """
        episode = memory.update_episode(
            id, patch, expected_version=expected_version, group_id=group_id, actor=MCP_ACTOR
        )
        return EpisodeResult(episode=episode)

    def get_episode(
        id: EpisodeIdArg, group_id: GroupIdArg = None, known_at: KnownAtArg = None
    ) -> EpisodeResult:
        """Return one episode in full (content never cut), with its current version.

        Open a citation [source: id] with it, or read it before update_episode.
        """
        return EpisodeResult(episode=memory.get_episode(id, group_id, known_at=known_at))

    def list_episodes(
        group_id: GroupIdArg = None,
        after: Annotated[UtcDatetime | None, Field(description="Timestamp at or after.")] = None,
        before: Annotated[UtcDatetime | None, Field(description="Timestamp before.")] = None,
        intent: LabelList = None,
        source: LabelList = None,
        actor_id: LabelList = None,
        limit: ListLimitArg = 20,
        cursor: CursorArg = None,
        known_at: KnownAtArg = None,
        as_of: AsOfArg = None,
    ) -> EpisodeViewPage:
        """List a group's episodes, newest first by timestamp, a page at a time (next_cursor)."""
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

    def search_episodes(
        query: Annotated[
            str,
            Field(description="Words to look for, any language (Chinese is segmented). Empty: newest first."),
        ],
        group_id: GroupIdArg = None,
        filters: Annotated[EpisodeFilters | None, Field(description="Applied before ranking.")] = None,
        limit: SearchLimitArg = 10,
        explain: Annotated[bool, Field(description="Add per-channel ranks and scores.")] = False,
        known_at: KnownAtArg = None,
        as_of: AsOfArg = None,
        cursor: CursorArg = None,
    ) -> SearchPage:
        """Search a group's episodes by relevance (full text, vectors, graph); best first.

        Quote each hit's citation [source: <episode id>] beside what you take from it.
        """
        search: SearchQuery = validated(
            SearchQuery,
            {
                "query": query,
                "group_id": group_id,
                "filters": filters or EpisodeFilters(),
                "limit": limit,
                "explain": explain,
                "known_at": known_at,
                "as_of": as_of,
                "cursor": cursor,
            },
            "query",
        )
        return search_page(memory.search_episodes(search), search, limits)

    server.add_engram_tool(
        create_episode, writes.model_copy(update={"idempotent_hint": True}), guide=EXTRACTION_GUIDE
    )
    server.add_engram_tool(create_episodes, writes.model_copy(update={"idempotent_hint": True}))
    server.add_engram_tool(update_episode, writes)
    server.add_engram_tool(get_episode, reads)
    server.add_engram_tool(list_episodes, reads)
    server.add_engram_tool(search_episodes, reads)
