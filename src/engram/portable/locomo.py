"""Read LoCoMo conversations as episodes, one per dialogue turn.

LoCoMo (Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents",
ACL 2024; github.com/snap-research/LoCoMo) is a JSON list of samples
``{sample_id, conversation, qa, ...}``; ``conversation`` holds ``speaker_a``, ``speaker_b``,
``session_<N>_date_time`` ("1:56 pm on 8 May, 2023") and ``session_<N>``, a list of turns
``{speaker, dia_id: "D<N>:<k>", text, [img_url, blip_caption, query]}``.

Each turn becomes an episode:

- ``id`` ``<sample_id>:<dia_id>`` (e.g. ``conv-26:D1:3``), ``group_id`` the sample id;
- ``timestamp`` the session's date time, read as naive and so UTC, **plus the turn's 0-based
  index in the session, in seconds**: turns of a session share one date time in the data,
  and the offset keeps time order equal to conversation order (listing newest first gives
  the conversation backwards, deterministically). Sessions are hours or days apart, so the
  offsets never reach the next session;
- ``actor`` ``{type: "user", id: speaker, name: speaker}``, ``source`` "locomo",
  ``source_type`` "message";
- ``content`` the text, followed by ``[image: <blip_caption>]`` when the turn shared an image;
- ``metadata`` ``{"session": N, "dia_id": "D1:3"}`` plus ``"img_url"`` (as given) when present.

Sessions are read in numeric order; a ``session_<N>_date_time`` without turns is ignored.
Malformed input raises InvalidInput naming the sample and session.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engram.errors import InvalidInput
from engram.models.episodes import Actor, EpisodeIn
from engram.portable.base import ImportSource, Record
from engram.validation import explain

SOURCE = "locomo"

_MONTH_NAMES = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTHS = {
    **{name: number for number, name in enumerate(_MONTH_NAMES, start=1)},
    **{name[:3]: number for number, name in enumerate(_MONTH_NAMES, start=1)},
    "sept": 9,
}
# "1:56 pm on 8 May, 2023"; tolerates "1:56 p.m.", "8 May 2023", "Sept." and extra spaces.
_DATE_TIME = re.compile(
    r"^\s*(?P<hour>\d{1,2}):(?P<minute>\d{2})\s*(?P<ampm>[ap])\.?\s*m\.?\s+on\s+"
    r"(?P<day>\d{1,2})\s+(?P<month>[a-z]+)\.?\s*,?\s*(?P<year>\d{4})\s*$",
    re.IGNORECASE,
)
_SESSION_KEY = re.compile(r"^session_(\d+)$")


def parse_session_datetime(text: str, *, where: str) -> datetime:
    """Return the naive datetime of a LoCoMo session date time such as "1:56 pm on 8 May, 2023".

    Parsed by pattern, not ``strptime``, so the process locale cannot change the month names.
    Raises InvalidInput naming ``where`` (sample and session) when ``text`` is not one.
    """
    match = _DATE_TIME.match(text) if isinstance(text, str) else None
    month = _MONTHS.get(match.group("month").lower()) if match else None
    if match is None or month is None:
        raise InvalidInput(
            f"{where}: date time {text!r} is not like '1:56 pm on 8 May, 2023'", field="date_time"
        )
    hour = int(match.group("hour"))
    if not 1 <= hour <= 12:
        raise InvalidInput(f"{where}: date time {text!r} has hour {hour} (expected 1-12)", field="date_time")
    hour = hour % 12 + (12 if match.group("ampm").lower() == "p" else 0)
    try:
        return datetime(
            int(match.group("year")), month, int(match.group("day")), hour, int(match.group("minute"))
        )
    except ValueError as exc:
        raise InvalidInput(f"{where}: date time {text!r}: {exc}", field="date_time") from exc


def _sessions(conversation: Mapping[str, Any]) -> list[tuple[int, list[Any]]]:
    """Return ``(N, turns)`` for every ``session_<N>`` key, in numeric order."""
    found = []
    for key, value in conversation.items():
        match = _SESSION_KEY.match(key)
        if match and isinstance(value, list):
            found.append((int(match.group(1)), value))
    return sorted(found, key=lambda pair: pair[0])


def _turn_episode(
    turn: Any, *, sample_id: str, session: int, index: int, start: datetime, where: str
) -> EpisodeIn:
    """Return the episode of one turn; raises InvalidInput naming ``where`` and the field."""
    if not isinstance(turn, Mapping):
        raise InvalidInput(f"{where}: a turn must be an object, not {type(turn).__name__}", field="turn")
    for key in ("speaker", "dia_id", "text"):
        if not isinstance(turn.get(key), str):
            raise InvalidInput(f"{where}: turn has no text field {key!r}", field=key)
    content = turn["text"].strip()
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        content = f"{content} [image: {caption.strip()}]".strip()
    metadata: dict[str, Any] = {"session": session, "dia_id": turn["dia_id"]}
    if "img_url" in turn:
        metadata["img_url"] = turn["img_url"]
    speaker = turn["speaker"]
    try:
        return EpisodeIn(
            id=f"{sample_id}:{turn['dia_id']}",
            group_id=sample_id,
            timestamp=start + timedelta(seconds=index),
            source=SOURCE,
            source_type="message",
            actor=Actor(type="user", id=speaker, name=speaker),
            content=content,
            metadata=metadata,
        )
    except ValidationError as exc:
        field, message = explain(exc.errors(), "turn")[0]
        raise InvalidInput(f"{where}: {field}: {message}", field=field) from exc


def locomo_records(samples: Iterable[Any]) -> Iterator[Record]:
    """Yield one Record per turn of every sample, in sample, session and turn order.

    ``samples`` is the parsed LoCoMo JSON (a list of sample objects). Raises InvalidInput
    naming the sample (and session) when the structure or a date time is malformed.
    """
    for position, sample in enumerate(samples):
        if not isinstance(sample, Mapping) or not isinstance(sample.get("sample_id"), str):
            raise InvalidInput(f"sample {position}: not an object with a text 'sample_id'", field="sample_id")
        sample_id = sample["sample_id"]
        conversation = sample.get("conversation")
        if not isinstance(conversation, Mapping):
            raise InvalidInput(f"sample {sample_id}: no 'conversation' object", field="conversation")
        for session, turns in _sessions(conversation):
            where = f"sample {sample_id} session {session}"
            if not turns:
                continue
            key = f"session_{session}_date_time"
            if key not in conversation:
                raise InvalidInput(f"{where}: no {key!r}", field=key)
            start = parse_session_datetime(conversation[key], where=where)
            for index, turn in enumerate(turns):
                dia_id = turn.get("dia_id") if isinstance(turn, Mapping) else None
                turn_where = f"{where} turn {dia_id if isinstance(dia_id, str) else index}"
                yield Record(
                    turn_where,
                    _turn_episode(
                        turn, sample_id=sample_id, session=session, index=index, start=start, where=turn_where
                    ),
                )


def count_turns(samples: Iterable[Any]) -> int:
    """Return how many turns ``samples`` holds (what ``locomo_records`` will yield if valid)."""
    total = 0
    for sample in samples:
        conversation = sample.get("conversation") if isinstance(sample, Mapping) else None
        if isinstance(conversation, Mapping):
            total += sum(len(turns) for _, turns in _sessions(conversation))
    return total


def load_locomo(path: Path) -> list[Any]:
    """Return the samples of a LoCoMo JSON file. Raises InvalidInput when it is not one."""
    try:
        with path.open("rb") as handle:
            data = json.load(handle)
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{path}: not UTF-8 text: {exc}", field="file") from exc
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}", field="file"
        ) from exc
    if not isinstance(data, list):
        raise InvalidInput(f"{path}: a LoCoMo file is a JSON list of samples", field="file")
    return data


def read_locomo(path: Path) -> ImportSource:
    """Open a LoCoMo JSON file: load it, count its turns, and return its records lazily."""
    samples = load_locomo(path)
    return ImportSource(records=locomo_records(samples), total=count_turns(samples))
