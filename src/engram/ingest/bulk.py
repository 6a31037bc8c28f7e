"""Store many episodes so that each gets its own answer: one transaction, one by one only on refusal.

Used by the batch route and tool (``Memory.create_episodes_each``) and by importers that keep
going past a bad record (``engram.portable.batch``). The good path is one transaction for the
whole batch; when the store refuses it (an oversized item, an id reused for other content),
the items are stored one by one, so one bad item fails alone with its reason.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from engram.errors import Conflict, EngramError, InvalidInput
from engram.ingest.inputs import validated
from engram.models.episodes import BatchItemResult, BatchProblem, BatchResult, CreatedEpisode, EpisodeIn

Create = Callable[[Sequence[Any]], list[CreatedEpisode]]

GC_PAUSE_MIN = 100
"""Batches of at least this many episodes run with the cyclic garbage collector paused."""
_paused = 0
_was_enabled = False
_pause_lock = threading.Lock()


@contextmanager
def gc_paused(items: int) -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block when it stores ``items`` ≥ GC_PAUSE_MIN.

    A batch allocates many objects that live until it ends (its episodes, their vectors), so the
    collector runs again and again, each time walking everything the batch holds and the caller's
    input (a list per vector): 8 of 46 s of a 20,000-episode load (bench/RESULTS.md, "Bulk load").
    Reference counting still frees what is not in a cycle; cycles wait for the collector, which
    resumes when the last paused block in the process ends (and only if it was on before).
    """
    global _paused, _was_enabled
    if items < GC_PAUSE_MIN:
        yield
        return
    with _pause_lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _pause_lock:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()


def create_each(create: Create, items: Sequence[Any]) -> list[CreatedEpisode | EngramError]:
    """Return, per item, the stored episode or the InvalidInput / Conflict that kept it out."""
    try:
        return list(create(items))
    except (InvalidInput, Conflict) as exc:
        if len(items) == 1:
            return [exc]
    answers: list[CreatedEpisode | EngramError] = []
    for item in items:
        try:
            answers.append(create([item])[0])
        except (InvalidInput, Conflict) as exc:
            answers.append(exc)
    return answers


def _problem(exc: EngramError) -> BatchProblem:
    return BatchProblem(status=exc.status, title=exc.title, detail=exc.detail, field=exc.field)


def create_batch(create: Create, items: Sequence[EpisodeIn | Mapping[str, Any]], limit: int) -> BatchResult:
    """Validate and store up to ``limit`` items; return a result per item, in order.

    An item that is not a valid episode, or that the store refuses, fails alone with its
    problem; the others are stored. Raises InvalidInput(field="episodes") for an empty batch
    or one over ``limit``.
    """
    if not items:
        raise InvalidInput("episodes must hold at least one episode", field="episodes")
    if len(items) > limit:
        raise InvalidInput(f"a batch holds at most {limit} episodes; got {len(items)}", field="episodes")
    results: dict[int, BatchItemResult] = {}
    valid: list[tuple[int, EpisodeIn]] = []
    for index, item in enumerate(items):
        try:
            valid.append((index, validated(EpisodeIn, item, "episode")))
        except InvalidInput as exc:
            results[index] = BatchItemResult(index=index, status="failed", problem=_problem(exc))
    answers = create_each(create, [episode for _, episode in valid]) if valid else []
    for (index, _), answer in zip(valid, answers, strict=True):
        if isinstance(answer, EngramError):
            results[index] = BatchItemResult(index=index, status="failed", problem=_problem(answer))
        else:
            status = "deduplicated" if answer.deduplicated else "created"
            results[index] = BatchItemResult(index=index, status=status, episode=answer.episode)
    ordered = [results[index] for index in range(len(items))]
    return BatchResult(
        results=ordered,
        created=sum(r.status == "created" for r in ordered),
        deduplicated=sum(r.status == "deduplicated" for r in ordered),
        failed=sum(r.status == "failed" for r in ordered),
    )
