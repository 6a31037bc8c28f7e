"""Query understanding: turn a free-text query into search terms.

Stop words are dropped per language so that BM25 is not pulled towards turns that merely
share "what" or "did"; Han text is segmented with jieba first (engram.nlp.tokenize).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from engram.nlp.language import detect_language
from engram.nlp.timeexpr import find_time_range
from engram.nlp.tokenize import query_terms

_ENGLISH = """a an and are as at be been being but by can could did do does doing for from had has have
having he her hers him his how i if in into is it its me my of on or our she so than that the their them
then there these they this those to too us was we were what when where which who whom why will with would
you your yours"""
_CHINESE = (
    "的 了 吗 呢 吧 啊 是 在 和 与 及 或 也 都 就 还 又 什么 怎么 哪些 哪个 为什么 谁 我 你 他 她 它 们"
)
MAX_QUERY_TERMS = 64
"""Most distinct content words a query searches for; each is a full-text term (and cost) in SQL."""
ENGLISH_STOP_WORDS = frozenset(_ENGLISH.split())
CHINESE_STOP_WORDS = frozenset(_CHINESE.split())


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query ready for the channels.

    ``words`` are the query's own content words; ``terms`` add their synonyms (for BM25).
    ``time_range`` is the [start, end) UTC range a time expression in the query names, if
    any, and ``time_expression`` that expression as written ("last week", "上周二").
    """

    text: str
    words: list[str]
    terms: list[str]
    warnings: list[str] = field(default_factory=list)
    time_range: tuple[datetime, datetime] | None = None
    time_expression: str | None = None
    language: str = "unknown"


def expand_synonyms(words: Sequence[str], groups: Iterable[Sequence[str]]) -> list[str]:
    """Return ``words`` followed by every synonym of theirs from ``groups``, without repeats."""
    expanded = dict.fromkeys(words)
    for group in groups:
        lowered = [w.lower() for w in group]
        if any(word in expanded for word in lowered):
            expanded.update(dict.fromkeys(lowered))
    return list(expanded)


def parse_query(
    text: str,
    *,
    max_chars: int,
    synonyms: Iterable[Sequence[str]] = (),
    reference_time: datetime | None = None,
) -> ParsedQuery:
    """Return the words, terms and time range of ``text``.

    A query longer than ``max_chars`` is truncated with a warning, and only its first
    ``MAX_QUERY_TERMS`` distinct content words are searched (with a warning). When every word is a
    stop word the stop words are kept, so "who are you" still searches. With a
    ``reference_time``, the first time expression ("last week", "去年三月") becomes
    ``time_range`` (engram.nlp.timeexpr). Its words stay in ``words``: they also bring BM25
    candidates for the time boost to promote (taking them out lost recall: docs/decisions.md §6).
    """
    warnings: list[str] = []
    if len(text) > max_chars:
        warnings.append(f"query truncated from {len(text)} to {max_chars} characters")
        text = text[:max_chars]
    found = None
    if reference_time is not None:
        try:
            found = find_time_range(text, reference_time)
        except (OverflowError, ValueError):  # "next year" at 9999-12-31: no such range
            found = None
    words = query_terms(text)
    content_words = [w for w in words if w not in ENGLISH_STOP_WORDS and w not in CHINESE_STOP_WORDS] or words
    if len(content_words) > MAX_QUERY_TERMS:
        warnings.append(
            f"query has {len(content_words)} distinct words; the first {MAX_QUERY_TERMS} are searched"
        )
        content_words = content_words[:MAX_QUERY_TERMS]
    return ParsedQuery(
        text=text,
        words=content_words,
        terms=expand_synonyms(content_words, synonyms),
        warnings=warnings,
        time_range=None if found is None else (found.start, found.end),
        time_expression=None if found is None else found.text,
        language=detect_language(text),
    )
