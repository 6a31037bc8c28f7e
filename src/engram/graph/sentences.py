"""The one-sentence ``fact`` of a fact the extraction gave without one, in the episode's language.

The sentence of the episode that names the fact's subject or target is used as it is (so a
condition stays in its words: "黄磊周末在家办公", not "黄磊 works from 家"); else a sentence is
made from the names, the predicate's word in the episode's language and the conditions.
"""

from __future__ import annotations

import re

from engram.models.graph import Scalar
from engram.models.predicates import Predicate
from engram.nlp.tokenize import has_cjk

MAX_SENTENCE = 300
_SENTENCES = re.compile(r"[^。！？!?；;\n]+[。！？!?；;]?")


def fact_sentence(
    content: str,
    subject: str,
    predicate: Predicate,
    target: str | Scalar | None,
    conditions: dict[str, Scalar],
) -> str:
    """Return the sentence of ``content`` that states the fact, or one made in its language."""
    names = [n for n in (subject, None if target is None else str(target)) if n]
    for found in _SENTENCES.findall(content):
        sentence = str(found).strip()
        if sentence and len(sentence) <= MAX_SENTENCE and any(n in sentence for n in names):
            return sentence
    when = " ".join(str(v) for v in conditions.values())
    shown = "" if target is None else str(target)
    if has_cjk(content):
        word: str = next(
            (s for s in predicate.synonyms if has_cjk(s) and "…" not in s),
            predicate.name.lower().replace("_", " "),
        )
        return f"{subject}{when}{word}{shown}"
    words = predicate.name.lower().replace("_", " ")
    return " ".join(part for part in (subject, words, shown, f"({when})" if when else "") if part)
