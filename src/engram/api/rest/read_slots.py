"""How many REST reads one server process runs at once (``ENGRAM_CONCURRENT_READS``, 8).

A read (a list, a get, a search) is CPU work in a thread of the route's pool that holds the GIL
most of its time: with fifty clients, twenty-five reads per process took turns at the GIL and a
filtered BM25 search cost ~2.0 ms of server CPU where eight at a time cost ~1.6 (bench/RESULTS.md,
"Request threads and a listener per worker"). Reads beyond the limit wait on the event loop,
holding no thread. Writes are not counted, so writes waiting on the database (another process's
import holding SQLite's lock) never keep a read or a health check waiting, and reads never hold up
writes beyond their own CPU. MCP tools and the console are not counted either.

A bulkhead rather than a smaller thread pool: a pool of eight shared by everything stalled every
request, /healthz included, while eight writes waited on a lock (a tester's finding).
"""

from __future__ import annotations

import asyncio
import weakref

from starlette.requests import Request

READ_METHODS = frozenset({"GET", "HEAD"})


def is_read(request: Request) -> bool:
    """Return whether ``request`` only reads: a GET, a HEAD or a POST to a ``…/search`` route."""
    return request.method in READ_METHODS or request.url.path.endswith("/search")


class ReadSlots:
    """At most ``size`` reads at once per event loop (one loop per server process)."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("size must be at least 1")
        self.size = size
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )

    def __call__(self) -> asyncio.Semaphore:
        """Return this event loop's semaphore (a test client may run each request on a new loop)."""
        loop = asyncio.get_running_loop()
        slots = self._by_loop.get(loop)
        if slots is None:
            slots = self._by_loop[loop] = asyncio.Semaphore(self.size)
        return slots
