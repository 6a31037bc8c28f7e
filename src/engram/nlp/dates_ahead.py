"""Which occurrence of a date said without a year, or of a bare weekday, a sentence means: the one
ahead when the sentence speaks of what is coming ("will step down in June", 打算…10月2号出发, "I'm going to
Boston on Monday", "Starting in July, I'm the team lead"), the one before when it recounts ("I went to Tokyo
on December 20th" said in November), else as ``engram.nlp.date_scan`` resolved it (the past one, what people
mostly recount). Used by ``engram.nlp.dates.resolve_dates``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from engram.nlp.date_scan import BARE_WEEKDAY, CALENDAR_DATE, MONTH, add_months
from engram.nlp.tense import is_past, past_on_date
from engram.nlp.tokenize import has_cjk

if TYPE_CHECKING:
    from engram.nlp.dates import DateSpan

__all__ = ["SEASON", "YEARLESS_TEXT", "YEAR_SAID", "ahead", "years_later"]

SEASON = r"spring|summer|autumn|fall|winter"
YEAR_SAID = re.compile(rf"(?:19|20)\d{{2}}|[去今明前后]年|\b(?:last|this|next) (?:year|{SEASON})\b", re.I)
"""A year said with the date (2024, 去年, "last year"): the date is not moved to another year."""
YEARLESS_TEXT = re.compile(rf"\b(?:{MONTH}|(?i:{SEASON}))\b|\d{{1,2}}月|[一二三四五六七八九十]{{1,3}}月")
"""A month or a season said by name, with no year."""

_FUTURE_CUE = re.compile(
    r"\b(?:will|'ll|going to|gonna|plan(?:s|ning)? to|"
    r"planning (?:a|our|my) (?:[\w-]+ )?(?:trip|visit|vacation|holiday)|"
    r"booked (?:a |our |my )?(?:trip|flights?|tickets?)|intends? to|about to|"
    # an event one trains or signs up for: "training for the Paris 10k on Oct 13", "signed up for … in March"
    # ("up for": only 40 characters before the date are read, "signed" may be cut off)
    r"(?:in )?training for|(?:up|registered) for (?:a|an|the|my) (?:[\w-]+ ){0,3}?"
    r"(?:race|marathon|half|10k|5k|triathlon|exam|test|tournament|competition|trip)|"
    r"(?:'m|am|'re|are|'s|is) (?:running|racing|competing)|"
    r"(?:is|are) (?:set|scheduled|due) to|expects? to|hop(?:e|es|ing) to|"
    r"(?:'m|am|'re|are|'s|is) (?:starting|joining|leaving|moving|relocating|retiring|heading|flying|"
    r"switching|migrating|graduating|getting married|opening|launching)|"
    r"(?:starting|beginning) (?:in|on|from|at|with)|effective|"
    r"(?<!was )(?<!were )going (?:on|back|away|home|abroad)|"
    # a note's bare progressive: "moving to the Berlin office in September"
    r"(?:^|(?<=[.!?]\s))(?:moving|relocating|joining|leaving|heading|flying|switching|running|racing)|"
    # a scheduled event in the present simple: "Kim joins us on Monday", "she starts in June"
    r"(?:joins|starts|begins|arrives|lands|flies|returns|launches|moves in|moves out|goes live)|"
    r"(?:turns|turning) \d{1,3}|"  # a birthday ahead: "Hana turns 6 on Saturday", "turning 90 on Nov 2"
    r"last (?:day|shift)(?: (?:at|with) [\w&'’. -]{1,40}?)? (?:is|will be))\b|"
    r"打算|计划|准备|将于|将在|将会|预计|定在|定于",
    re.I,
)


_MOVED_TO_IT = re.compile(
    r"\b(?:moved|pushed(?: back)?|rescheduled|postponed|shifted|bumped|delayed) (?:to|until)\s+$", re.I
)
"""A date an event is moved to, said right after it ("Demo moved to Tuesday 3pm"): a new date, ahead (not
"moved to Brno in March", where the date is when one moved)."""


def ahead(span: DateSpan | None, text: str, reference: datetime) -> DateSpan | None:
    """Return ``span`` a year later when it is a month or a day named without a year ("in June",
    10月2号), already over at ``reference``, after words of the future in its sentence ("will step
    down in June", 打算…10月2号出发): a date alone reads as the past one (what people mostly recount),
    unless the tense says otherwise. A weekday alone that has passed this week is next week's after
    such words ("I'm going to Boston on Monday", 周五去苏州出差)."""
    if span is not None and span.start is not None and _weekday_ahead(span, text, reference):
        return _shifted(span, lambda moment: moment + timedelta(weeks=1))
    if (
        span is None
        or span.granularity not in ("month", "day")
        or span.start is None
        or YEAR_SAID.search(span.text)
        or not YEARLESS_TEXT.search(span.text)
    ):
        return span
    over = span.end if span.end is not None else span.start + timedelta(days=1)
    said_before = _said_before(text, span)
    future = (
        _FUTURE_CUE.search(said_before)
        or _MOVED_TO_IT.search(said_before)
        or _starting_ahead(span, said_before)
        or _ZH_FUTURE_AFTER.match(text, span.span[1])
        or _starts_ahead(span, said_before, text, reference)
        or _nearer_ahead(span, said_before, text, reference)
    )
    if over <= reference.astimezone(UTC) and future:
        return _shifted(span, lambda moment: years_later(moment, 1))
    past = past_on_date(_CLAUSE_END.split(said_before)[-1], text[span.span[1] :])
    if span.start > reference.astimezone(UTC) and span.granularity == "day" and past:
        # "I went to Tokyo on December 20th", 12月20号去了东京, said in November: last December's
        return _shifted(span, lambda moment: years_later(moment, -1))
    return span


def _nearer_ahead(span: DateSpan, said_before: str, text: str, reference: datetime) -> bool:
    """Return True for a Chinese month or day said alone (五月中旬搬到滨江, 12月启动) in a clause with
    nothing of the past (了, 过, 已经, 上个月…) when its next occurrence is nearer than its last: with no
    tense to read, the nearest (said in April, 五月 is next month, not eleven months ago)."""
    if span.start is None or not has_cjk(span.text):
        return False
    after = _CLAUSE_END.split(_SENTENCE_END.split(text[span.span[1] :], maxsplit=1)[0], maxsplit=1)[0]
    if is_past(_CLAUSE_END.split(said_before)[-1] + span.text + after, "zh"):
        return False
    return _next_nearer(span.start, reference)


def _next_nearer(start: datetime, reference: datetime) -> bool:
    """Return True when ``start`` a year later is nearer to ``reference`` than ``start`` itself."""
    now = reference.astimezone(UTC)
    return years_later(start, 1) - now < now - start


def _starts_ahead(span: DateSpan, said_before: str, text: str, reference: datetime) -> bool:
    """Return True for a change said to start in a month or on a day whose coming occurrence is nearer
    than its last, in a sentence told in no past tense ("Starting in July, I'm the team lead" said in
    March, 从7月起我负责华东区): an announcement of what is coming. Not a recount
    ("从六月开始就一直是我在管了"), nor a start just gone (从6月30日起不再负责… said on July 1)."""
    if span.kind != "since" or span.start is None or not _START_CUE.search(span.text):
        return False
    if not _next_nearer(span.start, reference):
        return False
    sentence = said_before + _SENTENCE_END.split(text[span.span[1] :], maxsplit=1)[0]
    return not is_past(sentence, "zh" if has_cjk(span.text) else "en")


_START_CUE = re.compile(r"^(?:starting|beginning|effective|from)\b|^从|起$|开始$", re.I)
"""A date said as when something starts: "starting in July", "from June on", 从7月起, 6月开始."""


_STARTING = re.compile(r"(?:starting|beginning|effective)\b", re.I)
_TOLD_PAST = re.compile(r"\b(?:[a-z]+ed|was|were|went|left|quit|had|began|got)\b", re.I)


def _starting_ahead(span: DateSpan, said_before: str) -> bool:
    """Return True for "…, starting Sept 16", "effective March 1": a date that opens with its own cue of
    a beginning, in a clause told in no past tense ("We switched to Linear starting Feb 1" is past)."""
    return bool(_STARTING.match(span.text)) and not _TOLD_PAST.search(_CLAUSE_END.split(said_before)[-1])


def _said_before(text: str, span: DateSpan) -> str:
    """Return up to 40 characters of ``text`` before ``span``, back to the end of the previous sentence."""
    return _SENTENCE_END.split(text[max(span.span[0] - 40, 0) : span.span[0]])[-1]


def _shifted(span: DateSpan, move: Callable[[datetime], datetime]) -> DateSpan:
    return replace(span, start=span.start and move(span.start), end=span.end and move(span.end))


def _weekday_ahead(span: DateSpan, text: str, reference: datetime) -> bool:
    """Return True for a weekday said alone, already past this week, in a sentence that speaks of the
    future before it or (in Chinese) goes somewhere after it with nothing saying it is done."""
    if (
        span.start is None
        or span.granularity not in ("day", "hour", "minute")
        or not BARE_WEEKDAY.search(span.text)
        or CALENDAR_DATE.search(span.text)
        or span.start >= reference.astimezone(UTC)
    ):
        return False
    said_before = _said_before(text, span)
    return bool(
        _FUTURE_CUE.search(said_before)
        or _MOVED_TO_IT.search(said_before)
        or _ZH_GOING_AFTER.match(text, span.span[1])
    )


_ZH_GOING_AFTER = re.compile(
    r"(?:我们?|他们?|她们?)?(?:要|会|准备|打算)?去(?![了过])[^，。；！？了过]*(?:[，。；！？]|$)"
)
"""周五去苏州出差: going somewhere on that day, with no 了 saying it was done."""
_SENTENCE_END = re.compile(r"[.!?。！？；;\n]")
_CLAUSE_END = re.compile(r"[,，;；:：]")
_ZH_FUTURE_AFTER = re.compile(
    r"(?:份|底|初|中旬|上旬|下旬)?[我你他她们咱]{0,2}(?:就要|要|会|打算|准备|计划|将)"
)
"""我12月要去日本, 12月份我要…: the future said right after the date."""


def years_later(moment: datetime, years: int) -> datetime:
    day = add_months(moment.date(), 12 * years)  # 29 February → 28 February
    return moment.replace(year=day.year, month=day.month, day=day.day)
