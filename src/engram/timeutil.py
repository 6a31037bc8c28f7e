"""UTC datetimes: every datetime Engram stores or returns is timezone-aware UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, TypeVar

from pydantic import AfterValidator, BaseModel

from engram.errors import InvalidInput


def as_utc(value: datetime) -> datetime:
    """Return ``value`` in UTC; a naive datetime is taken to be UTC already.

    Raises ValueError (a 422 through pydantic) when the conversion leaves years 1-9999.
    """
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError as exc:  # e.g. 0001-01-01T00:00+14:00 is before year 1 in UTC
        raise ValueError("datetime is out of range once converted to UTC") from exc


UtcDatetime = Annotated[datetime, AfterValidator(as_utc)]
"""A pydantic field type: parses ISO 8601, reads naive input as UTC, converts to UTC."""


def known_at(value: datetime | None, now: datetime) -> datetime | None:
    """Return a transaction time to read the memory at, in UTC (naive input is UTC), or None.

    Raises InvalidInput(field="known_at") when it is after ``now``: what the memory will hold
    then is not known yet, and a read repeated later would not give the same answer.
    """
    if value is None:
        return None
    try:
        value = as_utc(value)
    except ValueError as exc:
        raise InvalidInput(f"known_at: {exc}", field="known_at") from exc
    if value > now:
        raise InvalidInput(
            f"known_at {value.isoformat()} is in the future (now {now.isoformat()}); "
            "the memory can be read as it was, not as it will be",
            field="known_at",
        )
    return value


Model = TypeVar("Model", bound=BaseModel)


def as_believed(version: Model, at: datetime | None) -> Model:
    """Return a stored version as the memory held it at ``at``: one closed later was still open then.

    A read at ``known_at`` must not show an ``expired_at`` from after that moment.
    """
    expired = getattr(version, "expired_at", None)
    if at is None or expired is None or expired <= at:
        return version
    return version.model_copy(update={"expired_at": None})
