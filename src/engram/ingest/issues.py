"""Faults reported of a product: 上周新换的旗云POS一到饭点就卡死，会员积分也对不上; "the ColdChain sensors:
batteries die in under a week and the app drops readings overnight".

Each clause after the one product a sentence names that says a fault (``FAULT``) is a HAS_ISSUE
value of that product, as said, without the adverbs between its words (会员积分也对不上 →
会员积分对不上). The clauses stop at the first that asks for something (要求…, "wants a fix") or talks
of something else. Not read when the sentence supposes, fears, asks or remembers it, says it is fixed
or absent (已修好, 没有失灵, "no longer drops"), or when what follows the product is another thing of
it (的竞品, 的培训视频, "'s memo", "rep").
"""

from __future__ import annotations

import re

from engram.ingest.frames import supposed
from engram.ingest.mentions import Mention
from engram.ingest.mentions_zh import PRODUCT_NOUN
from engram.ingest.reading import Message, Sentence
from engram.models.graph import FactIn

FAULT = re.compile(
    r"故障|失灵|坏了|报错|错误|卡顿|卡死|死机|掉线|断线|闪退|黑屏|漏水|不同步|对不上|识别不了|识别率|误报|打不开|连不上|"
    r"异响|漏风|漏电|断网|重连|不准|撑不到|发烫|过热|噪音|松动|脱落|破损|不亮|失效|不稳定|卡纸|跳到0|扫不了|报警不停|"
    r"宕机|崩溃|延迟太高|没反应|出问题|出故障|转写错|偏小|变慢|太慢|"
    r"\b(?:fail(?:s|ed|ing|ure)?|broke|broken|crash(?:es|ed|ing)?|drain(?:s|ed|ing)?|defects?|defective|cracks?|"
    r"cracked|errors?|bugs?|buggy|die|dies|died|dying|stopped working|not working|doesn't work|don't work|"
    r"won't (?:start|turn on|boot|connect|load|charge|sync|print|open|work)|overheat(?:s|ed|ing)?|"
    r"leaks|leaking|leaked(?! (?:memo|document|email|news|report|video|photo))|glitch(?:es|y|ing)?|"
    r"duplicat(?:es|ed|ing)|double-charg(?:es|ed|ing)|jam|jams|jammed|jamming|freezes|froze|freezing|frozen|"
    r"lags|lagging|times? out|timing out|disconnects|disconnected|keeps? dropping|"
    r"drops?(?= (?:out|(?:its |the |their )?(?:calls?|connections?|readings?|vpn|tunnel|signal|packets|"
    r"wi-?fi|data))\b))\b",
    re.I,
)
"""A fault said of a product (shared with the complaint reading of engram.ingest.implied)."""

