"""Memory, the library facade, used as a Python caller would."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

import engram
from engram import (
    Conflict,
    InvalidInput,
    Memory,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    Settings,
)
from engram.ingest.inputs import fingerprint


def test_public_surface_is_sorted_and_importable() -> None:
    assert engram.__all__ == sorted(engram.__all__)
    for name in engram.__all__:
        assert getattr(engram, name) is not None


def test_every_type_memory_returns_is_exported() -> None:
    """A caller can name (and import from ``engram``) whatever a public Memory method returns."""
    import inspect
    import typing

    exported = {getattr(engram, name) for name in engram.__all__}
    returned: set[type] = set()
    for name, method in inspect.getmembers(Memory, inspect.isfunction):
        if name.startswith("_"):
            continue
        stack = [typing.get_type_hints(method).get("return")]
        while stack:
            hint = stack.pop()
            stack.extend(typing.get_args(hint))
            if isinstance(hint, type) and hint.__module__.startswith("engram."):
                returned.add(hint)
    assert returned, "the check found return types"
    missing = sorted(t.__name__ for t in returned - exported - {Memory})
    assert missing == [], f"not exported from engram: {missing}"


def test_create_fills_defaults_and_reads_back(memory: Memory) -> None:
    before = datetime.now(UTC)
    created = memory.create_episode(
        {"content": "Melanie signed up for a pottery class", "actor": {"id": "mel"}}
    )
    episode = created.episode
    assert created.deduplicated is False
    assert episode.id.startswith("ep_") and episode.group_id == "default" and episode.version == 1
    assert before <= episode.timestamp <= datetime.now(UTC), "timestamp defaults to the time of receipt"
    assert episode.timestamp.tzinfo is not None
    assert episode.fingerprint == fingerprint(None, episode.content, "mel")
    assert memory.get_episode(episode.id) == episode


def test_naive_timestamps_are_utc_and_aware_ones_are_converted(memory: Memory) -> None:
    naive = memory.create_episode({"content": "a", "timestamp": "2023-05-08T13:56:00"}).episode
    assert naive.timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    shanghai = timezone(timedelta(hours=8))
    aware = memory.create_episode(
        {"content": "b", "timestamp": datetime(2023, 5, 8, 21, 56, tzinfo=shanghai)}
    )
    assert aware.episode.timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert aware.episode.timestamp.utcoffset() == timedelta(0)


def test_json_content_is_stored_canonically(memory: Memory) -> None:
    episode = memory.create_episode({"content": {"b": 1, "a": "订单"}}).episode
    assert episode.content == '{"a":"订单","b":1}'
    assert episode.source_type == "json"


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"content": ""}, "content"),
        ({"content": "   "}, "content"),
        ({}, "content"),
        ({"content": "x", "colour": "red"}, "colour"),
        ({"content": "x", "group_id": "bad group!"}, "group_id"),
        ({"content": "x", "timestamp": "not a date"}, "timestamp"),
        ({"content": "x", "id": "has space"}, "id"),
        ({"content": "x", "actor": {"name": "no id"}}, "actor.id"),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(
    memory: Memory, payload: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        memory.create_episode(payload)
    assert caught.value.field == field
    assert memory.store.counts()["episodes"] == 0


@pytest.mark.parametrize(
    ("metadata", "field", "says"),
    [
        ({"n": float("nan")}, "metadata.n", "Input should be a finite number"),
        ({"n": 10**30}, "metadata.n", "1e+30 is beyond ±9e18, the largest number stored"),
        ({"n": 1j}, "metadata.n", "must be a string, a boolean, a number, a list or an object"),
        ({"stats": {"score": float("nan")}}, "metadata.stats.score", "Input should be a finite number"),
        ({"tags": ["a", float("inf")]}, "metadata.tags.1", "Input should be a finite number"),
        ({"s": {"t": 1j}}, "metadata.s.t", "must be a string, a boolean, a number, a list or an object"),
    ],
)
def test_a_metadata_value_no_json_type_takes_says_what_is_wrong_with_it(
    memory: Memory, metadata: dict[str, object], field: str, says: str
) -> None:
    """Not "should be a valid string" (the first type a metadata value may have) for a number,
    and the field of the value itself, however deep it sits."""
    with pytest.raises(InvalidInput) as caught:
        memory.create_episode({"content": "x", "metadata": metadata})
    assert caught.value.field == field and caught.value.detail == f"{field}: {says}"


def test_content_limit_is_configurable(tmp_path: Path) -> None:
    with Memory.open(settings=Settings(data_dir=tmp_path, max_content_bytes=10)) as small:
        small.create_episode({"content": "0123456789"})
        with pytest.raises(InvalidInput) as caught:
            small.create_episode({"content": "订单订单"})  # 12 bytes in UTF-8
        assert caught.value.field == "content"
        assert "12 bytes" in caught.value.detail


def test_duplicate_fingerprint_returns_the_stored_episode(memory: Memory) -> None:
    first = memory.create_episode({"content": "same", "actor": {"id": "u1"}, "intent": "note"})
    again = memory.create_episode({"content": "same", "actor": {"id": "u1"}, "intent": "note"})
    assert again.deduplicated is True and again.episode == first.episode
    other_actor = memory.create_episode({"content": "same", "actor": {"id": "u2"}, "intent": "note"})
    other_intent = memory.create_episode({"content": "same", "actor": {"id": "u1"}, "intent": "other"})
    assert not other_actor.deduplicated and not other_intent.deduplicated


def test_client_chosen_ids(memory: Memory) -> None:
    created = memory.create_episode({"id": "conv-1:D1:1", "content": "hi"})
    assert created.episode.id == "conv-1:D1:1"
    assert memory.create_episode({"id": "conv-1:D1:1", "content": "hi"}).deduplicated
    # The same words under another client id are another event (e.g. "Bye!" said twice).
    assert not memory.create_episode({"id": "conv-1:D9:1", "content": "hi"}).deduplicated
    with pytest.raises(Conflict):
        memory.create_episode({"id": "conv-1:D1:1", "content": "different words"})


def test_batch_is_all_or_nothing_and_names_the_item(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as caught:
        memory.create_episodes([{"content": "fine"}, {"content": ""}])
    assert caught.value.field == "1.content"
    assert memory.store.counts()["episodes"] == 0
    results = memory.create_episodes(
        [{"content": "a"}, {"content": "b", "group_id": "other"}, {"content": "a"}]
    )
    assert [r.deduplicated for r in results] == [False, False, True]
    assert results[1].episode.group_id == "other"


def test_a_batch_over_two_groups_is_all_or_nothing(backend: dict[str, object]) -> None:
    """Each group gets its own operation, but the batch is one transaction: a conflict in the
    second group leaves nothing of the first."""
    with Memory.open(settings=Settings(**backend, embedder="none", extractor="none")) as memory:  # type: ignore[arg-type]
        memory.create_episode({"id": "x1", "group_id": "b", "content": "first"})
        with pytest.raises(Conflict):
            memory.create_episodes(
                [
                    {"id": "a1", "group_id": "a", "content": "in a"},
                    {"id": "x1", "group_id": "b", "content": "other words"},
                ]
            )
        with pytest.raises(NotFound):
            memory.get_episode("a1", group_id="a")
        assert memory.list_operations(group_id="a").items == []
        created = memory.create_episodes(
            [
                {"id": "a1", "group_id": "a", "content": "in a"},
                {"id": "b2", "group_id": "b", "content": "in b"},
            ]
        )
        assert [(c.episode.group_id, c.deduplicated) for c in created] == [("a", False), ("b", False)]


def test_update_is_a_merge_patch_producing_a_new_version(memory: Memory) -> None:
    episode = memory.create_episode(
        {"content": "budget", "intent": "plan", "metadata": {"a": 1, "nested": {"x": 1, "y": 2}}}
    ).episode
    updated = memory.update_episode(
        episode.id,
        {"metadata": {"a": None, "b": 2, "nested": {"y": None}}, "intent": None},
        expected_version=1,
    )
    assert updated.version == 2
    assert updated.metadata == {"b": 2, "nested": {"x": 1}}
    assert updated.intent is None
    assert updated.content == episode.content
    assert updated.fingerprint == fingerprint(None, "budget", None), "the fingerprint follows the intent"
    assert updated.operation_id != episode.operation_id
    assert memory.get_episode(episode.id) == updated


def test_update_preconditions_and_immutable_fields(memory: Memory) -> None:
    episode = memory.create_episode({"content": "x"}).episode
    with pytest.raises(PreconditionRequired):
        memory.update_episode(episode.id, {"status": "archived"}, expected_version=None)
    with pytest.raises(PreconditionFailed) as stale:
        memory.update_episode(episode.id, {"status": "archived"}, expected_version=2)
    assert stale.value.current_version == 1
    with pytest.raises(InvalidInput) as immutable:
        memory.update_episode(episode.id, {"content": "rewritten"}, expected_version=1)
    assert immutable.value.field == "content"
    with pytest.raises(NotFound):
        memory.update_episode("missing", {"status": "archived"}, expected_version=1)
    assert memory.get_episode(episode.id).version == 1


def test_reads_are_scoped_to_the_group(memory: Memory) -> None:
    episode = memory.create_episode({"content": "secret plan", "group_id": "team-a"}).episode
    with pytest.raises(NotFound):
        memory.get_episode(episode.id)
    assert memory.get_episode(episode.id, "team-a") == episode
    assert memory.list_episodes("team-b").items == []
    assert memory.search_episodes({"query": "secret", "group_id": "team-b"}).results == []


def test_list_pages_with_a_cursor(memory: Memory) -> None:
    start = datetime(2024, 1, 1, tzinfo=UTC)
    memory.create_episodes(
        [
            {
                "content": f"turn {i}",
                "timestamp": start + timedelta(minutes=i),
                "intent": "odd" if i % 2 else "even",
            }
            for i in range(7)
        ]
    )
    seen: list[str] = []
    cursor = None
    while True:
        page = memory.list_episodes(limit=3, cursor=cursor)
        seen += [e.content for e in page.items]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [f"turn {i}" for i in reversed(range(7))]
    odd = memory.list_episodes(intent=["odd"], after=start + timedelta(minutes=2))
    assert [e.content for e in odd.items] == ["turn 5", "turn 3"]
    with pytest.raises(InvalidInput) as bad:
        memory.list_episodes(cursor="garbage!")
    assert bad.value.field == "cursor"
    with pytest.raises(InvalidInput):
        memory.list_episodes(limit=0)


def test_the_described_size_counts_writes_not_yet_checkpointed(tmp_path: Path) -> None:
    """What `engram import` and `engram doctor` print: the SQLite file with its write-ahead log."""
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extractor="none")
    with Memory.open(settings=settings, background_indexing=False) as memory:

        def kib() -> float:
            return float(memory.store.describe().rsplit("(", 1)[1].split(" KiB")[0].replace(",", ""))

        before = kib()
        memory.create_episodes([{"content": f"note {n}: " + "x" * 2000} for n in range(50)])
        assert kib() >= before + 100  # ~100 KiB written, still in the log (no checkpoint yet)
