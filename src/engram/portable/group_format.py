"""The portable export format: a group's whole memory as JSON Lines, and loading it into a store.

``engram export --format engram`` writes, per group, one JSON object per line, its kind in
``record``::

    {"record": "engram-export", "format_version": 1, "group_id": "g", "exported_at": "…",
     "engram_version": "0.1.0", "source": {"store": "SQLiteStore", "schema_version": 7}}
    {"record": "operation", "group_id": "g", "id": "op_…", "kind": "ingest", …}
    {"record": "episode", "group_id": "g", "id": "ep_…", "version": 1, "expired_at": …,
     "expired_by": …, "thread": …, …every Episode field}
    {"record": "entity", …every Entity field, "expired_by"}
    {"record": "fact", …every Fact field, "expired_by"}
    {"record": "archived_fact", …every Fact field, "expired_by", "archived_at", "archived_by"}
    {"record": "mention", "group_id", "entity_id", "episode_id", "operation_id"}
    {"record": "merge_candidate", "group_id", "entity_id", "candidate_id", "score", "parts", "created_at"}
    {"record": "fact_hit", "group_id", "fact_id", "last_returned_at"}
    {"record": "end", "group_id": "g", "counts": {"operation": 12, "episode": 40, …}}

Rows come in that order of kinds (what a row refers to comes first), every version of every
object with its ids and times (engram.models.portable). Files of several groups are
their sections one after another. The ``end`` line makes a truncated file detectable.
Vectors and full-text indexes are not exported: the importing store rebuilds them, with
its own embedder. Importing keeps ids, is atomic per batch, and is idempotent: rows already
stored identically are skipped; a row whose id is stored with other content is a Conflict.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, ValidationError

from engram.errors import InvalidInput
from engram.graph.build import fact_index_text, name_keys
from engram.ingest.inputs import fingerprint
from engram.models.graph import Entity, Fact
from engram.models.portable import ROW_KINDS, ROW_MODELS, EpisodeRow, GroupId, Row, VersionRow
from engram.nlp.tokenize import segment
from engram.storage.protocol import Storage, Txn
from engram.storage.types import LoadCounts
from engram.timeutil import UtcDatetime
from engram.validation import explain, listing

FORMAT = "engram-export"
FORMAT_VERSION = 1
"""The version this Engram writes and reads; a file of a newer version is refused."""


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    def to_json(self) -> dict[str, Any]:
        """Return the line as a JSON-ready object."""
        return self.model_dump(mode="json")


class Header(_Frame):
    """The first line of a group's section: what follows, and where it came from."""

    record: Literal["engram-export"] = "engram-export"
    format_version: int
    group_id: GroupId
    exported_at: UtcDatetime
    engram_version: str
    source: dict[str, Any] = {}


class End(_Frame):
    """The last line of a group's section: how many rows of each kind it holds."""

    record: Literal["end"] = "end"
    group_id: GroupId
    counts: dict[str, int]


Item = Header | Row | End


@dataclass(slots=True)
class ImportCounts(LoadCounts):
    """What an import did: rows created, skipped (already stored), closed; groups; batches."""

    groups: list[str] = field(default_factory=list)
    batches: int = 0
    rows: int = 0

    def summary(self) -> str:
        """Return the counts for people: ``episode 40 created, 2 skipped; fact 9 created; …``."""
        parts = []
        for kind in ROW_KINDS:
            numbers = [
                f"{count} {label}"
                for count, label in (
                    (self.created[kind], "created"),
                    (self.closed[kind], "closed"),
                    (self.skipped[kind], "skipped"),
                )
                if count
            ]
            if numbers:
                parts.append(f"{kind} {', '.join(numbers)}")
        return "; ".join(parts) or "nothing"


# -- parsing and checking ---------------------------------------------------------------------------


