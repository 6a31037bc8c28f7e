"""JSON values Engram takes in: what JSON says, as JSON says it, and what both stores hold exactly.

Numbers lie within ±9×10¹⁸, inside the signed 64-bit integer range (SQLite's INTEGER,
PostgreSQL's bigint) and exactly a float too, so integer and float bounds agree; floats are
finite. A larger number is refused (422) rather than rounded or stored as null. Scalars are
not coerced from other JSON types: ``"10"`` is no integer, ``0`` no boolean, ``false`` no
number. The schemas say all this, so clients generated from the OpenAPI stay within it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, StringConstraints
from typing_extensions import TypeAliasType

MAX_METADATA_DEPTH = 32
"""Deeper metadata is refused: JSON encoders and SQLite's JSON functions stop near 256-1000 levels."""

NOT_BLANK = r"[^\s\u001c-\u001f\u0085]"
r"""Holds a character other than white space (input strings are stripped before their length counts).

Python's ``str.strip`` (which pydantic strips inputs with) also removes U+001C-U+001F and U+0085,
which JSON Schema's ``\S`` (ECMAScript) accepts: the pattern names them so schema and server agree."""


def nesting_depth(value: Any) -> int:
    """Return how deeply ``value`` nests (a scalar is 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if level > MAX_METADATA_DEPTH:
            break
        if isinstance(item, Mapping):
            stack.extend((child, level + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, level + 1) for child in item)
    return deepest


def has_nul(value: Any) -> bool:
    """True when a string in ``value`` (a key or a value, at any depth) holds a NUL character:
    PostgreSQL's text and JSON refuse NUL. The check every write makes; ``nul_path`` says where."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(has_nul(v) for v in value)
    return False


def nul_path(value: Any) -> str | None:
    """Return the dotted path of the first string (a key or a value, at any depth) holding a NUL
    character, "" for ``value`` itself, or None (slower than ``has_nul``: for the message)."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return path
        elif isinstance(item, Mapping):
            for key, child in item.items():
                where = f"{path}.{key}" if path else str(key)
                if isinstance(key, str) and "\x00" in key:
                    return where
                stack.append((child, where))
        elif isinstance(item, list | tuple):
            stack.extend((child, f"{path}.{i}" if path else str(i)) for i, child in enumerate(item))
    return None


def _shallow(value: Any) -> Any:
    """Refuse a value nested deeper than MAX_METADATA_DEPTH before validating it level by level."""
    if nesting_depth(value) > MAX_METADATA_DEPTH:
        raise ValueError(f"nests deeper than {MAX_METADATA_DEPTH} levels")
    return value


NUMBER_LIMIT = 9 * 10**18
"""Largest magnitude of a number stored: below 2**63, and a float exactly."""
BEYOND_LIMIT = "is beyond ±9e18, the largest number stored"
"""What is said of a number past NUMBER_LIMIT, an integer or a float, wherever it is refused."""


def _not_text_or_flag(value: Any) -> Any:
    """Refuse a string or boolean where JSON must hold a number (pydantic would convert them)."""
    if isinstance(value, str | bool):
        raise ValueError("must be a JSON number")
    return value


NUMBER_ONLY = BeforeValidator(_not_text_or_flag)
"""Put last in an ``Annotated[int, Field(...), NUMBER_ONLY]``: a JSON integer, not "10" or true."""
Int64 = Annotated[int, Field(ge=-NUMBER_LIMIT, le=NUMBER_LIMIT), NUMBER_ONLY]
Float64 = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-NUMBER_LIMIT, le=NUMBER_LIMIT)]
Flag = Annotated[bool, Field(strict=True)]
"""A JSON boolean: true or false, never 0, 1 or "yes"."""
Scalar = str | bool | Int64 | Float64
"""A string, a boolean or a number within ±9e18 (never null)."""
Text = Annotated[str, StringConstraints(strip_whitespace=False)]
"""A string kept as sent, even inside a model that strips its own fields' white space."""
JSONValue = TypeAliasType(
    "JSONValue", "Text | bool | Int64 | Float64 | list[JSONValue] | dict[str, JSONValue] | None"
)
"""Any JSON value whose numbers are within ±9e18."""
SHALLOW = BeforeValidator(_shallow)
"""Put last in an ``Annotated[dict[str, JSONValue], Field(...), SHALLOW]`` to bound its nesting."""
JSONObject = Annotated[dict[str, JSONValue], SHALLOW]
"""A JSON object nested at most MAX_METADATA_DEPTH levels (metadata, content)."""
