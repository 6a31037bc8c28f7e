"""Read wiki pages as episodes, one per section: a Markdown folder, a Confluence or a Notion export.

- **Markdown** (``markdown``): every ``*.md`` under the folder, parsed with markdown-it-py; YAML
  front matter (``title``, ``version``, ``updated``, ``owner``, ``tags``…) via mdit-py-plugins and
  PyYAML. Title: front matter ``title``, else the first ``#`` heading, else the file name.
- **Confluence** space HTML export (``confluence``): every page ``*.html`` but ``index.html``,
  parsed with BeautifulSoup; the content is ``div#main-content`` only; title ``<title>`` minus the
  space prefix; page id and version from the ``ajs-page-id``/``ajs-page-version`` metas (else the
  file name ``…_65540.html`` / ``65540.html``; the version is optional); parent page from the
  breadcrumbs; author and date from the page metadata line.
- **Notion** export (``notion``): ``Title <32 hex>.md`` and ``.html`` pages in nested folders; the
  property lines under a Markdown title (``Owner:``, ``Last edited time:`` …) and the HTML
  ``table.properties`` are metadata; a page's parent is the page its folder is named after.

A page is split at its headings; each section with text becomes an episode: ``content`` the
section's text (Markdown links shown as their text), ``metadata`` ``title``, ``heading_path``
(title, then the headings above the section), ``page``, ``section``, ``version``,
``reference_id`` (the page's versioned id, ``page-…-v<version>``), ``thread_id`` (the same: the
sections of a page read as one thread), ``parent`` (the parent page's reference id) and the
page's properties; ``references``: the pages the section links to (their versioned ids) and the
attachments and documents it cites. A page without an explicit version gets the first 8 hex of
its file's SHA-256, so an edited page gets new ids and never silently stands for the old one.
Episode ids are ``wiki:<24 hex of the page's reference id>:<section>``: importing again
deduplicates; an edited page adds its new sections.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml
from bs4 import BeautifulSoup, Tag
from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

from engram.models.episodes import EpisodeIn
from engram.nlp.reference_ids import cited_documents, page_id, reference_names, slug, unique
from engram.portable.base import ImportSource, Parsed, Problem, Record

NOTION_ID = re.compile(r"^(?P<title>.*?)\s+(?P<id>[0-9a-f]{32})$")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_NOTION_PROPERTY = re.compile(r"^([A-Z][\w ]{0,40}):\s+(.+)$")
_CONFLUENCE_PAGE_ID = re.compile(r"(?:^|_)(\d+)\.html$")
_CONFLUENCE_URL_ID = re.compile(r"/pages/(\d+)(?:/|$)")
_CONFLUENCE_BY = re.compile(
    r"last modified by\s+(?P<editor>.+?)\s+on\s+(?P<date>[A-Z][a-z]{2} \d{1,2}, \d{4})"
)
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


@dataclass(slots=True)
class Section:
    """A stretch of a page under one heading: its heading path, text, and what it links to."""

    headings: list[str]
    text: str
    links: list[str] = field(default_factory=list)  # page keys (resolved relative paths or page ids)
    documents: list[str] = field(default_factory=list)  # attachment file names


@dataclass(slots=True)
class Page:
    """A parsed page before its links are resolved to reference ids."""

    key: str
    file: str
    title: str
    version: str
    source: str
    timestamp: datetime
    actor: str | None = None
    parent: str | None = None  # the parent page's key
    properties: dict[str, Any] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)

    @property
    def reference_id(self) -> str:
        """Return the page's versioned reference id."""
        return page_id(f"{self.source}-{self.key}", self.version)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:8]


def _modified(path: Path) -> datetime:
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)