COMPLAINT = re.compile(
    r"客诉|投诉|报修|工单|反馈|反映|发火|\b(?:complain\w*|escalat\w*|ticket|flagged|reports?|reported|defects?)\b|"
    r"\bkeeps? (?:jamming|crashing|failing|freezing|dropping|breaking|overheating|leaking)\b",
    re.I,
)
"""A customer's complaint or support ticket: the product it is about is one the customer uses."""
_CLAUSE_END = re.compile(r"[，,；;、:：]|\s(?:and|but|while)\s|而且|并且|同时|另外", re.I)
_DEMAND = re.compile(
    r"要求|希望|请|需要|得|必须|不然|否则|"
    r"\b(?:wants?|needs?|asks?|asked|please|demand\w*|or (?:she|he|they)|unless|if)\b",
    re.I,
)
"""A clause asking for something: the faults said before it are the list."""
_NOT_A_FAULT = re.compile(
    r"修好|修复|(?<![没不])修了|搞定了|解决了|已解决|已经解决|没问题|正常了|如果|要是|万一|假如|担心|害怕|可能会|会不会|是否|是不是|吗|[？?]|"
    r"听说|打算|计划|降到|以前老|好了|恢复正常|竞品|别人家|"
    r"\b(?:fixed|resolved|no problem|no longer|never|not once|without|if|unless|might|may|could(?!n't| not)|"
    r"whether|worried|afraid|in case|risk|fear|rumou?rs?|heard|used to|would(?!n't| not))\b",
    re.I,
)
"""A sentence saying the fault is fixed, past, absent, feared, asked or supposed: no fault to record."""
_DENIED = re.compile(r"(?:没有?|未|从没|从来没|不再|\bno\b|\bnot\b|\bnever\b)\s?\S{0,2}$|不会$", re.I)
"""Right before the fault word: 没有失灵, "never crashes"."""
_NOT_ITS_OWN = {
    "zh": re.compile(
        r"的(?:竞品|包装|培训|视频|链接|价格|销售|售后|客服|说明书|发票|物流|快递|时候|广告|官网|代理)|销售额|价格|股价"
    ),
    "en": re.compile(
        r"\s*(?:'s\b|’s\b|(?:model|file|spreadsheet|sheet|doc|document|report|webinar|reps?|team|store|memo|prices?|"
        r"sales|stock|shares|account manager|support team|website|ads?|campaign|competitor)\b)",
        re.I,
    ),
}
"""What follows the product is something else of it (的竞品, 的培训视频, "'s leaked memo", "rep"), whose
fault is not the product's."""
_ADVERBS = re.compile(r"(?:也|还|又|老是|总是|经常|一直|老|都|时不时|动不动就?)(?=[\u4e00-\u9fff])")
_LEAD = {
    "zh": re.compile(
        # 目前已有6台…漏水
        r"^[^，。]{0,6}?(?:有|又有)(?:\d+|[一二三四五六七八九十几两]+)(?:台|个|套|件|只|块|部|把)"
    ),
    "en": re.compile(
        r"^(?:(?:and|but|also|then|that|which|it|they|it's|they're|has|have|units?|devices?)\s+)+", re.I
    ),
}
_TAIL = re.compile(r"的?(?:问题|情况|现象)?(?:反馈|说明|处理)?$")
"""A subject line's 异响问题, 漏水问题反馈: the fault is the words before."""
_RELATIVE = re.compile(r"^(?:we|I|you|they|he|she)\b", re.I)
"""The KeyLink smart locks "we installed in January drain…": a relative clause, not the fault."""
_MAX = {"zh": 30, "en": 80}
_ANY_PRODUCT = frozenset({"系统", "平台", "软件", "设备", "机器", "应用", "APP", "app"})
_ZH_PRODUCT = re.compile(
    rf"(?:(?![的了那这批台个款买装换用在和与跟说是时])[\u4e00-\u9fffA-Za-z0-9]){{0,4}}{PRODUCT_NOUN}"
)
"""A product said by what it is (智能门锁, 收银系统, 打印机) when no model or brand names it: read in a
complaint only (not 导出报表时系统: 时 is "when")."""


def add_reported_issues(reading: Sentence, message: Message) -> None:
    """Add the HAS_ISSUE facts ``reading`` reports of its one product (module docstring); a
    pattern's shorter value of the same fault (死机 in 有6台频繁死机) gives way."""
    if _not_reported(reading):  # 新版云帆POS修复了卡死: a pattern's reading of the sentence goes too
        for key in [
            k for k, f in message.facts.items() if f.predicate == "HAS_ISSUE" and f.fact == reading.text
        ]:
            del message.facts[key]
        return
    for fact in _issues(reading, message):
        fault = FAULT.search(str(fact.value))
        for key, old in list(message.facts.items()):
            if old.predicate != "HAS_ISSUE" or old.subject != fact.subject:
                continue
            if str(old.value) in str(fact.value):
                del message.facts[key]
            elif fault and fault.group() in str(old.value):
                break  # 主题：SK-2烘干机异响问题 … 有明显异响: one fault said twice
        else:
            message.add_fact(fact)


def _issues(reading: Sentence, message: Message) -> list[FactIn]:
    products = [m for m in reading.mentions if m.type == "product"]
    if not products and reading.lang == "zh" and COMPLAINT.search(reading.text):
        said = list(_ZH_PRODUCT.finditer(reading.text))
        if len({m.group() for m in said}) == 1:  # 客户反馈：上周买的那批智能门锁，有5台经常掉线
            products = [Mention(said[0].start(), said[0].end(), said[0].group(), "product")]
    if not products and reading.lang == "en":
        products = _en_product(reading)
    if len({m.name for m in products}) != 1 or products[0].name in _ANY_PRODUCT:
        return []  # 系统报500错误: which system is the ticket's (engram.ingest.tickets)
    product = products[-1]
    text = reading.text
    if on_a_platform(text, product.start):
        return []  # 导出Excel时报错, 在安卓14上闪退, "crashes on iOS 17.4": where it fails, not what
    facts: list[FactIn] = []
    start = product.end
    for end_match in [*_CLAUSE_END.finditer(text, product.end), None]:
        end = end_match.start() if end_match else len(text)
        clause = text[start:end]
        if _DEMAND.search(clause):
            break
        fault = FAULT.search(clause)
        if fault is None and clause.strip() and not clause.lstrip().startswith(("(", "（")):
            break  # 销售额上个月下降了，渠道那边也出问题了: the faults after another topic are not its
        if (
            fault is not None
            and not _DENIED.search(clause[: fault.start()])
            and not supposed(text, reading.clauses, start + fault.start(), reading.lang)
        ):
            value = _said(clause, reading.lang)
            if value:
                facts.append(_issue(product.name, value, text))
        start = end_match.end() if end_match else len(text)
        if start >= len(text):
            break
    if facts:
        message.add_entity(product)
    return facts


