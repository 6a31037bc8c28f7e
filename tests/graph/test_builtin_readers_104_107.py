"""The wrong facts the hundred-and-fourth to hundred-and-seventh fresh readers judged, read as classes
(sentences written for these tests, never theirs)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A place that begins an institution's name is nobody's home, trip or origin.
    (
        "我现在在上海交大读研，方向是控制",
        "王芳",
        set(),
        {("王芳", "LIVES_IN", "上海"), ("王芳", "STUDIES_AT", "上海")},
    ),
    ("儿子摇号去了朝阳实验二小，松了口气", "王芳", set(), {("王芳的儿子", "VISITED", "朝阳")}),
    ("“价格还是太高了。” —— 来自杭州西湖酒店的沈总。", "王芳", set(), {("王芳", "COMES_FROM", "杭州")}),
    ("我住在杭州", "王芳", {("王芳", "LIVES_IN", "杭州")}, set()),  # a control
    # Some of a count come from somewhere; a kind of city is no home.
    ("Nova 2.0首周收到40个询盘，其中15个来自华东。", "王芳", set(), {("Nova", "COMES_FROM", "华东")}),
    ("新规：出差住宿一线城市650/晚，其他城市420/晚。", "王芳", set(), {("王芳", "LIVES_IN", "城市")}),
    # Refusing to give up, being able to have a pet at last: neither given up nor had.
    ("我爸血压高，又不肯戒烟", "王芳", set(), {("王芳的爸爸", "STOPPED_USING", "烟")}),
    ("搬家了，换了个大房子，终于可以再养狗了", "王芳", set(), {("王芳", "HAS_PET", "狗")}),
    # A platform quit is no job left; a band gone to see is no place; a trip not taken (a pet lost: see
    # test_builtin_pets_gone.py).
    (
        "I quit Facebook for good. Deleted the account.",
        "Ann",
        {("Ann", "STOPPED_USING", "Facebook")},
        {("Ann", "LEFT_ORGANISATION", "Facebook")},
    ),
    (
        "Went to see Khruangbin last night in Bristol, unreal",
        "Ann",
        set(),
        {("Ann", "VISITED", "Khruangbin")},
    ),
    (
        "we went to see Kraków's old town on the weekend",
        "Ann",
        {("Ann", "VISITED", "Kraków")},
        set(),
    ),  # a control
    (
        "we didn't end up going to Sicily, flights were too expensive",
        "Ann",
        set(),
        {("Ann", "PLANS_TO_VISIT", "Sicily")},
    ),
    # A pupil's primary school is attended; an age turned on a weekday told in the past is the last one.
    (
        "My son started at St. Brigid's primary. He loves it.",
        "Ann",
        set(),
        {("Ann's son", "WORKS_AT", "St. Brigid")},
    ),
    (
        "my grandad turned 90 on Saturday! still drives",
        "Ann",
        {("Ann's grandad", "BIRTHDAY", "03-09")},
        set(),
    ),
    # "X is my best friend" said of a thing is a figure of speech; a support ticket is nobody's customer.
    (
        "I'm allergic to dogs but we got one anyway. Cetirizine is my best friend",
        "Ann",
        set(),
        {("Ann's friend", "FRIEND_OF", "Ann")},
    ),
    (
        "Support ticket #6120: Norvale Foods is being charged twice since March.",
        "Ann",
        set(),
        {("Support", "HAS_ISSUE", "Norvale Foods is being charged twice since March")},
    ),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_readers_104_107(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


LAST_ROUND: list[Case] = [
    # (readers 108-111) a count under negotiation is no order; a promotion with its subject in the sentence
    # before is not the writer's.
    (
        "Deal update: Varden Retail — negotiating 150 units of the R2 reader at $95/unit.",
        "Ann",
        set(),
        {("Varden Retail", "ORDERED", "R2 reader")},
    ),
    ("邹雨升职了！从高级工程师升到技术经理，下个月生效", "廖凯", set(), {("廖凯", "HAS_ROLE", "技术经理")}),
    # and their misses read: a question after an allergy asks nothing of it; a news heading opens the writer's
    # own line; pets named by their breed are the writer's, never one another's.
    (
        "I'm allergic to walnuts btw so maybe not the bakery?",
        "Ann",
        {("Ann", "ALLERGIC_TO", "walnuts")},
        set(),
    ),
    (
        "big news: starting at Halden Bank on Monday as a risk analyst",
        "Ann",
        {("Ann", "WORKS_AT", "Halden Bank")},
        set(),
    ),
    (
        "我家有两只猫，一只英短一只美短，英短叫芝麻，美短叫汤圆。",
        "王芳",
        {("王芳", "HAS_PET", "芝麻"), ("王芳", "HAS_PET", "汤圆")},
        {("芝麻", "HAS_PET", "汤圆")},
    ),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), LAST_ROUND)
def test_readers_108_111(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
