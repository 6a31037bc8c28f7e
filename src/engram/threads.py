"""Threads: the conversations (sessions) episodes belong to, named by their metadata."""

from __future__ import annotations

from typing import Any

from engram.models.episodes import Episode

THREAD_KEYS = ("thread_id", "session_id", "conversation_id", "session")
"""Metadata keys that name an episode's thread, first present wins."""


def _key(episode: Episode) -> Any:
    return next((episode.metadata[k] for k in THREAD_KEYS if episode.metadata.get(k) is not None), None)


def thread_key(episode: Episode) -> str | None:
    """Return the thread an episode belongs to: its source plus the first THREAD_KEYS value.

    None when the metadata names no thread: such an episode stands alone in the index.
    """
    key = _key(episode)
    return None if key is None else f"{episode.source or ''}\x1f{key}"


def thread_label(episode: Episode) -> str | None:
    """Return the thread's readable name, ``<source>/<key>`` (``locomo/3``), or None."""
    key = _key(episode)
    return None if key is None else f"{episode.source or ''}/{key}"
