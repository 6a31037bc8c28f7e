"""What a topic predicate's fact is about (a budget, a price, a deadline…): a name of its sentence,
else one an earlier sentence of the message named.

A topic predicate states something of a deal, project, product or organisation rather than of a
person ("预算150万", "go-live March 3"): the deal the sentence names wins, then the name holding
the cue or the nearest fitting one before it, then the first after it in the clause. A sentence
naming none is about the message's latest fitting name ("会议纪要：X项目，…；预算暂按150万走").
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engram.ingest.deals import DEAL_FACTS, said_deal
from engram.ingest.frames import DEPARTMENT
from engram.ingest.frames_zh import ZH_ELSEWHERE
from engram.ingest.issues import on_a_platform
from engram.ingest.mentions import Mention
from engram.ingest.reading import Message, Sentence

_DEAL = frozenset({"deal", "purchase_order"})
"""An agreed sale: a deal, or an order said by its purchase-order number (PO-2311)."""
_ORDER_NUMBER = re.compile(r"\d{4}")
"""An id with four digits in a row numbers an order or a contract (PA-3301, SO-7731); a model code has
fewer (HX-40, GW-300)."""
_NOT_AN_ORDER = re.compile(r"(?:ISO|EXT|RM|CR|HR|Q[1-4]|[A-Z]\d)-", re.I)
_NOT_AN_ORDER_BEFORE = re.compile(
    r"(?:航班|工号|门牌号?|会议室|房间|flight|room|ext\.?|extension|badge)\s?[:：#]?\s?$", re.I
)
"""Ids that number no order: a standard, an extension, a room, a staff number, a quarter (ISO-9001,
EXT-4412, RM-1205, HR-2024-001, Q3-2024), or an id said after 航班/工号/"flight"/"room"."""
TOPIC_TYPES: Mapping[str, frozenset[str]] = {
    "BUDGET": _DEAL | frozenset({"project", "organisation", "event"}),
    "PRICE": _DEAL | frozenset({"product", "organisation", "project", "thing"}),
    "DISCOUNT": _DEAL | frozenset({"product", "organisation"}),
    "DEADLINE": _DEAL | frozenset({"project", "organisation", "product", "document", "event", "thing"}),
    "LAUNCH_DATE": frozenset({"project", "product", "thing"}),
    "EXPIRES_ON": _DEAL | frozenset({"document", "product", "thing"}),
    "MEETING_AT": _DEAL | frozenset({"project", "event"}),
    "STATUS": _DEAL | frozenset({"ticket", "document", "project", "organisation", "invoice"}),
    "QUANTITY": _DEAL,
    "HAS_ISSUE": frozenset({"product"}),
    "CANCELLED": frozenset({"organisation", "person"}),
    "PAID": frozenset({"organisation"}),
    "ORDERED": frozenset({"organisation"}),
    "CONTACT": frozenset({"organisation"}),
    "WORKS_AT": frozenset({"organisation"}),  # 他们IT的小罗: someone of the organisation talked about
    "LIVES_IN": frozenset({"organisation"}),  # "at their Columbus HQ": where the organisation is
    "CUSTOMER_OF": frozenset({"organisation"}),  # "Their current vendor, TrackPoint"
}
"""The entity types a topic predicate is about, nearest first; a deal in the sentence wins."""


TOPIC_HOLDERS_LATER = (
    "deal",
    "purchase_order",
    "ticket",
    "reference",
    "project",
    "event",
    "product",
    "document",
    "organisation",
)
"""Names a later sentence of the message may be about when it names none of its own, by preference."""


def a_deal(mention: Mention, sentence: str = "") -> bool:
    """Return True for a deal, a purchase order, or an id numbering an order or a contract (not a
    flight, a room, a staff number or a standard: MU-5137, RM-1205, HR-2024-001, ISO-9001)."""
    if mention.type in _DEAL:
        return True
    return (
        mention.type == "reference"
        and _ORDER_NUMBER.search(mention.name) is not None
        and not _NOT_AN_ORDER.match(mention.name)
        and not _NOT_AN_ORDER_BEFORE.search(sentence, 0, mention.start)
    )


_REQUESTED = re.compile(
    r"要求|请(?!问)|麻烦|催|答应|承诺|诉求|不给.{0,6}就|\b(?:wants?|needs?|asked|asking|expects?|promised)\b",
    re.I,
)
"""In a deadline's clause: someone asks for it (要求周五前派人, "wants a fix by April 12")."""


