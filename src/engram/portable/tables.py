"""Read CRM and other tables as episodes, one per row: CSV files and JSON records, with a mapping.

A mapping (JSON or TOML, one schema) says which column (CSV) or field (JSON, dotted for nested
objects: ``user.email``) fills each episode field::

    {"format": "csv", "source": "salesforce", "source_type": "crm",
     "id": {"field": "Activity ID", "prefix": "sf:"},
     "time": {"field": "Created Date", "format": "%m/%d/%Y %I:%M %p", "timezone": "Europe/Berlin"},
     "actor": {"id": "Assigned To", "name": "Assigned To", "type": "user"},
     "content": {"fields": ["Subject", "Description"], "separator": "\\n\\n"},
     "intent": {"field": "Intent", "empty": "classify"},
     "metadata": {"account": "Account Name"},
     "references": {"fields": ["Related To ID"], "prefix": "sf:"}}

``time.format`` is a ``strptime`` pattern or ``"unix"`` (seconds); without it ISO 8601 is read;
``time.timezone`` (IANA) places naive values, else they are UTC. ``actor.type`` names a column
when the row has one by that name, else it is the type itself. A blank intent is left to the
classifier (``empty: "classify"``, the default) or stored as ``empty`` names. A list value in a
references column gives several references. Without ``metadata``, every column no other field
uses goes to metadata.

Without a mapping file a **preset** is chosen from the columns: a Salesforce-style activity
export (``Activity ID``, ``Created Date``, ``Assigned To``, ``Subject``…) or plain ``time``,
``actor``, ``content`` columns (also ``timestamp``/``date``, ``author``/``user``/``from``,
``text``/``body``/``message``), the remaining columns going to metadata. A row that cannot be
read is a Problem naming the file and line (CSV) or record (JSON), and the column or field
(``column "Created Date": 'soon' is not a date/time (ISO 8601 expected)``); the others are
imported. A CSV whose last quoted field is never closed (its row would swallow the rest of the
file) gives a Problem for that row. A JSON object or list in a content field is kept as JSON:
an object alone is the episode's object content, stored as canonical JSON text as REST does.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engram.errors import InvalidInput
from engram.models.episodes import EpisodeIn
from engram.portable.base import ImportSource, Parsed, Problem, Record


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid")


class IdField(_Part):
    field: str
    prefix: str = ""


class TimeField(_Part):
    field: str
    format: str | None = None
    timezone: str | None = None


class ActorField(_Part):
    id: str
    name: str | None = None
    type: str = "user"


class ContentField(_Part):
    fields: list[str] = Field(min_length=1)
    separator: str = "\n\n"


class IntentField(_Part):
    field: str
    empty: str = "classify"


class ReferencesField(_Part):
    fields: list[str] = Field(min_length=1)
    prefix: str = ""


class Mapping_(_Part):
    """Which columns or fields fill which episode fields (see the module docstring)."""

    description: str = ""
    format: str | None = None
    source: str | None = None
    source_type: str = "record"
    id: IdField | None = None
    time: TimeField | None = None
    actor: ActorField | None = None
    content: ContentField
    intent: IntentField | None = None
    metadata: dict[str, str] | None = None
    references: ReferencesField | None = None


SALESFORCE = Mapping_(
    source="salesforce",
    source_type="crm",
    id=IdField(field="Activity ID", prefix="sf:"),
    time=TimeField(field="Created Date", format="%m/%d/%Y %I:%M %p"),
    actor=ActorField(id="Assigned To", name="Assigned To"),
    content=ContentField(fields=["Subject", "Description"]),
    intent=IntentField(field="Intent"),
    references=ReferencesField(fields=["Related To ID"], prefix="sf:"),
)
"""Preset: a Salesforce activity report (times in the report's zone are read as UTC: give a
mapping with ``time.timezone`` to place them)."""
_ALIASES = {
    "time": ("time", "timestamp", "date", "created_at", "created"),
    "actor": ("actor", "author", "user", "from", "sender"),
    "content": ("content", "text", "body", "message"),
    "intent": ("intent",),
}


def load_mapping(path: Path) -> Mapping_:
    """Read a mapping file (``.toml``, else JSON). Raises InvalidInput naming the file and field."""
    try:
        raw = path.read_bytes()
        data = tomllib.loads(raw.decode("utf-8")) if path.suffix == ".toml" else json.loads(raw)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InvalidInput(f"cannot read the mapping {path}: {exc}", field="mapping") from exc
    try:
        return Mapping_.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidInput(f"mapping {path.name}: {where}: {first['msg']}", field=f"mapping.{where}") from exc


def preset_for(columns: Sequence[str]) -> Mapping_:
    """Return the preset mapping for a table with ``columns``. Raises InvalidInput when none fits."""
    if {"Activity ID", "Created Date", "Assigned To", "Subject"} <= set(columns):
        return SALESFORCE
    lower = {c.lower(): c for c in columns}
    found = {key: next((lower[n] for n in names if n in lower), None) for key, names in _ALIASES.items()}
    if found["content"] is None:
        raise InvalidInput(
            f"no content column among {', '.join(columns)}; name one content/text/body/message, "
            "or pass --mapping",
            field="mapping",
        )
    return Mapping_(
        time=TimeField(field=found["time"]) if found["time"] else None,
        actor=ActorField(id=found["actor"], name=found["actor"]) if found["actor"] else None,
        content=ContentField(fields=[found["content"]]),
        intent=IntentField(field=found["intent"]) if found["intent"] else None,
    )


def _mapping_for(path: Path, kind: str, columns: Sequence[str], mapping: Mapping_ | None) -> Mapping_:
    """Return ``mapping``, else the preset for ``columns``; InvalidInput naming ``path`` when none fits."""
    if mapping is not None:
        return mapping
    if not columns:
        raise InvalidInput(f"{path}: nothing to import: no {kind} record found in it", field="PATH")
    try:
        return preset_for(columns)
    except InvalidInput as exc:
        raise InvalidInput(f"{path}: {exc.detail}", field=exc.field) from exc


def _get(row: Mapping[str, Any], name: str) -> Any:
    """Return ``row[name]``, or the dotted path ``a.b`` into nested objects; None when absent."""
    if name in row:
        return row[name]
    value: Any = row
    for part in name.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _text(value: Any) -> str:
    """Return a cell as text: JSON for objects, lists and booleans (not Python's repr), '' for none."""
    if value is None or value == {} or value == []:
        return ""
    if isinstance(value, dict | list | bool):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return str(value).strip()


class CellError(ValueError):
    """A cell that cannot fill its episode field; ``column`` names it (its CSV column or JSON field)."""

    def __init__(self, column: str, detail: str) -> None:
        super().__init__(detail)
        self.column = column
        self.detail = detail


def _time(value: Any, spec: TimeField) -> datetime:
    """Return the cell as a UTC time. Raises CellError naming the column, the value and what was expected."""
    if value is None or value == "":
        raise CellError(spec.field, "is empty (a date/time is needed)")
    expected = {"unix": "seconds since 1970", None: "ISO 8601"}.get(spec.format, f"format {spec.format}")
    text = str(value).strip()
    try:
        if spec.format == "unix":
            return datetime.fromtimestamp(float(value), UTC)
        moment = (
            datetime.strptime(text, spec.format)
            if spec.format
            else datetime.fromisoformat(text.replace("Z", "+00:00"))
        )
    except (ValueError, TypeError, OverflowError, OSError) as exc:
        raise CellError(spec.field, f"{text!r} is not a date/time ({expected} expected)") from exc
    if moment.tzinfo is None:
        zone = ZoneInfo(spec.timezone) if spec.timezone else UTC
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(UTC)


def row_episode(row: Mapping[str, Any], mapping: Mapping_, columns: Sequence[str]) -> EpisodeIn:
    """Return the episode of one row. Raises ValueError (CellError naming the column), KeyError or
    ZoneInfoNotFoundError."""
    values = [v for v in (_get(row, f) for f in mapping.content.fields) if _text(v)]
    content: str | dict[str, Any] = (
        values[0]  # an object alone: object content, as REST stores it
        if len(values) == 1 and isinstance(values[0], dict)
        else mapping.content.separator.join(_text(v) for v in values)
    )
    if not content:
        raise ValueError(f"content ({', '.join(mapping.content.fields)}) is empty")
    used = {*mapping.content.fields}
    data: dict[str, Any] = {"content": content, "source": mapping.source, "source_type": mapping.source_type}
    if mapping.id is not None:
        used.add(mapping.id.field)
        key = _text(_get(row, mapping.id.field))
        if not key:
            raise ValueError(f"id ({mapping.id.field}) is empty")
        data["id"] = mapping.id.prefix + key
    else:  # the whole row names it: importing again deduplicates, equal texts at two times stay two
        data["id"] = stable_row_id(mapping.source or "", row)
    if mapping.time is not None:
        used.add(mapping.time.field)
        data["timestamp"] = _time(_get(row, mapping.time.field), mapping.time)
    if mapping.actor is not None:
        used.update(n for n in (mapping.actor.id, mapping.actor.name, mapping.actor.type) if n)
        actor_id = _text(_get(row, mapping.actor.id))
        if actor_id:
            kind = _text(_get(row, mapping.actor.type)) or mapping.actor.type
            name = _text(_get(row, mapping.actor.name)) if mapping.actor.name else ""
            data["actor"] = {"type": kind, "id": actor_id, "name": name or None}
    if mapping.intent is not None:
        used.add(mapping.intent.field)
        intent = _text(_get(row, mapping.intent.field))
        if intent or mapping.intent.empty != "classify":
            data["intent"] = intent or mapping.intent.empty
    if mapping.references is not None:
        used.update(mapping.references.fields)
        refs: list[str] = []
        for name in mapping.references.fields:
            value = _get(row, name)
            values = value if isinstance(value, list) else [value]
            refs += [mapping.references.prefix + _text(v) for v in values if _text(v)]
        data["references"] = list(dict.fromkeys(refs))
    if mapping.metadata is not None:
        metadata = {key: _get(row, name) for key, name in mapping.metadata.items()}
    else:
        metadata = {c: row[c] for c in columns if c not in used and c in row}
    data["metadata"] = {k: v for k, v in metadata.items() if v not in (None, "")}
    return EpisodeIn.model_validate(data)


def _records(
    rows: Iterator[tuple[str, Any] | Problem], mapping: Mapping_, columns: Sequence[str], label: str
) -> Iterator[Parsed]:
    """Yield the Record of each row, or the Problem that keeps it out (``label``: column or field)."""
    for item in rows:
        if isinstance(item, Problem):
            yield item
            continue
        where, row = item
        if not isinstance(row, Mapping):
            yield Problem(where, f"expected an object, got {type(row).__name__}", "record")
            continue
        if None in row:  # csv.DictReader's key for cells beyond the header
            yield Problem(where, f"{len(row[None])} more cells than the {len(columns)} columns", "row")
            continue
        try:
            yield Record(where, row_episode(row, mapping, columns))
        except ValidationError as exc:
            first = exc.errors()[0]
            yield Problem(where, first["msg"], ".".join(str(p) for p in first["loc"]) or None)
        except CellError as exc:
            yield Problem(where, f'{label} "{exc.column}": {exc.detail}', exc.column)
        except KeyError as exc:  # str() of a KeyError is its argument's repr
            yield Problem(where, str(exc.args[0]) if exc.args else "missing key", "row")
        except (ValueError, ZoneInfoNotFoundError, OverflowError, OSError) as exc:
            yield Problem(where, str(exc), "row")


def read_csv(path: Path, mapping: Mapping_ | None = None) -> ImportSource:
    """Open a CSV file (UTF-8, a byte order mark allowed; quoted multi-line fields read whole).

    A row is named by the line it ends on; a last row whose quoted field is never closed is a
    Problem named by the line it starts on.
    """
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            text = handle.read()
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})", field="csv") from exc
    lines = io.StringIO(text, newline="").readlines()  # split as the csv reader splits them
    reader = csv.DictReader(lines)
    rows: list[tuple[str, Any] | Problem] = []
    first = last_start = 1
    try:
        columns = list(reader.fieldnames or [])
        first = reader.line_num + 1
        for row in reader:
            rows.append((f"{path.name} line {reader.line_num}", row))
            last_start, first = first, reader.line_num + 1
    except csv.Error as exc:
        raise InvalidInput(f"{path.name} line {reader.line_num}: {exc}", field="csv") from exc
    if columns and not rows:
        raise InvalidInput(f"{path}: nothing to import: a header line and no rows", field="PATH")
    chosen = _mapping_for(path, "csv", columns, mapping)
    missing = [c for c in _columns(chosen) if c not in columns]
    if missing:
        raise InvalidInput(f"{path.name}: no column {missing[0]!r} (the mapping names it)", field="mapping")
    if rows and reader.line_num > last_start and _unclosed_quote(lines[last_start - 1 :]):
        rows[-1] = Problem(
            f"{path.name} line {last_start}",
            "a quoted field opened in this row is never closed: the row runs on to the end of the "
            f"file, line {reader.line_num}",
            "csv",
        )
    return ImportSource(_records(iter(rows), chosen, columns, "column"), total=len(rows))