def parse_item(value: Any, where: str) -> Item:
    """Return the header, row or end ``value`` (a decoded JSON object) holds.

    Raises InvalidInput whose detail starts with ``where`` (e.g. ``line 12``) and whose
    field names the offending field.
    """
    if not isinstance(value, dict):
        raise InvalidInput(f"{where}: expected a JSON object, got {type(value).__name__}", field="line")
    kind = value.get("record")
    frames: dict[str, type[Header | End]] = {FORMAT: Header, "end": End}
    model: type[Item] | None = frames.get(str(kind)) or ROW_MODELS.get(str(kind))
    if model is None:
        known = ", ".join([FORMAT, *ROW_KINDS, "end"])
        raise InvalidInput(f"{where}: unknown record type {kind!r}; expected one of {known}", field="record")
    try:
        item: Item = model.model_validate(value)
    except ValidationError as exc:
        problems = explain(exc.errors(), "record")
        raise InvalidInput(f"{where}: {kind} {listing(problems)}", field=problems[0][0]) from exc
    if isinstance(item, Header) and item.format_version != FORMAT_VERSION:
        raise InvalidInput(
            f"{where}: format version {item.format_version} is not the one this Engram reads "
            f"({FORMAT_VERSION}); use the Engram that wrote it, or a newer one",
            field="format_version",
        )
    return item


class SectionCheck:
    """Checks the order of a stream: header, rows of its group in kind order, end with true counts.

    Also that each object's versions rise and only its last may be open (current).
    """

    def __init__(self) -> None:
        self._header: Header | None = None
        self._counts: Counter[str] = Counter()
        self._kind = 0
        self._versions: dict[tuple[str, str], tuple[int, bool]] = {}

    @property
    def group_id(self) -> str | None:
        """Return the group of the open section, or None between sections."""
        return None if self._header is None else self._header.group_id

    def check(self, item: Item, where: str) -> None:
        """Raise InvalidInput (detail starting with ``where``) when ``item`` cannot come next."""
        if isinstance(item, Header):
            if self._header is not None:
                raise InvalidInput(
                    f"{where}: a new export starts before the end of group {self._header.group_id!r}'s "
                    "(the file is truncated or two files were joined mid-way)",
                    field="record",
                )
            self._header, self._counts, self._kind, self._versions = item, Counter(), 0, {}
            return
        if self._header is None:
            raise InvalidInput(
                f"{where}: expected an {FORMAT!r} header line first (is this an `engram export "
                "--format engram` file?)",
                field="record",
            )
        if item.group_id != self._header.group_id:
            raise InvalidInput(
                f"{where}: group {item.group_id!r} inside the export of group {self._header.group_id!r}",
                field="group_id",
            )
        if isinstance(item, End):
            self._end(item, where)
            return
        self._row(item, where)

    def _row(self, row: Row, where: str) -> None:
        position = ROW_KINDS.index(row.record)
        if position < self._kind:
            raise InvalidInput(
                f"{where}: a {row.record} row after {ROW_KINDS[self._kind]} rows; rows come in the order "
                f"{', '.join(ROW_KINDS)}",
                field="record",
            )
        self._kind = position
        self._counts[row.record] += 1
        if isinstance(row, EpisodeRow):
            stated = fingerprint(row.intent, row.content, row.actor.id if row.actor else None)
            if row.fingerprint != stated:
                raise InvalidInput(
                    f"{where}: episode {row.id!r} version {row.version} has fingerprint "
                    f"{row.fingerprint[:12]}… but its intent, content and actor give {stated[:12]}… "
                    "(the line was edited?)",
                    field="fingerprint",
                )
        if isinstance(row, VersionRow):
            key = (row.record, row.id)
            before = self._versions.get(key)
            if before is not None and before[0] >= row.version:
                raise InvalidInput(
                    f"{where}: {row.record} {row.id!r} version {row.version} after version {before[0]}",
                    field="version",
                )
            if before is not None and before[1]:
                raise InvalidInput(
                    f"{where}: {row.record} {row.id!r} version {before[0]} is current (no expired_at) "
                    f"but version {row.version} follows",
                    field="expired_at",
                )
            self._versions[key] = (row.version, row.expired_at is None)

    def _end(self, end: End, where: str) -> None:
        expected = {kind: count for kind, count in end.counts.items() if count}
        if expected != dict(self._counts):
            found = ", ".join(f"{kind} {self._counts[kind]}" for kind in ROW_KINDS) or "none"
            raise InvalidInput(
                f"{where}: the export of group {end.group_id!r} should hold {end.counts} rows, "
                f"but holds {found} (the file was cut or edited)",
                field="counts",
            )
        self._header = None

    def finish(self, where: str) -> None:
        """Raise InvalidInput when the stream stopped inside a section (no end line)."""
        if self._header is not None:
            raise InvalidInput(
                f"{where}: the export of group {self._header.group_id!r} has no end line: "
                "the file is truncated; nothing after the last committed batch was imported",
                field="end",
            )


