"""Faults a support ticket or a complaint reports of a customer, when no product is named; and a
ticket's status when it is said to be closed, fixed or resolved.

工单#20431 客户：鼎盛医疗 问题：导出报表超过5万行就报500错误, 客户投诉：方圆地产反映系统每天早上9点
左右特别卡, 海川贸易提了一个bug：安卓端消息推送收不到, "Ticket #4471 – Brightwater Dental reports appointment
sync fails since the 2.3 update", "Customer Greenleaf Organics is complaining that CSV exports time out": the
customer HAS_ISSUE the fault, as said up to the ticket's next field or sentence. A fault said of a product
is that product's (engram.ingest.issues) and is not read again here; a ticket said to be fixed or closed, a
fault supposed or asked about, or one without a word of failure, gives nothing.

"Ticket #4471 closed.", "#5120 fixed in v4.12.3", "#4410 观察三天了，…工单关闭", "工单#3321已修复": the
ticket (known by its number through engram.nlp.references, alias ``ticket:4471``) has the STATUS closed,
fixed, resolved or reopened (已关闭, 已修复, 已解决, 已重新打开), said in its sentence or a later one of the
message, each ticket a list names before the word getting it; not when the clause denies, supposes or
awaits it, or the next words undo it ("not fixed yet", "Closing once …", "closed by mistake", 还没修复). The
last said in a message wins, but a ticket said closed stays closed when the message adds it was fixed.

The one who handles a ticket or a complaint on our side (负责人：吴浩, 升级给主管韩梅处理) is not the
customer's employee: such a WORKS_AT is dropped once the message is read.
"""

from __future__ import annotations

import re

from engram.ingest.issues import FAULT
from engram.ingest.reading import Message, Sentence
from engram.models.graph import FactIn
from engram.nlp.dates import fact_dates, scoped_dates
from engram.nlp.tokenize import has_cjk

