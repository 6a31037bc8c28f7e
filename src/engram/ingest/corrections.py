"""A statement corrected later in its own message: the corrected reading replaces it.

"报名截止1月10日——哦不对，截止改为1月15日", 客户预算80万。不对，是65万, 报价更正：…之前报的是8万，
漏算了培训，应该是9.6万, "The budget is $80k. Sorry, correction: it's $65k", "My sister lives in Boston.
Actually, she lives in Cambridge now": a
correction cue after a fact says the fact was wrong. When a later fact of the same subject and
predicate follows the cue, the earlier one goes; when only an amount follows it (不对，是65万), the
nearest earlier fact holding an amount takes it. A plain correction (不对, 说错了, 更正, "no wait",
"correction", "I mean") takes back any predicate; "actually" and 其实是, which also just stress, only
a one-valued one (where the home is, not what one likes). Facts are ordered by where their sentence
starts, then as they were read (each pattern reads left to right).
"""

from __future__ import annotations

import re
from itertools import combinations

from engram.ingest.reading import Message
from engram.models.predicates import REGISTRY
from engram.nlp.amounts import AMOUNT, parse_amount

_CORRECTION = re.compile(
    r"(?:哦|啊)?不对(?:不对)?|说错了|更正|纠正一下|\bno wait\b|\bcorrection\b|\bI mean\b|"
    r"(?P<weak>其实是|\bactually\b)",
    re.I,
)
_MISTAKE = re.compile(r"更正|报错|漏算|算错|写错|说错|搞错|\b(?:typo|miscalculated)\b", re.I)
_SHOULD_BE = re.compile(r"(?<=[，,；;])\s*(?:应该是|应为|正确的?是|实际是)(?P<weak>(?!))?")
"""After a mistake owned (报价更正：…之前报的是8万，漏算了培训，应该是9.6万): what it should be corrects."""
_NEW_AMOUNT = re.compile(
    rf"[\s，,：:—-]*(?:(?:it'?s|it is|is|是|应该是|改为|改成)\s*)?(?P<amount>{AMOUNT})(?![\w%％])", re.I
)
"""What follows a cue that only restates a value (不对，是65万; "correction: it's $65k")."""

Key = tuple[object, ...]


def apply_corrections(text: str, message: Message) -> None:
    """Drop or amend in ``message`` the facts of ``text`` that a later correction takes back."""
    cues = list(_CORRECTION.finditer(text))
    if cues and _MISTAKE.search(text):
        cues += _SHOULD_BE.finditer(text)
    if not cues:
        return
    keys = list(message.facts)
    spans = {key: _sentence_span(text, message.facts[key].fact) for key in keys}
    order = sorted(keys, key=lambda key: spans[key][0])  # stable: ties keep the order they were read
    taken_back: set[Key] = set()
    for first, later in combinations(order, 2):
        old, new = message.facts[first], message.facts[later]
        if (old.subject, old.predicate) != (new.subject, new.predicate) or first in taken_back:
            continue
        between = [c for c in cues if spans[first][0] <= c.start() < spans[later][1]]
        registered = REGISTRY.get(old.predicate)
        one_valued = registered is not None and registered.cardinality == "one"
        if any(not c["weak"] or one_valued for c in between):
            taken_back.add(first)
    for key in taken_back:
        del message.facts[key]
    for cue in cues:
        if not cue["weak"]:
            before = [key for key in order if key in message.facts and spans[key][0] < cue.start()]
            _restate_amount(text, cue.end(), before, message)


def _sentence_span(text: str, sentence: str | None) -> tuple[int, int]:
    start = text.find(sentence) if sentence else -1
    return (start, start + len(sentence or "")) if start >= 0 else (0, len(text))


def _restate_amount(text: str, end: int, before: list[Key], message: Message) -> None:
    """Give the nearest earlier fact holding an amount the amount said right after a cue ending at ``end``."""
    restated = _NEW_AMOUNT.match(text, end)
    value = parse_amount(restated["amount"]) if restated else None
    amounts = [key for key in before if isinstance(message.facts[key].value, int | float)]
    if value is None or not amounts or message.facts[amounts[-1]].value == value:
        return
    old = message.facts.pop(amounts[-1])
    message.add_fact(old.model_copy(update={"value": value}))
