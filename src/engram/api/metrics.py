"""GET /metrics and the HTTP edge's metrics: requests and latency per route, 5xx included.

The page is the process's metrics (``engram.observability.metrics``, with prometheus-client's
process and Python runtime collectors) plus the store's counts read at scrape time
(``engram.observability.collector``). The middleware also records which interface a request
came through (REST, MCP, console) for the metrics counted deeper down.

Under ``engram serve --workers N`` (``PROMETHEUS_MULTIPROC_DIR`` set before the workers start),
the page sums every worker's counters and histograms (prometheus-client's multiprocess mode),
whichever worker answers; the process and Python runtime collectors are then left out (they
would describe only the answering worker).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

from fastapi import FastAPI, Response
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engram.memory import Memory
from engram.observability.collector import StoreCollector
from engram.observability.labels import INTERFACE
from engram.observability.metrics import HTTP_DURATION, HTTP_REQUESTS


class _ProcessMetrics(Collector):
    """The default registry's metrics, so one page holds them and this app's store counts."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def interface_of(path: str) -> str:
    """Return the interface a request path belongs to: mcp, console (``/admin``) or rest."""
    if path == "/mcp" or path.startswith("/mcp/"):
        return "mcp"
    return "console" if path == "/admin" or path.startswith("/admin/") else "rest"


class RequestMetrics:
    """ASGI middleware: counts and times each HTTP request by method, route template and status,
    and sets the interface it came through for the metrics counted deeper down.

    Plain ASGI, not Starlette's BaseHTTPMiddleware: that runs the app in a task of its own and
    streams the response through a queue, several times this middleware's cost per request.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        path = scope["path"]
        token = INTERFACE.set(interface_of(path))
        status = 500  # an exception escaping the app is answered 500 by the server's outer layer

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            INTERFACE.reset(token)
            route = scope.get("route")
            template = getattr(route, "path", None) or ("/mcp" if path.startswith("/mcp") else "unmatched")
            HTTP_REQUESTS.labels(scope["method"], template, str(status)).inc()
            HTTP_DURATION.labels(scope["method"], template).observe(time.perf_counter() - started)


def install(app: FastAPI, memory: Memory) -> None:
    """Add the request metrics middleware and the ``/metrics`` route (with ``memory``'s counts) to ``app``.

    Each app gets its own page registry (the store counts of its memory) over the process's
    shared one, so several apps in one process (tests) never clash.
    """
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry.register(_ProcessMetrics())
    registry.register(StoreCollector(memory, memory.settings.metrics))

    app.add_middleware(RequestMetrics)

    @app.get("/metrics", include_in_schema=False)
    def metrics() -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
