"""Numbers and clock times in English and Chinese, for the date resolver (``engram.nlp.dates``).

``find_clocks(text)`` returns the clock times a text names, left to right, never overlapping:
3pm, 3:30 p.m., 15:00, "at 9", noon, 下午3点, 晚上八点, 上午10点半, 三点一刻, 15时30分. A bare
clock (no am/pm, minutes, o'clock or part of the day) is ``strong=False``: it counts only
beside a day. ``at_clock(day, clock, part)`` is the moment it names on that day.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from engram.nlp.amounts import cn_to_int


@dataclass(frozen=True, slots=True)
class Clock:
    """A clock time found at ``text[start:end]``; ``strong`` when it reads as a time on its own."""

    start: int
    end: int
    hour: int
    minute: int
    part: str | None  # am · early · morning · noon · pm · night; None when not said
    strong: bool


# -- numbers ------------------------------------------------------------------------------------

_EN_WORDS: tuple[str, ...] = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight")
_EN_WORDS += ("nine", "ten", "eleven", "twelve")
_EN_NUMBERS = {word: n for n, word in enumerate(_EN_WORDS)} | {"a": 1, "an": 1, "a couple of": 2}
EN_NUM = r"\d{1,3}|an?|a\s+couple\s+of|" + "|".join(_EN_WORDS[1:])
CN_NUM = r"\d{1,3}|[零〇一二两三四五六七八九十]{1,3}"
_CN_UNDER_100 = re.compile(r"[零〇一二两三四五六七八九]|[一二两三四五六七八九]?十[零〇一二两三四五六七八九]?")


def number(word: str) -> int | None:
    """Return the value of 12, "twelve", "a couple of", 三, 十二, 二十五; None otherwise."""
    word = " ".join(word.lower().split())
    if word.isdigit():
        return int(word)
    if word in _EN_NUMBERS:
        return _EN_NUMBERS[word]
    return cn_to_int(word) if _CN_UNDER_100.fullmatch(word) else None


# -- clock times --------------------------------------------------------------------------------

_EN_PART_AFTER = re.compile(r"\s+(?:in\s+the\s+(morning|afternoon|evening)|at\s+(night))\b", re.I)
_CLOCK_START = r"(?:\bat\s+)?(?<![\d:.a-zA-Z])(?P<h>\d{1,2})"
"""Not ``\b``: "会议15:00" and "3pm开会" have no word boundary around the digits."""
_EN_CLOCKS: list[tuple[re.Pattern[str], bool]] = [
    (re.compile(rf"{_CLOCK_START}(?:[:.](?P<m>[0-5]\d))?\s*(?P<ampm>[ap])\.?m(?![a-z])\.?", re.I), True),
    (re.compile(rf"{_CLOCK_START}:(?P<m>[0-5]\d)(?!\d|[.,]\d)", re.I), True),
    (re.compile(rf"\b(?:at\s+)?(?P<h>\d{{1,2}}|{'|'.join(_EN_WORDS[1:])})\s+o['’]?clock\b", re.I), True),
    (re.compile(r"\b(?:at\s+)?(?P<word>noon|midday|midnight)\b", re.I), True),
    (re.compile(r"\bat\s+(?P<h>\d{1,2})\b(?![:.,]?\d|\s*%)", re.I), False),
]
_CN_PARTS = {"凌晨": "early", "半夜": "early", "清晨": "morning", "早上": "morning", "早晨": "morning"}
_CN_PARTS |= {"上午": "morning", "中午": "noon", "午后": "pm", "下午": "pm", "傍晚": "pm"}
_CN_PARTS |= {"晚上": "night", "晚间": "night", "夜里": "night", "夜间": "night"}
_CN_CLOCK = re.compile(
    rf"(?P<part>{'|'.join(_CN_PARTS)})?(?<![\d零一二两三四五六七八九十第差])"
    r"(?P<h>\d{1,2}|[零一二两三四五六七八九十]{1,3})(?:点|點|时)(?!钟头|半天)"
    r"(?:(?P<half>半)|(?P<q>[一三])刻|(?P<m>\d{1,2}|[零一二三四五六七八九十]{1,3})(?P<fen>分)?|(?P<zhong>钟|"
    r"整))?"
)
_CN_NOT_CLOCK = frozenset("也都点儿不没的吧了些")
"""After a bare 一点 / 三点: "一点也不", "好一点了" are not times."""


def _en_clock(m: re.Match[str], strong: bool, text: str) -> Clock | None:
    groups = m.groupdict()
    end, part = m.end(), None
    if groups.get("word"):
        return Clock(m.start(), end, 0 if groups["word"].lower() == "midnight" else 12, 0, None, True)
    hour = number(m["h"])
    minute = int(groups["m"]) if groups.get("m") else 0
    if groups.get("ampm"):
        part = "am" if groups["ampm"].lower() == "a" else "pm"
        if hour is None or not 1 <= hour <= 12:
            return None
    after = _EN_PART_AFTER.match(text, end)
    if after and part is None:
        part, end = ("night" if after[2] else "pm" if after[1] != "morning" else "morning"), after.end()
    if hour is None or hour > 24 or (part is None and "m" not in groups and hour > 12):
        return None
    return Clock(m.start(), end, hour, minute, part, strong or after is not None)


def _cn_clock(m: re.Match[str], text: str) -> Clock | None:
    hour = number(m["h"])
    minute = 30 if m["half"] else 15 if m["q"] == "一" else 45 if m["q"] == "三" else 0
    if m["m"]:
        minute = number(m["m"]) or 0
    if hour is None or hour > 24 or minute > 59:
        return None
    strong = bool(m["part"] or m["half"] or m["q"] or m["fen"] or m["zhong"] or (m["m"] and len(m["m"]) == 2))
    if not strong and m.end() < len(text) and text[m.end()] in _CN_NOT_CLOCK:
        return None
    return Clock(m.start(), m.end(), hour, minute, _CN_PARTS.get(m["part"] or ""), strong)


def find_clocks(text: str) -> list[Clock]:
    """Return the clock times in ``text``, left to right; of overlapping readings the longest."""
    found: list[Clock] = []
    for pattern, strong in _EN_CLOCKS:
        found += [c for m in pattern.finditer(text) if (c := _en_clock(m, strong, text))]
    found += [c for m in _CN_CLOCK.finditer(text) if (c := _cn_clock(m, text))]
    found.sort(key=lambda c: (c.start, -c.end, not c.strong))
    kept: list[Clock] = []
    for clock in found:
        if not kept or clock.start >= kept[-1].end:
            kept.append(clock)
    return kept


def part_of(first: datetime, granularity: str) -> str | None:
    """Return the part of the day a part_of_day period starts in (timeexpr: 5, 11, 12, 17, 18)."""
    if granularity != "part_of_day":
        return None
    return {0: "morning", 5: "morning", 11: "noon", 12: "pm", 17: "pm"}.get(first.hour, "night")


def at_clock(day: date, clock: Clock, part: str | None) -> datetime:
    """Return the moment ``clock`` names on ``day``; the part of the day picks a.m. or p.m."""
    hour, later = clock.hour, 0
    part = clock.part or part
    if part in ("am", "early") and hour == 12:
        hour = 0
    elif (part == "pm" and hour < 12) or (part == "noon" and hour <= 5):
        hour += 12
    elif part == "night":
        if hour <= 5 or hour == 12:
            hour, later = hour % 12, 1
        elif hour < 12:
            hour += 12
    if hour == 24:
        hour, later = 0, 1
    return datetime.combine(day, time(hour, clock.minute)) + timedelta(days=later)
