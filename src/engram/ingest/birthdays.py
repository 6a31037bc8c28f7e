"""Birthdays said by the day they fall on: "my mom's 70th is on Sunday", "Mateo turned 8 today", "my
nephew Oscar is 5 today", "Poppy was born Aug 9", 下周二是我妈生日, 周六我儿子生日，满六岁了, 我爸昨天70大寿.

A cue (a birthday, a round age, an age turned, a birth) and a date naming one day in its clause give
the birthday of the one whose cue it is: the person, relative or pet named last before it in the clause
(in the sentence for a birth: "Mina, born Oct 16"), else the speaker when the cue is theirs (my, 我).
A birthday is the month and day (``MM-DD``), a birth the whole date. A day of the month alone ("turn 3
on the 9th") names no month; a week or a month (下个月过生日) names no day; a party, a gift or a wish
(birthday party, 生日礼物, 生日快乐) is no birthday's day; a supposition or a denial states none (nor a
question: the caller reads none).
"""

from __future__ import annotations

import re
from datetime import timedelta

from engram.ingest.frames import supposed
from engram.ingest.reading import Message, Sentence
from engram.models.graph import FactIn
from engram.nlp.dates import scoped_dates
from engram.nlp.tense import is_past

_CUE = {
    "en": re.compile(
        r"\b(?:birthday|bday|b-day)\b(?!\s+(?:gift|present|cake|party|card|wish|wishes|dinner|plans?|list|"
        r"shopping|drinks)\b)|(?<='s\s)\d{1,3}(?:st|nd|rd|th)\b|\bturn(?:s|ed|ing)?\s\d{1,3}\b|"
        r"\b(?:is|'s)\s\d{1,3}\s(?=today\b)|(?P<born>\bborn\b)",
        re.I,
    ),
    "zh": re.compile(
        r"(?:生日|大寿)(?!礼物|蛋糕|派对|会|聚会|快乐|卡|祝福|愿望|惊喜|券|歌)|满(?:\d{1,3}|[一二两三四五六七八九十]{1,3})(?:周?岁|月)|"
        r"(?P<born>出生|出世)"
    ),
}
_NOT_SAID = {
    "en": re.compile(
        r"\b(?:not|isn't|wasn't|to|at|for|from|after|before|since|until|till)\s+(?:\S+\s+){0,2}$", re.I
    ),
    "zh": re.compile(r"(?:不是|没|参加|去了?)[^，。]{0,6}$"),
}
"""Before the holder, what makes the cue no birthday of theirs: "not my birthday", "at Sam's birthday"."""
_MY = {
    "en": re.compile(r"(?:\bmy|\bI(?:'m|\sam|\swas|'ll\sbe|\sjust)?)\s*$", re.I),
    "zh": re.compile(r"我的?\s*$"),
}
"""The cue is the speaker's: what precedes it in its clause, the date's words taken out, ends in my / I /
我 (my birthday, I turned 30, 下周二是我生日, 我下周二生日), not "my cat" (a pet's is the pet's)."""
_LUNAR = re.compile(r"农历|阴历|腊月|正月|初[一二三四五六七八九十]")
"""A lunar date (农历九月初九) is no day of the solar calendar the date reader knows."""
_DAY_OF_MONTH_ONLY = re.compile(r"^(?:on\s+)?(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?$|^\d{1,2}[号日]$", re.I)
_DAY = frozenset({"day", "minute", "part_of_day"})
_TURNED = re.compile(r"\bturned\b", re.I)
_BARE_WEEKDAY = re.compile(
    r"^(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day$|^(?:周|星期|礼拜)[一二三四五六日天]$", re.I
)
"""A weekday said without "next" or "last" (on Sunday, 周六): the coming one unless told in the past, then
the last one."""


def add_birthdays(reading: Sentence, message: Message) -> None:
    """Add the birthdays ``reading`` states by their day (see the module's docstring)."""
    if message.at is None:
        return
    sentence = reading.text
    for cue in _CUE[reading.lang].finditer(sentence):
        clause = reading.clause_of(cue.start())
        if supposed(sentence, reading.clauses, cue.start(), reading.lang):
            continue
        found = scoped_dates(sentence, message.at, position=cue.start())
        if (
            found is None
            or found.start is None
            or found.kind not in ("period", "point")
            or found.granularity not in _DAY
            or not clause[0] <= found.span[0] < clause[1]
            or _DAY_OF_MONTH_ONLY.match(found.text.strip())
            or _LUNAR.search(sentence, *clause)
        ):
            continue
        born = cue.group("born") is not None
        holder = _holder(reading, message, 0 if born else clause[0], cue.start(), found.span)
        if holder is None:
            continue
        day = found.start.date()
        if _BARE_WEEKDAY.match(found.text.strip()):
            past = is_past(sentence[clause[0] : clause[1]], reading.lang) or _TURNED.search(cue.group())
            if day < message.at.date() and not past:
                day += timedelta(days=7)  # "my mom's 70th is on Sunday", 周六我儿子生日: the coming one
            elif day > message.at.date() and past:
                day -= timedelta(days=7)  # "my grandma turned 95 on Saturday": the last one
        message.add_fact(
            FactIn(
                subject=holder,
                predicate="BIRTHDAY",
                value=day.isoformat() if born else f"{day.month:02d}-{day.day:02d}",
                fact=sentence[:2000],
                confidence=0.8,
                source_kind="stated",
            )
        )


def _holder(reading: Sentence, message: Message, start: int, cue: int, date: tuple[int, int]) -> str | None:
    """Return whose birthday the cue at ``cue`` is: the last person, relative or pet named between the
    clause's ``start`` and the cue (the date's words skipped), else the speaker when the words before
    the cue are theirs (``_MY``); None when it is said not to be, or of an event they go to."""
    people = [
        m
        for m in reading.mentions
        if m.type in ("person", "animal")
        and start <= m.start
        and m.end <= cue
        and not date[0] <= m.start < date[1]
    ]
    before = reading.text[start : people[-1].start if people else cue]
    if _NOT_SAID[reading.lang].search(before):
        return None
    if people:
        return people[-1].name
    actor = message.speaker.actor
    said = reading.text[start:cue]
    if start <= date[0] and date[1] <= cue:  # 我下周二生日: 我 just before the cue once the date is out
        said = reading.text[start : date[0]] + reading.text[date[1] : cue]
    return actor if actor and _MY[reading.lang].search(said) else None
