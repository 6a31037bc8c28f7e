"""MCP tool metrics: an SDK middleware counting every ``tools/call`` and its errors, per tool.

It wraps the SDK's dispatch (unknown tools, argument validation and the tool itself), on
stdio and streamable HTTP alike, and marks the call's interface as ``mcp`` for the metrics
counted deeper down (the search's). A result with ``isError`` or an exception is an error.
Tool names outside the server's own count as ``unknown``.
"""

from __future__ import annotations

from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult

from engram.observability.labels import INTERFACE
from engram.observability.metrics import MCP_TOOL_CALLS, MCP_TOOL_ERRORS


def _is_error(result: HandlerResult) -> bool:
    if isinstance(result, CallToolResult):
        return result.is_error is True
    return isinstance(result, dict) and result.get("isError") is True


class ToolMetrics(ServerMiddleware[Any]):
    """Count ``engram_mcp_tool_calls_total`` and ``engram_mcp_tool_errors_total`` for ``server``'s tools."""

    def __init__(self, server: MCPServer[Any]) -> None:
        self._server = server
        self._tools: frozenset[str] | None = None

    async def _tool(self, ctx: ServerRequestContext[Any, Any]) -> str:
        if self._tools is None:  # tools are registered before the server serves: read them once
            self._tools = frozenset(tool.name for tool in await self._server.list_tools())
        name = ctx.params.get("name") if isinstance(ctx.params, dict) else None
        return name if isinstance(name, str) and name in self._tools else "unknown"

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Pass every message on; count tool calls and their errors."""
        if ctx.method != "tools/call":
            return await call_next(ctx)
        tool = await self._tool(ctx)
        MCP_TOOL_CALLS.labels(tool).inc()
        token = INTERFACE.set("mcp")
        try:
            result = await call_next(ctx)
        except BaseException:
            MCP_TOOL_ERRORS.labels(tool).inc()
            raise
        finally:
            INTERFACE.reset(token)
        if _is_error(result):
            MCP_TOOL_ERRORS.labels(tool).inc()
        return result


def install(server: MCPServer[Any]) -> None:
    """Add the tool metrics middleware to ``server``."""
    server.middleware.append(ToolMetrics(server))
