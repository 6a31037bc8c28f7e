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
periods, weekdays, "3 days ago", "2023年5月"…):
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
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from functools import lru_cache
from typing import Literal

from engram.errors import InvalidInput
from engram.models.episodes import Episode
from engram.models.graph import Extraction, FactIn
from engram.nlp.clauses import date_bounds, due, frame_clause
from engram.nlp.clocks import CN_NUM, EN_NUM, Clock, at_clock, find_clocks, number, part_of
from engram.nlp.timeexpr import TIMEISH, find_time_range, fold_lookalikes
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


@dataclass(frozen=True, slots=True)
class _Item:
    """A resolved expression in local naive time: a point (``last`` None) or [first, last)."""

    start: int
    end: int
    first: datetime
    last: datetime | None
    granularity: str
    clock: Clock | None = None
    weak: bool = False


# -- dates timeexpr reads differently, and the future -------------------------------------------

_MONTHS = (
    "January Jan|February Feb|March Mar|April Apr|May|June Jun|July Jul|August Aug"
    "|September Sept Sep|October Oct|November Nov|December Dec"
)
_MONTH_NUMBERS = {name: n for n, names in enumerate(_MONTHS.split("|"), 1) for name in names.split()}
_MONTH = "|".join(sorted(_MONTH_NUMBERS, key=len, reverse=True))
_YEARLESS = [
    re.compile(rf"\b(?P<month>{_MONTH})\b\.?\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?![:.]\d)"),
    re.compile(rf"\b(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>{_MONTH})\b\.?"),
    re.compile(
        r"(?<![\d年零〇一二两三四五六七八九十个几每第])(?P<month>\d{1,2}|[一二三四五六七八九十]{1,3})月份?"
        r"(?P<day>\d{1,2}|[一二三四五六七八九十]{1,3})[日号號]"
    ),
]
_UNITS = {"分钟": "minute", "小时": "hour", "钟头": "hour", "天": "day", "日": "day", "周": "week"}
_UNITS |= {"星期": "week", "礼拜": "week", "月": "month", "年": "year", "fortnight": "fortnight"}
_OFFSETS: list[tuple[re.Pattern[str], int]] = [
    (
        re.compile(
            rf"\bin\s+(?P<n>{EN_NUM})\s+(?P<unit>minute|hour|day|week|fortnight|month|year)s?\b", re.I
        ),
        1,
    ),
    (
        re.compile(
            rf"\b(?P<n>{EN_NUM})\s+(?P<unit>minute|hour|day|week|fortnight|month|year)s?\s+from\s+now\b",
            re.I,
        ),
        1,
    ),
    (re.compile(rf"\b(?P<n>{EN_NUM})\s+(?P<unit>minute|hour)s?\s+ago\b", re.I), -1),
    (
        re.compile(
            rf"(?<![\d零〇一二两三四五六七八九十几每第])(?P<n>{CN_NUM}|半)个?"
            r"(?P<unit>分钟|小时|钟头|天|日|周|星期|礼拜|月|年)(?:以后|之后|后)"
        ),
        1,
    ),
    (
        re.compile(
            rf"(?<![\d零〇一二两三四五六七八九十几每第])(?P<n>{CN_NUM}|半)个?(?P<unit>分钟|小时|钟头)"
            rf"(?:以前|之前|前)"
        ),
        -1,
    ),
]


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = index // 12, index % 12 + 1
    following = date(year + (month == 12), month % 12 + 1, 1)
    return date(year, month, min(day.day, (following - timedelta(days=1)).day))


def _day_item(start: int, end: int, day: date) -> _Item:
    first = datetime.combine(day, time())
    return _Item(start, end, first, first + timedelta(days=1), "day")


def _offset(m: re.Match[str], sign: int, now: datetime) -> _Item | None:
    unit = m["unit"].lower()
    unit = _UNITS.get(unit, unit)
    if m["n"] == "半":
        count, unit = {"hour": (30, "minute"), "month": (15, "day"), "year": (6, "month")}.get(unit, (0, ""))
    else:
        count = number(m["n"]) or 0
    if count <= 0:
        return None
    if unit in ("minute", "hour"):
        moment = now + sign * timedelta(**{f"{unit}s": count})
        return _Item(m.start(), m.end(), moment.replace(second=0, microsecond=0), None, "minute")
    today = now.date()
    if unit in ("day", "week", "fortnight"):
        days = count * {"day": 1, "week": 7, "fortnight": 14}[unit]
        return _day_item(m.start(), m.end(), today + timedelta(days=sign * days))
    return _day_item(m.start(), m.end(), _add_months(today, sign * count * (12 if unit == "year" else 1)))


