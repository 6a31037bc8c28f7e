"""What the store holds now, counted: for the console's health page and the /metrics scrape."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class EpisodeCount(BaseModel):
    """How many current episodes have this intent and source (None: not set)."""

    intent: str | None
    source: str | None
    episodes: int


class MemoryStats(BaseModel):
    """Counts read from the store at one moment, for one group or (``group_id`` None) all of them."""

    group_id: str | None = Field(description="The group counted; null: every group.")
    episodes: int = Field(description="Current episodes (deleted ones excluded).")
    episode_counts: list[EpisodeCount] = Field(
        description="Current episodes per intent and source, most first."
    )
    facts: dict[str, int] = Field(
        description="Current fact versions per status: current, superseded, disputed, retracted "
        "(archived facts excluded)."
    )
    merge_candidates: int = Field(description="Possible duplicate entities awaiting review.")
    embedding_backlog: int | None = Field(
        description="Current episodes still waiting for their vector; null when this memory has no embedder."
    )

    def totals(self, by: Literal["intent", "source"]) -> dict[str | None, int]:
        """Return the current episodes per intent (or per source), most first."""
        totals: dict[str | None, int] = {}
        for count in self.episode_counts:
            key = count.intent if by == "intent" else count.source
            totals[key] = totals.get(key, 0) + count.episodes
        return dict(sorted(totals.items(), key=lambda item: item[1], reverse=True))
