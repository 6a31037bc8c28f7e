"""The MCP server: Engram's tools over the official ``mcp`` SDK (2.x), on stdio or streamable HTTP.

Episode tools live here; the knowledge-graph tools (search_facts, search_entities, get_entity,
add_facts) in ``engram.api.mcp.graph``, registered by ``create_mcp_server``.

Each tool is a few lines over ``Memory``. Tools are plain functions: the SDK runs them on a
worker thread (``anyio.to_thread``), so a slow store call never blocks the event loop or
other sessions. Results are pydantic models, which the SDK sends as ``structuredContent``
(plus the same JSON as text) and validates against each tool's ``outputSchema``.

Errors are mapped in one place, ``EngramMCPServer.call_tool``: an ``EngramError`` raised by
Memory, arguments that fail the SDK's schema validation, and unknown argument names all come
back as a tool result with ``isError`` true, a one-line message naming the field, and
``structuredContent.error`` (``type``, ``title``, ``detail``, ``field``, ``current_version``).
Anything else is a bug: the SDK logs its traceback and tells the client only that the tool failed.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError
from starlette.routing import Route

from engram import __version__
from engram.errors import EngramError, PreconditionFailed
from engram.memory import Memory
from engram.models.episodes import (
    ID_PATTERN,
    Actor,
    BatchProblem,
    Episode,
    EpisodeFilters,
    EpisodePatch,
    SearchHit,
)
from engram.models.graph import EntityIn, FactIn

MCP_ACTOR = "mcp"
"""The actor recorded on operations made through MCP."""
MCP_PATH = "/mcp"
DEFAULT_MAX_CONTENT_CHARS = 2000
"""Longest content shown per episode in create, list and search results; get_episode shows all."""
LIST_LIMIT_MAX = 100
SEARCH_LIMIT_MAX = 50

logger = logging.getLogger("engram.mcp")

INSTRUCTIONS = """\
Engram is long-term memory. Store what happened as episodes (a message, a note, a JSON record) \
with create_episode; find them again with search_episodes (relevance) or list_episodes (newest \
first). Every call is scoped to one group_id, the namespace of a memory (a user, a team, a \
tenant); omit it to use the server's default group. Quote the `citation` of each search hit, \
`[source: <episode id>]`, when you use what it says. Episode content is immutable; \
update_episode changes metadata, intent, status or references and needs the version you read.
Memory also keeps a knowledge graph of entities and facts: pass the `entities` and `facts` you \
extract to create_episode (or add_facts later), and ask search_facts, search_entities and \
get_entity what is currently true, what was true at a time, and where it was said (cite the \
facts' `citations`)."""

EXTRACTION_GUIDE = """\
Extract the knowledge graph yourself and pass it as `entities` and `facts` (this needs no LLM on \
the server and is more accurate); without them the server's builtin extractor reads the content \
with rules. Empty lists mean "nothing to remember" and build no graph (use them for chit-chat).
- entity: {"name", "type", "aliases"?, "attributes"?}. type is lower_snake: person, organisation, \
place, product, document, project, event, role, animal, ... Put the fullest name in name and the \
other names (nicknames, translations) in aliases; attributes are simple traits {"gender": "female"}.
- fact: {"subject", "predicate", "object" | "value", "fact", "valid_at"?, "invalid_at"?, \
"conditions"?, "confidence"?, "source_kind"?}.
  subject: an entity name from `entities`, an entity already in memory, or an entity id (en_...).
  predicate: UPPER_SNAKE, e.g. LIVES_IN, WORKS_AT, HAS_ROLE, REPORTS_TO, MARRIED_TO, BUDGET, PRICE, \
DEADLINE, STATUS, PREFERS, LIKES, USES, OWNS, PLANS_TO_VISIT, VISITED; synonyms such as "budget", \
"works at" or "住在" are mapped to these, other UPPER_SNAKE names are kept as given.
  exactly one of object (the name of another entity: a person, place, organisation, product) or \
value (a literal: number, amount, date, word), never both.
  fact: one sentence stating the claim, in the episode's language.
  valid_at / invalid_at: ISO 8601, only when the text says when it became or stopped being true.
  conditions: when it holds only sometimes, e.g. {"when": "weekends"}.
  confidence: 0..1, how sure the text is; source_kind: stated (said outright) or inferred (your \
reading between the lines).
- First person ("I", "my", "我") means the episode's actor: use the actor's name (or id) as the \
entity and the subject, never "I" or "我".
Example: actor {"type": "user", "id": "u_7", "name": "李强"}, content "我住在杭州，预算五十万。I work \
at Initech." → entities [{"name": "李强", "type": "person"}, {"name": "杭州", "type": "place"}, \
{"name": "Initech", "type": "organisation"}], facts [{"subject": "李强", "predicate": "LIVES_IN", \
"object": "杭州", "fact": "李强住在杭州", "source_kind": "stated"}, {"subject": "李强", \
"predicate": "BUDGET", "value": 500000, "fact": "李强的预算是五十万"}, {"subject": "李强", \
"predicate": "WORKS_AT", "object": "Initech", "fact": "李强 works at Initech"}]."""

# -- parameter types (module level: the SDK resolves tool annotations in this module's globals) ----

GroupIdArg = Annotated[
    str | None,
    Field(
        pattern=ID_PATTERN,
        description=(
            "Namespace of the memory: a user, team or tenant id (1-128 of A-Z a-z 0-9 . _ : -). "
            "Reads and writes only ever see this group. Omit for the server's default group."
        ),
    ),
]
EpisodeIdArg = Annotated[
    str, Field(min_length=1, max_length=128, description="Episode id, as returned by create, list or search.")
]
LabelList = Annotated[list[str] | None, Field(description="Keep episodes matching any of these values.")]
EpisodeKnownAtArg = Annotated[
    datetime | None,
    Field(
        description=(
            "Transaction time, ISO 8601 (no offset = UTC), not in the future: read memory as it was "
            "then (episodes stored later are absent, later updates undone, later deletions not yet made)."
        )
    ),
]
EpisodeAsOfArg = Annotated[
    datetime | None,
    Field(description="Valid time, ISO 8601: only episodes that had happened by then (timestamp <= as_of)."),
]
EntitiesArg = Annotated[
    list[EntityIn] | None,
    Field(
        max_length=256,
        description=(
            'Entities you extracted: [{"name": "李强", "type": "person", "aliases": ["小李"]}] '
            "(see the tool description)."
        ),
    ),
]
FactsArg = Annotated[
    list[FactIn] | None,
    Field(
        max_length=512,
        description=(
            'Facts you extracted: [{"subject": "李强", "predicate": "LIVES_IN", "object": "杭州", '
            '"fact": "李强住在杭州"}]; exactly one of object or value (see the tool description).'
        ),
    ),
]

EpisodesArg = Annotated[
    list[dict[str, Any]],
    Field(
        min_length=1,
        description=(
            "Episodes to store, each an object with create_episode's arguments (content, group_id, "
            "actor, intent, timestamp, source, source_type, metadata, references, id, entities, facts). "
            "At most the server's batch limit (ENGRAM_MAX_BATCH_EPISODES, default 100)."
        ),
    ),
]


# -- result models ---------------------------------------------------------------------------------


class EpisodeView(Episode):
    """An episode whose content may be cut to the server's limit (see ``content_truncated``)."""

    content_truncated: bool = Field(
        default=False, description="True when content was cut short here; get_episode returns it in full."
    )


class EpisodeResult(BaseModel):
    """One episode, in full."""

    episode: Episode


class CreateEpisodeResult(BaseModel):
    """The stored episode; ``deduplicated`` is true when it already existed and nothing was written."""

    episode: EpisodeView
    deduplicated: bool


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


class EpisodeListResult(BaseModel):
    """A page of episodes, newest first; pass ``next_cursor`` back as ``cursor`` for the next page."""

    items: list[EpisodeView]
    next_cursor: str | None = Field(description="Cursor of the next page; null on the last page.")


class SearchHitView(BaseModel):
    """One search hit: the episode, its score, and the citation to quote."""

    episode: EpisodeView
    score: float
    citation: str = Field(
        description="`[source: <episode id>]`: quote it next to what you use from this hit."
    )
    explanation: dict[str, Any] | None = None


class SearchResult(BaseModel):
    """Search hits, best first, and warnings such as a truncated query."""

    results: list[SearchHitView]
    warnings: list[str] = Field(default_factory=list)


def truncate(episode: Episode, max_chars: int) -> EpisodeView:
    """Return ``episode`` as a view whose content is at most ``max_chars`` characters (… marks a cut)."""
    if len(episode.content) <= max_chars:
        return EpisodeView(**dict(episode), content_truncated=False)
    cut = episode.content[: max(max_chars - 1, 0)] + "…"
    return EpisodeView(**{**dict(episode), "content": cut}, content_truncated=True)


def _hit(hit: SearchHit, max_chars: int) -> SearchHitView:
    return SearchHitView(
        episode=truncate(hit.episode, max_chars),
        score=hit.score,
        citation=hit.citation,
        explanation=hit.explanation,
    )


# -- error mapping -----------------------------------------------------------------------------------


def _error_result(kind: str, title: str, detail: str, **extra: Any) -> CallToolResult:
    """Return a tool error: ``isError`` true, the message as text, the details as structured content."""
    error = {"type": kind, "title": title, "detail": detail}
    error.update({key: value for key, value in extra.items() if value is not None})
    return CallToolResult(
        content=[TextContent(type="text", text=f"{title}: {detail}")],
        structured_content={"error": error},
        is_error=True,
    )


def _engram_error(tool: str, exc: EngramError) -> CallToolResult:
    detail = exc.detail.replace("Value error, ", "")
    current = exc.current_version if isinstance(exc, PreconditionFailed) else None
    if current is not None:
        detail += f"; read it again with get_episode and retry with expected_version {current}"
    logger.info("tool %s refused: %s", tool, detail)
    kind = type(exc).__name__
    return _error_result(kind, exc.title, detail, field=exc.field, **exc.extra)


def _validation_error(tool: str, exc: ValidationError) -> CallToolResult:
    problems = []
    for error in exc.errors():
        field = ".".join(str(part) for part in error["loc"]) or "arguments"
        message = "unknown field" if error["type"] == "extra_forbidden" else error["msg"]
        problems.append((field, message.removeprefix("Value error, ")))
    detail = "; ".join(f"{field}: {message}" for field, message in problems)
    logger.info("tool %s rejected arguments: %s", tool, [field for field, _ in problems])
    return _error_result("InvalidInput", "Invalid input", detail, field=problems[0][0] if problems else None)


class EngramMCPServer(MCPServer[Any]):
    """An MCPServer that turns Engram's errors and bad arguments into tool errors (``isError``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._parameters: dict[str, frozenset[str]] = {}

    def add_engram_tool(
        self, fn: Callable[..., BaseModel], annotations: ToolAnnotations, *, guide: str = ""
    ) -> None:
        """Register ``fn`` as a tool named after it, remembering its parameter names.

        The description is ``fn``'s docstring, followed by ``guide`` when given.
        """
        description = "\n\n".join(part for part in (inspect.getdoc(fn), guide) if part)
        self.add_tool(fn, description=description, annotations=annotations, structured_output=True)
        self._parameters[fn.__name__] = frozenset(inspect.signature(fn).parameters)

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Call a tool; Engram errors and invalid arguments become ``isError`` results naming the field."""
        known = self._parameters.get(name)
        unknown = sorted(set(arguments) - known) if known is not None else []
        if known is not None and unknown:
            detail = f"{unknown[0]}: unknown argument; {name} takes {', '.join(sorted(known))}"
            return _error_result("InvalidInput", "Invalid input", detail, field=unknown[0])
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, EngramError):
                return _engram_error(name, cause)
            if isinstance(cause, ValidationError) and not isinstance(exc, UnexpectedToolError):
                return _validation_error(name, cause)
            raise


