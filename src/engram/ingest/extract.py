"""The Extractor protocol: one episode in, one Extraction out, whichever extractor it is."""

from __future__ import annotations

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
