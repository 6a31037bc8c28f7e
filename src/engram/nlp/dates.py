"""Resolve the dates a fact's sentence names ("明天下午3点", "next Tuesday", "上个月") against its episode.

``resolve_dates(text, reference)`` returns a ``DateSpan`` for the first date or time
expression in ``text``: a point (``明天下午3点`` → that minute), a period (``上个月`` → the
month's [start, end)), a range (``from May 8 to May 10``, ``2020年到2022年``), an open start
(``since 2020``, ``从下周一开始``) or an open end (``until Friday``, ``直到下周五``). Times are
UTC; calendar arithmetic happens in the reference's zone (UTC when naive). No reference, no
date: nothing is guessed from the clock of the machine.

``apply_dates(extraction, episode)`` fills ``valid_at`` / ``invalid_at`` of the facts that
lack them from each fact's ``fact`` sentence (or the episode content when a fact has none).

What it adds to ``engram.nlp.timeexpr.find_time_range`` (which it uses for calendar
periods, weekdays, "3 days ago", "2023年5月"…; the expressions are found by
``engram.nlp.date_scan``, their cues and resolution are here):
- clock times: 3pm, 3:30 p.m., 15:00, "at 9" after a day, noon, 下午3点, 晚上八点, 上午10点半,
  三点一刻, 15时30分; joined to an adjacent day ("tomorrow at 3pm", "明天下午3点", "下周二上午
  10点半", "3pm tomorrow"); a clock alone is on the reference's day;
- the future: "in two weeks", "in 3 hours", "2 days from now", 两天后, 三个月后, 半小时后
  (hours and minutes give points, longer units the day they land on; months clamp to the
  month's last day);
- yearless dates ("May 8", "8 May", "5月8日") read as the occurrence nearest the reference,
  since episodes talk about plans as well as the past (queries, in timeexpr, read the past);
- cues: ranges ``X to/until/- Y``, ``between X and Y``, ``X到/至Y``; ``until/till/through X``,
  ``直到X``, ``X为止`` (open end); ``since/from/starting X``, ``自从/从X``, ``X以来/开始/起``.
Readings: a bare clock needs am/pm, minutes, o'clock or a part of the day (``下午3点``,
``3点半``, ``3点钟``) to count, unless it follows a day ("明天3点") or a range connector after a
clock ("下午3点到5点"): so "三点建议" and "at 3 stores" name no time. Month names must be
capitalised ("may 8" is not a date). Known misreadings: "finished it in two days" (a
duration) reads as two days after the reference; "三天后" in a story is relative to the story.
"""

from __future__ import annotations

import re
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Literal

from engram.errors import InvalidInput
from engram.models.episodes import Episode
from engram.models.graph import Extraction, FactIn
from engram.nlp.clauses import date_bounds, due, frame_clause
from engram.nlp.clocks import at_clock
from engram.nlp.date_scan import (
    BARE_WEEKDAY,
    CALENDAR_DATE,
    DAY_OF_MONTH_TEXT,
    Item,
    add_months,
    local_now,
    scan,
)
from engram.nlp.dates_ahead import SEASON, YEAR_SAID, YEARLESS_TEXT, ahead, years_later
from engram.nlp.tense import is_past
from engram.nlp.timeexpr import TIMEISH, fold_lookalikes
from engram.nlp.tokenize import has_cjk
from engram.timeutil import zone_named

__all__ = [
    "DateSpan",
    "apply_dates",
    "date_facts",
    "date_value",
    "fact_dates",
    "resolve_dates",
    "scoped_dates",
]

SpanKind = Literal["point", "period", "range", "since", "until"]


@dataclass(frozen=True, slots=True)
class DateSpan:
    """A date expression found in a text, resolved to UTC.

    ``kind`` point: ``start`` is the moment, ``end`` None. period: [``start``, ``end``) is the
    day, week, month… named. range: [``start``, ``end``) from one expression to another.
    since: ``start`` only. until: ``end`` only (exclusive: the end of the day "until Friday"
    names). ``text``/``span`` locate the expression, cue words included.
    """

    start: datetime | None
    end: datetime | None
    kind: SpanKind
    text: str
    span: tuple[int, int]
    granularity: str  # minute · part_of_day · day · weekend · week · month · quarter · year · span


# -- cues and the public functions -------------------------------------------------------------

