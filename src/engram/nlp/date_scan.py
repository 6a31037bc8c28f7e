"""Scan a text for its date and clock expressions, in the reference's local time.

``scan(text, reference)`` returns every date and clock expression of ``text`` in order, as
``Item``s in local naive time: engram.nlp.timeexpr's readings (calendar periods, weekdays,
"3 days ago") and the ones this module adds (clock times joined to an adjacent day, the future
"in two weeks" / 两天后, yearless dates read as the nearest occurrence, month and year edges 月底 /
年初, a day of the month without its month "Monday the 25th" / 25号上午). engram.nlp.dates reads
ranges and cues over them and resolves them to UTC.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from engram.nlp.clocks import CN_NUM, EN_NUM, Clock, at_clock, find_clocks, number, part_of
from engram.nlp.timeexpr import MONTHS_EN, find_time_range


@dataclass(frozen=True, slots=True)
class Item:
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
MONTH = "|".join(sorted(_MONTH_NUMBERS, key=len, reverse=True))
_YEARLESS = [
    re.compile(rf"\b(?P<month>{MONTH})\b\.?\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?![:.]\d)"),
    re.compile(rf"\b(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>{MONTH})\b\.?"),
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


def add_months(day: date, months: int) -> date:
    """Return ``day`` moved by ``months`` calendar months, clamped to the month's last day (31 Jan + 1
    → 29 Feb in a leap year)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = index // 12, index % 12 + 1
    following = date(year + (month == 12), month % 12 + 1, 1)
    return date(year, month, min(day.day, (following - timedelta(days=1)).day))


def _day_item(start: int, end: int, day: date) -> Item:
    first = datetime.combine(day, time())
    return Item(start, end, first, first + timedelta(days=1), "day")


def _offset(m: re.Match[str], sign: int, now: datetime) -> Item | None:
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
        return Item(m.start(), m.end(), moment.replace(second=0, microsecond=0), None, "minute")
    today = now.date()
    if unit in ("day", "week", "fortnight"):
        days = count * {"day": 1, "week": 7, "fortnight": 14}[unit]
        return _day_item(m.start(), m.end(), today + timedelta(days=sign * days))
    return _day_item(m.start(), m.end(), add_months(today, sign * count * (12 if unit == "year" else 1)))


def _yearless(m: re.Match[str], today: date) -> Item | None:
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
_CN_YEARS = {"去年": -1, "今年": 0, "明年": 1, "去": -1, "今": 0, "明": 1}
"""A year said relative to this one: 明年春天, 明年3月底, 去年底 (去 of 去年底, whose 年 the edge shares)."""
_EDGES: list[re.Pattern[str]] = [
    re.compile(
        r"(?:(?P<year>\d{4})年|(?P<yword>去年|今年|明年))?"
        r"(?<![\d零〇一二两三四五六七八九十])(?:(?P<month>\d{1,2}|[一二三四五六七八九十]{1,3})|"
        r"(?P<rel>下个|上个|这个|本|下|上))?月(?P<edge>底|末|初)"
    ),
    re.compile(r"(?:(?P<year>\d{4})|(?P<yword>去年|今年|明年|去|今|明)|(?<!\d))年(?P<edge>底|末|初)"),
    re.compile(r"(?P<rel>下个|上个|这个|本|下|上)月(?P<day>\d{1,2}|[一二三四五六七八九十]{1,3})[日号號]"),
    re.compile(r"(?P<yword>去年|今年|明年)?(?P<season>春|夏|秋|冬)(?:天|季)"),
    re.compile(
        r"\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?P<en_rel>next\s+)?(?P<unit>month|year)\b", re.I
    ),
    re.compile(
        r"\b(?:the\s+)?(?P<en_edge>(?i:end|beginning|start))\s+of\s+(?P<en_month>January|February|March|April|May|"
        r"June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\b"
    ),
    re.compile(
        r"\b(?:(?P<en_rel>this|next|last)\s+|(?:in|during|over|by|until|till|since|from)\s+(?:the\s+)?)"
        r"(?P<en_season>spring|summer|autumn|fall|winter)(?:\s+of\s+(?P<year>\d{4}))?\b(?!\s+of\b)",
        re.I,
    ),
]
"""Month and year edges (月底, 下个月初, 年底, 2024年初, "the end of next month", "end of August"), a day of a
relative month (下个月10号) and seasons (明年春天, "next spring" → 1 March; "in the fall" → this year's)."""
_SEASONS = {
    "春": 3,
    "夏": 6,
    "秋": 9,
    "冬": 12,
    "spring": 3,
    "summer": 6,
    "autumn": 9,
    "fall": 9,
    "winter": 12,
}


def _month_end(year: int, month: int) -> date:
    return add_months(date(year, month, 1), 1) - timedelta(days=1)


