"""GroupMatrix under concurrent refreshes: kept episode versions and metadata codes stay current."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from engram.models.episodes import Episode, EpisodeFilters
from engram.storage.episode_matrix import GroupMatrix

AT = datetime(2024, 1, 1, tzinfo=UTC)


def _row(key: str, team: str) -> dict[str, Any]:
    return {
        "key": key, "vector": b"\x00\x00\x80\x3f" * 2, "timestamp": AT, "intent": None, "source": None,
        "actor_id": None, "metadata": {"team": team},
    }  # fmt: skip


def _episode(key: str, content: str) -> Episode:
    return Episode(
        id=key, group_id="g", version=1, content=content, timestamp=AT, recorded_at=AT, source_type="message",
        fingerprint=content, operation_id="op",
    )  # fmt: skip


def test_a_version_fetched_while_a_refresh_dropped_it_is_not_kept() -> None:
    group = GroupMatrix(2, "object")
    group.write_rows([_row("e0", "red")])

    def fetch_during_refresh(keys: Sequence[str]) -> dict[str, Episode]:
        old = {key: _episode(key, "old") for key in keys}  # read before the change committed
        group.forget_episodes(["e0"])  # another thread's refresh drops e0 meanwhile
        return old

    assert group.episodes(["e0"], fetch_during_refresh)["e0"].content == "old"
    again = group.episodes(["e0"], lambda keys: {key: _episode(key, "new") for key in keys})
    assert again["e0"].content == "new", "the old version was kept past the refresh that dropped it"
    assert group.episodes(["e0"], lambda keys: {})["e0"].content == "new", "a quiet fetch keeps"


def test_metadata_codes_wait_for_rows_being_written() -> None:
    group = GroupMatrix(2, "object")
    group.write_rows([_row("e0", "red"), _row("e1", "red")])
    built: list[Mapping[Any, int]] = []
    builder = threading.Thread(target=lambda: built.append(group.metadata_codes("team")[0]))

    def rows() -> Iterator[dict[str, Any]]:
        yield _row("e0", "blue")
        builder.start()  # a search asks for the codes while the refresh is half-written
        builder.join(timeout=0.5)
        assert builder.is_alive(), "codes were built from half-written rows"
        yield _row("e1", "blue")

    group.write_rows(rows())
    builder.join()
    mask = group.view().mask(EpisodeFilters(metadata={"team": "blue"}))
    assert mask.tolist() == [True, True]
    assert "red" not in built[0]


def test_kept_versions_stay_within_their_byte_budget_most_recent_first() -> None:
    group = GroupMatrix(2, "object", episode_bytes=3 * 3_010)  # three 10-character episodes
    keys = [f"e{i}" for i in range(5)]
    group.write_rows([_row(key, "red") for key in keys])
    fetched: list[str] = []

    def fetch(wanted: Sequence[str]) -> dict[str, Episode]:
        fetched.extend(wanted)
        return {key: _episode(key, f"{key:<10}") for key in wanted}

    for key in keys:
        group.episodes([key], fetch)
    fetched.clear()
    group.episodes(keys, fetch)
    assert fetched == ["e0", "e1"], "the three most recently returned were kept, the older two read again"
