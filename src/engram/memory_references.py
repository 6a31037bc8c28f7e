"""Memory's method for references: the episodes citing a document, asked for by id or by name.

Mixed into ``engram.memory.Memory`` (which sets the attributes declared here). The resolution
and the version labels are ``engram.search.references``; the index is ``engram.storage.references``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from engram import timeutil
from engram.config import Settings
from engram.errors import InvalidInput
from engram.ingest.inputs import decode_cursor, encode_cursor
from engram.models.episodes import LIST_LIMIT_MAX
from engram.models.references import ReferencePage, load_reference_names
from engram.search.references import ReferenceLookup
from engram.storage.protocol import Storage
from engram.storage.types import PageKey


class ReferenceMethods:
    """The reference part of Memory (see the module docstring)."""

    store: Storage
    settings: Settings
    _clock: Callable[[], datetime]
    group: Callable[[str | None], str]

    def reference_episodes(
        self,
        ref: str,
        group_id: str | None = None,
        *,
        limit: int = 50,
        cursor: str | None = None,
        known_at: datetime | None = None,
    ) -> ReferencePage:
        """Return the episodes citing a document (or part of it), newest first, and its known versions.

        ``ref`` is a reference id (``doc-quote-2024-q3-v2``; without the version: every version),
        a configured or learned name, or a file name or title (``Quote 2024-Q3_v2.pdf``,
        ``《合同草案》``). ``versions`` lists every version known, oldest first, the latest
        marked; each item says which version it cites, and ``note`` says when the version asked
        for is not the latest. ``known_at`` reads the memory as it was. Raises InvalidInput
        (``ref``, ``limit``, ``cursor``; a name of several documents) or NotFound (``ref``).
        """
        if not 1 <= limit <= LIST_LIMIT_MAX:
            raise InvalidInput(f"limit must be between 1 and {LIST_LIMIT_MAX}", field="limit")
        group = self.group(group_id)
        at = timeutil.known_at(known_at, self._clock())
        key = decode_cursor(cursor) if cursor else None
        lookup = ReferenceLookup(self.store, load_reference_names(self.settings.reference_names_file))
        head, wanted = lookup.head(group, ref, at)
        items = lookup.citations(group, head, wanted, limit + 1, key, at)
        for item in items:
            item.episode = timeutil.as_believed(item.episode, at)
        next_cursor = None
        if len(items) > limit:
            items = items[:limit]
            last = items[-1].episode
            next_cursor = encode_cursor(PageKey(last.timestamp, last.id))
        return ReferencePage(**dict(head), items=items, next_cursor=next_cursor)