def _moment(value: Any) -> datetime | None:
    """Return a front-matter or property value as a UTC datetime (naive means UTC), or None."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    text = str(value or "").strip().lstrip("@")
    for pattern in ("%B %d, %Y %I:%M %p", "%b %d, %Y", "%Y-%m-%d", "%Y-%m-%dT%H:%M:%S%z"):
        try:
            moment = datetime.strptime(text, pattern)
        except ValueError:
            continue
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return None


# -- episodes ---------------------------------------------------------------------------------------


def page_records(pages: list[Page]) -> Iterator[Parsed]:
    """Yield one Record per section with text, links resolved to the linked pages' versioned ids."""
    by_key = {page.key: page for page in pages}
    for page in pages:
        for number, section in enumerate(page.sections, start=1):
            refs = [
                by_key[key].reference_id if key in by_key else page_id(f"{page.source}-{key}", None)
                for key in section.links
                if key != page.key
            ]
            documents, named = cited_documents(section.text, section.documents)
            refs += documents
            parent = by_key.get(page.parent) if page.parent else None
            metadata: dict[str, Any] = {
                **page.properties,
                "title": page.title,
                "heading_path": [page.title, *section.headings],
                "page": page.file,
                "section": number,
                "version": page.version,
                "reference_id": page.reference_id,
                "reference_names": reference_names([(page.title, page.reference_id), *named]),
                "thread_id": page.reference_id,
            }
            if parent is not None:
                metadata["parent"] = parent.reference_id
            episode = EpisodeIn(
                id=f"wiki:{hashlib.sha256(page.reference_id.encode()).hexdigest()[:24]}:{number}",
                timestamp=page.timestamp,
                source=page.source,
                source_type="page_section",
                actor=None if page.actor is None else {"type": "person", "id": page.actor},
                content=section.text,
                metadata=metadata,
                references=unique(refs),
            )
            yield Record(
                f"{page.file} section {number} ({' / '.join(section.headings) or page.title})", episode
            )


def _guarded(pages: Iterator[Page | Problem]) -> Iterator[Parsed]:
    """Parse every page first (links need every page's version), then yield problems and records."""
    parsed: list[Page] = []
    for item in pages:
        if isinstance(item, Problem):
            yield item
        else:
            parsed.append(item)
    yield from page_records(parsed)


def _count(pages: list[Page | Problem]) -> int:
    return sum(len(p.sections) if isinstance(p, Page) else 1 for p in pages)


# -- Markdown ---------------------------------------------------------------------------------------


def read_markdown(path: Path) -> ImportSource:
    """Open a folder (or one file) of Markdown pages; the total is the number of sections."""
    root = path if path.is_dir() else path.parent
    files = sorted(p for p in path.rglob("*.md")) if path.is_dir() else [path]
    notion = any(NOTION_ID.match(p.stem) for p in files)
    pages = [_markdown_page(file, root, "notion" if notion else "wiki") for file in files]
    return ImportSource(_guarded(iter(pages)), total=_count(pages))


def _markdown_page(file: Path, root: Path, source: str) -> Page | Problem:
    name = file.relative_to(root).as_posix()
    raw = file.read_bytes()
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        return Problem(name, f"not UTF-8 text: {exc.reason}", "file")
    parser = MarkdownIt("commonmark").enable("table").use(front_matter_plugin)
    tokens = parser.parse(text)
    front: dict[str, Any] = {}
    if tokens and tokens[0].type == "front_matter":
        try:
            loaded = yaml.safe_load(tokens[0].content) or {}
        except yaml.YAMLError as exc:
            return Problem(f"{name} front matter", f"not YAML: {exc}", "front_matter")
        front = loaded if isinstance(loaded, dict) else {}
    lines = text.split("\n")
    headings = [
        (t.map[0], int(t.tag[1]), tokens[i + 1].content)
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and t.map is not None
    ]
    links = [
        (t.map[0] if t.map else 0, child.attrGet("href"))
        for t in tokens
        if t.type == "inline"
        for child in (t.children or [])
        if child.type == "link_open"
    ]
    notion = NOTION_ID.match(file.stem) if source == "notion" else None
    title = (
        str(front.get("title") or "") or next((h for _, level, h in headings if level == 1), "") or file.stem
    )
    if notion:
        title = notion.group("title")
    properties = {k: v for k, v in front.items() if k not in {"title", "version"}}
    body_start = headings[0][0] + 1 if headings and headings[0][1] == 1 else 0
    if notion:
        body_start = _notion_properties(lines, body_start, properties)
    page = Page(
        key=_page_key(name, source),
        file=name,
        title=title,
        version=str(front.get("version") or _digest(raw)),
        source=source,
        timestamp=_moment(properties.get("updated") or properties.get("Last edited time")) or _modified(file),
        actor=str(properties.get("owner") or properties.get("Owner") or "") or None,
        properties={k: (v.isoformat() if isinstance(v, date) else v) for k, v in properties.items()},
    )
    if notion and "/" in name:
        page.parent = _page_key(name.rsplit("/", 1)[0] + ".md", source)
    cuts = [(start, level, heading) for start, level, heading in headings if start >= body_start]
    bounds: list[int] = [body_start] + [start for start, _, _ in cuts]
    path: list[tuple[int, str]] = []
    for index, start in enumerate(bounds):
        end = bounds[index + 1] if index + 1 < len(bounds) else len(lines)
        if index:
            level, heading = cuts[index - 1][1], cuts[index - 1][2]
            path = [(lv, h) for lv, h in path if lv < level] + [(level, heading)]
            start += 1
        body = "\n".join(lines[start:end]).strip()
        if not body or (index == 0 and start >= end):
            continue
        targets = [str(href) for line, href in links if start <= line < end and href]
        page.sections.append(
            Section(
                headings=[h for _, h in path],
                text=_MD_LINK.sub(r"\1", body),
                links=[key for key in (_resolve(name, href, source) for href in targets) if key],
                documents=[_file_name(href) for href in targets if _is_document(href)],
            )
        )
    return page


