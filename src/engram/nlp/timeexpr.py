"""Find the time a query names ("last week", "in May 2023", "上周二", "去年三月") as a [start, end) range.

``find_time_range(text, reference)`` returns a ``TimeRange``: UTC ``start`` (inclusive) and
``end`` (exclusive), the matched ``text`` and its ``span`` in the query, and a ``granularity``.
Calendar arithmetic happens in the reference's own time zone (UTC when naive or UTC), so
"yesterday" is a calendar day and "last week" an ISO week (Monday to Sunday), and the
bounds are then converted to UTC.

How it works, and why not a library: a cheap regex first checks for time-ish words or
digits, so a query with none costs about a microsecond; then explicit English and Chinese
rules find every candidate and the leftmost, then longest, wins (so "上周二" beats "上周",
"May 2023" beats "May"). dateparser returns a point plus a period name, not a calendar range,
misses common Chinese expressions and is slower (docs/decisions.md §6).

Readings chosen where usage is ambiguous (tests/search/test_timeexpr.py pins each one):
- memory is about the past, so a date without a year, a bare month ("in May", "三月") or a
  bare weekday ("on Tuesday", "周二") is its most recent occurrence on or before today;
- "last Tuesday" is the most recent Tuesday before today and "next Tuesday" the first after
  it (as Duckling and dateparser read them); "上周二"/"下周二" are the Tuesday of the
  previous/next ISO week, as Chinese says; "Tuesday last week" is also read that way;
- "last week/month/year/quarter" is the previous calendar unit; "the last week", "the past
  week", "past 3 days", "最近三天", "近一个月" are rolling windows: the N units before today,
  plus today;
- "3 days ago"/"3天前" is that day; "2 weeks ago" that ISO week; "2 months ago" that month;
- "since X"/"X以来" runs from the start of X to the end of today;
- a month name needs a year, a day, or a leading "in/during/early/mid/late/last/this/next/
  of/from/since" to count, so "May I ask" and "March of the penguins" name no time; a bare
  year needs a leading preposition ("in 2022") or 年 ("2022年"), so "the 2023 budget" and
  order numbers name no time; plural weekdays ("on Tuesdays") are habits, not times;
- parts of the day: morning 05-12, afternoon 12-18, evening 18-24, night 18-06;
- known false positive: 周 is also a surname, so a name like 周一鸣 reads as "Monday".
Only the first expression is used ("yesterday or today" gives yesterday).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

__all__ = ["TimeRange", "find_time_range"]


@dataclass(frozen=True, slots=True)
class TimeRange:
    """A [start, end) UTC interval named in a query, and where in the query it was named."""

    start: datetime
    end: datetime
    text: str
    span: tuple[int, int]
    granularity: str  # part_of_day · day · weekend · week · month · quarter · year · span


_Period = tuple[datetime, datetime, str]
"""Local naive start, local naive end, granularity."""
_Handler = Callable[["re.Match[str]", date], "_Period | None"]

_MORNING, _EVENING, _NIGHT = (5, 12), (18, 24), (18, 30)
"""Parts of the day as [start hour, end hour); 30 is 06:00 the next day."""

# -- calendar helpers (all on local dates) ------------------------------------------------------


def _at(day: date, hour: int = 0) -> datetime:
    return datetime.combine(day, time()) + timedelta(hours=hour)


def _days(start: date, count: int, granularity: str) -> _Period:
    return _at(start), _at(start + timedelta(days=count)), granularity


def _day(day: date) -> _Period:
    return _days(day, 1, "day")


def _part(day: date, hours: tuple[int, int]) -> _Period:
    return _at(day, hours[0]), _at(day, hours[1]), "part_of_day"


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _week(day: date) -> _Period:
    return _days(_monday(day), 7, "week")


def _weekend(day: date) -> _Period:
    return _days(_monday(day) + timedelta(days=5), 2, "weekend")


def _shift_month(year: int, month: int, by: int) -> tuple[int, int]:
    index = year * 12 + month - 1 + by
    return index // 12, index % 12 + 1


def _month(year: int, month: int) -> _Period:
    next_year, next_month = _shift_month(year, month, 1)
    return _at(date(year, month, 1)), _at(date(next_year, next_month, 1)), "month"


def _quarter(year: int, quarter: int) -> _Period:
    start, _, _ = _month(year, 3 * quarter - 2)
    _, end, _ = _month(year, 3 * quarter)
    return start, end, "quarter"


def _year(year: int) -> _Period:
    return _at(date(year, 1, 1)), _at(date(year + 1, 1, 1)), "year"


def _recent_month(today: date, month: int, *, strictly: bool = False) -> int:
    """Return the year of the latest ``month`` on or before (strictly: before) today's month."""
    later = month > today.month or (strictly and month == today.month)
    return today.year - 1 if later else today.year


