"""The LoCoMo importer alone: pure parsing of samples into episode records, no store."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engram.errors import InvalidInput
from engram.portable.locomo import count_turns, load_locomo, locomo_records, parse_session_datetime

LOCOMO_DEV = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "locomo" / "locomo-dev.json"


def sample(**conversation: Any) -> dict[str, Any]:
    """Return a LoCoMo sample with the given conversation keys."""
    return {"sample_id": "conv-x", "conversation": {"speaker_a": "Ann", "speaker_b": "Bo", **conversation}}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56)),
        ("12:48 am on 1 February, 2023", datetime(2023, 2, 1, 0, 48)),
        ("12:05 pm on 1 February, 2023", datetime(2023, 2, 1, 12, 5)),
        ("9:27 AM on 7 Sept. 2022", datetime(2022, 9, 7, 9, 27)),
        (" 10:00 p.m. on 31 Dec, 2021 ", datetime(2021, 12, 31, 22, 0)),
    ],
)
def test_session_date_time_variants_parse(text: str, expected: datetime) -> None:
    assert parse_session_datetime(text, where="sample s session 1") == expected


@pytest.mark.parametrize(
    "text",
    ["", "8 May 2023", "13:00 pm on 1 May, 2023", "1:00 pm on 31 June, 2023", "1:00 pm on 3 Mayo, 2023"],
)
def test_malformed_session_date_time_names_where(text: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_session_datetime(text, where="sample conv-9 session 4")
    assert "sample conv-9 session 4" in caught.value.detail
    assert caught.value.field == "date_time"


def test_turns_become_episodes_in_conversation_order() -> None:
    data = [
        sample(
            session_2_date_time="9:00 am on 2 June, 2023",
            session_2=[{"speaker": "Bo", "dia_id": "D2:1", "text": "Second session."}],
            session_10_date_time="9:00 am on 3 July, 2023",
            session_10=[{"speaker": "Ann", "dia_id": "D10:1", "text": "Tenth."}],
            session_1_date_time="1:56 pm on 8 May, 2023",
            session_1=[
                {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bo!"},
                {
                    "speaker": "Bo",
                    "dia_id": "D1:2",
                    "text": "Look at this.",
                    "img_url": ["https://example.org/dog.jpg"],
                    "blip_caption": "a photo of a dog",
                    "query": "dog",
                },
            ],
            session_3_date_time="9:00 am on 9 June, 2023",  # a date time without turns is ignored
        )
    ]
    records = list(locomo_records(data))
    assert [r.episode.id for r in records] == ["conv-x:D1:1", "conv-x:D1:2", "conv-x:D2:1", "conv-x:D10:1"]
    assert count_turns(data) == 4
    first, second = records[0].episode, records[1].episode
    assert first.group_id == "conv-x"
    assert first.timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert second.timestamp == datetime(2023, 5, 8, 13, 56, 1, tzinfo=UTC)  # offset by turn index
    assert second.actor is not None
    assert second.actor.model_dump() == {"type": "user", "id": "Bo", "name": "Bo"}
    assert second.source == "locomo"
    assert second.source_type == "message"
    assert second.content == "Look at this. [image: a photo of a dog]"
    assert second.metadata == {"session": 1, "dia_id": "D1:2", "img_url": ["https://example.org/dog.jpg"]}
    assert first.metadata == {"session": 1, "dia_id": "D1:1"}
    assert records[1].where == "sample conv-x session 1 turn D1:2"
    stamps = [r.episode.timestamp for r in records]
    assert stamps == sorted(stamps)


def test_missing_date_time_names_sample_and_session() -> None:
    data = [sample(session_1=[{"speaker": "Ann", "dia_id": "D1:1", "text": "Hi"}])]
    with pytest.raises(InvalidInput) as caught:
        list(locomo_records(data))
    assert "sample conv-x session 1" in caught.value.detail


def test_bad_turn_names_turn_and_field() -> None:
    data = [
        sample(
            session_1_date_time="1:56 pm on 8 May, 2023",
            session_1=[{"speaker": "Ann", "dia_id": "D1:1", "text": "  "}],
        )
    ]
    with pytest.raises(InvalidInput) as caught:
        list(locomo_records(data))
    assert caught.value.field == "content"
    assert "turn D1:1" in caught.value.detail


def test_load_rejects_non_json_and_non_list(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('[{"sample_id": ', encoding="utf-8")
    with pytest.raises(InvalidInput, match="not valid JSON"):
        load_locomo(broken)
    wrong = tmp_path / "wrong.json"
    wrong.write_text("{}", encoding="utf-8")
    with pytest.raises(InvalidInput, match="list of samples"):
        load_locomo(wrong)


@pytest.mark.skipif(not LOCOMO_DEV.is_file(), reason=f"LoCoMo dev split not present at {LOCOMO_DEV}")
def test_dev_split_yields_one_record_per_turn() -> None:
    samples = json.loads(LOCOMO_DEV.read_text(encoding="utf-8"))
    turns = sum(
        len(value) for s in samples for key, value in s["conversation"].items() if isinstance(value, list)
    )
    records = list(locomo_records(samples))
    assert len(records) == turns == count_turns(samples)
    assert len({(r.episode.group_id, r.episode.id) for r in records}) == turns