def _yearless(m: re.Match[str], today: date) -> _Item | None:
    name, day = m["month"], number(m["day"])
    month = _MONTH_NUMBERS[name] if name in _MONTH_NUMBERS else number(name)
    if month is None or day is None or not 1 <= month <= 12:
        return None
    candidates = []
    for year in (today.year - 1, today.year, today.year + 1):
        try:
            candidates.append(date(year, month, day))
        except ValueError:  # 30 February
            continue
    if not candidates:
        return None
    nearest = min(candidates, key=lambda c: (abs((c - today).days), c > today))
    return _day_item(m.start(), m.end(), nearest)


_CN_RELATIVE = {"上": -1, "上个": -1, "这": 0, "这个": 0, "本": 0, "下": 1, "下个": 1}
_CN_YEARS = {"去年": -1, "今年": 0, "明年": 1}
_EDGES: list[re.Pattern[str]] = [
    re.compile(
        r"(?<![\d零〇一二两三四五六七八九十])(?:(?P<month>\d{1,2}|[一二三四五六七八九十]{1,3})|"
        r"(?P<rel>下个|上个|这个|本|下|上))?月(?P<edge>底|末|初)"
    ),
    re.compile(r"(?:(?P<year>\d{4})|(?P<yword>去年|今年|明年))?(?<!\d)年(?P<edge>底|末|初)"),
    re.compile(r"(?P<rel>下个|上个|这个|本|下|上)月(?P<day>\d{1,2}|[一二三四五六七八九十]{1,3})[日号號]"),
    re.compile(r"(?P<yword>去年|今年|明年)?(?P<season>春|夏|秋|冬)(?:天|季)"),
    re.compile(
        r"\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?P<en_rel>next\s+)?(?P<unit>month|year)\b", re.I
    ),
]
"""Month and year edges (月底, 下个月初, 年底, 2024年初, "the end of next month"), a day of a
relative month (下个月10号) and seasons (明年春天 → 1 March)."""
_SEASONS = {"春": 3, "夏": 6, "秋": 9, "冬": 12}


def _month_end(year: int, month: int) -> date:
    return _add_months(date(year, month, 1), 1) - timedelta(days=1)


def _edge(m: re.Match[str], today: date) -> _Item | None:
    groups = m.groupdict()
    year = today.year + _CN_YEARS.get(groups.get("yword") or "", 0)
    if groups.get("year"):
        year = int(groups["year"])
    if groups.get("season"):
        return _day_item(m.start(), m.end(), date(year, _SEASONS[groups["season"]], 1))
    if groups.get("unit"):  # English "end of (next) month / year"
        ahead = 1 if groups.get("en_rel") else 0
        if groups["unit"].lower() == "year":
            return _day_item(m.start(), m.end(), date(today.year + ahead, 12, 31))
        first = _add_months(today.replace(day=1), ahead)
        return _day_item(m.start(), m.end(), _month_end(first.year, first.month))
    edge = groups.get("edge")
    if "month" in groups or groups.get("day"):
        if groups.get("month"):
            month = number(groups["month"])
            if month is None or not 1 <= month <= 12:
                return None
            first = date(today.year, month, 1)
        else:
            first = _add_months(today.replace(day=1), _CN_RELATIVE.get(groups.get("rel") or "", 0))
        if groups.get("day"):
            day = number(groups["day"])
            if day is None or not 1 <= day <= _month_end(first.year, first.month).day:
                return None
            return _day_item(m.start(), m.end(), first.replace(day=day))
        return _day_item(m.start(), m.end(), first if edge == "初" else _month_end(first.year, first.month))
    return _day_item(m.start(), m.end(), date(year, 1, 1) if edge == "初" else date(year, 12, 31))


def _own_dates(text: str, pos: int, now: datetime) -> list[_Item]:
    """Return the yearless dates, edges and future offsets at or after ``pos`` (month names: capitalised)."""
    items = [i for p in _YEARLESS for m in p.finditer(text, pos) if (i := _yearless(m, now.date()))]
    items += [i for p in _EDGES for m in p.finditer(text, pos) if (i := _edge(m, now.date()))]
    items += [i for p in _ORDINAL_DAYS for m in p.finditer(text, pos) if (i := _ordinal_day(m, now.date()))]
    for pattern, sign in _OFFSETS:
        items += [i for m in pattern.finditer(text, pos) if (i := _offset(m, sign, now))]
    return items


