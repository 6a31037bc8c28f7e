"""Names a message gives someone: "everyone calls me Mike", 大家都叫我老李, "his full name is Robert Miller",
小周（周宇航）.

Only explicit naming is read (call / calls / go by / full name is; 叫我 / 全名是), and only a name
form: a capitalised word or two in English, a Chinese name (a surname and one or two characters,
小/老/阿 and one) or a surname with a title in Chinese, so that "叫我去开会" (asked me to go to a
meeting) names nobody. The extractor adds the alias to the speaker (first person) or to the last
person named (third person), and resolution then finds the person by it.
"""

from __future__ import annotations

import re
from typing import Literal

from engram.ingest.clauses import Lang
from engram.ingest.lexicon import ZH_TITLED
from engram.ingest.mentions import Mention
from engram.ingest.reading import Message, Sentence
from engram.ingest.relatives import cjk_person

Who = Literal["speaker", "last_person"]

_EN_NAME = r"(?P<alias>[A-Z][a-z][\w'-]*(?:\s[A-Z][a-z][\w'-]*){0,2})"
_EN = (
    (
        "speaker",
        re.compile(
            r"\b(?i:(?:everyone|everybody|people|friends|folks|they)\s+(?:all\s+|just\s+)?calls?\s+me"
            r"|(?:please\s+|just\s+|you\s+can\s+)?call\s+me|I\s+go\s+by"
            rf"|my\s+(?:nickname|full\s+name|real\s+name|legal\s+name)\s+is)\s+{_EN_NAME}"
        ),
    ),
    (
        "last_person",
        re.compile(
            r"\b(?i:(?:his|her)\s+(?:nickname|full\s+name|real\s+name|legal\s+name)\s+is"
            r"|(?:everyone|everybody|people|we)\s+(?:all\s+|just\s+)?calls?\s+(?:him|her)"
            r"|(?:he|she)\s+goes\s+by)"
            rf"\s+{_EN_NAME}"
        ),
    ),
)
_ZH_NAME = r"(?P<alias>[\u4e00-\u9fff]{2,4}?)(?=就行|就好|吧|[，。！,.!；;]|$)"
_ZH_SAID = r"(?:的)?(?:全名|大名|本名|真名|小名|外号)(?:叫|是)"
_ZH = (
    ("speaker", re.compile(rf"(?:叫|喊|称呼)我{_ZH_NAME}")),
    ("speaker", re.compile(rf"我{_ZH_SAID}{_ZH_NAME}")),
    ("last_person", re.compile(rf"(?:叫|喊|称呼)(?:他|她){_ZH_NAME}")),
    ("last_person", re.compile(rf"(?:他|她){_ZH_SAID}{_ZH_NAME}")),
)


_ZH_BRACKETED = re.compile(
    r"(?P<alias>(?:小|老|阿)[\u4e00-\u9fff]|[\u4e00-\u9fff](?:总|工|姐|哥))[（(](?P<name>[\u4e00-\u9fff]{2,4})[）)]"
)
"""小周（周宇航）, 老王（王建国）: a familiar form with the full name in brackets."""


def names_given(sentence: str, lang: Lang) -> list[tuple[Who, str, int]]:
    """Return (whose, alias, where the naming starts) for each name ``sentence`` explicitly gives."""
    found: list[tuple[Who, str, int]] = []
    for who, pattern in _EN if lang == "en" else _ZH:
        for match in pattern.finditer(sentence):
            alias = match["alias"]
            if lang == "zh" and not (cjk_person(alias) or ZH_TITLED.fullmatch(alias)):
                continue
            found.append((who, alias, match.start()))  # type: ignore[arg-type]
    return found


def add_names_given(message: Message, reading: Sentence) -> None:
    """Give the speaker (or the person named last before the naming) each alias the sentence names
    them by; the alias is then no separate person of the message."""
    for who, alias, at in names_given(reading.text, reading.lang):
        if who == "speaker":
            named = message.speaker.actor
        else:
            before = [
                m.name for m in reading.mentions if m.type == "person" and m.end <= at and m.name != alias
            ]
            named = before[-1] if before else message.speaker.last_person
        if named and alias != named:
            message.entities.pop((alias, "person"), None)
            message.add_entity(Mention(0, 0, named, "person", aliases=[alias]))
    if reading.lang == "zh":
        for match in _ZH_BRACKETED.finditer(reading.text):
            if cjk_person(match["name"]):  # the familiar form is the full name's, one person
                message.entities.pop((match["alias"], "person"), None)
                message.add_entity(Mention(0, 0, match["name"], "person", aliases=[match["alias"]]))