_RANGE_GAP = re.compile(r"\s*(?:-|–|—|~|～|to|until|till|through|and|到|至)\s*", re.I)
_RANGE_LEAD = re.compile(r"(?:\b(?:from|between)\s+|从|自)$", re.I)
_BETWEEN = re.compile(r"\bbetween\s+$", re.I)
_UNTIL_BEFORE = re.compile(
    r"(?:\b(?:until|till|til|through|up\s+to)\s+(?:the\s+)?|直到|一直到|截至|截止到?)$", re.I
)
_UNTIL_AFTER = re.compile(r"\s*为止")
_SINCE_BEFORE = re.compile(
    r"(?:\b(?:since|from|as\s+of|starting(?:\s+(?:from|on|in))?|beginning)\s+(?:the\s+)?|自从|自|从)$", re.I
)
_SINCE_TEXT = re.compile(r"^(?:since|from)\b|(?:以来|至今)$", re.I)
"""timeexpr keeps these cue words in its match."""
_SINCE_AFTER = re.compile(r"\s*(?:以来|开始|起|至今)")


def _date_span(
    text: str,
    bounds: tuple[int, int],
    first: datetime | None,
    last: datetime | None,
    kind: SpanKind,
    granularity: str,
    zone: tzinfo,
) -> DateSpan:
    """Return a DateSpan of local naive ``first``/``last`` in ``zone``, converted to UTC."""
    start, end = (None if t is None else t.replace(tzinfo=zone).astimezone(UTC) for t in (first, last))
    return DateSpan(start, end, kind, text[bounds[0] : bounds[1]].strip(), bounds, granularity)


def resolve_dates(text: str, reference: datetime | None) -> DateSpan | None:
    """Return the first date or time ``text`` names, resolved against ``reference``; None if none.

    ``reference`` is the episode's timestamp: a naive one is UTC, an aware one sets the zone
    days and clock times are in. Without a reference nothing is resolved (no guessed dates),
    nor when the reading falls before year 1 or after 9999.
    """
    if reference is None or not text:
        return None
    try:
        folded = fold_lookalikes(text)
        return ahead(_resolve_dates(folded, reference), folded, reference)
    except (ValueError, OverflowError):  # at the calendar's edge: no reading rather than a guess
        return None


_DATEISH = re.compile(
    rf"{TIMEISH.pattern}|{SEASON}|minute|hour|fortnight|noon|midday|midnight|clock|[点點时钟]", re.I
)
"""Every date, offset and clock expression ``scan`` reads holds one of these (timeexpr's words,
the units and clock words it lacks): most fact sentences hold none, and one search says so."""


def _resolve_dates(text: str, reference: datetime) -> DateSpan | None:
    if not _DATEISH.search(text):
        return None
    zone = reference.tzinfo or UTC
    items = scan(text, reference)
    for index, item in enumerate(items):
        if item.weak:
            continue
        start, end = item.start, item.end
        following = items[index + 1] if index + 1 < len(items) else None
        gap = _RANGE_GAP.fullmatch(text, end, following.start) if following else None
        if following and gap and ("and" not in gap[0].lower() or _BETWEEN.search(text, 0, start)):
            last = following
            if following.weak and following.clock and item.clock:  # 下午3点到5点
                moment = at_clock(item.first.date(), following.clock, item.clock.part)
                last = Item(following.start, following.end, moment, None, "minute")
            upper = last.last or last.first
            if upper > item.first:
                lead = _RANGE_LEAD.search(text, 0, start)
                bounds = (lead.start() if lead else start, last.end)
                return _date_span(text, bounds, item.first, upper, "range", "span", zone)
        until_before, until_after = _UNTIL_BEFORE.search(text, 0, start), _UNTIL_AFTER.match(text, end)
        if until_before or until_after:
            bounds = (
                until_before.start() if until_before else start,
                until_after.end() if until_after else end,
            )
            upper = item.last or item.first
            if BARE_WEEKDAY.fullmatch(text, start, end) and upper <= local_now(reference):
                upper += timedelta(weeks=1)  # "until Friday" is the coming Friday
            return _date_span(text, bounds, None, upper, "until", item.granularity, zone)
        since_before, since_after = _SINCE_BEFORE.search(text, 0, start), _SINCE_AFTER.match(text, end)
        if since_before or since_after or _SINCE_TEXT.search(text[start:end]):
            bounds = (
                since_before.start() if since_before else start,
                since_after.end() if since_after else end,
            )
            first = item.first
            if BARE_WEEKDAY.fullmatch(text, start, end) and first < local_now(reference).replace(
                hour=0, minute=0, second=0, microsecond=0
            ):
                first += timedelta(weeks=1)  # "starting Monday" is the coming Monday
            return _date_span(text, bounds, first, None, "since", item.granularity, zone)
        kind: SpanKind = "point" if item.last is None else "period"
        return _date_span(text, (start, end), item.first, item.last, kind, item.granularity, zone)
    return None


