"""The MCP server's history tools: list_operations, revert_operation, delete_episode.

Registered by ``engram.api.mcp.server.create_mcp_server`` on the same ``EngramMCPServer``, so their
errors go through the same mapping (a revert over later changes is a tool error whose
structured content names ``conflicting_operations``). Lists are bounded by ``limit`` (≤ 100).
"""

from __future__ import annotations

from typing import Annotated

from mcp_types import ToolAnnotations
from pydantic import Field

from engram.api.mcp.server import MCP_ACTOR, EngramMCPServer, EpisodeIdArg, GroupIdArg
from engram.memory import Memory
from engram.models.history import OperationPage, OperationView
from engram.timeutil import UtcDatetime

HISTORY_GUIDE = """\
Every change to memory is an operation (ingest, update, extract, merge, delete, revert, …) that \
names the versions of episodes, entities and facts it created and closed. Nothing is lost: \
revert_operation undoes one as a new operation (and reverting a revert re-applies it). If later \
operations changed the same objects the revert is refused and names them: revert those first, \
or pass force=true only when the user wants their changes overwritten."""

OperationIdArg = Annotated[
    str,
    Field(min_length=1, max_length=128, description="Operation id (op_…), as list_operations returns it."),
]


def add_history_tools(
    server: EngramMCPServer, memory: Memory, *, reads: ToolAnnotations, writes: ToolAnnotations
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
        limit: Annotated[int, Field(ge=1, le=100, description="Most operations to return, 1-100.")] = 20,
        cursor: Annotated[str | None, Field(description="next_cursor of the previous page.")] = None,
    ) -> OperationPage:
        """List the audit log of a group, newest first: who changed what, when, and how."""
        return memory.list_operations(
            group_id,
            kind=kind or (),
            after=after,
            before=before,
            entity_id=entity_id,
            episode_id=episode_id,
            limit=limit,
            cursor=cursor,
        )

    def revert_operation(
        id: OperationIdArg,
        group_id: GroupIdArg = None,
        force: Annotated[
            bool,
            Field(strict=True, description="Revert even though later operations changed the same objects."),
        ] = False,
    ) -> OperationView:
        """Undo an operation (a wrong merge, a mistaken update, a deletion) as a new operation.

        Returns the revert operation with the versions it restored and closed.
        """
        return memory.revert_operation(id, group_id, force=force, actor=MCP_ACTOR)

    def delete_episode(id: EpisodeIdArg, group_id: GroupIdArg = None) -> OperationView:
        """Delete (retract) an episode that should not have been remembered.

        Facts backed only by it are retracted, facts also backed by other episodes keep those,
        and any older fact it had superseded is current again. Revertible with revert_operation.
        """
        return memory.delete_episode(id, group_id, actor=MCP_ACTOR)

    server.add_engram_tool(list_operations, reads, guide=HISTORY_GUIDE)
    server.add_engram_tool(revert_operation, writes, guide=HISTORY_GUIDE)
    server.add_engram_tool(delete_episode, writes.model_copy(update={"destructive_hint": True}))
