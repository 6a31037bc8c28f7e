"""Text segmentation for full-text search in Chinese, Japanese, Korean and space-delimited languages.

FTS5's ``unicode61`` tokenizer splits on spaces and punctuation, which leaves a Chinese
sentence as one long token. Runs of Han characters are therefore segmented with jieba
(https://github.com/fxsjy/jieba) before indexing and querying; everything else passes
through for FTS5 to tokenise. jieba's search mode gives words plus their dictionary
sub-words (like Elasticsearch's ik_max_word), on both sides: a query for 订单 finds 订单号,
and a query for 订单号 also finds a text that only says 订单 (ranked lower by BM25).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator
from functools import cache, lru_cache
from typing import Any

_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"\w+", re.UNICODE)
_lock = threading.Lock()


@lru_cache(maxsize=64)
def tag_words(text: str) -> tuple[tuple[str, str], ...]:
    """Return jieba's (word, part-of-speech flag) pairs of ``text`` (cached: several readers use them)."""
    jieba_module()
    import jieba.posseg

    return tuple((w, f) for w, f in jieba.posseg.cut(text))


@cache
def jieba_module() -> Any:
    """Return jieba, imported and initialised once (its dictionary takes about a second); thread-safe."""
    with _lock:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()
        return jieba


def has_cjk(text: str) -> bool:
    """Return True when ``text`` holds at least one Han character."""
    return _HAN_RUN.search(text) is not None


def _han_tokens(run: str) -> Iterator[str]:
    for word in jieba_module().cut_for_search(run):
        if word.strip():
            yield word


def segment(text: str) -> str:
    """Return ``text`` with every Han run split into space-separated words.

    Non-Han text is returned unchanged, so an English-only string costs one regex scan.
    """
    if not has_cjk(text):
        return text
    parts: list[str] = []
    position = 0
    for match in _HAN_RUN.finditer(text):
        parts.append(text[position : match.start()])
        parts.append(" " + " ".join(_han_tokens(match.group())) + " ")
        position = match.end()
    parts.append(text[position:])
    return "".join(parts)


def query_terms(text: str) -> list[str]:
    """Return the distinct lower-cased words of a query, Han runs segmented, in order."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(segment(text)):
        seen.setdefault(word.lower(), None)
    return list(seen)
