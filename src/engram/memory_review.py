"""Memory's methods for people who review and correct it: the console calls these, as REST calls Memory.

Mixed into ``engram.memory.Memory`` (which sets the attributes declared here): entity edits,
merge-candidate and dispute decisions (each an operation), an episode's versions and the graph
it supports, what an undo will change, and the health report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from engram.access import requires
from engram.errors import InvalidInput, NotFound, PreconditionRequired
from engram.graph.review import ReviewService
from engram.health import CreateCounts, RecentErrors, counts_by_week
from engram.history.preview import preview_revert
from engram.history.service import HistoryService
from engram.ingest.inputs import validated
from engram.models.episodes import Episode, Operation
from engram.models.graph import EntityPatch, EntityView, MergeCandidateView, Scalar
from engram.models.review import (
    Dispute,
    EpisodeSupport,
    HealthReport,
    MergeEvidence,
    RevertPreview,
)
from engram.storage.protocol import Storage
from engram.storage.types import OperationQuery

FAILURES_LISTED = 100
FAILURE_SCAN = 5000
"""Most extractor status operations the health report reads to find failures."""


class ReviewMethods:
    """The review, audit-preview and health part of Memory (see the module docstring)."""

    store: Storage
    history: HistoryService
    _clock: Callable[[], datetime]
    _review: ReviewService
    _creates: CreateCounts
    _recent_errors: RecentErrors
    group: Callable[[str | None], str]
    pending_embeddings: Callable[[], int]

    # -- entities and merge candidates -------------------------------------------------------------

    @requires("write")
    def update_entity(
        self,
        entity_id: str,
        attributes: Mapping[str, Scalar | None] | None = None,
        *,
        expected_version: int | None,
        group_id: str | None = None,
        actor: str | None = None,
        patch: EntityPatch | Mapping[str, Any] | None = None,
    ) -> EntityView:
        """Change an entity as a new version (one ``entity_update`` operation); return it.

        ``attributes`` merge into the entity's (None removes one); ``patch`` (EntityPatch)
        also adds or removes aliases, replaces the summary and retypes it. Raises
        PreconditionRequired without ``expected_version``, PreconditionFailed when it is stale,
        NotFound, InvalidInput.
        """
        changes: EntityPatch = validated(EntityPatch, patch or {}, "patch")
        if attributes:  # validated as the patch's own attributes are (names 1-64, text ≤ 1,000)
            merged = {**(changes.attributes or {}), **attributes}
            changes = validated(
                EntityPatch, {**changes.model_dump(exclude_unset=True), "attributes": merged}, "patch"
            )
        if expected_version is None:
            raise PreconditionRequired(
                "updates are conditional: send the entity version you read (If-Match / expected_version)",
                field="expected_version",
            )
        group = self.group(group_id)
        return self._review.update_entity(group, entity_id, changes, expected_version, actor)

    @requires("write")
    def mark_distinct(
        self, entity_id: str, candidate_id: str, group_id: str | None = None, *, actor: str | None = None
    ) -> Operation:
        """Record that two entities are not the same (a ``distinct`` operation); the pair leaves review.

        Raises NotFound, InvalidInput.
        """
        return self._review.mark_distinct(self.group(group_id), entity_id, candidate_id, actor)

    def merge_candidates(self, group_id: str | None = None) -> list[MergeCandidateView]:
        """Return the possible duplicate entities still to review, best first (not those judged distinct)."""
        return self._review.merge_candidates(self.group(group_id))

    def merge_evidence(self, group_id: str | None = None, *, limit: int = 20) -> list[MergeEvidence]:
        """Return up to ``limit`` merge candidates with evidence: names, attributes, shared neighbours."""
        return self._review.merge_evidence(self.group(group_id), limit)

    # -- disputed facts --------------------------------------------------------------------------

    def disputes(self, group_id: str | None = None, *, limit: int = 200) -> list[Dispute]:
        """Return the disputed facts (up to ``limit``), grouped by subject and predicate."""
        return self._review.disputes(self.group(group_id), limit)

    @requires("write")
    def resolve_dispute(
        self,
        subject: str,
        predicate: str,
        keep: list[str],
        group_id: str | None = None,
        *,
        actor: str | None = None,
    ) -> Operation:
        """Keep the facts ``keep`` current, supersede the other disputed ones; one ``arbitrate`` operation.

        Raises InvalidInput (field ``keep``), Conflict (the dispute was settled meanwhile).
        """
        return self._review.resolve_dispute(self.group(group_id), subject, predicate, keep, actor)

    # -- episodes ----------------------------------------------------------------------------------

    def episode_versions(self, episode_id: str, group_id: str | None = None) -> list[Episode]:
        """Return every stored version of an episode, oldest first. Raises NotFound."""
        group = self.group(group_id)
        refs = self.store.versions(group, "episode", episode_id)
        versions = [self.store.version(group, "episode", episode_id, ref.version) for ref in refs]
        found = [v for v in versions if isinstance(v, Episode)]
        if not found:
            raise NotFound(f"no episode with id {episode_id!r} in group {group!r}", field="id")
        return found

    def episode_support(self, episode_id: str, group_id: str | None = None) -> EpisodeSupport:
        """Return the entities an episode mentions and the facts it is evidence for (any status)."""
        return self._review.episode_support(self.group(group_id), episode_id)

    def unclassified_episodes(self, group_id: str | None = None, *, limit: int = 50) -> list[Episode]:
        """Return up to ``limit`` current episodes with no intent, newest first."""
        return self.store.episodes_without_intent(self.group(group_id), limit)

    # -- audit -----------------------------------------------------------------------------------

    def preview_revert(self, operation_id: str, group_id: str | None = None) -> RevertPreview:
        """Return what reverting an operation would change, without changing anything. Raises NotFound."""
        return preview_revert(self.history, self.store, self.group(group_id), operation_id)

    # -- health ----------------------------------------------------------------------------------

    def health(self, group_id: str | None = None, *, weeks: int = 8) -> HealthReport:
        """Return the group's health: volumes by intent and source, duplicates, failures, backlogs, errors.

        ``created``/``deduplicated`` count this process's creates; the embedding backlog is the
        store's (every group). Raises InvalidInput for ``weeks`` outside 1..52.
        """
        if not 1 <= weeks <= 52:
            raise InvalidInput("weeks must be between 1 and 52", field="weeks")
        group, now = self.group(group_id), self._clock()
        total, windows = counts_by_week(self.store, group, now, weeks)
        failures = self._failed_extractions(group)
        candidates = len(self._review.merge_candidates(group))
        return HealthReport(
            group_id=group,
            generated_at=now,
            total=total,
            weeks=windows,
            created=self._creates.created,
            deduplicated=self._creates.deduplicated,
            duplicate_rate=self._creates.rate(),
            extraction_failures=failures[:FAILURES_LISTED],
            extraction_failures_more=len(failures) > FAILURES_LISTED,
            embedding_backlog=self.pending_embeddings(),
            disputed_facts=self.store.count_disputed(group),
            pending_candidates=candidates,
            recent_errors=self._recent_errors.records(),
        )

    def _failed_extractions(self, group: str) -> list[Episode]:
        """Return up to FAILURES_LISTED + 1 episodes whose extraction failed and was not retried since.

        Read from the extractor's ``extraction_status`` operations (the kind index; at most
        FAILURE_SCAN of them, newest first), each episode checked in its current version: a
        metadata filter would read every episode of the group.
        """
        found: list[Episode] = []
        seen: set[str] = set()
        query, key, scanned = OperationQuery(kinds=("extraction_status",)), None, 0
        while len(found) <= FAILURES_LISTED and scanned < FAILURE_SCAN:
            page, key = self.history.list_operations(group, query, 500, key)
            scanned += len(page)
            for episode_id in (str(op.details.get("episode")) for op in page):
                if episode_id in seen:
                    continue
                seen.add(episode_id)
                episode = self.store.get_episode(group, episode_id)
                if episode is not None and episode.metadata.get("extraction_status") == "failed":
                    found.append(episode)
            if key is None:
                break
        return found[: FAILURES_LISTED + 1]

    def _count_creates(self, outcomes: list[Any]) -> None:
        """Count a create call's episodes: stored, or found already stored."""
        duplicates = sum(1 for outcome in outcomes if outcome.deduplicated)
        self._creates.add(len(outcomes) - duplicates, duplicates)