def _notion_properties(lines: list[str], start: int, properties: dict[str, Any]) -> int:
    """Read Notion's ``Key: value`` lines under the title into ``properties``; return the body start."""
    index = start
    while index < len(lines) and not lines[index].strip():
        index += 1
    while index < len(lines) and (match := _NOTION_PROPERTY.match(lines[index].strip())):
        properties[match.group(1)] = match.group(2)
        index += 1
    return index


def _page_key(relative: str, source: str) -> str:
    """Return a page's key: its Notion id, else its path without the extension."""
    stem = PurePosixPath(relative)
    if source == "notion" and (match := NOTION_ID.match(stem.stem)):
        return match.group("id")
    return str(stem.with_suffix(""))


def _resolve(page: str, href: str, source: str) -> str | None:
    """Return the key of the page a relative link leads to, or None (external, anchor, not a page)."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    target = unquote(parts.path)
    if not target.endswith((".md", ".html")):
        return None
    joined = PurePosixPath(page).parent / target
    resolved: list[str] = []
    for part in joined.parts:
        if part == "..":
            if resolved:
                resolved.pop()
        elif part != ".":
            resolved.append(part)
    return _page_key("/".join(resolved), source)


def _is_document(href: str) -> bool:
    parts = urlsplit(href)
    name = unquote(parts.path).rsplit("/", 1)[-1]
    return not parts.scheme and "." in name and not name.endswith((".md", ".html"))


def _file_name(href: str) -> str:
    return unquote(urlsplit(href).path).rsplit("/", 1)[-1]


# -- HTML: Confluence and Notion ---------------------------------------------------------------------


def read_confluence(path: Path) -> ImportSource:
    """Open a Confluence space HTML export folder; ``index.html`` names the space."""
    files = sorted(p for p in path.glob("*.html") if p.name != "index.html")
    space = ""
    if (path / "index.html").is_file():
        index = BeautifulSoup((path / "index.html").read_bytes(), "html.parser")
        space = index.title.get_text(strip=True) if index.title else ""
    pages = [_confluence_page(file, path, space) for file in files]
    return ImportSource(_guarded(iter(pages)), total=_count(pages))


def _meta(soup: BeautifulSoup, name: str) -> str | None:
    tag = soup.find("meta", attrs={"name": name})
    value = tag.get("content") if isinstance(tag, Tag) else None
    return str(value) if value else None


def _confluence_page(file: Path, root: Path, space: str) -> Page | Problem:
    raw = file.read_bytes()
    soup = BeautifulSoup(raw, "html.parser")
    main = soup.find("div", id="main-content")
    if not isinstance(main, Tag):
        return Problem(file.name, "no div#main-content: not a Confluence page export", "main-content")
    title = soup.title.get_text(strip=True) if soup.title else file.stem
    space = space or title.partition(" : ")[0]
    title = title.removeprefix(f"{space} : ").strip()
    from_name = _CONFLUENCE_PAGE_ID.search(file.name)
    page_number = _meta(soup, "ajs-page-id") or (from_name.group(1) if from_name else file.stem)
    metadata = soup.find("div", class_="page-metadata")
    by = (
        _CONFLUENCE_BY.search(" ".join(metadata.get_text(" ").split())) if isinstance(metadata, Tag) else None
    )
    crumbs = [a.get("href") for a in soup.select("#breadcrumbs a") if a.get("href") != "index.html"]
    parent = _confluence_target(str(crumbs[-1])) if crumbs else None
    page = Page(
        key=f"{slug(space)}-{page_number}",
        file=file.name,
        title=title,
        version=_meta(soup, "ajs-page-version") or _digest(raw),
        source="confluence",
        timestamp=(_moment(by.group("date")) if by else None) or _modified(file),
        actor=by.group("editor").strip() if by else None,
        parent=f"{slug(space)}-{parent}" if parent else None,
        properties={"space": space, "page_id": page_number},
    )
    page.sections = [
        Section(s.headings, s.text, [f"{slug(space)}-{key}" for key in s.links], s.documents)
        for s in _html_sections(main, _confluence_target)
    ]
    return page


def _confluence_target(href: str) -> str | None:
    """Return the page id a Confluence link leads to (a page file or a /pages/<id>/ URL), else None."""
    parts = urlsplit(href)
    if parts.scheme:
        match = _CONFLUENCE_URL_ID.search(parts.path)
        return match.group(1) if match else None
    match = _CONFLUENCE_PAGE_ID.search(unquote(parts.path))
    return match.group(1) if match and not parts.path.startswith("attachments/") else None


def read_notion(path: Path) -> ImportSource:
    """Open a Notion export folder: Markdown and HTML pages named ``Title <32 hex>``."""
    files = sorted(p for p in path.rglob("*") if p.suffix in {".md", ".html"} and NOTION_ID.match(p.stem))
    pages: list[Page | Problem] = []
    for file in files:
        pages.append(
            _markdown_page(file, path, "notion") if file.suffix == ".md" else _notion_html(file, path)
        )
    return ImportSource(_guarded(iter(pages)), total=_count(pages))


def _notion_html(file: Path, root: Path) -> Page | Problem:
    name = file.relative_to(root).as_posix()
    raw = file.read_bytes()
    soup = BeautifulSoup(raw, "html.parser")
    body = soup.find("div", class_="page-body")
    if not isinstance(body, Tag):
        return Problem(name, "no div.page-body: not a Notion HTML page", "page-body")
    match = NOTION_ID.match(file.stem)
    assert match is not None  # read_notion picks only such files
    properties = {
        row.th.get_text(strip=True): row.td.get_text(", ", strip=True)
        for row in soup.select("table.properties tr")
        if row.th is not None and row.td is not None
    }
    page = Page(
        key=match.group("id"),
        file=name,
        title=match.group("title"),
        version=_digest(raw),
        source="notion",
        timestamp=_moment(properties.get("Last edited time")) or _modified(file),
        actor=properties.get("Owner") or None,
        parent=_page_key(name.rsplit("/", 1)[0] + ".md", "notion") if "/" in name else None,
        properties=properties,
    )
    page.sections = list(_html_sections(body, lambda href: _resolve(name, href, "notion")))
    return page


def _html_sections(content: Tag, target: Any) -> Iterator[Section]:
    """Yield the sections of an HTML page body, split at its headings (h1–h6, at any depth)."""
    path: list[tuple[int, str]] = []
    blocks: list[str] = []
    links: list[str] = []
    documents: list[str] = []

    def flush() -> Iterator[Section]:
        text = "\n".join(b for b in blocks if b)
        if text.strip():
            yield Section([h for _, h in path], text.strip(), unique(links), unique(documents))
        blocks.clear()
        links.clear()
        documents.clear()

    for element in content.find_all([*_HEADINGS, "p", "li", "tr", "pre", "blockquote"]):
        if not isinstance(element, Tag) or element.find_parent([*_HEADINGS, "li", "tr", "pre", "blockquote"]):
            continue  # nested inside a block already read
        if element.name in _HEADINGS:
            yield from flush()
            level = int(element.name[1])
            path = [(lv, h) for lv, h in path if lv < level] + [(level, element.get_text(" ", strip=True))]
            continue
        separator = " | " if element.name == "tr" else ""  # cells apart; inline tags joined as written
        blocks.append(" ".join(element.get_text(separator, strip=element.name == "tr").split()))
        for anchor in element.find_all("a", href=True):
            href = str(anchor["href"])
            if anchor.get("data-linked-resource-type") == "attachment" or _is_document(href):
                alias = anchor.get("data-linked-resource-default-alias")
                documents.append(str(alias) if alias else _file_name(href))
            elif (key := target(href)) is not None:
                links.append(key)
    yield from flush()