_LOWER_MAY = re.compile(r"\bmay\s+\d{1,2}(?!\d)|\d\s+may$")
"""timeexpr reads month names in any case; here "may" must be "May" to be a month."""


def _next_date(text: str, pos: int, now: datetime, reference: datetime, zone: tzinfo) -> _Item | None:
    """Return the leftmost (then longest) date expression at or after ``pos``."""
    candidates = _own_dates(text, pos, now)
    found, shift = find_time_range(text[pos:], reference), pos
    while found is not None and _LOWER_MAY.search(found.text):  # "I may 8 times"
        shift += found.span[1]
        found = find_time_range(text[shift:], reference)
    if found is not None:
        local = [t.astimezone(zone).replace(tzinfo=None) for t in (found.start, found.end)]
        start, end = found.span[0] + shift, found.span[1] + shift
        theirs = _Item(start, end, local[0], local[1], found.granularity)
        overlapping = [c for c in candidates if c.start < end and c.end > start]
        if any(c.end >= end for c in overlapping):  # ours reads it (nearest date, future), cue words kept
            best = max(overlapping, key=lambda c: (c.end, -c.start))
            candidates = [
                *candidates,
                _Item(min(start, best.start), best.end, best.first, best.last, best.granularity),
            ]
        else:
            candidates.append(theirs)
    if not candidates:
        return None
    return min(candidates, key=lambda c: (c.start, -c.end))


_JOIN_GAP = re.compile(r"[\s,，]*(?:(?:at|on|the)\s*)?(?:的)?")
_EN_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_ZH_DAY = r"(?:周|星期|礼拜)[一二三四五六日天]"
_WEEKDAY = re.compile(rf"(?:(?:next|this|last|on)\s+)?{_EN_DAY}|(?:下|这|上)?{_ZH_DAY}", re.I)
"""A weekday, alone or as the next, this or last one."""
_BARE_WEEKDAY = re.compile(rf"(?:on\s+)?{_EN_DAY}|{_ZH_DAY}", re.I)
_ORDINAL_DAY = re.compile(
    rf"(?:\b(?P<weekday>{_EN_DAY})\s+|\bon\s+|^)the\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)\b"
    r"(?!\s+(?:of\b|floor|time|century|anniversary|grade|row|place|quarter|half|round|edition|version|"
    r"generation|prize|party|phase|stage|step|item|point|one|largest|biggest|best|most)\b)",
    re.I,
)
"""A day of the month said without its month ("Monday the 25th", "on the 10th", a date phrase that
begins "the 10th")."""
_ZH_ORDINAL_DAY = re.compile(
    r"(?<![\d月年第零〇一二两三四五六七八九十.])(?P<day>\d{1,2}|[一二三四五六七八九十]{1,3})"
    r"(?:号(?=上午|下午|晚上|中午|早上|傍晚|凌晨|\d|[零一二两三四五六七八九十]+点|之?前|以前|开会|见面|碰头|$)"
    r"|日(?=上午|下午|晚上|中午|早上|傍晚|凌晨))"
)
"""A day of the month said without its month in Chinese, before a time or a cue or ending the date
phrase (25号上午, 10号前, 25号开会; not 3号线 nor 三日前, three days ago)."""
_ORDINAL_DAYS = (_ORDINAL_DAY, _ZH_ORDINAL_DAY)
_DAY_OF_MONTH_TEXT = re.compile(
    r"\bthe\s+\d{1,2}(?:st|nd|rd|th)\b|(?<![\d月年第零〇一二两三四五六七八九十])(?:\d{1,2}|[一二三四五六七八九十]{1,3})[号日]",
    re.I,
)
"""What a resolved span's text holds when it named a day of the month without its month."""


def _ordinal_day(m: re.Match[str], today: date) -> _Item | None:
    """Return the nearest day ``m`` names (last, this or next month), on the weekday it names."""
    day = number(m["day"]) or 0
    candidates = []
    for months in (-1, 0, 1):
        first = _add_months(today.replace(day=1), months)
        if 1 <= day <= _month_end(first.year, first.month).day:
            candidates.append(first.replace(day=day))
    if weekday := (m.groupdict().get("weekday") or "").lower():
        candidates = [c for c in candidates if c.strftime("%A").lower() == weekday] or candidates
    if not candidates:
        return None
    nearest = min(candidates, key=lambda c: (abs((c - today).days), c > today))
    return _day_item(m.start(), m.end(), nearest)


