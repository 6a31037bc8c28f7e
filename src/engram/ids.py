"""Sortable identifiers: ``<prefix>_<ULID>`` (ULID spec: https://github.com/ulid/spec)."""

from __future__ import annotations

from ulid import ULID


def new_id(prefix: str) -> str:
    """Return a new id such as ``ep_01JD…``; ids made later sort after earlier ones."""
    return f"{prefix}_{ULID()}"
