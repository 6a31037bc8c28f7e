"""The ASGI application: REST (/v1, /docs), metrics, MCP over streamable HTTP (/mcp), the console (/admin)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from engram import __version__
from engram.api import metrics, openapi
from engram.api.auth import KeyAuthenticator, KeyCheck
from engram.api.console import create_console
from engram.api.edge import Authenticator, Edge, HostPolicy
from engram.api.head import HeadAsGet
from engram.api.mcp.server import create_mcp_server, streamable_http_route
from engram.api.rest import problems
from engram.api.rest.episodes import health_router, router
from engram.api.rest.graph import router as graph_router
from engram.api.rest.history import router as history_router
from engram.api.rest.keys import router as keys_router
from engram.api.rest.references import router as references_router
from engram.api.rest.slots import RequestSlots
from engram.memory import Memory

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
CORS_HEADERS = ["Authorization", "Content-Type", "If-Match", "X-Request-ID", "Mcp-Protocol-Version"]


def create_app(
    memory: Memory,
    *,
    host: str = "127.0.0.1",
    authenticate: Authenticator | None = None,
    key_check: KeyCheck | None = None,
    close_memory: bool = False,
) -> FastAPI:
    """Return the app serving ``memory``; the caller owns ``memory`` and closes it, unless
    ``close_memory``: then the app closes it when its lifespan ends (a worker process's app).

    ``host`` is the address the server binds: the trusted Host names are the loopback names,
    ``host`` (unless it means all interfaces) and settings ``trusted_hosts``. Every request,
    /mcp included, passes the edge (engram.api.edge), where ``authenticate`` names the caller
    (default: the store's API keys, engram.api.auth.KeyAuthenticator). The console at ``/admin``
    signs people in with the keys of ``key_check`` (default: the store's); while no key is in
    force, a loopback server admits its own machine as the local administrator, and no one else.
    MCP's streamable HTTP transport answers at exactly ``/mcp``; its session manager runs
    in the app's lifespan, so serve the app with lifespan on (uvicorn, ``with TestClient``).
    """
    settings = memory.settings
    loopback = host in LOOPBACK
    keys = key_check or memory.keys
    policy = HostPolicy.for_server(settings.trusted_hosts, host, settings.cors_origins)
    mcp_server = create_mcp_server(memory)
    mcp_route = streamable_http_route(mcp_server, max_body_bytes=settings.max_body_bytes)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            async with mcp_server.session_manager.run():
                yield
        finally:
            if close_memory:
                memory.close()

    app = FastAPI(
        title="Engram",
        version=__version__,
        description="Long-term memory for AI agents: episodes with hybrid search, over REST and MCP.",
        lifespan=lifespan,
    )
    app.state.memory = memory
    app.state.slots = RequestSlots(settings.concurrent_reads, settings.concurrent_writes)
    problems.install(app)
    app.add_middleware(HeadAsGet)  # first, so innermost: the edge, CORS and metrics see the HEAD
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
    app.add_middleware(
        Edge,
        policy=policy,
        max_body_bytes=settings.max_body_bytes,
        authenticate=authenticate or KeyAuthenticator(keys, loopback=loopback),
    )
    metrics.install(app, memory)
    app.include_router(router)
    app.include_router(graph_router)
    app.include_router(history_router)
    app.include_router(keys_router)
    app.include_router(references_router)
    app.include_router(health_router)
    app.router.routes.append(mcp_route)
    app.mount("/admin", create_console(memory, loopback=loopback, keys=keys))
    openapi.install(app)
    return app
