"""A deal said to be signed: 宏远电气签了，合同号HY-0918; 中铁装备的框架合同今儿签下来了;
苍穹游戏续约谈下来了; "Veridian Bank signed the 2-year SOC monitoring contract"; "Closed Ravensworth
Foods this morning, RF-3301".

The customer (an organisation of the same sentence) SIGNED the deal: an id numbering an order or a
contract in the sentence, else the deal its words say by kind (engram.ingest.deals), else, when the
customer signs with nothing named after the verb ("Bellweather signed!", 翰墨文创 签了), a deal named after
it and the kind the message says next ("Kessler MSA", 翰墨文创合同); the speaker's side did when the
organisation is said to be a supplier. Not read when the sentence asks, supposes, denies, only expects
it or tells it lost to another (还没签, "if they sign", 下周签, 跟别家签了), nor for a home, a job, a letter
of intent or a ticket.

An amount said bare beside the signing is the deal's PRICE: between the customer and the verb
(知屿教育最后7.2万签了), as a clause of its own after it ("signed the MSA today, $48k") or opening the next
sentence (恒拓合同签了！76.8万，三年。).
"""

from __future__ import annotations

import re
from dataclasses import replace

from engram.ingest.deals import EN_DEAL_NOUN as _EN_NOUN
from engram.ingest.deals import ZH_DEAL_NOUN as _ZH_NOUN
from engram.ingest.deals import deal_said_by_kind
from engram.ingest.frames import DEPARTMENT, supposed
from engram.ingest.mentions import Mention
from engram.ingest.reading import Message, Sentence
from engram.ingest.topics import a_deal
from engram.models.graph import FactIn
from engram.nlp.amounts import AMOUNT, is_money, parse_amount

_CUE = {
    "zh": re.compile(
        r"(?<![没未不还])(?:签了|签的|签下来了?|签下了|签约了|已签约|盖章|拿下了|拿下来了|(?<=单)定了|续约搞定|续费搞定|"
        r"(?<!价)谈下来了|续上了)"
    ),
    "en": re.compile(
        r"(?<!not )(?<!n't )(?<!never )(?<!is )(?<!was )(?<!are )(?<!were )(?<!be )"  # "the plant is closed"
        r"\b(?:signed|closed|renewed|inked)\b(?! off\b| up\b| in\b| by\b)",
        re.I,
    ),
}
"""Words saying a deal was signed (签了, 拿下了, 续约谈下来了, "signed", "closed Ravensworth", "renewed")."""
_SUPPLIER = re.compile(r"(?:供应商|供货商|厂商|\bvendor|\bsupplier)\s?$", re.I)
_NOT_A_DEAL = re.compile(
    r"房租|租房|房屋|购房|劳动合同|劳务|意向书|婚|\b(?:lease on my|apartment|employment|offer letter|"
    r"(?:support |help ?desk )?(?:ticket|case|incident|issue|bug|dispute|complaint|claim)s?\b|"
    r"(?:office|shop|store|branch|factory|plant|warehouse|restaurant|caf[eé]|gym|school|clinic|bank|mall|road|"
    r"airport|pool|library|museum|site|lab)s?\s(?:(?:is|are|was|were|will be)\s)?closed\b)",
    re.I,
)
"""What is signed or closed but is no customer's deal: a home, a job, a letter of intent, a ticket, a
dispute, a place shut ("Office closed on Friday for the holiday")."""
_NOT_SIGNED = re.compile(
    r"还没签|没有?签|未签|待签|准备签|(?:下个?月|下周|明天|后天|月底|回头|过几天|之后|以后)再?签|"
    r"(?:跟|和|与)(?:别家|别人|竞品|竞争对手)签|丢了|丢单|\b(?:went with|lost (?:it|the deal) to)\b|"
    r"\b(?:hasn't|haven't|not yet|about to|will|closed at|cancell?ed|cancels)\b|取消|"
    r"\b(?:Q[1-4]|FY\s?\d{2,4}|H[12])\s(?:closed|ended)\b",  # "Q3 closed at $9.6M ARR": a period's result
    re.I,
)