def read_lines(lines: Iterable[bytes]) -> Iterator[Item]:
    """Yield the items of an export file's lines (raw bytes), checked in order.

    Blank lines are skipped; a UTF-8 byte order mark on the first line is ignored. Raises
    InvalidInput naming the line number: bad UTF-8 or JSON, an unknown or malformed record,
    a record out of order, a truncated file.
    """
    check = SectionCheck()
    number = 0
    for number, raw in enumerate(lines, start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"line {number}: not UTF-8 text: {exc.reason}", field="line") from exc
        if number == 1:
            text = text.removeprefix("\ufeff")
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidInput(
                f"line {number}: not valid JSON (column {exc.colno}): {exc.msg}", field="line"
            ) from exc
        item = parse_item(value, f"line {number}")
        check.check(item, f"line {number}")
        yield item
    check.finish(f"end of input (after line {number})")


def is_export(first_line: bytes) -> bool:
    """Return True when ``first_line`` is the header of an engram export (to tell formats apart)."""
    try:
        value = json.loads(first_line.decode("utf-8").removeprefix("\ufeff"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(value, dict) and value.get("record") == FORMAT


# -- export and import -------------------------------------------------------------------------------


def export_group(
    store: Storage, group_id: str, *, exported_at: datetime, source: Mapping[str, Any]
) -> Iterator[dict[str, Any]]:
    """Yield the JSON objects of one group's section: header, every row, end with the counts."""
    from engram import __version__

    yield Header(
        format_version=FORMAT_VERSION,
        group_id=group_id,
        exported_at=exported_at,
        engram_version=__version__,
        source=dict(source),
    ).to_json()
    counts: Counter[str] = Counter()
    for row in store.dump_group(group_id):
        counts[row.record] += 1
        yield row.to_json()
    yield End(group_id=group_id, counts={kind: counts[kind] for kind in ROW_KINDS}).to_json()


class _Names:
    """The one Txn read a fact's index text needs: its entities, as they were then known."""

    def __init__(self, entity: Callable[[str], Entity | None]) -> None:
        self._entity = entity

    def names(self, group_id: str, entity_id: str) -> list[str]:
        entity = self._entity(entity_id)
        return [] if entity is None else [entity.name, *entity.aliases]


class GraphReindex:
    """Derives indexes as the write path does: segmented text, entity name keys, fact index text."""

    def episode_text(self, content: str) -> str:
        """Return the segmented content (as Memory indexes a new episode)."""
        return segment(content)

    def name_keys(self, entity: Entity) -> list[str]:
        """Return the entity's normalised name and aliases (engram.graph.build.name_keys)."""
        return name_keys(entity)

    def fact_text(self, fact: Fact, entity: Callable[[str], Entity | None]) -> str:
        """Return the fact's index text as GraphBuilder writes it, from the entities ``entity`` gives."""
        return fact_index_text(cast(Txn, _Names(entity)), fact.group_id, fact)


def import_items(
    store: Storage,
    items: Iterable[Mapping[str, Any] | Item],
    *,
    batch_size: int,
    on_batch: Callable[[ImportCounts, int], None] | None = None,
) -> ImportCounts:
    """Load export items into ``store``, ``batch_size`` rows per transaction; return the counts.

    ``items`` are parsed items or their JSON objects (checked as ``record N``). A group's
    last batch is committed at its end line; ``on_batch(counts, rows)`` follows every
    commit. Raises InvalidInput (bad or out-of-order item, truncated stream; the batch in
    progress is not written) or Conflict (another history of an id is stored).
    """
    if batch_size < 1:
        raise InvalidInput("batch size must be at least 1", field="batch_size")
    counts = ImportCounts()
    check = SectionCheck()
    reindex = GraphReindex()
    batch: list[Row] = []

    def commit() -> None:
        if not batch:
            return
        counts.add(store.load_rows(batch, reindex))
        counts.batches += 1
        counts.rows += len(batch)
        size = len(batch)
        batch.clear()
        if on_batch is not None:
            on_batch(counts, size)

    number = 0
    for number, value in enumerate(items, start=1):
        where = f"record {number}"
        item = value if isinstance(value, BaseModel) else parse_item(value, where)
        check.check(item, where)
        if isinstance(item, Header):
            counts.groups.append(item.group_id)
        elif isinstance(item, End):
            commit()
        else:
            batch.append(item)
            if len(batch) >= batch_size:
                commit()
    check.finish(f"end of input (after record {number})")
    return counts
