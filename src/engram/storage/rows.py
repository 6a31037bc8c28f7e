"""Columns named once, rows read by name: the codecs between stored rows and Engram's models.

Each table's columns are listed here and nowhere else, with which of them hold times and
JSON. ``Table.params`` turns a model into the parameters of ``table.insert``; ``Table.fields``
turns a row (a mapping) back into a model's fields. The hot models (episodes, entities, facts)
are read through a ``Reader``: its select list holds the model's columns in the model's field
order, and it decodes rows as tuples straight into models, each column at the position that
list gives it (no mapping per row, no ``row[7]`` anywhere). Times and JSON are decoded through
the row's dialect, so one codec serves both databases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from engram.models.episodes import Actor, Episode, Operation
from engram.models.graph import Entity, Fact
from engram.models.keys import ApiKey
from engram.storage.sql import Db, Json, Params, Row, insert_sql, select_list
from engram.storage.types import MergeCandidate, ObjectKind, VersionRef

M = TypeVar("M", bound=BaseModel)
_setattr = object.__setattr__


@dataclass(frozen=True)
class Table:
    """A table's columns and, among them, the time and JSON columns."""

    name: str
    columns: tuple[str, ...]
    times: frozenset[str] = field(default_factory=frozenset)
    json: frozenset[str] = field(default_factory=frozenset)

    @property
    def insert(self) -> str:
        """Return ``INSERT INTO name (columns) VALUES (:columns)``."""
        return insert_sql(self.name, self.columns)

    def select(self, alias: str) -> str:
        """Return the column list qualified by ``alias``."""
        return select_list(alias, self.columns)

    def params(self, model: Any, **values: Any) -> dict[str, Any]:
        """Return a row's parameters from ``model``'s attributes (JSON wrapped), ``values`` first."""
        params = {c: values[c] if c in values else getattr(model, c, None) for c in self.columns}
        for column in self.json:
            if params[column] is not None:
                params[column] = Json(params[column])
        return params

    def fields(self, db: Db, row: Row) -> dict[str, Any]:
        """Return the row's columns, times and JSON decoded."""
        fields = {c: row[c] for c in self.columns}
        for column in self.times:
            fields[column] = db.optional_time(fields[column])
        for column in self.json:
            fields[column] = db.json(fields[column])
        return fields


def construct(model: type[M], fields: dict[str, Any]) -> M:
    """Return an unvalidated ``model`` holding ``fields``: every field of it, in its field order.

    What ``model_construct`` leaves behind, without its pass over every field for defaults and
    aliases (half the CPU of reading a page of episodes; docs/decisions.md §16). Readers check
    at import that their columns name every field of a model with no private attributes.
    """
    instance = model.__new__(model)
    _setattr(instance, "__dict__", fields)
    _setattr(instance, "__pydantic_fields_set__", set(fields))
    _setattr(instance, "__pydantic_extra__", None)
    _setattr(instance, "__pydantic_private__", None)
    return instance


