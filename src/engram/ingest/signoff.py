"""A mail's signature block under its closing formula: who wrote it, their title and company.

    Thanks,                      Best,
    Irene Malik                  Carl Jensen
    Office Manager, Tidewater Legal   Summit Office Supply

The block's first part is the writer's name (one to three capitalised words, or a Chinese name with
a known surname); each later part, split at line ends, commas and bars, is a title (HAS_ROLE), a
department (MEMBER_OF) or else the company (WORKS_AT), skipping phones, addresses and links. The
block is found as engram.nlp.replies drops it; a signature on one line ("— Owen Petrakis, Account
Executive, LedgerLine", 鼎丰紧固件 赵磊) is read by patterns instead.
"""

from __future__ import annotations

import re

from engram.ingest.frames import EN_DEPARTMENT, EN_ROLE, ZH_ROLE
from engram.ingest.lexicon import SURNAMES
from engram.ingest.mentions import Mention
from engram.ingest.reading import Message
from engram.models.graph import FactIn
from engram.nlp.replies import signature_lines

_EN_NAME = re.compile(r"(?:Dr\.?\s)?[A-Z][a-z]+(?:[ '-][A-Z][a-z]+){1,2}")
_PARTS = re.compile(r"\s*(?:[,，|｜·•/]|\s[-–—]\s|\s{2,})\s*")
_NOT_A_NAME = re.compile(
    r"\d|@|https?:|www\.|\b(?:tel|phone|mobile|cell|fax|ext|suite|street|st\.|ave)\b|电话|手机|邮箱|地址|传真",
    re.I,
)
"""A phone, an address or a link: no title and no company."""
_ROLE = {"en": re.compile(rf"(?:{EN_ROLE})", re.I), "zh": re.compile(ZH_ROLE)}
_DEPARTMENT = {"en": re.compile(EN_DEPARTMENT, re.I), "zh": re.compile(r"[\u4e00-\u9fff]{1,6}[部组处科]")}
_COMPANY = {
    "en": re.compile(r"(?:[A-Z0-9][\w&.'’-]*)(?:\s(?:&\s|of\s|and\s)?[A-Z0-9][\w&.'’-]*){0,5}"),
    "zh": re.compile(r"[\u4e00-\u9fffA-Za-z0-9]{2,12}"),
}


def add_signature_facts(text: str, message: Message) -> None:
    """Add the writer's company, title and department that ``text``'s signature block gives."""
    lines = signature_lines(text)
    parts = [part for line in lines for part in _PARTS.split(line) if part]
    if len(parts) < 2:
        return
    name, lang = parts[0], "zh" if re.search(r"[\u4e00-\u9fff]", parts[0]) else "en"
    if not _a_name(name, lang) or message.states(name, "WORKS_AT"):
        return
    writer = Mention(0, 0, name, "person")
    for part in parts[1:]:
        if _NOT_A_NAME.search(part):
            continue
        if _ROLE[lang].fullmatch(part):
            _add(message, writer, "HAS_ROLE", Mention(0, 0, part, "role"), lines)
        elif _DEPARTMENT[lang].fullmatch(part):
            _add(message, writer, "MEMBER_OF", Mention(0, 0, part, "organisation"), lines)
        elif _COMPANY[lang].fullmatch(part) and not message.states(name, "WORKS_AT"):
            _add(message, writer, "WORKS_AT", Mention(0, 0, part, "organisation"), lines)


def _a_name(name: str, lang: str) -> bool:
    if lang == "en":
        return bool(_EN_NAME.fullmatch(name))
    return 2 <= len(name) <= 4 and name[0] in SURNAMES and not _NOT_A_NAME.search(name)


def _add(message: Message, writer: Mention, predicate: str, target: Mention, lines: list[str]) -> None:
    message.add_entity(writer)
    message.add_entity(target)
    message.add_fact(
        FactIn(
            subject=writer.name,
            predicate=predicate,
            object=target.name,
            fact="\n".join(lines),
            confidence=0.8,
            source_kind="stated",
        )
    )