def fact_dates(span: DateSpan | None) -> tuple[datetime | None, datetime | None]:
    """Return (valid_at, invalid_at) a fact gets from ``span``.

    A point, a period or "since X" gives valid_at only (an event last month does not end the
    fact then); a range gives both; "until X" gives invalid_at only.
    """
    if span is None:
        return None, None
    if span.kind == "range":
        return span.start, span.end
    if span.kind == "until":
        return None, span.end
    return span.start, None


_DATE_VALUE = re.compile(r"^(?:\d{4}-\d{2}(?:-\d{2})?|\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$")
"""A fact whose value is a date or a time (a deadline, a meeting, a birthday's "MM-DD", as
``date_value`` writes them): its sentence's dates name it."""


def _resolved(text: str, reference: datetime | None) -> DateSpan | None:
    """Return ``resolve_dates`` of ``text``, remembered: every fact of a sentence asks again.

    Remembered by the reference's zone too: one instant in two zones compares (and hashes) equal,
    but its days are not the same days."""
    return _resolved_in(text, reference, None if reference is None else str(reference.tzinfo))


@lru_cache(maxsize=512)
def _resolved_in(text: str, reference: datetime | None, zone: str | None) -> DateSpan | None:
    return resolve_dates(text, reference)


def scoped_dates(
    sentence: str,
    reference: datetime | None,
    *,
    target: str | None = None,
    position: int | None = None,
) -> DateSpan | None:
    """Return the date that applies to one clause of ``sentence``: its own, else that of a
    clause that is only a time phrase, first or last ("Last year, I moved to Berlin", "…,
    starting Monday"), else a "from then on" date of the nearest earlier clause that has a
    date ("下周一起不再负责华东区，改管华北区"); None when another clause names a date of its own.

    The clause (``engram.nlp.clauses.date_bounds``) is the one holding offset ``position``,
    else the first one naming ``target`` (the fact's object or value, case-insensitive); when
    neither is given or the target is not in the sentence, the sentence's first date is
    returned (nothing tells which clause is meant). "I lost my job yesterday, so I'm starting
    a business" dates the job, not the business.
    """
    anywhere = _resolved(sentence, reference)
    if anywhere is None:  # most sentences name no date: one scan says so
        return None
    anywhere = _as_due(sentence, anywhere)
    bounds = _dated_conjuncts(sentence, date_bounds(sentence, "zh" if has_cjk(sentence) else "en"), reference)
    if len(bounds) == 1:
        return anywhere
    if position is None and target:
        offset = sentence.lower().find(target.lower())
        position = offset if offset >= 0 else None
    clause = next((b for b in bounds if position is not None and b[0] <= position < b[1]), None)
    if clause is None:
        return anywhere
    own = _resolved(sentence[clause[0] : clause[1]], reference)
    if own is not None:
        return _as_due(sentence[clause[0] : clause[1]], own)
    found: DateSpan | None
    told = sentence[clause[0] : clause[1]]
    for other in (bounds[0], bounds[-1]):  # "Last year, I …", "…, starting Monday"
        found = _resolved(sentence[other[0] : other[1]], reference) if other != clause else None
        if found is not None and frame_clause(
            sentence, bounds, (other[0] + found.span[0], other[0] + found.span[1])
        ):
            if (
                other[0] > clause[0]
                and _begins_after_day_of(found, reference)
                and is_past(told, "zh" if has_cjk(told) else "en")
            ):
                continue  # 周涛离职了，下周约见面: a time ahead dates no event already past
            return found
    for other in reversed([b for b in bounds if b[1] <= clause[0]]):  # "下周一起不再负责华东区，改管华北区"
        found = _resolved(sentence[other[0] : other[1]], reference)
        if found is not None:
            return found if found.kind == "since" else None
    return None


def _begins_after_day_of(found: DateSpan, reference: datetime | None) -> bool:
    """Return True when ``found`` begins after the day of ``reference``."""
    return reference is not None and found.start is not None and found.start.date() > reference.date()


_AND = re.compile(r"\s+and\s+", re.I)


def _dated_conjuncts(
    sentence: str, bounds: list[tuple[int, int]], reference: datetime | None
) -> list[tuple[int, int]]:
    """Return ``bounds`` with a clause cut at "and" when each side names a date of its own ("I left
    Acme last month and start at Globex next Monday": two events, two dates)."""
    out: list[tuple[int, int]] = []
    for start, end in bounds:
        for match in _AND.finditer(sentence, start, end):
            if _resolved(sentence[start : match.start()], reference) and _resolved(
                sentence[match.end() : end], reference
            ):
                out.append((start, match.start()))
                start = match.end()
        out.append((start, end))
    return out


