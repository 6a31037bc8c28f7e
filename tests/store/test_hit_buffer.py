"""HitBuffer: fact hits wait in memory and are written in batches, by a timer or on flush."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from engram.errors import StoreError
from engram.storage.hit_buffer import Hit, HitBuffer

T0 = datetime(2024, 1, 1, tzinfo=UTC)


class Sink:
    """A write function that records batches, and fails while ``failing`` is set."""

    def __init__(self) -> None:
        self.batches: list[list[Hit]] = []
        self.failing = False
        self.wrote = threading.Event()

    def __call__(self, hits: Sequence[Hit]) -> None:
        if self.failing:
            raise StoreError("disk full")
        self.batches.append(sorted(hits))
        self.wrote.set()


def test_a_burst_of_hits_is_one_batch_with_the_latest_time_per_fact() -> None:
    sink = Sink()
    buffer = HitBuffer(sink, delay=0.05)
    buffer.add("g", ["fa_1", "fa_2"], T0)
    buffer.add("g", ["fa_1"], T0 + timedelta(seconds=5))
    buffer.add("g", ["fa_2"], T0 - timedelta(seconds=5))  # older: ignored
    buffer.add("h", ["fa_1"], T0)
    assert sink.wrote.wait(5), "the timer flushes without being asked"
    assert sink.batches == [[("g", "fa_1", T0 + timedelta(seconds=5)), ("g", "fa_2", T0), ("h", "fa_1", T0)]]
    buffer.flush()
    assert len(sink.batches) == 1, "nothing pending: no write"


def test_flush_writes_now_and_a_failed_write_keeps_the_hits() -> None:
    sink = Sink()
    buffer = HitBuffer(sink, delay=60)
    buffer.add("g", ["fa_1"], T0)
    sink.failing = True
    with pytest.raises(StoreError):
        buffer.flush()
    sink.failing = False
    buffer.flush()
    assert sink.batches == [[("g", "fa_1", T0)]]


def test_a_failing_timer_flush_is_logged_and_retried(caplog: pytest.LogCaptureFixture) -> None:
    sink = Sink()
    sink.failing = True
    buffer = HitBuffer(sink, delay=0.01)
    buffer.add("g", ["fa_1"], T0)
    deadline = time.monotonic() + 5
    while "could not record fact hits" not in caplog.text and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "disk full" in caplog.text
    sink.failing = False
    buffer.add("g", ["fa_2"], T0)
    assert sink.wrote.wait(5)
    assert sink.batches == [[("g", "fa_1", T0), ("g", "fa_2", T0)]]
