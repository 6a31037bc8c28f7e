"""A deal said by its kind, not by a name or an id: 苍穹游戏续约谈下来了, 云途旅行的新合同, 远景餐饮又下单了,
"Initech's renewal", "the Lumen Analytics contract".

Its price, quantity, discount, dates and deadline are the deal's, not the customer's (a customer has
many deals; bench/data/extraction_set.md, labelling rule 8). The deal is named after the organisation
whose it is and the words that said it ("苍穹游戏续约", "Initech renewal"), with those words as aliases,
so the next sentence's "合同" or "the renewal" is the same deal.
"""

from __future__ import annotations

import re

from engram.ingest.frames_zh import DIGITS
from engram.ingest.mentions import Mention
from engram.ingest.reading import Sentence
from engram.nlp.tokenize import has_cjk, tag_words

DEAL_FACTS = frozenset({"PRICE", "QUANTITY", "DISCOUNT", "EXPIRES_ON", "LAUNCH_DATE", "DEADLINE"})
"""What a deal said by its kind holds rather than its customer."""

ZH_DEAL_NOUN = re.compile(r"框架协议|采购单|合同|续约|续费|订单|年框(?!架)|租赁|(?<=下)单|(?<=[这那])单")
_ZH_NOT_MODIFIER = re.compile(r"^(?:[的了是这那新原老该此本个份]|我们|他们|对方|双方|贵司|我司)+|(?:的|了)$")
EN_DEAL_NOUN = re.compile(
    r"\b(?P<phrase>(?:(?<!['’])(?!(?:the|their|our|a|an|this|that|its|his|her|my|your|new|of|for|on|with|to|and|"
    # the verb before its object ("Ostrander confirmed renewal"), no kind of deal
    r"confirmed|signed|approved|sent|received|cancell?ed|closed|won|lost|wants|needs|got|is|was|will)\b)"
    r"[\w&-]+\s){0,2}?(?:renewal|contract|order|subscription|licen[cs]e|pilot|add-on|MSA|agreement|lease))\b",
    re.I,
)


_EN_COUNT_IS = re.compile(
    r"\b(?:is|was)\s(?:now\s|only\s|actually\s)?\d[\d,]*\s(?:seats|licen[cs]es|units|users)\b", re.I
)
_ZH_COUNT_IS = re.compile(
    rf"(?<=是)(?<!需求是)(?<!预计是)(?<!大概是)(?<!可能是)(?:{DIGITS})(?:个)?(?:套|台|箱|件|张|账号|席位|个账号|个席位)"
)
"""A customer's count said by a copula ("Ferrante is 110 seats, not 120", 博远教育是250套): its deal's."""
_EN_COUNT_AT = re.compile(
    r"\b\d[\d,]*\s(?:[\w-]+\s){0,2}?(?:seats|licen[cs]es|users|units|properties|locations|accounts|editors|"
    r"stores|sites|devices|clinics|venues)\s(?:(?:of|on)\s(?:[\w-]+\s){1,3}?)?(?:at|@)\s?[$€£]?\d",
    re.I,
)
"""A count priced by the unit after a customer's name ("Quote sent to Kingfisher Labs: 25 Pro seats at $54",
"Castellan Hotels — verbal yes on 14 properties at $2,100/property/yr"): a deal's."""
_SIGNED = re.compile(r"\bsigned\b|\bclosed-won\b", re.I)
"""A signing names its own deal (engram.ingest.signing), maybe by a later sentence's words."""
_EN_COUNT_OF = re.compile(r"\d[\d,]*\s(?:[\w-]+\s){0,2}?[\w-]+\s(?:of|on)\s", re.I)
"""A count of a product ("40 seats of Ledgerly Pro at $59"): the unit price is the product's."""
_EN_RENEWED = re.compile(r"\brenewed\b(?=[^.;!?]*\d)", re.I)
"""A renewal said by its verb, with a figure after it in the sentence."""
_EN_ORDERED = re.compile(r"(?<!\bwe )(?<!\bI )\b(?:ordered|purchased)\b(?=[^.;!?]*\d)", re.I)
"""An order said by its verb, with a figure after it ("Ferro Steel ordered 250 seats"; not ours): its count
and dates are the order's, a unit price stays the product's (bench/data/extraction_set.md, rule 8)."""


def said_deal(predicate: str, cue: int, reading: Sentence, owner: Mention | None) -> Mention | None:
    """Return the deal ``reading`` says by its kind for a ``predicate`` fact at offset ``cue``, named
    after ``owner`` (or the sentence's organisation nearest the words), added to the sentence's
    mentions; None when the sentence says no deal or names no organisation whose it is."""
    if predicate not in DEAL_FACTS:
        return None
    # "Globex ordered 40 licences of Nimbus Pro at $1,200 each", "40 seats of Ledgerly Pro at $59": the
    # product's list price
    if (
        predicate == "PRICE"
        and (found := _kind_words(reading))
        and (_EN_ORDERED.match(reading.text, found[0]) or _EN_COUNT_OF.match(reading.text, found[0]))
    ):
        return None
    return deal_said_by_kind(reading, owner)


