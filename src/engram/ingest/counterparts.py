"""The other side's people: "Their controller Mike Dunn confirmed", "their new point of contact is Sam
Patel", 对接的是他们工程部的庄经理, 对方IT经理聂飞已确认, 联系人：设备处处长龚建华.

A person introduced as theirs (their/its, 他们/对方) in a role or as a contact works at the
organisation last named before them (inferred: what the message states outweighs it). Not for
relatives ("their son Jake"), nor for someone the sentence says is leaving or gone, nor when the
message already says where they work.
"""

from __future__ import annotations

import re

from engram.ingest.frames import EN_ROLE_NOUNS
from engram.ingest.mentions import Mention
from engram.ingest.reading import Message, Sentence
from engram.ingest.topics import DEPARTMENT
from engram.models.graph import FactIn

_THEIRS = {
    "en": re.compile(
        r"\b(?:their|its)\s+(?P<between>[^.;!?()]{0,45}?)(?:,\s*|\s+(?:is|was)\s+|\s+)$|"
        r"\b(?:our|the)\s+(?:new\s+)?(?:main\s+)?(?:point of contact|contact)\s+"
        r"(?:there|at\s+[^.;!?]{2,40}?)\s+"
        r"(?:is|will be)\s+(?P<rest>[^.;!?()]{0,30}?)(?:,\s*)?$",
        re.I,
    ),
    "zh": re.compile(
        r"(?:他们|对方|客户)(?:那边|方)?的?(?P<between>[^，。；！？,;]{0,10}?)$|"
        r"(?:联系人|对接人)(?:是|为|[:：])\s?(?P<field>[^，。；！？,;｜|]{0,8}?)\s?$"
    ),
}
"""Words before a person that make them the organisation's: the words between must name a role or
a contact (checked with ``_ROLE``)."""
_ROLE = {
    "en": re.compile(
        rf"\b(?:{EN_ROLE_NOUNS}|contact|rep|sponsor|counterpart|deputy|head|champion)s?\b", re.I
    ),
    "zh": re.compile(
        r"经理|总监|主管|专员|工程师|顾问|助理|主任|总裁|董事长|处长|科长|部长|会计|出纳|采购|老板|老板娘|店长|负责人|"
        r"CEO|CTO|CFO|CIO|VP|[工总]$|部的?$|处的?$|中心的?$"
    ),
}
_NOT_STAFF = re.compile(
    r"son|daughter|kids?|children|wife|husband|partner|mom|dad|mother|father|parents|friend|neighbou?r|"
    r"儿子|女儿|孩子|老公|老婆|爱人|父母|爸|妈|朋友|邻居|竞品|竞争",
    re.I,
)
_GONE = re.compile(
    r"^[^.;!?。；！？]{0,20}?(?:离职|辞职|退休|走了|调去|调走|调到|跳槽|"
    r"\b(?:left|leaving|retired|retiring|quit|moved (?:on|over)|departed)\b)",
    re.I,
)
_WINDOW = 60


def add_counterpart_employers(reading: Sentence, message: Message) -> None:
    """Add WORKS_AT for each person ``reading`` introduces as an organisation's (module docstring)."""
    for person in reading.mentions:
        if person.type != "person" or person.relative or person.name == message.speaker.actor:
            continue
        employer = _employer_before(person, reading, message)
        if employer is None or message.states(person.name, "WORKS_AT"):
            continue
        before = reading.text[max(0, person.start - _WINDOW) : person.start]
        said = _THEIRS[reading.lang].search(before)
        if said is None or _GONE.search(reading.text, person.end):
            continue
        between = said.group("between") or said.groupdict().get("rest") or said.groupdict().get("field") or ""
        named_as_contact = said.groupdict().get("field") is not None or "contact" in said.group().lower()
        if _NOT_STAFF.search(between) or not (_ROLE[reading.lang].search(between) or named_as_contact):
            continue
        cue = person.start - len(before) + said.start()
        if any(m.type == "person" and cue <= m.start < person.start for m in reading.mentions):
            continue  # "their CFO Ann Lee and Bob Roy": only the nearest is introduced so
        message.add_fact(
            FactIn(
                subject=person.name,
                predicate="WORKS_AT",
                object=employer,
                fact=reading.text.strip()[:2000],
                confidence=0.6,
                source_kind="inferred",
            )
        )


def _employer_before(person: Mention, reading: Sentence, message: Message) -> str | None:
    """The last organisation (not a department) named before ``person``: in its sentence, else in
    the sentences before it."""
    later = {m.name for m in reading.mentions if m.type == "organisation" and m.start >= person.start}
    named = [o for o in message.speaker.organisations if o not in later and not DEPARTMENT.search(o)]
    return named[-1] if named else None
