"""The garbage collector pause of large batches: off only while a large batch runs, back on after
the last one in the process ends, and left off when it was off before."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from engram.ingest.bulk import GC_PAUSE_MIN, gc_paused


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    gc.enable()
    yield
    gc.enable()


def test_only_large_batches_pause_the_collector() -> None:
    with gc_paused(GC_PAUSE_MIN - 1):
        assert gc.isenabled()
    with gc_paused(GC_PAUSE_MIN):
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_resumes_after_an_error() -> None:
    with pytest.raises(ValueError), gc_paused(GC_PAUSE_MIN):
        raise ValueError("a refused batch")
    assert gc.isenabled()


def test_overlapping_batches_resume_it_when_the_last_ends() -> None:
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def second() -> None:
        first_in.wait()
        with gc_paused(GC_PAUSE_MIN):
            second_in.set()
            first_out.wait()
            seen["after the first ended"] = gc.isenabled()

    thread = threading.Thread(target=second)
    thread.start()
    with gc_paused(GC_PAUSE_MIN):
        first_in.set()
        second_in.wait()
    first_out.set()
    thread.join()
    assert seen == {"after the first ended": False}
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with gc_paused(GC_PAUSE_MIN):
        assert not gc.isenabled()
    assert not gc.isenabled()
