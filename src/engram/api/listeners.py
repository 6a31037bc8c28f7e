"""A listening socket of its own for each ``engram serve --workers N`` process (Linux).

uvicorn's workers share the one socket their parent bound: every worker waits on the same accept
queue and whichever wakes first takes the connections waiting there. Fifty clients connecting at
once then often all land on one worker while the other idles (measured: all 50 on one of two
workers in 2 of 8 starts, serving half the searches; bench/RESULTS.md, "Request threads and a
listener per worker"). With ``SO_REUSEPORT`` each worker listens on a socket of its own bound to
the same address, and the kernel spreads new connections over them by a hash of their addresses
(socket(7); the option's Linux semantics since 3.9).

uvicorn hands each worker process the parent's sockets by pickling them into it. The parent's
socket here is a :class:`WorkerListener`: bound with ``SO_REUSEPORT`` (it holds the port; a port
another program or server listens on fails at start, in the parent) but never listened on, so no
connection queues on it; pickled, it becomes a new socket bound to the same address in the
worker, which uvicorn then listens on. A worker uvicorn restarts binds its own the same way.
Elsewhere than Linux, ``SO_REUSEPORT`` does not balance (BSD and macOS give the last bound socket
every connection), so the parent's socket is shared as uvicorn does.
"""

from __future__ import annotations

import logging
import socket
import sys
from typing import Any

from uvicorn.config import STARTUP_FAILURE, Config

logger = logging.getLogger("uvicorn.error")


def _bound(family: int, address: Any, kind: type[socket.socket] = socket.socket) -> socket.socket:
    """Return a TCP socket (of class ``kind``) with ``SO_REUSEPORT``, bound to ``address``, not listening."""
    sock = kind(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
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
    """The parent's socket, which each worker process receives as a new socket on the same address."""

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return _bound, (self.family, self.getsockname())


def worker_listener(config: Config) -> socket.socket:
    """Return the socket to hand uvicorn's worker processes for ``config``'s host and port.

    On Linux a :class:`WorkerListener`, else uvicorn's own shared socket (``Config.bind_socket``).
    Exits like uvicorn (status 3, the reason logged) when the address cannot be bound.
    """
    if sys.platform != "linux" or config.uds is not None or config.fd is not None:
        return config.bind_socket()
    family = socket.AF_INET6 if config.host and ":" in config.host else socket.AF_INET
    try:
        if config.port:
            _refuse_if_taken(family, (config.host, config.port))
        listener = _bound(family, (config.host, config.port), WorkerListener)
    except OSError as exc:  # as uvicorn reports it for one process
        logger.error("%s while attempting to bind on address %r", exc, (config.host, config.port))
        sys.exit(STARTUP_FAILURE)
    listener.set_inheritable(True)
    host, port = listener.getsockname()[:2]
    logger.info("Uvicorn running on http://%s:%d (a listening socket per worker)", host, port)
    return listener
