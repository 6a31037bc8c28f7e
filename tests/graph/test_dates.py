"""Dates in extracted facts: relative expressions resolved against the episode timestamp.

Reference: Wednesday 2024-01-03 12:00 UTC unless a row says otherwise, so "last month",
"上个月" and "last year" cross a year boundary.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from engram.memory import Memory
from engram.models.episodes import Episode
from engram.models.graph import Extraction, FactIn
from engram.nlp import dates
from engram.nlp.date_scan import scan
from engram.nlp.dates import DateSpan, apply_dates, date_facts, date_value, resolve_dates

REF = datetime(2024, 1, 3, 12, 0, tzinfo=UTC)  # a Wednesday


def d(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def day(year: int, month: int, day_: int) -> tuple[datetime, datetime]:
    start = d(year, month, day_)
    return start, start + timedelta(days=1)


# (text, kind, start, end)
TABLE: list[tuple[str, str, datetime | None, datetime | None]] = [
    # points: a day and a clock time
    ("明天下午3点开会", "point", d(2024, 1, 4, 15), None),
    ("下周二上午10点半见", "point", d(2024, 1, 9, 10, 30), None),
    ("晚上八点吃饭", "point", d(2024, 1, 3, 20), None),
    ("明晚七点半到", "point", d(2024, 1, 4, 19, 30), None),
    ("昨天中午1点他打来电话", "point", d(2024, 1, 2, 13), None),
    ("凌晨2点服务器挂了", "point", d(2024, 1, 3, 2), None),
    ("约在15时30分", "point", d(2024, 1, 3, 15, 30), None),
    ("后天3点钟", "point", d(2024, 1, 5, 3), None),
    ("let's meet tomorrow at 3pm", "point", d(2024, 1, 4, 15), None),
    ("Call me tomorrow 3 p.m.", "point", d(2024, 1, 4, 15), None),
    ("the demo is at 15:00", "point", d(2024, 1, 3, 15), None),
    ("会议15:00在杭州", "point", d(2024, 1, 3, 15), None),
    ("明天3pm开会", "point", d(2024, 1, 4, 15), None),
    ("3pm tomorrow works", "point", d(2024, 1, 4, 15), None),
    ("dinner tonight at 8", "point", d(2024, 1, 3, 20), None),
    ("next Tuesday at 10:30am", "point", d(2024, 1, 9, 10, 30), None),
    ("on Tuesday, January 9 at 2pm", "point", d(2024, 1, 9, 14), None),  # the weekday restates the date
    ("Monday, Wednesday and Friday", "period", *day(2024, 1, 1)),  # a list of days is no restated date
    ("周一，周三", "period", *day(2024, 1, 1)),
    ("周二，1月9日下午2点", "point", d(2024, 1, 9, 14), None),
    ("tomorrow morning at 9", "point", d(2024, 1, 4, 9), None),
    ("lunch at noon", "point", d(2024, 1, 3, 12), None),
    ("at 7 in the evening", "point", d(2024, 1, 3, 19), None),
    ("in 3 hours", "point", d(2024, 1, 3, 15), None),
    ("半小时后出发", "point", d(2024, 1, 3, 12, 30), None),
    ("2 hours ago", "point", d(2024, 1, 3, 10), None),
    # periods: days, weeks, months, years
    ("tomorrow", "period", *day(2024, 1, 4)),
    ("next Tuesday", "period", *day(2024, 1, 9)),
    ("下周二", "period", *day(2024, 1, 9)),
    ("上个月我搬到了杭州", "period", d(2023, 12, 1), d(2024, 1, 1)),
    ("I moved to Berlin last month", "period", d(2023, 12, 1), d(2024, 1, 1)),
    ("last year", "period", d(2023, 1, 1), d(2024, 1, 1)),
    ("去年", "period", d(2023, 1, 1), d(2024, 1, 1)),
    ("next week", "period", d(2024, 1, 8), d(2024, 1, 15)),
    ("in two weeks", "period", *day(2024, 1, 17)),
    ("两天后出发", "period", *day(2024, 1, 5)),
    ("两周后", "period", *day(2024, 1, 17)),
    ("三个月后复查", "period", *day(2024, 4, 3)),
    ("a year from now", "period", *day(2025, 1, 3)),
    ("3 days ago", "period", *day(2023, 12, 31)),
    # absolute dates; yearless ones are the occurrence nearest the reference
    ("May 8, 2023", "period", *day(2023, 5, 8)),
    ("on 8 May 2023", "period", *day(2023, 5, 8)),
    ("2023年5月8日", "period", *day(2023, 5, 8)),
    ("2023-05-08", "period", *day(2023, 5, 8)),
    ("in may 2023", "period", d(2023, 5, 1), d(2023, 6, 1)),
    ("5月8日开会", "period", *day(2024, 5, 8)),
    ("Dec 31", "period", *day(2023, 12, 31)),
    ("the 2nd of February", "period", *day(2024, 2, 2)),
    # a day of the month without its month: the nearest one, on the weekday named with it
    ("on the 10th", "period", *day(2024, 1, 10)),
    ("on the 30th", "period", *day(2023, 12, 30)),
    ("Monday the 8th at 9:30", "point", d(2024, 1, 8, 9, 30), None),
    ("Friday the 29th", "period", *day(2023, 12, 29)),
    ("2023年5月8日下午3点", "point", d(2023, 5, 8, 15), None),
    ("on May 8, 2023 at 15:00", "point", d(2023, 5, 8, 15), None),
    # ranges, open starts, open ends
    ("from May 8 to May 10", "range", d(2024, 5, 8), d(2024, 5, 11)),
    ("between March 3 and March 5", "range", d(2024, 3, 3), d(2024, 3, 6)),
    ("2020年到2022年在北京工作", "range", d(2020, 1, 1), d(2023, 1, 1)),
    ("下午3点到5点开会", "range", d(2024, 1, 3, 15), d(2024, 1, 3, 17)),
    ("since 2020", "since", d(2020, 1, 1), None),
    ("从下周一开始", "since", d(2024, 1, 8), None),
    ("去年以来", "since", d(2023, 1, 1), None),
    ("until Friday", "until", None, d(2024, 1, 6)),
    ("直到下周五", "until", None, d(2024, 1, 13)),
    ("到下周五为止", "until", None, d(2024, 1, 13)),
]


@pytest.mark.parametrize(("text", "kind", "start", "end"), TABLE)
def test_expression(text: str, kind: str, start: datetime | None, end: datetime | None) -> None:
    span = resolve_dates(text, REF)
    assert span is not None, text
    assert (span.kind, span.start, span.end) == (kind, start, end), span


def test_span_locates_the_expression() -> None:
    text = "我们明天下午3点在杭州开会"
    span = resolve_dates(text, REF)
    assert span is not None
    assert span.text == "明天下午3点"
    assert text[span.span[0] : span.span[1]] == span.text


@pytest.mark.parametrize(
    ("reference", "text", "start", "end"),
    [
        (d(2023, 12, 31, 18), "tomorrow", *day(2024, 1, 1)),
        (d(2023, 12, 31, 18), "明天下午3点", d(2024, 1, 1, 15), None),
        (d(2023, 12, 31, 18), "next month", d(2024, 1, 1), d(2024, 2, 1)),
        (d(2023, 12, 31, 18), "下个月", d(2024, 1, 1), d(2024, 2, 1)),
        (d(2023, 12, 31, 18), "明年", d(2024, 1, 1), d(2025, 1, 1)),
        (d(2023, 12, 31, 18), "两个月后", *day(2024, 2, 29)),  # clamped, leap year
        (d(2023, 1, 31, 9), "in a month", *day(2023, 2, 28)),
        (d(2023, 12, 25, 9), "in two weeks", *day(2024, 1, 8)),
        (d(2024, 1, 15, 9), "上个月", d(2023, 12, 1), d(2024, 1, 1)),
        (d(2024, 3, 1, 9), "yesterday", *day(2024, 2, 29)),
        (d(2024, 1, 3, 12), "晚上12点", d(2024, 1, 4), None),
    ],
)
def test_month_and_year_boundaries(
    reference: datetime, text: str, start: datetime, end: datetime | None
) -> None:
    span = resolve_dates(text, reference)
    assert span is not None
    assert (span.start, span.end) == (start, end)


def test_aware_reference_sets_the_zone_of_days_and_clock_times() -> None:
    shanghai = timezone(timedelta(hours=8))
    reference = datetime(2024, 1, 3, 23, 30, tzinfo=shanghai)  # 15:30 UTC
    span = resolve_dates("明天下午3点", reference)
    assert span is not None and span.start == d(2024, 1, 4, 7)  # 15:00 in Shanghai
    span = resolve_dates("tomorrow", reference)
    assert span is not None and (span.start, span.end) == (d(2024, 1, 3, 16), d(2024, 1, 4, 16))


def test_naive_reference_is_utc() -> None:
    span = resolve_dates("tomorrow at 3pm", datetime(2024, 1, 3, 12))
    assert span is not None and span.start == d(2024, 1, 4, 15)


def test_no_reference_no_date() -> None:
    assert resolve_dates("明天下午3点开会", None) is None
    assert resolve_dates("May 8, 2023", None) is None
    extraction = Extraction(facts=[FactIn(subject="Li", predicate="MEETS", object="Wang", fact="明天开会")])
    assert date_facts(extraction, None) is extraction


@pytest.mark.parametrize(
    "text",
    [
        "I have 3 kids and 2 dogs",
        "He is 30 years old",
        "May I ask a question?",
        "you may 8 times retry",
        "the build ran for 3:2 minutes",
        "we visited 3 stores at 3 malls",
        "the score was 3:2 at half time",
        "version 2.0 shipped with 10.5 fixes",
        "我有两个孩子",
        "他提了三点建议",
        "好一点了",
        "the 2023 budget is 800k",
        "每周开一次会",
        "March of the penguins",
        "周报写完了",
        "her office is on the 3rd floor",
        "the 21st century",
        "",
    ],
)
def test_no_false_positives(text: str) -> None:
    assert resolve_dates(text, REF) is None


def test_first_expression_wins_and_clock_words_are_not_times() -> None:
    span = resolve_dates("今天一点也不冷，明天更暖和", REF)
    assert span is not None and span.text == "今天" and span.kind == "period"


def episode(content: str, timestamp: datetime = REF) -> Episode:
    return Episode(
        id="e1",
        group_id="default",
        version=1,
        timestamp=timestamp,
        recorded_at=timestamp,
        source_type="text",
        content=content,
        fingerprint="f",
        operation_id="op_1",
    )


def fact(sentence: str | None, **extra: object) -> FactIn:
    body = {"subject": "李强", "predicate": "LIVES_IN", "object": "杭州", "fact": sentence}
    return FactIn.model_validate(body | extra)


def test_apply_dates_fills_missing_dates_from_each_fact() -> None:
    extraction = Extraction(
        facts=[
            fact("李强上个月搬到了杭州"),
            fact("李强2020年到2022年住在北京"),
            fact("李强在杭州住到下周五为止"),
            fact("李强住在杭州"),
            fact("李强从去年开始住在杭州", valid_at="2023-03-01T00:00:00Z"),
        ]
    )
    facts = apply_dates(extraction, episode("…")).facts
    assert (facts[0].valid_at, facts[0].invalid_at) == (d(2023, 12, 1), None)
    assert (facts[1].valid_at, facts[1].invalid_at) == (d(2020, 1, 1), d(2023, 1, 1))
    assert (facts[2].valid_at, facts[2].invalid_at) == (None, d(2024, 1, 13))
    assert (facts[3].valid_at, facts[3].invalid_at) == (None, None)
    assert facts[4].valid_at == d(2023, 3, 1), "a date the extractor gave is kept"


def test_apply_dates_uses_the_episode_content_for_facts_without_a_sentence() -> None:
    extraction = Extraction(facts=[fact(None)])
    facts = apply_dates(extraction, episode("I'm moving to Hangzhou next Tuesday")).facts
    assert facts[0].valid_at == d(2024, 1, 9)


def test_apply_dates_never_inverts_a_fact() -> None:
    extraction = Extraction(facts=[fact("lived there until last year", valid_at="2023-06-01T00:00:00Z")])
    facts = apply_dates(extraction, episode("…")).facts
    assert (facts[0].valid_at, facts[0].invalid_at) == (d(2023, 6, 1), d(2024, 1, 1))
    extraction = Extraction(facts=[fact("until 2020", valid_at="2023-06-01T00:00:00Z")])
    facts = apply_dates(extraction, episode("…")).facts
    assert facts[0].invalid_at is None, "invalid_at before valid_at is not applied"


def test_apply_dates_leaves_facts_whose_value_is_a_date() -> None:
    values = ["2024-06-14", "2024-06", "2024-06-14 15:00", "10-03"]
    extraction = Extraction(
        facts=[
            FactIn(subject="李强", predicate="BIRTHDAY", value=value, fact="My birthday is next Friday")
            for value in values
        ]
    )
    facts = apply_dates(extraction, episode("…")).facts
    assert [(f.valid_at, f.invalid_at) for f in facts] == [(None, None)] * len(values)
    dated = apply_dates(Extraction(facts=[fact("李强下周五搬到杭州")]), episode("…")).facts
    assert dated[0].valid_at == d(2024, 1, 12), "the same sentence dates a fact about something else"


def test_date_span_is_a_value() -> None:
    span = resolve_dates("tomorrow", REF)
    assert span == DateSpan(d(2024, 1, 4), d(2024, 1, 5), "period", "tomorrow", (0, 8), "day")


@pytest.mark.parametrize(
    ("text", "reference", "expected"),
    [
        ("CRM升级项目将于2024-06-05上线", d(2024, 5, 17, 9), "2024-06-05"),  # an ISO date beside CJK text
        ("月底前交货", d(2024, 3, 4, 9), "2024-03-31"),
        ("下个月初", d(2024, 3, 4, 9), "2024-04-01"),
        ("6月底前", d(2024, 5, 17, 9), "2024-06-30"),
        ("到今年年底结束", d(2024, 5, 17, 9), "2024-12-31"),
        ("年初搬回了老家", d(2025, 2, 19, 9), "2025-01-01"),
        ("我下个月10号去上海", d(2024, 10, 8, 9), "2024-11-10"),
        ("我打算明年春天去日本", d(2024, 11, 20, 9), "2025-03-01"),
        ("by the end of next month", d(2024, 5, 17, 9), "2024-06-30"),
        ("下周三下午三点和华东物流开会", d(2024, 3, 4, 9), "2024-03-13 15:00"),
        ("9月12日下午两点在3号会议室", d(2024, 9, 2, 9), "2024-09-12 14:00"),
        ("no date here", d(2024, 9, 2, 9), None),
    ],
)
def test_date_value(text: str, reference: datetime, expected: str | None) -> None:
    assert date_value(text, reference) == expected


def test_date_value_reads_birthdays_without_a_year_and_plans_forward() -> None:
    may = d(2024, 5, 17, 9)  # a Friday
    assert date_value("My birthday is on October 3rd.", may, yearless=True) == "10-03"
    assert date_value("生日是2024年2月20日", may, yearless=True) == "2024-02-20"
    assert date_value("the meeting is on Tuesday", may) == "2024-05-14"
    assert date_value("the meeting is on Tuesday", may, future=True) == "2024-05-21"
    assert date_value("The contract expires on March 31.", may, future=True) == "2025-03-31"
    assert date_value("合同上写的是5月2日前交齐", may, future=True) == "2024-05-02"  # just missed
    assert date_value("3月", may, future=True) == "2025-03-01"  # 上线定在3月, said in May: next March
    assert date_value("3月", may) == "2024-03-01"
    assert date_value("The contract expired on March 31, 2024.", may, future=True) == "2024-03-31"
    assert date_value("月底前交货", None) is None


def test_a_weekday_moved_to_is_the_coming_one() -> None:
    """Said on Friday 21 June: "moved to Tuesday 3pm" is the 25th, a clock time or not; a move recounted
    ("we moved to Brno in March") keeps its past date."""
    friday = d(2024, 6, 21, 9)
    span = resolve_dates("Demo with Trellis Bank moved to Tuesday 3pm", friday)
    assert span is not None and span.start == d(2024, 6, 25, 15)
    span = resolve_dates("The QBR got pushed to Tuesday", friday)
    assert span is not None and span.start == d(2024, 6, 25)
    span = resolve_dates("We moved to Brno in March", friday)
    assert span is not None and span.start == d(2024, 3, 1)


def test_starting_a_weekday_is_the_coming_one() -> None:
    span = resolve_dates("reassigned to the Helios launch, starting Monday", d(2024, 5, 17, 9))
    assert span is not None and (span.kind, span.start) == ("since", d(2024, 5, 20))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("有效期到明年3月底", "2025-03-31"),  # said in March 2024: next year's March
        ("去年底签的合同", "2023-12-31"),
        ("今年年底", "2024-12-31"),
        ("2023年底", "2023-12-31"),
        ("去年12月", "2023-12-01"),  # a year said is kept, even where a deadline would read ahead
    ],
)
def test_a_chinese_month_or_year_edge_keeps_the_year_it_names(text: str, value: str) -> None:
    assert date_value(text, d(2024, 3, 6, 9), future=True) == value


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("Kim joins us on Monday as our new designer", d(2024, 3, 11)),  # said on Wednesday 6 March
        ("the new build goes live on Monday", d(2024, 3, 11)),
        ("Kim joined us on Monday", d(2024, 3, 4)),  # told in the past: the Monday gone
        ("She starts in February", d(2025, 2, 1)),
    ],
)
def test_a_scheduled_event_in_the_present_simple_is_ahead(text: str, start: datetime) -> None:
    span = resolve_dates(text, d(2024, 3, 6, 9))
    assert span is not None and span.start == start


@pytest.mark.parametrize(
    ("content", "timestamp"),
    [
        ("Meeting with Alice next Tuesday, deadline next month", "9999-12-31T23:00:00Z"),
        ("下周二和李强开会，截止日期下个月", "9999-12-30T23:00:00Z"),
        ("Last year Bob worked at Acme; yesterday he left", "0001-01-01T00:00:00Z"),
    ],
)
def test_an_episode_at_the_calendars_edge_is_stored_and_read(
    memory: Memory, content: str, timestamp: str
) -> None:
    """A relative date that would fall past year 9999 or before year 1 reads as no date, not an error."""
    assert resolve_dates("next month", datetime(9999, 12, 31, tzinfo=UTC)) is None
    created = memory.create_episode({"content": content, "timestamp": timestamp, "actor": {"id": "bob"}})
    stored = memory.get_episode(created.episode.id)
    assert stored.content == content and stored.metadata.get("extraction_status") != "failed"
    operations = memory.list_operations(episode_id=stored.id).items
    assert {op.kind for op in operations} >= {"ingest"}


def test_a_weekday_restating_a_past_date_keeps_the_date() -> None:
    """Only a bare weekday in the past means the next one ("Tuesday" said on Wednesday)."""
    assert date_value("Tuesday, January 2, 2024", REF, future=True) == "2024-01-02"
    assert date_value("Tuesday, January 2", REF, future=True) == "2024-01-02"
    assert date_value("周二，1月2日", REF, future=True) == "2024-01-02"
    assert date_value("Tuesday at 3pm", REF, future=True) == "2024-01-09 15:00"


BENCH_DATA = Path(__file__).resolve().parents[2] / "bench" / "data"


def _sentences() -> list[str]:
    """Every text of the extraction and scenario sets and of TABLE, whole and cut at punctuation."""
    texts = [row[0] for row in TABLE]
    for line in (BENCH_DATA / "extraction_set.jsonl").read_text().splitlines():
        texts.append(json.loads(line)["text"])
    for line in (BENCH_DATA / "scenarios.jsonl").read_text().splitlines():
        texts += [episode["content"] for episode in json.loads(line)["episodes"]]
    return list(dict.fromkeys(texts + [part for t in texts for part in re.split(r"[.!?,;。！？，；]", t)]))


def test_texts_without_a_time_word_skip_the_scan_and_lose_no_date(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one-search shortcut (``_DATEISH``) may only skip texts the full scan finds nothing in."""
    texts = _sentences()
    skipped = [t for t in texts if not dates._DATEISH.search(t)]
    assert len(texts) > 1000 and len(skipped) > len(texts) / 4
    assert [t for t in skipped if scan(t, REF)] == []
    for text in ("at noon", "半小时后", "in a fortnight", "3点半", "midnight", "two hours ago", "晚上八点"):
        assert resolve_dates(text, REF) is not None, text

    def scanned(text: str, reference: datetime) -> list[object]:
        raise AssertionError(f"scanned {text!r}")

    monkeypatch.setattr(dates, "scan", scanned)
    assert resolve_dates("Amelia Costa lives in Vancouver", REF) is None


@pytest.mark.parametrize(
    ("odd", "plain"), [("yeſterday", "yesterday"), ("tonıght", "tonight"), ("auguſt 3", "august 3")]
)
def test_letters_read_as_ascii_by_case_insensitive_patterns_read_as_those_letters(
    memory: Memory, odd: str, plain: str
) -> None:
    """Long s, dotless i and the Kelvin sign match s, i and k under re.I but are in no table:
    read as those letters, not a KeyError (a 500 for a search naming one)."""
    assert resolve_dates(odd, REF) == resolve_dates(plain, REF) is not None
    memory.create_episode({"content": f"Ann moved to Oslo {odd}", "timestamp": REF.isoformat()})
    assert memory.search_episodes({"query": f"Oslo {odd}"}).results
