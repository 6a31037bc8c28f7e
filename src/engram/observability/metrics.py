"""Every Prometheus metric Engram's process counts, in the ``engram_`` namespace, and the small
helpers the code calls where things happen.

Counters and histograms live in prometheus-client's default registry (with its process and
Python runtime collectors); GET /metrics adds what the database holds, read at scrape time
(``engram.observability.collector``). Labels are bounded: intents and sources through
``engram.observability.labels``, tools to the registered ones, kinds and channels to those in
the code. Never a group id, an episode id or content.

This module imports nothing heavier than prometheus-client and Engram's errors, so any layer
(search, ingest, graph, history) can call it.
"""

from __future__ import annotations

import collections
import functools
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import UTC, datetime
from typing import ParamSpec, Protocol, TypeVar

from prometheus_client import Counter, Histogram

from engram.errors import Conflict, PreconditionFailed
from engram.observability.labels import INTERFACE, bounded

P = ParamSpec("P")
R = TypeVar("R")

# -- episodes -----------------------------------------------------------------------------------

EPISODES_CREATED = Counter(
    "engram_episodes_created", "Episodes stored by create calls (not duplicates).", ["intent", "source"]
)
EPISODES_DEDUPLICATED = Counter(
    "engram_episodes_deduplicated",
    "Create calls answered with an episode already stored (same fingerprint or client id).",
    ["intent", "source"],
)

# -- search -------------------------------------------------------------------------------------

SEARCH_REQUESTS = Counter("engram_search_requests", "Episode searches, per interface.", ["interface"])
SEARCH_DURATION = Histogram(
    "engram_search_duration_seconds", "Episode search latency, whole pipeline.", ["interface"]
)
SEARCH_CHANNEL_DURATION = Histogram(
    "engram_search_channel_duration_seconds",
    "Episode search latency per stage: each channel (bm25, vector, graph) and fusion (RRF, boosts, MMR).",
    ["channel"],
)
SEARCH_RESULTS = Counter("engram_search_results", "Search hits returned.", ["interface"])
SEARCH_EMPTY = Counter("engram_search_empty_results", "Searches that returned no hit.", ["interface"])

# -- extraction and the LLM -----------------------------------------------------------------------

EXTRACTIONS = Counter(
    "engram_extractions",
    "Episode extractions per extractor (agent, builtin, llm) and outcome: ok; failed (the episode is "
    "marked extraction_status failed); retried (a failed episode extracted again successfully).",
    ["extractor", "outcome"],
)
LLM_TOKENS = Counter("engram_llm_tokens", "Tokens the LLM extractor's endpoint reported.", ["type"])
LLM_RETRIES = Counter("engram_llm_retries", "LLM requests retried after a timeout, 429 or 5xx.")

# -- the indexer --------------------------------------------------------------------------------

EPISODES_EMBEDDED = Counter("engram_episodes_embedded", "Episodes embedded by this process's indexer.")
EMBEDDING_FAILURES = Counter(
    "engram_embedding_failures", "Indexer batches that failed (the episodes stay pending)."
)
INDEXER_LAG = Histogram(
    "engram_indexer_lag_seconds",
    "Time from an episode version's recorded_at to its vector being stored.",
    buckets=(0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600),
)

# -- history ------------------------------------------------------------------------------------

OPERATIONS = Counter("engram_operations", "Operations recorded (the audit log), per kind.", ["kind"])
CONFLICTS = Counter(
    "engram_conflicts",
    "Writes refused for a conflict: version (stale If-Match), revert (later changes), id (client id "
    "reused for other content).",
    ["kind"],
)

# -- MCP ----------------------------------------------------------------------------------------

MCP_TOOL_CALLS = Counter("engram_mcp_tool_calls", "MCP tool calls, per tool.", ["tool"])
MCP_TOOL_ERRORS = Counter("engram_mcp_tool_errors", "MCP tool calls that returned an error.", ["tool"])


# -- HTTP (observed by engram.api.metrics) ----------------------------------------------------------

HTTP_REQUESTS = Counter(
    "engram_http_requests", "HTTP requests handled, per route template.", ["method", "route", "status"]
)
HTTP_DURATION = Histogram(
    "engram_http_request_duration_seconds", "HTTP request latency, per route template.", ["method", "route"]
)


# -- helpers called where things happen -----------------------------------------------------------


class _Labelled(Protocol):
    intent: str | None
    source: str | None


def count_created(
    results: Sequence[tuple[_Labelled, bool]], kind: str, intents: Collection[str], sources: Collection[str]
) -> None:
    """Count each (episode, deduplicated) one create operation of ``kind`` returned, by bounded intent
    and source, and the operation itself when it stored anything."""
    counts = collections.Counter(
        (deduplicated, bounded(episode.intent, intents), bounded(episode.source, sources))
        for episode, deduplicated in results
    )  # one increment per label set, not per episode: a batch holds thousands
    for (deduplicated, intent, source), n in counts.items():
        (EPISODES_DEDUPLICATED if deduplicated else EPISODES_CREATED).labels(intent, source).inc(n)
    if not all(deduplicated for _, deduplicated in results):
        count_operation(kind)


def count_operation(kind: str) -> None:
    """Count one committed operation of ``kind`` (one of OPERATION_KINDS)."""
    OPERATIONS.labels(kind).inc()


def count_extraction(extractor: str, outcome: str) -> None:
    """Count one extraction; ``extractor`` is cut at its first colon (``llm:qwen`` → ``llm``)."""
    EXTRACTIONS.labels(extractor.split(":", 1)[0], outcome).inc()


def count_llm_tokens(prompt: int, completion: int) -> None:
    """Count the tokens one LLM request cost (failed attempts included: they are paid for too)."""
    LLM_TOKENS.labels("prompt").inc(prompt)
    LLM_TOKENS.labels("completion").inc(completion)


def count_embedded(recorded_at: Iterable[datetime]) -> None:
    """Count episodes whose vectors were just stored, observing each one's wait since ``recorded_at``."""
    now = datetime.now(UTC)
    for moment in recorded_at:
        EPISODES_EMBEDDED.inc()
        INDEXER_LAG.observe(max(0.0, (now - moment).total_seconds()))


def counts_conflicts(kind: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Return a decorator counting CONFLICTS{kind} when the call raises Conflict or PreconditionFailed."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return fn(*args, **kwargs)
            except (Conflict, PreconditionFailed):
                CONFLICTS.labels(kind).inc()
                raise

        return call

    return decorate


class _Response(Protocol):
    @property
    def results(self) -> Collection[object]: ...


_Search = TypeVar("_Search", bound=_Response)


def timed_search(fn: Callable[P, _Search]) -> Callable[P, _Search]:
    """Decorate the episode search: count it, time it, count its hits and empty answers, per interface."""

    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> _Search:
        interface = INTERFACE.get()
        SEARCH_REQUESTS.labels(interface).inc()
        started = time.perf_counter()
        response = fn(*args, **kwargs)
        SEARCH_DURATION.labels(interface).observe(time.perf_counter() - started)
        SEARCH_RESULTS.labels(interface).inc(len(response.results))
        if not response.results:
            SEARCH_EMPTY.labels(interface).inc()
        return response

    return call
