"""People's judgements that change no stored version: "these two entities are not the same".

A ``distinct`` operation names a pair (``details.entity``, ``details.candidate``). Undoing it
records a ``revert`` whose details carry the pair and ``distinct: false``; undoing that revert
records ``distinct: true`` again. A pair's state is therefore the latest judgement about it,
read from these operations alone (the review queue leaves out the pairs judged distinct).

Undoing a judgement is history's job (engram.history.revert); this module only reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime

from engram.models.episodes import Operation
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