_CALENDAR_DATE = re.compile(
    rf"\b(?:{_MONTH})\b|\d{{1,2}}\s*月|[一二三四五六七八九十]{{1,3}}月|\d{{4}}-\d{{1,2}}|\d{{1,2}}/\d{{1,2}}|"
    r"\bthe\s+\d{1,2}(?:st|nd|rd|th)\b",
    re.I,
)
"""A date on the calendar (a month, an ISO or slashed date, a day of the month), not a weekday or an
offset."""


def _fold_weekdays(text: str, dates: list[_Item]) -> list[_Item]:
    """Return ``dates`` with a weekday right before a date ("Tuesday, April 16") folded into it:
    the weekday only restates the day the date names."""
    out: list[_Item] = []
    for item in dates:
        previous = out[-1] if out else None
        if (
            previous is not None
            and previous.granularity == item.granularity == "day"
            and _WEEKDAY.fullmatch(text, previous.start, previous.end)
            and _JOIN_GAP.fullmatch(text, previous.end, item.start)
            and _CALENDAR_DATE.search(text, item.start, item.end)  # not "Monday, Wednesday"
        ):
            out[-1] = replace(item, start=previous.start)
        else:
            out.append(item)
    return out


def _local_now(reference: datetime) -> datetime:
    """Return ``reference`` as a naive datetime in its own zone (a naive one is UTC already)."""
    return reference.replace(tzinfo=None)


def _scan(text: str, reference: datetime) -> list[_Item]:
    """Return the date and clock expressions of ``text`` in order, local naive times."""
    zone = reference.tzinfo or UTC
    now = _local_now(reference)
    dates: list[_Item] = []
    pos = 0
    while (item := _next_date(text, pos, now, reference, zone)) is not None:
        dates.append(item)
        pos = item.end
    dates = _fold_weekdays(text, dates)
    clocks = find_clocks(text)
    used: set[int] = set()
    items: list[_Item] = []
    for item in dates:
        joined = None
        if item.granularity in ("day", "part_of_day"):
            for i, c in enumerate(clocks):
                after = item.start <= c.start and _JOIN_GAP.fullmatch(text, item.end, c.start) is not None
                inside = item.start <= c.start < item.end
                before = c.end <= item.start and _JOIN_GAP.fullmatch(text, c.end, item.start) is not None
                if i not in used and (after or inside or before):
                    joined = c
                    used.add(i)
                    break
        if joined is None:
            items.append(item)
            continue
        moment = at_clock(item.first.date(), joined, part_of(item.first, item.granularity))
        start, end = min(item.start, joined.start), max(item.end, joined.end)
        items.append(_Item(start, end, moment, None, "minute", joined))
    for i, c in enumerate(clocks):
        if i in used or any(d.start < c.end and c.start < d.end for d in dates):
            continue
        items.append(_Item(c.start, c.end, at_clock(now.date(), c, None), None, "minute", c, not c.strong))
    return sorted(items, key=lambda i: i.start)


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
        return _resolve_dates(fold_lookalikes(text), reference)
    except (ValueError, OverflowError):  # at the calendar's edge: no reading rather than a guess
        return None


_DATEISH = re.compile(rf"{TIMEISH.pattern}|minute|hour|fortnight|noon|midday|midnight|clock|[点點时钟]", re.I)
"""Every date, offset and clock expression ``_scan`` reads holds one of these (timeexpr's words,
the units and clock words it lacks): most fact sentences hold none, and one search says so."""


