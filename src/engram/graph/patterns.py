"""Recognise common predicates in English and Chinese sentences: the registry, the patterns, helpers.

The registry names about thirty predicates (UPPER_SNAKE) with a suggested cardinality
(``one``: a new value replaces the old, ``many``: values accumulate), a conflict
sensitivity for arbitration (``high``: a different value is an update or a dispute,
``low``: usually additive, ``none``: never conflicts) and synonyms in both languages.

A pattern is a regular expression over one sentence whose named group ``obj`` is the
object (an entity mention or a literal); the subject is found by the extractor to the left
of the match (a first-person pronoun means the episode's actor). Negation is encoded as a
predicate, never dropped silently: a predicate's ``stop`` names what "no longer / 不再 /
stopped" turns it into (USES → STOPPED_USING) and its ``negation`` what a plain "not / 不"
turns it into (LIKES → DISLIKES); ``ends`` on the resulting predicate names the predicate
whose fact with the same subject and object it closes (an ``invalid_at`` signal for the
arbiter). A negated statement whose predicate has no mapping yields no fact.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

Cardinality = Literal["one", "many"]
Conflict = Literal["high", "low", "none"]
ObjectKind = Literal["entity", "value", "amount"]
Lang = Literal["en", "zh"]


@dataclass(frozen=True, slots=True)
class Predicate:
    """One registered predicate: how its facts combine and how people say it."""

    name: str
    cardinality: Cardinality
    conflict: Conflict
    object_kind: ObjectKind
    object_type: str = "thing"
    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()
    negation: str | None = None
    stop: str | None = None
    ends: str | None = None


def _p(
    name: str,
    cardinality: Cardinality,
    conflict: Conflict,
    kind: ObjectKind,
    object_type: str,
    en: str,
    zh: str,
    **more: str,
) -> Predicate:
    return Predicate(
        name, cardinality, conflict, kind, object_type, tuple(en.split("|")), tuple(zh.split("|")), **more
    )


REGISTRY: Mapping[str, Predicate] = {
    p.name: p
    for p in (
        _p(
            "LIVES_IN",
            "one",
            "high",
            "entity",
            "place",
            "lives in|resides in|based in",
            "住在|家在|定居",
            stop="MOVED_FROM",
        ),
        _p(
            "MOVED_FROM",
            "many",
            "none",
            "entity",
            "place",
            "moved from|moved out of",
            "搬离|从…搬走",
            ends="LIVES_IN",
        ),
        _p(
            "COMES_FROM",
            "one",
            "high",
            "entity",
            "place",
            "is from|comes from|grew up in",
            "来自|老家在|是…人",
        ),
        _p(
            "WORKS_AT",
            "one",
            "high",
            "entity",
            "organisation",
            "works at|works for|employed by",
            "在…工作|在…上班|就职于",
            stop="LEFT_ORGANISATION",
        ),
        _p(
            "LEFT_ORGANISATION",
            "many",
            "none",
            "entity",
            "organisation",
            "left|quit|resigned from",
            "离开|从…离职",
            ends="WORKS_AT",
        ),
        _p("HAS_ROLE", "one", "high", "entity", "role", "is a|works as|serves as", "是|担任|作为"),
        _p("STUDIES_AT", "one", "high", "entity", "organisation", "studies at|student at", "在…读书|在…上学"),
        _p("MEMBER_OF", "many", "low", "entity", "organisation", "member of|joined", "加入|是…成员"),
        _p("REPORTS_TO", "one", "high", "entity", "person", "reports to|my boss is", "向…汇报|上级是"),
        _p("BUDGET", "one", "high", "amount", "", "budget", "预算"),
        _p("PRICE", "one", "high", "amount", "", "price|costs|quoted at", "价格|报价|售价|单价"),
        _p("PREFERS", "one", "high", "value", "", "prefers|favorite is|rather", "更喜欢|偏好|倾向于|首选"),
        _p(
            "LIKES",
            "many",
            "low",
            "value",
            "",
            "likes|loves|enjoys|fan of",
            "喜欢|爱|热爱",
            negation="DISLIKES",
        ),
        _p("DISLIKES", "many", "low", "value", "", "dislikes|hates|can't stand", "不喜欢|讨厌", ends="LIKES"),
        _p(
            "USES",
            "many",
            "high",
            "entity",
            "product",
            "uses|is using|switched to",
            "在用|使用|用的是|换成",
            negation="STOPPED_USING",
            stop="STOPPED_USING",
        ),
        _p(
            "STOPPED_USING",
            "many",
            "none",
            "entity",
            "product",
            "stopped using|no longer uses|quit using",
            "不再用|停用|不用…了",
            ends="USES",
        ),
        _p(
            "PLANS_TO_VISIT",
            "many",
            "low",
            "entity",
            "place",
            "plans to visit|going to|trip to",
            "打算去|计划去|参观|拜访",
        ),
        _p("VISITED", "many", "none", "entity", "place", "visited|went to|been to", "去过|参观了|去了"),
        _p("PLANS_TO", "many", "low", "value", "", "plans to|going to|gonna", "打算|计划|准备"),
        _p("GOAL", "many", "low", "value", "", "goal is|wants to become|dream is", "目标是|想成为|梦想是"),
        _p(
            "HAS_PET", "many", "none", "entity", "animal", "my dog|my cat|has a pet", "养了|我家的狗|我家的猫"
        ),
        _p("BIRTHDAY", "one", "high", "value", "", "birthday is|born on", "生日是|出生于"),
        _p("AGE", "one", "high", "value", "", "years old", "岁"),
        _p(
            "MARRIED_TO",
            "one",
            "high",
            "entity",
            "person",
            "married to|my wife|my husband",
            "和…结婚|老婆|老公|妻子|丈夫",
        ),
        _p(
            "CHILD_OF",
            "many",
            "none",
            "entity",
            "person",
            "my son|my daughter|my mom|my dad",
            "儿子|女儿|爸爸|妈妈",
        ),
        _p("SIBLING_OF", "many", "none", "entity", "person", "my brother|my sister", "哥哥|姐姐|弟弟|妹妹"),
        _p("FRIEND_OF", "many", "none", "entity", "person", "my friend|my buddy", "朋友"),
        _p("DEADLINE", "one", "high", "value", "", "deadline|due by|due on", "截止|之前提交|之前完成"),
        _p("MEETING_AT", "many", "low", "value", "", "meeting at|meeting on|meet on", "开会|会议在|见面"),
        _p("EMAIL", "many", "low", "entity", "email", "email is|reach me at", "邮箱是|邮件地址"),
        _p("OWNS", "many", "low", "value", "", "bought|owns|got a new", "买了|拥有"),
    )
}

# ── objects, conditions, amounts ─────────────────────────────────────────────────────────

_CN_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
             "八": 8, "九": 9}  # fmt: skip
_CN_SMALL = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}
_MULTIPLIER = {"k": 1_000, "thousand": 1_000, "grand": 1_000, "m": 1_000_000, "mn": 1_000_000,
               "million": 1_000_000, "b": 1_000_000_000, "bn": 1_000_000_000, "billion": 1_000_000_000,
               "百": 100, "千": 1_000, "万": 10_000, "亿": 100_000_000}  # fmt: skip

AMOUNT = (
    r"(?:[$€£¥￥]\s?)?(?:\d[\d,]*(?:\.\d+)?|[零〇一二两三四五六七八九十百千万亿]+)"
    r"(?:\s?(?:k|K|m|M|mn|bn|B|million|billion|thousand|grand)\b|\s?[百千万亿]+)?"
    r"(?:\s?(?:dollars|bucks|usd|USD|RMB|rmb|CNY|yuan|euros?|EUR)\b|\s?(?:元|块钱|块|美元|人民币|欧元))?"
)
_NUMBER = re.compile(
    r"(\d[\d,]*(?:\.\d+)?)\s*(?:(k|mn|m|bn|b|million|billion|thousand|grand)\b|([百千万亿]+))?", re.I
)
_CN_NUMBER = re.compile(r"[零〇一二两三四五六七八九十百千万亿]+")


def cn_to_int(text: str) -> int | None:
    """Return the value of a Chinese numeral (八十万 → 800000, 一万五 → 15000), None if not one."""
    if not text or any(ch not in _CN_DIGIT and ch not in _CN_SMALL and ch not in _CN_BIG for ch in text):
        return None
    total = section = number = 0
    last_unit = 0
    for ch in text:
        if ch in _CN_DIGIT:
            number = _CN_DIGIT[ch]
            last_unit = 0 if ch in "零〇" else last_unit
        elif ch in _CN_SMALL:
            last_unit = _CN_SMALL[ch]
            section += (number or 1) * last_unit
            number = 0
        elif ch == "万":
            total += (section + number) * 10_000
            section = number = 0
            last_unit = 10_000
        else:
            total = (total + section + number) * 100_000_000
            section = number = 0
            last_unit = 100_000_000
    if number and last_unit >= 100:  # colloquial 一万五 = 15000, 三千五 = 3500
        number *= last_unit // 10
    return total + section + number


def parse_amount(text: str) -> int | None:
    """Return the amount a phrase names as an int ("500k", "$1.2M", "80万", "八十万", "50万元").

    Currency is not converted (the unit stays in the fact's sentence); None when no number.
    """
    match = _NUMBER.search(text)
    if match:
        try:
            number = Decimal(match.group(1).replace(",", ""))
        except InvalidOperation:
            return None
        if match.group(2):
            number *= _MULTIPLIER[match.group(2).lower()]
        for unit in match.group(3) or "":
            number *= _MULTIPLIER[unit]
        return int(number)
    numeral = _CN_NUMBER.search(text)
    return cn_to_int(numeral.group()) if numeral else None


_CONDITIONS: tuple[tuple[re.Pattern[str], str | None], ...] = tuple(
    (re.compile(rx, re.I), canonical)
    for rx, canonical in (
        (r"\b(?:on|at|over|during) (?:the )?weekends?\b|\bweekends\b", "weekends"),
        (r"\b(?:on )?weekdays\b|\bduring the week\b", "weekdays"),
        (r"\bin the mornings?\b|\bmornings\b", "mornings"),
        (r"\bin the evenings?\b|\bat night\b|\bevenings\b", "evenings"),
        (r"\bin (?:the )?summer\b", "summer"),
        (r"\bin (?:the )?winter\b", "winter"),
        (r"\bwhen (?:I'm |I am )?travel(?:l)?ing\b|\bon business trips?\b", "travelling"),
        (r"\bat work\b", "at work"),
        (r"\bat home\b", "at home"),
        (r"\bon (mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\b", None),
        (
            r"周末|工作日|平时|早上|早晨|晚上|夏天|冬天|上班的?时候|出差的?时候|在家的?时候|在家里?|在公司",
            None,
        ),
    )
)


def find_conditions(clause: str) -> dict[str, str]:
    """Return the scope a clause puts on its fact: ``{"when": "weekends"}``, ``{"when": "周末"}``, or {}."""
    for regex, canonical in _CONDITIONS:
        match = regex.search(clause)
        if match:
            found = canonical or (match.group(1) if match.groups() else match.group())
            return {"when": found.lower() if canonical is None and found.isascii() else found}
    return {}


_EN_CUT = re.compile(
    r"\s[-–—]\s.*$|\s(?:and|but|because|so|since|with|when|while|where|which|who|for|on|at|in|to|from|now|"
    r"right now|"
    r"these days|anymore|any more|too|as well|lately|recently|every|next|last|this|tomorrow|yesterday|"
    r"today|instead|though|or|than|if|after|before|during|by)\b.*$",
    re.I,
)
_ZH_CUT = re.compile(r"(?:周末|工作日|平时|早上|晚上|现在|最近|一直|还是|已经|的时候|时).*$")
_NON_OBJECT = re.compile(
    r"(?:every|each|all|so|very|too|a lot|lots|much|more|it|that|this|them|you|doing|being|having|getting|"
    r"what|how|when|there|here|for|to|with|of|about|in|on|at|out|up|and|but|or|as|because|was|is|are|"
    r"were|be|been|makes|made|means|"
    r"yesterday|today|tomorrow|last|next|recently|lately|a few|a couple|I|we)\b",
    re.I,
)
_PRONOUNS = {"it", "that", "this", "them", "these", "those", "you", "him", "her", "me", "us", "one",
             "it all", "everything", "something", "anything", "what", "doing", "you too", "它", "他", "她",
             "这个", "那个", "这些", "那些", "你", "你们", "他们"}  # fmt: skip


def trim_object(text: str, lang: Lang) -> str:
    """Return an object phrase cut before trailing clauses and particles; "" when it is only a pronoun."""
    text = text.strip(" \t'\"“”‘’")
    if lang == "en":
        text = _EN_CUT.sub("", text).strip(" -'\"")
        text = re.sub(r"^(?:the|my|our|a|an|some)\s+(?=[A-Z])", "", text)
    else:
        text = _ZH_CUT.sub("", text)
        text = re.sub(r"^(?:了|的|一个|一家|一只|个)", "", text)
        text = re.sub(r"(?:了|的|呢|吧|啊|哦|呀|嘛|啦)+$", "", text)
    return "" if text.lower() in _PRONOUNS or _NON_OBJECT.match(text) else text


# ── patterns ────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True, slots=True)
class Pattern:
    """One way to say a predicate: ``regex`` over a sentence with a named group ``obj``.

    ``inverse``: the object mention is the fact's subject and the found subject its object
    ("my son Jake" → Jake CHILD_OF me). ``require_mention``: emit only when ``obj`` holds a
    detected entity. ``past``: the predicate to use when the clause is in the past tense.
    """

    predicate: str
    lang: Lang
    regex: re.Pattern[str]
    confidence: float = 0.9
    inverse: bool = False
    require_mention: bool = False
    past: str | None = None
    trigger: tuple[str, ...] = ()


_EN_OBJ = r"(?P<obj>[^,.!?;:()\n]{1,60})"
_EN_NAME = r"(?P<obj>(?-i:[A-Z])[\w'’-]*(?:\s(?-i:[A-Z])[\w'’-]*)?)"
_ZH_STOP = r"，。！？；,.!?;、\s"
_ZH_OBJ = rf"(?P<obj>[^{_ZH_STOP}]{{1,15}}?)(?=[{_ZH_STOP}]|了|的|吧|呢|啊|$)"
_ZH_NAME_BARE = r"(?P<obj>[\u4e00-\u9fff]{2,4}?|[A-Z][a-z]+)"
_ZH_NAME = _ZH_NAME_BARE + r"(?=[，。！？；,.!?;、\s]|$|也|都|今年|在|是|和|的)"


def _zh_obj_before(suffix: str) -> str:
    return rf"(?P<obj>[^{_ZH_STOP}]{{1,15}}?)(?:{suffix})"


_ZH_DATE = r"(?P<obj>[0-9０-９一二三四五六七八九十两月日号周下本这个星期天年.\-/点半上午下]{2,16})"
_ZH_ROLE_PREFIX = r"(?:销售|产品|项目|技术|市场|财务|人事|行政|客户|采购|运营|研发|区域|部门|大客户|总|副总)?"
ZH_ROLE = (
    _ZH_ROLE_PREFIX + r"(?:经理|总监|主管|专员|工程师|设计师|顾问|助理|老师|医生|护士|律师|会计|主任|总裁|"
    r"董事长|CEO|CTO|CFO|COO|创始人|合伙人|程序员|架构师|分析师|研究员|教授|学生|实习生|销售)"
)
EN_ROLE = (
    r"(?:(?:senior|junior|lead|chief|head|principal|staff|sales|product|project|account|marketing|software|"
    r"data|art|creative|finance|hr|regional|general|operations|engineering|executive|managing|"
    r"assistant)\s)*(?:engineer|developer|manager|teacher|doctor|nurse|designer|artist|writer|student|"
    r"lawyer|accountant|CEO|CTO|CFO|COO|founder|co-founder|director|consultant|analyst|chef|"
    r"photographer|musician|counselor|therapist|scientist|researcher|professor|salesperson|"
    r"architect|intern|programmer|editor|journalist|pilot|firefighter|police officer|"
    r"social worker|vp|president|owner|entrepreneur|coach|athlete|actor|actress|dancer|painter|"
    r"singer|filmmaker|author|veterinarian|vet|dentist|pharmacist|mechanic|electrician|carpenter)"
)
_LEAD = re.compile(r"^(?:\\b)?\(\?:((?:[\w' ]+\|)*[\w' ]+)\)")


def _trigger(source: str, given: str) -> tuple[str, ...]:
    """Return literals one of which a matching sentence must contain (lower-cased), () for any."""
    if given:
        return tuple(given.split("|"))
    lead = _LEAD.match(source)
    return tuple(alt.lower() for alt in lead.group(1).split("|")) if lead else ()


def _en(
    predicate: str,
    source: str,
    confidence: float = 0.9,
    *,
    trigger: str = "",
    inverse: bool = False,
    require_mention: bool = False,
    past: str | None = None,
) -> Pattern:
    regex = re.compile(source, re.I)
    words = _trigger(source, trigger)
    return Pattern(predicate, "en", regex, confidence, inverse, require_mention, past, words)


def _zh(
    predicate: str,
    source: str,
    confidence: float = 0.9,
    *,
    trigger: str = "",
    inverse: bool = False,
    require_mention: bool = False,
    past: str | None = None,
) -> Pattern:
    regex = re.compile(source)
    words = _trigger(source, trigger)
    return Pattern(predicate, "zh", regex, confidence, inverse, require_mention, past, words)


_CAP = r"(?-i:[A-Z])"
PATTERNS: tuple[Pattern, ...] = (
    # English
    _en("MOVED_FROM", rf"\bmoved (?:away )?(?:from|out of) {_EN_OBJ}", 0.85),
    _en("LIVES_IN", rf"\bmoved (?:back )?to {_EN_OBJ}", 0.8, require_mention=True),
    _en(
        "LIVES_IN",
        rf"\b(?:live|lives|(?<!a )living|reside|resides|residing|based|settled)\s(?:now\s)?(?:in|at) "
        rf"{_EN_OBJ}",
    ),
    _en(
        "COMES_FROM",
        rf"\b(?:I'm|I am|is|am|are|come|comes|came)\s(?:originally\s)?from {_EN_OBJ}",
        0.85,
        require_mention=True,
    ),
    _en("COMES_FROM", rf"\bgrew up in {_EN_OBJ}", 0.85),
    _en("WORKS_AT", rf"\b{EN_ROLE}\s(?:of|at) {_EN_OBJ}", 0.8, require_mention=True, trigger=" of | at "),
    _en(
        "LEFT_ORGANISATION",
        rf"\b(?:(?:left|quit|resigned from)\s(?:my job (?:at|with)\s)?|lost my job "
        rf"(?:at|with)\s){_EN_OBJ}",
        0.8,
        require_mention=True,
    ),
    _en("WORKS_AT", rf"\b(?:work|works|working|worked|job)\s(?:at|for) {_EN_OBJ}"),
    _en("WORKS_AT", rf"\b(?:employed by|joined the team at|got a job at) {_EN_OBJ}", 0.85),
    _en(
        "STUDIES_AT",
        rf"\b(?:study|studies|studying|student|enrolled)\s(?:at|in) {_EN_OBJ}",
        0.85,
        require_mention=True,
    ),
    _en(
        "HAS_ROLE",
        rf"\b(?:I'm|I am|is|am|works as|work as|working as|serves as|became|become)\s"
        rf"(?:a|an|the|our|their)?\s?(?P<obj>{EN_ROLE})\b",
    ),
    _en("HAS_ROLE", rf",\s(?:a|an|the|our)?\s?(?P<obj>{EN_ROLE})\s(?:of|at)\b", 0.8, trigger=" of| at"),
    _en("REPORTS_TO", rf"\breports? to {_EN_NAME}", 0.85, require_mention=True),
    _en("MEMBER_OF", rf"\b(?:member of|joined) {_EN_OBJ}", 0.8, require_mention=True),
    _en("BUDGET", rf"\bbudget\b[^.!?\n]{{0,30}}?(?P<obj>{AMOUNT})"),
    _en("PRICE", rf"\b(?:price|prices|priced|costs?|quoted)\b[^.!?\n]{{0,20}}?(?P<obj>{AMOUNT})", 0.85),
    _en("PREFERS", rf"\bprefer(?:s|red)?\s{_EN_OBJ}"),
    _en("PREFERS", rf"\bfavou?rite [a-z ]{{1,20}}? is {_EN_OBJ}", 0.85),
    _en("DISLIKES", rf"\b(?:hate|hates|dislike|dislikes|can't stand|cannot stand)\s{_EN_OBJ}", 0.85),
    _en("STOPPED_USING", rf"\b(?:stopped|quit|gave up)\susing {_EN_OBJ}"),
    _en("STOPPED_USING", rf"\bswitched (?:away )?from {_EN_OBJ}", 0.85, require_mention=True),
    _en("USES", rf"\b(?:switched|moved|migrated) (?:over )?to {_EN_OBJ}", 0.85, require_mention=True),
    _en("USES", rf"\b(?:use|uses|using)\s{_EN_OBJ}", 0.8, require_mention=True),
    _en(
        "PLANS_TO_VISIT",
        rf"\b(?:plan|plans|planning|going|gonna|want|wants|hope|hoping|thinking about|"
        rf"will|'ll)\s(?:to\s)?(?:visit|go to|travel to|head to|fly to|take a trip to) {_EN_OBJ}",
        0.85,
    ),
    _en(
        "PLANS_TO_VISIT",
        rf"\b(?:a|my|our) (?:trip|vacation|holiday) to {_EN_OBJ}",
        0.75,
        require_mention=True,
        past="VISITED",
    ),
    _en("VISITED", rf"\b(?:visited|went to|been to|traveled to|travelled to|flew to) {_EN_OBJ}", 0.85),
    _en(
        "LIKES",
        rf"\b(?:I|we|they|you|he|she|really|also|just|do|does|don't|doesn't|didn't|still|totally|"
        rf"actually|never|(?-i:[A-Z][a-z]+))\s(?:like|likes)\s(?!to\b){_EN_OBJ}",
        0.8,
        trigger="like",
    ),
    _en(
        "LIKES",
        rf"(?<!my )(?<!a )(?<!the )(?<!our )(?<!your )(?<!his )(?<!her )(?<!their )(?<!with )"
        rf"(?<!of )(?<!and )(?<!much )\b(?:love|loves|enjoy|enjoys|a fan of|a big fan of)\s(?!to\b){_EN_OBJ}",
        0.8,
        trigger="love|enjoy|fan of",
    ),
    _en("PLANS_TO", rf"\b(?:plan|plans|planning) to {_EN_OBJ}", 0.75),
    _en("GOAL", rf"\b(?:my goal is to|want to become|wants to become|dream is to) {_EN_OBJ}", 0.8),
    _en(
        "HAS_PET",
        rf"\b(?:my|our) (?P<kind>dog|cat|puppy|kitten|pup|parrot|hamster|rabbit|bunny|turtle|"
        rf"horse|pet)s?,?\s(?P<obj>{_CAP}[a-z]+)\b",
        0.85,
        trigger="dog|cat|pup|kitten|parrot|hamster|rabbit|bunny|turtle|horse|pet",
    ),
    _en("MARRIED_TO", rf"\b(?:married (?:to )?|my (?:wife|husband|spouse|partner),? ){_EN_NAME}", 0.9),
    _en("CHILD_OF", rf"\bmy (?:son|daughter|kid|child|boy|girl),? {_EN_NAME}", 0.9, inverse=True),
    _en("CHILD_OF", rf"\bmy (?:mom|mother|dad|father|mum),? {_EN_NAME}", 0.9),
    _en("SIBLING_OF", rf"\bmy (?:brother|sister|sibling),? {_EN_NAME}", 0.9),
    _en("FRIEND_OF", rf"\bmy (?:friend|buddy|best friend|pal),? {_EN_NAME}", 0.85),
    _en("BIRTHDAY", rf"\bbirthday is (?:on )?{_EN_OBJ}"),
    _en("AGE", r"\b(?:I'm|I am|is|turned|turning)\s(?P<obj>\d{1,3})(?: years old|yo\b| this year)"),
    _en("DEADLINE", rf"\b(?:deadline (?:is )?|due (?:by|on) ){_EN_OBJ}", 0.85),
    _en("MEETING_AT", rf"\bmeeting (?:is )?(?:at|on|scheduled for) {_EN_OBJ}", 0.8),
    _en("EMAIL", rf"\b(?:email|e-mail)(?: address)? is {_EN_OBJ}", require_mention=True),
    _en("OWNS", rf"\b(?:bought|owns|got a new) {_EN_OBJ}", 0.7),
    # Chinese
    _zh("STOPPED_USING", rf"(?:停用了?|换掉了?){_ZH_OBJ}", 0.85, require_mention=True),
    _zh("STOPPED_USING", rf"从{_zh_obj_before('换成|换到|改用|迁移到')}", 0.85, require_mention=True),
    _zh("USES", rf"(?:换成了?|改用了?|迁移到了?){_ZH_OBJ}", 0.85),
    _zh("USES", rf"(?:在用|使用|用的是|用着){_ZH_OBJ}"),
    _zh("USES", rf"用{_ZH_OBJ}", 0.7, require_mention=True),
    _zh("LIVES_IN", rf"(?:住在|家在|定居在?|居住在|搬到了?){_ZH_OBJ}"),
    _zh("COMES_FROM", rf"(?:来自|老家在|老家是|出生在){_ZH_OBJ}", 0.85),
    _zh("LEFT_ORGANISATION", rf"从{_zh_obj_before('离职|辞职')}", 0.85, require_mention=True),
    _zh("LEFT_ORGANISATION", rf"离开了{_ZH_OBJ}", 0.8, require_mention=True),
    _zh(
        "STUDIES_AT", rf"(?<![现正实存])在(?P<obj>[^{_ZH_STOP}]{{1,15}}?)(?:读书|上学|读研|读博|念书|读大学)"
    ),
    _zh("WORKS_AT", rf"(?<![现正实存])在(?P<obj>[^{_ZH_STOP}]{{1,15}}?)(?:工作|上班|任职|实习|就职)"),
    _zh("WORKS_AT", rf"(?:就职于|任职于|入职了?){_ZH_OBJ}"),
    _zh("HAS_ROLE", rf"(?:我是|是|担任|作为|当了?|做)(?:一名|一个|一位|公司的|我们的)?(?P<obj>{ZH_ROLE})"),
    _zh("REPORTS_TO", rf"向{_ZH_NAME_BARE}汇报", 0.85),
    _zh("REPORTS_TO", rf"(?:上级|领导|老板)是{_ZH_NAME}", 0.85),
    _zh("MEMBER_OF", rf"加入了?{_ZH_OBJ}", 0.8, require_mention=True),
    _zh("BUDGET", rf"预算[^，。！？；]{{0,8}}?(?P<obj>{AMOUNT})"),
    _zh("PRICE", rf"(?:价格|报价|售价|单价|价钱|卖)[^，。！？；]{{0,8}}?(?P<obj>{AMOUNT})", 0.85),
    _zh("PREFERS", rf"(?:更喜欢|偏好|倾向于|首选|更愿意){_ZH_OBJ}"),
    _zh("DISLIKES", rf"(?:讨厌|不喜欢|受不了){_ZH_OBJ}", 0.85),
    _zh("LIKES", rf"(?<![更不])(?:喜欢|爱吃|爱喝|热爱|爱上了){_ZH_OBJ}", 0.85),
    _zh("PLANS_TO_VISIT", rf"(?:去|到){_zh_obj_before('参观|考察|拜访|旅游|玩|出差')}", 0.85, past="VISITED"),
    _zh(
        "PLANS_TO_VISIT",
        rf"(?:打算|计划|准备|想|要)[^，。！？；]{{0,6}}?(?:去|到){_ZH_OBJ}",
        0.85,
        past="VISITED",
    ),
    _zh("PLANS_TO_VISIT", rf"(?:参观|拜访|考察)了?{_ZH_OBJ}", 0.8, past="VISITED"),
    _zh("VISITED", rf"去过{_ZH_OBJ}", 0.85),
    _zh("PLANS_TO", rf"(?:打算|计划|准备){_ZH_OBJ}", 0.7),
    _zh("GOAL", rf"(?:目标是|想成为|梦想是){_ZH_OBJ}", 0.8),
    _zh(
        "HAS_PET",
        r"养了?(?:一只|一条|两只|只|条)?(?P<obj>猫|狗|小猫|小狗|猫咪|狗狗|兔子|鹦鹉|仓鼠|乌龟)",
        0.85,
    ),
    _zh("HAS_PET", rf"(?:狗|猫|猫咪|狗狗)叫{_ZH_NAME}", 0.85),
    _zh("MARRIED_TO", rf"(?:和|跟){_ZH_NAME_BARE}结婚", 0.9),
    _zh("MARRIED_TO", rf"(?:老公|老婆|妻子|丈夫|爱人|太太)(?:是|叫)?{_ZH_NAME}", 0.9),
    _zh("CHILD_OF", rf"(?:儿子|女儿|孩子)(?:是|叫)?{_ZH_NAME}", 0.9, inverse=True),
    _zh("CHILD_OF", rf"(?:爸爸|妈妈|父亲|母亲)(?:是|叫)?{_ZH_NAME}", 0.9),
    _zh("SIBLING_OF", rf"(?:哥哥|姐姐|弟弟|妹妹)(?:是|叫)?{_ZH_NAME}", 0.9),
    _zh("FRIEND_OF", rf"朋友(?:是|叫)?{_ZH_NAME}", 0.85),
    _zh("BIRTHDAY", rf"生日(?:是|在){_ZH_DATE}"),
    _zh("AGE", r"(?:今年|已经)(?P<obj>\d{1,3}|[一二三四五六七八九十]{1,3})岁"),
    _zh("DEADLINE", rf"(?:截止(?:日期|时间)?(?:是|为|到|在)?|最晚){_ZH_DATE}", 0.85),
    _zh("DEADLINE", rf"{_ZH_DATE}(?:之前|以前|前)(?:交付|提交|完成|交)", 0.85),
    _zh("MEETING_AT", rf"(?:会议|开会|见面|会面)(?:时间)?(?:是|定在|安排在|在){_ZH_DATE}", 0.8),
    _zh("MEETING_AT", rf"{_ZH_DATE}(?:开会|见面|碰头)", 0.8),
    _zh("EMAIL", rf"(?:邮箱|邮件地址|email)(?:是|：|:)\s?{_ZH_OBJ}", require_mention=True),
    _zh("OWNS", rf"买了{_ZH_OBJ}", 0.7),
)

# ── negation and tense ──────────────────────────────────────────────────────────────────

_EN_STOP = re.compile(r"\b(?:no longer|used to|stopped|quit)\b", re.I)
_EN_STOP_AFTER = re.compile(r"^[^,.;!?]*\b(?:anymore|any more|no more)\b", re.I)
_EN_NOT = re.compile(
    r"\b(?:not|never|don't|doesn't|didn't|do not|does not|won't|can't)\s(?:\w+\s){0,2}$", re.I
)
_ZH_STOP_RX = re.compile(r"(?:不再|已经不|再也不|没再)[^，。；]{0,3}$")
_ZH_NOT = re.compile(r"(?:不|没有?|别)[^，。；]{0,3}$")
_ZH_STOP_AFTER = re.compile(r"^[^，。；！？]{0,12}?了")
_EN_PAST = re.compile(
    r"\b(?:last (?:week|month|year|summer|weekend|\w+day)|yesterday|ago|went|visited|was|were)\b", re.I
)
_ZH_PAST = re.compile(r"了|过|昨天|上周|上个月|去年|之前|已经|前天|上次")


def negation(before: str, after: str, lang: Lang) -> Literal["stop", "not"] | None:
    """Return "stop" (no longer / 不再 / 不…了), "not" (plain negation) or None for a cue's clause.

    ``before`` is the clause text left of the object (cue included), ``after`` the object and the
    rest of the sentence.
    """
    if lang == "en":
        if _EN_STOP.search(before[-30:]) or (_EN_NOT.search(before) and _EN_STOP_AFTER.search(after)):
            return "stop"
        return "not" if _EN_NOT.search(before) else None
    if _ZH_STOP_RX.search(before):
        return "stop"
    if _ZH_NOT.search(before):
        return "stop" if _ZH_STOP_AFTER.search(after) else "not"
    return None


def is_past(clause: str, lang: Lang) -> bool:
    """Return True when a clause is marked as past (了/过/昨天, "last week", "went")."""
    return bool((_EN_PAST if lang == "en" else _ZH_PAST).search(clause))
