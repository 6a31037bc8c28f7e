"""kill -9 during ``engram import``: acknowledged batches survive, the file stays sound, re-running finishes.

The import runs in a real subprocess with a small batch size. Its stderr is not a terminal,
so it prints ``committed N/total`` after each committed batch; once a few have appeared the
process is killed with SIGKILL, mid-import.

No step has a wall-clock budget (a busy machine once took more than 120 s to re-import):
the test waits on progress lines, and only a process that prints nothing for STALL_SECONDS
is taken for hung and killed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import apsw
import pytest

from conftest import LOCOMO_DEV
from engram.cli.common import stop_between_batches

EPISODES = 20_000
BATCH = 200
ACKS_BEFORE_KILL = 3
ACK = re.compile(r"^committed (\d+)/(\d+) ")
STALL_SECONDS = 600
"""A process that prints no line for this long is hung (it prints one per committed batch)."""


class StallWatchdog:
    """Kill ``process`` when ``touch`` is not called for STALL_SECONDS; progress, not a deadline."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.stalled = False
        self._timer: threading.Timer | None = None
        self.touch()

    def touch(self) -> None:
        """Record progress: the stall clock starts again."""
        self.cancel()
        self._timer = threading.Timer(STALL_SECONDS, self._kill)
        self._timer.daemon = True
        self._timer.start()

    def _kill(self) -> None:
        self.stalled = True
        self.process.kill()

    def cancel(self) -> None:
        """Stop watching."""
        if self._timer is not None:
            self._timer.cancel()


def write_episodes(path: Path) -> list[str]:
    """Write EPISODES episodes over two groups; return their ids in file order."""
    ids = [f"crash-{n:05d}" for n in range(EPISODES)]
    with path.open("w", encoding="utf-8") as handle:
        for n, episode_id in enumerate(ids):
            row = {
                "id": episode_id,
                "group_id": f"g{n % 2}",
                "timestamp": f"2024-01-01T00:00:00.{n:06d}Z",
                "actor": {"id": f"user-{n % 7}"},
                "content": f"Episode {n}: the customer asked about order {n * 7919 % 100_003}.",
                "metadata": {"n": n},
            }
            handle.write(json.dumps(row) + "\n")
    return ids


def engram(*args: str | Path) -> list[str]:
    """Return the argv that runs the engram CLI of this interpreter."""
    return [sys.executable, "-m", "engram", *(str(arg) for arg in args)]


def stored_ids(database: Path) -> set[str]:
    conn = apsw.Connection(str(database))
    try:
        return {str(row[0]) for row in conn.execute("SELECT id FROM episode_docs")}
    finally:
        conn.close()


def integrity(database: Path) -> str:
    conn = apsw.Connection(str(database))
    try:
        return "; ".join(str(row[0]) for row in conn.execute("PRAGMA integrity_check"))
    finally:
        conn.close()


