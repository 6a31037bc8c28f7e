"""Facts whose subject or object is a piece of the sentence, not a thing: refused once the reading is done.

Patterns cut a subject or an object by position, and some cuts land on words that name nothing:
a bracketed header (【CRM跟进】今天上午拜访), a measure (一口都不喝了), a pronoun with its verb
(拜访一下他们的…), a relative said as the one who gave something up (我爸跑了两周就放弃了), a version
(换成新版), a time waited for (等女儿高考完), something being learnt (在学做烘焙), an adverb after a verb
("signed personally", "cancelled altogether"), a request ("pls don't"), a currency code ("CZK 380,000/year"),
refunds or invoices given a price. The checks read the finished fact, whatever pattern made it, so a new
pattern cannot bring such a fact back.
"""

from __future__ import annotations

import re

from engram.ingest.employment import REGION
from engram.ingest.frames import EN_ROLE_RX, ZH_ROLE_RX
from engram.ingest.reading import Message
from engram.ingest.relatives import KIN_ZH
from engram.models.graph import FactIn
from engram.nlp.amounts import CURRENCY_CODES

_PIECE = re.compile(
    r"[【】]|^(?:一口|一次|一点|一些)|^一下(?:他们|她们|$)|^(?:新版|旧版|新版本|旧版本)$|^[\W_]+$|[（(][^）)]*$|"
    r"^(?:原订|原定|原来下|原来订)$|^(?:通过|反映|反馈|就)|^[—–]\s|^全家|^官网咨询|^(?:TB|GB|MB|kg)$|(?<=[\u4e00-\u9fff])(?:已|暂|起移)$|"
    r"^(?:办|啥|完博|异地)$|^(?:对方|我方)|\s(?:approx|approximately|roughly|circa)$|^(?:个|些|说是|说)(?=[\u4e00-\u9fff])|"
    r"^(?:客户信息|客户资料|基本信息)|(?:哈哈+|呵呵|嘿嘿|嘻嘻)$|一口$|^(?:In|At|On|From) (?=[A-Z])|"
    r"^一[杯口点次个根支瓶块碗]$|^(?:原来说|行政说|领导说)|^[子位过起]$|^基本$|^调?去(?:总部|分公司|总公司)|"
    r"^\d{1,2}/\d{1,2}$|^(?:所以|因为|但是|然后|而且|不过|可是|于是)$|^底(?=合同|[的前])|^(?:以前|之前|时候|城市|地方)$|^在\d+$|"
    r"(?<=[\u4e00-\u9fff]{2})最终$|^地点|^\d{1,2}月\d{1,2}[日号]前?$"
)
"""In any name: a header's bracket, a measure, a version, punctuation alone or an unclosed bracket
(三个客户（永辉超市), a word before the thing (原订, 通过官网咨询, 反映APP, 不喝就没精神), a unit (每TB), the
other side said as such (对方技术, 我方), a figure's hedge ("expansion approx"), a measure alone
(一杯都不喝了, 基本不喝了), who said it (原来说的500把, 行政说今年), a character of a word (订了位子), a move
(调去总部), a note's date (跟进 8/5：…), the end of 年底 (去年底合同), a time or a kind of place alone (以前,
去了8个城市), a version cut at its dot (计划在2.4.1版本修复: 在2), an adverb or a label kept (中科电气最终,
地点公司), a date alone (3月8日前)."""
_TIME_ZONE = re.compile(
    r"(?-i:(?:CET|CEST|EET|EEST|WET|WEST|GMT|UTC|BST|IST|PST|PDT|MST|MDT|CST|CDT|EST|EDT|AEST|AEDT|JST|KST|SGT|HKT)"
    r"(?:[+-]\d{1,2})?)"
)
"""A time zone's abbreviation (CET, PST, GMT+8): when, never who or what."""
_WAITED_FOR = re.compile(r"^等[^，。]{1,12}(?:完|结束|以后|之后)$")
_A_CLASS = re.compile(r"(?<!值)(?:[^\s]{1,4}班|课程?|群)$")
_LEARNING = re.compile(r"^学(?:做|习)?")
_EN_ADVERB = re.compile(r"(?i:[a-z]+ly|altogether|anyway|again|already|too|tho|though)")
_EN_REQUEST = re.compile(r"(?i:.*\b(?:don't|do not|pls|please|send recs)\b.*)")
_OPENER = re.compile(
    r"Just|Finally|Also|Today|Yesterday|Officially|Still|Already|Now|So|SIGNED|DONE|CLOSED|LIVE|UPDATE|URGENT|FYI|"
    r"Price|Pricing|Budget|Total|Cost|Fee|First|Second|Another|Next|Last|Additional|Extra"
)
"""A sentence's first word, or a word shouted, read as a subject ("Just signed Orbis Freight!!!", "Brightwell
renewal is SIGNED 🎉 3 yrs, 250 seats at $38/seat", "Price will be $1,150/month")."""
_INTERJECTION = re.compile(r"(?i:sorry|lol|haha+|thanks|thx|tbh|honestly|ok|okay|\w+ right)")
"""A word said to the listener, read as a thing ("I don't like cats, sorry", "allergic to a fish right")."""
_A_VERB_ALONE = re.compile(r"[吃喝玩看听]")
_ZH_NOT_THE_THING = {
    "LIKES": _A_VERB_ALONE,
    "DISLIKES": _A_VERB_ALONE,
    "PLANS_TO": re.compile(r"材料|资料|东西|行李|文件"),
}
"""Objects that are no thing of their predicate: a verb alone liked (被她带得爱吃了), what a step needs
planned (签证在准备材料了)."""
_NO_TOOL = re.compile(r"报告|情况|说明|手册|指南|记录|时长")
"""A noun after 使用 (使用报告, 使用情况): what is reported about use, not a tool used."""
_TAKES_THEM = re.compile(r"(?:带|陪|给|送|请)(?:他们|她们|她|他)")
_A_RELATIVE = re.compile(r"的(?:[\u4e00-\u9fff]{1,3})$|['’]s \w+$")
"""A relative named by the writer's name (王磊的儿子, "Zoe's mom")."""
_KIN_LINKS = frozenset({"MARRIED_TO", "PARTNER_OF", "FRIEND_OF", "SIBLING_OF", "CHILD_OF"})
_NATIONALITY = re.compile(
    r"(?i:American|British|English|Scottish|Irish|Welsh|French|German|Italian|Spanish|Portuguese|Dutch|Czech|"
    r"Polish|Swedish|Norwegian|Danish|Finnish|Greek|Turkish|Russian|Ukrainian|Chinese|Japanese|Korean|Indian|"
    r"Mexican|Brazilian|Canadian|Australian|Nigerian|Kenyan|Egyptian|Iranian|Israeli|Swiss|Austrian|Belgian|"
    r"Hungarian|Romanian|Vietnamese|Thai|Filipino|Indonesian|Pakistani|Colombian|Argentinian|Chilean|Peruvian)"
)
"""What a relative is said to be when it is a nationality ("My husband is Czech")."""
_NO_DUTY = re.compile(r"统一|全部|一起|暂时|都|全权")
_GENERIC_EVENT = re.compile(r"(?i:(?:a |the )?(?:meeting|call|class|session))")
"""An event attended named only by what it is ("I was in a meeting"): nothing durable."""
_A_DISCOUNT = re.compile(r"(?:\d+(?:\.\d)?|[一二三四五六七八九])折|\d+%\s?off", re.I)
_A_HEADER = re.compile(r"CRM|HR|IT|OA|BI|ERP")
_NO_ROLE = re.compile(r"\((?i:model|version|edition|size|colou?r)\s")
"""What a product comes in, said in brackets, is no role ("40 standing desks (model Atlas Pro)")."""
_NO_PRICE_HOLDER = re.compile(r"(?i:refunds?|credits?|invoices?|payments?|charges?)")
"""What money was given back or billed for has no price ("Refunds issued for all 14 ($3,212 total)")."""
_THINGS_DONE = frozenset(
    {"USES", "STOPPED_USING", "LIKES", "DISLIKES", "SIGNED", "CANCELLED", "ORDERED", "STUDIES", "PLANS_TO"}
)
_NO_THING = re.compile(
    r"(?i:(?:the )?\w+(?:er|more) the \w+(?:er|more)?|(?:go|come|get|move) back|(?:do|try) (?:it|that|this)|"
    r"postponed|cancell?ed|rescheduled|went|seen|been|saw|did|\d+ times)$|(?:回去|回来)"
)
"""No thing liked, planned, studied or a state: "the hotter the better", "planning to go back", "his 1:1s
are postponed", 过年一般回去一周, 刚从英国留学回来; a verb or a count after a thing liked ("I love jazz,
went to Ronnie Scott's 3 times", "seen Spirited Away like 20 times")."""


