"""Where a route runs a short store read: on the event loop on the embedded SQLite store, in the
thread pool on PostgreSQL.

FastAPI runs a plain-function route in anyio's worker threads: a hand-off to a thread and back,
and GIL switches on both sides, for every request. For a bounded read on SQLite (a page of a
list: indexed, at most ``LIST_LIMIT_MAX`` rows, on pages the process has cached; each thread has
its own connection, and WAL readers never wait for the writer) the hand-off cost as much as the
read: with fifty clients it was most of a list request's server time (docs/decisions.md §34).
On PostgreSQL the same read waits on the network, and the loop must serve other requests
meanwhile, so it stays in the pool. Only pure reads may run inline: a call that writes waits for
the writer thread, which a long import can keep busy. Searches stay in the pool on both
backends: their cost grows with the store and the query embedding.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import anyio.to_thread

from engram.memory import Memory

P = ParamSpec("P")
T = TypeVar("T")


async def run_read(memory: Memory, read: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Return ``read(*args, **kwargs)``: called here on SQLite, in a worker thread on PostgreSQL."""
    if memory.settings.database_url is None:
        return read(*args, **kwargs)
    return await anyio.to_thread.run_sync(functools.partial(read, *args, **kwargs))
