"""The JSON Lines importer alone: parsing, line numbers and field names in errors."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from engram.errors import InvalidInput
from engram.portable.jsonl import count_lines, jsonl_records, read_jsonl


def lines(*texts: str) -> list[bytes]:
    """Return ``texts`` as raw lines, as a binary file yields them."""
    return [(text + "\n").encode("utf-8") for text in texts]


def test_records_carry_line_numbers_and_skip_blank_lines() -> None:
    raw = lines(
        '\ufeff{"id": "a", "content": "first", "timestamp": "2024-01-02T03:04:05"}',
        "",
        '{"content": {"k": "v"}, "actor": {"id": "u1"}, "group_id": "g"}',
    )
    records = list(jsonl_records(raw))
    assert [r.where for r in records] == ["line 1", "line 3"]
    assert records[0].episode.id == "a"
    assert records[0].episode.timestamp == datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert records[1].episode.content == {"k": "v"}
    assert records[1].episode.group_id == "g"


@pytest.mark.parametrize(
    ("text", "field", "fragment"),
    [
        ('{"id": "x"}', "content", "content: Field required"),
        ('{"content": "x", "contnt": "y"}', "contnt", "contnt: Extra inputs"),
        ('{"content": "x", "actor": {"name": "n"}}', "actor.id", "actor.id"),
        ('{"content": "x", "timestamp": "yesterday"}', "timestamp", "timestamp"),
        ('{"content": "x", "id": "has space"}', "id", "id: String should match"),
        (
            '{"content": "x", "metadata": {"n": NaN}}',
            "metadata.n",
            "metadata.n: Input should be a finite number",
        ),
        ('{"content": "x", "metadata": {"n": 1e30}}', "metadata.n", "metadata.n: 1e+30 is beyond ±9e18"),
        (
            '{"content": "x", "metadata": {"n": 123456789012345678901234567890}}',
            "metadata.n",
            "is beyond ±9e18, the largest number stored",
        ),
        ('{"content": "x",', "line", "not valid JSON"),
        ("[1, 2]", "line", "expected a JSON object"),
    ],
)
def test_bad_line_names_line_and_field(text: str, field: str, fragment: str) -> None:
    records = jsonl_records(lines('{"content": "ok"}', text))
    assert next(records).where == "line 1"
    with pytest.raises(InvalidInput) as caught:
        next(records)
    assert caught.value.detail.startswith("line 2: ")
    assert fragment in caught.value.detail
    assert caught.value.field == field


def test_non_utf8_line_is_an_error() -> None:
    with pytest.raises(InvalidInput, match="line 1: not UTF-8"):
        list(jsonl_records([b'{"content": "\xff"}\n']))


def test_read_counts_non_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    path.write_bytes(b"".join(lines('{"content": "a"}', "", '{"content": "b"}', "   ")))
    assert count_lines(path) == 2
    source = read_jsonl(path)
    assert source.total == 2
    assert [r.episode.content for r in source.records] == ["a", "b"]
