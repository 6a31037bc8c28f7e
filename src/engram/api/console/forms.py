"""Console forms to Memory inputs: what a person typed, checked field by field.

Each form returns the request it makes of Memory and the errors by field, as message ids
(``form.error.required``) shown next to the field. Memory's own InvalidInput errors name a
field too; :func:`field_of` maps them onto the form's controls.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from engram.models.episodes import Episode

PRIORITIES = ("high", "medium", "low")
SOURCES = ("phone", "email", "meeting", "chat", "wechat", "note", "console")
"""Suggested sources (the field takes any label)."""
MAX_REFERENCES = 20
FORM_FIELDS = ("intent", "content", "actor", "time", "source", "references", "priority", "due", "metadata")


def parse_time(text: str) -> datetime | None:
    """Return a ``datetime-local`` value (``2026-05-01T14:03``) as UTC, or None when it is not one."""
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def parse_date(text: str) -> date | None:
    """Return a ``YYYY-MM-DD`` date, or None when it is not one."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        return None


def day_start(value: date) -> datetime:
    """Return the first moment of a UTC day."""
    return datetime(value.year, value.month, value.day, tzinfo=UTC)


def field_of(memory_field: str | None) -> str:
    """Return the form control a Memory error's ``field`` is about (``actor.id`` → actor)."""
    head = (memory_field or "content").split(".")[0]
    aliases = {"timestamp": "time", "metadata": "metadata", "group_id": "content", "id": "content"}
    head = aliases.get(head, head)
    return head if head in FORM_FIELDS else "content"


def clean_references(values: list[str]) -> list[str]:
    """Return the non-empty references, stripped, each once, in order."""
    return list(dict.fromkeys(v.strip() for v in values if v.strip()))


@dataclass
class EpisodeForm:
    """The new-episode form as typed."""

    intent: str = ""
    content: str = ""
    actor: str = ""
    time: str = ""
    source: str = ""
    references: list[str] = field(default_factory=list)
    priority: str = ""
    due: str = ""

    def episode(self, intents: set[str]) -> tuple[dict[str, Any], dict[str, str]]:
        """Return the EpisodeIn payload and the errors by field (message ids)."""
        errors: dict[str, str] = {}
        payload: dict[str, Any] = {"content": self.content.strip()}
        if not payload["content"]:
            errors["content"] = "form.error.required"
        if self.intent:
            if self.intent in intents:
                payload["intent"] = self.intent
            else:
                errors["intent"] = "form.error.intent"
        if self.actor.strip():
            payload["actor"] = {"id": self.actor.strip(), "type": "user"}
        if self.time.strip():
            moment = parse_time(self.time)
            if moment is None:
                errors["time"] = "form.error.time"
            else:
                payload["timestamp"] = moment.isoformat()
        if self.source.strip():
            payload["source"] = self.source.strip()
        references = clean_references(self.references)
        if len(references) > MAX_REFERENCES:
            errors["references"] = "form.error.references"
        payload["references"] = references
        metadata, meta_errors = priority_and_due(self.priority, self.due)
        errors.update(meta_errors)
        payload["metadata"] = metadata
        return payload, errors


def priority_and_due(priority: str, due: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Return the metadata ``{priority, due}`` a form sets (absent when blank) and the errors."""
    metadata: dict[str, Any] = {}
    errors: dict[str, str] = {}
    if priority:
        if priority in PRIORITIES:
            metadata["priority"] = priority
        else:
            errors["priority"] = "form.error.priority"
    if due.strip():
        when = parse_date(due)
        if when is None:
            errors["due"] = "form.error.date"
        else:
            metadata["due"] = when.isoformat()
    return metadata, errors


@dataclass
class EditForm:
    """The episode edit form: intent, status, priority, due, other metadata (JSON), references."""

    version: str = ""
    intent: str = ""
    status: str = "active"
    priority: str = ""
    due: str = ""
    metadata: str = ""
    references: list[str] = field(default_factory=list)

    def patch(self, current: Episode, intents: set[str]) -> tuple[dict[str, Any], dict[str, str]]:
        """Return the merge patch that makes ``current`` what the form says (only what changed) and
        the errors by field. Metadata keys the form dropped are removed (``null`` in the patch)."""
        errors: dict[str, str] = {}
        other: dict[str, Any] = {}
        if self.metadata.strip():
            try:
                parsed = json.loads(self.metadata)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict):
                other = parsed
            else:
                errors["metadata"] = "form.error.json"
        known, meta_errors = priority_and_due(self.priority, self.due)
        errors.update(meta_errors)
        wanted = {**{k: v for k, v in other.items() if k not in ("priority", "due")}, **known}
        metadata: dict[str, Any] = {k: None for k in current.metadata if k not in wanted}
        metadata.update({k: v for k, v in wanted.items() if current.metadata.get(k) != v})
        patch: dict[str, Any] = {"metadata": metadata} if metadata else {}
        references = clean_references(self.references)
        if references != current.references:
            patch["references"] = references
        if self.intent and self.intent not in intents and self.intent != current.intent:
            errors["intent"] = "form.error.intent"
        if (self.intent or None) != current.intent:
            patch["intent"] = self.intent or None
        if self.status not in ("active", "archived"):
            errors["status"] = "form.error.status"
        elif self.status != current.status:
            patch["status"] = self.status
        return patch, errors

    def expected_version(self) -> int | None:
        """Return the version the form was made from, or None when it names none."""
        return int(self.version) if self.version.isdigit() else None


def search_filters(
    intent: str, source: str, actor: str, after: str, before: str
) -> tuple[dict[str, Any], dict[str, str]]:
    """Return the search's ``filters`` from the search form (``before`` is the last day, inclusive)."""
    filters: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name, value in (("intent", intent), ("source", source), ("actor_id", actor)):
        if value.strip():
            filters[name] = [value.strip()]
    for name, value, shift in (("timestamp_after", after, 0), ("timestamp_before", before, 1)):
        if value.strip():
            day = parse_date(value)
            if day is None:
                errors[name] = "form.error.date"
            else:
                filters[name] = (day_start(day) + timedelta(days=shift)).isoformat()
    return filters, errors
