"""Where people live, read from the shapes chat says it in: a relative placed by their town, how long one has
been somewhere, a home rented or found, a move given up, a marriage that moves one (sentences written for
these tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_builtin_clauses import Case, Triple, reads, remembered

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A relative placed by their town lives there; not a trip, not where one met them, not an in-law.
    ("my aunt in Lisbon turns 70 next week", "Ann", {("Ann's aunt", "LIVES_IN", "Lisbon")}, set()),
    (
        "Called my mum in Dundee, she's fine",
        "Ann",
        {("Ann's mum", "LIVES_IN", "Dundee")},
        {("Ann", "LIVES_IN", "Dundee")},
    ),
    (
        "Flying out to visit my cousin in Porto next month",
        "Ann",
        {("Ann's cousin", "LIVES_IN", "Porto")},
        set(),
    ),
    (
        "I met my wife in Paris in 2015",
        "Ann",
        set(),
        {("Ann's wife", "LIVES_IN", "Paris"), ("Ann", "LIVES_IN", "Paris")},
    ),
    ("my brother in Rome for the weekend, lucky him", "Ann", set(), {("Ann's brother", "LIVES_IN", "Rome")}),
    ("my brother in law is coming over tonight", "Ann", set(), {("Ann's brother", "LIVES_IN", "law")}),
    # How long one has been somewhere, a home rented, found or new, where one is now after growing up
    # elsewhere.
    ("We've been in Denver 5 years now", "Ann", {("Ann", "LIVES_IN", "Denver")}, set()),
    ("I'm from Kraków originally but been in Oslo six years", "Ann", {("Ann", "LIVES_IN", "Oslo")}, set()),
    ("we're renting in Bristol now, the mortgage can wait", "Ann", {("Ann", "LIVES_IN", "Bristol")}, set()),
    ("We're renting in Lisbon for two weeks in May", "Ann", set(), {("Ann", "LIVES_IN", "Lisbon")}),
    ("New flat in Valencia, right by the beach!", "Ann", {("Ann", "LIVES_IN", "Valencia")}, set()),
    ("so we're looking for a new place in Leeds", "Ann", set(), {("Ann", "LIVES_IN", "Leeds")}),
    ("Found a room in Ghent, 450 a month", "Ann", {("Ann", "LIVES_IN", "Ghent")}, set()),
    (
        "I moved in with my boyfriend Theo last week, his place in Shoreditch",
        "Ann",
        {("Ann", "LIVES_IN", "Shoreditch")},
        set(),
    ),
    (
        "Born in Leeds, grew up in Hull, now in Glasgow",
        "Ann",
        {("Ann", "COMES_FROM", "Leeds"), ("Ann", "COMES_FROM", "Hull"), ("Ann", "LIVES_IN", "Glasgow")},
        set(),
    ),
    ("Born in March, our little one is already crawling", "Ann", set(), {("Ann", "COMES_FROM", "March")}),
    (
        "Born and raised in Marseille, now in Lyon",
        "Ann",
        {("Ann", "COMES_FROM", "Marseille"), ("Ann", "LIVES_IN", "Lyon")},
        set(),
    ),
    # A move given up keeps the home; a short stay is no home.
    (
        "staying in Austin after all, the Boston offer fell through",
        "Ann",
        {("Ann", "LIVES_IN", "Austin")},
        set(),
    ),
    (
        "we won't move after all, staying in Leeds, the kids love it",
        "Ann",
        {("Ann", "LIVES_IN", "Leeds")},
        set(),
    ),
    ("I'm staying in Rome for three nights", "Ann", set(), {("Ann", "LIVES_IN", "Rome")}),
    # Chinese: a relative's town (not a hospital, a business trip, where one works), how long one has been
    # somewhere, a marriage that moves one.
    ("我哥在成都，在一家游戏公司做策划", "王芳", {("王芳的哥哥", "LIVES_IN", "成都")}, set()),
    ("我表妹在英国留学，读的是金融", "王芳", {("王芳的表妹", "LIVES_IN", "英国")}, set()),
    ("我姐在上海出差，下周回来", "王芳", set(), {("王芳的姐姐", "LIVES_IN", "上海")}),
    ("我妈在医院，我爸在家陪她", "王芳", set(), {("王芳的妈妈", "LIVES_IN", "医院")}),
    ("我老公在望京上班，离家挺远", "王芳", set(), {("王芳的老公", "LIVES_IN", "望京")}),
    (
        "我是山西人，来杭州七年了",
        "王芳",
        {("王芳", "LIVES_IN", "杭州"), ("王芳", "COMES_FROM", "山西")},
        set(),
    ),
    ("老家是辽宁的，在苏州待了快六年了", "王芳", {("王芳", "LIVES_IN", "苏州")}, set()),
    ("我妹妹去年嫁到了青岛，我们都舍不得", "王芳", {("王芳的妹妹", "LIVES_IN", "青岛")}, set()),
    ("我初中同学阿玲下个月结婚，嫁到了无锡", "王芳", set(), {("王芳", "LIVES_IN", "无锡")}),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_homes(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


def test_a_relatives_town_is_remembered_as_their_home(tmp_path: Path) -> None:
    """Through Memory: "my aunt in Lisbon" is the aunt's current home, kept apart from the writer's."""
    facts = remembered(
        tmp_path,
        [
            ("I live in Leeds", "2024-03-01T09:00:00Z"),
            ("my aunt in Lisbon turns 70 next week", "2024-03-04T09:00:00Z"),
        ],
        "Ann",
    )
    homes = {(hit.subject_name, hit.object_name) for hit in facts if hit.fact.predicate == "LIVES_IN"}
    assert ("Ann's aunt", "Lisbon") in homes
    assert ("Ann", "Leeds") in homes
