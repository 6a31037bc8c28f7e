"""People's judgements that change no stored version: "these two entities are not the same".

A ``distinct`` operation names a pair (``details.entity``, ``details.candidate``). Undoing it
records a ``revert`` whose details carry the pair and ``distinct: false``; undoing that revert
records ``distinct: true`` again. A pair's state is therefore the latest judgement about it,
read from these operations alone (the review queue leaves out the pairs judged distinct).

An undo is refused when a later judgement about the same pair exists (it would be silently
overridden), unless forced, and refused outright when the operation was already undone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from engram.errors import Conflict
from engram.models.episodes import Operation
from engram.storage.protocol import Txn
from engram.storage.types import OperationQuery

JUDGEMENT_KINDS = ("distinct", "revert")
PAGE = 500

ReadOperations = Callable[[OperationQuery, int, tuple[datetime, str] | None], list[Operation]]
"""Read a page of operations, newest first: (query, limit, after (created_at, id) key)."""


def judged_pair(operation: Operation) -> tuple[frozenset[str], bool] | None:
    """Return the pair an operation judges and whether it leaves them distinct; None if it judges none."""
    details = operation.details
    if operation.kind == "distinct":
        return frozenset((str(details["entity"]), str(details["candidate"]))), True
    if operation.kind == "revert" and "pair" in details:
        return frozenset(str(i) for i in details["pair"]), bool(details["distinct"])
    return None


def judgements(read: ReadOperations) -> Iterator[tuple[Operation, frozenset[str], bool]]:
    """Yield every judgement, newest first, with its pair and the state it leaves."""
    query, key = OperationQuery(kinds=JUDGEMENT_KINDS), None
    while True:
        page = read(query, PAGE, key)
        for operation in page:
            judged = judged_pair(operation)
            if judged is not None:
                yield operation, *judged
        if len(page) < PAGE:
            return
        key = (page[-1].created_at, page[-1].id)


def distinct_pairs(read: ReadOperations) -> set[frozenset[str]]:
    """Return the pairs whose latest judgement says "not the same"."""
    seen: set[frozenset[str]] = set()
    distinct: set[frozenset[str]] = set()
    for _, pair, state in judgements(read):
        if pair not in seen:
            seen.add(pair)
            if state:
                distinct.add(pair)
    return distinct


def later_judgement(read: ReadOperations, target: Operation) -> Operation | None:
    """Return the newest judgement about the target's pair if it is not the target itself."""
    judged = judged_pair(target)
    assert judged is not None
    latest = next((op for op, pair, _ in judgements(read) if pair == judged[0]), None)
    return None if latest is None or latest.id == target.id else latest


def revert_judgement(txn: Txn, group_id: str, target: Operation, *, force: bool) -> dict[str, Any]:
    """Undo a judgement inside ``txn``; return the revert's details (pair and the state it leaves).

    Raises Conflict naming ``operations`` when a later judgement about the pair exists (already
    undone: always; another judgement: unless ``force``).
    """
    pair, state = judged_pair(target) or (frozenset(), False)
    later = later_judgement(lambda q, n, k: txn.list_operations(group_id, q, n, k), target)
    if later is not None and later.details.get("target") == target.id:
        raise Conflict(
            f"operation {target.id} was already reverted by {later.id}; revert that to re-apply it",
            field="id",
            operations=[later.id],
        )
    if later is not None and not force:
        raise Conflict(
            f"operation {later.id} judged the same pair after {target.id}; "
            "revert it first, or pass force to overwrite it",
            field="id",
            operations=[later.id],
        )
    forced = [] if later is None else [later.id]
    return {"target": target.id, "pair": sorted(pair), "distinct": not state, "forced_over": forced}
