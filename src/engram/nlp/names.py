"""Name keys: how entity names and aliases are compared, in every language."""

from __future__ import annotations

import re
import unicodedata


def normalise_name(name: str) -> str:
    """Return a comparison key: NFKC, case-folded, spaces and punctuation collapsed."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return re.sub(r"[\s\W_]+", " ", text).strip()
