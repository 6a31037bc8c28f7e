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
from collections.abc import Awaitable, Callable, Iterable

from fastapi import FastAPI, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

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

    @app.middleware("http")
    async def observe(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        started = time.perf_counter()
        token = INTERFACE.set(interface_of(request.url.path))
        status = 500  # an exception escaping the app is answered 500 by the server's outer layer
        try:
            response = await call_next(request)
            status = response.status_code
            return response
        finally:
            INTERFACE.reset(token)
            route = request.scope.get("route")
            path = getattr(route, "path", None) or (
                "/mcp" if request.url.path.startswith("/mcp") else "unmatched"
            )
            HTTP_REQUESTS.labels(request.method, path, str(status)).inc()
            HTTP_DURATION.labels(request.method, path).observe(time.perf_counter() - started)

    @app.get("/metrics", include_in_schema=False)
    def metrics() -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
