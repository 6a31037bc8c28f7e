"""Name the field a pydantic validation error is about, as a caller wrote it, and say what is wrong."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

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
    "bool_type": "true or false",
    "int_type": "an integer",
    "float_type": "a number",
    "list_type": "a list",
    "dict_type": "an object",
    "none_required": "null",
}
"""What each branch of a union wanted, for a value no branch took."""


def explain(errors: Iterable[Mapping[str, Any]], default: str = "body") -> list[tuple[str, str]]:
    """Return one (field, message) per field of pydantic ``errors``, in their order.

    A value that fails every branch of a union (a metadata value is a string, a boolean, a
    number, a list, an object or null) gets one error a branch, the first of which would say
    "Input should be a valid string" of a number out of range. The message is the branch that
    objects to the value itself (not finite, out of range, too long), else the types wanted.
    """
    by_field: dict[str, list[Mapping[str, Any]]] = {}
    for error in errors:
        by_field.setdefault(field_path(error["loc"], default), []).append(error)
    out = []
    for field, found in by_field.items():
        wanted = [_EXPECTED.get(str(e["type"])) for e in found]
        objections = [
            e for e, want in zip(found, wanted, strict=True) if want is None and "parsing" not in e["type"]
        ]
        if len(found) == 1 or objections:
            message = str((objections or found)[0]["msg"])
        else:
            names = [w for w in dict.fromkeys(wanted) if w is not None]
            if "a number" in names and "an integer" in names:
                names.remove("an integer")
            message = "must be " + (
                ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
            )
        out.append((field, message.removeprefix("Value error, ")))
    return out
