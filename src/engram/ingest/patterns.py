"""The builtin extractor's pattern library, indexed by trigger word for speed.

``PATTERNS`` are the English (``engram.ingest.patterns_en``) and Chinese
(``engram.ingest.patterns_zh``) tables; a :class:`PatternIndex` finds the patterns whose
trigger words a sentence contains with one regular-expression scan, so a sentence runs only
the few patterns that can match it (most conversational turns run none or one or two).
What a predicate means, and what negation turns it into, is in the registry
(``engram.models.predicates``).
"""

from __future__ import annotations

from collections.abc import Iterable

from engram.ingest.clauses import Lang
from engram.ingest.frames import EN_ROLE, ZH_ROLE, Pattern, pattern
from engram.ingest.patterns_en import EN_PATTERNS
from engram.ingest.patterns_zh import ZH_PATTERNS

__all__ = ["EN_ROLE", "PATTERNS", "ZH_ROLE", "Pattern", "PatternIndex", "pattern"]

PATTERNS: tuple[Pattern, ...] = EN_PATTERNS + ZH_PATTERNS


class PatternIndex:
    """The patterns of one language, found by the trigger words a text contains."""

    def __init__(self, patterns: Iterable[Pattern]) -> None:
        self._patterns = list(patterns)
        self._always = [i for i, p in enumerate(self._patterns) if not p.trigger]
        self._by_word: dict[str, list[int]] = {}
        for position, item in enumerate(self._patterns):
            for word in item.trigger:
                self._by_word.setdefault(word, []).append(position)
        self._by_start: dict[str, list[str]] = {}
        for word in self._by_word:
            if len(word) > 1:
                self._by_start.setdefault(word[:2], []).append(word)
        self._single = [word for word in self._by_word if len(word) == 1]

    def candidates(self, lowered: str) -> list[Pattern]:
        """Return the patterns a lower-cased text may match, in table order.

        Trigger words are bucketed by their first two characters; only the buckets whose
        two characters occur in the text are tested (a substring test per word).
        """
        chosen = set(self._always)
        for word in self._single:
            if word in lowered:
                chosen.update(self._by_word[word])
        pairs = {lowered[i : i + 2] for i in range(len(lowered) - 1)}
        for start in pairs & self._by_start.keys():
            for word in self._by_start[start]:
                if word in lowered:
                    chosen.update(self._by_word[word])
        return [self._patterns[i] for i in sorted(chosen)]


def index(patterns: Iterable[Pattern], lang: Lang) -> PatternIndex:
    """Return the index of the patterns of ``lang``."""
    return PatternIndex(p for p in patterns if p.lang == lang)
