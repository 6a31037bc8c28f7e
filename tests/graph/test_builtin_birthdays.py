"""Birthdays said by the day they fall on ("my mom's 70th is on Sunday", "Mateo turned 8 today",
下周二是我妈生日): the holder's month and day, a birth's whole date; nothing from a party, a gift, a
month, a lunar date, a day of the month alone or a denial (sentences written for these tests, read on
Wednesday 2024-03-13)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # an age turned or had on a day
    (
        "My son Mateo turned 8 today!! Lego cake and way too much sugar",
        "Rosa",
        {("Mateo", "BIRTHDAY", "03-13")},
        set(),
    ),
    (
        "my daughter Inès turned 6 yesterday, she wants to be a vet",
        "Chloe",
        {("Inès", "BIRTHDAY", "03-12")},
        set(),
    ),
    (
        "Grandpa is 94 today and still beats me at chess.",
        "Stefan",
        {("Stefan's grandpa", "BIRTHDAY", "03-13")},
        set(),
    ),
    (
        "My dad turns 70 on March 3rd, we're planning a surprise party",
        "Aisha",
        {("Aisha's dad", "BIRTHDAY", "03-03")},
        set(),
    ),
    # a bare weekday said in the present is the coming one
    (
        "my mom's 70th is on Sunday, so I'm flying home Friday",
        "Ruben",
        {("Ruben's mom", "BIRTHDAY", "03-17")},
        set(),
    ),
    (
        "my birthday is next Tuesday",
        "Ann",
        {("Ann", "BIRTHDAY", "03-19")},
        set(),
    ),  # a control: read so before
    # a pet's is the pet's, not the speaker's
    ("my cat Mochi turned 12 today", "Ann", {("Mochi", "BIRTHDAY", "03-13")}, {("Ann", "BIRTHDAY", "03-13")}),
    # a birth is dated whole
    (
        "She's here!!! Poppy was born Aug 9, 3.2kg, everyone is healthy",
        "Tom",
        {("Poppy", "BIRTHDAY", "2024-08-09")},
        set(),
    ),
    # Chinese: the day before or after the holder, a round age, the speaker's own
    ("下周二是我妈生日，打算带她去吃海底捞", "马超", {("马超的妈妈", "BIRTHDAY", "03-19")}, set()),
    ("周六我儿子生日，满六岁了，打算带他去海洋馆", "王磊", {("王磊的儿子", "BIRTHDAY", "03-16")}, set()),
    ("我爸昨天70大寿，在老家摆了十桌", "牛犇", {("牛犇的爸爸", "BIRTHDAY", "03-12")}, set()),
    ("我下周二生日，28岁了，时间过得好快", "田甜", {("田甜", "BIRTHDAY", "03-19")}, set()),
    # guards: a month, a lunar date, a party one goes to, a denial, a supposition, a day of the month alone
    ("我老婆下个月过生日，送啥好？", "林峰", set(), {("林峰的老婆", "BIRTHDAY", "04-01")}),
    ("我的生日是农历三月初八", "严伟", set(), {("严伟", "BIRTHDAY", "03-01"), ("严伟", "BIRTHDAY", "03-08")}),
    ("I was at Sam's birthday yesterday", "Ann", set(), {("Sam", "BIRTHDAY", "03-12")}),
    ("今天不是我生日", "Ann", set(), {("Ann", "BIRTHDAY", "03-13")}),
    ("if my birthday is on Friday we could go out", "Ann", set(), {("Ann", "BIRTHDAY", "03-15")}),
    (
        "Our twins turn 3 on the 9th. Party at ours at 2!",
        "Erik",
        set(),
        {("Erik's twins", "BIRTHDAY", "03-09")},
    ),
    ("我家猫今天满三岁了", "Ann", set(), {("Ann", "BIRTHDAY", "03-13")}),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_birthdays_by_their_day(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
