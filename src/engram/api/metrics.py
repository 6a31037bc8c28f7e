"""Prometheus metrics for operators: request counts and latencies per route, at GET /metrics."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest


def install(app: FastAPI) -> None:
    """Add request metrics middleware and the ``/metrics`` route to ``app``.

    Each app gets its own registry, so several apps in one process (tests) never clash.
    """
    registry = CollectorRegistry()
    requests = Counter(
        "engram_http_requests", "HTTP requests handled.", ["method", "route", "status"], registry=registry
    )
    latency = Histogram(
        "engram_http_request_duration_seconds",
        "HTTP request latency.",
        ["method", "route"],
        registry=registry,
    )

    @app.middleware("http")
    async def observe(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        started = time.perf_counter()
        response = await call_next(request)
        route = request.scope.get("route")
        path = getattr(route, "path", None) or (
            "/mcp" if request.url.path.startswith("/mcp") else "unmatched"
        )
        requests.labels(request.method, path, str(response.status_code)).inc()
        latency.labels(request.method, path).observe(time.perf_counter() - started)
        return response

    @app.get("/metrics", include_in_schema=False)
    def metrics() -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
