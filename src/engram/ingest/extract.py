"""The Extractor protocol: one episode in, one Extraction out, whichever extractor it is."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from engram.models.episodes import Episode
from engram.models.graph import Extraction


class Extractor(Protocol):
    """Finds entities and facts in an episode (builtin rules, an LLM, …)."""

    name: str

    def extract(self, episode: Episode) -> Extraction:
        """Return what ``episode`` says; an empty Extraction for chit-chat.

        Raises engram.errors.EngramError subclasses for failures the caller should record
        (the episode is kept and marked ``extraction_status: failed``).
        """
        ...

    def close(self) -> None:
        """Release connections (an HTTP client); the extractor is unusable afterwards."""
        ...


@runtime_checkable
class MeteredExtractor(Extractor, Protocol):
    """An extractor that can say what an extraction cost (an LLM's tokens)."""

    def extract_with_usage(self, episode: Episode) -> tuple[Extraction, dict[str, int]]:
        """Return the extraction and its token counts (``prompt_tokens``, ``completion_tokens``)."""
        ...


class DeferredExtractor:
    """An extractor built at its first use, once (thread-safe).

    The builtin extractor compiles ~400 patterns when built (~1 s): a command that never extracts
    (``engram search``, ``engram list``) should not wait for it. ``prepare`` builds it ahead, as a
    long-lived process does at start.
    """

    def __init__(self, name: str, build: Callable[[], Extractor], *, pure: bool = False) -> None:
        self.name = name
        self.pure = pure
        """Whether the built extractor may run in another process (engram.ingest.worker)."""
        self._build = build
        self._built: Extractor | None = None
        self._lock = threading.Lock()

    def prepare(self) -> Extractor:
        """Return the extractor, building it first if no call has."""
        built = self._built
        if built is None:
            with self._lock:
                if self._built is None:
                    self._built = self._build()
                built = self._built
        return built

    def extract(self, episode: Episode) -> Extraction:
        """Return what the built extractor finds in ``episode``."""
        return self.prepare().extract(episode)

    def close(self) -> None:
        """Close the built extractor, if it was built."""
        if self._built is not None:
            self._built.close()