_ZH_FAULT_END = r"(?=[，,；;]?\s*(?:已|状态|优先级|原因|处理|转|工单|分配|给了|麻烦|请)|[。；;！!]|$)"
_ZH_NAME = r"(?P<customer>[\u4e00-\u9fffA-Za-z0-9]{2,12}?)"
_ZH = (
    re.compile(
        rf"客户[：:]\s*{_ZH_NAME}\s*[｜|，,]?\s*问题[：:]\s*(?P<fault>[^。；;]{{2,40}}?){_ZH_FAULT_END}"
    ),
    re.compile(
        rf"(?:客户投诉|客诉)[：:｜|]\s*(?:客户)?{_ZH_NAME}(?:反馈|反映|说|投诉)(?P<fault>[^。；;]{{2,40}}?){_ZH_FAULT_END}"
    ),
    re.compile(rf"客户{_ZH_NAME}(?:投诉|反馈|反映)[：:]\s*(?P<fault>[^。；;]{{2,40}}?){_ZH_FAULT_END}"),
    re.compile(
        rf"^{_ZH_NAME}提了(?:一个|个)?(?:bug|BUG|问题)[：:]\s*(?P<fault>[^。；;]{{2,40}}?){_ZH_FAULT_END}"
    ),
)
_EN_NAME = r"(?P<customer>(?-i:[A-Z][\w&'.-]*)(?:\s(?:&\s)?(?-i:[A-Z][\w&'.-]*)){0,3})"
_EN_FAULT = r"(?P<fault>(?:[^.;!?]|\.(?=\d)){4,90}?)(?=\.\s|[.;!?](?!\d)|\s[—–-]\s|$)"
_EN = (
    re.compile(
        rf"\bticket\s#?\d+\s*(?:[–—:-]|from)?\s*(?:customer\s|(?:a\s)?users?\s(?:at|from)\s)?{_EN_NAME}"
        rf"(?::\s|\s[—–-]\s|\s(?:reports?|reported|says?|(?=can't|cannot|is unable|are unable|keeps?)))\s?"
        rf"(?:that\s)?['‘\"“]?{_EN_FAULT}",
        re.I,
    ),
    re.compile(
        rf"\bcustomer\s{_EN_NAME}\s(?:is\s)?(?:complaining|reports?|reported)\s(?:that\s)?['‘\"“]?{_EN_FAULT}",
        re.I,
    ),
    re.compile(rf"\bcustomer complaint from\s{_EN_NAME}:\s(?:their\s|the\s)?{_EN_FAULT}", re.I),
    re.compile(rf"^{_EN_NAME}\sopened\s(?:another|a|a new)\sticket(?:\s\(#?\d+\))?:\s{_EN_FAULT}", re.I),
    re.compile(
        rf"^(?!(?:support|new|urgent|bug|billing|internal|open|priority|p\d)\s)"  # "Support ticket #5501:"
        rf"{_EN_NAME}\s(?:escalation|escalated|complaint|ticket\s#?\d+):\s(?:their\s|the\s)?{_EN_FAULT}",
        re.I,
    ),
)
_EN_FIELDS = (
    re.compile(rf"(?:^|[\n/|;—–]\s*|\.\s+)customer\s?:\s*{_EN_NAME}", re.I),
    re.compile(
        r"(?:^|[\n/|;—–]\s*|\.\s+)(?:issue|problem|symptom)\s?:\s*(?P<fault>[^\n/|]{4,120}?)(?=\.(?!\d)|[\n/|;]|$)",
        re.I,
    ),
)
"""A ticket's fields, each on its own line or after a full stop ("Customer: Bluewater Dental (acct 7781)",
"Issue: appointment reminders not sending by SMS")."""
_TICKET = re.compile(r"\bticket\b|#\d{3,}|工单", re.I)
_FAILING = re.compile(
    rf"{FAULT.pattern}|收不到|失败|丢了|无法|不能|卡|慢|报错|延迟|锁定|没有?按时|没有?收到|"
    r"\b(?:can't|cannot|unable|wrong|twice|"
    r"not (?:receiv|sync|load|work|send|print|show|refresh|upload|generat)\w*|"
    r"haven't (?:refreshed|synced|loaded|arrived)|loops?|looping|double charges?|double-charged|missing|"
    r"off by|slow|outage|takes? \d+\+? (?:minutes|seconds|mins|secs))(?!\w)",
    re.I,
)
_CLOSED = re.compile(r"关单|已关闭|已修复|已解决|\b(?:closed|closing it|resolved|fixed)\b", re.I)
"""Said anywhere in the message: the ticket is closed."""
_SETTLED = re.compile(
    rf"{_CLOSED.pattern}|修复了|解决了|正常了|如果|要是|是否|吗|[？?]|"
    r"\b(?:closing|working as intended|if|whether)\b",
    re.I,
)
"""Said in the ticket's own sentence: fixed, supposed or asked, no fault to record."""


def add_ticket_issues(reading: Sentence, message: Message, following: str = "") -> None:
    """Add the HAS_ISSUE the ticket or complaint in ``reading`` reports of its customer (module docstring);
    ``following`` is the rest of the message, which may close the ticket (原因：…，已指导解锁。关单。)."""
    if (
        _SETTLED.search(reading.text)
        or _CLOSED.search(following)
        or any(f.predicate == "HAS_ISSUE" and f.fact == reading.text for f in message.facts.values())
    ):  # fixed or closed; or said of its product, already read
        return
    for pattern in _ZH if reading.lang == "zh" else _EN:
        said = pattern.search(reading.text)
        fault = _faults(_unquoted(reading.text, said)) if said else ""
        if said is None or not fault:
            continue
        message.add_fact(
            FactIn(
                subject=_customer(reading, said),
                predicate="HAS_ISSUE",
                value=fault,
                fact=reading.text[:2000],
                confidence=0.7,
                source_kind="stated",
            )
        )
        return