def _season(m: re.Match[str], today: date, year: int) -> Item:
    """Return the three months of an English season: this year's, or the next or last one to begin or end
    ("next winter" said in May is the coming December's; "last summer" the last one over)."""
    month = _SEASONS[m.group("en_season").lower()]
    first = date(year, month, 1)
    relative = (m.group("en_rel") or "").lower()
    if relative == "next":
        first = first if first > today else add_months(first, 12)
    elif relative == "last":
        first = first if add_months(first, 3) <= today else add_months(first, -12)
    last = add_months(first, 3)
    return Item(m.start(), m.end(), datetime.combine(first, time()), datetime.combine(last, time()), "month")


def _edge(m: re.Match[str], today: date) -> Item | None:
    groups = m.groupdict()
    year = today.year + _CN_YEARS.get(groups.get("yword") or "", 0)
    if groups.get("year"):
        year = int(groups["year"])
    if groups.get("season"):
        return _day_item(m.start(), m.end(), date(year, _SEASONS[groups["season"]], 1))
    if groups.get("en_season"):
        return _season(m, today, year)
    if groups.get("en_month"):  # "end of August" (this year's, like 八月底), "the beginning of May"
        first = date(year, MONTHS_EN[groups["en_month"].lower()], 1)
        last = _month_end(first.year, first.month)
        return _day_item(m.start(), m.end(), last if groups["en_edge"].lower() == "end" else first)
    if groups.get("unit"):  # English "end of (next) month / year"
        ahead = 1 if groups.get("en_rel") else 0
        if groups["unit"].lower() == "year":
            return _day_item(m.start(), m.end(), date(today.year + ahead, 12, 31))
        first = add_months(today.replace(day=1), ahead)
        return _day_item(m.start(), m.end(), _month_end(first.year, first.month))
    edge = groups.get("edge")
    if "month" in groups or groups.get("day"):
        if groups.get("month"):
            month = number(groups["month"])
            if month is None or not 1 <= month <= 12:
                return None
            first = date(year, month, 1)  # 明年3月底: next year's
        else:
            first = add_months(today.replace(day=1), _CN_RELATIVE.get(groups.get("rel") or "", 0))
        if groups.get("day"):
            day = number(groups["day"])
            if day is None or not 1 <= day <= _month_end(first.year, first.month).day:
                return None
            return _day_item(m.start(), m.end(), first.replace(day=day))
        return _day_item(m.start(), m.end(), first if edge == "初" else _month_end(first.year, first.month))
    return _day_item(m.start(), m.end(), date(year, 1, 1) if edge == "初" else date(year, 12, 31))


def _own_dates(text: str, pos: int, now: datetime) -> list[Item]:
    """Return the yearless dates, edges and future offsets at or after ``pos`` (month names: capitalised)."""
    items = [i for p in _YEARLESS for m in p.finditer(text, pos) if (i := _yearless(m, now.date()))]
    items += [i for p in _EDGES for m in p.finditer(text, pos) if (i := _edge(m, now.date()))]
    items += [i for p in _ORDINAL_DAYS for m in p.finditer(text, pos) if (i := _ordinal_day(m, now.date()))]
    for pattern, sign in _OFFSETS:
        items += [i for m in pattern.finditer(text, pos) if (i := _offset(m, sign, now))]
    return items


_LOWER_MAY = re.compile(r"\bmay\s+\d{1,2}(?!\d)|\d\s+may$")
"""timeexpr reads month names in any case; here "may" must be "May" to be a month."""


