"""A meeting time is the conversation's: moved by another participant in the same thread, the old
time becomes history; a second meeting, or one outside the thread, stays beside it.

Through Memory with the builtin extractor on both backends, as a chat import or an agent
recording each message would write them.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram import Memory, Settings

WEDNESDAY = datetime(2024, 5, 1, 9, tzinfo=UTC)


@pytest.fixture
def memory(backend: dict[str, Any]) -> Iterator[Memory]:
    with Memory.open(settings=Settings(**backend, embedder="none"), background_indexing=False) as opened:
        yield opened


def message(actor: str, content: str, minutes: int, thread: str | None = "t1") -> dict[str, Any]:
    return {
        "content": content,
        "actor": {"id": actor, "name": actor.title()},
        "timestamp": WEDNESDAY + timedelta(minutes=minutes),
        "metadata": {} if thread is None else {"thread_id": thread},
    }


def store(memory: Memory, said: list[dict[str, Any]], together: bool) -> None:
    """Store the messages in one batch, or one request each."""
    if together:
        memory.create_episodes(said)
    else:
        for episode in said:
            memory.create_episode(episode)


def meetings(memory: Memory) -> dict[str, tuple[str, str | None]]:
    """Return each MEETING_AT time with its status and reason, history included."""
    hits = memory.search_facts({"predicate": "MEETING_AT", "include_history": True, "limit": 50}).results
    return {str(h.fact.value): (h.fact.status, h.fact.status_reason) for h in hits}


@pytest.mark.parametrize(
    ("first", "move"),
    [
        ("Let's meet Friday at 3pm to review the proposal.",
         "Something came up, so I moved the meeting to Monday at 10am."),
        ("Let's meet Friday at 3pm.", "I can't make Friday, let's meet Monday at 10am instead."),
        ("我们周五下午三点开会吧。", "周五我有事，会议改到下周一上午十点。"),
        ("我们周五下午三点开会吧。", "会议推迟到下周一上午十点。"),
        ("我们周五下午三点开会吧。", "会议改成下周一上午十点。"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("together", [False, True], ids=["one-by-one", "one-batch"])
def test_a_meeting_moved_by_the_other_participant_supersedes_its_old_time(
    memory: Memory, first: str, move: str, together: bool
) -> None:
    said = [message("alice", first, 0), message("bob", move, 30)]
    store(memory, said, together)
    found = meetings(memory)
    assert found["2024-05-06 10:00"] == ("current", None)
    status, reason = found["2024-05-03 15:00"]
    assert status == "superseded"
    assert reason is not None and reason.startswith("moved in its thread")


def test_a_second_meeting_or_another_thread_keeps_the_first(memory: Memory) -> None:
    memory.create_episode(message("alice", "Let's meet Friday at 3pm.", 0))
    memory.create_episode(message("bob", "I also have a meeting with Globex on Monday at 9am.", 10))
    memory.create_episode(message("carol", "We moved the meeting to Tuesday at 11am.", 20, thread="t2"))
    found = meetings(memory)
    assert {value: status for value, (status, _) in found.items()} == {
        "2024-05-03 15:00": "current",
        "2024-05-06 09:00": "current",
        "2024-05-07 11:00": "current",
    }


def test_a_weekday_named_without_a_preposition_is_the_coming_one(memory: Memory) -> None:
    """Said on a Wednesday, "meet Friday at 3pm" is that Friday, not 3pm on the day it was said."""
    memory.create_episode(message("alice", "Let's meet Friday at 3pm.", 0, thread=None))
    memory.create_episode(message("bob", "Let's meet next Friday at 3pm.", 5, thread=None))
    assert set(meetings(memory)) == {"2024-05-03 15:00"}


def test_a_move_leaves_a_meeting_said_to_be_another_one(memory: Memory) -> None:
    """ "The meeting" is the thread's: a move does not end a second meeting someone mentioned."""
    memory.create_episode(message("alice", "Let's meet Friday at 3pm.", 0))
    memory.create_episode(message("bob", "I also have a meeting with Globex on Monday at 9am.", 10))
    memory.create_episode(message("carol", "Let's meet Tuesday at 11am instead.", 20))
    found = {value: status for value, (status, _) in meetings(memory).items()}
    assert found == {
        "2024-05-03 15:00": "superseded",
        "2024-05-06 09:00": "current",
        "2024-05-07 11:00": "current",
    }


@pytest.mark.parametrize(
    ("said", "moment"),
    [
        ("Let's meet on the 10th at 2pm.", "2024-05-10 14:00"),
        ("The kickoff is on the 10th.", "2024-05-10"),
        ("我们25号上午九点半开会。", "2024-05-25 09:30"),
        ("会议定在25号下午两点。", "2024-05-25 14:00"),
    ],
)
def test_a_day_of_the_month_without_its_month_is_the_coming_one(
    memory: Memory, said: str, moment: str
) -> None:
    """Said on 1 May: the 10th and 25号 are this month's, not the day it was said (nor April's)."""
    memory.create_episode(message("alice", said, 0, thread=None))
    assert set(meetings(memory)) == {moment}


@pytest.mark.parametrize("together", [False, True], ids=["one-by-one", "one-batch"])
def test_a_time_stored_after_the_move_that_replaced_it_is_history(memory: Memory, together: bool) -> None:
    """Out of order (an import, a batch): the move arrives first; the time it moved comes after."""
    said = [
        message("bob", "Something came up, so I moved the meeting to Monday at 10am.", 30),
        message("alice", "Let's meet Friday at 3pm.", 0),
    ]
    store(memory, said, together)
    found = meetings(memory)
    assert found["2024-05-06 10:00"] == ("current", None)
    assert found["2024-05-03 15:00"][0] == "superseded"
