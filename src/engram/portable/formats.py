"""Every input format ``engram import`` reads, how each is opened, and how a format is detected.

Formats: ``jsonl`` and ``locomo`` (episodes), ``engram`` (whole groups: handled by
``engram.portable.group_format``), mail (``mbox``, ``eml``, ``maildir``), wiki (``markdown``,
``confluence``, ``notion``), tables (``csv``, ``json`` records, with an optional mapping) and
chat (``slack``, ``chatgpt``, ``claude``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path

from engram.errors import InvalidInput
from engram.portable import chat, email, tables, wiki
from engram.portable.base import ImportSource
from engram.portable.jsonl import read_jsonl
from engram.portable.locomo import read_locomo

PEEK_BYTES = 4096


class ImportFormat(StrEnum):
    """Input formats of ``engram import``."""

    jsonl = "jsonl"
    locomo = "locomo"
    engram = "engram"
    mbox = "mbox"
    eml = "eml"
    maildir = "maildir"
    markdown = "markdown"
    confluence = "confluence"
    notion = "notion"
    csv = "csv"
    json = "json"
    slack = "slack"
    chatgpt = "chatgpt"
    claude = "claude"


TABLES = frozenset({ImportFormat.csv, ImportFormat.json})
"""Formats that take a ``--mapping`` file."""
DIRECTORIES = frozenset(
    {
        ImportFormat.maildir,
        ImportFormat.markdown,
        ImportFormat.confluence,
        ImportFormat.notion,
        ImportFormat.slack,
        ImportFormat.eml,
        ImportFormat.chatgpt,
        ImportFormat.claude,
    }
)
"""Formats that read a folder."""
FILE_OR_FOLDER = frozenset(
    {ImportFormat.eml, ImportFormat.chatgpt, ImportFormat.claude, ImportFormat.markdown}
)
"""Formats that read either one file or a folder of them."""

Reader = Callable[[Path], ImportSource]
READERS: dict[ImportFormat, Reader] = {
    ImportFormat.jsonl: read_jsonl,
    ImportFormat.locomo: read_locomo,
    ImportFormat.mbox: email.read_email,
    ImportFormat.eml: email.read_eml,
    ImportFormat.maildir: email.read_email,
    ImportFormat.markdown: wiki.read_markdown,
    ImportFormat.confluence: wiki.read_confluence,
    ImportFormat.notion: wiki.read_notion,
    ImportFormat.slack: chat.read_slack,
    ImportFormat.chatgpt: chat.read_chatgpt,
    ImportFormat.claude: chat.read_claude,
}


def open_source(path: Path, fmt: ImportFormat, mapping: Path | None = None) -> ImportSource:
    """Return the records of ``path`` read as ``fmt``. Raises InvalidInput (unreadable input, bad mapping)."""
    if mapping is not None and fmt not in TABLES:
        raise InvalidInput(f"--mapping applies to csv and json, not {fmt}", field="--mapping")
    if fmt is ImportFormat.engram:
        raise InvalidInput("the engram format is imported whole, not as episodes", field="--format")
    if path.is_dir() != (fmt in DIRECTORIES) and fmt not in FILE_OR_FOLDER:
        raise InvalidInput(_wrong_kind(path, fmt), field="PATH")
    if fmt in TABLES:
        chosen = tables.load_mapping(mapping) if mapping is not None else None
        reader = tables.read_csv if fmt is ImportFormat.csv else tables.read_json_records
        return reader(path, chosen)
    return READERS[fmt](path)


def _wrong_kind(path: Path, fmt: ImportFormat) -> str:
    """Return why ``path`` (a file where ``fmt`` reads a folder, or the reverse) cannot be read.

    A folder of tables is not read file by file: each file picks its own columns and preset,
    and one import per file keeps its problems and its ``--mapping`` apart.
    """
    if fmt in DIRECTORIES:
        return f"--format {fmt} reads a folder, and {path} is a file"
    hint = f"; import each .{fmt} file in it on its own" if fmt in TABLES else ""
    return f"--format {fmt} reads a file, and {path} is a folder{hint}"


def _peek_json(path: Path) -> object:
    """Return the first element of a JSON array file (or the object), None when unreadable."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return data[0] if isinstance(data, list) and data else data


def _json_kind(path: Path) -> ImportFormat:
    first = _peek_json(path)
    if isinstance(first, dict):
        if "mapping" in first and "current_node" in first:
            return ImportFormat.chatgpt
        if "chat_messages" in first:
            return ImportFormat.claude
        if "conversation" in first and "sample_id" in first:
            return ImportFormat.locomo
    return ImportFormat.json


def detect_format(path: Path) -> ImportFormat | None:
    """Return the format ``path`` looks like (by its layout, name and first bytes), or None."""
    if path.is_dir():
        if (path / "cur").is_dir() and (path / "new").is_dir():
            return ImportFormat.maildir
        if (path / "users.json").is_file() and (path / "channels.json").is_file():
            return ImportFormat.slack
        if (path / "conversations.json").is_file():
            return _json_kind(path / "conversations.json")
        if any(wiki.NOTION_ID.match(p.stem) for p in path.rglob("*") if p.suffix in {".md", ".html"}):
            return ImportFormat.notion
        if any(p.is_file() for p in path.glob("*.html")):
            return ImportFormat.confluence
        if any(path.rglob("*.md")):
            return ImportFormat.markdown
        if any(path.rglob("*.eml")):
            return ImportFormat.eml
        return None
    suffix = path.suffix.lower()
    simple = {
        ".mbox": ImportFormat.mbox,
        ".eml": ImportFormat.eml,
        ".md": ImportFormat.markdown,
        ".csv": ImportFormat.csv,
        ".jsonl": ImportFormat.jsonl,
        ".ndjson": ImportFormat.jsonl,
    }
    if suffix in simple:
        return simple[suffix]
    if suffix == ".json":
        return _json_kind(path)
    try:
        with path.open("rb") as handle:
            head = handle.read(PEEK_BYTES)
    except OSError:
        return None
    return ImportFormat.mbox if head.startswith(b"From ") else None
