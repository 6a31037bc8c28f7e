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