# -- the server --------------------------------------------------------------------------------------


def create_mcp_server(
    memory: Memory, *, max_content_chars: int = DEFAULT_MAX_CONTENT_CHARS
) -> EngramMCPServer:
    """Return an MCP server whose tools create, update, get, list and search episodes of ``memory``,
    and search and add to its knowledge graph (see ``engram.api.mcp.graph``).

    ``max_content_chars`` bounds each episode's content in create, list and search results
    (``content_truncated`` flags a cut); get_episode always returns the full content.
    Serve it with ``run_stdio`` or mount ``streamable_http_route`` in an ASGI app.
    """
    if max_content_chars < 1:
        raise ValueError("max_content_chars must be at least 1")
    server = EngramMCPServer(
        "engram", title="Engram", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

    def create_episode(
        content: Annotated[
            str | dict[str, Any],
            Field(description="What happened: text, or a JSON object (stored as canonical JSON). Not empty."),
        ],
        group_id: GroupIdArg = None,
        actor: Annotated[
            Actor | None,
            Field(description='Who produced it, e.g. {"type": "user", "id": "u_42", "name": "Li"}.'),
        ] = None,
        intent: Annotated[
            str | None, Field(description="What it is for, e.g. confirm_date, complain_product.")
        ] = None,
        timestamp: Annotated[
            datetime | None, Field(description="When it happened, ISO 8601 (no offset = UTC). Default: now.")
        ] = None,
        source: Annotated[
            str | None, Field(description="Where it came from, e.g. slack, email, chat.")
        ] = None,
        source_type: Annotated[
            str | None, Field(description="message (default for text) or json (default for objects).")
        ] = None,
        metadata: Annotated[dict[str, Any] | None, Field(description="Free JSON object; filterable.")] = None,
        references: Annotated[
            list[str] | None, Field(description="Ids or URLs this episode refers to.")
        ] = None,
        id: Annotated[
            str | None, Field(pattern=ID_PATTERN, description="Your own id for it; default: a new ep_… id.")
        ] = None,
        entities: EntitiesArg = None,
        facts: FactsArg = None,
    ) -> CreateEpisodeResult:
        """Store one episode (a message, note or JSON record) in a group's memory, and its facts.

        Safe to retry: an episode with the same intent, content and actor id (or the same id)
        already in the group is not stored twice; the stored one is returned with
        `deduplicated: true` and its graph is not built again. Reusing an id for different
        content is an error. Returns the episode with its id and `version` (pass it to
        update_episode). The facts are then found by search_facts, citing this episode.
        """
        data: dict[str, Any] = {"content": content, "group_id": group_id, "actor": actor, "intent": intent}
        data |= {"timestamp": timestamp, "source": source, "source_type": source_type, "id": id}
        data |= {"metadata": metadata, "references": references, "entities": entities, "facts": facts}
        created = memory.create_episode({k: v for k, v in data.items() if v is not None}, actor=MCP_ACTOR)
        return CreateEpisodeResult(
            episode=truncate(created.episode, max_content_chars), deduplicated=created.deduplicated
        )

    def create_episodes(
        episodes: EpisodesArg,
    ) -> BatchCreateResult:
        """Store many episodes at once (an import, a backlog); each gets its own result.

        An invalid or oversized episode fails alone, its `problem` naming the field; the
        others are stored. Duplicates come back `deduplicated`, so a retry is safe. Results
        are in the order sent, with each stored episode's id and version.
        """
        batch = memory.create_episodes_each(episodes, actor=MCP_ACTOR)
        views = [
            BatchItemView(
                index=r.index,
                status=r.status,
                episode=None if r.episode is None else truncate(r.episode, max_content_chars),
                problem=r.problem,
            )
            for r in batch.results
        ]
        return BatchCreateResult(
            results=views, created=batch.created, deduplicated=batch.deduplicated, failed=batch.failed
        )

    def update_episode(
        id: EpisodeIdArg,
        expected_version: Annotated[
            int, Field(ge=1, description="The `version` you last read; a stale one is refused.")
        ],
        patch: Annotated[
            EpisodePatch,
            Field(
                description=(
                    "JSON merge patch of metadata, intent, status (active|archived) and references. "
                    "Absent keys stay; metadata merges key by key and null deletes a key; "
                    "intent null clears it; references replaces the list."
                )
            ),
        ],
        group_id: GroupIdArg = None,
    ) -> EpisodeResult:
        """Change an episode's metadata, intent, status or references, as a new version.

        Content, actor and timestamp never change (store a correction as a new episode).
        The update applies only if `expected_version` is the episode's current version; if
        someone changed it since you read it, you get an error naming the current version:
        get_episode again, re-apply your change, and retry. Returns the new version.
        """
        episode = memory.update_episode(
            id, patch, expected_version=expected_version, group_id=group_id, actor=MCP_ACTOR
        )
        return EpisodeResult(episode=episode)

    def get_episode(
        id: EpisodeIdArg, group_id: GroupIdArg = None, known_at: EpisodeKnownAtArg = None
    ) -> EpisodeResult:
        """Return one episode in full (untruncated content), with its current `version`.

        Use it to read a hit whose content was truncated, or before update_episode. With
        `known_at`: the version memory held at that time.
        """
        return EpisodeResult(episode=memory.get_episode(id, group_id, known_at=known_at))

    def list_episodes(
        group_id: GroupIdArg = None,
        after: Annotated[datetime | None, Field(description="Only episodes at or after this time.")] = None,
        before: Annotated[
            datetime | None, Field(description="Only episodes strictly before this time.")
        ] = None,
        intent: LabelList = None,
        source: LabelList = None,
        actor_id: LabelList = None,
        limit: Annotated[int, Field(ge=1, le=LIST_LIMIT_MAX, description="Page size, 1-100.")] = 20,
        cursor: Annotated[
            str | None, Field(description="`next_cursor` of the previous page; omit for the first page.")
        ] = None,
        known_at: EpisodeKnownAtArg = None,
        as_of: EpisodeAsOfArg = None,
    ) -> EpisodeListResult:
        """List a group's episodes, newest first by timestamp, one page at a time.

        To read further, call again with the same filters and `cursor` set to the
        `next_cursor` you got; `next_cursor` null means there is nothing more. Long contents
        are truncated (`content_truncated: true`); use get_episode for the full text.
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
        return EpisodeListResult(
            items=[truncate(e, max_content_chars) for e in page.items], next_cursor=page.next_cursor
        )

    def search_episodes(
        query: Annotated[
            str,
            Field(description="Words to look for, any language (Chinese is segmented). Empty: newest first."),
        ],
        group_id: GroupIdArg = None,
        filters: Annotated[
            EpisodeFilters | None,
            Field(
                description=(
                    "Applied before ranking: intent, source, actor_id (lists: any of), "
                    "timestamp_after (inclusive), timestamp_before (exclusive), metadata (exact matches)."
                )
            ),
        ] = None,
        limit: Annotated[
            int, Field(ge=1, le=SEARCH_LIMIT_MAX, description="Most hits to return, 1-50.")
        ] = 10,
        explain: Annotated[bool, Field(description="Add each hit's per-channel ranks and scores.")] = False,
        known_at: EpisodeKnownAtArg = None,
        as_of: EpisodeAsOfArg = None,
    ) -> SearchResult:
        """Search a group's episodes by relevance (BM25 full text); best hits first.

        Each hit carries `citation`, `[source: <episode id>]`: quote it beside any statement
        you base on that hit. Long contents are truncated (`content_truncated: true`); use
        get_episode for the full text. `known_at` searches memory as it was at that time.
        """
        response = memory.search_episodes(
            {
                "query": query,
                "group_id": group_id,
                "filters": filters or EpisodeFilters(),
                "limit": limit,
                "explain": explain,
                "known_at": known_at,
                "as_of": as_of,
            }
        )
        return SearchResult(
            results=[_hit(hit, max_content_chars) for hit in response.results], warnings=response.warnings
        )

    reads = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    server.add_engram_tool(
        create_episode, writes.model_copy(update={"idempotent_hint": True}), guide=EXTRACTION_GUIDE
    )
    server.add_engram_tool(create_episodes, writes.model_copy(update={"idempotent_hint": True}))
    server.add_engram_tool(update_episode, writes.model_copy(update={"idempotent_hint": False}))
    server.add_engram_tool(get_episode, reads)
    server.add_engram_tool(list_episodes, reads)
    server.add_engram_tool(search_episodes, reads)

    from engram.api.mcp.graph import add_graph_tools  # imports this module: import it late

    add_graph_tools(server, memory, reads=reads, writes=writes.model_copy(update={"idempotent_hint": False}))
    from engram.api.mcp.history import add_history_tools

    add_history_tools(
        server, memory, reads=reads, writes=writes.model_copy(update={"idempotent_hint": False})
    )
    return server


def run_stdio(memory: Memory) -> None:
    """Serve ``memory`` over MCP on stdin/stdout until the client closes the connection.

    The SDK diverts file descriptor 1 to stderr while it serves, so stray prints cannot
    corrupt the protocol stream; logs go to stderr.
    """
    create_mcp_server(memory).run("stdio")


def streamable_http_route(server: MCPServer[Any], path: str = MCP_PATH, *, host: str = "127.0.0.1") -> Route:
    """Return a route serving ``server`` over streamable HTTP at exactly ``path`` (no redirect).

    Stateless JSON mode: every POST is self-contained, so any replica can answer it. The route
    works only while ``server.session_manager.run()`` is entered: run it in the app's lifespan.
    Bound to loopback (``host``), the SDK's DNS-rebinding protection admits Host headers of
    127.0.0.1, localhost and [::1] only; bound to another address it admits any Host.
    """
    app = server.streamable_http_app(
        streamable_http_path=path, stateless_http=True, json_response=True, host=host
    )
    routes = [route for route in app.routes if isinstance(route, Route) and route.path == path]
    if len(routes) != 1:
        raise RuntimeError(f"the MCP SDK did not build exactly one route at {path}")
    return routes[0]
