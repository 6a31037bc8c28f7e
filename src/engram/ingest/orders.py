"""What a customer ordered: the product an order line counts ("SO-7731: 25 IntraScan 4 units at $3,400",
"signed PO HM-4410 for 75 Nautilus depth sensors", 合同号HY-0918，180台变频器, 冷柜LG-160共60台).

Once a pattern has read an order's QUANTITY, the words it counts are the product, and the buyer is
the organisation named before the count in its sentence, else the message's one organisation. Not
an order of ours (我们这批…, "our Q3 order"), a seller (在京东下单, "an order with …"), the writer's own
company (a supplier confirming a customer's order), a count that scopes a pilot ("on 40 trucks"),
nor an order denied, cancelled, expected, supposed, rumoured, quoted or not signed yet.
"""

from __future__ import annotations

import re

from engram.ingest.frames import DEPARTMENT
from engram.ingest.mentions import Mention
from engram.ingest.mentions_zh import PRODUCT_NOUN
from engram.ingest.reading import Message
from engram.models.graph import FactIn
from engram.nlp.tokenize import has_cjk

_EN_CONTAINERS = r"cases|pallets|boxes|bottles|rolls|packs|cartons|reams|crates|bags|sets|kits|pairs"
_EN_UNITS = r"units?|seats?|licen[cs]es?|pcs|pieces"
_EN_PRODUCT = re.compile(
    rf"\s+(?:more\s+)?(?:(?:{_EN_UNITS}|{_EN_CONTAINERS})\s+of\s+(?:the\s+)?)?"
    rf"(?P<product>[A-Za-z][\w&.'’-]*?(?:\s[\w&'’-]+(?:\.\w+)?){{0,3}}?)"
    rf"(?:\s+(?:{_EN_UNITS}))?(?=\s+(?:at|@|for|under|with|delivered|shipped|by|on|in)\b|\s*[,.;:)]|\s*$)"
)
"""What follows an order's count: "25 IntraScan 4 units", "2,000 cases of sparkling water"."""
_ZH_MODEL = r"[\u4e00-\u9fff]{1,6}?[A-Za-z]{1,4}-?\d[A-Za-z0-9-]*"
"""A product with its model (空气炸锅AF-6, 冷柜LG-160)."""
_ZH_UNIT = r"台|套|个|件|份|箱|张|部|块|支|辆|把|袋|吨|瓶|盒|包|桶|双|片|根|颗"
_ZH_AFTER = re.compile(
    rf"(?:{_ZH_UNIT})(?P<product>(?:[A-Za-z0-9-]+)?(?:(?![的了那这批要共和与])[\u4e00-\u9fff]){{0,4}}?{PRODUCT_NOUN}"
    rf"[A-Za-z0-9.-]*|[A-Za-z][A-Za-z0-9 .-]{{1,20}}?(?=[\u4e00-\u9fff，。；、,;]|$)"
    rf"|{_ZH_MODEL}|[\u4e00-\u9fff]{{2,8}}?(?=账号|许可|授权))"
)
"""What follows an order's count: 180台变频器, 300套门禁读卡器, 120台ThinkPad E14, 120个云盾账号."""
_ZH_BEFORE = re.compile(r"(?:^|[：:，,；;\s])(?P<product>[A-Za-z0-9\u4e00-\u9fff-]{2,12}?)(?:一共|共|要)?$")
"""A product said before its count (冷柜LG-160共60台): one the product pattern knows."""
_SCOPE = re.compile(r"\b(?:on|across|in|to)\s+$", re.I)
"""Before a count that scopes something else ("pilot FleetSense on 40 trucks"), not one ordered."""
_OURS = re.compile(
    r"我们这批|我们(?:订|买|采购|下单|的采购)|我们(?:在|给|向)|我司(?:订|采购)|"
    r"\b(?:our (?:\w+ )?order|we ordered|we bought|we're buying|we placed|from us|with them)\b",
    re.I,
)
_NOT_ORDERED = re.compile(
    r"\b(?:hasn't|haven't|never|not yet|rejected|disputed|pending|wonders?|whether|rumou?rs?|maybe|might|"
    r"quote|quoted|proposal|negotiating|negotiation|verbal yes|pricing)\b|[?？]|没签|还没|未签|没有|拒|审批|"
    r"试用|报价|不是合同|差点|暂停|听说|需求|预算|谈判|在谈",
    re.I,
)
_SUPPOSED = re.compile(r"\b(?:will|would|if|possible|expect\w*)\b|可能|如果|要求|想|准备|应该|不会", re.I)
"""An order denied, disputed, rumoured, only quoted or not signed yet (anywhere in its sentence), or
expected or supposed (``_SUPPOSED``, before its count)."""
_SELLER = re.compile(
    r"(?:在|给|向|从)$|\b(?:order|ordered|placed|bought|buy|buying|purchased?)\s+(?:[\w-]+\s+){0,4}?(?:with|from|at)\s+$",
    re.I,
)
"""Before an organisation that sells (在京东下单, "an order with Umbrella Corp"), not one that buys."""
_SEAT_KINDS = re.compile(r"\s(?:seats?|licen[cs]es?|users?|accounts?)$", re.I)
_NOT_A_PRODUCT = re.compile(
    r"^(?:more|of|the|a|an|seats?|units?|people|trucks|stores|sites|locations|users|employees|staff|years?|months?|"
    r"weeks?|days?|hours?)$",
    re.I,
)
_CALLED_OFF = re.compile(r"取消|撤|不要了|作废|\b(?:cancell?ed|cancell?ing|called off|dropped)\b", re.I)
"""An order said to be cancelled: nothing ordered any more."""


