"""The MCP server's history tools: list_operations, revert_operation, delete_episode.

Registered by ``engram.api.mcp.server.create_mcp_server``, so their calls go through the same
dispatch (a revert over later changes is an error result whose text and ``_meta`` name
``conflicting_operations``). Pages are bounded by ``limit`` and the byte budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp_types import ToolAnnotations
from pydantic import Field

from engram.api.mcp.args import MCP_ACTOR, CursorArg, EpisodeIdArg, GroupIdArg, ListLimitArg
from engram.api.mcp.guides import HISTORY_GUIDE
from engram.api.results import ResultLimits, operation_page
from engram.memory import Memory
from engram.models.history import OperationPage, OperationView
from engram.timeutil import UtcDatetime

if TYPE_CHECKING:
    from engram.api.mcp.server import EngramMCPServer

OperationIdArg = Annotated[
    str,
    Field(min_length=1, max_length=128, description="Operation id (op_…), as list_operations returns it."),
]


def add_history_tools(
    server: EngramMCPServer,
    memory: Memory,
    limits: ResultLimits,
    *,
    reads: ToolAnnotations,
    writes: ToolAnnotations,
) -> None:
    """Register the history tools of ``memory`` on ``server``."""

    def list_operations(
        group_id: GroupIdArg = None,
        kind: Annotated[
            list[str] | None,
            Field(description="Only these kinds: ingest, update, extract, merge, delete, revert…"),
        ] = None,
        entity_id: Annotated[
            str | None, Field(description="Only operations that touched this entity.")
        ] = None,
        episode_id: Annotated[
            str | None, Field(description="Only operations that touched this episode.")
        ] = None,
        after: Annotated[UtcDatetime | None, Field(description="Created at or after, ISO 8601.")] = None,
        before: Annotated[UtcDatetime | None, Field(description="Created before, ISO 8601.")] = None,
        limit: ListLimitArg = 20,
        cursor: CursorArg = None,
    ) -> OperationPage:
        """List the audit log of a group, newest first: who changed what, when, and how."""
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

    def revert_operation(
        id: OperationIdArg,
        group_id: GroupIdArg = None,
        force: Annotated[
            bool,
            Field(strict=True, description="Revert even though later operations changed the same objects."),
        ] = False,
    ) -> OperationView:
        """Undo an operation (a wrong merge, update or deletion) as a new, revertible operation."""
        return memory.revert_operation(id, group_id, force=force, actor=MCP_ACTOR)

    def delete_episode(id: EpisodeIdArg, group_id: GroupIdArg = None) -> OperationView:
        """Retract an episode: facts only it backs are retracted, facts it superseded come back.

        Revertible with revert_operation.
        """
        return memory.delete_episode(id, group_id, actor=MCP_ACTOR)

    server.add_engram_tool(list_operations, reads)
    server.add_engram_tool(revert_operation, writes, guide=HISTORY_GUIDE)
    server.add_engram_tool(delete_episode, writes.model_copy(update={"destructive_hint": True}))
