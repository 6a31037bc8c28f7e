"""One SQL text for SQLite and PostgreSQL: the dialect (what differs) and Db (how a statement runs).

Statements are written once, with named parameters (``:name``) and, where the two databases
spell a thing differently, a fragment from the connection's ``Dialect`` (``d.in_list``,
``d.json_array_has``, ``d.for_update``…). ``Db`` runs them on a driver connection (apsw or
psycopg), converts the placeholders, encodes parameters (datetimes, ``Json`` values) and
returns rows as mappings read by column name, or (``Db.tuples``, the hot reads) as tuples that
a model's ``Reader`` decodes by the positions of the columns it names. Decoding a stored value
back (a time, a JSON column) goes through the dialect, so a row codec is written once too
(engram.storage.rows).

Why not SQLAlchemy Core: apsw, which SQLite needs here (FTS5 ``contentless_delete``; the
stdlib build is too old), is not a DB-API driver, and the measured cost of compiling and
executing a Core statement was several times our statements' own cost on the hot paths
(docs/decisions.md, "One SQL layer").
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache
from typing import Any

from engram.errors import InvalidInput

Row = Mapping[str, Any]
Params = Mapping[str, Any]

_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


class Json:
    """A parameter stored in a JSON column (text in SQLite, jsonb in PostgreSQL)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class Dialect(ABC):
    """What the shared SQL needs to know about one database: spellings and value encodings."""

    name: str
    for_update: str
    """Appended to a SELECT that must lock the rows it reads until the transaction ends."""
    cross_join: str
    """A join whose left side the planner must read first (SQLite's CROSS JOIN; a plain JOIN elsewhere)."""
    episode_doc: tuple[str, str]
    """(column list prefix, value prefix) an episode version's INSERT … SELECT adds (SQLite: its doc)."""
    stored_columns: tuple[str, ...]
    """The columns of ``episode_docs d`` that order its rows as they were first stored."""

    @abstractmethod
    def placeholders(self, sql: str) -> str:
        """Return ``sql`` with ``:name`` parameters in the driver's style."""

    @abstractmethod
    def encode_time(self, value: datetime) -> Any:
        """Return a UTC datetime as the driver stores it."""

    @abstractmethod
    def decode_time(self, raw: Any) -> datetime:
        """Return a stored time as a UTC datetime."""

    @abstractmethod
    def encode_json(self, value: Any) -> Any:
        """Return a value for a JSON column."""

    @abstractmethod
    def decode_json(self, raw: Any) -> Any:
        """Return a JSON column's value as Python objects."""

    @abstractmethod
    def in_list(self, expr: str, name: str, values: Sequence[Any]) -> tuple[str, dict[str, Any]]:
        """Return ``expr IN values`` as SQL and its parameters (any number of values)."""

    greatest: str
    """The SQL function returning the larger of its arguments (``max`` in SQLite, ``greatest``)."""
    ilike: str
    """The pattern match that ignores case (SQLite's LIKE does for ASCII; PostgreSQL needs ILIKE)."""

    @abstractmethod
    def json_array_has(self, column: str, param: str, key: str | None = None) -> str:
        """Return SQL true when the JSON array ``column`` (or its top-level ``key``) holds ``:param``."""

    @abstractmethod
    def json_text(self, column: str, key: str) -> str:
        """Return SQL for the text of the top-level ``key`` of the JSON object ``column``."""

    @abstractmethod
    def metadata_equals(self, column: str, key: str, param: str, value: Any) -> tuple[str, dict[str, Any]]:
        """Return SQL true when ``column``'s top-level ``key`` equals ``value`` (None: absent or null).

        Numbers compare as numbers, JSON booleans as 1/0, strings as text; an object or array
        equals no value. ``key`` is a metadata filter key (``[A-Za-z0-9_.-]{1,64}``, checked: it
        may be written into the SQL so that an index of ``metadata_index(key)`` serves the match).
        """

    @abstractmethod
    def metadata_index(self, key: str) -> str:
        """Return the expression over ``metadata`` that an index of a declared metadata key holds."""

    def stored_order(self, *, descending: bool = False) -> str:
        """Return ORDER BY terms listing ``episode_docs d`` rows as first stored (newest first:
        ``descending``)."""
        return ", ".join(f"{c} DESC" if descending else c for c in self.stored_columns)

    def indexed_by(self, index: str) -> str:
        """Return a hint forcing ``index`` (SQLite's INDEXED BY; nothing where the planner decides)."""
        return ""


METADATA_KEY = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def checked_key(key: str) -> str:
    """Return a metadata filter key, or raise InvalidInput(field="metadata") for another one."""
    if not METADATA_KEY.fullmatch(key):
        raise InvalidInput(
            f"metadata key {key!r} must be 1-64 characters of A-Z a-z 0-9 _ . -", field="metadata"
        )
    return key