def signed_deal(reading: Sentence, message: Message, following: str = "") -> list[FactIn]:
    """Return the SIGNED fact ``reading`` states and the deal's PRICE said bare beside it (see the module
    docstring), or nothing. ``following`` is the rest of the message, which may say what kind of deal it
    was ("Kessler signed!! 3-year MSA") or its amount."""
    cue = _CUE[reading.lang].search(reading.text)
    if (
        cue is None
        or _NOT_SIGNED.search(reading.text)
        or _NOT_A_DEAL.search(reading.text)
        or supposed(reading.text, reading.clauses, cue.start(), reading.lang)
    ):
        return []
    customer = _customer(reading, cue.start())
    if customer is None:
        return []
    read = next(
        (f for f in message.facts.values() if f.predicate == "SIGNED" and f.subject == customer.name), None
    )
    if read is not None:  # "Acme signed the NDA": a pattern read what was signed
        deal_read = read.object or str(read.value)
        return _priced(deal_read, reading, message, customer, cue, following)
    ids = [m for m in reading.mentions if a_deal(m, reading.text)]
    deal = min(ids, key=lambda m: abs(m.start - cue.start())) if ids else deal_said_by_kind(reading, customer)
    if (
        deal is None
        and (
            (
                customer.end <= cue.start()
                and _SIGNER_GAP.fullmatch(reading.text[customer.end : cue.start()])
                and _SIGNED_ALONE.match(reading.text, cue.end())
            )  # "Bellweather signed!", 翰墨文创 签了！
            or (
                customer.start >= cue.end()
                and _SIGNER_GAP.fullmatch(reading.text[cue.end() : customer.start])
                and _SIGNED_ALONE.match(reading.text, customer.end)
            )  # 签了恒拓科技！, "Closed Ravensworth Foods this morning"
        )
    ):
        deal = _deal_of(customer, cue, reading, following)
    if deal is None or deal.name == customer.name:
        return []
    signer: str | None = customer.name
    if _SUPPLIER.search(reading.text, 0, customer.start):
        signer = message.speaker.actor  # 我们跟供应商永盛五金的…协议签了: we signed with them
    if signer is None:
        return []
    message.add_entity(customer)
    message.add_entity(deal)
    clause = reading.clause_of(cue.start())
    signed = FactIn(
        subject=signer,
        predicate="SIGNED",
        object=deal.name,
        fact=reading.text[clause[0] : clause[1]][:2000],  # dated by its own clause, not 有效期到… after it
        confidence=0.75,
        source_kind="stated",
    )
    return [signed, *_priced(deal.name, reading, message, customer, cue, following)]


def _priced(
    deal: str, reading: Sentence, message: Message, customer: Mention, cue: re.Match[str], following: str
) -> list[FactIn]:
    """Return the PRICE of ``deal`` said bare beside its signing, unless a pattern read one (of the deal,
    or the same amount under the deal's fuller name)."""
    said = _bare_amount(reading, customer, cue, following)
    value = parse_amount(said) if said else None
    if value is None or any(
        f.predicate == "PRICE" and (f.subject == deal or f.value == value) for f in message.facts.values()
    ):
        return []
    return [
        FactIn(subject=deal, predicate="PRICE", value=value, fact=said, confidence=0.7, source_kind="stated")
    ]


_ADVERB = r"(?:最后|最终|终于|正式|也|已经|今天|昨天|刚刚?)"
"""An adverb between a customer, its signing and the amount (知屿教育最后7.2万签了)."""
_BARE_SUM = re.compile(
    rf"(?:for\s|总共|一共|共|合同额|金额|是)?(?P<amount>{AMOUNT})\s*"
    r"(?:total|in total|ARR|a year|/yr|per year|(?:over|for) \d+ (?:years|months)|每年|一年)?",
    re.I,
)