def deal_said_by_kind(reading: Sentence, owner: Mention | None) -> Mention | None:
    """Return the deal ``reading`` says by its kind, named after ``owner`` (or the sentence's
    organisation nearest the words), added to the sentence's mentions; None when the sentence says no
    deal or names no organisation whose it is."""
    found = _kind_words(reading)
    if found is None:
        return None
    start, end, phrase, aliases = found
    organisations = [m for m in reading.mentions if m.type == "organisation" and not m.vocative]
    if owner is None:  # "Ferrante is 110 seats": the unknown name right before the words
        owner = next(
            (
                m
                for m in reading.mentions
                if m.type == "thing"
                and 0 <= start - m.end <= 3
                and not m.name.split()[-1].isupper()  # not "Engineering SIGNED"
            ),
            None,
        )
    # "Initech's renewal", "the Kestrel contract": an unknown name right before the kind is whose the deal is
    named_right_before = (
        owner is not None
        and owner.type == "thing"
        and owner.start <= start <= owner.end + 3
        and end > owner.end
    )
    if not named_right_before and (owner is None or owner.type != "organisation"):
        before = [m for m in organisations if m.end <= start]
        owner = before[-1] if before else organisations[0] if organisations else None
    if owner is None:
        return None
    words = phrase if reading.lang == "zh" else f" {phrase}"
    if reading.lang == "en" and phrase.lower().startswith(owner.name.lower()):
        words = phrase[len(owner.name) :]
    deal = Mention(start, end, f"{owner.name}{words}".strip(), "deal", {"said_as": phrase}, aliases)
    reading.add_mention(deal)
    return deal


def _modifier(before: str) -> str:
    """Return the words of ``before`` that describe the deal's kind right after it: the nouns and
    qualifiers jieba tags at its end (年度框架协议, 打印机租赁; not 要拿到 of 3月15日之前要拿到正式合同),
    at most six characters."""
    words: list[str] = []
    for word, flag in reversed(tag_words(before[-8:])):
        tagged = (_MODIFIER_TAG.match(flag) and has_cjk(word)) or (word.isascii() and word.isalnum())
        if not tagged or len("".join(words) + word) > 6:
            break
        words.insert(0, word)
    return "".join(words)


_MODIFIER_TAG = re.compile(r"n|vn|eng|m|q|t|b|j|a$")


def _kind_words(reading: Sentence) -> tuple[int, int, str, list[str]] | None:
    """Return (start, end, phrase, aliases) of the first words saying a deal's kind (续约, 年度框架协议,
    "renewal", "SOC monitoring contract"); every such phrase of the sentence, as said and bare, is an
    alias (云途旅行续约搞定…新合同…: 续约, 新合同, 合同)."""
    text, found = reading.text, []
    if reading.lang == "en":
        for match in EN_DEAL_NOUN.finditer(text):
            phrase = match.group("phrase")
            found.append((match.start(), match.end(), phrase, [phrase, phrase.split()[-1].lower()]))
        if not found and (renewed := _EN_RENEWED.search(text)):  # "Datadog renewed at $118k": its renewal's
            found.append((renewed.start(), renewed.end(), "renewal", ["renewal"]))
        elif not found and (ordered := _EN_ORDERED.search(text)):
            found.append((ordered.start(), ordered.end(), "order", ["order"]))
        elif not found and (
            (counted := _EN_COUNT_IS.search(text) or (not _SIGNED.search(text) and _EN_COUNT_AT.search(text)))
            and _named_before(reading, counted.start())
        ):
            found.append((counted.start(), counted.end(), "deal", ["deal"]))
    else:
        for match in ZH_DEAL_NOUN.finditer(text):
            noun = "订单" if match.group() == "单" else match.group()
            named_end = max((m.end for m in reading.mentions if m.end <= match.start()), default=0)
            said = _modifier(text[named_end : match.start()]) if noun != "订单" else ""
            words = _ZH_NOT_MODIFIER.sub("", said)
            start = match.start() - len(words)
            found.append((start, match.end(), f"{words}{noun}", [f"{words}{noun}", f"{said}{noun}", noun]))
        if not found and (counted := _ZH_COUNT_IS.search(text)) and _named_before(reading, counted.start()):
            found.append((counted.start(), counted.end(), "订单", ["订单"]))
    if not found:
        return None
    aliases = list(dict.fromkeys(a for *_, said in found for a in said))
    return found[0][0], found[0][1], found[0][2], aliases


def _named_before(reading: Sentence, at: int) -> bool:
    """Return True when an organisation or an unknown name comes before ``at``: whose a counted deal is
    (not 发货单是12箱…找顺丰理赔, the carrier named after the count)."""
    return any(m.end <= at and m.type in ("organisation", "thing") for m in reading.mentions)
