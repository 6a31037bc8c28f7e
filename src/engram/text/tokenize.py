"""Text segmentation for full-text search in Chinese, Japanese, Korean and space-delimited languages.

FTS5's ``unicode61`` tokenizer splits on spaces and punctuation, which leaves a Chinese
sentence as one long token. Runs of Han characters are therefore segmented with jieba
(https://github.com/fxsjy/jieba) before indexing and querying; everything else passes
through for FTS5 to tokenise. Index time uses jieba's search mode (words plus their
dictionary sub-words, like ik_max_word), query time its precise mode (like ik_smart), so
a query word such as 订单 matches 订单号 as well.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator
from functools import cache
from typing import Any

_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"\w+", re.UNICODE)
_lock = threading.Lock()


@cache
def _jieba() -> Any:
    """Import and initialise jieba once (its dictionary takes about a second to load)."""
    with _lock:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()
        return jieba


def has_cjk(text: str) -> bool:
    """Return True when ``text`` holds at least one Han character."""
    return _HAN_RUN.search(text) is not None


def _han_tokens(run: str, *, for_index: bool) -> Iterator[str]:
    jieba = _jieba()
    words = jieba.cut_for_search(run) if for_index else jieba.cut(run)
    for word in words:
        if word.strip():
            yield word


def segment(text: str, *, for_index: bool = True) -> str:
    """Return ``text`` with every Han run split into space-separated words.

    Non-Han text is returned unchanged, so an English-only string costs one regex scan.
    """
    if not has_cjk(text):
        return text
    parts: list[str] = []
    position = 0
    for match in _HAN_RUN.finditer(text):
        parts.append(text[position : match.start()])
        parts.append(" " + " ".join(_han_tokens(match.group(), for_index=for_index)) + " ")
        position = match.end()
    parts.append(text[position:])
    return "".join(parts)


def query_terms(text: str) -> list[str]:
    """Return the distinct lower-cased words of a query, Han runs segmented, in order."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(segment(text, for_index=False)):
        seen.setdefault(word.lower(), None)
    return list(seen)
