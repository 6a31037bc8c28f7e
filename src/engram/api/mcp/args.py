"""Argument types shared by the MCP tools: each argument's JSON schema and the description an agent reads.

Module-level ``Annotated`` aliases, because the SDK resolves a tool's annotations in the globals
of the module that defines it; the tool modules import them from here.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from engram.models.episodes import ID_PATTERN, LIST_LIMIT_MAX
from engram.models.graph import SEARCH_LIMIT_MAX, EntityIn, FactIn
from engram.timeutil import UtcDatetime

MCP_ACTOR = "mcp"
"""The actor recorded on operations made through MCP."""

GroupIdArg = Annotated[
    str | None,
    Field(
        pattern=ID_PATTERN,
        description="Memory namespace (user, team, tenant); omit for the default.",
    ),
]
EpisodeIdArg = Annotated[
    str, Field(min_length=1, max_length=128, description="Episode id (ep_… or your own).")
]
EntityIdArg = Annotated[str, Field(min_length=1, max_length=128, description="Entity id (en_…).")]
LabelList = Annotated[list[str] | None, Field(description="Any of these.")]
KnownAtArg = Annotated[
    UtcDatetime | None,
    Field(description="Transaction time: memory as it was then."),
]
AsOfArg = Annotated[
    UtcDatetime | None,
    Field(description="Valid time: as things were in the world then."),
]
CursorArg = Annotated[str | None, Field(max_length=512, description="next_cursor of the previous call.")]
ListLimitArg = Annotated[
    int, Field(ge=1, le=LIST_LIMIT_MAX, description=f"Most items, 1-{LIST_LIMIT_MAX} (byte budget applies).")
]
SearchLimitArg = Annotated[
    int, Field(ge=1, le=SEARCH_LIMIT_MAX, description=f"Most hits, 1-{SEARCH_LIMIT_MAX}.")
]
EntitiesArg = Annotated[
    list[EntityIn] | None,
    Field(max_length=256, description="Entities you extracted (see the example in the description)."),
]
FactsArg = Annotated[
    list[FactIn] | None,
    Field(max_length=512, description="Facts you extracted; subject/object name entities."),
]