_EN_SETTLED = re.compile(
    r"\b(?:closed|closing(?! (?:date|call|remarks|thoughts|ceremony|the deal|the quarter|the books|soon|in))|"
    r"resolved|fixed|reopened|reopening)\b",
    re.I,
)
_EN_UNSETTLED = re.compile(
    r"\b(?:not|never|yet to|once|when|until|if|will|would|should|could|can|to be|needs? to|hope|asap|pls|"
    r"please|before|after)\b|n't\b",
    re.I,
)
_AWAITED = re.compile(r"\s+(?:once|when|after|if|as soon as|pending)\b", re.I)
"""Said right after a status: it waits for something ("Closing once Brightwell confirms")."""
_UNDONE = re.compile(r"\s*(?:by mistake|in error|accidentally|prematurely|too early)\b|误", re.I)
"""Said right after a status: it was undone ("closed by mistake last week, reopening")."""
_ZH_SETTLED = re.compile(
    r"关单|(?:工单|单子)(?:已经?)?关闭|已关闭|关闭了|(?:^|(?<=[。，]))关闭(?=[。！]|$)|已修复|修复了|已解决|解决了|"
    r"重新打开"
)
_ZH_UNSETTLED = re.compile(r"没|未|不|如果|要是|等|尽快|希望|会|能否|是否|吗")
_FINAL = frozenset({"closed", "已关闭"})
_PARTIAL = frozenset({"fixed", "resolved", "已修复", "已解决"})
"""A ticket said closed stays closed when the message goes on to say it was fixed or resolved."""
_STATUS_WORDS = {
    "closing": "closed",
    "reopen": "reopened",
    "关": "已关闭",
    "修复": "已修复",
    "解决": "已解决",
    "重新打开": "已重新打开",
}


def add_ticket_status(reading: Sentence, message: Message) -> None:
    """Add the STATUS the tickets of ``reading`` named before each cue (else the message's latest ticket)
    are said to have reached (module docstring); a later cue of the message replaces an earlier one."""
    settled, unsettled = (
        (_ZH_SETTLED, _ZH_UNSETTLED) if reading.lang == "zh" else (_EN_SETTLED, _EN_UNSETTLED)
    )
    named = [m for m in reading.mentions if m.type == "ticket"]
    last = 0  # where the previous cue ended: "#100 closed, #101 reopened" gives each its own
    for said in settled.finditer(reading.text):
        clause = reading.text[reading.clause_of(said.start())[0] : said.start()]
        before = [m for m in named if last <= m.start and m.end <= said.start()]
        last = said.end()
        if (
            unsettled.search(clause)
            or _UNDONE.match(reading.text, said.end())
            or _AWAITED.match(reading.text, said.end())
        ):
            continue
        tickets = before or named[:1] or [m for m in message.topics if m.type == "ticket"][-1:]
        word = said.group().lower()
        status = next(
            (v for k, v in _STATUS_WORDS.items() if k in word), word if reading.lang == "en" else ""
        )
        valid_at, _ = fact_dates(scoped_dates(reading.text, message.at, position=said.start()))
        for ticket in tickets:
            same = _ref_id(message, reading, ticket.name)
            earlier = [
                f
                for f in message.facts.values()
                if f.predicate == "STATUS" and _ref_id(message, reading, f.subject) == same
            ]
            if status in _PARTIAL and any(f.value in _FINAL for f in earlier):
                continue  # "Ticket 5120 closed – …, fixed on their side": still closed
            message.drop_facts(earlier, set())  # "Ticket #4471 closed. … #4471 reopened.": the last one said
            message.add_fact(
                FactIn(
                    subject=ticket.name,
                    predicate="STATUS",
                    value=status,
                    fact=reading.text[:2000],
                    confidence=0.75,
                    source_kind="stated",
                    valid_at=valid_at or message.at,  # not the root cause's "last week" of another clause
                )
            )


def _ref_id(message: Message, reading: Sentence, name: str) -> str:
    """Return the reference id of the ticket ``name`` (Ticket #4471 and #4471 are both ``ticket:4471``), named
    in ``reading`` or an earlier sentence of the message."""
    here = next((m for m in reading.mentions if m.name == name and m.type == "ticket"), None)
    said = (
        here.attributes
        if here is not None
        else getattr(message.entities.get((name, "ticket")), "attributes", {})
    )
    return str(said.get("ref_id", name))


