"""Fold a name for matching, identically in Python, SQLite and PostgreSQL: NFKC, then lower case.

SQL's ``lower()`` folds ASCII only in SQLite and follows the database's locale in PostgreSQL (a
``C`` locale folds ASCII only too), so a key computed by ``lower()`` matched "Émile" with
"émile" on one backend and not on the other. The fold here is one character table —
Unicode's simple lower-case mapping, from ``unicodedata`` — used three ways: by Python
(:func:`fold`), by SQLite through a function registered on every connection
(``engram_fold``, engram.storage.sqlite.backend), and by PostgreSQL through ``translate()``
over ``normalize(…, NFKC)`` in an SQL function of the same name (:func:`postgres_function`).
The table is one character to one character (``translate`` maps no more), so it keeps
"ß" as it is and maps "İ" to "i", as Unicode's simple mapping does.
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache

SQL_FUNCTION = "engram_fold"
"""The name of the fold in SQL, on both backends."""


@cache
def lower_table() -> tuple[str, str]:
    """Return (upper, lower): every character whose lower case differs, and its simple lower case."""
    upper: list[str] = []
    lower: list[str] = []
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF:  # surrogates are not characters
            continue
        char = chr(code)
        folded = char.lower()
        if folded != char:
            upper.append(char)
            lower.append(folded[0])  # the simple mapping: only "İ" has a longer full one
    return "".join(upper), "".join(lower)


@cache
def _translation() -> dict[int, int]:
    upper, lower = lower_table()
    return {ord(u): ord(v) for u, v in zip(upper, lower, strict=True)}


def fold(text: str) -> str:
    """Return ``text`` in NFKC with every letter in simple lower case ("ＡＢＣ" → "abc", "É" → "é")."""
    return unicodedata.normalize("NFKC", text).translate(_translation())


def postgres_function() -> str:
    """Return the SQL that (re)defines ``engram_fold(text)`` in PostgreSQL with the same table."""
    upper, lower = lower_table()
    return (
        f"CREATE OR REPLACE FUNCTION {SQL_FUNCTION}(value text) RETURNS text "
        "LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE "
        f"RETURN translate(normalize(value, NFKC), $upper${upper}$upper$, $lower${lower}$lower$);"
    )
