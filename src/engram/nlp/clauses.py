"""Split a sentence into clauses, and find the clause a date phrase speaks for.

``clause_bounds`` cuts at commas, semicolons, colons and dashes, before the conjunctions that
open a new clause (but, because, so, which, 但是, 因为, 所以, 然后…) and before "and" when
a new subject follows ("…, and I moved"); ``date_bounds`` also cuts after a speech verb (说,
says). ``frame_clause`` returns a sentence's leading clause
when it holds nothing but a time adverbial ("Last year, I …", "去年，我…"): a date said there
frames the whole sentence, while a date inside any other clause belongs to that clause only.
"""

from __future__ import annotations

import re
from typing import Literal

Lang = Literal["en", "zh"]

_EN_CLAUSE = re.compile(
    r"\s*[,;:]\s*|\s+[-–—]\s+|\s+(?:but|because|so|although|though|while|whereas|which|since|'cause)\s+"
    r"|\s+and\s+(?=(?:I|I'm|I've|we|we're|he|she|they|it|my|our|his|her|their|then|now|also)\b)"
)
_ZH_CLAUSE = re.compile(r"[，,；;：:｜|]|但是|不过|因为|所以|而且|然后")
_FRAME_FILLER = re.compile(
    r"\b(?:back|in|on|at|during|since|from|starting|as of|so|and|then|well|oh|yeah|just|only|around|about|"
    r"early|late|the|of|this|that|last|next|ago|starting|beginning|effective|until|till|"
    r"probably|maybe|likely|hopefully|possibly|roughly|sometime)\b"
    r"|[起从自在的时候开始以来后前]",
    re.I,
)


def clause_at(clauses: list[tuple[int, int]], position: int) -> int:
    """Return the index in ``clauses`` (``clause_bounds``) of the clause ``position`` is in; a
    position on the cut between two clauses (the comma of "Maria, the head of sales") belongs to
    the one before."""
    return max((i for i, (start, _) in enumerate(clauses) if start <= position), default=0)


def clause_bounds(sentence: str, lang: Lang) -> list[tuple[int, int]]:
    """Return the ``(start, end)`` offsets of the clauses of ``sentence``, in order, none empty."""
    regex = _EN_CLAUSE if lang == "en" else _ZH_CLAUSE
    bounds: list[tuple[int, int]] = []
    start = 0
    for match in regex.finditer(sentence):
        if match.start() > start:
            bounds.append((start, match.start()))
        start = match.end()
    if start < len(sentence):
        bounds.append((start, len(sentence)))
    return _join_appositions(sentence, bounds) if lang == "en" else bounds or [(0, len(sentence))]


_APPOSITION = re.compile(r"(?:our|my|the|a|an|his|her|their)\s(?:[\w'-]+\s){0,3}[\w'-]+", re.I)
_NAME_END = re.compile(r"(?-i:[A-Z][\w'-]*)$")


