"""The MCP server: Engram's tools over the official ``mcp`` SDK (2.x), on stdio or streamable HTTP.

Tools live in ``episodes``, ``graph`` and ``history`` beside this module; the prompt and the
resources in ``prompts``. Each tool is a plain function over ``Memory`` returning a pydantic
model; the SDK runs it on a worker thread (``anyio.to_thread``), so a slow store call never
blocks the event loop or other sessions.

Every call goes through one place, ``EngramMCPServer.call_tool``:

- a result is sent once as ``structuredContent`` (checked against the tool's output schema) and
  once as compact text for the agent to read (``engram.api.mcp.text``), not as a JSON dump;
- an ``EngramError`` raised by Memory, arguments that fail validation and unknown argument names
  become an error result: ``isError`` true, one text line with the message and the field, and
  no ``structuredContent`` (a structured body would contradict the output schema and clients
  would reject it); programs find the details under ``_meta["engram/error"]`` (type, title,
  detail, field, current_version, conflicting_operations);
- anything else is a bug: the SDK logs its traceback and tells the client only that the tool failed.

``tools/list`` is kept lean for agents' context: schema titles are dropped and output schemas
name each top-level member and its JSON type only.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, GetPromptResult, InputRequiredResult, TextContent, ToolAnnotations
from mcp_types import Tool as MCPTool
from mcp_types.jsonrpc import INVALID_PARAMS
from pydantic import BaseModel, ValidationError
from starlette.routing import Route

from engram import __version__
from engram.api.mcp.episodes import add_episode_tools
from engram.api.mcp.graph import add_graph_tools
from engram.api.mcp.guides import INSTRUCTIONS
from engram.api.mcp.history import add_history_tools
from engram.api.mcp.prompts import add_prompts_and_resources
from engram.api.mcp.references import add_reference_tools
from engram.api.mcp.text import render
from engram.api.results import ResultLimits
from engram.errors import EngramError, PreconditionFailed
from engram.memory import Memory
from engram.models.json_values import NOT_BLANK
from engram.observability import mcp_tools

MCP_PATH = "/mcp"
SANITY_BOUND = 64
SANITY_NUMBER = 10**15
"""Numeric bounds at least this large (JSON's safe integers) are left out too."""
"""Size bounds at least this large are left out of tools/list (they guard the server, not the agent)."""
ERROR_META = "engram/error"
"""The ``_meta`` key of an error result's details."""

logger = logging.getLogger("engram.mcp")


# -- lean schemas ------------------------------------------------------------------------------------


def lean_schema(schema: Any) -> Any:
    """Return an input schema as agents need it: same constraints, fewer bytes.

    Drops ``title`` keywords (pydantic repeats every name as one), the docstrings of nested
    models (their fields keep their descriptions), generous size and number bounds
    (``SANITY_BOUND``, ``SANITY_NUMBER`` or more), the not-blank pattern and an object's
    "exactly one of" rule (its fields' descriptions say it): the server still enforces them, and
    its error names the field; a time is ISO 8601 text or Unix seconds; an optional argument
    that defaults to null is given its non-null type alone (null is still accepted); a union of
    plain types becomes a list of types.
    """
    if isinstance(schema, list):
        return [lean_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    lean: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in ("maxLength", "maxItems") and isinstance(value, int) and value >= SANITY_BOUND:
            continue
        if key == "minLength" and schema.get("maxLength", 0) >= SANITY_BOUND:
            continue
        if key == "oneOf" and "properties" in schema:  # "exactly one of": the field descriptions say it
            continue
        if key == "pattern" and value == NOT_BLANK:  # stripped input must not be empty: the server says so
            continue
        if key in ("minimum", "maximum") and isinstance(value, int | float) and abs(value) >= SANITY_NUMBER:
            continue
        if key == "$defs":
            lean[key] = {name: _without_description(lean_schema(sub)) for name, sub in value.items()}
        elif key == "properties":
            lean[key] = {name: _optional(lean_schema(sub)) for name, sub in value.items()}
        elif key in ("default", "examples", "const", "enum"):
            lean[key] = value
        else:
            lean[key] = lean_schema(value)
    options = lean.get("anyOf")
    if isinstance(options, list) and any(
        o.get("format") == "date-time" for o in options if isinstance(o, dict)
    ):
        # A time: ISO 8601 text or Unix seconds (the bounds and the numeric-text pattern are enforced).
        del lean["anyOf"]
        lean["type"], lean["format"] = ["string", "number"], "date-time"
    elif isinstance(options, list) and options and all(set(o) == {"type"} for o in options):
        kinds = [o["type"] for o in options]
        del lean["anyOf"]
        lean["type"] = [k for k in kinds if k != "integer" or "number" not in kinds]  # number holds integers
    return lean


def _without_description(schema: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in schema.items() if key != "description"}


def _optional(schema: dict[str, Any]) -> dict[str, Any]:
    """Return the schema of an argument defaulting to null as its non-null alternative."""
    if "default" not in schema or schema["default"] is not None:
        return schema
    kinds = schema.get("type")
    if isinstance(kinds, list) and "null" in kinds:
        rest = [kind for kind in kinds if kind != "null"]
        lean = {key: value for key, value in schema.items() if key != "default"}
        lean["type"] = rest[0] if len(rest) == 1 else rest
        return lean
    options = schema.get("anyOf")
    if not isinstance(options, list) or {"type": "null"} not in options:
        return schema
    rest = [option for option in options if option != {"type": "null"}]
    lean = {key: value for key, value in schema.items() if key not in ("anyOf", "default")}
    return {**rest[0], **lean} if len(rest) == 1 else {**lean, "anyOf": rest}


def _json_types(schema: dict[str, Any]) -> list[str]:
    if "$ref" in schema:
        return ["object"]
    if "type" in schema:
        kind = schema["type"]
        return list(kind) if isinstance(kind, list) else [kind]
    return [kind for option in schema.get("anyOf", []) for kind in _json_types(option)]


def top_level_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Return an output schema that names each top-level member and its JSON type, nothing deeper.

    Nested shapes are in the REST OpenAPI document (the same models); clients still check the
    type of every member present. Every member is always present, so ``required`` is left out.
    """
    properties: dict[str, Any] = {}
    for name, member in schema.get("properties", {}).items():
        kinds = sorted(set(_json_types(member)))
        properties[name] = {} if not kinds else {"type": kinds[0] if len(kinds) == 1 else kinds}
    return {"type": "object", "properties": properties}


# -- error results -----------------------------------------------------------------------------------


def error_result(kind: str, title: str, detail: str, **extra: Any) -> CallToolResult:
    """Return a tool error: ``isError``, the message and field as text, the details under ``_meta``."""
    error = {"type": kind, "title": title, "detail": detail}
    error.update({key: value for key, value in extra.items() if value is not None})
    notes = [f"{key}: {value}" for key, value in error.items() if key not in ("type", "title", "detail")]
    text = f"{title}: {detail}" + (f" ({'; '.join(notes)})" if notes else "")
    return CallToolResult(
        content=[TextContent(type="text", text=text)], is_error=True, meta={ERROR_META: error}
    )


def _engram_error(tool: str, exc: EngramError) -> CallToolResult:
    detail = exc.detail.replace("Value error, ", "")
    current = exc.current_version if isinstance(exc, PreconditionFailed) else None
    if current is not None:
        detail += f"; read it again with get_episode and retry with expected_version {current}"
    logger.info("tool %s refused: %s", tool, detail)
    field = exc.field or ("expected_version" if current is not None else None)  # MCP's name for it
    return error_result(type(exc).__name__, exc.title, detail, field=field, **exc.extra)


def _validation_error(tool: str, exc: ValidationError) -> CallToolResult:
    problems = []
    for error in exc.errors():
        field = ".".join(str(part) for part in error["loc"]) or "arguments"
        message = "unknown field" if error["type"] == "extra_forbidden" else error["msg"]
        problems.append((field, message.removeprefix("Value error, ")))
    detail = "; ".join(f"{field}: {message}" for field, message in problems)
    logger.info("tool %s rejected arguments: %s", tool, [field for field, _ in problems])
    return error_result("InvalidInput", "Invalid input", detail, field=problems[0][0] if problems else None)


# -- the server --------------------------------------------------------------------------------------


class EngramMCPServer(MCPServer[Any]):
    """An MCPServer whose every tool call goes through ``call_tool``: text rendering and error mapping."""

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

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Context[Any, Any] | None = None
    ) -> GetPromptResult | InputRequiredResult:
        """Refuse a prompt request missing a required argument as invalid params naming it (the SDK
        answers it as an internal error), then render the prompt."""
        for prompt in await self.list_prompts():
            if prompt.name == name:
                given = arguments or {}
                missing = [a.name for a in prompt.arguments or [] if a.required and a.name not in given]
                if missing:
                    message = f"prompt {name!r} needs the argument {missing[0]!r}"
                    raise MCPError(INVALID_PARAMS, message, {"field": missing[0]})
        return await super().get_prompt(name, arguments, context)

    async def list_tools(self) -> list[MCPTool]:
        """List the tools with lean schemas: no titles, output schemas one level deep."""
        return [
            tool.model_copy(
                update={
                    "input_schema": lean_schema(tool.input_schema),
                    "output_schema": None
                    if tool.output_schema is None
                    else top_level_schema(tool.output_schema),
                }
            )
            for tool in await super().list_tools()
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Call a tool: its result as structured content plus compact text, or an error result.

        Engram errors and invalid or unknown arguments become ``isError`` results naming the field.
        """
        known = self._parameters.get(name)
        unknown = sorted(set(arguments) - known) if known is not None else []
        if known is not None and unknown:
            detail = f"{unknown[0]}: unknown argument; {name} takes {', '.join(sorted(known))}"
            return error_result("InvalidInput", "Invalid input", detail, field=unknown[0])
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, EngramError):
                return _engram_error(name, cause)
            if isinstance(cause, ValidationError) and not isinstance(exc, UnexpectedToolError):
                return _validation_error(name, cause)
            raise
        if isinstance(result, CallToolResult) and isinstance(result.structured_content, dict):
            result.content = [TextContent(type="text", text=render(name, result.structured_content))]
        return result


def create_mcp_server(memory: Memory, *, limits: ResultLimits | None = None) -> EngramMCPServer:
    """Return an MCP server of ``memory``: its 15 tools, the answering prompt and the resources.

    ``limits`` bound contents and pages (default: ``memory.settings``'s, as over REST); reading
    one episode (get_episode, a resource) always gives its whole content. Serve it with
    ``run_stdio`` or mount ``streamable_http_route`` in an ASGI app.
    """
    limits = limits or ResultLimits.from_settings(memory.settings)
    server = EngramMCPServer(
        "engram", title="Engram", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    reads = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    add_episode_tools(server, memory, limits, reads=reads, writes=writes)
    add_graph_tools(server, memory, reads=reads, writes=writes)
    add_history_tools(server, memory, limits, reads=reads, writes=writes)
    add_reference_tools(server, memory, limits, reads=reads)
    add_prompts_and_resources(server, memory, limits)
    mcp_tools.install(server)  # tool call and error counts (engram_mcp_tool_*)
    return server


def run_stdio(memory: Memory) -> None:
    """Serve ``memory`` over MCP on stdin/stdout until the client closes the connection.

    The SDK diverts file descriptor 1 to stderr while it serves, so stray prints cannot
    corrupt the protocol stream; logs go to stderr.
    """
    create_mcp_server(memory).run("stdio")


def streamable_http_route(
    server: MCPServer[Any], path: str = MCP_PATH, *, max_body_bytes: int = 1024 * 1024
) -> Route:
    """Return a route serving ``server`` over streamable HTTP at exactly ``path`` (no redirect).

    Stateless JSON mode: every POST is self-contained, so any replica can answer it. The route
    works only while ``server.session_manager.run()`` is entered: run it in the app's lifespan.
    The SDK's own Host/Origin check is off: the app's edge (engram.api.edge) checks every route,
    this one included, against the same trusted hosts.
    """
    app = server.streamable_http_app(
        streamable_http_path=path,
        stateless_http=True,
        json_response=True,
        max_request_body_size=max_body_bytes,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    routes = [route for route in app.routes if isinstance(route, Route) and route.path == path]
    if len(routes) != 1:
        raise RuntimeError(f"the MCP SDK did not build exactly one route at {path}")
    return routes[0]
