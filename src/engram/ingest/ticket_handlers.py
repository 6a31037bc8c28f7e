"""Who handles a support ticket: "Ticket #48213 – … Assigned to Kenji.", "Assigned to me.", "I'm on it.",
"taking #5530", "Jun Park is looking", 负责人：谢婉, 处理人：尚文, 已指派给后端黄志强, 分配给后端组的姚远,
已派工程师陆一帆明天上门, 给了林小雨, 韩冰在跟.

The handler is RESPONSIBLE_FOR the ticket (the entity its number names, ``engram.nlp.references``): a
support engineer handles many tickets at once, so the one-valued ASSIGNED_TO of a person's project (a new
one ends the last) would close their other tickets. The ticket is the one the sentence names before the cue,
else after it ("taking #5530"), else the message's latest; a message naming no numbered ticket gives
nothing, nor does a handler said with a condition or a question ("can Kenji take it?"), nor a team alone
("Assigned to Tier 2").
"""

from __future__ import annotations

import re

from engram.ingest.mentions import Mention
from engram.ingest.reading import Message, Sentence
from engram.models.graph import FactIn

_EN_CUE = re.compile(
    r"\b(?:re)?assigned to\s+(?:(?P<me>me)\b|(?=[A-Z]))|"
    r"(?P<me2>\bI'm on it\b|\bI am on it\b|\btaking\s+(?=#\d))|"
    r"(?=(?-i:[A-Z])[\w'-]+(?:\s(?-i:[A-Z])[\w'-]+)?\s(?:is|'s)\s(?:on it|looking(?: into it| at it)?)\b)",
    re.I,
)
_ZH_CUE = re.compile(
    r"(?:负责人|处理人|跟进人)[：:]\s*|(?:指派给|分配给|派给|转给|给了|已派(?:工程师|同事)?)\s*"
    r"(?:(?:后端|前端|运维|测试|技术支持|客服|售后)(?:组|部)?的?)?(?:工程师|同事)?\s*|"
    r"(?=[\u4e00-\u9fff]{2,3}在(?:跟|查|处理|看)(?:了|中)?(?:[，。,]|$))"
)
_NOT_SETTLED = re.compile(r"\?|？|\bif\b|\bcan\b|\bcould\b|\bwho\b|吗|能否|如果|谁", re.I)


def add_ticket_handlers(reading: Sentence, message: Message) -> None:
    """Add RESPONSIBLE_FOR from the handler of each cue in ``reading`` to its ticket (module docstring)."""
    cue_rx = _ZH_CUE if reading.lang == "zh" else _EN_CUE
    for cue in cue_rx.finditer(reading.text):
        clause = reading.clause_of(cue.start())
        if _NOT_SETTLED.search(reading.text, clause[0], clause[1]):
            continue
        ticket = _ticket(reading, message, cue.start())
        handler = _handler(reading, message, cue)
        if ticket is None or handler is None:
            continue
        message.add_entity(ticket)
        message.add_fact(
            FactIn(
                subject=handler,
                predicate="RESPONSIBLE_FOR",
                object=ticket.name,
                fact=reading.text[:2000],
                confidence=0.75,
                source_kind="stated",
                valid_at=message.at,  # handled from when it is said, not from an ETA the sentence gives
            )
        )


def _ticket(reading: Sentence, message: Message, cue: int) -> Mention | None:
    """Return the ticket named last before ``cue`` in the sentence, else the first after it ("taking
    #5530"), else the message's latest."""
    named = [m for m in reading.mentions if m.type == "ticket"]
    before = [m for m in named if m.end <= cue]
    after = [m for m in named if m.start >= cue]
    earlier = [m for m in message.topics if m.type == "ticket"]
    chosen = before[-1:] or after[:1] or earlier[-1:]
    return chosen[0] if chosen else None


def _handler(reading: Sentence, message: Message, cue: re.Match[str]) -> str | None:
    """Return who the cue says handles the ticket: the speaker (me, I'm on it, taking #…), else the person
    named right where the cue ends."""
    groups = cue.groupdict()
    if groups.get("me") or groups.get("me2"):
        return message.speaker.actor
    person = next(
        (m for m in reading.mentions if m.type == "person" and m.start == cue.end() and not m.relative), None
    )
    if person is None or re.match(r"['’]s\b", reading.text[person.end :]):
        return None  # "Assigned to Hana's mobile team": a team
    return person.name
