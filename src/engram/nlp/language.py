"""Script-based language detection for queries: enough to pick segmentation and stop words.

A query is classified by the Unicode scripts of its letters (Han, Kana, Hangul, Latin);
a statistical detector would need a model and still guess on three-word queries.
"""

from __future__ import annotations

import re

_SCRIPTS = {
    "zh": re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"),
    "ja": re.compile(r"[\u3040-\u30ff]"),
    "ko": re.compile(r"[\uac00-\ud7af\u1100-\u11ff]"),
    "latin": re.compile(r"[A-Za-z\u00c0-\u024f]+"),
}


def detect_language(text: str) -> str:
    """Return ``zh``, ``ja``, ``ko``, ``en`` (any Latin script), ``mixed`` or ``unknown``.

    Kana anywhere means Japanese (Japanese mixes kana with Han). Han characters and Hangul
    syllables count one each, Latin text one per word (a Han character carries about a
    word); a second script with at least a third of the count makes the query ``mixed``.
    """
    counts = {name: len(pattern.findall(text)) for name, pattern in _SCRIPTS.items()}
    if counts["ja"]:
        return "ja"
    total = sum(counts.values())
    if total == 0:
        return "unknown"
    ranked = sorted(((n, name) for name, n in counts.items() if n), reverse=True)
    if len(ranked) > 1 and ranked[1][0] * 3 >= total:
        return "mixed"
    top = ranked[0][1]
    return "en" if top == "latin" else top
