"""A listening socket of its own for each ``engram serve --workers N`` process (Linux).

uvicorn's workers share the one socket their parent bound: every worker waits on the same accept
queue and whichever wakes first takes the connections waiting there. Fifty clients connecting at
once then often all land on one worker while the other idles (measured: all 50 on one of two
workers in 2 of 8 starts, serving half the searches; bench/RESULTS.md, "Request threads and a
listener per worker"). With ``SO_REUSEPORT`` each worker listens on a socket of its own bound to
the same address, and the kernel spreads new connections over them by a hash of their addresses
(socket(7); the option's Linux semantics since 3.9).

uvicorn hands each worker process the parent's sockets by pickling them into it. The parent hands
two: its own listening socket (with ``SO_REUSEPORT``, inherited and accepted on by every worker,
as uvicorn's one socket is) and a :class:`WorkerListener`, which pickles into a new socket bound
to the same address in each worker (restarted workers included). The parent's socket listens
from the start, so no other program or server can take the port while the workers start, and
connections wait in its queue while every worker is down; the kernel hashes new connections over
it and the workers' own (with two workers, a third go through the shared queue). Before binding,
the parent probes the address without ``SO_REUSEPORT``: that option alone would let a second
server of the same user join the port. Elsewhere than Linux, ``SO_REUSEPORT`` does not balance
(BSD and macOS give the last bound socket every connection), so the parent's socket is shared as
uvicorn does.
"""

from __future__ import annotations

import logging
import socket
import sys
from typing import Any

from uvicorn.config import STARTUP_FAILURE, Config

logger = logging.getLogger("uvicorn.error")


def _bound(family: int, address: Any) -> socket.socket:
    """Return a TCP socket with ``SO_REUSEPORT``, bound to ``address``, not listening."""
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
    except BaseException:
        sock.close()
        raise
    return sock


def _refuse_if_taken(family: int, address: Any) -> None:
    """Raise OSError (address in use) when any socket listens on ``address``.

    Binding with ``SO_REUSEPORT`` would succeed beside another server of the same user that uses
    it too (a second ``engram serve --workers`` on the port) and share its connections; a bind
    without it fails there, as it does for uvicorn's one process.
    """
    with socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(address)


class WorkerListener(socket.socket):
    """A socket the parent never uses: pickled into a worker, it is a new socket bound to
    ``address`` with ``SO_REUSEPORT``, the worker's own."""

    address: Any = None

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return _bound, (self.family, self.address)


def worker_listeners(config: Config) -> list[socket.socket]:
    """Return the sockets to hand uvicorn's worker processes for ``config``'s host and port.

    On Linux the parent's listening socket (``SO_REUSEPORT``, shared by every worker) and a
    :class:`WorkerListener`; elsewhere uvicorn's own shared socket (``Config.bind_socket``).
    Exits like uvicorn (status 3, the reason logged) when the address cannot be bound.
    """
    if sys.platform != "linux" or config.uds is not None or config.fd is not None:
        return [config.bind_socket()]
    family = socket.AF_INET6 if config.host and ":" in config.host else socket.AF_INET
    try:
        if config.port:
            _refuse_if_taken(family, (config.host, config.port))
        shared = _bound(family, (config.host, config.port))
        shared.listen(config.backlog)
    except OSError as exc:  # as uvicorn reports it for one process
        logger.error("%s while attempting to bind on address %r", exc, (config.host, config.port))
        sys.exit(STARTUP_FAILURE)
    shared.set_inheritable(True)
    own = WorkerListener(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    own.address = shared.getsockname()
    host, port = own.address[:2]
    logger.info("Uvicorn running on http://%s:%d (a listening socket per worker)", host, port)
    return [shared, own]