def _next_date(text: str, pos: int, now: datetime, reference: datetime, zone: tzinfo) -> Item | None:
    """Return the leftmost (then longest) date expression at or after ``pos``."""
    candidates = _own_dates(text, pos, now)
    found, shift = find_time_range(text[pos:], reference), pos
    while found is not None and _LOWER_MAY.search(found.text):  # "I may 8 times"
        shift += found.span[1]
        found = find_time_range(text[shift:], reference)
    if found is not None:
        local = [t.astimezone(zone).replace(tzinfo=None) for t in (found.start, found.end)]
        start, end = found.span[0] + shift, found.span[1] + shift
        theirs = Item(start, end, local[0], local[1], found.granularity)
        overlapping = [c for c in candidates if c.start < end and c.end > start]
        said = start + len(text[start:end].rstrip(" .,;!?"))  # "end of August.": the stop is no date
        if any(c.end >= said for c in overlapping):  # ours reads it (nearest date, future), cue words kept
            best = max(overlapping, key=lambda c: (c.end, -c.start))
            candidates = [
                *candidates,
                Item(min(start, best.start), best.end, best.first, best.last, best.granularity),
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
BARE_WEEKDAY = re.compile(rf"(?:on\s+)?{_EN_DAY}|{_ZH_DAY}", re.I)
_ORDINAL_DAY = re.compile(
    rf"(?:\b(?P<weekday>{_EN_DAY})\s+(?:the\s+)?|(?:\bon\s+|^)the\s+)(?P<day>\d{{1,2}})(?:st|nd|rd|th)\b"
    r"(?!\s+(?:of\b|floor|time|century|anniversary|grade|row|place|quarter|half|round|edition|version|"
    r"generation|prize|party|phase|stage|step|item|point|one|largest|biggest|best|most)\b)",
    re.I,
)
"""A day of the month said without its month ("Monday the 25th", "Thursday 18th", "on the 10th", a date
phrase that begins "the 10th")."""
_ZH_ORDINAL_DAY = re.compile(
    r"(?<![\d月年第零〇一二两三四五六七八九十.])(?P<day>\d{1,2}|[一二三四五六七八九十]{1,3})"
    r"(?:号(?=上午|下午|晚上|中午|早上|傍晚|凌晨|\d|[零一二两三四五六七八九十]+点|之?前|以前|开会|见面|碰头|$)"
    r"|日(?=上午|下午|晚上|中午|早上|傍晚|凌晨))"
)
"""A day of the month said without its month in Chinese, before a time or a cue or ending the date
phrase (25号上午, 10号前, 25号开会; not 3号线 nor 三日前, three days ago)."""
_ORDINAL_DAYS = (_ORDINAL_DAY, _ZH_ORDINAL_DAY)
_EN_DAY_OF_MONTH = rf"\b(?:the|{_EN_DAY})\s+\d{{1,2}}(?:st|nd|rd|th)\b"
"""An English day of the month as text ("the 10th", "Thursday 18th")."""
DAY_OF_MONTH_TEXT = re.compile(
    rf"{_EN_DAY_OF_MONTH}|"
    r"(?<![\d月年第零〇一二两三四五六七八九十])(?:\d{1,2}|[一二三四五六七八九十]{1,3})[号日]",
    re.I,
)
"""What a resolved span's text holds when it named a day of the month without its month."""


def _ordinal_day(m: re.Match[str], today: date) -> Item | None:
    """Return the nearest day ``m`` names (last, this or next month), on the weekday it names."""
    day = number(m["day"]) or 0
    candidates = []
    for months in (-1, 0, 1):
        first = add_months(today.replace(day=1), months)
        if 1 <= day <= _month_end(first.year, first.month).day:
            candidates.append(first.replace(day=day))
    if weekday := (m.groupdict().get("weekday") or "").lower():
        candidates = [c for c in candidates if c.strftime("%A").lower() == weekday] or candidates
    if not candidates:
        return None
    nearest = min(candidates, key=lambda c: (abs((c - today).days), c > today))
    return _day_item(m.start(), m.end(), nearest)


CALENDAR_DATE = re.compile(
    rf"\b(?:{MONTH})\b|\d{{1,2}}\s*月|[一二三四五六七八九十]{{1,3}}月|\d{{4}}-\d{{1,2}}|\d{{1,2}}/\d{{1,2}}|"
    rf"{_EN_DAY_OF_MONTH}",
    re.I,
)
"""A date on the calendar (a month, an ISO or slashed date, a day of the month), not a weekday or an
offset."""


def _fold_weekdays(text: str, dates: list[Item]) -> list[Item]:
    """Return ``dates`` with a weekday right before a date ("Tuesday, April 16") folded into it:
    the weekday only restates the day the date names."""
    out: list[Item] = []
    for item in dates:
        previous = out[-1] if out else None
        if (
            previous is not None
            and previous.granularity == item.granularity == "day"
            and _WEEKDAY.fullmatch(text, previous.start, previous.end)
            and _JOIN_GAP.fullmatch(text, previous.end, item.start)
            and CALENDAR_DATE.search(text, item.start, item.end)  # not "Monday, Wednesday"
        ):
            out[-1] = replace(item, start=previous.start)
        else:
            out.append(item)
    return out


def local_now(reference: datetime) -> datetime:
    """Return ``reference`` as a naive datetime in its own zone (a naive one is UTC already)."""
    return reference.replace(tzinfo=None)


def scan(text: str, reference: datetime) -> list[Item]:
    """Return the date and clock expressions of ``text`` in order, local naive times."""
    zone = reference.tzinfo or UTC
    now = local_now(reference)
    dates: list[Item] = []
    pos = 0
    while (item := _next_date(text, pos, now, reference, zone)) is not None:
        dates.append(item)
        pos = item.end
    dates = _fold_weekdays(text, dates)
    clocks = find_clocks(text)
    used: set[int] = set()
    items: list[Item] = []
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
        items.append(Item(start, end, moment, None, "minute", joined))
    for i, c in enumerate(clocks):
        if i in used or any(d.start < c.end and c.start < d.end for d in dates):
            continue
        items.append(Item(c.start, c.end, at_clock(now.date(), c, None), None, "minute", c, not c.strong))
    return sorted(items, key=lambda i: i.start)
