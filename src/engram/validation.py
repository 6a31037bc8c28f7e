"""Name the field a pydantic validation error is about, as a caller wrote it."""

from __future__ import annotations

import re
from collections.abc import Sequence

_INTERNAL = re.compile(r"^(str|int|float|bool|none|constrained-\w+|function-\w+|[a-z][a-z-]*\[.*\]|\[key\])$")
_WHERE = {"body", "query", "path", "header"}


def field_path(loc: Sequence[int | str], default: str = "body") -> str:
    """Return a dotted path such as ``filters.intent.0`` from a pydantic/FastAPI error location.

    Drops FastAPI's ``body``/``query`` prefix and pydantic's union-branch labels (``str``,
    ``constrained-str``, ``function-before[…]``, ``list[…]``, ``[key]``), which name types,
    not fields.
    """
    parts = [str(part) for part in loc]
    if parts and parts[0] in _WHERE:
        parts = parts[1:]
    parts = [part for part in parts if not _INTERNAL.match(part)]
    return ".".join(parts) or default
