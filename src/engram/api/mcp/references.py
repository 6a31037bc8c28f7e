"""The MCP server's reference tool: the episodes citing a document, asked for by id or by name.

Registered by ``engram.api.mcp.server.create_mcp_server``; a few lines over
``Memory.reference_episodes``, bounded by ``engram.api.results`` as the REST route is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp_types import ToolAnnotations
from pydantic import Field

from engram.api.mcp.args import CursorArg, GroupIdArg, KnownAtArg, ListLimitArg
from engram.api.results import ReferencePageView, ResultLimits, reference_page
from engram.memory import Memory
from engram.models.references import MAX_REFERENCE_CHARS

if TYPE_CHECKING:
    from engram.api.mcp.server import EngramMCPServer


def add_reference_tools(
    server: EngramMCPServer, memory: Memory, limits: ResultLimits, *, reads: ToolAnnotations
) -> None:
    """Register the reference tool of ``memory`` on ``server``; results are bounded by ``limits``."""

    def get_reference(
        ref: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_REFERENCE_CHARS,
                description="An id from an episode's references (no version: all), or a file name or title.",
            ),
        ],
        group_id: GroupIdArg = None,
        limit: ListLimitArg = 20,
        cursor: CursorArg = None,
        known_at: KnownAtArg = None,
    ) -> ReferencePageView:
        """List a document's versions (latest marked) and the episodes citing it.

        Follow an episode's references to the email, contract or page behind it.
        """
        page = memory.reference_episodes(ref, group_id, limit=limit, cursor=cursor, known_at=known_at)
        return reference_page(page, limits)

    server.add_engram_tool(get_reference, reads)