def _recent_day(today: date, month: int, day: int, year: int | None) -> _Period | None:
    try:
        if year is not None:
            return _day(date(year, month, day))
        candidate = date(today.year, month, day)
        return _day(candidate if candidate <= today else date(today.year - 1, month, day))
    except ValueError:  # 30 February, 31 April...
        return None


def _weekday(today: date, weekday: int, relation: str) -> date:
    """Return the ``weekday`` (0 = Monday) that ``relation`` (last · next · this · recent) names."""
    if relation == "last":
        return today - timedelta(days=(today.weekday() - weekday) % 7 or 7)
    if relation == "next":
        return today + timedelta(days=(weekday - today.weekday()) % 7 or 7)
    if relation == "this":
        return _monday(today) + timedelta(days=weekday)
    return today - timedelta(days=(today.weekday() - weekday) % 7)


def _unit(today: date, unit: str, offset: int) -> _Period:
    """Return the calendar ``unit`` (day · week · weekend · month · quarter · year) ``offset`` away."""
    if unit == "day":
        return _day(today + timedelta(days=offset))
    if unit in ("week", "weekend"):
        shifted = today + timedelta(weeks=offset)
        return _week(shifted) if unit == "week" else _weekend(shifted)
    if unit == "month":
        return _month(*_shift_month(today.year, today.month, offset))
    if unit == "quarter":
        index = today.year * 4 + (today.month - 1) // 3 + offset
        return _quarter(index // 4, index % 4 + 1)
    return _year(today.year + offset)


def _rolling(today: date, unit: str, count: int) -> _Period:
    """Return the ``count`` units before today plus today itself (a rolling window)."""
    if unit == "day":
        start = today - timedelta(days=count)
    elif unit == "week":
        start = today - timedelta(weeks=count)
    else:
        months = count * (12 if unit == "year" else 3 if unit == "quarter" else 1)
        year, month = _shift_month(today.year, today.month, -months)
        start = date(year, month, min(today.day, _month_length(year, month)))
    return _at(start), _at(today + timedelta(days=1)), "span"


def _month_length(year: int, month: int) -> int:
    start, end, _ = _month(year, month)
    return (end - start).days


# -- numbers ------------------------------------------------------------------------------------

_EN_NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve"
_EN_NUMBERS = {word: n for n, word in enumerate(_EN_NUMBER_WORDS.split())}
_EN_NUMBERS |= {"a": 1, "an": 1, "few": 3, "a few": 3, "couple of": 2, "a couple of": 2}
_EN_NUM = r"\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a\s+)?couple\s+of"
_CN_DIGITS = {char: n for n, char in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2}
_CN_NUM = r"\d{1,3}|[零〇一二两三四五六七八九十]{1,3}"


def _en_int(word: str) -> int:
    return int(word) if word.isdigit() else _EN_NUMBERS[" ".join(word.lower().split())]


def _cn_int(word: str) -> int | None:
    """Return the value of ``word``: ASCII digits, 三, 十二, 二十一, or digit by digit (二〇二三)."""
    if word.isdigit():
        return int(word)
    if "十" in word:
        tens, _, ones = word.partition("十")
        if len(tens) > 1 or len(ones) > 1 or not set(tens + ones) <= _CN_DIGITS.keys():
            return None
        return (_CN_DIGITS[tens] if tens else 1) * 10 + (_CN_DIGITS[ones] if ones else 0)
    if all(char in _CN_DIGITS for char in word):
        value = 0
        for char in word:
            value = value * 10 + _CN_DIGITS[char]
        return value
    return None


# -- English rules ------------------------------------------------------------------------------

_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
RECURRING = re.compile(
    r"每(?:周|星期|礼拜|天|年|月)|\b(?:every|weekly|monthly|(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b|"
    r"\b(?:first|second|third|fourth|last)\s(?:mon|tues|wednes|thurs|fri|satur|sun)day\s(?:of|in)\s(?:the|each)\smonth\b",
    re.I,
)
"""A recurring time ("every Friday", "on Tuesdays", weekly, "first Thursday of the month", 每周五): a series
or a condition, no one date."""
_MONTH_NAMES_EN = (
    "january jan|february feb|march mar|april apr|may|june jun|july jul|august aug"
    "|september sept sep|october oct|november nov|december dec"
)
MONTHS_EN = {name: n for n, names in enumerate(_MONTH_NAMES_EN.split("|"), start=1) for name in names.split()}
"""English month names and abbreviations → the month's number ("sept" → 9)."""
_MONTH_EN = "|".join(sorted(MONTHS_EN, key=len, reverse=True))
_PARTS_EN = {"morning": _MORNING, "afternoon": (12, 18), "evening": _EVENING, "night": _NIGHT}
_RELATIONS_EN = {"last": -1, "previous": -1, "past": -1, "this": 0, "next": 1, "coming": 1}
_MONTH_CONTEXT = re.compile(
    r"\b(in|during|early|mid|late|last|this|next|of|from|since)[\s-]+(?:the\s+)?$", re.I
)
_YEAR_CONTEXT = re.compile(
    r"\b(?:in|during|throughout|early|mid|late|since|year"
    r"|(?:end|start|beginning|middle|summer|winter|spring|autumn|fall)\s+of)[\s-]+$",
    re.I,
)


def _en_relative_day(m: re.Match[str], today: date) -> _Period | None:
    word, part = m["word"].lower(), (m["part"] or "").lower()
    offset = {"today": 0, "tonight": 0, "yesterday": -1, "tomorrow": 1}[word]
    if word == "tonight":
        part = "night"
    day = today + timedelta(days=offset)
    return _part(day, _PARTS_EN[part]) if part else _day(day)


def _en_two_days(m: re.Match[str], today: date) -> _Period | None:
    return _day(today + timedelta(days=-2 if m[1].lower().startswith("before") else 2))


def _en_this_part(m: re.Match[str], today: date) -> _Period | None:
    relation, part = m["rel"].lower(), m["part"].lower()
    if relation == "last":
        return _part(today - timedelta(days=1), _PARTS_EN[part]) if part in ("night", "evening") else None
    return _part(today, _PARTS_EN[part])


def _en_period(m: re.Match[str], today: date) -> _Period | None:
    relation, unit = m["rel"].lower(), m["unit"].lower()
    rolling = relation == "past" or (m["the"] is not None and relation == "last")
    if rolling and unit != "weekend":
        return _rolling(today, unit, 1)
    return _unit(today, unit, _RELATIONS_EN[relation])


def _en_before_last(m: re.Match[str], today: date) -> _Period | None:
    return _unit(today, m["unit"].lower(), -2)


def _en_weekday(m: re.Match[str], today: date) -> _Period | None:
    weekday = next(i for i, name in enumerate(_WEEKDAYS_EN) if name.startswith(m["wd"].lower()[:3]))
    if m["week"]:
        monday = _monday(today) + timedelta(weeks=_RELATIONS_EN[m["week"].lower()])
        return _day(monday + timedelta(days=weekday))
    relation = (m["rel"] or "").lower()
    relation = {"past": "last", "on": "recent", "": "recent", "coming": "next"}.get(relation, relation)
    return _day(_weekday(today, weekday, relation))


def _en_ago(m: re.Match[str], today: date) -> _Period | None:
    count, unit = _en_int(m["n"]), m["unit"].lower()
    if unit == "day":
        return _day(today - timedelta(days=count))
    return _unit(today, unit, -count)


def _en_rolling(m: re.Match[str], today: date) -> _Period | None:
    return _rolling(today, m["unit"].lower(), _en_int(m["n"]))


def _en_month(m: re.Match[str], today: date) -> _Period | None:
    """Month name with a day and/or year, or with a leading word that makes it a time."""
    name = m["month"].lower()
    month = MONTHS_EN[name]
    year = int(m["year"]) if m["year"] else None
    if m["day"]:
        return _recent_day(today, month, int(m["day"]), year)
    if year is not None:
        return _month(year, month)
    context = _MONTH_CONTEXT.search(m.string, 0, m.start())
    if context is None or (len(name) == 3 and name != "may"):
        return None
    relation = context[1].lower()
    if relation == "this":
        return _month(today.year, month)
    if relation == "next":
        later = month > today.month
        return _month(today.year if later else today.year + 1, month)
    return _month(_recent_month(today, month, strictly=relation == "last"), month)


def _en_day_month(m: re.Match[str], today: date) -> _Period | None:
    if m["month"].lower() == "may" and not (m["year"] or m["of"] or m["th"]):
        return None  # "5 may be" is not a date
    return _recent_day(
        today, MONTHS_EN[m["month"].lower()], int(m["day"]), int(m["year"]) if m["year"] else None
    )


def _en_year(m: re.Match[str], today: date) -> _Period | None:
    if _YEAR_CONTEXT.search(m.string, 0, m.start()) is None:
        return None
    return _year(int(m["year"]))


def _quarter_of(m: re.Match[str], today: date) -> _Period | None:
    year = _cn_int(m["year"])
    quarter = _cn_int(m["q"])
    if year is None or quarter is None or not 1 <= quarter <= 4:
        return None
    return _quarter(year, quarter)


def _iso_date(m: re.Match[str], today: date) -> _Period | None:
    year, month = int(m["year"]), int(m["month"])
    if not 1 <= month <= 12:
        return None
    if m["day"]:
        return _recent_day(today, month, int(m["day"]), year)
    return _month(year, month)


# -- Chinese rules ------------------------------------------------------------------------------

_CN_RELATIONS = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}
_CN_DAY_NAMES = "大前天 前天 昨天 昨日 今天 今日 明天 明日 后天 大后天"
_CN_DAY_WORDS = dict(zip(_CN_DAY_NAMES.split(), (-3, -2, -1, -1, 0, 0, 1, 1, 2, 3), strict=True))
_CN_DAY_PARTS = {"早上": _MORNING, "早晨": _MORNING, "上午": _MORNING, "中午": (11, 14), "下午": (12, 18)}
_CN_DAY_PARTS |= {"傍晚": (17, 20), "晚上": _EVENING, "夜里": _NIGHT}
_CN_SHORT_PARTS = {"今早": (0, _MORNING), "今晨": (0, _MORNING), "今晚": (0, _EVENING), "昨晚": (-1, _NIGHT)}
_CN_SHORT_PARTS |= {"昨夜": (-1, _NIGHT), "明早": (1, _MORNING), "明晚": (1, _EVENING)}
_CN_YEAR_WORDS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2}
_CN_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_CN_UNITS = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}