def drop_fragments(message: Message) -> None:
    """Remove from ``message`` the facts ``fragment`` refuses, and the entities named by the pieces."""
    dropped = [fact for fact in message.facts.values() if fragment(fact)]
    if dropped:
        pieces = {name for fact in dropped for name in (fact.subject, fact.object) if name and _a_piece(name)}
        message.drop_facts(dropped, pieces)


def _a_piece(name: str) -> bool:
    return (
        any(rx.fullmatch(name) for rx in (_EN_ADVERB, _NO_PRICE_HOLDER, _OPENER))
        or bool(_PIECE.search(name))
        or (name.upper() in CURRENCY_CODES)
    )


def fragment(fact: FactIn) -> bool:
    """Return True when ``fact``'s subject or object is a piece of its sentence (the module docstring)."""
    names = [fact.subject] + [n for n in (fact.object, fact.value) if isinstance(n, str)]
    if any(_PIECE.search(name) for name in names) or fact.subject.upper() in CURRENCY_CODES:
        return True
    if any(_TIME_ZONE.fullmatch(name) for name in names):
        return True  # "moved from Thursday to Friday 2pm CET": a clock, no town nor tool
    if _NATIONALITY.fullmatch(fact.subject):
        return True  # "My wife is Brazilian, from Recife": what someone is, nobody's name
    if _OPENER.fullmatch(fact.subject) or fact.subject in (fact.object, fact.value):
        return True  # "Just signed Orbis Freight", 顺丰 STOPPED_USING 顺丰
    said = fact.object if fact.object is not None else fact.value
    if isinstance(said, str) and len(fact.subject) > 1 and fact.subject in said[1:]:
        return True  # 荣耀 STOPPED_USING 王者荣耀: a piece of its own object (李强的老公 opens on 李强: kept)
    if fact.predicate in ("DEADLINE", "BUDGET", "PLANS_TO") and _A_HEADER.fullmatch(fact.subject):
        return True  # CRM跟进：…希望8月前上线, 跟…的HR总监通了电话…下周三前发: a header or a unit, no holder
    if fact.predicate == "REPORTS_TO" and str(fact.object or "").startswith("我"):
        return True  # 向我直接汇报: the writer, cut with the adverb after
    if fact.predicate == "PLANS_TO" and isinstance(said, str) and said.startswith("我") and "的" not in said:
        return True  # 准备明年我搬过去: the writer with a verb (not 我大学闺蜜的婚礼)
    if (fact.predicate in ("PRICE", "BUDGET") and _NO_PRICE_HOLDER.fullmatch(fact.subject)) or (
        fact.predicate == "PRICE" and fact.subject.endswith("部")
    ):
        return True  # refunds, a department (市场部…定价399): no price of their own
    if (
        fact.predicate == "QUANTITY"
        and isinstance(said, (int, float))
        and _not_a_count(said, fact.fact or "")
    ):
        return True
    if (
        fact.predicate in ("PRICE", "QUANTITY")
        and isinstance(said, (int, float))
        and _a_term(said, fact.fact or "")
    ):
        return True
    if not isinstance(said, str):
        return False
    if _INTERJECTION.fullmatch(said) or (fact.predicate == "ATTENDED" and _GENERIC_EVENT.fullmatch(said)):
        return True
    if fact.predicate in ("USES", "STOPPED_USING") and _NO_TOOL.fullmatch(said):
        return True
    if fact.predicate in _ZH_NOT_THE_THING and _ZH_NOT_THE_THING[fact.predicate].fullmatch(said):
        return True  # 被她带得爱吃了: a verb alone; 签证在准备材料了: what a step needs, not a plan
    if fact.predicate == "STATUS" and said == "完成" and _PROGRESS.search(fact.fact or ""):
        return True  # 目前完成了60%: how far along, not done
    if fact.predicate in _KIN_LINKS and (
        _NATIONALITY.fullmatch(said) or ZH_ROLE_RX.fullmatch(said) or EN_ROLE_RX.fullmatch(said)
    ):
        return True  # "My husband is Czech", 我老婆是老师: where one is from or what one does, no one wed
    if fact.predicate == "CREATED" and said.lower().startswith(("reading", "watching", "listening")):
        return True  # "finished reading all of the Discworld books": read, not written
    if fact.predicate == "PLANS_TO" and _TAKES_THEM.search(said) and _A_RELATIVE.search(fact.subject):
        return True  # 我爸妈下周来上海玩，打算带他们去迪士尼: the writer's plan for them, not theirs
    if fact.predicate == "INTERESTED_IN" and said.lower().startswith("naming "):
        return True  # "Thinking of naming her Mina": a name weighed for a baby
    if fact.predicate == "MEMBER_OF" and re.match(r"[去到来](?=[\u4e00-\u9fff])", said):
        return True  # 我下个月调去总部: 调去 cut after 调, no team named 去总部
    if fact.predicate == "RESPONSIBLE_FOR" and (_NO_DUTY.fullmatch(said) or "说" in said):
        return True  # 统一由郑晓燕管理, 老板说我们部门…由苏晴管: an adverb, a speech, no duty
    if fact.predicate in _THINGS_DONE and (said in KIN_ZH or said.removeprefix("我") in KIN_ZH):
        return True  # 我爸跑了两周就放弃了: the one who gave up, not what
    if fact.predicate in _THINGS_DONE and (_EN_ADVERB.fullmatch(said) or _EN_REQUEST.fullmatch(said)):
        return True  # "Ben Okafor signed personally", "pls don't make me watch that", "learning properly"
    if fact.predicate in ("LIKES", "PLANS_TO", "STATUS", "PREFERS", "STUDIES") and _NO_THING.match(said):
        return True
    if fact.predicate == "PLANS_TO" and _A_DISCOUNT.fullmatch(said):
        return True  # 想要7折: a discount asked for, no plan
    if fact.predicate in ("PLANS_TO", "PLANS_TO_VISIT") and _WAITED_FOR.match(said):
        return True  # 等女儿高考完: when, not what
    if fact.predicate == "HAS_ROLE" and _NO_ROLE.search(fact.fact or "") and f"({said} " in (fact.fact or ""):
        return True
    if fact.predicate == "WORKS_AT" and _A_CLASS.search(fact.subject):
        return True  # 新东方的周末班: a class, no employee
    if fact.predicate == "STUDIES" and _A_YEAR_OF_STUDY.fullmatch(said):
        return True  # 在武汉大学读大三: a year, not a subject
    if fact.predicate in ("USES", "STOPPED_USING") and _A_REGION.fullmatch(said):
        return True  # "managing our reseller relationships in DACH": a territory, no tool
    if fact.predicate == "SIGNED" and _WHEN_SAID.match(said):
        return True  # "Idris signed after the SOC 2 review": when, not what
    if fact.predicate == "OWNS" and _AN_APPOINTMENT.match(said):
        return True  # "I've got my driving test on 14 October", "a 10k race": an event, nothing owned
    return fact.predicate in ("WORKS_AT", "STUDIES_AT") and bool(_LEARNING.match(said))  # 在学做烘焙


