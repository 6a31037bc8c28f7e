"""The past-tense readers of engram.nlp.tense, in English and Chinese."""

from __future__ import annotations

import pytest

from engram.nlp.clauses import Lang
from engram.nlp.tense import is_past, past_event, past_on_date


@pytest.mark.parametrize(
    ("clause", "lang", "expected"),
    [
        ("I visited Paris last week", "en", True),
        ("we were in Rome for a month", "en", True),
        ("she got back from Lisbon", "en", True),
        ("my trip to Japan three years ago", "en", True),
        ("my trip to Japan last Sunday", "en", True),
        ("I'm planning a trip to Paris", "en", False),
        ("we go to the gym on weekends", "en", False),
        ("our trip to Japan next month", "en", False),
        ("去年去过成都", "zh", True),
        ("我们已经搬家", "zh", True),
        ("周末去了苏州", "zh", True),
        ("刚见完客户", "zh", True),
        ("打算下个月去成都", "zh", False),
        ("周末想去苏州", "zh", False),
    ],
)
def test_is_past(clause: str, lang: Lang, expected: bool) -> None:
    assert is_past(clause, lang) is expected


def test_is_past_reads_each_language_by_its_own_words() -> None:
    assert not is_past("I went there", "zh")  # an English verb in a clause read as Chinese
    assert not is_past("去了苏州", "en")


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ("I went to Tokyo on ", ".", True),
        ("she joined the team on ", "", True),
        ("we met them on ", " in Shanghai", True),
        ("", "去了东京。", True),  # 12月20号去了东京
        ("", "我们办了手续", True),  # 3月5号我们办了手续
        ("", "来了上海", True),
        ("我", "去了东京", True),
        ("去了北京", "", True),  # a past verb before the date, in Chinese
        ("The deadline was set to ", ".", False),  # "was" says nothing of what the date holds
        ("I'm flying to Tokyo on ", ".", False),
        ("", "要去东京", False),  # 12月20号要去东京
        ("", "，我们去了东京", False),  # the verb is in another clause
        ("", "那天我们终于一起去了东京", False),  # more than six characters after the date
        ("办了签证", "出发", False),  # 办了 before a date tells a step done ahead of it
    ],
)
def test_past_on_date(before: str, after: str, expected: bool) -> None:
    assert past_on_date(before, after) is expected


@pytest.mark.parametrize(
    ("clause", "lang", "expected"),
    [
        ("Our kickoff was on Jan 15", "en", True),
        ("thanks for meeting on Monday", "en", True),
        ("the review we held on March 3", "en", True),
        ("the sync last Tuesday", "en", True),
        ("the review is on Jan 15", "en", False),
        ("let's meet on Jan 15", "en", False),
        ("上次的会是1月15号", "zh", True),
        ("原定3月1号交付", "zh", True),
        ("1月15号的会已经开完", "zh", True),
        ("会议定在了1月15号", "zh", False),  # 了 alone sets a date ahead, it was not held
        ("约了1月15号开会", "zh", False),
        ("下次会议在1月15号", "zh", False),
    ],
)
def test_past_event(clause: str, lang: Lang, expected: bool) -> None:
    assert past_event(clause, lang) is expected


def test_past_event_is_narrower_than_is_past() -> None:
    # 了 makes a clause past for a plan, not a meeting held: both readings on the same clause
    assert is_past("会议定在了1月15号", "zh")
    assert not past_event("会议定在了1月15号", "zh")