def _as_due(text: str, found: DateSpan) -> DateSpan:
    """Return ``found`` as the end it is when something is due by it or ends on it: 2024年3月之前住在
    上海 (until March), 合同6月底到期 (until the end of June), "by Friday" — never a beginning."""
    ends = due(text, found.span)
    if found.kind in ("until", "range") or ends is None:
        return found
    end = found.start if ends == "by" or found.end is None else found.end
    return DateSpan(None, end, "until", found.text, found.span, found.granularity)


_FROM_BIRTH = frozenset({"CHILD_OF", "SIBLING_OF"})
"""Kinship holds from birth: a date in its sentence is of something else."""
_UNIONS = {
    "MARRIED_TO": re.compile(r"结婚|婚礼|领证|嫁|娶|married|wedding", re.I),
    "PARTNER_OF": re.compile(r"在一起|订婚|求婚|认识|engaged|dating|got together|proposed|\bmet\b", re.I),
    "FRIEND_OF": re.compile(r"认识|became friends|\bmet\b", re.I),
}
"""A marriage, partnership or friendship is dated by its sentence only when the sentence says it began
(a wedding begins a marriage, not a partnership: "Jonah and I are getting married next summer")."""

_ANNIVERSARY = re.compile(
    r"第[一二三四五六七八九十\d]+年|周年|纪念日|\banniversary\b|\byears?\s(?:married|together)\b", re.I
)
"""How long a couple has been one (今年是结婚第四年, "10 years married today"): no date it began."""
_CLAUSE_BREAK = re.compile(r"[，,。.!！?？;；\n\U0001F300-\U0001FAFF]")


def _clause_at(text: str, position: int) -> str:
    """Return the clause of ``text`` holding ``position``: between the punctuation marks (or emoji)
    around it. Narrower than ``engram.nlp.clauses.date_bounds``, which does not end a clause at an emoji
    (我和我女朋友订婚了💍 明年五月办婚礼: the wedding's month is not the engagement's)."""
    starts = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, position)]
    end = _CLAUSE_BREAK.search(text, position)
    return text[starts[-1] if starts else 0 : end.start() if end else len(text)]


def date_facts(extraction: Extraction, reference: datetime | None, *, fallback_text: str = "") -> Extraction:
    """Return ``extraction`` with missing valid_at / invalid_at filled from each fact's sentence.

    Only the clause naming the fact's object or value (its subject when it has neither: 周涛离职了)
    dates it (``scoped_dates``): "Lost my job yesterday, so I'm gonna start a business" does not
    date the plan. A fact without a
    ``fact`` sentence is dated from ``fallback_text``; a fact whose value is a date or a time
    (DEADLINE 2024-06-14) is not dated from its sentence, whose dates name that value, nor is a
    kinship (CHILD_OF, SIBLING_OF; MARRIED_TO and PARTNER_OF unless the sentence says they began).
    Dates a fact already has are kept; a filled date that would
    put invalid_at before valid_at, or on it, is not applied.
    With no ``reference`` the extraction is returned unchanged.
    """
    if reference is None or not extraction.facts:
        return extraction
    facts: list[FactIn] = []
    for fact in extraction.facts:
        if fact.valid_at is not None and fact.invalid_at is not None:
            facts.append(fact)
            continue
        if isinstance(fact.value, str) and _DATE_VALUE.match(fact.value):
            facts.append(fact)  # "the deadline is June 14": the sentence's dates are the value's
            continue
        text = fact.fact or fallback_text
        begun = _UNIONS[fact.predicate].search(text) if fact.predicate in _UNIONS else None
        if begun is not None:
            # 在一起三年了，打算明年五一结婚: the wedding's date is not when they got together
            text = _clause_at(text, begun.start())
        if (
            fact.predicate in _FROM_BIRTH
            or (fact.predicate in _UNIONS and begun is None)
            or (begun is not None and _ANNIVERSARY.search(text))
        ):
            # 我儿子下个月中考, 我老婆生日是3月8号, 今年是结婚第四年: a date of something else
            facts.append(fact)
            continue
        target = (
            fact.object
            if fact.object is not None
            else fact.subject
            if fact.value is None
            else str(fact.value)
        )
        valid, invalid = fact_dates(scoped_dates(text, reference, target=target))
        valid, invalid = fact.valid_at or valid, fact.invalid_at or invalid
        if (valid, invalid) == (fact.valid_at, fact.invalid_at) or (valid and invalid and invalid <= valid):
            facts.append(fact)
            continue
        facts.append(fact.model_copy(update={"valid_at": valid, "invalid_at": invalid}))
    return extraction.model_copy(update={"facts": facts})


