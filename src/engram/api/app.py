"""The ASGI application: REST under /v1, docs at /docs, metrics, and MCP over streamable HTTP at /mcp."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from engram import __version__
from engram.api import metrics, openapi
from engram.api.edge import Authenticator, Edge, HostPolicy, open_access
from engram.api.mcp.server import create_mcp_server, streamable_http_route
from engram.api.rest import problems
from engram.api.rest.episodes import health_router, router
from engram.api.rest.graph import router as graph_router
from engram.api.rest.history import router as history_router
from engram.memory import Memory

CORS_HEADERS = ["Authorization", "Content-Type", "If-Match", "X-Request-ID", "Mcp-Protocol-Version"]


def create_app(
    memory: Memory, *, host: str = "127.0.0.1", authenticate: Authenticator = open_access
) -> FastAPI:
    """Return the app serving ``memory``; the caller owns ``memory`` and closes it.

    ``host`` is the address the server binds: the trusted Host names are the loopback names,
    ``host`` (unless it means all interfaces) and settings ``trusted_hosts``. Every request,
    /mcp included, passes the edge (engram.api.edge), where ``authenticate`` names the caller.
    MCP's streamable HTTP transport answers at exactly ``/mcp``; its session manager runs
    in the app's lifespan, so serve the app with lifespan on (uvicorn, ``with TestClient``).
    """
    settings = memory.settings
    policy = HostPolicy.for_server(settings.trusted_hosts, host, settings.cors_origins)
    mcp_server = create_mcp_server(memory)
    mcp_route = streamable_http_route(mcp_server, max_body_bytes=settings.max_body_bytes)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        async with mcp_server.session_manager.run():
            yield

    app = FastAPI(
        title="Engram",
        version=__version__,
        description="Long-term memory for AI agents: episodes with hybrid search, over REST and MCP.",
        lifespan=lifespan,
    )
    app.state.memory = memory
    problems.install(app)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=sorted(policy.cors_origins),
            allow_methods=["GET", "POST", "PATCH", "DELETE"],
            allow_headers=CORS_HEADERS,
            expose_headers=["ETag", "X-Request-ID", "Mcp-Session-Id"],
        )
    # Added after CORS, before metrics: middleware added later wraps what came before, so the
    # metrics see the edge's refusals and 500s, and CORS answers only requests the edge admitted.
    app.add_middleware(Edge, policy=policy, max_body_bytes=settings.max_body_bytes, authenticate=authenticate)
    metrics.install(app)
    app.include_router(router)
    app.include_router(graph_router)
    app.include_router(history_router)
    app.include_router(health_router)
    app.router.routes.append(mcp_route)
    openapi.install(app)
    return app