class Db(ABC):
    """A connection speaking the shared SQL: inside a transaction, or reading outside one."""

    dialect: Dialect

    @abstractmethod
    def _execute(self, sql: str, params: Params) -> Any:
        """Run translated ``sql``; return a cursor whose rows are mappings."""

    @abstractmethod
    def _tuples(self, sql: str, params: Params) -> list[tuple[Any, ...]]:
        """Run translated ``sql``; return its rows as tuples, in the order of its select list."""

    @abstractmethod
    def run_many(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement for each parameter mapping."""

    def lock(self, keys: Sequence[tuple[str, ...]]) -> None:  # noqa: B027 (SQLite needs no locks)
        """Hold locks on ``keys`` until the transaction ends (no-op where writers are serialised).

        Keys are taken in one global order, so two writers never wait on each other in a cycle.
        """

    @contextmanager
    def pipeline(self) -> Iterator[None]:
        """Send the statements of the block together where the driver can: a write does not wait
        for its result, a read waits for everything sent before it. Blocks nest (one round trip)."""
        yield

    def _encoded(self, params: Params | None) -> dict[str, Any]:
        encoded = dict(params or {})
        for name, value in encoded.items():  # values replaced in place: the keys stay
            kind = type(value)
            if kind is str or kind is int or value is None:  # most values: one test (bulk writes)
                continue
            if isinstance(value, datetime):
                encoded[name] = self.dialect.encode_time(value)
            elif kind is Json:
                encoded[name] = self.dialect.encode_json(value.value)
        return encoded

    def sql(self, text: str) -> str:
        """Return ``text`` in the driver's parameter style (cached)."""
        return _translate(self.dialect, text)

    def rows(self, sql: str, params: Params | None = None) -> list[Row]:
        """Return every row of a query."""
        return list(self._execute(self.sql(sql), self._encoded(params)))

    def tuples(self, sql: str, params: Params | None = None) -> list[tuple[Any, ...]]:
        """Return every row of a query as a tuple (the hot reads: no mapping per row)."""
        return self._tuples(self.sql(sql), self._encoded(params))

    def iter(self, sql: str, params: Params | None = None) -> Iterator[Row]:
        """Yield the rows of a query as they are read."""
        yield from self._execute(self.sql(sql), self._encoded(params))

    def one(self, sql: str, params: Params | None = None) -> Row | None:
        """Return the first row of a query, or None."""
        for row in self._execute(self.sql(sql), self._encoded(params)):
            return row  # type: ignore[no-any-return]
        return None

    def value(self, sql: str, params: Params | None = None) -> Any:
        """Return the first column of the first row, or None."""
        row = self.one(sql, params)
        return None if row is None else next(iter(row.values()))

    def run(self, sql: str, params: Params | None = None) -> None:
        """Run a statement that returns no rows."""
        self._run(self.sql(sql), self._encoded(params))

    def _run(self, sql: str, params: Params) -> None:
        """Run translated ``sql``, its rows unread (in a pipeline, without waiting for it)."""
        self._execute(sql, params)

    def time(self, raw: Any) -> datetime:
        """Return a stored time as a UTC datetime."""
        return self.dialect.decode_time(raw)

    def optional_time(self, raw: Any) -> datetime | None:
        """Return a stored time, or NULL, as a UTC datetime or None."""
        return None if raw is None else self.dialect.decode_time(raw)

    def json(self, raw: Any) -> Any:
        """Return a stored JSON value (or NULL) as Python objects (or None)."""
        return None if raw is None else self.dialect.decode_json(raw)


@lru_cache(maxsize=4096)
def _translate(dialect: Dialect, sql: str) -> str:
    return dialect.placeholders(sql)


def named(sql: str) -> list[str]:
    """Return the ``:name`` parameters ``sql`` uses, in order (for tests and checks)."""
    return _NAMED.findall(sql)


def sqlite_placeholders(sql: str) -> str:
    """Return ``sql`` unchanged: apsw binds ``:name`` from a mapping."""
    return sql


def psycopg_placeholders(sql: str) -> str:
    """Return ``sql`` with ``:name`` as ``%(name)s`` and literal ``%`` doubled, as psycopg binds them."""
    return _NAMED.sub(r"%(\1)s", sql.replace("%", "%%"))


def insert_sql(table: str, columns: Sequence[str]) -> str:
    """Return ``INSERT INTO table (a, b) VALUES (:a, :b)``."""
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"


def select_list(alias: str, columns: Sequence[str]) -> str:
    """Return ``alias.a, alias.b`` (or ``a, b`` without an alias)."""
    return ", ".join(f"{alias}.{c}" if alias else c for c in columns)
