"""Name the field a pydantic validation error is about, as a caller wrote it, and say what is wrong."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engram.models.json_values import BEYOND_LIMIT, NUMBER_LIMIT

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


_EXPECTED = {
    "string_type": "a string",
    "bool_type": "a boolean",
    "int_type": "an integer",
    "float_type": "a number",
    "list_type": "a list",
    "dict_type": "an object",
    "none_required": "null",
}
"""What each branch of a union wanted, for a value no branch took."""


def explain(errors: Iterable[Mapping[str, Any]], default: str = "body") -> list[tuple[str, str]]:
    """Return one (field, message) per value pydantic ``errors`` refuse, in their order.

    A value that fails every branch of a union (a metadata value is a string, a boolean, a
    number, a list, an object or null) gets one error a branch, the first of which would say
    "Input should be a valid string" of a number out of range. The errors of one union (one
    location before its branch label) make one entry: the branch that objects to the value
    itself (not finite, out of range, too long), else the types the branches wanted. A union
    whose list or object branch took the value and failed inside it says nothing itself: the
    value inside does, at its own field ("metadata.stats.score: … finite number").
    """
    unions: dict[tuple[str, ...], list[Mapping[str, Any]]] = {}
    for error in errors:
        unions.setdefault(_anchor(error["loc"]), []).append(error)
    out = []
    for anchor, found in unions.items():
        if any(other[: len(anchor)] == anchor and len(other) > len(anchor) for other in unions):
            continue  # a container branch took the value: what failed inside it speaks
        objections = [e for e in found if str(e["type"]) not in _EXPECTED and "parsing" not in str(e["type"])]
        wanted = [w for w in dict.fromkeys(_EXPECTED.get(str(e["type"])) for e in found) if w is not None]
        if len(found) == 1 or objections or not wanted:
            chosen = (objections or found)[0]
            field, message = field_path(chosen["loc"], default), _said(chosen)
        else:
            if "a number" in wanted and "an integer" in wanted:
                wanted.remove("an integer")
            field = field_path(anchor, default)
            message = "must be " + (
                ", ".join(wanted[:-1]) + " or " + wanted[-1] if len(wanted) > 1 else wanted[0]
            )
        out.append((field, message.removeprefix("Value error, ")))
    return out


def listing(problems: Sequence[tuple[str, str]], shown: int = 3) -> str:
    """Return ``explain``'s first ``shown`` problems as "field: message; …; and N more"."""
    listed = "; ".join(f"{field}: {message}" for field, message in problems[:shown])
    return listed + (f"; and {len(problems) - shown} more" if len(problems) > shown else "")


def _said(error: Mapping[str, Any]) -> str:
    """Return the error's message; a number past the stored range is said as the JSON reader says it."""
    ctx = error.get("ctx", {})
    limit = ctx.get("le", ctx.get("ge"))
    if error["type"] in ("less_than_equal", "greater_than_equal") and limit in (NUMBER_LIMIT, -NUMBER_LIMIT):
        return f"{error['input']:g} {BEYOND_LIMIT}"
    return str(error["msg"])


def _anchor(loc: Sequence[int | str]) -> tuple[str, ...]:
    """Return ``loc`` up to its last union-branch label: where the refused value is."""
    parts = [str(part) for part in loc]
    labels = [i for i, part in enumerate(parts) if _INTERNAL.match(part)]
    return tuple(parts[: labels[-1]]) if labels else tuple(parts)