def _bare_amount(reading: Sentence, customer: Mention, cue: re.Match[str], following: str) -> str | None:
    """Return the amount said bare beside a signing (the module docstring), or None."""
    between = reading.text[customer.end : cue.start()] if customer.end <= cue.start() else ""
    after = reading.text[reading.clause_of(cue.start())[1] :]
    for said in (between, _first_clause(after), _first_clause(following)):
        money = _BARE_SUM.fullmatch(_AROUND.sub("", said))
        if money and is_money(money.group("amount")):
            return money.group("amount")
    return None


def _first_clause(text: str) -> str:
    """Return the first clause of ``text``, not cut inside a number ("$45,500", 76.8万)."""
    return _CLAUSE_BREAK.split(text.strip(" ,，:：;；"), maxsplit=1)[0]


_CLAUSE_BREAK = re.compile(r"[，；;。!！:：]|[,.](?!\d)")
_AROUND = re.compile(rf"^\s*{_ADVERB}*|\s*[(（][^)）]*[)）]\s*$|\s+$")
"""Words around a bare amount that leave it bare: an adverb before it, an aside in brackets after it."""


_SIGNED_ALONE = re.compile(
    r"\s*(?:[!！.。:：;；,，—–]|$|(?:for|at|on|today|yesterday|this|last)\b)|[^\x00-\x7f]", re.I
)
"""After a customer's "signed": nothing signed named ("Bellweather signed!", "signed for 2 warehouses"), not
"closed their Series B" or "closed lost"."""
_SIGNER_GAP = re.compile(rf"\s*(?:{_ADVERB}|[\d.,]+万?)*\s*|\s(?:finally |just |officially )?")
"""Between a customer and its "signed": only spaces, an adverb or the amount (知屿教育最后7.2万签了)."""


def _deal_of(customer: Mention, cue: re.Match[str], reading: Sentence, following: str) -> Mention:
    """Return the deal a customer signed that the sentence names no other way, named after the customer
    and the kind of deal the cue or the message's next words say ("Alder & Finch renewed" → renewal,
    "Kessler signed!! 3-year MSA" → Kessler MSA), else "deal" / 合同 (Bellweather deal, 翰墨文创合同);
    added to the sentence's mentions, so the next sentence's price is the deal's."""
    zh = reading.lang == "zh"
    kind = _ZH_NOUN.search(following[:60]) if zh else _EN_NOUN.search(following[:120])
    if _RENEWED.search(cue.group()):
        noun = "续约" if zh else "renewal"
    elif kind is not None:
        word = (
            kind.group("phrase").split()[-1] if not zh else "订单" if kind.group() == "单" else kind.group()
        )
        noun = word if zh or word.isupper() else word.lower()  # "Contract starts…": contract; MSA stays
    else:
        noun = "合同" if zh else "deal"
    name = f"{customer.name}{noun}" if zh else f"{customer.name} {noun}"
    deal = Mention(cue.start(), cue.end(), name, "deal", {"said_as": cue.group()}, [noun])
    reading.add_mention(deal)
    return deal


_RENEWED = re.compile(r"renewed|续约|续费|续上", re.I)


def _customer(reading: Sentence, cue: int) -> Mention | None:
    """Return the organisation whose deal it is: the sentence's nearest before the cue, or the first
    after it ("Closed Ravensworth Foods"); one named in another sentence is not taken (a supplier
    mentioned before "we signed the lease" signed nothing), nor a department or one named in a later
    clause (续费搞定了，…包姐调行政部去了)."""
    named = [
        m
        for m in reading.mentions
        if m.type == "organisation" and not m.vocative and not DEPARTMENT.search(m.name)
    ]
    before = [m for m in named if m.end <= cue]
    after = [m for m in named if m.start >= cue and m.end <= reading.clause_of(cue)[1]]
    if not before and not after:  # "Bellweather signed!": an unknown name that signs is a firm, not a person
        signer = next(
            (
                m
                for m in reading.mentions
                if m.type == "thing" and m.start == 0 and _SIGNER_GAP.fullmatch(reading.text[m.end : cue])
            ),
            None,
        )
        if signer is None:
            return None
        firm = replace(signer, type="organisation")
        reading.mentions[reading.mentions.index(signer)] = firm
        return firm
    return before[-1] if before else after[0] if after else None