def _unclosed_quote(lines: list[str]) -> bool:
    """Return whether ``lines`` (the last row to the end of the file) end inside a quoted field.

    The lenient reader takes such a field whole to the end of the file; the strict one says so.
    """
    try:
        for _ in csv.reader(lines, strict=True):
            pass
    except csv.Error as exc:
        return "unexpected end of data" in str(exc)
    return False


def _columns(mapping: Mapping_) -> list[str]:
    names = list(mapping.content.fields)
    for part in (mapping.id, mapping.time):
        if part is not None:
            names.append(part.field)
    if mapping.actor is not None:
        names.append(mapping.actor.id)
    return names


def read_json_records(path: Path, mapping: Mapping_ | None = None) -> ImportSource:
    """Open a JSON array of record objects (or ``{"records": [...]}``)."""
    try:
        data = json.loads(path.read_bytes())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"{path.name}: not valid JSON: {exc}", field="json") from exc
    if isinstance(data, dict) and isinstance(data.get("records"), list):
        data = data["records"]
    if not isinstance(data, list):
        raise InvalidInput(f"{path.name}: expected a JSON array of records", field="json")
    objects = [row for row in data if isinstance(row, dict)]
    columns = list(dict.fromkeys(key for row in objects for key in row))
    chosen = _mapping_for(path, "json", columns, mapping)
    rows = iter(
        (
            f"{path.name} record {n}" + (f" ({row['id']})" if isinstance(row, dict) and "id" in row else ""),
            row,
        )
        for n, row in enumerate(data, start=1)
    )
    return ImportSource(_records(rows, chosen, columns, "field"), total=len(data))


def stable_row_id(source: str, row: Mapping[Any, Any]) -> str:
    """Return an id for a row without one: ``row:<24 hex of its canonical JSON>``."""
    text = json.dumps(row, sort_keys=True, ensure_ascii=False, default=str)
    return f"row:{hashlib.sha256((source + text).encode()).hexdigest()[:24]}"
