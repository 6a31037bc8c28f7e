"""Time expressions in queries: exact [start, end) ranges, no false positives, and the search boost.

Reference: Wednesday 2024-01-03 12:00 UTC unless a row says otherwise, so "last month",
"上周" and "last year" all cross a year boundary. Ranges are written as local dates
(``d``) or datetimes; the reference is UTC, so local is UTC.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from engram import Memory
from engram.nlp.timeexpr import find_time_range
from engram.search.query import parse_query

REF = datetime(2024, 1, 3, 12, 0, tzinfo=UTC)  # a Wednesday


def d(year: int, month: int, day: int, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


# (query, expected start, expected end, expected granularity)
TABLE: list[tuple[str, datetime, datetime, str]] = [
    # days and parts of days
    ("what did Li say yesterday", d(2024, 1, 2), d(2024, 1, 3), "day"),
    ("today's orders", d(2024, 1, 3), d(2024, 1, 4), "day"),
    ("meetings tomorrow", d(2024, 1, 4), d(2024, 1, 5), "day"),
    ("the day before yesterday", d(2024, 1, 1), d(2024, 1, 2), "day"),
    ("this morning", d(2024, 1, 3, 5), d(2024, 1, 3, 12), "part_of_day"),
    ("last night", d(2024, 1, 2, 18), d(2024, 1, 3, 6), "part_of_day"),
    ("昨天的付款", d(2024, 1, 2), d(2024, 1, 3), "day"),
    ("前天", d(2024, 1, 1), d(2024, 1, 2), "day"),
    ("大前天谁打过电话", d(2023, 12, 31), d(2024, 1, 1), "day"),
    ("昨天下午的会议", d(2024, 1, 2, 12), d(2024, 1, 2, 18), "part_of_day"),
    ("今晚", d(2024, 1, 3, 18), d(2024, 1, 4), "part_of_day"),
    ("3 days ago", d(2023, 12, 31), d(2024, 1, 1), "day"),
    ("three days ago", d(2023, 12, 31), d(2024, 1, 1), "day"),
    ("3天前的订单", d(2023, 12, 31), d(2024, 1, 1), "day"),
    ("三天前", d(2023, 12, 31), d(2024, 1, 1), "day"),
    # weekdays: English "last X" is the latest X before today, Chinese 上周X is last ISO week's
    ("last Tuesday", d(2024, 1, 2), d(2024, 1, 3), "day"),
    ("Tuesday last week", d(2023, 12, 26), d(2023, 12, 27), "day"),
    ("next Tuesday", d(2024, 1, 9), d(2024, 1, 10), "day"),
    ("this Friday", d(2024, 1, 5), d(2024, 1, 6), "day"),
    ("on Friday", d(2023, 12, 29), d(2023, 12, 30), "day"),
    ("上周二", d(2023, 12, 26), d(2023, 12, 27), "day"),
    ("下周二张经理要去上海", d(2024, 1, 9), d(2024, 1, 10), "day"),
    ("星期天", d(2023, 12, 31), d(2024, 1, 1), "day"),
    ("上周日", d(2023, 12, 31), d(2024, 1, 1), "day"),
    # weeks and weekends (ISO weeks, Monday to Sunday)
    ("what happened last week", d(2023, 12, 25), d(2024, 1, 1), "week"),
    ("this week", d(2024, 1, 1), d(2024, 1, 8), "week"),
    ("next week", d(2024, 1, 8), d(2024, 1, 15), "week"),
    ("the week before last", d(2023, 12, 18), d(2023, 12, 25), "week"),
    ("上周的会议纪要", d(2023, 12, 25), d(2024, 1, 1), "week"),
    ("这周", d(2024, 1, 1), d(2024, 1, 8), "week"),
    ("本周", d(2024, 1, 1), d(2024, 1, 8), "week"),
    ("上个星期", d(2023, 12, 25), d(2024, 1, 1), "week"),
    ("上上周", d(2023, 12, 18), d(2023, 12, 25), "week"),
    ("两周前", d(2023, 12, 18), d(2023, 12, 25), "week"),
    ("last weekend", d(2023, 12, 30), d(2024, 1, 1), "weekend"),
    ("上周末", d(2023, 12, 30), d(2024, 1, 1), "weekend"),
    ("这周末", d(2024, 1, 6), d(2024, 1, 8), "weekend"),
    # months
    ("last month", d(2023, 12, 1), d(2024, 1, 1), "month"),
    ("next month", d(2024, 2, 1), d(2024, 3, 1), "month"),
    ("上个月的预算", d(2023, 12, 1), d(2024, 1, 1), "month"),
    ("本月", d(2024, 1, 1), d(2024, 2, 1), "month"),
    ("上上个月", d(2023, 11, 1), d(2023, 12, 1), "month"),
    ("in May 2023", d(2023, 5, 1), d(2023, 6, 1), "month"),
    ("May 2023", d(2023, 5, 1), d(2023, 6, 1), "month"),
    ("invoices from Sept. 2023", d(2023, 9, 1), d(2023, 10, 1), "month"),
    ("in May", d(2023, 5, 1), d(2023, 6, 1), "month"),
    ("in early January", d(2024, 1, 1), d(2024, 2, 1), "month"),
    ("last January", d(2023, 1, 1), d(2023, 2, 1), "month"),
    ("2023年5月", d(2023, 5, 1), d(2023, 6, 1), "month"),
    ("二〇二三年五月", d(2023, 5, 1), d(2023, 6, 1), "month"),
    ("去年三月签的合同", d(2023, 3, 1), d(2023, 4, 1), "month"),
    ("今年一月", d(2024, 1, 1), d(2024, 2, 1), "month"),
    ("十二月的发票", d(2023, 12, 1), d(2024, 1, 1), "month"),
    ("一个月前", d(2023, 12, 1), d(2024, 1, 1), "month"),
    ("2023-05", d(2023, 5, 1), d(2023, 6, 1), "month"),
    # calendar days
    ("May 12", d(2023, 5, 12), d(2023, 5, 13), "day"),
    ("on October 13, 2023", d(2023, 10, 13), d(2023, 10, 14), "day"),
    ("12 May 2023", d(2023, 5, 12), d(2023, 5, 13), "day"),
    ("the 3rd of March", d(2023, 3, 3), d(2023, 3, 4), "day"),
    ("2023-05-12", d(2023, 5, 12), d(2023, 5, 13), "day"),
    ("5月12日", d(2023, 5, 12), d(2023, 5, 13), "day"),
    ("2023年12月31号", d(2023, 12, 31), d(2024, 1, 1), "day"),
    # quarters and years
    ("last quarter", d(2023, 10, 1), d(2024, 1, 1), "quarter"),
    ("上季度", d(2023, 10, 1), d(2024, 1, 1), "quarter"),
    ("Q3 2023", d(2023, 7, 1), d(2023, 10, 1), "quarter"),
    ("2023年第三季度", d(2023, 7, 1), d(2023, 10, 1), "quarter"),
    ("last year", d(2023, 1, 1), d(2024, 1, 1), "year"),
    ("去年", d(2023, 1, 1), d(2024, 1, 1), "year"),
    ("前年", d(2022, 1, 1), d(2023, 1, 1), "year"),
    ("in 2022", d(2022, 1, 1), d(2023, 1, 1), "year"),
    ("2022年", d(2022, 1, 1), d(2023, 1, 1), "year"),
    ("2 years ago", d(2022, 1, 1), d(2023, 1, 1), "year"),
    # rolling windows: the N units before today, plus today
    ("the past week", d(2023, 12, 27), d(2024, 1, 4), "span"),
    ("in the last 3 days", d(2023, 12, 31), d(2024, 1, 4), "span"),
    ("最近三天", d(2023, 12, 31), d(2024, 1, 4), "span"),
    ("近一个月", d(2023, 12, 3), d(2024, 1, 4), "span"),
    ("过去一周", d(2023, 12, 27), d(2024, 1, 4), "span"),
    ("since March", d(2023, 3, 1), d(2024, 1, 4), "span"),
    ("三月以来", d(2023, 3, 1), d(2024, 1, 4), "span"),
]


@pytest.mark.parametrize(("query", "start", "end", "granularity"), TABLE, ids=[row[0] for row in TABLE])
def test_expression_table(query: str, start: datetime, end: datetime, granularity: str) -> None:
    found = find_time_range(query, REF)
    assert found is not None
    assert (found.start, found.end, found.granularity) == (start, end, granularity)
    assert query[found.span[0] : found.span[1]] == found.text


def test_the_table_is_large_and_bilingual() -> None:
    chinese = [row for row in TABLE if any("\u4e00" <= char <= "\u9fff" for char in row[0])]
    assert len(TABLE) >= 30 and len(chinese) >= 15 and len(TABLE) - len(chinese) >= 15


@pytest.mark.parametrize(
    ("query", "reference", "start", "end"),
    [
        # 上周 from Monday 1 January 2024 is the last ISO week of 2023
        ("上周", d(2024, 1, 1, 9), d(2023, 12, 25), d(2024, 1, 1)),
        # a leap February, and "last month" from the 31st
        ("last month", d(2024, 3, 31), d(2024, 2, 1), d(2024, 3, 1)),
        ("past month", d(2024, 3, 31), d(2024, 2, 29), d(2024, 4, 1)),
        # 下周 from Sunday 31 December 2023 is the first ISO week of 2024
        ("下周", d(2023, 12, 31), d(2024, 1, 1), d(2024, 1, 8)),
        # on a Sunday, this weekend is today and yesterday; last weekend the one before
        ("this weekend", d(2024, 1, 7), d(2024, 1, 6), d(2024, 1, 8)),
        ("last weekend", d(2024, 1, 7), d(2023, 12, 30), d(2024, 1, 1)),
        # "in May" in May is this May; "last May" is a year earlier
        ("in May", d(2024, 5, 20), d(2024, 5, 1), d(2024, 6, 1)),
        ("last May", d(2024, 5, 20), d(2023, 5, 1), d(2023, 6, 1)),
        # 29 February without a year: the latest one that exists
        ("2月29日", d(2024, 3, 1), d(2024, 2, 29), d(2024, 3, 1)),
    ],
)
def test_calendar_boundaries(query: str, reference: datetime, start: datetime, end: datetime) -> None:
    found = find_time_range(query, reference)
    assert found is not None and (found.start, found.end) == (start, end)


def test_days_start_in_the_reference_time_zone_and_come_back_in_utc() -> None:
    shanghai = timezone(timedelta(hours=8))
    found = find_time_range("昨天", datetime(2024, 1, 3, 1, 0, tzinfo=shanghai))  # 2 Jan 17:00 UTC
    assert found is not None
    assert found.start == datetime(2024, 1, 1, 16, tzinfo=UTC)
    assert found.end == datetime(2024, 1, 2, 16, tzinfo=UTC)
    naive = find_time_range("yesterday", datetime(2024, 1, 3, 12))
    assert naive is not None and naive.start == d(2024, 1, 2)


@pytest.mark.parametrize(
    "query",
    [
        "we went to the park",
        "What did Caroline research?",
        "May I ask who signed the contract",  # "May" with no year, day or preposition
        "March of the penguins",  # a title, not a month: no preposition before it
        "the 2023 budget",  # a fiscal label, not when something happened
        "a budget of 2000 dollars",
        "order DEAL-7890 and ORD-2023-05-0012",
        "what do I do on Tuesdays?",  # a habit
        "5 may be enough",
        "客户要求取消订单",
        "周边产品的合同",  # 周边 is not 周
        "资金周转有困难",
        "一个月的预算是多少",  # a duration, not a time
        "每月付款",
        "",
    ],
)
def test_ordinary_queries_name_no_time(query: str) -> None:
    assert find_time_range(query, REF) is None


def test_the_longest_expression_at_the_leftmost_position_wins() -> None:
    found = find_time_range("上周二和昨天", REF)
    assert found is not None and found.text == "上周二"
    found = find_time_range("in May 2023 or yesterday", REF)
    assert found is not None and (found.text, found.granularity) == ("in May 2023", "month")


def test_parse_query_sets_the_range_and_keeps_the_words() -> None:
    parsed = parse_query("budget meeting last week", max_chars=100, reference_time=REF)
    assert parsed.time_range == (d(2023, 12, 25), d(2024, 1, 1))
    assert parsed.time_expression == "last week"
    assert parsed.words == ["budget", "meeting", "last", "week"]  # removing them was measured: no gain
    chinese = parse_query("去年三月签的合同", max_chars=100, reference_time=REF)
    assert chinese.time_range == (d(2023, 3, 1), d(2023, 4, 1)) and "合同" in chinese.words
    without = parse_query("budget meeting last week", max_chars=100)
    assert without.time_range is None and without.time_expression is None


def test_an_episode_in_the_named_range_outranks_an_equal_one_outside_it(memory: Memory) -> None:
    content = "Reviewed the Hangzhou project budget with the finance team"
    inside, outside = d(2023, 12, 27, 10), d(2023, 12, 13, 10)
    memory.create_episodes(
        [
            {"id": "inside", "content": content, "actor": {"id": "a1"}, "timestamp": inside},
            {"id": "outside", "content": content, "actor": {"id": "a2"}, "timestamp": outside},
        ]
    )

    def search(query: str) -> list[str]:
        response = memory.search_episodes({"query": query, "reference_time": REF, "explain": True})
        return [hit.episode.id for hit in response.results]

    assert search("budget review last week") == ["inside", "outside"]
    assert search("上周的预算") == ["inside", "outside"]  # 预算 finds "budget" through synonyms
    assert search("budget review three weeks ago") == ["outside", "inside"]
    assert search("Hangzhou budget on 13 December 2023") == ["outside", "inside"]

    [top, other] = memory.search_episodes(
        {"query": "budget review last week", "reference_time": REF, "explain": True}
    ).results
    assert top.explanation is not None and other.explanation is not None
    assert top.explanation["time"] == {
        "expression": "last week",
        "start": "2023-12-25T00:00:00+00:00",
        "end": "2024-01-01T00:00:00+00:00",
    }
    assert top.explanation["boosts"]["time"] == pytest.approx(1.5)
    assert other.explanation["boosts"].get("time", 1.0) < 1.2
    assert top.score > other.score


def test_without_a_time_expression_explain_has_no_time(memory: Memory) -> None:
    memory.create_episode({"content": "Signed the ACME contract", "timestamp": date(2023, 12, 1).isoformat()})
    [hit] = memory.search_episodes({"query": "ACME contract", "explain": True}).results
    assert hit.explanation is not None and "time" not in hit.explanation