class Reader(Generic[M]):
    """How a model is read from a table: its select list and the decoder of its rows as tuples.

    The list holds the column of each field of the model, in the model's field order (a field
    stored under another name is mapped in ``renamed``), then the ``extra`` columns ``finish``
    reads; a row may carry more values after them (a score, a doc), which callers read at
    ``width`` and beyond. ``at`` maps every listed column to its position.
    """

    def __init__(
        self,
        model: type[M],
        table: Table,
        alias: str,
        renamed: dict[str, str] | None = None,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.model = model
        self.fields = tuple(model.model_fields)
        stored = tuple((renamed or {}).get(name, name) for name in self.fields)
        unknown = set(stored + extra) - set(table.columns)
        if unknown or model.__private_attributes__:
            raise TypeError(f"{model.__name__} cannot be read from {table.name}: {sorted(unknown)}")
        self.at = {column: i for i, column in enumerate(stored + extra)}
        self.width = len(self.at)
        self.select = select_list(alias, stored + extra)
        self._times = tuple(f for f, c in zip(self.fields, stored, strict=True) if c in table.times)
        self._json = tuple(f for f, c in zip(self.fields, stored, strict=True) if c in table.json)

    def __call__(self, db: Db, row: Sequence[Any]) -> M:
        """Return the model of a row that starts with this reader's columns."""
        fields = dict(zip(self.fields, row, strict=False))  # stops at the model's last field
        decode = db.dialect.decode_time
        for name in self._times:
            if fields[name] is not None:
                fields[name] = decode(fields[name])
        decode = db.dialect.decode_json
        for name in self._json:
            if fields[name] is not None:
                fields[name] = decode(fields[name])
        self.finish(fields, row)
        return construct(self.model, fields)

    def finish(self, fields: dict[str, Any], row: Sequence[Any]) -> None:
        """Complete ``fields`` from the extra columns of ``row`` (nothing by default)."""

    def all(self, db: Db, sql: str, params: Params | None = None) -> list[M]:
        """Return the model of every row of a query that selects this reader's columns first."""
        return [self(db, row) for row in db.tuples(sql, params)]

    def one(self, db: Db, sql: str, params: Params | None = None) -> M | None:
        """Return the model of a query's first row, or None."""
        rows = db.tuples(sql, params)
        return self(db, rows[0]) if rows else None


class _EpisodeReader(Reader[Episode]):
    """Episodes: the actor is three columns (the field reads ``actor_id``; None when it is NULL)."""

    def finish(self, fields: dict[str, Any], row: Sequence[Any]) -> None:
        if fields["actor"] is not None:
            at = self.at
            actor = {"type": row[at["actor_type"]], "id": fields["actor"], "name": row[at["actor_name"]]}
            fields["actor"] = construct(Actor, actor)


def _set(*names: str) -> frozenset[str]:
    return frozenset(names)


EPISODES = Table(
    "episodes",
    (
        *("group_id", "id", "version", "timestamp", "recorded_at", "expired_at", "source", "source_type"),
        *("actor_type", "actor_id", "actor_name", "intent", "content", "metadata", "refs", "fingerprint"),
        *("status", "operation_id", "expired_by"),
    ),
    times=_set("timestamp", "recorded_at", "expired_at"),
    json=_set("metadata", "refs"),
)
ENTITIES = Table(
    "entities",
    (
        *("group_id", "id", "version", "name", "type", "aliases", "attributes", "summary", "first_seen"),
        *("last_seen", "recorded_at", "expired_at", "operation_id", "expired_by", "episode_id"),
        *("alias_sources", "summary_source"),
    ),
    times=_set("first_seen", "last_seen", "recorded_at", "expired_at"),
    json=_set("aliases", "attributes", "alias_sources", "summary_source"),
)
FACTS = Table(
    "facts",
    (
        *("group_id", "id", "version", "subject", "predicate", "object", "value", "fact", "conditions"),
        *("confidence", "source_kind", "episodes", "valid_at", "invalid_at", "recorded_at", "expired_at"),
        *("status", "superseded_by", "operation_id", "status_reason", "expired_by"),
    ),  # expired_by last: storage/archive.py restores it apart
    times=_set("valid_at", "invalid_at", "recorded_at", "expired_at"),
    json=_set("value", "conditions", "episodes"),
)
ARCHIVED_FACTS = Table(
    "archived_facts",
    (*FACTS.columns, "archived_at", "archived_by"),
    times=FACTS.times | {"archived_at"},
    json=FACTS.json,
)
OPERATIONS = Table(
    "operations",
    ("group_id", "id", "kind", "actor", "created_at", "summary", "details"),
    times=_set("created_at"),
    json=_set("details"),
)
MENTIONS = Table("mentions", ("group_id", "entity_id", "episode_id", "operation_id"))
CANDIDATES = Table(
    "merge_candidates",
    ("group_id", "entity_id", "candidate_id", "score", "parts", "created_at"),
    times=_set("created_at"),
    json=_set("parts"),
)
HITS = Table("fact_hits", ("group_id", "fact_id", "last_returned_at"), times=_set("last_returned_at"))
API_KEYS = Table(
    "api_keys",
    (
        *("id", "name", "role", "group_ids", "digest", "prefix"),
        *("created_at", "expires_at", "revoked_at", "last_used_at"),
    ),
    times=_set("created_at", "expires_at", "revoked_at", "last_used_at"),
    json=_set("group_ids"),
)

EPISODE = _EpisodeReader(
    Episode, EPISODES, "e", {"actor": "actor_id", "references": "refs"}, extra=("actor_type", "actor_name")
)
ENTITY = Reader(Entity, ENTITIES, "n")
FACT = Reader(Fact, FACTS, "f")
OPERATION = Reader(Operation, OPERATIONS, "o")
API_KEY = Reader(ApiKey, API_KEYS, "k")  # the digest stays in the store
E, N, F = EPISODE.select, ENTITY.select, FACT.select
VERSIONED_TABLES: dict[ObjectKind, str] = {"episode": "episodes", "entity": "entities", "fact": "facts"}


def insert_episode_sql(db: Db) -> str:
    """Return the INSERT of an episode version: an INSERT … SELECT through its ``episode_docs`` row.

    The SELECT adds what the database keeps per episode document (SQLite: the full-text ``doc``).
    """
    columns, values = db.dialect.episode_doc
    return (
        f"INSERT INTO episodes ({columns}{', '.join(EPISODES.columns)}) "
        f"SELECT {values}{', '.join(':' + c for c in EPISODES.columns)} FROM episode_docs d "
        "WHERE d.group_id = :group_id AND d.id = :id"
    )


def insert_new_episode_sql(db: Db) -> str:
    """Return the INSERT of a new episode's first version, its ``episode_docs`` row's number given
    as ``:doc`` where the database keeps one (SQLite): a plain VALUES row, a third of the cost of
    insert_episode_sql's INSERT … SELECT per row on SQLite."""
    columns, _ = db.dialect.episode_doc
    doc = ":doc, " if columns else ""
    return (
        f"INSERT INTO episodes ({columns}{', '.join(EPISODES.columns)}) "
        f"VALUES ({doc}{', '.join(':' + c for c in EPISODES.columns)})"
    )


def episode_params(episode: Episode, expired_by: str | None = None) -> dict[str, Any]:
    """Return the parameters of one episode version's row."""
    actor = episode.actor
    return {
        **{c: getattr(episode, c) for c in EPISODES.columns[:8]},
        "actor_type": actor.type if actor else None,
        "actor_id": actor.id if actor else None,
        "actor_name": actor.name if actor else None,
        "intent": episode.intent,
        "content": episode.content,
        "metadata": Json(episode.metadata),
        "refs": Json(episode.references),
        "fingerprint": episode.fingerprint,
        "status": episode.status,
        "operation_id": episode.operation_id,
        "expired_by": expired_by,
    }


def insert_operation(db: Db, operation: Operation, extra: dict[str, object] | None = None) -> None:
    """Store ``operation`` with ``extra`` merged into its details."""
    db.run(OPERATIONS.insert, OPERATIONS.params(operation, details={**operation.details, **(extra or {})}))


def candidate_from(db: Db, row: Row) -> MergeCandidate:
    """Return the MergeCandidate of a row holding the merge candidates' columns."""
    fields = CANDIDATES.fields(db, row)
    del fields["group_id"]
    return MergeCandidate(**fields)


def version_ref_from(db: Db, kind: ObjectKind, row: Row) -> VersionRef:
    """Return the VersionRef of a row holding id, version, operation_id, expired_by, expired_at."""
    return VersionRef(
        kind,
        str(row["id"]),
        int(row["version"]),
        str(row["operation_id"]),
        row["expired_by"],
        db.optional_time(row["expired_at"]),
    )
