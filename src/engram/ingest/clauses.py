"""Read one clause of a sentence: its bounds, scope (conditions), object phrase, negation and tense.

Helpers for the builtin extractor (``engram.ingest.builtin``): ``clause_bounds`` and
``clause_at`` (from ``engram.nlp.clauses``: where the clauses of a sentence start and end, and
which one a position is in), ``find_conditions``
("on weekends" → ``{"when": "weekends"}``, "周一、周三" → ``{"when": "周一、周三"}``: the text's
own words), ``trim_object``
(cut an object phrase before trailing clauses and particles), ``split_objects`` ("reading,
writing and hiking" → three objects), ``negation`` ("no longer / 不再" → stop, "not / 不" →
not) and ``is_future`` ("planning to", 打算); the past is read by ``engram.nlp.tense``.
"""

from __future__ import annotations

import re
from typing import Literal

from engram.nlp.clauses import Lang as Lang
from engram.nlp.clauses import clause_at as clause_at
from engram.nlp.clauses import clause_bounds as clause_bounds


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# ── conditions ───────────────────────────────────────────────────────────────────────────

_CN_DAY = r"(?:周|星期|礼拜)[一二三四五六日天]"
_CONDITIONS: tuple[tuple[re.Pattern[str], str | None], ...] = tuple(
    (re.compile(rx, re.I), canonical)
    for rx, canonical in (
        (r"\b(?:on|at|over|during) (?:the )?weekends?\b|\bweekends\b", "weekends"),
        (r"\b(?:on )?weekdays\b|\bduring the week\b", "weekdays"),
        (r"\bthe rest of the week\b", "the rest of the week"),
        (r"\bin the mornings?\b|\bmornings\b", "mornings"),
        (r"\bin the evenings?\b|\bat night\b|\bevenings\b", "evenings"),
        (r"\bin (?:the )?summer\b", "summer"),
        (r"\bin (?:the )?winter\b", "winter"),
        (r"\bwhen (?:I'm |I am )?travel(?:l)?ing\b|\bon business trips?\b", "travelling"),
        (r"\bwhen it (?:rains|snows|is raining|is cold|is hot)\b", None),
        (r"\bat work\b", "at work"),
        (r"\bat home\b", "at home"),
        (
            r"\bon ((?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)"
            r"(?:(?:,\s*| and | or )(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays))*)\b",
            None,
        ),
        (rf"每?{_CN_DAY}(?:[、和跟及到至]{_CN_DAY}|[、和跟及到至][一二三四五六日天])+|每{_CN_DAY}", None),
        (
            r"每天早上|每天晚上|每天|每周末|每个周末|每年\w{0,2}?(?:春节|国庆|暑假|寒假)|周末|工作日|平时|平常|"
            r"其他时间|其余时间|其他日子|早上|早晨|晚上|夏天|冬天|上班的?时候|下雨的?时候|下雨天|"
            r"出差的?时候|在家的?时候|在家里?|在公司",
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


# ── object phrases ───────────────────────────────────────────────────────────────────────

_GERUND_PRONOUN = r"[a-z]{3,}ing\s(?:it|them|him|me|us|you)\b(?!')"
"""A verb whose object is a pronoun ("making it a better place"): what it acts on was said elsewhere."""
_EN_CLAUSE_CUT = re.compile(
    r"\s(?:and|then)\s(?:then\s)?(?:[a-z]+ed|got|went|made|took|sold|threw|gave|put|left|sent|told|"
    r"bought|found|lost|kept|set|ran|began|became)\s(?:it|them|him|her|that|this|these|those|my|our|the|a|an|"
    r"up|out|off|away|back|over|to|everything|everyone|all|us)\b.*$"  # "Slack and uninstalled it": a second
    # verb phrase ("Trello and moved everything to Linear")
    r"|\swith (?:my|our|his|her|their)\b.*$"  # "painting sunsets with my kids": company, not the thing
    r"|\sand\s(?:keeping|staying|getting)\s(?:fit|busy|active|healthy|in shape)\b.*$"  # "and keeping fit"
    r"|\sand\s(?:started|began|now|then|is|am|are)\s[a-z]+ing\b.*$"  # "soda and started walking daily"
    r"|\s(?:and|then)\s(?:joining|starting|moving|heading|going)\b.*$"  # "the bank and joining a startup …"
    r"|\sand\s(?:the|our|my|their|his|her)\s(?:[\w'-]+\s){0,3}?(?:is|are|was|were|will|has|have|moves|goes|starts|"
    r"gets|uses|switches)\b.*$"  # "Jira and the whole eng org moves to Linear": a clause of its own
    r"|\s[-–—]\s.*$|\s(?:and (?:it|I|we|he|she|they|then)|but|because|so|since|when|while|where|which|who|"
    r"whom|whose|though|although|if|than|until|unless|whenever|cause|'cause|or so)\b.*$"
    r"|,\s(?:the|my|our|his|her|their|its|this|that|these|those)\s(?:[\w'-]+\s){0,2}?(?:is|are|was|were|"
    r"looks?|seems?|feels?)\b.*$"  # "sci-fi movies, the effects are so cool": a clause of its own
    r"|,\s(?-i:[a-z]+ing)\s(?:(?!and\b|or\b|that\b|which\b|when\b|if\b)[\w'-]+\s){0,3}?"
    r"(?:is|are|was|were|would|will|could|can|might|must)\b.*$"
    # "Under Armour, working with them would be cool": a gerund opening a clause of its own
    rf"|\s(?:and|or)\s{_GERUND_PRONOUN}.*$",  # "and making it…"
    re.I,
)
_DURATION = (
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|several|many) (?:years?|months?|"
    r"weeks?|days?|hours?)"
)
_EN_TIME_CUT = re.compile(
    r"\s(?:now|right now|these days|anymore|any more|too|as well|lately|recently|every|each|"
    r"(?:next|last|this|that) (?:week|month|year|quarter|weekend|morning|evening|afternoon|night|summer|fall|"
    r"autumn|winter|spring|time|season|semester|friday|saturday|sunday|monday|tuesday|wednesday|thursday)|"
    r"tomorrow|yesterday|today|tonight|ago|again|already|later|soon|someday|sometime|once|twice|a lot|"
    r"all the time|so much|very much|not|a few (?:years|months|weeks|days)|a while|at the moment|at times|"
    r"sometimes|often|together|lol|haha|btw|tbh|fyi|imo|lmao|rn|honestly|frankly|either|instead|anyway|"
    r"completely|entirely|altogether|cold turkey|"
    r"for (?:a|the) (?:while|first time|last time)|"
    rf"(?:for|over) {_DURATION}|{_DURATION} ago|"
    r"for (?:years|months|weeks|ages|fun|now)|in (?:the )?(?:morning|evening|afternoon)s?|on (?:the )"
    r"?weekends?|"
    r"every day|each day|all day|more and more|back (?:in|on|at|when|then)|"
    r"on (?:new year['’]s|christmas|easter|thanksgiving|halloween|my birthday|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)|"
    r"(?:in|since|until|by) (?-i:January|February|March|April|May|June|July|August|September|October|"
    r"November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b)\b.*$",
    re.I,
)
_EN_VERB_CUT = re.compile(
    r"\s(?:is|are|was|were|has|have|had|will|would|can|could|should|it's|that's|there's|I|it|they|he|she|we|"
    r"you|I'm|I've|I'd|makes?|made|helps?|brings?|gets?|keeps?)\b.*$",
    re.I,
)
_EN_DANGLING_AND = re.compile(r"\s+(?:and|or|but|so)$", re.I)
_EN_PREP_CUT = re.compile(
    r"\s(?:with|for|on|at|in|to|from|by|during|after|before|as|like|about|of|into|over|rather than|instead "
    r"of)\b.*$",
    re.I,
)
_EN_GERUND_PRONOUN = re.compile(_GERUND_PRONOUN, re.I)
_EN_LEAD = re.compile(
    r"^(?:(?:just|really|also|still|totally|actually|always|even|simply|mostly|usually|sometimes|often|"
    r"the|my|our|a|an|some|any|his|her|their|that|this|these|those)\s+)+",
    re.I,
)
_EN_DANGLING = re.compile(
    r"\s(?:it|them|him|her|this|that|these|those|me|you|us|one|there|the|a|an|my|our|your|and|or|of|about|to|"
    r"for|"
    r"with|on|at|in|up|out)$",
    re.I,
)
_EN_GENERIC = re.compile(
    r"(?:something|anything|everything|stuff|things?|(?:a |my |new |the )?projects?|it all|lots?|a lot|more|"
    r"(?:a )?tons?|loads|heaps|so much|"
    r"one|"
    r"some|work|job|time|fun|way|ways|place|part|idea|stuff like that|not\b.*|nothing\b.*|though|anyway|yet|"
    r"either|then)",
    re.I,
)
"""Objects that name nothing by themselves ("working on something exciting", "not being")."""
_ZH_CUT = re.compile(
    r"(?:周末|工作日|平时|早上|晚上|现在|最近|一直|还是|已经|暂时|的时候|"
    r"(?<![即及实同临暂按准随小当定计适限分工历耗届顿])时(?![间尚代装光刻期候常钟速效区差])|了|吧|呢|啊|"
    r"(?:报价|预算|金额|合同额|单价)\d).*$"
)
"""Where an object ends: a time word or particle after it (运动的时候…, 吃饭时), not 时 inside a word
(即时设计), or a figure said of it (跟进的苏州博远电子报价38万: the customer, whose price it is)."""
_NON_OBJECT = re.compile(
    rf"{_DURATION}\b|(?:[\d一二两三四五六七八九十几半]+多?个?(?:年|月|天|周|星期|礼拜|小时)多?)$|"
    r"(?:every|each|all|so|very|too|a lot|lots|much|more|it|that|this|them|you|doing|being|having|getting|"
    r"what|how|when|there|here|for|to|with|of|about|in|on(?! hold)|at|out|up|and|but|or|as|because|was|is|"
    r"are|were|be|been|makes|made|means|the same|one|yesterday|today|tomorrow|last|next|recently|lately|"
    r"a few|a couple|I|we|your|his|her|their|its|myself|yourself|though|anyway|yet|either|then|lot|into|onto|"
    r"over|through|from|off|away|back|around|especially|particularly|mainly|mostly)\b"
    r"|[新旧老大小好坏多少]$"  # 在用新的…: no object said
    # a time alone: 四月份 of 四月份交给小刘了
    r"|(?:[\d一二三四五六七八九十]{1,2}月份?|[上下]半年|年[底初]|月[底初]|[上下本这]周|[上下]个月)$",
    re.I,
)
_PRONOUNS = {"it", "that", "this", "them", "these", "those", "you", "him", "her", "me", "us", "one",
             "it all", "everything", "something", "anything", "what", "doing", "you too", "things",
             "stuff", "both", "它", "他", "她", "这个", "那个", "这些", "那些", "你", "你们", "他们",
             "她们", "这", "那", "什么", "东西"}  # fmt: skip


_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]+")
"""Emoji and pictographs: no part of what is said ("受不了😂")."""


_ZH_DAY = r"[\d一二三四五六七八九十]+[日号]"
_ZH_WHEN = rf"(?:今天|明天|下周|下个月|本周|这周|即日|[一二三四五六七八九十\d]+月(?:{_ZH_DAY})?)"
_ZH_FROM_WHEN = re.compile(rf"(?:从|自)?{_ZH_WHEN}起$|^(?:从|自){_ZH_WHEN}(?:起|开始)")
"""When something starts, said with it (西南区渠道今天起, 从6月起华中区): not part of what starts."""
_ZH_SIDE_OF = re.compile(r"(?<=[\u4e00-\u9fff]{2})(?:这边|那边|那片|这块|那块)$")
"""A region or business said as "its side" (华南这边, 合肥那片): the region or business itself."""


def trim_object(text: str, lang: Lang, *, verb_phrase: bool | None = None) -> str:
    """Return an object phrase cut before trailing clauses and particles; "" when nothing is left.

    English noun phrases are also cut before a preposition ("the animal shelter in Cambridge" →
    "animal shelter"); verb phrases and gerunds keep theirs ("working with trans people"):
    ``verb_phrase`` None decides by the first word (-ing). A phrase that only points at something
    said elsewhere ("it", "holding them", "get it") is "".
    """
    text = _EMOJI.sub("", text).strip(" \t'\"“”‘’")
    if lang == "en" and _EN_GERUND_PRONOUN.match(text):
        return ""  # "making it a better place": what is made was said elsewhere
    if lang == "en":
        text = _EN_TIME_CUT.sub("", _EN_CLAUSE_CUT.sub("", text))
        if (
            _EN_DANGLING.search(" " + text.rstrip(" !?.,"))
            and len(text.split()) <= 3
            and not text[:1].isupper()
        ):
            return ""  # "watching it", "tell you" (not "Leeds with us": a name, then with whom)
        text = _EN_DANGLING_AND.sub("", _EN_VERB_CUT.sub("", text))  # "Opera PMS and (are unhappy…)"
        text = _EN_LEAD.sub("", text.strip(" -'\"“”"))
        first = text.split(" ", 1)[0].lower()
        if not (verb_phrase if verb_phrase is not None else first.endswith("ing") and len(first) > 4):
            text = _EN_PREP_CUT.sub("", text)
        text = re.sub(r"[!?.…,]+$", "", text).strip()
        text = re.sub(r"\s(?:before|after|until|once)$", "", text)  # "a sub-4 marathon before (I'm 40)"
        if (_EN_DANGLING.search(" " + text) and len(text.split()) <= 3) or _EN_GENERIC.fullmatch(text):
            return ""
    else:
        text = _ZH_CUT.sub("", text)
        text = re.sub(r"^(?:了|的|一个|一家|一只|一位|一名|一辆|一台|一部|个|位|名)", "", text)
        text = re.sub(
            r"^(?:明年|今年|去年|下个月|下周|明天|后天|今天|周末|年底|年初|月底|马上|尽快|春天|夏天|秋天|冬天|暑假|寒假)+"
            + ("(?:去(?=[考读学找买做参报上练当]))?" if verb_phrase else "(?:去)?"),
            "",
            text,
        )
        text = re.sub(r"^的", "", text)  # 今年的广州建材展: the time cut, its 的 too
        text = re.sub(r"(?:了|的|呢|吧|啊|哦|呀|嘛|啦)+$", "", text)
        text = _ZH_SIDE_OF.sub(
            "", _ZH_FROM_WHEN.sub("", text)
        )  # 西南区渠道今天起 (交给小柯): what, not from when
        if not verb_phrase:
            # 喜欢吃榴莲: what is liked is 榴莲; 吃素 is a diet (素 alone names nothing)
            text = re.sub(r"^[吃喝](?=[\u4e00-\u9fff])(?!素)", "", text)
        if re.match(r"(?:你|您|他|她|它|这|那)", text):
            return ""  # 你发的那张照片, 这个: what it is was said elsewhere
        if re.match(r"后(?!端|台|勤|期|续|厨|备)|别(?:的|家)?$", text):
            return ""  # 下单后库存不扣减, 接手后发现…: after the verb, no object; 换成别的平台: none named
    if not text or text.lower() in _PRONOUNS or _NON_OBJECT.fullmatch(text) or _NON_OBJECT.match(text):
        return ""
    return text


_BARE_VERBS = _words(
    "connect share make help get keep try see have go do find learn take give meet build "
    "create explore enjoy spread grow stay show bring put let feel know think say tell use work "
    "play start become come look want need love like admire appreciate remember reach push support "
    "did went made got took saw had ran climbed hiked walked finished booked grew"
)
"""Verbs that begin a new verb phrase after a list's comma, bare or past ("I love hiking, did the Lycian
Way")."""
_GERUND = re.compile(r"\s*(?:(?:just|also|really)\s)?[a-z]{2,}ing\b", re.I)
_EN_LIST = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+", re.I)
_ZH_LIST = re.compile(r"[、和跟及与或]|还有")


def split_objects(text: str, lang: Lang) -> list[tuple[int, int]]:
    """Return the ``(start, end)`` offsets of the coordinated items of an object phrase.

    "reading, writing and hiking" → three spans; "fantasy and sci-fi movies" → two spans, the
    shared head noun being added by the caller (``shared_head``).
    """
    regex = _EN_LIST if lang == "en" else _ZH_LIST
    spans: list[tuple[int, int]] = []
    start = 0
    for match in regex.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    spans = [(s, e) for s, e in spans if text[s:e].strip()]
    for index, (s, e) in enumerate(spans[1:], 1):
        if lang == "en" and text[s:e].split()[0].lower() in _BARE_VERBS:
            spans = spans[:index]  # "my love of gaming and connect with others": a new verb phrase
            break
    first = text[spans[0][0] : spans[0][1]] if spans else ""
    if lang == "en" and _GERUND.match(first) and len(first.split()) > 1:
        merged = [spans[0]]  # "going on trips with friends and family, hiking": "family" is no new item
        for s, e in spans[1:]:
            if _GERUND.match(text[s:e]):
                merged.append((s, e))
            else:
                merged[-1] = (merged[-1][0], e)
        spans = merged
    return spans


def shared_head(items: list[str]) -> list[str]:
    """Return the items with the last item's head noun given to bare modifiers before it.

    ["fantasy", "sci-fi movies"] → ["fantasy movies", "sci-fi movies"]; items of two words or
    more, or gerunds ("reading"), keep their own words.
    """
    if len(items) < 2:
        return items
    words = items[-1].split()
    if len(words) < 2 or items[-1].endswith("ing"):
        return items
    head = words[-1]
    out = []
    for item in items[:-1]:
        single = len(item.split()) == 1 and not item.endswith("ing") and item[:1].islower()
        out.append(f"{item} {head}" if single and head[:1].islower() else item)
    return [*out, items[-1]]


# ── negation and tense ───────────────────────────────────────────────────────────────────

_EN_STOP = re.compile(r"\b(?:no longer|used to|stop|stopped|quit|gave up|not \w+ing anymore)\b", re.I)
_EN_STOP_AFTER = re.compile(r"^[^,.;!?]*\b(?:anymore|any more|no more)\b", re.I)
_EN_NOT = re.compile(
    r"\b(?:not|never|don't|doesn't|didn't|do not|does not|won't|can't|cannot|isn't|aren't|wasn't|"
    r"haven't|hasn't|dont|doesnt|didnt)\s(?:\w+\s){0,2}$|\bno\s$|"
    r"(?:\bnot|n't|\bnever)\s(?:gonna|going(?: back)? to|be able to|able to)\s(?:\w+\s){0,3}$|"
    r"\bunable to\s(?:\w+\s){0,2}$",
    re.I,
)
# 之前负责的老陈调去…, 原来的黄总调去深圳分公司: a past word before 负责的/对接的, or before someone
# transferred, describes a former holder, not the clause's verb after the holder (原来负责的华南渠道,
# 原来的项目经理, 以前用的是钉钉, 以前养的猫: they do stop)
_ZH_STOP_RX = re.compile(
    r"(?:不再|已经不|再也不|没再)[^，。；]{0,3}$"
    r"|(?:以前|原来|过去|曾经|之前|原先|早先)(?!(?:负责|对接|跟|管|带)[^，。；]{0,6}?的(?!是)[^，。；]|的[^，。；]{1,4}?(?:调|转|升)|"
    r"的[^，。；]{1,10}?(?:升为|升任|晋升|调去|调到|转岗|离职|辞职|跳槽))"
)
_ZH_NOT = re.compile(
    r"不(?:打算|准备|计划|想|会|要)[^，。；不]{0,3}$|"  # 不打算参加今年的广交会了
    r"不(?:怎么|太|大|是很|是太|是特别)[^，。；不]{0,4}$|"  # 不怎么喜欢吃甜的: little is not at all
    r"(?:(?<!雷打)不(?!错|少|仅|过|断|停|管|久|同|然|但|如|论|只)|没有?(?!想到|多久|事)|(?<![特分区级类派告识辨个性差])别|未)"
    r"[^，。；不]{0,3}$"
)
_ZH_STOP_AFTER = re.compile(r"^[^，。；！？]{0,12}?了")


# "X is not 50k, it is 80k", 预算不是50万，是80万: the value denied is corrected in the same breath.
# Only between like values (numbers, capitalised names, short Chinese nouns), so that "不是很喜欢，是因为…"
# or "not sure, but…" are left alone.
_EN_CORRECTED = re.compile(
    r"\b(?P<verb>is|was|are|were)(?:\s+not|n't)\s+"
    r"(?:(?P<number>[$€£]?\d(?:[\d,.]*\d)?(?:\s?[A-Za-z%]{1,10})?)"
    r"|(?:(?:on|in|at)\s)?[A-Z][\w-]*(?:\s[A-Z][\w-]*){0,3})"
    r"(?:\s*,\s*(?:it(?:'s|\s+is|\s+was)|but(?:\s+rather)?|rather)|\s+but(?:\s+rather)?)\s+"
    r"(?=(?(number)[$€£]?\d|(?:(?:on|in|at)\s)?(?!I\b)[A-Z]))"
)
_ZH_CORRECTED = re.compile(
    r"(?:并?不是|并非)\s*(?:(?P<number>\d[^，,。；！？]{0,15}?)"
    r"|(?![很太挺特非那这我你他她它])(?:(?![不没])[\u4e00-\u9fff]){1,8}?)"
    r"\s*[，,]?\s*(?:而是|其实是|应该是|最后是|实际是|应为|是)\s*(?!因为|为了|说|在|想|要|不|没|我|他|她|你)"
    r"(?=(?(number)\d|[\u4e00-\u9fff]))"
)


_EN_DENIED = re.compile(
    r"\b(?:not|isn't|wasn't|aren't|weren't|never)\s+(?:(?:on|in|at|by)\s+)?$|"
    r"\bI\s+(?:said|wrote|mentioned|told you|put down)\b",  # "earlier I said it was 1,200": retold
    re.I,
)
_ZH_DENIED = re.compile(
    r"(?:不是|并非|并不是)\s*(?:在\s*)?$|我(?:之前|刚才|上次|昨天)?(?:说|写)(?:的|了|过)?"
)


def denied(before: str, lang: Lang) -> bool:
    """Return True when a value right after ``before`` is denied: "the budget is not 50k", 不是50万
    (its correction, if any, was read by ``corrected``), or retold as said before ("earlier I said the
    order was 1,200", 我之前说的是300套): no fact, unlike a bound (不超过50万)."""
    return bool((_EN_DENIED if lang == "en" else _ZH_DENIED).search(before))


_EN_NOT_AFTER = re.compile(
    r"(?<=\d)(?P<unit>\s?[A-Za-z%]{1,10})?\s*,?\s+not\s+[$€£]?\d(?:[\d,.]*\d)?(?![.,]?\d)(?:\s?[A-Za-z%]{1,10})?"
    r"(?=\s*(?:[.,;!)—–]|$))"  # the whole denied number ("$16,200, not $14,500 — …", not "$14")
)
_ZH_NOT_AFTER = re.compile(
    r"(?<=[\d万千百元块台套个件份箱张部支辆把袋吨瓶盒包桶双片根颗%％])(?P<unit>)\s*[，,]\s*(?:而?不是|并非)\s*[$¥￥]?\d(?:[\d,.]*\d)?[^，,。；！？\d]{0,3}(?=[，,。；！？]|$)"
)
"""A number then the one it replaces, denied: "95 seats not 85", "need 50 seats, not 40", 返点15%，不是18%."""


_ZH_SPACED_NUMBER = re.compile(
    r"(?<=\d)[ \t\u3000]+(?=[\u4e00-\u9fff%％])|(?<=[\u4e00-\u9fff])[ \t\u3000]+(?=\d)"
)
"""A space Chinese typesetting puts between a number and the characters around it (合同 2 月 28 日到期, 单价
0.32 元): the number's unit and date words are read only joined to it (2月28日, 0.32元)."""


def typeset(sentence: str, lang: Lang) -> str:
    """Return a Chinese ``sentence`` with the spaces around its numbers dropped (``_ZH_SPACED_NUMBER``)."""
    return _ZH_SPACED_NUMBER.sub("", sentence) if lang == "zh" else sentence


def corrected(sentence: str, lang: Lang) -> str:
    """Return ``sentence`` with a denied value dropped in favour of its correction: "the budget is not
    50k, it is 80k" → "the budget is 80k", 预算不是50万，是80万 → 预算是80万, "95 seats not 85" → "95
    seats", 单价应为2,530元，不是2,350元 → 单价应为2,530元 (the denied value is no fact)."""
    if lang == "en":
        return _EN_NOT_AFTER.sub(
            lambda m: m["unit"] or "", _EN_CORRECTED.sub(lambda m: m["verb"] + " ", sentence)
        )
    return _ZH_NOT_AFTER.sub("", _ZH_CORRECTED.sub("是", sentence))


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
    if _ZH_NOT.search(before) or _ZH_NOT_BEING.search(before):
        return "stop" if _ZH_STOP_AFTER.search(after) else "not"
    return None


_ZH_NOT_BEING = re.compile(r"不再?是[^，。；！？是]{0,12}$")
"""李明已经不是华为的销售经理了: the copula denied, however far before the object (not only 3 characters)."""


_EN_NEVER = re.compile(
    r"\bnever (?:did|have|had|used|been|was|were)\b(?! (?:really )?a (?:big |huge )?fan of)|\bnot ever\b",
    re.I,
)
_ZH_NEVER = re.compile(r"从来没|从没|从未|一直没|压根没|根本没|没有?(?:用|使用)(?![^，。；！？]*了)")
"""Never, or did not use (没用Seata, but 没用钉钉了 is a stop)."""


def never_began(sentence: str, lang: Lang) -> bool:
    """Return True when the sentence says something never happened ("and never did", 从来没用过, 没用
    Seata): a "not" there is no stop, which would say it was once so."""
    return bool((_EN_NEVER if lang == "en" else _ZH_NEVER).search(sentence))


_EN_FUTURE = re.compile(
    r"\b(?:will|'ll|gonna|going to|planning|plan to|plans to|want to|wanna|hope to|hoping to|intend|"
    r"signed up to|signing up to|registered to|"
    r"thinking (?:about|of)|considering|about to|can't wait to|looking forward to|next (?:week|month|year|"
    r"weekend|summer|spring|fall|winter)|tomorrow|soon|upcoming|coming up)\b",
    re.I,
)
_ZH_FUTURE = re.compile(r"打算|计划|准备|想要|将要|将会|下周|下个月|明年|明天|后天|即将|马上|要去|要回")


def is_future(text: str, lang: Lang) -> bool:
    """Return True when text says something is still to come ("planning to", "next month", 打算)."""
    return bool((_EN_FUTURE if lang == "en" else _ZH_FUTURE).search(text))


_EN_HEDGE = re.compile(
    r"\b(?:might|(?-i:may)|maybe|perhaps|probably|possibly|apparently|supposedly|presumably|i think|i guess|"
    r"i suppose|i believe|i heard|seems? (?:to|like)|not sure|could be|rumou?red)\b",
    re.I,
)
_ZH_HEDGE = re.compile(
    r"(?<!不)可能|好像|也许|似乎|或许|说不定|貌似|听说|据说|估计|大概(?![\d一二三四五六七八九十两几百千万])"
)


def hedged(clause: str, lang: Lang) -> bool:
    """Return True when a clause says its statement is a guess or hearsay ("might be", 可能, 听说)."""
    return bool((_EN_HEDGE if lang == "en" else _ZH_HEDGE).search(clause))


_EN_YES_NO = re.compile(
    r"^\s*(?:do|does|did|is|are|was|were|can|could|will|would|has|have|had|should|shall|may|might|must|am)"
    r"(?:n't)?\b"
    # "Did you know / Can you believe / Do you remember I…?", "Is it weird that I…?", "Did I tell you…?"
    # wrap a statement in a question: it still tells.
    r"(?!\s+you\b(?:\s+\w+)?\s+(?:know|hear|heard|remember|believe|see|reali[sz]e|imagine|guess)\b)"
    r"(?!\s+it\s+\w+\s+that\b)(?!\s+I\s+(?:tell|mention|say)\b)[^?]*\?\s*$",
    re.I,
)
_ZH_YES_NO = re.compile(
    r"^(?![^，,？?]*你[^，,？?]{0,2}(?:知道|听说|猜|记得|相信|信|想到|敢信))(?![^，,？?]*我[^，,？?]{0,3}(?:说过|提过|讲过))"
    r"[^，,；;？?]*(?:吗|(?:是不是|有没有|能不能|会不会|要不要|可不可以)[^，,？?]*)?[？?]\s*$"
)
"""One clause asking, with 吗/是不是/有没有 or by its question mark alone (会议改到周一？): "我在华为上班，
对吗？" states before it asks; 你还记得我在华为上班吗？ tells."""


def asks(sentence: str, lang: Lang) -> bool:
    """Return True when a sentence is a yes/no question ("Does Tom work at Acme?", 赵强在华为工作吗？):
    it asks whether its statement holds and states nothing. "Did you know I…?" and 你知道…吗 tell."""
    return bool((_EN_YES_NO if lang == "en" else _ZH_YES_NO).match(sentence))