_OF_ME = re.compile(r"\s*(?:我|me\b)")
"""Right after a request: asked of the speaker (要求我…, "asked me to…")."""


def _request_in(reading: Sentence, cue: int) -> re.Match[str] | None:
    """Return where the clause of ``cue`` asks for something (``_REQUESTED``), or None."""
    return _REQUESTED.search(reading.text, *reading.clause_of(cue))


def asked_by_another(reading: Sentence, cue: int) -> bool:
    """Return True when the clause of ``cue`` asks for something of the speaker (大唐的刘经理要求4月1号前
    出方案): its date is the asker's, never the speaker's own (老板要求我周五前…: asked of me, mine)."""
    asked = _request_in(reading, cue)
    return asked is not None and not _OF_ME.match(reading.text, asked.end(), asked.endpos)


_THE_CUSTOMER = re.compile(r"对方|客户|他们|\b(?:they|their|the customer|the client)\b", re.I)
"""Said before a topic predicate's cue, the organisation talked about (对方要求下周一之前…)."""
_CUSTOMER_FIRST = tuple(
    dict.fromkeys(("deal", "purchase_order", "reference", "organisation", *TOPIC_HOLDERS_LATER))
)
"""TOPIC_HOLDERS_LATER with the organisation moved up behind the deals (a deal still wins)."""


_CHOSEN_INSTEAD = re.compile(
    r"(?:\b(?:went with|go with|going with|chose|picked|switched to)\s(?:the\s)?"
    r"(?P<en>(?-i:[A-Z])[\w&'’-]*(?:\s(?-i:[A-Z])[\w&'’-]*)*)|(?:选了|选择了|换成了?|改用了?|转投了?)(?P<zh>[\u4e00-\u9fff]{2,8}))",
    re.I,
)
_LOST = re.compile(r"黄了|丢了|丢单|流失|输给|没签成|\b(?:lost|churned)\b", re.I)
FIGURES = frozenset({"PRICE", "QUANTITY", "DISCOUNT"})
"""Our figures for a deal: never a rival's (``a_rival``)."""


def chosen_instead(text: str) -> tuple[str, ...]:
    """Return what a message telling of a deal lost says the customer chose instead ("We lost Pinebrook.
    They went with Corvida", 续费黄了，他们换成了金蝶的): a rival, whose name starts the span returned (the
    Chinese one runs on: 金蝶的). A switch of our own (统一换成稿定设计，一年899) names no rival."""
    if not _LOST.search(text):
        return ()
    return tuple(found["en"] or found["zh"] for found in _CHOSEN_INSTEAD.finditer(text))


def a_rival(mention: Mention, message: Message) -> bool:
    """Return True when ``mention`` names a rival the message says was chosen instead (``chosen_instead``)."""
    return any(said.startswith(mention.name) for said in message.rivals)


def earlier_topic(predicate: str, message: Message, sentence: str = "", cue: int = 0) -> Mention | None:
    """Return the latest name of an earlier sentence a topic predicate fits, of the first type of
    TOPIC_HOLDERS_LATER named: a deal before a project, a project before its customer; the
    organisation right after a deal when ``sentence`` says 对方 or "they" before ``cue``; no earlier
    deal when ``sentence`` speaks of another order ("We'll reorder 30 units")."""
    types = TOPIC_TYPES.get(predicate, TOPIC_TYPES["DEADLINE"])
    before_cue = sentence[:cue]
    customer = (
        "organisation" in types
        and predicate != "BUDGET"  # "They approved the $27,800 budget": the project named before, if any
        and (_THE_CUSTOMER.search(before_cue) or _REQUESTED.search(before_cue))
    )
    earlier = message.topics
    if message.minutes:
        # a meeting's notes: an item says its own topic or is the meeting's, whose topic is what the
        # heading named ("Project Atlas sync"): "Next review: July 2", 埋点方案…月底前交付 and
        # 市场预算Q2追加20万 are no date or budget of an earlier item ("Orbit launch moved to Sept 9")
        earlier = earlier[: message.heading_topics or 0]
    for kind in _CUSTOMER_FIRST if customer else TOPIC_HOLDERS_LATER:
        if kind == "deal" and _ANOTHER_ORDER.search(sentence):
            continue
        if kind in types and (
            named := [
                m
                for m in earlier
                if (a_deal(m) if kind == "deal" else m.type == kind and not _affiliation(m.name))
                and not (predicate in FIGURES and a_rival(m, message))
                and (predicate in DEAL_FACTS or "said_as" not in m.attributes)  # a renewal has no budget
            ]
        ):
            return named[0] if predicate == "CONTACT" else named[-1]  # a contact: of what the note is about
    return None


