"""The other side's people: "Their controller Mike Dunn confirmed", "their new point of contact is Sam
Patel", "our contact there is Marcus Lee".

A person introduced as theirs in a role or as a contact works at the organisation last named before
them (inferred: what the message states outweighs it), whether or not the role is one the patterns
know and whatever job change the sentence also tells (where engram.ingest.implied, reading roles
after an organisation, holds back). Not for relatives ("their son Jake"), nor for someone the
sentence says is leaving, nor when the message already says where they work. Chinese says this
with 他们/对方 and 联系人：, which its patterns read (engram.ingest.patterns_zh_deals).
"""

from __future__ import annotations

import re

from engram.ingest.frames import EN_ROLE_NOUNS
from engram.ingest.reading import Message, Sentence
from engram.models.graph import FactIn

_THEIRS = re.compile(
    r"\b(?:their|its)\s+(?P<between>[^.;!?()]{0,45}?)(?:,\s*|\s+(?:is|was)\s+|\s+)$|"
    r"\b(?:our|the)\s+(?:new\s+)?(?:main\s+)?(?:point of contact|contact)\s+"
    r"(?:there|at\s+[^.;!?]{2,40}?)\s+(?:is|will be)\s+(?P<rest>[^.;!?()]{0,30}?)(?:,\s*)?$",
    re.I,
)
"""Words before a person that make them the organisation's: the words between must name a role or
a contact (``_ROLE``)."""
_ROLE = re.compile(
    rf"\b(?:{EN_ROLE_NOUNS}|contact|rep|sponsor|counterpart|deputy|head|champion|bursar|dev|FD|admin|buyer)"
    r"(?:-[\w-]+)?s?$",
    re.I,
)
"""The words between end in a role or a contact: the name comes right after it ("their CEO met Sarah
Kim" introduces no Sarah Kim)."""
_NOT_STAFF = re.compile(
    r"\b(?:son|daughter|kids?|children|wife|husband|partner|mom|dad|mother|father|parents|friend|neighbou?r|"
    r"former|ex|previous|old|retired|consultant|advis[eo]r|lawyer|attorney|counsel|auditor|investor|agency)s?\b",
    re.I,
)
_GONE = re.compile(
    r"[^.;!?]{0,20}?\b(?:left|leaving|retired|retiring|quit|moved (?:on|over)|departed)\b", re.I
)
"""Said right after the person: "Sam Ortiz, who left in May": no longer theirs."""
_WINDOW = 60
_AN_ACCOUNT_NAME = re.compile(r"(?-i:[A-Z][\w&'-]+)(?:\s(?:&\s)?(?-i:[A-Z][\w&'-]+)){1,3}")


def add_counterpart_employers(reading: Sentence, message: Message) -> None:
    """Add WORKS_AT for each person ``reading`` introduces as an organisation's (module docstring)."""
    if reading.lang != "en":
        return  # Chinese: patterns read 他们/对方 and 联系人： (engram.ingest.patterns_zh_deals)
    for person in reading.mentions:
        if person.type != "person" or person.relative or person.name == message.speaker.actor:
            continue
        employer = message.employer_before.get(person.name) or _account_opened_with(message, person.name)
        if employer is None or message.states(person.name, "WORKS_AT"):
            continue
        before = reading.text[max(0, person.start - _WINDOW) : person.start]
        said = _THEIRS.search(before)
        if said is None or _GONE.match(reading.text, person.end):
            continue
        between = (said.group("between") or said.group("rest") or "").strip(" ,")
        if _NOT_STAFF.search(between) or not (_ROLE.search(between) or "contact" in said.group().lower()):
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


def _account_opened_with(message: Message, person: str) -> str | None:
    """Return the account a business note opened with when no organisation was recognised before
    ``person``: its first entity, a name of two or more capitalised words that is no person ("Call w/
    Harbor Cold Chain went well. Their ops director is Greg Whitfield")."""
    first = next(iter(message.entities), None)
    if first is None or first[0] == person or first[1] not in ("thing", "organisation"):
        return None
    return first[0] if _AN_ACCOUNT_NAME.fullmatch(first[0]) else None