def _cn_day(m: re.Match[str], today: date) -> _Period | None:
    if m["short"]:
        offset, hours = _CN_SHORT_PARTS[m["short"]]
        return _part(today + timedelta(days=offset), hours)
    day = today + timedelta(days=_CN_DAY_WORDS[m["word"]])
    return _part(day, _CN_DAY_PARTS[m["part"]]) if m["part"] else _day(day)


def _cn_week(m: re.Match[str], today: date) -> _Period | None:
    relation, tail = m["rel"], m["wd"]
    if (relation is None and tail is None) or (tail is None and m["unit"] == "周" and m["next"]):
        return None  # 周报, or 周边 / 周期 / 周年 / 周转: not "this week"
    if tail == "末":
        return None if relation is None else _weekend(today + timedelta(weeks=_CN_RELATIONS[relation]))
    if tail is None:
        return _week(today + timedelta(weeks=_CN_RELATIONS[relation or "这"]))
    weekday = _CN_WEEKDAYS[tail] if tail in _CN_WEEKDAYS else int(tail) - 1
    if relation is None:
        return _day(_weekday(today, weekday, "recent"))
    monday = _monday(today) + timedelta(weeks=_CN_RELATIONS[relation])
    return _day(monday + timedelta(days=weekday))


def _cn_month_relative(m: re.Match[str], today: date) -> _Period | None:
    return _unit(today, "month", _CN_RELATIONS[m["rel"]])