_FOR_THE = re.compile(r"[\w-]+\s+(?:for|of)\s+(?:the\s+|our\s+|their\s+|this\s+)?", re.I)
"""Between a cue and the name it is about: "budget for the", "kickoff for the", "price of"."""
_BRANCH = re.compile(r"(?:分公司|分部|办事处|分厂|分行|支行)$")
"""A branch of the organisation talked about (原来的孙姐调去他们苏州分公司): not the customer itself."""
_WHERE = re.compile(r"\b(?:in|at)\s$")
_NOT_CHOSEN = re.compile(r"\b(?:over|instead of|rather than|versus|vs\.?)\s$|而不是$|没选$", re.I)
"""Before the one not chosen ("chose us over Zendesk at $38 a seat"): the price is not its."""
_OWNS_CUE = re.compile(r"(?:['’]s)?\s?")
_OPENING = re.compile(r"开业|开张|开店|\b(?:opens|opening|grand opening)\b", re.I)
_GO_LIVE = re.compile(r"go-?live|launch|cutover", re.I)
"""Between an organisation and the cue right after it, when the cue is its go-live or launch (not
"Quantra Labs pushed go-live of their lab portal"): the organisation's own."""


def _whose(department: Mention, reading: Sentence) -> bool:
    """Return True when a department is said only to say whose a person is (工程部的庄经理说…,
    护理部温主任要求…), not as what holds the budget or the deadline (研发部的预算)."""
    said_whose = reading.text.startswith("的", department.end)  # 工程部的庄经理: up to 6 characters on
    after, reach = (department.end + 1, 6) if said_whose else (department.end, 0)
    return any(m.type == "person" and after <= m.start <= after + reach for m in reading.mentions)


def _affiliation(name: str) -> bool:
    """Return True for a department or a branch: where someone sits, not what a deal is with."""
    return bool(DEPARTMENT.search(name) or _BRANCH.search(name))


def sentence_topic(predicate: str, cue: int, reading: Sentence) -> Mention | None:
    """Return what a topic predicate is about: a deal of the sentence, else the nearest fitting name."""
    types = TOPIC_TYPES.get(predicate, TOPIC_TYPES["DEADLINE"])
    opening = predicate == "LAUNCH_DATE" and _OPENING.search(reading.text, cue, cue + 8) is not None
    if opening:  # 西安分店9月开业: a shop opens, not the product named before it
        types = frozenset({"organisation", "thing"})
    if "deal" in types:
        deals = [m for m in reading.mentions if m.type in _DEAL] or sorted(
            (m for m in reading.mentions if a_deal(m, reading.text)), key=lambda m: abs(m.start - cue)
        )  # a deal said so, else the id nearest the cue
        if deals:
            return deals[0]
    mentions = reading.mentions
    if predicate in ("WORKS_AT", "CONTACT"):  # 他们IT部的吕经理: of the organisation, not of a department
        mentions = [
            m
            for m in mentions
            if not _affiliation(m.name) and not ZH_ELSEWHERE.search(reading.text, 0, m.start)
        ]  # nor one someone left or moved to
    else:  # 工程部的庄经理说月底前…: the department only says whose he is
        mentions = [m for m in mentions if not _affiliation(m.name) or not _whose(m, reading)]
    if opening:  # 姐夫从银行辞职了，…开了家咖啡馆，下周六开业: not the employer left
        mentions = [m for m in mentions if reading.text[m.start - 1 : m.start] != "从"]
    if predicate == "HAS_ISSUE":  # 导出Excel时报错: the export fails, not Excel
        mentions = [m for m in mentions if not on_a_platform(reading.text, m.start)]
    found = _nearest(types, cue, mentions, reading)
    if found is None and predicate == "LAUNCH_DATE":  # "Osterberg AB go-live slipped to October 21"
        found = next(
            (
                m
                for m in mentions
                if m.type == "organisation"
                and _OWNS_CUE.fullmatch(reading.text, m.end, cue)
                and _GO_LIVE.match(reading.text, cue)
            ),
            None,
        )
    if (
        predicate == "DEADLINE"
        and found is not None
        and found.type in _ASKED_OF
        and _request_in(reading, cue)
    ):  # 瑞丰纺织说…染色机…，要求5月10号前派工程师上门: the one who asks (named first) owns the date
        asking = [
            m for m in mentions if m.end <= cue and m.type == "organisation" and not _affiliation(m.name)
        ]
        return min(asking, key=lambda m: m.start) if asking else None  # 瑞丰纺织说从华宇机械买的…: who speaks
    if found is None or found.type in _SAID_DEAL_OVER:  # 云途旅行续约…每年19.8万: the renewal's price
        return said_deal(predicate, cue, reading, found) or found
    return found


