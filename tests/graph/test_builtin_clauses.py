"""The builtin extractor's clause-level rules: date scope, hedges, value spans, second statements,
nicknames (sentences written for these tests, checked through the extractor and the server's
dating of what it returns)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.ingest.builtin import BuiltinExtractor
from engram.models.graph import Extraction, FactIn
from engram.nlp.dates import date_facts, scoped_dates

AT = datetime(2024, 3, 13, 9, 30, tzinfo=UTC)  # a Wednesday


@pytest.fixture(scope="module")
def extractor() -> BuiltinExtractor:
    return BuiltinExtractor()


def read(extractor: BuiltinExtractor, text: str, actor: str = "Ann") -> Extraction:
    """Return what the extractor finds in ``text``, dated as the server dates it."""
    return date_facts(extractor.extract_text(text, actor=actor, at=AT), AT, fallback_text=text)


def triples(result: Extraction) -> set[tuple[str, str, object]]:
    return {(f.subject, f.predicate, f.object if f.object is not None else f.value) for f in result.facts}


def fact(result: Extraction, predicate: str) -> FactIn:
    (found,) = [f for f in result.facts if f.predicate == predicate]
    return found


# ── a date phrase dates its own clause only ───────────────────────────────────────────────


def test_a_date_in_one_clause_does_not_date_the_next(extractor: BuiltinExtractor) -> None:
    result = read(extractor, "Lost my job as a banker yesterday, so now I work at Target.")
    assert fact(result, "LEFT_ROLE").valid_at == datetime(2024, 3, 12, tzinfo=UTC)
    assert fact(result, "WORKS_AT").valid_at is None
    chinese = read(extractor, "我去年搬到了北京，现在在华为工作。", actor="李强")
    assert fact(chinese, "LIVES_IN").valid_at == datetime(2023, 1, 1, tzinfo=UTC)
    assert fact(chinese, "WORKS_AT").valid_at is None


def test_a_leading_time_clause_dates_the_whole_sentence(extractor: BuiltinExtractor) -> None:
    result = read(extractor, "Last year, I moved to Berlin and I started working at Google.")
    assert fact(result, "LIVES_IN").valid_at == datetime(2023, 1, 1, tzinfo=UTC)
    assert fact(result, "WORKS_AT").valid_at == datetime(2023, 1, 1, tzinfo=UTC)
    chinese = read(extractor, "去年，我搬到了北京，在华为工作。", actor="李强")
    assert fact(chinese, "WORKS_AT").valid_at == datetime(2023, 1, 1, tzinfo=UTC)


def test_scoped_dates_finds_the_clause_naming_the_target() -> None:
    sentence = "I sold my old car last week, and I drive a Tesla now."
    assert scoped_dates(sentence, AT, target="Tesla") is None
    last_week = scoped_dates(sentence, AT, target="old car")
    assert last_week is not None and last_week.start == datetime(2024, 3, 4, tzinfo=UTC)
    whole = scoped_dates(sentence, AT, target="a bicycle")  # not in the sentence: its first date
    assert whole is not None and whole.start == last_week.start
