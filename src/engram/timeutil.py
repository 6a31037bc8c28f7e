"""UTC datetimes: every datetime Engram stores or returns is timezone-aware UTC."""

from __future__ import annotations

import math
import re
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Annotated, Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import AfterValidator, BaseModel, BeforeValidator, WithJsonSchema

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


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
UNIX_SECONDS_MIN = -62_135_596_800
"""0001-01-01T00:00:00Z as Unix seconds: the earliest time Engram holds."""
UNIX_SECONDS_MAX = 253_402_300_799
"""9999-12-31T23:59:59Z as Unix seconds: the latest time Engram holds."""
_NUMBER = re.compile(r"^\s*-?\d+(\.\d+)?\s*$")


def from_unix_seconds(value: Any) -> Any:
    """Return a number (or a string of one) read as Unix seconds, as a UTC datetime; other values as given.

    A number always means seconds, never milliseconds: one outside 0001-01-01..9999-12-31
    (``UNIX_SECONDS_MIN``..``UNIX_SECONDS_MAX``; a millisecond timestamp of today is) raises
    ValueError, a 422 through pydantic.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return value
    if isinstance(value, str):
        if len(value) > 40 or not _NUMBER.match(value):
            return value
        value = float(value) if "." in value else int(value)
    if not (math.isfinite(value) and UNIX_SECONDS_MIN <= value <= UNIX_SECONDS_MAX):
        raise ValueError(
            f"a number is Unix seconds, between {UNIX_SECONDS_MIN} (0001-01-01) and {UNIX_SECONDS_MAX} "
            f"(9999-12-31); {value!r} is not (milliseconds? divide by 1000)"
        )
    return EPOCH + timedelta(seconds=value)


TIME_SCHEMA = {
    "anyOf": [
        {"type": "string", "format": "date-time"},
        {"type": "number", "minimum": UNIX_SECONDS_MIN, "maximum": UNIX_SECONDS_MAX},
        # Numbers in quotes too (query strings, CSV-born JSON); the pattern keeps well inside the range.
        {"type": "string", "pattern": r"^-?[0-9]{1,10}(\.[0-9]{1,6})?$"},
    ],
    "description": "ISO 8601 (no offset = UTC) or Unix seconds (never milliseconds); years 1-9999 in UTC.",
}
UtcDatetime = Annotated[
    datetime, BeforeValidator(from_unix_seconds), AfterValidator(as_utc), WithJsonSchema(TIME_SCHEMA)
]
"""A pydantic field type: ISO 8601 (naive input is UTC) or Unix seconds, converted to UTC.

Years 1-9999 only, once in UTC; a number is always seconds (see ``from_unix_seconds``).
"""


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


def zone_named(name: str, field: str) -> ZoneInfo:
    """Return the IANA time zone ``name`` (Asia/Shanghai, UTC). Raises InvalidInput naming ``field``
    (for a name the zone database lacks, and for ``localtime``, which names the host's zone)."""
    if name in _zone_names():
        with suppress(ZoneInfoNotFoundError, ValueError):
            return ZoneInfo(name)
    raise InvalidInput(
        f"{name!r} is not a time zone name; use an IANA name such as Asia/Shanghai or UTC", field=field
    )


@cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones()) - {"localtime"}  # the host's zone, whatever it is
