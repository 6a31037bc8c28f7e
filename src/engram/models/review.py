"""What review, audit previews and health return: evidence, disputes, undo previews, health."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from engram.models.episodes import Episode, Operation
from engram.models.graph import Entity, FactHit, MergeCandidateView
from engram.models.history import OperationView


class EpisodeSupport(BaseModel):
    """The graph an episode stands behind: the entities it mentions and the facts it is evidence for."""

    entities: list[Entity]
    facts: list[FactHit]


class MergeEvidence(BaseModel):
    """A merge candidate with what a reviewer needs to judge it: both entities and their shared neighbours."""

    candidate: MergeCandidateView
    shared_neighbours: list[Entity] = Field(description="Entities linked by current facts to both.")


class Dispute(BaseModel):
    """Disputed facts with one subject and predicate, and the current facts they contest (a newer but
    less credible claim is disputed while the stated one stays current): a reviewer keeps one
    current, or keeps them all."""

    subject: Entity | None
    predicate: str
    facts: list[FactHit]


class PreviewChange(BaseModel):
    """What undoing an operation does to one object: its version now and the one the undo leaves."""

    kind: Literal["episode", "entity", "fact"]
    id: str
    action: Literal["restore", "close", "retract", "judge"] = Field(
        description="restore: an earlier version comes back; close: the object ends; retract: an episode is "
        "deleted with what only it supports; judge: a 'not the same' judgement between two entities flips."
    )
    now: dict[str, Any] | None = Field(description="The object's latest version (None: gone).")
    after: dict[str, Any] | None = Field(description="The version the undo stores again (None: closed).")


class RevertPreview(BaseModel):
    """What an undo (revert) of an operation will change, computed from the versions it created and closed."""

    operation: OperationView
    changes: list[PreviewChange]
    later_operations: list[Operation] = Field(
        description="Later operations that changed the same objects: the undo is refused unless forced."
    )
    revertible: bool
    reason: str | None = Field(default=None, description="Why it cannot be undone, when it cannot.")


class ErrorRecord(BaseModel):
    """A warning or error the server logged."""

    at: datetime
    level: str
    logger: str
    message: str


class CountsWindow(BaseModel):
    """Current episodes by intent and by source whose timestamp falls in [start, end)."""

    start: datetime
    end: datetime
    by_intent: dict[str, int] = Field(description='Intent → count; "" for episodes with no intent.')
    by_source: dict[str, int] = Field(description='Source → count; "" for episodes with no source.')


class HealthReport(BaseModel):
    """The memory's health in one group: volumes, failures, backlogs and recent errors.

    ``created`` and ``deduplicated`` count this process's creates since it started; the rest is
    read from the store when asked.
    """

    group_id: str
    generated_at: datetime
    total: CountsWindow
    weeks: list[CountsWindow] = Field(description="The last weeks, oldest first.")
    created: int
    deduplicated: int
    duplicate_rate: float | None = Field(
        description="deduplicated / (created + deduplicated); None before any."
    )
    extraction_failures: list[Episode] = Field(description="Episodes whose extraction failed (retry them).")
    extraction_failures_more: bool = Field(description="More failures exist than listed.")
    embedding_backlog: int = Field(description="Episodes waiting for their vector, in every group.")
    disputed_facts: int
    pending_candidates: int
    recent_errors: list[ErrorRecord]
