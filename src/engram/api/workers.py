"""What ``engram serve --workers N`` hands uvicorn: an app factory each worker process calls.

uvicorn starts the worker processes itself (``workers=N`` with an import string) and restarts one
that dies. They accept on the socket the parent listens on and, on Linux, each on a socket of its
own on the same port too (engram.api.listeners). Each worker opens its own ``Memory`` from
the environment ``engram serve`` set before starting them (``ENGRAM_*`` settings, the bind
address in ``ENGRAM_SERVE_HOST``), keeps its own in-memory vectors and query caches, and closes
its memory when it stops. Workers share the database: SQLite in WAL mode (readers never wait; one
writer at a time through SQLite's lock and busy timeout; each process catches up with the others'
writes through the ``episode_changes`` log) or PostgreSQL (each worker with its own pool).

Metrics: with several workers ``engram serve`` sets ``PROMETHEUS_MULTIPROC_DIR`` before they
start, so their counters and histograms are written to files there and GET /metrics on any
worker sums every worker's (prometheus-client's multiprocess mode; engram.api.metrics).
"""

from __future__ import annotations

import os

from fastapi import FastAPI

from engram.api.app import create_app
from engram.config import Settings
from engram.memory import Memory

HOST_VARIABLE = "ENGRAM_SERVE_HOST"
"""The address ``engram serve`` bound, for its workers (the Host names they trust)."""


def app_from_environment() -> FastAPI:
    """Open the memory the environment names and return its app, which closes it at shutdown.

    Called once in each worker process. Raises what ``Memory.open`` raises (the parent process
    opened the same store just before, so a failure here is rare: the worker exits and uvicorn
    reports it).
    """
    memory = Memory.open(settings=Settings(), background_indexing=True)
    try:
        return create_app(memory, host=os.environ.get(HOST_VARIABLE, "127.0.0.1"), close_memory=True)
    except BaseException:
        memory.close()
        raise