ZONE_KEY = "timezone"
"""The metadata key naming the zone an episode's days and clock times are in (an IANA name)."""


def reference_of(episode: Episode, zone: tzinfo = UTC) -> datetime:
    """Return the episode's timestamp in the zone its days and clock times are read in: the one its
    metadata names (``timezone``), else ``zone`` (the store's, ``Settings.timezone``). Stored
    timestamps are UTC, so "tomorrow" said at 07:00 in Shanghai would otherwise be read on the
    UTC day before."""
    named = episode.metadata.get(ZONE_KEY)
    with suppress(InvalidInput):
        zone = zone_named(named, f"metadata.{ZONE_KEY}") if isinstance(named, str) else zone
    return episode.timestamp.astimezone(zone)


def apply_dates(extraction: Extraction, episode: Episode, zone: tzinfo = UTC) -> Extraction:
    """Return ``extraction`` with its facts' missing dates resolved against the episode's time in
    its zone (``reference_of``).

    Each fact is dated from its ``fact`` sentence, or from the episode content when it has
    none; see ``date_facts``.
    """
    return date_facts(extraction, reference_of(episode, zone), fallback_text=episode.content)


_JUST_MISSED_DAYS = 31
"""A yearless deadline at most this many days past is the one just missed (合同上写的是7月20日前交齐, said on
2 August), not next year's."""


def date_value(
    text: str, reference: datetime | None, *, yearless: bool = False, future: bool = False
) -> str | None:
    """Return the first date ``text`` names as a fact value, resolved against ``reference``.

    "YYYY-MM-DD", or "YYYY-MM-DD HH:MM" when a clock time is named (in the reference's zone);
    a period gives its first day ("next month" → the 1st), "until X" its last day. With
    ``yearless`` (birthdays) a date named without a year is "MM-DD"; with ``future``
    (deadlines, meetings) a bare weekday already past this week is next week's, and a day named
    without a year more than a month past is next year's (within a month, the one just missed).
    None without a date.
    """
    span = resolve_dates(text, reference)
    if span is None or reference is None:
        return None
    try:
        return _as_value(span, reference, yearless=yearless, future=future)
    except (ValueError, OverflowError):  # a week or a year past 9999
        return None


def _as_value(span: DateSpan, reference: datetime, *, yearless: bool, future: bool) -> str | None:
    zone = reference.tzinfo or UTC
    moment = span.start if span.start is not None else span.end - timedelta(days=1) if span.end else None
    if moment is None:
        return None
    local = moment.astimezone(zone)
    today = reference.astimezone(zone).date()
    restated = BARE_WEEKDAY.search(span.text) and CALENDAR_DATE.search(span.text)
    # "Tuesday, May 7": the date names the day, the weekday only restates it (a year may still be next)
    if not restated and future and BARE_WEEKDAY.search(span.text) and local.date() < today:
        local += timedelta(weeks=1)
    elif (
        not restated and future and DAY_OF_MONTH_TEXT.search(span.text) and local.date() < today
    ):  # "on the 10th"
        ahead = add_months(local.date(), 1)
        local = local.replace(year=ahead.year, month=ahead.month) if ahead.day == local.day else local
    elif (
        future
        and span.granularity in ("day", "hour", "minute")  # "QBR on Oct 3 at 1pm", said in March
        and not YEAR_SAID.search(span.text)
        and (today - local.date()).days > _JUST_MISSED_DAYS
        and YEARLESS_TEXT.search(span.text)
    ):  # "expires on March 31", said in May: next March; said on April 12, the one just missed
        local = local.replace(year=local.year + 1) if not (local.month == 2 and local.day == 29) else local
    elif (
        future
        and span.granularity == "month"
        and not YEAR_SAID.search(span.text)
        and YEARLESS_TEXT.search(span.text)
        and (local.year, local.month) < (today.year, today.month)
    ):  # 上线定在5月, said in March: this May, not last year's
        local = years_later(local, 1)
    if yearless and not YEAR_SAID.search(span.text):
        return local.strftime("%m-%d")
    if span.granularity == "minute" and span.kind == "point":
        return local.strftime("%Y-%m-%d %H:%M")
    return local.strftime("%Y-%m-%d")
