"""What the history API returns: operations with the versions they created and closed."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from engram.models.episodes import Operation


class VersionChange(BaseModel):
    """One version an operation created or closed."""

    kind: Literal["episode", "entity", "fact"]
    id: str
    version: int


class OperationView(BaseModel):
    """An operation and its exact effect on stored versions."""

    operation: Operation
    created: list[VersionChange] = Field(description="Versions this operation stored.")
    closed: list[VersionChange] = Field(description="Versions this operation ended (expired_by).")


class OperationPage(BaseModel):
    """A page of the audit log, newest first; pass ``next_cursor`` back as ``cursor``."""

    items: list[Operation]
    next_cursor: str | None = None


class PurgeReport(BaseModel):
    """What a purge removed, in rows (the purge's audit record keeps these counts, no content)."""

    episode_versions: int = Field(description="Stored versions of the episode deleted.")
    facts: int = Field(description="Facts (live or archived) only the episode supported, deleted.")
    entities: int = Field(description="Entities only the episode mentioned or named, deleted.")
    mentions: int = Field(description="Mentions of entities in the episode, deleted.")
