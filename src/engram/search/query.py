"""Query understanding: turn a free-text query into search terms.

Stop words are dropped per language so that BM25 is not pulled towards turns that merely
share "what" or "did"; Han text is segmented with jieba first (engram.text.tokenize).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engram.text.tokenize import query_terms

_ENGLISH = """a an and are as at be been being but by can could did do does doing for from had has have
having he her hers him his how i if in into is it its me my of on or our she so than that the their them
then there these they this those to too us was we were what when where which who whom why will with would
you your yours"""
_CHINESE = (
    "的 了 吗 呢 吧 啊 是 在 和 与 及 或 也 都 就 还 又 什么 怎么 哪些 哪个 为什么 谁 我 你 他 她 它 们"
)
ENGLISH_STOP_WORDS = frozenset(_ENGLISH.split())
CHINESE_STOP_WORDS = frozenset(_CHINESE.split())


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query ready for the channels: its text (possibly truncated) and its BM25 terms."""

    text: str
    terms: list[str]
    warnings: list[str] = field(default_factory=list)


def parse_query(text: str, *, max_chars: int) -> ParsedQuery:
    """Return the terms of ``text``; a query longer than ``max_chars`` is truncated with a warning.

    When every word is a stop word the stop words are kept, so "who are you" still searches.
    """
    warnings: list[str] = []
    if len(text) > max_chars:
        warnings.append(f"query truncated from {len(text)} to {max_chars} characters")
        text = text[:max_chars]
    words = query_terms(text)
    content_words = [w for w in words if w not in ENGLISH_STOP_WORDS and w not in CHINESE_STOP_WORDS]
    return ParsedQuery(text=text, terms=content_words or words, warnings=warnings)