def order_of_message(
    predicate: str, reading: Sentence, message: Message, found: Mention | None
) -> Mention | None:
    """Return the one order an earlier sentence of the message named ("Order confirmation #SO-55812. …
    40 units of the Aeron Chair at $1,150 each"), for an order's price, quantity, discount or
    deadline that a sentence gave to a product or to nothing; else None (also when the sentence speaks
    of another order, a cancelled one, or a list price: "We'll reorder 30 units", "lists at $999")."""
    if (
        predicate not in _ORDER_FACTS
        or (found is not None and found.type not in ("product", "thing"))
        or _ANOTHER_ORDER.search(reading.text)
    ):
        return None
    orders = {m.name: m for m in message.topics if a_deal(m)}
    return next(iter(orders.values())) if len(orders) == 1 else None


_ORDER_FACTS = frozenset({"PRICE", "QUANTITY", "DISCOUNT", "DEADLINE"})
_ANOTHER_ORDER = re.compile(
    r"\b(?:lists? (?:at|for)|list price|will|'ll|later|reorder|re-order|next|new one|another|cancel\w*)\b|"
    r"取消|重新|另外?下|再下|以后再",
    re.I,
)
_ASKED_OF = frozenset({"product", "thing", "document"})
"""What a request's deadline is not about when an organisation asks it (the product it complains of)."""
_SAID_DEAL_OVER = frozenset({"organisation", "product", "document", "thing"})
"""What a deal said by its kind in the same sentence takes a deal fact from (not a project or an event)."""


def _nearest(types: frozenset[str], cue: int, mentions: list[Mention], reading: Sentence) -> Mention | None:
    holding = [m for m in mentions if m.start <= cue < m.end and m.type in types]
    if holding:  # "the Nimbus launch slipped to May 20": the cue is the project's own word
        return holding[0]
    end = reading.clause_of(cue)[1]
    named_after = [
        m
        for m in mentions
        if m.type in types and _FOR_THE.fullmatch(reading.text, cue, m.start) and m.start < end
    ]
    if named_after:  # "budget for the DAM rollout is $95k": what the cue is for, not a name before it
        return named_after[0]
    left = [m for m in mentions if m.end <= cue and m.type in types and not m.vocative]
    left = [
        m
        for m in left
        if reading.text[m.start - 1 : m.start] != "在"
        and not (m.type == "thing" and _WHERE.search(reading.text, 0, m.start))
    ] or left  # 在X上, "their second pharmacy in Bergamo": where, not what
    left = [m for m in left if not _NOT_CHOSEN.search(reading.text, max(0, m.start - 12), m.start)]
    if left:
        return max(left, key=lambda m: m.start)
    right = [
        m
        for m in mentions
        if cue <= m.start < end
        and m.type in types
        and not m.vocative
        and not _WHERE.search(reading.text, 0, m.start)
    ]  # "need them on site in Tacoma before Feb 9": a place, not what is due
    return right[0] if right else None
