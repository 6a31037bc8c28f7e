"""One exception tree for Engram; the CLI, REST and MCP shells map it at their edges.

::

    EngramError                      base; never raised itself
    ├── Unauthorized                 no API key, or one that is unknown or revoked (HTTP 401)
    ├── Forbidden                    the key's role or groups do not allow this (HTTP 403)
    ├── InvalidInput                 bad value from a caller; names the field (HTTP 422, exit 2)
    ├── NotFound                     no such episode / object in the group (HTTP 404, exit 3)
    ├── Conflict                     the request contradicts stored state (HTTP 409, exit 4)
    ├── PreconditionFailed           If-Match / expected_version is stale (HTTP 412, exit 4)
    ├── PreconditionRequired         a conditional update came without a version (HTTP 428, exit 2)
    ├── StoreError                   the store is unusable (schema too new, corrupt…) (HTTP 503, exit 5)
    ├── ExtractionError              the LLM extractor failed (HTTP 502, exit 5); the episode is kept
    └── EmbedderError                the embedding provider failed (HTTP 502, exit 5)
"""

from __future__ import annotations

from typing import Any

SHOWN_CHARS = 64
"""Longest part of a caller's value an error message repeats."""


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """Return ``value`` quoted for an error message, cut to ``limit`` characters (… marks a cut).

    An id of 100,000 characters is not echoed back whole.
    """
    text = str(value)
    return repr(text if len(text) <= limit else text[:limit] + "…")


class EngramError(Exception):
    """Base of every error Engram raises on purpose.

    ``field`` names the offending input field (dotted path) when there is one.
    """

    status = 500
    title = "Internal error"
    exit_code = 1

    def __init__(self, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.field = field

    @property
    def extra(self) -> dict[str, object]:
        """Return members the error adds to its problem+json / tool error body (none by default)."""
        return {}

    @property
    def headers(self) -> dict[str, str]:
        """Return HTTP headers the error's problem response carries (none by default)."""
        return {}


class Unauthorized(EngramError):
    """The caller sent no API key where one is needed, or one that is unknown or revoked.

    Only HTTP callers meet it: the CLI and the library act as the local administrator.
    """

    status = 401
    title = "Unauthorized"
    exit_code = 2


class Forbidden(EngramError):
    """The caller's key may not do this: its role is too weak (``role`` it has, ``required_role``
    the action needs) or the group is not one of its groups (field ``group_id``)."""

    status = 403
    title = "Forbidden"
    exit_code = 2

    def __init__(
        self,
        detail: str,
        *,
        role: str | None = None,
        required_role: str | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(detail, field=field)
        self.role = role
        self.required_role = required_role

    @property
    def extra(self) -> dict[str, object]:
        """Return the role the key has and the one the action needs, when the role refused it."""
        if self.required_role is None:
            return {}
        return {"role": self.role, "required_role": self.required_role}


class InvalidInput(EngramError):
    """A caller passed a value Engram cannot accept."""

    status = 422
    title = "Invalid input"
    exit_code = 2


class NotFound(EngramError):
    """The addressed object does not exist in the requested group."""

    status = 404
    title = "Not found"
    exit_code = 3


class Conflict(EngramError):
    """The request contradicts what is stored (e.g. an id reused for other content).

    ``operations`` names the stored operations in the way (a revert over later changes).
    """

    status = 409
    title = "Conflict"
    exit_code = 4

    def __init__(self, detail: str, *, field: str | None = None, operations: list[str] | None = None) -> None:
        super().__init__(detail, field=field)
        self.operations = operations

    @property
    def extra(self) -> dict[str, object]:
        """Return ``conflicting_operations`` when the conflict is with stored operations."""
        return {} if self.operations is None else {"conflicting_operations": self.operations}


class PreconditionFailed(EngramError):
    """The caller's expected version is not the current one."""

    status = 412
    title = "Precondition failed"
    exit_code = 4

    def __init__(self, detail: str, *, current_version: int, field: str | None = None) -> None:
        super().__init__(detail, field=field)
        self.current_version = current_version

    @property
    def extra(self) -> dict[str, object]:
        """Return the current version, to retry with."""
        return {"current_version": self.current_version}


class PreconditionRequired(EngramError):
    """A conditional update arrived without the version it is conditional on."""

    status = 428
    title = "Precondition required"
    exit_code = 2


class StoreError(EngramError):
    """The store cannot be used as it is (schema from a newer Engram, corruption)."""

    status = 503
    title = "Store unavailable"
    exit_code = 5


class StoreBusy(StoreError):
    """Another writer held the database's write lock longer than a write waits (SQLite's busy
    timeout, 10 s): nothing was written; retry shortly (HTTP 503 with ``Retry-After``)."""

    title = "Store busy"

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": "1"}


class ExtractionError(EngramError):
    """The extractor failed (endpoint unreachable, refusing, or answering with no usable JSON).

    ``usage`` holds the tokens spent on the way (engram.ingest.llm_parse.Usage) and
    ``attempts`` how many requests were made.
    """

    status = 502
    title = "Extraction failed"
    exit_code = 5

    def __init__(self, detail: str, *, usage: Any = None, attempts: int = 0) -> None:
        super().__init__(detail)
        self.usage = usage
        self.attempts = attempts


class EmbedderError(EngramError):
    """The embedding provider failed (unreachable, bad answer)."""

    status = 502
    title = "Embedding failed"
    exit_code = 5
