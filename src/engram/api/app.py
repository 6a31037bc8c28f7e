"""The ASGI application: REST under /v1, docs at /docs, metrics, and MCP over streamable HTTP at /mcp."""

from __future__ import annotations

from fastapi import FastAPI

from engram import __version__
from engram.api import metrics, problems
from engram.api.rest import health_router, router
from engram.memory import Memory


def create_app(memory: Memory) -> FastAPI:
    """Return the app serving ``memory``; the caller owns ``memory`` and closes it."""
    app = FastAPI(
        title="Engram",
        version=__version__,
        description="Long-term memory for AI agents: episodes, search, and (soon) a bi-temporal knowledge graph.",
    )
    app.state.memory = memory
    problems.install(app)
    metrics.install(app)
    app.include_router(router)
    app.include_router(health_router)
    return app
