"""The history behind Memory: the audit log, revert, retraction (delete) and purge of episodes."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from engram.errors import NotFound, shown
from engram.graph.build import name_keys, neutral_fact_text
from engram.history.retract import retract_episode
from engram.history.revert import revert_operation
from engram.models.episodes import Operation
from engram.models.history import OperationView, PurgeReport, VersionChange
from engram.observability import metrics
from engram.storage.protocol import Storage, Txn
from engram.storage.types import OperationQuery, PageKey


class HistoryService:
    """Reads the operation log and makes corrections as new operations, on a Storage."""

    def __init__(self, store: Storage, *, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._clock = clock

    def list_operations(
        self, group_id: str, query: OperationQuery, limit: int, after: PageKey | None
    ) -> tuple[list[Operation], PageKey | None]:
        """Return up to ``limit`` operations newest first, and the key of the next page (or None)."""
        key = None if after is None else (after.timestamp, after.id)
        found = self._store.list_operations(group_id, query, limit + 1, key)
        if len(found) <= limit:
            return found, None
        found = found[:limit]
        return found, PageKey(found[-1].created_at, found[-1].id)

    def get_operation(self, group_id: str, operation_id: str) -> OperationView:
        """Return an operation with the versions it created and closed. Raises NotFound."""
        operation = self._store.get_operation(group_id, operation_id)
        if operation is None:
            raise NotFound(
                f"no operation with id {shown(operation_id)} in group {shown(group_id)}", field="id"
            )
        effects = self._store.operation_effects(group_id, operation_id)
        return OperationView(
            operation=operation,
            created=[
                VersionChange(kind=r.kind, id=r.id, version=r.version)
                for r in effects
                if r.created_by == operation_id
            ],
            closed=[
                VersionChange(kind=r.kind, id=r.id, version=r.version)
                for r in effects
                if r.closed_by == operation_id
            ],
        )

    def revert(self, group_id: str, operation_id: str, *, force: bool, actor: str | None) -> OperationView:
        """Undo an operation as a new ``revert`` operation; return it with its effect.

        Raises NotFound, Conflict (a purge, nothing left to revert, later changes; 409).
        """
        done = self._run(
            group_id,
            "revert",
            f"revert {operation_id}",
            actor,
            lambda txn, operation: revert_operation(txn, group_id, operation_id, operation, force=force),
        )
        return self.get_operation(group_id, done)

    def delete_episode(self, group_id: str, episode_id: str, actor: str | None) -> OperationView:
        """Retract an episode (revertible) as a ``delete`` operation; return it. Raises NotFound."""
        done = self._run(
            group_id,
            "delete",
            f"delete episode {episode_id}",
            actor,
            lambda txn, operation: retract_episode(txn, group_id, episode_id, operation),
        )
        return self.get_operation(group_id, done)

    def purge_episode(
        self, group_id: str, episode_id: str, actor: str | None
    ) -> tuple[Operation, PurgeReport]:
        """Erase an episode irreversibly (right to erasure); return the audit record. Raises NotFound.

        A live episode is first retracted (a ``delete`` operation): what its claims did to older
        facts is undone as a delete would, so erasing a correction brings back the value it
        corrected rather than leaving no current value.
        """
        if self._store.get_episode(group_id, episode_id) is not None:
            self.delete_episode(group_id, episode_id, actor)
        operation = Operation.begin(
            group_id, "purge", f"purge episode {episode_id}", at=self._clock(), actor=actor
        )
        report = self._store.purge_episode(group_id, episode_id, operation, neutral_fact_text, name_keys)
        metrics.count_operation("purge")
        stored = self._store.get_operation(group_id, operation.id)
        assert stored is not None
        return stored, report

    def _run(
        self,
        group_id: str,
        kind: str,
        summary: str,
        actor: str | None,
        change: Callable[[Txn, Operation], dict[str, Any]],
    ) -> str:
        """Make ``change`` as a new ``kind`` operation in one transaction (``Txn.begin``); return its id."""

        def write(txn: Txn) -> str:
            operation = txn.begin(group_id, kind, summary, self._clock, actor)
            details = change(txn, operation)
            txn.record_operation(operation.model_copy(update={"details": details}))
            return operation.id

        done = self._store.write(write)
        metrics.count_operation(kind)
        return done
