"""Read one clause of a sentence: its scope (conditions), its object phrase, negation and tense.

Helpers for the builtin extractor's patterns (``engram.ingest.patterns``): ``find_conditions``
("on weekends" → ``{"when": "weekends"}``), ``trim_object`` (cut an object phrase before
trailing clauses and particles), ``negation`` ("no longer / 不再" → stop, "not / 不" → not)
and ``is_past`` (了/过/昨天, "last week").
"""

from __future__ import annotations

import re
from typing import Literal

Lang = Literal["en", "zh"]

_CONDITIONS: tuple[tuple[re.Pattern[str], str | None], ...] = tuple(
    (re.compile(rx, re.I), canonical)
    for rx, canonical in (
        (r"\b(?:on|at|over|during) (?:the )?weekends?\b|\bweekends\b", "weekends"),
        (r"\b(?:on )?weekdays\b|\bduring the week\b", "weekdays"),
        (r"\bin the mornings?\b|\bmornings\b", "mornings"),
        (r"\bin the evenings?\b|\bat night\b|\bevenings\b", "evenings"),
        (r"\bin (?:the )?summer\b", "summer"),
        (r"\bin (?:the )?winter\b", "winter"),
        (r"\bwhen (?:I'm |I am )?travel(?:l)?ing\b|\bon business trips?\b", "travelling"),
        (r"\bat work\b", "at work"),
        (r"\bat home\b", "at home"),
        (r"\bon (mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\b", None),
        (
            r"周末|工作日|平时|早上|早晨|晚上|夏天|冬天|上班的?时候|出差的?时候|在家的?时候|在家里?|在公司",
            None,
        ),
    )
)


def find_conditions(clause: str) -> dict[str, str]:
    """Return the scope a clause puts on its fact: ``{"when": "weekends"}``, ``{"when": "周末"}``, or {}."""
    for regex, canonical in _CONDITIONS:
        match = regex.search(clause)
        if match:
            found = canonical or (match.group(1) if match.groups() else match.group())
            return {"when": found.lower() if canonical is None and found.isascii() else found}
    return {}


_EN_CUT = re.compile(
    r"\s[-–—]\s.*$|\s(?:and|but|because|so|since|with|when|while|where|which|who|for|on|at|in|to|from|now|"
    r"right now|"
    r"these days|anymore|any more|too|as well|lately|recently|every|next|last|this|tomorrow|yesterday|"
    r"today|instead|though|or|than|if|after|before|during|by)\b.*$",
    re.I,
)
_ZH_CUT = re.compile(r"(?:周末|工作日|平时|早上|晚上|现在|最近|一直|还是|已经|的时候|时).*$")
_NON_OBJECT = re.compile(
    r"(?:every|each|all|so|very|too|a lot|lots|much|more|it|that|this|them|you|doing|being|having|getting|"
    r"what|how|when|there|here|for|to|with|of|about|in|on|at|out|up|and|but|or|as|because|was|is|are|"
    r"were|be|been|makes|made|means|"
    r"yesterday|today|tomorrow|last|next|recently|lately|a few|a couple|I|we)\b",
    re.I,
)
_PRONOUNS = {"it", "that", "this", "them", "these", "those", "you", "him", "her", "me", "us", "one",
             "it all", "everything", "something", "anything", "what", "doing", "you too", "它", "他", "她",
             "这个", "那个", "这些", "那些", "你", "你们", "他们"}  # fmt: skip


def trim_object(text: str, lang: Lang) -> str:
    """Return an object phrase cut before trailing clauses and particles; "" when it is only a pronoun."""
    text = text.strip(" \t'\"“”‘’")
    if lang == "en":
        text = _EN_CUT.sub("", text).strip(" -'\"")
        text = re.sub(r"^(?:the|my|our|a|an|some)\s+(?=[A-Z])", "", text)
    else:
        text = _ZH_CUT.sub("", text)
        text = re.sub(r"^(?:了|的|一个|一家|一只|个)", "", text)
        text = re.sub(r"(?:了|的|呢|吧|啊|哦|呀|嘛|啦)+$", "", text)
    return "" if text.lower() in _PRONOUNS or _NON_OBJECT.match(text) else text


# ── negation and tense ──────────────────────────────────────────────────────────────────

_EN_STOP = re.compile(r"\b(?:no longer|used to|stopped|quit)\b", re.I)
_EN_STOP_AFTER = re.compile(r"^[^,.;!?]*\b(?:anymore|any more|no more)\b", re.I)
_EN_NOT = re.compile(
    r"\b(?:not|never|don't|doesn't|didn't|do not|does not|won't|can't)\s(?:\w+\s){0,2}$", re.I
)
_ZH_STOP_RX = re.compile(r"(?:不再|已经不|再也不|没再)[^，。；]{0,3}$")
_ZH_NOT = re.compile(r"(?:不|没有?|别)[^，。；]{0,3}$")
_ZH_STOP_AFTER = re.compile(r"^[^，。；！？]{0,12}?了")
_EN_PAST = re.compile(
    r"\b(?:last (?:week|month|year|summer|weekend|\w+day)|yesterday|ago|went|visited|was|were)\b", re.I
)
_ZH_PAST = re.compile(r"了|过|昨天|上周|上个月|去年|之前|已经|前天|上次")


def negation(before: str, after: str, lang: Lang) -> Literal["stop", "not"] | None:
    """Return "stop" (no longer / 不再 / 不…了), "not" (plain negation) or None for a cue's clause.

    ``before`` is the clause text left of the object (cue included), ``after`` the object and the
    rest of the sentence.
    """
    if lang == "en":
        if _EN_STOP.search(before[-30:]) or (_EN_NOT.search(before) and _EN_STOP_AFTER.search(after)):
            return "stop"
        return "not" if _EN_NOT.search(before) else None
    if _ZH_STOP_RX.search(before):
        return "stop"
    if _ZH_NOT.search(before):
        return "stop" if _ZH_STOP_AFTER.search(after) else "not"
    return None


def is_past(clause: str, lang: Lang) -> bool:
    """Return True when a clause is marked as past (了/过/昨天, "last week", "went")."""
    return bool((_EN_PAST if lang == "en" else _ZH_PAST).search(clause))
