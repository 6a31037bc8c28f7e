"""Buffer "a search returned this fact" and write it in batches, off the search's path.

Searches only touch a dict under a lock; a timer thread writes the batch about
``FLUSH_SECONDS`` after the first unwritten hit (one upsert transaction on the store's
writer), so a burst of searches costs one write, and a hit reaches the database within a
second or so. ``flush()`` writes now (before an archive decides, and at close).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime

from engram.errors import EngramError

logger = logging.getLogger("engram.store")

FLUSH_SECONDS = 1.0
"""How long a hit may wait in memory before it is written."""

Hit = tuple[str, str, datetime]
"""(group_id, fact_id, last returned at)."""


class HitBuffer:
    """Latest return time per (group, fact), written by ``write(hits)`` in batches. Thread-safe."""

    def __init__(self, write: Callable[[Sequence[Hit]], None], delay: float = FLUSH_SECONDS) -> None:
        self._write = write
        self._delay = delay
        self._pending: dict[tuple[str, str], datetime] = {}
        self._lock = threading.Lock()
        self._flushing = threading.Lock()
        self._timer: threading.Timer | None = None

    def add(self, group_id: str, fact_ids: Sequence[str], at: datetime) -> None:
        """Remember that the facts were returned at ``at``; start the flush timer if idle."""
        if not fact_ids:
            return
        with self._lock:
            for fact_id in fact_ids:
                key = (group_id, fact_id)
                known = self._pending.get(key)
                if known is None or known < at:
                    self._pending[key] = at
            if self._timer is None:
                self._timer = threading.Timer(self._delay, self._flush_later)
                self._timer.daemon = True
                self._timer.start()

    def flush(self) -> None:
        """Write every pending hit now. Raises what ``write`` raises (the hits stay pending)."""
        with self._flushing:
            with self._lock:
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
                pending, self._pending = self._pending, {}
            if not pending:
                return
            try:
                self._write([(group, fact, at) for (group, fact), at in pending.items()])
            except BaseException:
                with self._lock:  # keep them for the next flush; newer hits win
                    for key, at in pending.items():
                        if key not in self._pending or self._pending[key] < at:
                            self._pending[key] = at
                raise

    def _flush_later(self) -> None:
        """Flush from the timer thread; a failure is logged and retried at the next flush."""
        try:
            self.flush()
        except EngramError as exc:
            logger.warning("could not record fact hits (%s); retrying later", exc.detail)