def _resolve_dates(text: str, reference: datetime) -> DateSpan | None:
    if not _DATEISH.search(text):
        return None
    zone = reference.tzinfo or UTC
    items = _scan(text, reference)
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
                last = _Item(following.start, following.end, moment, None, "minute")
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
            if _BARE_WEEKDAY.fullmatch(text, start, end) and upper <= _local_now(reference):
                upper += timedelta(weeks=1)  # "until Friday" is the coming Friday
            return _date_span(text, bounds, None, upper, "until", item.granularity, zone)
        since_before, since_after = _SINCE_BEFORE.search(text, 0, start), _SINCE_AFTER.match(text, end)
        if since_before or since_after or _SINCE_TEXT.search(text[start:end]):
            bounds = (
                since_before.start() if since_before else start,
                since_after.end() if since_after else end,
            )
            first = item.first
            if _BARE_WEEKDAY.fullmatch(text, start, end) and first < _local_now(reference).replace(
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
    bounds = date_bounds(sentence, "zh" if has_cjk(sentence) else "en")
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
    for other in (bounds[0], bounds[-1]):  # "Last year, I …", "…, starting Monday"
        found = _resolved(sentence[other[0] : other[1]], reference) if other != clause else None
        if found is not None and frame_clause(
            sentence, bounds, (other[0] + found.span[0], other[0] + found.span[1])
        ):
            return found
    for other in reversed([b for b in bounds if b[1] <= clause[0]]):  # "下周一起不再负责华东区，改管华北区"
        found = _resolved(sentence[other[0] : other[1]], reference)
        if found is not None:
            return found if found.kind == "since" else None
    return None


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
_UNIONS = frozenset({"MARRIED_TO", "PARTNER_OF"})
_UNION_BEGUN = re.compile(
    r"结婚|婚礼|领证|在一起|订婚|嫁|娶|married|wedding|engaged|dating|got together", re.I
)
"""A marriage or partnership is dated by its sentence only when the sentence says it began."""


def date_facts(extraction: Extraction, reference: datetime | None, *, fallback_text: str = "") -> Extraction:
    """Return ``extraction`` with missing valid_at / invalid_at filled from each fact's sentence.

    Only the clause naming the fact's object or value dates it (``scoped_dates``): "Lost my
    job yesterday, so I'm gonna start a business" does not date the plan. A fact without a
    ``fact`` sentence is dated from ``fallback_text``; a fact whose value is a date or a time
    (DEADLINE 2024-06-14) is not dated from its sentence, whose dates name that value, nor is a
    kinship (CHILD_OF, SIBLING_OF; MARRIED_TO and PARTNER_OF unless the sentence says they began).
    Dates a fact already has are kept; a filled date that would
    put invalid_at before valid_at is not applied.
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
        if fact.predicate in _FROM_BIRTH or (
            fact.predicate in _UNIONS and not _UNION_BEGUN.search(fact.fact or fallback_text)
        ):
            facts.append(fact)  # "我儿子下个月中考", 我老婆生日是3月8号: the date is of something else
            continue
        target = fact.object if fact.object is not None else None if fact.value is None else str(fact.value)
        valid, invalid = fact_dates(scoped_dates(fact.fact or fallback_text, reference, target=target))
        valid, invalid = fact.valid_at or valid, fact.invalid_at or invalid
        if (valid, invalid) == (fact.valid_at, fact.invalid_at) or (valid and invalid and invalid < valid):
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


_YEAR = re.compile(r"(?:19|20)\d{2}")
_YEARLESS_TEXT = re.compile(rf"\b(?:{_MONTH})\b|\d{{1,2}}月|[一二三四五六七八九十]{{1,3}}月")


def date_value(
    text: str, reference: datetime | None, *, yearless: bool = False, future: bool = False
) -> str | None:
    """Return the first date ``text`` names as a fact value, resolved against ``reference``.

    "YYYY-MM-DD", or "YYYY-MM-DD HH:MM" when a clock time is named (in the reference's zone);
    a period gives its first day ("next month" → the 1st), "until X" its last day. With
    ``yearless`` (birthdays) a date named without a year is "MM-DD"; with ``future``
    (deadlines, meetings) a bare weekday already past this week is next week's. None without
    a date.
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
    if _BARE_WEEKDAY.search(span.text) and _CALENDAR_DATE.search(span.text):
        pass  # "Tuesday, May 7": the date names the day, the weekday only restates it
    elif future and _BARE_WEEKDAY.search(span.text) and local.date() < today:
        local += timedelta(weeks=1)
    elif future and _DAY_OF_MONTH_TEXT.search(span.text) and local.date() < today:  # "on the 10th", 10号
        ahead = _add_months(local.date(), 1)
        local = local.replace(year=ahead.year, month=ahead.month) if ahead.day == local.day else local
    elif (
        future
        and span.granularity == "day"
        and not _YEAR.search(span.text)
        and local.date() < today
        and _YEARLESS_TEXT.search(span.text)
    ):  # "expires on March 31", said in May: next March
        local = local.replace(year=local.year + 1) if not (local.month == 2 and local.day == 29) else local
    if yearless and not _YEAR.search(span.text):
        return local.strftime("%m-%d")
    if span.granularity == "minute" and span.kind == "point":
        return local.strftime("%Y-%m-%d %H:%M")
    return local.strftime("%Y-%m-%d")