def add_ordered_products(message: Message) -> None:
    """Add ORDERED for each order whose QUANTITY a pattern read (module docstring)."""
    if any(f.predicate == "CANCELLED" for f in message.facts.values()):
        return
    for fact in list(message.facts.values()):
        if fact.predicate != "QUANTITY" or not isinstance(fact.value, int) or not fact.fact:
            continue
        sentence = fact.fact
        if fact.value <= 0 or _CALLED_OFF.search(sentence) or _NOT_ORDERED.search(sentence):
            continue
        found = _counted(sentence, fact.value)
        if found is None or _SUPPOSED.search(sentence, 0, found[1]):
            continue
        product, at = found
        buyer = _buyer(message, sentence, at)
        if buyer is None or buyer == product or message.states(buyer, "ORDERED"):
            continue
        message.add_entity(Mention(0, 0, product, "product"))
        message.add_fact(
            FactIn(
                subject=buyer,
                predicate="ORDERED",
                object=product,
                fact=sentence,
                valid_at=fact.valid_at,
                confidence=0.75,
                source_kind="stated",
            )
        )


def _counted(sentence: str, count: int) -> tuple[str, int] | None:
    """Return the product ``sentence`` counts ``count`` of and where the count is, or None."""
    numbers = {str(count), f"{count:,}"}
    for number in numbers:
        for match in re.finditer(rf"(?<![\d.,]){re.escape(number)}(?![\d.,]\d)", sentence):
            if has_cjk(sentence):
                after = _ZH_AFTER.match(sentence, match.end())
                product = after.group("product") if after else None
                before = None if product else _ZH_BEFORE.search(sentence, 0, match.start())
                if before and re.fullmatch(_ZH_MODEL, before.group("product")):
                    product = before.group("product")  # 冷柜LG-160共60台
            else:
                if _SCOPE.search(sentence, 0, match.start()):
                    continue
                after = _EN_PRODUCT.match(sentence, match.end())
                product = after.group("product") if after else None
                if (
                    after
                    and product
                    and product.islower()
                    and _SEAT_KINDS.search(sentence, after.end("product"), after.end())
                ):
                    product = None  # "20 agent seats", "300 student licenses": a kind of seat, no product
            if product and not _NOT_A_PRODUCT.match(product):
                return product.strip(), match.start()
    return None


def _buyer(message: Message, sentence: str, at: int) -> str | None:
    if _OURS.search(sentence):
        return None  # our own purchase: whom from is CUSTOMER_OF's to read
    writers = {
        f.object
        for f in message.facts.values()
        if f.predicate == "WORKS_AT" and f.subject == message.speaker.actor
    }
    organisations = [
        name
        for name, kind in message.entities
        if kind == "organisation" and not DEPARTMENT.search(name) and name not in writers
    ]
    if received := re.search(r"\breceived an order from (?:the )?", sentence, re.I):
        buyers = [name for name in organisations if sentence.startswith(name, received.end())]
        return buyers[0] if buyers else None  # "Umbrella Corp received an order from Globex"
    organisations = [
        name for name in organisations if not _SELLER.search(sentence, 0, max(sentence.find(name), 0))
    ]  # 在京东下单: 京东 sells
    before = [name for name in organisations if 0 <= sentence.find(name) < at]
    if before:
        return max(before, key=sentence.find)
    return organisations[0] if len(organisations) == 1 else None
