"""The wrong facts the ninety-second to ninety-fifth fresh readers judged, read as classes (sentences
written for these tests, never theirs)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A thing not given up, a place never been to, a count owned, a band's gig, a team's tools: none of those.
    (
        "I'm trying to cut sugar but I will not give up chocolate.",
        "Ann",
        set(),
        {("Ann", "STOPPED_USING", "chocolate")},
    ),
    ("Never been to a rugby match in my life.", "Ann", set(), {("Ann", "ATTENDED", "rugby match")}),
    (
        "I live in Galway and I own 6 raincoats",
        "Ann",
        {("Ann", "LIVES_IN", "Galway")},
        {("Ann", "RESPONSIBLE_FOR", "6 raincoats")},
    ),
    (
        "Went to the Foo Fighters gig at Wembley on Friday",
        "Ann",
        set(),
        {("Foo Fighters", "WORKS_AT", "Wembley")},
    ),
    (
        "We switched from Datadog to Sentry Cloud last month.",
        "Ann",
        {("Ann", "STOPPED_USING", "Datadog")},
        {("Ann", "WORKS_AT", "Sentry Cloud")},
    ),
    # A VP of a department works at the firm, not at the department.
    (
        "Champion there is Marta Silva (VP Claims).",
        "Ann",
        {("Marta Silva", "HAS_ROLE", "VP Claims")},
        {("Marta Silva", "WORKS_AT", "Claims")},
    ),
    # A baby born on a weekday was born the one before; a race is no property.
    ("our son Felix was born on Monday, 3.2kg and perfect", "Ann", {("Felix", "BIRTHDAY", "03-11")}, set()),
    ("I've got a half marathon on Sunday, nervous!", "Ann", set(), {("Ann", "OWNS", "half marathon")}),
    (
        "thinking about maybe going to Peru next year, if work allows",
        "Ann",
        set(),
        {("Ann", "PLANS_TO_VISIT", "Peru")},
    ),
    # 弃用 is no use; 喜欢上了 likes what follows; a debt is no price; an exam taken is no place visited.
    ("技术部决定弃用Jenkins，全面迁到GitLab CI。", "王芳", set(), {("技术部", "USES", "Jenkins")}),
    ("我最近喜欢上了攀岩，每周去两次", "王芳", {("王芳", "LIKES", "攀岩")}, {("王芳", "LIKES", "上")}),
    ("客户星河教育已经欠款两个月了，总额18万。", "王芳", set(), {("星河教育", "PRICE", 180000)}),
    (
        "我在学韩语，想明年去考TOPIK",
        "王芳",
        {("王芳", "STUDIES", "韩语")},
        {("王芳", "PLANS_TO_VISIT", "TOPIK")},
    ),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_readers_92_95(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
