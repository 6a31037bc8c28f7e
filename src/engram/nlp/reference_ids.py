"""Name what episodes cite with global, versioned reference ids, and find such citations in text.

Reference ids are plain strings that every importer writes the same way, so an email, a wiki
page and a CRM note that cite one document share one id:

- a document (a file, an attachment, a 《title》): ``doc-<slug>`` plus ``-v<version>`` when its
  name carries one (``Quote 2024-Q3_v2.pdf`` → ``doc-quote-2024-q3-v2``, ``报价单_v2.pdf`` →
  ``doc-报价单-v2``, 《合同草案》 → ``doc-合同草案``);
- an email: ``email-<Message-ID without angle brackets>``;
- a wiki page: ``page-<slug of its key>-v<version>`` (the version of the page when it was read,
  so a page that changes version never silently points at the old one);
- a chat message: ``<system>-<ids…>`` (``slack-C05K2D8FBQX-1718010131.000729``).

A slug is the NFKC-folded, lower-cased name with every run of characters other than letters
and digits (any script) turned into one ``-``. Versions are read by
``engram.nlp.references.split_version`` (``_v2``, ``-V1.3``, ``(v2)``, ``第二版``, ``final``);
``split_reference`` reads one back (``doc-quote-2024-q3-v2`` → ``doc-quote-2024-q3``, ``2``).

Importers also say which names they read each id from, in the episode's
``metadata.reference_names`` (``{"Quote 2024-Q3_v2.pdf": "doc-quote-2024-q3-v2"}``): the store
indexes them, so a document can be asked for by the name people write (``reference_names``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from engram.models.references import MAX_REFERENCE_CHARS, name_text
from engram.nlp.references import split_version

MAX_SLUG_CHARS = 100
DOCUMENT_EXTENSIONS = frozenset(
    [
        "pdf",
        "doc",
        "docx",
        "xls",
        "xlsx",
        "ppt",
        "pptx",
        "csv",
        "txt",
        "md",
        "zip",
        "rar",
        "png",
        "jpg",
        "jpeg",
        "gif",
        "key",
        "pages",
        "numbers",
        "json",
        "xml",
        "html",
        "htm",
    ]
)
_VERSIONED = re.compile(r"^(?P<document>.+?)-v(?P<version>\d+(?:-\d+)*|final|[0-9a-f]{8})$")
_NOT_WORD = re.compile(r"[^\w]+|_+")
_TITLE = re.compile(r"《([^《》\n]{1,80})》")
_FILE = re.compile(
    r"(?<![\w./@\\-])([\w\u4e00-\u9fff][\w\u4e00-\u9fff.-]{0,80}?)\.("
    + "|".join(sorted(DOCUMENT_EXTENSIONS, key=len, reverse=True))
    + r")\b",
    re.I,
)
_FILE_URL = re.compile(r"https?://[^\s<>\"'，。！？、）)]+", re.I)
_ATTACHED = re.compile(
    r"(?:see|find|please find)\s+(?:the\s+)?attached\s+(?:the\s+)?"
    r"([A-Za-z0-9][\w\-./ ]{0,60}?)(?=[,.;:!?)\n]|\s+(?:for|and|with|from|to|as|which|that)\b|$)"
    r"|附件(?:是|为|中的|里的)?(?:更新后的)?([\u4e00-\u9fff\w\-]{2,30}?)(?=[（(，。,；;：:\s]|$)",
    re.I | re.M,
)


def slug(text: str) -> str:
    """Return ``text`` as an id part: NFKC, lower case, runs of non-letters/digits as one ``-``."""
    folded = unicodedata.normalize("NFKC", text).lower()
    return _NOT_WORD.sub("-", folded).strip("-")[:MAX_SLUG_CHARS].strip("-")


def document_id(name: str) -> str:
    """Return the reference id of a document named ``name`` (a file name, a title or a phrase).

    A known file extension is dropped; a version at the end of the name becomes ``-v<version>``.
    """
    stem = name.strip()
    base, dot, extension = stem.rpartition(".")
    if dot and extension.lower() in DOCUMENT_EXTENSIONS and base:
        stem = base
    stem, version = split_version(stem)
    ref = f"doc-{slug(stem) or 'untitled'}"
    return f"{ref}-v{slug(version)}" if version else ref


def split_reference(ref: str) -> tuple[str, str | None]:
    """Return (document id, version) of a reference id; the version is None when it names none.

    ``doc-quote-2024-q3-v2`` → (``doc-quote-2024-q3``, ``"2"``); ``page-wiki-index-vc7b774cb`` →
    (``page-wiki-index``, ``"c7b774cb"``); ``doc-合同草案`` → (``doc-合同草案``, None). A version is
    what the id writers above append: numbers (``1-3`` for 1.3), ``final``, or 8 hex digits.
    """
    match = _VERSIONED.match(ref)
    return (ref, None) if match is None else (match["document"], match["version"])


def email_id(message_id: str) -> str:
    """Return the reference id of the email whose Message-ID is ``message_id`` (brackets optional)."""
    return "email-" + message_id.strip().strip("<>").strip()


def page_id(key: str, version: str | int | None) -> str:
    """Return the reference id of a wiki page: ``page-<slug(key)>`` plus ``-v<version>`` when known."""
    ref = f"page-{slug(key) or 'untitled'}"
    return f"{ref}-v{slug(str(version))}" if version not in (None, "") else ref


def message_id(system: str, *parts: str) -> str:
    """Return the reference id of a chat message: ``<system>-<part>-<part>…`` (parts kept as given)."""
    return "-".join([system, *parts])


@dataclass(frozen=True, slots=True)
class Mention:
    """A document cited in text: ``surface`` as written, ``kind`` ``title``, ``file``, ``url`` or
    ``attached``, and its reference ``id``."""

    surface: str
    kind: str
    id: str


def find_mentions(text: str, attachments: Sequence[str] = ()) -> list[Mention]:
    """Return the documents ``text`` cites, in order of first appearance, one per id.

    《title》, file names (``报价单_v2.pdf``), links to files (``…/MSA-v4.pdf``), and "see attached
    quote Q-5527" / "附件是报价单": an "attached" phrase names the attachment (among
    ``attachments``, file names) sharing a word with it, else a document of its own.
    """
    found: list[tuple[int, Mention]] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, mention: Mention) -> None:
        if all(end <= a or start >= b for a, b in taken):
            taken.append((start, end))
            found.append((start, mention))

    for match in _FILE_URL.finditer(text):
        path = unquote(urlsplit(match.group().rstrip(".,;:!?")).path)
        name = path.rsplit("/", 1)[-1]
        if "." in name and name.rsplit(".", 1)[1].lower() in DOCUMENT_EXTENSIONS:
            add(match.start(), match.end(), Mention(match.group(), "url", document_id(name)))
        else:
            taken.append(match.span())  # a link to a page: not a document, and no file inside it
    for match in _TITLE.finditer(text):
        add(match.start(), match.end(), Mention(match.group(), "title", document_id(match.group(1))))
    for match in _FILE.finditer(text):
        add(match.start(), match.end(), Mention(match.group(), "file", document_id(match.group())))
    for match in _ATTACHED.finditer(text):
        phrase = (match.group(1) or match.group(2) or "").strip()
        if phrase:
            target = _attachment_for(phrase, attachments)
            add(match.start(), match.end(), Mention(match.group(), "attached", document_id(target or phrase)))
    seen: set[str] = set()
    out: list[Mention] = []
    for _, mention in sorted(found, key=lambda pair: pair[0]):
        if mention.id not in seen:
            seen.add(mention.id)
            out.append(mention)
    return out


def _attachment_for(phrase: str, attachments: Iterable[str]) -> str | None:
    """Return the attachment whose name shares the most words with ``phrase`` (None when none does)."""
    words = {w for w in slug(phrase).split("-") if len(w) > 1}
    best, best_shared = None, 0
    for name in attachments:
        shared = len(words & set(slug(name).split("-")))
        if shared > best_shared:
            best, best_shared = name, shared
    if best is None and len(list(attachments)) == 1 and not words:
        return next(iter(attachments))
    return best


def reference_names(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Return name → reference id for ``metadata.reference_names``: names as ``name_text`` writes
    them (NFKC, trimmed, no 《》), empty or over-long ones dropped, the first id of a name kept."""
    names: dict[str, str] = {}
    for name, ref in pairs:
        folded = name_text(name)
        if folded and len(folded) <= MAX_REFERENCE_CHARS:
            names.setdefault(folded, ref)
    return names


def mention_names(mentions: Iterable[Mention]) -> list[tuple[str, str]]:
    """Return (name, id) for the mentions that name a document: a 《title》's title, a file name
    (of a link too); an "attached …" phrase is not a name."""
    pairs: list[tuple[str, str]] = []
    for mention in mentions:
        if mention.kind in ("title", "file"):
            pairs.append((mention.surface, mention.id))
        elif mention.kind == "url":
            pairs.append((unquote(urlsplit(mention.surface).path).rsplit("/", 1)[-1], mention.id))
    return pairs


def cited_documents(text: str, attachments: Sequence[str] = ()) -> tuple[list[str], list[tuple[str, str]]]:
    """Return the ids of ``attachments`` (file names) and of the documents ``text`` cites, and the
    (name, id) pairs they were read from (for ``reference_names``)."""
    mentions = find_mentions(text, attachments)
    ids = [document_id(name) for name in attachments] + [m.id for m in mentions]
    pairs = [(name, document_id(name)) for name in attachments] + mention_names(mentions)
    return ids, pairs


def unique(ids: Iterable[str]) -> list[str]:
    """Return ``ids`` without repeats, first occurrence first."""
    return list(dict.fromkeys(ids))