def _join_appositions(sentence: str, bounds: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Return ``bounds`` with "Hank, our CTO, prefers Postgres" kept one clause: a short noun phrase
    between commas right after a name says who the name is, it opens no clause."""
    out: list[tuple[int, int]] = []
    index = 0
    while index < len(bounds):
        start, end = bounds[index]
        if (
            out
            and index + 1 < len(bounds)
            and _APPOSITION.fullmatch(sentence, start, end)
            and sentence[out[-1][1] : start].strip() == ","
            and sentence[end : bounds[index + 1][0]].strip() == ","
            and _NAME_END.search(sentence, out[-1][0], out[-1][1])
        ):
            out[-1] = (out[-1][0], bounds[index + 1][1])
            index += 2
            continue
        out.append((start, end))
        index += 1
    return out or [(0, len(sentence))]


_REPORTED = re.compile(
    r"(?<![小传听])说(?![明错过了服法话好])|表示|提到|透露|告诉我"
    r"|\b(?:says|said|told (?:me|us)|mentioned)\b(?: that\b)?"
)
"""A speech verb: what is reported after it is a clause of its own for dates ("李总说华东区下季度…")."""


def date_bounds(sentence: str, lang: Lang) -> list[tuple[int, int]]:
    """Return the clauses of ``sentence`` that a date phrase can speak for: ``clause_bounds``,
    each also cut after a speech verb ("Bob from the Denver office says the launch is next week":
    the date is the launch's, not Bob's) and around a parenthesis ("Greg Walsh (CTO at Pinecrest
    Health) confirmed they'll pilot … starting Aug 1": the date is the pilot's, not his job's)."""
    out: list[tuple[int, int]] = []
    for start, end in _around_parentheses(sentence, clause_bounds(sentence, lang)):
        for match in _REPORTED.finditer(sentence, start, end):
            if start < match.end() < end:
                out.append((start, match.end()))
                start = match.end()
        out.append((start, end))
    return out


_PARENTHESIS = re.compile(r"[(（][^()（）]{1,80}[)）]")


def _around_parentheses(sentence: str, bounds: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in bounds:
        for match in _PARENTHESIS.finditer(sentence, start, end):
            out += [(start, match.start())] if start < match.start() else []
            out.append(match.span())
            start = match.end()
        if start < end:
            out.append((start, end))
    return out


def frame_clause(sentence: str, bounds: list[tuple[int, int]], date_span: tuple[int, int]) -> bool:
    """Return True when the date at ``date_span`` (offsets in ``sentence``) makes up the whole of
    a clause, one of several, alone or with a bare verb: "Last year, I moved to Berlin", "…,
    starting Monday", "不用飞书了，上周卸载了" — it dates the other clauses too."""
    if len(bounds) < 2:
        return False
    start, end = next(((s, e) for s, e in bounds if s <= date_span[0] < e), bounds[0])
    if not (start <= date_span[0] and date_span[1] <= end):
        return False
    if due(sentence, date_span) or _UNTIL_BEFORE.search(sentence, start, date_span[0]):
        return False  # "月底前给答复", "by Friday", 合同到明年三月: when something is due or ends
    rest = _FRAME_FILLER.sub("", sentence[start : date_span[0]] + " " + sentence[date_span[1] : end])
    return not rest.strip(" ,.!?，。") or _BARE_VERB.fullmatch(rest.strip(" ,.!?，。")) is not None


_UNTIL_BEFORE = re.compile(r"(?:到|至|直到|\buntil|\btill)\s?$", re.I)
_DUE_BY = re.compile(r"[之以]?前")
"""After a date (not a duration: "两周前" is one phrase, a time ago), a time something is due by."""
_DUE_BY_BEFORE = re.compile(r"\b(?:by|before)\s$", re.I)
_DUE_ON = re.compile(r"到期|截止")
_DUE_ON_BEFORE = re.compile(r"\b(?:by|before|no later than|due|expires?|expiring)\s(?:on\s)?$", re.I)


def due(text: str, date_span: tuple[int, int]) -> Literal["by", "on"] | None:
    """Return how the date at ``date_span`` of ``text`` is when something is due or ends, not when
    the clause's fact began: "by" it (月底前, "by Friday": it ends as the date begins), "on" it
    (6月底到期, "expires March 1": it ends with the date); None for any other date."""
    start, end = date_span
    if _DUE_BY.match(text, end) or _DUE_BY_BEFORE.search(text, 0, start):
        return "by"
    if _DUE_ON.match(text, end) or _DUE_ON_BEFORE.search(text, 0, start):
        return "on"
    return None


_BARE_VERB = re.compile(r"[\u4e00-\u9fff]{1,3}了?|(?-i:[a-z]+ed)(?: (?:it|them|that))?")
"""A verb with no object of its own beside the date ("上周卸载了", "uninstalled it last week"): it
says when the sentence's event happened."""
