"""What a reference lookup returns: a document's known versions and the episodes citing it.

A reference id names a document, an email, a wiki page or a message the same way in every
importer (engram.nlp.reference_ids); its version, when it has one, is part of the id
(``doc-quote-2024-q3-v2``). Asking for the document without a version lists every version;
asking for one version lists its episodes, and ``versions`` / ``note`` say when a later one
exists, so a citation never silently points at an old version.
"""

from __future__ import annotations

import json
import tomllib
import unicodedata
from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints, ValidationError

from engram.errors import InvalidInput
from engram.fold import fold
from engram.models.episodes import Episode

MAX_REFERENCE_CHARS = 512
"""Longest reference id (and name) the store indexes and a lookup accepts."""

ResolvedBy = Literal["id", "configured name", "learned name", "document name"]


class ReferenceVersion(BaseModel):
    """One version of a document as the memory knows it: who cites it, since when, under which names."""

    reference: str = Field(description="The versioned reference id, e.g. doc-quote-2024-q3-v2.")
    version: str | None = Field(description="The version it names; null: cited without a version.")
    latest: bool = Field(
        description="True for the latest version known (highest number, else first cited last)."
    )
    episodes: int = Field(description="Episodes citing it or part of it.")
    first_seen: datetime = Field(description="Timestamp of the first of those episodes.")
    last_seen: datetime = Field(description="Timestamp of the last of those episodes.")
    names: list[str] = Field(
        default_factory=list, description="Names episodes wrote for it (file names, titles)."
    )


class ReferenceHead(BaseModel):
    """What was asked, what it resolved to, and every known version of the document."""

    query: str = Field(description="The reference id or name as asked.")
    resolved: str = Field(description="The reference id it names (a version, or the document without one).")
    resolved_by: ResolvedBy = Field(
        description="id (as given), configured name, learned name (from imports), document name (file name)."
    )
    document: str = Field(description="The document's id without a version.")
    versions: list[ReferenceVersion] = Field(description="Every version known, oldest first.")
    latest: str = Field(description="The latest version's reference id.")
    note: str | None = Field(default=None, description="Set when the version asked for is not the latest.")


class ReferenceCitation(BaseModel):
    """An episode citing the document (or part of it), and which version."""

    episode: Episode
    cites: list[str] = Field(description="The document's versions the episode cites.")
    part_of: str | None = Field(
        default=None, description="The version the episode is part of (a page section, the email itself)."
    )
    latest: bool = Field(description="True when it cites or is part of the latest version.")
    citation: str = Field(description="`[source: <episode id>]`: quote it beside what you use.")


class ReferencePage(ReferenceHead):
    """A page of the episodes citing a reference, newest first; ``next_cursor`` continues."""

    items: list[ReferenceCitation]
    next_cursor: str | None = None


ReferenceId = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_REFERENCE_CHARS, pattern=r"^\S+$"),
]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_REFERENCE_CHARS)]


class ReferenceNames(BaseModel):
    """The configured names: ``{"names": {"Q3 quote": "doc-quote-2024-q3", "《主合同》": "doc-msa"}}``."""

    names: dict[Name, ReferenceId] = Field(default_factory=dict)


def name_text(name: str) -> str:
    """Return a name as it is stored and looked up: NFKC, trimmed, without 《》."""
    return unicodedata.normalize("NFKC", name).strip().strip("《》").strip()


def name_key(name: str) -> str:
    """Return the key a name is looked up by: ``name_text`` folded (engram.fold, as the store does)."""
    return fold(name_text(name))


def load_reference_names(path: Path | None) -> dict[str, str]:
    """Return name key → reference id from a JSON or TOML file (``.toml``), or {} without one.

    Raises InvalidInput(field="ENGRAM_REFERENCE_NAMES_FILE") for an unreadable or malformed file.
    """
    if path is None:
        return {}
    field = "ENGRAM_REFERENCE_NAMES_FILE"
    try:
        raw = Path(path).read_bytes()
        data = tomllib.loads(raw.decode("utf-8")) if Path(path).suffix == ".toml" else json.loads(raw)
        names = ReferenceNames.model_validate(data).names
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        if isinstance(exc, ValidationError):
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise InvalidInput(f"reference names {path}: {where}: {first['msg']}", field=field) from exc
        raise InvalidInput(f"cannot read the reference names {path}: {exc}", field=field) from exc
    return {name_key(name): ref for name, ref in names.items()}