def _cn_quarter_relative(m: re.Match[str], today: date) -> _Period | None:
    return _unit(today, "quarter", _CN_RELATIONS[m["rel"]])


def _cn_date(m: re.Match[str], today: date) -> _Period | None:
    """年 words or a numeric year, then optionally 月 and 日/号; or 月 (and 日) alone."""
    year: int | None
    groups = m.groupdict()
    if groups.get("yword"):
        year = today.year + _CN_YEAR_WORDS[groups["yword"]]
    elif groups.get("year"):
        year = _cn_int(groups["year"])
        if year is None or not 1900 <= year <= 2100:
            return None
    else:
        year = None
    if m["month"] and "两" in m["month"]:
        return None  # 两月 is "two months", not February
    month = _cn_int(m["month"]) if m["month"] else None
    day = _cn_int(m["day"]) if m["day"] else None
    if month is None:
        return _year(year) if year is not None else None
    if not 1 <= month <= 12:
        return None
    if day is not None:
        return _recent_day(today, month, day, year)
    return _month(year if year is not None else _recent_month(today, month), month)


def _cn_ago(m: re.Match[str], today: date) -> _Period | None:
    count, unit = _cn_int(m["n"]), _CN_UNITS[m["unit"]]
    if count is None:
        return None
    return _day(today - timedelta(days=count)) if unit == "day" else _unit(today, unit, -count)