_A_REGION = re.compile(rf"(?:the )?{REGION.pattern}")
_A_YEAR_OF_STUDY = re.compile(
    r"[大研高初][一二三四]|博[一二三四五]|\b(?:freshman|sophomore|junior|senior) year", re.I
)
_WHEN_SAID = re.compile(
    r"(?:after|before|following|once|until|during|while|when|on|by|at|in|last|this|next)\b", re.I
)
_AN_APPOINTMENT = re.compile(
    r"(?:[\w-]+\s){0,2}?(?:test|exam|appointment|appt|interview|meeting|flight|surgery|operation|class|lesson|call|"
    r"shift|check-?up|scan|race|marathon|half|match|game|gig|concert|wedding|party|job offer|offer)s?"
    r"(?:\s(?:on|at|in|next|tomorrow|today|this)\b.*)?$",
    re.I,
)
_PROGRESS = re.compile(r"完成了?(?:\d+(?:\.\d+)?%|百分之|[一二三四五六七八九]成)")
_FIRST_OF = re.compile(r"首(?:年|期|批|单|次|付)")


def _a_term(value: float, sentence: str) -> bool:
    """Return True when a price's or a quantity's number is a term or a year: "2-year renewal", "renewal
    signed for 2024", 分四个季度执行."""
    number = re.escape(f"{value:g}")
    return bool(
        re.search(rf"(?<![\d.$€£¥]){number}[- ](?:years?|months?|weeks?|yrs?)\b", sentence)
        or (1990 <= value <= 2040 and re.search(rf"\b(?:for|in|of|since|from|until) {number}\b", sentence))
        or (
            value <= 12
            and re.search(r"分[一二三四五六七八九十\d]+个?(?:季度|期|批|年)(?:执行|交付|付款)", sentence)
        )
    )


def _not_a_count(value: float, sentence: str) -> bool:
    """Return True when a QUANTITY's number counts no units: points off (再让5个点) or the 1 of 首年."""
    number = f"{value:g}"
    if re.search(rf"(?<![\d.]){re.escape(number)}\s?个(?:点|百分点)", sentence):
        return True
    return (
        value == 1
        and bool(_FIRST_OF.search(sentence))
        and not re.search(r"(?<![\d.])1(?![\d.])|(?<!第)一[台套个件箱]", sentence)
    )
