"""The builtin extractor's pattern library, indexed by trigger word for speed.

``PATTERNS`` are the English (``engram.ingest.patterns_en``) and Chinese
(``engram.ingest.patterns_zh``) tables; a :class:`PatternIndex` finds the patterns whose
trigger words a sentence contains in one pass, so a sentence runs only the few patterns that
can match it (most conversational turns run none or one or two).
What a predicate means, and what negation turns it into, is in the registry
(``engram.models.predicates``).
"""

from __future__ import annotations

from collections.abc import Iterable

import ahocorasick

from engram.ingest.clauses import Lang
from engram.ingest.frames import EN_ROLE, ZH_ROLE, Pattern, pattern
from engram.ingest.patterns_en import EN_PATTERNS
from engram.ingest.patterns_zh import ZH_PATTERNS

__all__ = ["EN_ROLE", "PATTERNS", "ZH_ROLE", "Pattern", "PatternIndex", "pattern"]

PATTERNS: tuple[Pattern, ...] = EN_PATTERNS + ZH_PATTERNS


class PatternIndex:
    """The patterns of one language, found by the trigger words a text contains.

    The trigger words are one Aho–Corasick automaton (pyahocorasick; Aho and Corasick, "Efficient
    string matching", CACM 1975): one pass over a text finds every trigger word in it.
    """

    def __init__(self, patterns: Iterable[Pattern]) -> None:
        self._patterns = list(patterns)
        self._always = [i for i, p in enumerate(self._patterns) if not p.trigger]
        by_word: dict[str, list[int]] = {}
        for position, item in enumerate(self._patterns):
            for word in item.trigger:
                by_word.setdefault(word, []).append(position)
        self._words = ahocorasick.Automaton()
        for word, positions in by_word.items():
            self._words.add_word(word, tuple(positions))
        self._words.make_automaton()

    def candidates(self, lowered: str) -> list[Pattern]:
        """Return the patterns a lower-cased text may match (it holds a trigger word), in table order."""
        chosen = set(self._always)
        if len(self._words):  # an automaton without words cannot be searched
            for _, positions in self._words.iter(lowered):
                chosen.update(positions)
        return [self._patterns[i] for i in sorted(chosen)]


def index(patterns: Iterable[Pattern], lang: Lang) -> PatternIndex:
    """Return the index of the patterns of ``lang``."""
    return PatternIndex(p for p in patterns if p.lang == lang)
