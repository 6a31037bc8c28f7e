"""Days and clock times are read in the speaker's zone: ENGRAM_TIMEZONE, or the episode's
``metadata.timezone``; timestamps are stored in UTC, so without one 明天 said at 07:00 in Shanghai
is the UTC day's tomorrow. Through Memory and REST, as a client sends episodes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from conftest import LOOPBACK
from engram import Memory, Settings
from engram.api.app import create_app
from engram.errors import InvalidInput

MORNING_IN_SHANGHAI = "2024-06-05T07:00:00+08:00"  # 2024-06-04 23:00 UTC


def meeting(
    tmp_path: Path, zone: str, metadata: dict[str, Any], content: str = "明天下午三点开会。"
) -> set[str]:
    settings = Settings(data_dir=tmp_path / zone.replace("/", "-"), embedder="none", timezone=zone)
    with Memory.open(settings=settings, background_indexing=False) as memory:
        memory.create_episode(
            {
                "content": content,
                "actor": {"id": "li"},
                "timestamp": MORNING_IN_SHANGHAI,
                "metadata": metadata,
            }
        )
        return {str(h.fact.value) for h in memory.search_facts({"predicate": "MEETING_AT"}).results}


def test_the_store_zone_reads_tomorrow_on_the_speakers_day(tmp_path: Path) -> None:
    assert meeting(tmp_path, "UTC", {}) == {"2024-06-05 15:00"}, "the UTC day: 4 June, tomorrow the 5th"
    assert meeting(tmp_path, "Asia/Shanghai", {}) == {"2024-06-06 15:00"}


def test_the_episode_zone_wins_over_the_stores(tmp_path: Path) -> None:
    said = meeting(tmp_path, "UTC", {"timezone": "Asia/Shanghai"})
    assert said == {"2024-06-06 15:00"}
    chicago = meeting(
        tmp_path, "Asia/Shanghai", {"timezone": "America/Chicago"}, "Let's meet tomorrow at 3pm."
    )
    assert chicago == {"2024-06-05 15:00"}, "18:00 on 4 June in Chicago: tomorrow is the 5th"


def test_an_unknown_zone_is_refused_naming_its_field(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="not a time zone name"):
        Settings(data_dir=tmp_path, timezone="Mars/Olympus")
    with Memory.open(settings=Settings(data_dir=tmp_path / "d", embedder="none")) as memory:
        with pytest.raises(InvalidInput) as refused:
            memory.create_episode({"content": "hi", "metadata": {"timezone": "Beijing"}})
        assert "metadata" in str(refused.value.field) and "not a time zone name" in refused.value.detail
        answer = TestClient(create_app(memory), base_url=LOOPBACK).post(
            "/v1/episodes", json={"content": "hi", "metadata": {"timezone": 8}}
        )
        assert answer.status_code == 422 and "timezone must be an IANA time zone name" in answer.text
        assert answer.json()["errors"][0]["field"].startswith("metadata")
        assert memory.list_episodes().items == [], "nothing stored"
        stored = memory.create_episode({"content": "hi", "metadata": {"timezone": "Asia/Shanghai"}}).episode
        patched = TestClient(create_app(memory), base_url=LOOPBACK).patch(
            f"/v1/episodes/{stored.id}",
            json={"metadata": {"timezone": "localtime"}},
            headers={"If-Match": '"1"'},
        )
        assert patched.status_code == 422 and "'localtime' is not a time zone name" in patched.text
        assert memory.get_episode(stored.id).version == 1


def test_one_instant_in_two_zones_is_read_on_each_zones_day(tmp_path: Path) -> None:
    """The same sentence at the same instant, first without a zone then in Tokyo, in one process."""
    settings = Settings(data_dir=tmp_path / "d", embedder="none")
    with Memory.open(settings=settings, background_indexing=False) as memory:
        for group, metadata in (("utc", {}), ("tokyo", {"timezone": "Asia/Tokyo"})):
            memory.create_episode(
                {
                    "content": "下周一起我们用飞书。",
                    "group_id": group,
                    "actor": {"id": "li"},
                    "timestamp": "2024-06-09T15:30:00Z",  # Sunday in UTC, Monday 00:30 in Tokyo
                    "metadata": metadata,
                }
            )
        starts = {
            group: memory.search_facts({"group_id": group, "predicate": "USES"}).results[0].fact.valid_at
            for group in ("utc", "tokyo")
        }
    assert str(starts["utc"]) == "2024-06-10 00:00:00+00:00"
    assert str(starts["tokyo"]) == "2024-06-16 15:00:00+00:00", "next Monday, Tokyo midnight"
