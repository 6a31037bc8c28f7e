"""The wrong facts the ninety-sixth to ninety-ninth fresh readers judged, read as classes (sentences
written for these tests, never theirs)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # An age after a pet's breed is the pet's, never the writer's; a grandmother called abuela is one.
    ("Pickle (our corgi) turned 7 today!", "Ann", set(), {("Ann", "AGE", 7)}),
    (
        "My abuela turned 91 while we were visiting",
        "Ann",
        {("Ann's abuela", "AGE", 91)},
        {("Ann", "AGE", 91)},
    ),
    # A dash or "while" after a verb is no object; a job offer is no possession.
    (
        "Planning call with Orbis Health is cancelled — their COO is travelling.",
        "Ann",
        set(),
        {("Orbis Health", "CANCELLED", "— their COO")},
    ),
    (
        "Halden Labs signed while I was on leave, 30 seats.",
        "Ann",
        set(),
        {("Halden Labs", "SIGNED", "while")},
    ),
    ("Just got a job offer from Patagonia in Reno!", "Ann", set(), {("Ann", "OWNS", "job offer")}),
    # 全家 opens no name; a count of shops is no price; a goal is no price; a team is no home.
    ("全家搬到杭州了，住在滨江。", "王芳", set(), {("全家搬", "LIVES_IN", "滨江")}),
    (
        "青禾餐饮的报价发出去了：8家门店试点，每家门店每年5200元。",
        "王芳",
        {("青禾餐饮", "PRICE", 5200)},
        {("青禾餐饮", "PRICE", 8)},
    ),
    ("季度目标：Q4新签合同额800万，目前完成500万。", "王芳", set(), {("Q4合同", "PRICE", 8000000)}),
    ("我在Growth组待了3年，今天最后一天。", "王芳", set(), {("王芳", "LIVES_IN", "Growth")}),
    # 我家bb is the writer's child.
    ("我家bb下个月满一岁，要办抓周。", "王芳", {("王芳的孩子", "AGE", 1)}, {("王芳", "AGE", 1)}),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_readers_96_99(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