_PLATFORM_BEFORE = re.compile(r"(?:导出|导入|在|\b(?:on|with|into|to|from)\s)\s?$", re.I)


def on_a_platform(text: str, start: int) -> bool:
    """Return True when the product named at ``start`` of ``text`` is the format or platform something else
    fails on or with (导出Excel, 在安卓14上, "sync with Outlook"), not the faulty product."""
    return _PLATFORM_BEFORE.search(text, 0, start) is not None


def _en_product(reading: Sentence) -> list[Mention]:
    """An English product the finder typed as a bare capitalised name ("The IntraScan 4 keeps
    overheating") or said by what it is in a complaint ("the X200 printers jam constantly"), when a
    fault follows it right away."""
    for mention in reading.mentions:
        determined = (
            _DETERMINER.search(reading.text, 0, mention.start) is not None
        )  # not "Subject: Bracket defect"
        model = _MODEL.match(reading.text, mention.end) if mention.type == "thing" and determined else None
        if model is not None and _FAULT_NEXT.match(reading.text, model.end()):
            end = model.end("number") if model.group("number") else mention.end
            return [Mention(mention.start, end, reading.text[mention.start : end], "product")]
    said = _EN_PRODUCT.search(reading.text) if COMPLAINT.search(reading.text) else None
    if said is None or not _FAULT_NEXT.match(reading.text, said.end("product")):
        return []
    return [Mention(said.start("product"), said.end("product"), said.group("product"), "product")]


_EN_PRODUCT = re.compile(
    r"\b(?:the|our|their|those|these|its|his|her)\s(?P<product>(?:[A-Z0-9][\w-]*\s)?(?:[a-z-]+\s)?"
    r"(?:printers?|readers?|scanners?|sensors?|locks?|terminals?|gateways?|routers?|laptops?|tablets?|kiosks?|"
    r"cameras?|machines?|app|software|dashboard|portal|integration|monitors?|servers?|phones?|headsets?|"
    r"chargers?|batteries|battery|firmware|units?|devices?))\b"
)
"""A product said by what it is, with a model or a kind before it."""
_DETERMINER = re.compile(r"\b(?:the|our|their|its|my|his|her)\s+$", re.I)
_MODEL = re.compile(r"(?P<number>\s\d[\w-]*)?(?:\s(?:units?|devices?|machines?|models?))?")
"""After a capitalised name: its model number and what it is ("IntraScan 4 units")."""
_FAULT_NEXT = re.compile(
    rf"(?:\s(?:keeps?|still|often|constantly|randomly|sometimes|now|also)){{0,2}}\s(?:{FAULT.pattern})", re.I
)
"""A fault said right after the product ("keeps overheating", "jam constantly")."""


def _not_reported(reading: Sentence) -> bool:
    """Return True when the sentence's faults are not reported ones (``_NOT_A_FAULT``), or what
    follows its product is another thing of it (``_NOT_ITS_OWN``)."""
    if _NOT_A_FAULT.search(reading.text):
        return True
    products = [m for m in reading.mentions if m.type == "product"]
    return bool(products) and _NOT_ITS_OWN[reading.lang].match(reading.text, products[-1].end) is not None


def _said(clause: str, lang: str) -> str:
    value = _LEAD[lang].sub("", clause.strip(" 。.!！?？'’"))
    if lang == "zh":
        value = _TAIL.sub("", _ADVERBS.sub("", value))
    elif _RELATIVE.match(value):
        return ""
    return value if 2 <= len(value) <= _MAX[lang] and FAULT.search(value) else ""


def _issue(product: str, value: str, sentence: str) -> FactIn:
    return FactIn(
        subject=product,
        predicate="HAS_ISSUE",
        value=value,
        fact=sentence.strip()[:2000],
        confidence=0.75,
        source_kind="stated",
    )
