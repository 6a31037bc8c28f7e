"""Find references in text and map them to canonical, versioned reference ids.

Two kinds of detection, both returning :class:`Reference` spans:

- **table rules**, searched in free text: ``{"pattern": "DEAL-(\\d+)", "type": "deal",
  "id": "deal:{1}"}``; ``{0}`` is the whole match, ``{1}``… the groups. The defaults map
  ``DEAL-7890`` → ``deal:7890``, ``INV-12`` → ``invoice:12``, ``PO-3`` → ``purchase_order:3``,
  ``Order #4471`` → ``order:4471`` (an order too), ``Invoice #5120`` → ``invoice:5120``, ``Ticket #5120``,
  ``工单＃5120``, ``5120号工单`` and a bare ``#5120`` → ``ticket:5120``, any other ``ABC-123`` →
  ``ref:abc-123``.
  Custom rules are tried before the defaults.
- **structural detectors**: 《title》 → document ``doc:<title>``; file names → document
  ``doc:<stem>`` (``报价单_v2.pdf`` → ``doc:报价单@v2``); e-mail addresses → ``email:<lower>``;
  URLs → ``url:<scheme://host/path>`` (host lower-cased, trailing punctuation dropped). A rule
  that *fully* matches a title or file stem replaces its type and id (``采购合同`` →
  ``contract:purchase``), and the version is kept (``contract:purchase@v2``).

A version is read from ``_v2``, ``-V1.3``, ``(v2)``, ``第二版`` or ``final``/``终版`` at the end of
a title or stem; the canonical id gets ``@v<version>`` so that two versions never share an id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engram.errors import InvalidInput
from engram.nlp.amounts import cn_to_int

DEFAULT_TABLE: tuple[Mapping[str, str], ...] = (
    {"pattern": r"(?<![A-Za-z0-9_])DEAL[-_ ]?(\d{2,})(?![A-Za-z0-9_])", "type": "deal", "id": "deal:{1}"},
    {"pattern": r"(?<![A-Za-z0-9_])INV[-_]?(\d{2,})(?![A-Za-z0-9_])", "type": "invoice", "id": "invoice:{1}"},
    {
        # PO-0723-A, "PO 9921", PO#4410
        "pattern": r"(?<![A-Za-z0-9_])PO(?:[-_]|\s?#\s?|\s(?=\d{3}))(\d{2,}(?:-\d+)*(?:-[A-Z])?)"
        r"(?![A-Za-z0-9_-])",
        "type": "purchase_order",
        "id": "purchase_order:{1}",
    },
    {
        # Order #4471, "order 48812", Order No. 3310: a customer's order by its number
        "pattern": r"(?<![A-Za-z0-9_])(?:Order\s?|order(?=\s?#|\s[Nn]o|\snumber|\s\d{5}))"
        r"\s?(?:#\s?|[Nn]o\.?\s?|number\s)?(\d{3,})(?![A-Za-z0-9_-])",
        "type": "purchase_order",
        "id": "order:{1}",
    },
    {
        # Ticket #4471, "ticket 5120", 工单#20391, 工单 3321: a support ticket by its number
        "pattern": r"(?<![A-Za-z0-9_])(?:[Tt]icket|TICKET|工单)\s?(?:[#＃]\s?|[Nn]o\.?\s?)?(\d{3,})"
        r"(?![A-Za-z0-9_-])|(?<![A-Za-z0-9_])(\d{3,})号工单",
        "type": "ticket",
        "id": "ticket:{1}{2}",
    },
    {
        # an invoice by its number ("Invoice #5120"), not a ticket
        "pattern": r"(?<![A-Za-z0-9_])[Ii]nvoice\s?(?:[#＃]\s?|[Nn]o\.?\s?)(\d{3,})(?![A-Za-z0-9_-])",
        "type": "invoice",
        "id": "invoice:{1}",
    },
    {
        # a bare "#4471" or "＃4471" (not "Order #4471" nor "Invoice #5120", read above, nor "#general", "Room
        # #301", "Gate #12"): a ticket or an issue by its number
        "pattern": r"(?<![A-Za-z0-9_&#/])(?<!Room )(?<!room )(?<!Suite )(?<!Gate )(?<!gate )(?<!Seat )"
        r"(?<!Table )(?<!Unit )(?<!Apt )(?<!Flight )(?<!Step )(?<!PR )[#＃](\d{3,7})(?![A-Za-z0-9_-])",
        "type": "ticket",
        "id": "ticket:{1}",
    },
    {
        "pattern": r"(?<![A-Za-z0-9_@/.-])([A-Z][A-Z0-9]{1,9}(?:-\d{1,10})+)(?![A-Za-z0-9_-])",
        "type": "reference",
        "id": "ref:{1}",
    },
)

_TITLE = re.compile(r"《([^《》\n]{1,80})》")
_EMAIL = re.compile(r"(?<![A-Za-z0-9_.+-])[A-Za-z0-9_.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
r"""An address with an ASCII local part: Python's ``\w`` would take the Chinese words before it
("王总的邮箱是wang@…")."""
_URL = re.compile(r"\bhttps?://[^\s<>\"'，。！？、）)]+|\bwww\.[^\s<>\"'，。！？、）)]+", re.I)
_FILE = re.compile(
    r"(?<![\w./@\\-])([\w\u4e00-\u9fff][\w\u4e00-\u9fff.()（）-]{0,80}?)"
    r"\.(pdf|docx?|xlsx?|pptx?|csv|txt|md|zip|rar|png|jpe?g|gif|key|pages|numbers|json|xml|html?)\b",
    re.I,
)
_VERSION = re.compile(
    r"[\s_\-(（]*(?:(?:v|ver\.?|version\s?)(\d+(?:\.\d+)*)|第([一二三四五六七八九十\d]+)版|(final|终版|定稿))[)）]?$",
    re.I,
)
_FILE_LEAD = re.compile(
    r"^(?:请|查看|看一下|看看|看|见|附件|附上|发送|发给你|发了|发|收到|打开|下载|上传|和|与|及|跟|把|将|是|的|了|"
    r"在|给|用|这个|那个|该|一份|份|最新的?|新版)+(?=[\w\u4e00-\u9fff])"
)
_TRAILING = ".,;:!?)]}'\""


@dataclass(frozen=True, slots=True)
class Reference:
    """A reference found at ``start:end`` of the text: its surface, entity type and canonical id."""

    surface: str
    name: str
    type: str
    id: str
    start: int
    end: int
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Rule:
    regex: re.Pattern[str]
    type: str
    template: str

    def format(self, match: re.Match[str]) -> str:
        groups = [match.group(0), *(g or "" for g in match.groups())]
        try:
            return self.template.format(*groups, **match.groupdict(default=""))
        except (IndexError, KeyError) as exc:
            raise InvalidInput(f"reference id template {self.template!r}: {exc}", field="references") from exc


def split_version(name: str) -> tuple[str, str | None]:
    """Return ``(stem, version)``: ``"报价单_v2"`` → ``("报价单", "2")``, ``"合同"`` → ``("合同", None)``."""
    match = _VERSION.search(name)
    if not match or match.start() == 0:
        return name, None
    number, chinese, final = match.groups()
    if chinese:
        version = chinese if chinese.isdigit() else str(cn_to_int(chinese))
    else:
        version = number or ("final" if final else "")
    return name[: match.start()].strip(" _-"), version


class ReferenceTable:
    """Detect references and give each a canonical id through a configurable rule table.

    ``rules``: ``[{"pattern": regex, "type": entity type, "id": template}]``, tried before the
    defaults (``use_defaults=False`` drops them). Raises InvalidInput for a malformed rule.
    """

    def __init__(self, rules: Iterable[Mapping[str, str]] = (), *, use_defaults: bool = True) -> None:
        table = [*rules, *(DEFAULT_TABLE if use_defaults else ())]
        self._rules: list[_Rule] = []
        for rule in table:
            try:
                regex = re.compile(rule["pattern"])
                self._rules.append(_Rule(regex, rule.get("type", "reference"), rule["id"]))
            except (KeyError, re.error) as exc:
                raise InvalidInput(f"reference rule {dict(rule)!r}: {exc}", field="references") from exc

    def find(self, text: str) -> list[Reference]:
        """Return the references in ``text``, left to right, never overlapping (structural first)."""
        found: list[Reference] = []
        taken: list[tuple[int, int]] = []

        def add(ref: Reference) -> None:
            if all(ref.end <= start or ref.start >= end for start, end in taken):
                found.append(ref)
                taken.append((ref.start, ref.end))

        for match in _URL.finditer(text):
            add(self._url(match))
        for match in _EMAIL.finditer(text):
            surface = match.group()
            add(Reference(surface, surface.lower(), "email", f"email:{surface.lower()}", *match.span()))
        for match in _TITLE.finditer(text):
            if match.group(1).strip():  # 《 》 names nothing
                add(self._document(match.group(1), match.group(), match.start(), match.end(), kind="title"))
        for match in _FILE.finditer(text):
            lead = _FILE_LEAD.match(match.group(1))
            start = match.start() + (lead.end() if lead else 0)
            stem = match.group(1)[lead.end() if lead else 0 :]
            add(self._document(stem, text[start : match.end()], start, match.end(), kind="file"))
        for rule in self._rules:
            for match in rule.regex.finditer(text):
                add(Reference(match.group(), match.group(), rule.type, rule.format(match), *match.span()))
        return sorted(found, key=lambda ref: ref.start)

    def resolve(self, surfaces: Sequence[str]) -> list[Reference]:
        """Return the references named by an episode's ``references`` list (each string on its own)."""
        out: list[Reference] = []
        for surface in surfaces:
            out.extend(self.find(surface))
        return out

    def _url(self, match: re.Match[str]) -> Reference:
        surface = match.group().rstrip(_TRAILING)
        url = surface if "://" in surface else "https://" + surface
        scheme, _, rest = url.partition("://")
        host, slash, path = rest.partition("/")
        canonical = f"{scheme.lower()}://{host.lower()}{slash}{path}".rstrip("/")
        start = match.start()
        return Reference(surface, surface, "url", f"url:{canonical}", start, start + len(surface))

    def _document(self, name: str, surface: str, start: int, end: int, *, kind: str) -> Reference:
        stem, version = split_version(name.strip())
        attributes = {"source": kind}
        if kind == "file":
            attributes["file"] = surface
        if version:
            attributes["version"] = version
        doc_type, ref_id = "document", f"doc:{stem}"
        for rule in self._rules:
            match = rule.regex.fullmatch(stem)
            if match:
                doc_type, ref_id = rule.type, rule.format(match)
                break
        if version:
            ref_id = f"{ref_id}@v{version}"
        return Reference(
            surface, name if kind == "title" else surface, doc_type, ref_id, start, end, attributes
        )