def _cn_rolling(m: re.Match[str], today: date) -> _Period | None:
    count = _cn_int(m["n"])
    return None if count is None else _rolling(today, _CN_UNITS[m["unit"]], count)


# -- the rule table -----------------------------------------------------------------------------

TIMEISH = re.compile(
    r"\d|day|week|month|year|quarter|morning|afternoon|evening|night|ago|tomorrow"
    rf"|\b(?:{_MONTH_EN}|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b|[天日周期月年季晚早晨夜拜]",
    re.I,
)
"""Every rule needs one of these; a query without any costs one scan. Month names and weekdays'
abbreviations count as whole words, as the rules read them ("Martinez" and "Novak" name no month)."""

_CN_REL = r"(?P<rel>上上|上|这|本|下下|下)"
_CN_DATE_TAIL = rf"(?:(?P<month>{_CN_NUM})月份?(?:(?P<day>{_CN_NUM})[日号])?)"
_RULES: list[tuple[re.Pattern[str], _Handler]] = [
    (
        re.compile(
            rf"\b(?P<word>today|tonight|yesterday|tomorrow)(?:\s+(?P<part>{'|'.join(_PARTS_EN)}))?\b", re.I
        ),
        _en_relative_day,
    ),
    (re.compile(r"\b(?:the\s+)?day\s+(before\s+yesterday|after\s+tomorrow)\b", re.I), _en_two_days),
    (re.compile(r"\b(?P<rel>this|last)\s+(?P<part>morning|afternoon|evening|night)\b", re.I), _en_this_part),
    (
        re.compile(
            r"\b(?P<the>the\s+)?(?P<rel>last|previous|past|this|next|coming)\s+(?P<unit>week|weekend|month|year|quarter)\b",
            re.I,
        ),
        _en_period,
    ),
    (re.compile(r"\b(?:the\s+)?(?P<unit>week|month|year)\s+before\s+last\b", re.I), _en_before_last),
    (
        re.compile(
            rf"\b(?:(?P<rel>last|past|this|next|coming|on)\s+)?(?P<wd>{'|'.join(_WEEKDAYS_EN)})\b"
            r"(?:\s+(?P<week>last|this|next)\s+week\b)?",
            re.I,
        ),
        _en_weekday,
    ),
    (  # "next Wed 3pm", "on Thu": an abbreviation only after a word saying it is a day (not "sun", "wed")
        re.compile(
            r"\b(?P<rel>last|past|this|next|coming|on)\s+(?P<wd>mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)\b\.?"
            r"(?P<week>)",
            re.I,
        ),
        _en_weekday,
    ),
    (re.compile(rf"\b(?P<n>{_EN_NUM})\s+(?P<unit>day|week|month|year)s?\s+ago\b", re.I), _en_ago),
    (
        re.compile(
            rf"\b(?:the\s+)?(?:past|last|previous)\s+(?P<n>{_EN_NUM}|few)\s+(?P<unit>day|week|month|year)s\b",
            re.I,
        ),
        _en_rolling,
    ),
    (
        re.compile(
            rf"\b(?P<month>{_MONTH_EN})\b\.?(?:\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b)?"
            r"(?:,?\s+(?:of\s+)?(?P<year>(?:19|20)\d{2})\b)?",
            re.I,
        ),
        _en_month,
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?(?P<day>\d{{1,2}})(?P<th>st|nd|rd|th)?\s+(?P<of>of\s+)?(?P<month>{_MONTH_EN})\b\.?"
            r"(?:,?\s+(?P<year>(?:19|20)\d{2})\b)?",
            re.I,
        ),
        _en_day_month,
    ),
    (re.compile(r"\b(?P<year>(?:19|20)\d{2})\b(?![-/.]\d)", re.I), _en_year),
    (re.compile(r"\bQ(?P<q>[1-4])\s*(?:of\s+)?(?P<year>(?:19|20)\d{2})\b", re.I), _quarter_of),
    (re.compile(r"\b(?P<year>(?:19|20)\d{2})\s*-?\s*Q(?P<q>[1-4])\b", re.I), _quarter_of),
    (
        re.compile(
            r"(?<![A-Za-z0-9_/.-])(?P<year>(?:19|20)\d{2})[-/.](?P<month>\d{1,2})(?:[-/.](?P<day>\d{1,2}))?"
            r"(?![A-Za-z0-9_/-])(?!\.\d)"
        ),
        _iso_date,
    ),
    (
        re.compile(
            rf"(?P<word>{'|'.join(sorted(_CN_DAY_WORDS, key=len, reverse=True))})"
            rf"(?P<part>{'|'.join(_CN_DAY_PARTS)})?"
            rf"|(?P<short>{'|'.join(_CN_SHORT_PARTS)})"
        ),
        _cn_day,
    ),
    (
        re.compile(
            rf"{_CN_REL}?个?(?P<unit>周|星期|礼拜)(?:(?P<wd>[一二三四五六日天1-7末])|(?P<next>[边围期年到转刊长全]))?"
        ),
        _cn_week,
    ),
    (re.compile(rf"{_CN_REL}个?月(?!球|饼|亮|光)"), _cn_month_relative),
    (re.compile(rf"{_CN_REL}个?季度"), _cn_quarter_relative),
    (
        re.compile(r"(?P<year>\d{4}|[〇零一二三四五六七八九]{4})年?第?(?P<q>[一二三四1-4])季度"),
        _quarter_of,
    ),
    (
        re.compile(
            rf"(?:(?P<yword>{'|'.join(sorted(_CN_YEAR_WORDS, key=len, reverse=True))})"
            rf"|(?P<year>\d{{4}}|[〇零一二三四五六七八九]{{4}})年){_CN_DATE_TAIL}?"
        ),
        _cn_date,
    ),
    (re.compile(rf"(?<![\d零〇一二两三四五六七八九十个几每]){_CN_DATE_TAIL}"), _cn_date),
    (re.compile(rf"(?<!\d)(?P<n>{_CN_NUM})(?:个)?(?P<unit>天|日|周|星期|礼拜|年)(?:以前|之前|前)"), _cn_ago),
    (re.compile(rf"(?<!\d)(?P<n>{_CN_NUM})个(?P<unit>月)(?:以前|之前|前)"), _cn_ago),
    (re.compile(rf"(?:最近|过去|近)的?(?P<n>{_CN_NUM})个?(?P<unit>天|日|周|星期|礼拜|月|年)"), _cn_rolling),
]
_LEAD = re.compile(
    r"(?:\b(?:in|during|throughout|on|since|from|of|early|mid|late|last|this|next|the|year"
    r"|end|start|beginning|middle)[\s-]+)+$",
    re.I,
)
"""Words before a match that belong to the expression ("in", "early", "last" May)."""
_SINCE = re.compile(r"\bsince\b", re.I)
_SINCE_AFTER = re.compile(r"\s*(?:以来|至今)")


