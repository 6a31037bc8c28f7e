"""Ages said as people say them: bare ("she's 2 and a bit shy", 三岁了), on the day ("is 7 today",
今天满三岁了), ahead ("turns 70 next Saturday", 下个月满两岁, 六十大寿), of a pet named before ("her name is
Miso", 我的狗叫可乐，柯基，两岁); not a duration, a difference or someone else's (sentences written for
these tests)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from test_builtin_clauses import Triple, read, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "ok confession: im 41 btw, not 39 like my profile says",
        "Ann",
        {("Ann", "AGE", 41)},
        {("Ann", "AGE", 39)},
    ),
    ("My daughter Linnea is 6 and already reads chapter books.", "Ann", {("Linnea", "AGE", 6)}, set()),
    ("my nephew Tobias is 9 today!", "Ann", {("Tobias", "AGE", 9)}, set()),
    ("Grandpa is 88 today, still gardening every morning.", "Ann", {("Ann's grandpa", "AGE", 88)}, set()),
    (
        "Our neighbour's kid, Emma, walks our dog. She's 15 and very reliable.",
        "Ann",
        {("Emma", "AGE", 15)},
        set(),
    ),
    (
        "we got a kitten! her name is Nutmeg, she's 1 and into everything",
        "Ann",
        {("Nutmeg", "AGE", 1)},
        set(),
    ),
    ("my mum turns 75 next Sunday, we're booking a table", "Ann", {("Ann's mum", "AGE", 75)}, set()),
    # not an age: a time, a score, a count said of a team
    ("he's 5 minutes away, start without him", "Ann", set(), {("Ann", "AGE", 5)}),
    ("Ann said the score is 3.", "Bo", set(), {("Ann", "AGE", 3)}),
    ("我家猫咪叫芋圆，四岁了，天天睡觉", "王芳", {("芋圆", "AGE", 4)}, set()),
    ("我的狗叫豆包，柯基，三岁，特别能吃", "王芳", {("豆包", "AGE", 3)}, {("柯基", "AGE", 3)}),
    ("我闺女今天满五岁了🎂", "王芳", {("王芳的女儿", "AGE", 5)}, set()),
    ("我爸下个月七十大寿，我们在老家摆几桌。", "王芳", {("王芳的爸爸", "AGE", 70)}, set()),
    ("我老伴今年六十八了，身体还硬朗。", "王芳", {("王芳的老伴", "AGE", 68)}, {("王芳", "AGE", 68)}),
    # a difference, someone's age as an adjective, two children counted, a half year: none read wrongly
    ("他比我大三岁。", "王芳", set(), {("王芳", "AGE", 3)}),
    ("三岁的孩子都知道要排队。", "王芳", set(), {("王芳", "AGE", 3)}),
    ("我两个女儿，一个9岁一个6岁。", "王芳", set(), {("王芳", "AGE", 6), ("王芳", "AGE", 9)}),
    ("医生说它大概一岁半。", "王芳", set(), {("王芳", "AGE", 1)}),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_ages(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


@pytest.mark.parametrize(
    ("sentence", "valid_at"),
    [
        ("Saoirse turns 6 on Saturday, party at the trampoline park.", datetime(2024, 3, 16, tzinfo=UTC)),
        ("My grandma is turning 90 on November 2!", datetime(2024, 11, 2, tzinfo=UTC)),
    ],
)
def test_an_age_turned_ahead_is_dated_on_the_birthday(
    extractor: BuiltinExtractor, sentence: str, valid_at: datetime
) -> None:
    """A birthday ahead ("turns 6 on Saturday", said on Wednesday 13 March) dates the age on its day, not
    on the Saturday before."""
    facts = read(extractor, sentence).facts
    ages = [(fact.valid_at.date() if fact.valid_at else None) for fact in facts if fact.predicate == "AGE"]
    assert ages == [valid_at.date()]