def add_ticket_fields(text: str, message: Message) -> None:
    """Add the HAS_ISSUE a fielded English ticket reports of its customer ("Ticket #48213 / Customer:
    Bluewater Dental / … / Issue: reminders not sending by SMS"), unless the message closes it or the
    customer's fault was read already."""
    customer, issue = (pattern.search(text) for pattern in _EN_FIELDS)
    if customer is None or issue is None or not _TICKET.search(text) or _CLOSED.search(text):
        return
    name = re.split(r"\.\s|\n", customer["customer"])[0].strip()  # "Greenleaf Organics. Issue: …"
    fault = issue["fault"].strip()
    if not fault or message.states(name, "HAS_ISSUE"):
        return
    message.add_fact(
        FactIn(
            subject=name,
            predicate="HAS_ISSUE",
            value=fault,
            fact=text[issue.start() : issue.end()].strip(" \n/|;.")[:2000],
            confidence=0.7,
            source_kind="stated",
        )
    )


_HANDLER = re.compile(
    r"(?:负责人|处理人|跟进人)[:：]\s?(?:[\u4e00-\u9fff]{1,4} )?|"
    r"(?:分配给|指派给|升级给|转给|交给|已?派(?:单给)?)(?:了)?(?:[\u4e00-\u9fff]{0,6}?的)?"
    r"(?:主管|经理|组长|工程师|同事)?|\b(?:assigned to|escalated to)\s",
    re.I,
)
"""Who handles a ticket or a complaint on our side (负责人：吴浩, 负责人：运维 江波, 技术支持负责人：汪洋,
已派工程师赵磊现场处理, 已派单给工程师刘师傅, 升级给主管韩梅处理, "Assigned to Kenji")."""
_A_COMPLAINT = re.compile(rf"{_TICKET.pattern}|投诉|客诉|反馈", re.I)


def drop_handlers_employers(text: str, message: Message) -> None:
    """Remove the WORKS_AT a ticket or complaint gave to whoever handles it on our side: the customer it
    names is not their employer."""
    if not _A_COMPLAINT.search(text):
        return
    handlers = {
        fact.subject
        for fact in message.facts.values()
        if fact.predicate == "WORKS_AT"
        and any(text.startswith(fact.subject, said.end()) for said in _HANDLER.finditer(text))
    }
    dropped = [f for f in message.facts.values() if f.predicate == "WORKS_AT" and f.subject in handlers]
    if dropped:
        message.drop_facts(dropped, set())


def _unquoted(text: str, said: re.Match[str]) -> str:
    """Return the fault said, up to its closing quote when it opens on one ("reports 'scale readings off by
    2kg' on 3 of their 8 weighbridges" → scale readings off by 2kg)."""
    fault = said["fault"]
    start = said.start("fault")
    if start and text[start - 1] in _QUOTES:
        fault = re.split(r"['’\"”]", fault, maxsplit=1)[0]
    return fault


_QUOTES = "'‘\"“"


def _faults(said: str) -> str:
    """Return the clauses of ``said`` that say a failure, up to the first that does not
    (安卓端消息推送收不到，iOS正常 → 安卓端消息推送收不到); "" when the first does not."""
    kept: list[str] = []
    for clause in re.split(r"[，,]", said):
        if not _FAILING.search(clause):
            break
        kept.append(clause.strip())
    return "，".join(kept) if has_cjk(said) else ", ".join(kept)


def _customer(reading: Sentence, said: re.Match[str]) -> str:
    """Return the customer's name: the organisation the finder read at the match, else the words said."""
    start, end = said.span("customer")
    found = next(
        (m for m in reading.mentions if m.type == "organisation" and start <= m.start < end), None
    )  # not "Customer Hollins Dairy", a mention that begins on the word before the name
    return found.name if found else said["customer"].strip()