def _to_utc(local: datetime, zone: tzinfo) -> datetime:
    return local.replace(tzinfo=zone).astimezone(UTC)


_LOOKALIKES = str.maketrans({"\u017f": "s", "\u0131": "i", "\u212a": "k"})
"""Letters a case-insensitive pattern matches as s, i and k (long s, dotless i, the Kelvin sign)
though no table has them: read as those letters. One character each, so offsets stay."""


def fold_lookalikes(text: str) -> str:
    """Return ``text`` with the letters ``re.I`` reads as ASCII ones replaced by them ("yeſterday")."""
    return text.translate(_LOOKALIKES)


def find_time_range(text: str, reference: datetime) -> TimeRange | None:
    """Return the [start, end) UTC range the first time expression in ``text`` names, or None.

    ``reference`` is "now" for relative expressions; a naive one is read as UTC, an aware
    one fixes the time zone that days start in. Cost: ~1 µs without time-ish words,
    20-60 µs with them (see the module docstring for the readings chosen).
    """
    if not TIMEISH.search(text):
        return None
    text = fold_lookalikes(text)
    zone = reference.tzinfo or UTC
    today = (reference if reference.tzinfo else reference.replace(tzinfo=UTC)).astimezone(zone).date()
    best: tuple[re.Match[str], _Period] | None = None
    for pattern, handler in _RULES:
        for match in pattern.finditer(text):
            if best is not None and (match.start(), -match.end()) >= (best[0].start(), -best[0].end()):
                continue
            try:
                period = handler(match, today)
            except (ValueError, OverflowError):  # the reading falls before year 1 or after 9999
                period = None
            if period is not None:
                best = (match, period)
    if best is None:
        return None
    match, (start, end, granularity) = best
    first, last = match.start(), match.end()
    lead = _LEAD.search(text, 0, first)
    first = lead.start() if lead else first
    after = _SINCE_AFTER.match(text, last)
    try:
        if after or _SINCE.search(text, first, match.start()):
            last = after.end() if after else last
            end, granularity = max(end, _at(today + timedelta(days=1))), "span"
        return TimeRange(
            start=_to_utc(start, zone),
            end=_to_utc(end, zone),
            text=text[first:last],
            span=(first, last),
            granularity=granularity,
        )
    except (ValueError, OverflowError):  # at the calendar's edge (year 9999 or 1): no reading
        return None