def test_kill_9_loses_no_acknowledged_episode(tmp_path: Path) -> None:
    source = tmp_path / "episodes.jsonl"
    ids = write_episodes(source)
    data_dir = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    process = subprocess.Popen(
        engram("import", source, "--batch-size", BATCH, "--data-dir", data_dir),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    watchdog = StallWatchdog(process)
    acknowledged: list[int] = []
    try:
        assert process.stderr is not None
        for line in process.stderr:
            watchdog.touch()
            match = ACK.match(line)
            if match:
                acknowledged.append(int(match.group(1)))
                if len(acknowledged) >= ACKS_BEFORE_KILL:
                    process.send_signal(signal.SIGKILL)
                    break
        process.wait()  # SIGKILL (ours, or the watchdog's) cannot be ignored
    finally:
        watchdog.cancel()
        if process.stderr is not None:
            process.stderr.close()
    assert not watchdog.stalled, f"the import printed nothing for {STALL_SECONDS} s"
    assert len(acknowledged) == ACKS_BEFORE_KILL, "the import ended before it could be killed"
    assert process.returncode == -signal.SIGKILL

    database = data_dir / "engram.db"
    assert integrity(database) == "ok"
    present = stored_ids(database)
    acked = acknowledged[-1]
    assert acked == BATCH * ACKS_BEFORE_KILL
    assert len(present) >= acked
    assert set(ids[:acked]) <= present  # every acknowledged episode survived
    assert len(present) < EPISODES, "the kill landed after the import finished; nothing was tested"
    assert present <= set(ids)

    summary = tmp_path / "rerun.out"
    with summary.open("w", encoding="utf-8") as stdout:
        rerun = subprocess.Popen(
            engram("import", source, "--batch-size", 2000, "--data-dir", data_dir),
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        watchdog = StallWatchdog(rerun)
        assert rerun.stderr is not None
        try:
            errors = []
            for line in rerun.stderr:  # a line per committed batch, until the import ends
                watchdog.touch()
                errors.append(line)
            rerun.wait()
        finally:
            watchdog.cancel()
            rerun.stderr.close()
    assert not watchdog.stalled, f"the re-import printed nothing for {STALL_SECONDS} s"
    assert rerun.returncode == 0, "".join(errors)
    output = summary.read_text(encoding="utf-8")
    assert f"{EPISODES - len(present)} created, {len(present)} deduplicated" in output
    assert stored_ids(database) == set(ids)
    assert integrity(database) == "ok"
    assert queued_extractions(database) == 0  # the batch killed before its graph was built, built now


def queued_extractions(database: Path) -> int:
    conn = apsw.Connection(str(database))
    try:
        return int(next(conn.execute("SELECT count(*) FROM extraction_queue"))[0])
    finally:
        conn.close()


def graph_rows(database: Path) -> list[tuple[object, ...]]:
    """Every entity name and fact version of the store, sorted: the graph, ids aside."""
    conn = apsw.Connection(str(database))
    try:
        entities = [("entity", str(r[0]), str(r[1])) for r in conn.execute("SELECT name, type FROM entities")]
        facts = [("fact", str(r[0]), str(r[1])) for r in conn.execute("SELECT predicate, fact FROM facts")]
        return sorted(entities + facts)
    finally:
        conn.close()


def test_ctrl_c_stops_after_the_batch_being_stored_with_its_graph(tmp_path: Path) -> None:
    if not LOCOMO_DEV.is_file():
        pytest.skip(f"LoCoMo dev file not found at {LOCOMO_DEV}")
    env = {**os.environ, "ENGRAM_EMBEDDER": "none", "ENGRAM_EXTRACTOR": "builtin"}
    command = engram("import", LOCOMO_DEV, "--format", "locomo", "--batch-size", "100")
    with subprocess.Popen(
        [*command, "--data-dir", tmp_path / "stopped"], stderr=subprocess.PIPE, text=True, env=env
    ) as process:
        assert process.stderr is not None
        lines = [process.stderr.readline()]
        assert ACK.match(lines[0]), lines
        process.send_signal(signal.SIGINT)  # the next batch is being stored (or read) by now
        lines += process.stderr.readlines()
    assert process.returncode == 130, lines
    assert any(line.startswith("stopping after the batch being stored") for line in lines)
    acknowledged = [int(match.group(1)) for line in lines if (match := ACK.match(line))]
    assert f"interrupted: {acknowledged[-1]} records committed" in lines[-1]
    assert len(stored_ids(tmp_path / "stopped" / "engram.db")) == acknowledged[-1]
    # Run again to finish: every episode stored before the stop already has its graph.
    subprocess.run([*command, "--data-dir", tmp_path / "stopped"], env=env, check=True, capture_output=True)
    subprocess.run([*command, "--data-dir", tmp_path / "whole"], env=env, check=True, capture_output=True)
    stopped, whole = (
        graph_rows(tmp_path / "stopped" / "engram.db"),
        graph_rows(tmp_path / "whole" / "engram.db"),
    )
    assert len(whole) > 100
    assert stopped == whole


def test_a_second_ctrl_c_stops_at_once() -> None:
    with stop_between_batches() as checkpoint:
        checkpoint()  # nothing asked yet
        os.kill(os.getpid(), signal.SIGINT)  # the first: noted, deferred to the checkpoint
        with pytest.raises(KeyboardInterrupt):
            checkpoint()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)  # the second raises where the program is
            time.sleep(5)  # the handler runs before this ends
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
