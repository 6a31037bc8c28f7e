"""Table importers on the sample CRM files: a Salesforce CSV with a mapping, plain CSV, JSON records."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engram.errors import InvalidInput
from engram.memory import Memory

DATA = Path(__file__).resolve().parents[1] / "data" / "importers" / "crm"


def test_salesforce_csv_with_mapping(memory: Memory) -> None:
    stats = memory.import_file(DATA / "salesforce_activities.csv", mapping=DATA / "mapping.json")
    assert (stats.created, stats.problems) == (15, [])
    items = sorted(memory.list_episodes(limit=100).items, key=lambda e: e.id)
    assert items[0].id == "sf:00T5g00000Kq1AaEAJ" and items[-1].id == "sf:00T5g00000Kq1AoEAJ"
    assert items[0].timestamp == datetime(2024, 6, 3, 7, 40, tzinfo=UTC)  # Europe/Berlin, CEST
    assert items[-1].timestamp == datetime(2024, 6, 14, 3, 0, tzinfo=UTC)
    references = Counter(ref for e in items for ref in e.references)
    assert references == {
        "sf:0065g00000Fab01AAA": 7,
        "sf:0065g00000Yhz02AAA": 5,
        "sf:0065g00000Yhz03AAA": 1,
        "sf:0065g00000Hxy04AAA": 2,
    }
    intents = Counter(e.intent for e in items)
    assert intents["provide_quote"] == 2 and intents["close_deal"] == 2 and intents[None] == 1
    assert next(e for e in items if e.id == "sf:00T5g00000Kq1AcEAJ").intent is None  # left to classify
    assert Counter(e.actor.id for e in items if e.actor) == {
        "Maria Lopez": 5,
        "Jonas Schulz": 2,
        "张磊": 4,
        "陈晨": 4,
    }
    listed = next(e for e in items if e.id == "sf:00T5g00000Kq1AfEAJ")
    assert listed.content.count("\n") >= 4  # the multi-line quoted Description, whole
    quoted = next(e for e in items if e.id == "sf:00T5g00000Kq1AjEAJ")
    assert '"验收合格后30天内"' in quoted.content  # "" inside a field is one quote
    assert listed.metadata["account"] and listed.metadata["opportunity"]


def test_salesforce_preset_without_mapping(memory: Memory) -> None:
    stats = memory.import_file(DATA / "salesforce_activities.csv")
    assert stats.created == 15
    episode = memory.get_episode("sf:00T5g00000Kq1AaEAJ")
    assert episode.metadata["Account Name"] == "Fabrikam Inc."  # remaining columns go to metadata
    assert episode.references == ["sf:0065g00000Fab01AAA"]


def test_plain_csv(memory: Memory) -> None:
    stats = memory.import_file(DATA / "plain.csv")
    assert (stats.created, stats.problems) == (8, [])
    items = sorted(memory.list_episodes(limit=100).items, key=lambda e: e.timestamp)
    assert items[0].timestamp == datetime(2024, 6, 17, 1, 5, tzinfo=UTC)  # +08:00
    system = next(e for e in items if e.actor and e.actor.id == "System")
    assert system.timestamp == datetime(2024, 6, 18, 8, 0, tzinfo=UTC)  # naive: UTC
    assert {e.metadata["channel"] for e in items} == {"wechat", "email", "phone", "system", "meeting", "call"}
    assert all(e.intent is None for e in items)
    assert (
        "$684,000 over 24 months" in next(e for e in items if e.actor and e.actor.id == "Devin Park").content
    )


def test_json_records_with_toml_mapping(memory: Memory) -> None:
    stats = memory.import_file(DATA / "records.json", mapping=DATA / "mapping.toml")
    assert (stats.created, stats.problems) == (6, [])
    items = {e.id: e for e in memory.list_episodes(limit=100).items}
    assert sorted(items) == [f"SUP-{n}" for n in range(1039, 1045)]
    assert items["SUP-1039"].timestamp == datetime(2024, 6, 13, 15, 0, tzinfo=UTC)
    assert items["SUP-1044"].timestamp == datetime(2024, 6, 17, 16, 0, tzinfo=UTC)
    assert items["SUP-1041"].actor and items["SUP-1041"].actor.id == items["SUP-1039"].actor.id  # type: ignore[union-attr]
    assert items["SUP-1041"].actor.name == "吴凯琳"  # type: ignore[union-attr]
    links = {(e.id, ref) for e in items.values() for ref in e.references}
    assert links == {
        ("SUP-1040", "SUP-1039"),
        ("SUP-1041", "SUP-1039"),
        ("SUP-1043", "SUP-1042"),
        ("SUP-1044", "SUP-1039"),
        ("SUP-1044", "SUP-1040"),
    }
    assert all(ref in items for _, ref in links)  # references between episodes of the same import
    assert items["SUP-1043"].intent is None
    assert items["SUP-1039"].metadata["tags"] == ["kiosk", "delivery", "boulder"]


def test_bad_rows_are_named_by_line(memory: Memory, tmp_path: Path) -> None:
    table = tmp_path / "broken.csv"
    table.write_text(
        "time,actor,content\n2024-06-01T10:00:00Z,li,ok\nnot a time,li,bad time\n2024-06-01T11:00:00Z,li,\n"
        "2024-06-01T12:00:00Z,wang,also ok\n",
        encoding="utf-8",
    )
    stats = memory.import_file(table)
    assert stats.created == 2
    assert [(p.where, p.field) for p in stats.problems] == [
        ("broken.csv line 3", "time"),  # the column the bad value is in
        ("broken.csv line 4", "row"),
    ]
    assert "not a time" in stats.problems[0].detail


def test_mapping_errors_name_the_field(memory: Memory, tmp_path: Path) -> None:
    mapping = tmp_path / "m.json"
    mapping.write_text(json.dumps({"content": {"fields": []}}), encoding="utf-8")
    with pytest.raises(InvalidInput) as caught:
        memory.import_file(DATA / "plain.csv", mapping=mapping)
    assert caught.value.field == "mapping.content.fields"
    mapping.write_text(json.dumps({"content": {"fields": ["Body"]}}), encoding="utf-8")
    with pytest.raises(InvalidInput, match="no column 'Body'"):
        memory.import_file(DATA / "plain.csv", mapping=mapping)
