"""How many REST reads and writes one server process runs at once: a bulkhead for each.

``ENGRAM_CONCURRENT_READS`` (8): a read (a list, a get, a search) is CPU work in a thread of the
route's pool that holds the GIL most of its time; with fifty clients, twenty-five reads per
process took turns at the GIL and a filtered BM25 search cost ~2.0 ms of server CPU where eight
at a time cost ~1.7 (bench/RESULTS.md, "Request threads and a listener per worker").

``ENGRAM_CONCURRENT_WRITES`` (16): a write may wait in its thread for the database (another
process's import holding SQLite's write lock, up to its busy timeout). Forty such writes took
every thread of the pool (anyio's 40) and then every request, ``/healthz`` included, waited for
the lock (a tester's finding). Capped at sixteen, they leave the pool's other threads to reads,
health checks, the API-key check, MCP tools and the console.

Requests beyond either limit wait on the event loop, holding no thread. MCP tools and the console
are not counted: they run through their own thread hand-offs.
"""

from __future__ import annotations

import asyncio
import weakref

from starlette.requests import Request

READ_METHODS = frozenset({"GET", "HEAD"})


def is_read(request: Request) -> bool:
    """Return whether ``request`` only reads: a GET, a HEAD or a POST to a ``…/search`` route."""
    return request.method in READ_METHODS or request.scope["path"].endswith("/search")  # no URL built


class Slots:
    """At most ``size`` requests at once per event loop (one loop per server process)."""

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


class RequestSlots:
    """The read and the write slots of one app (``app.state.slots``)."""

    def __init__(self, reads: int, writes: int) -> None:
        self.reads = Slots(reads)
        self.writes = Slots(writes)

    def of(self, request: Request) -> asyncio.Semaphore:
        """Return the semaphore ``request`` waits on."""
        return (self.reads if is_read(request) else self.writes)()
