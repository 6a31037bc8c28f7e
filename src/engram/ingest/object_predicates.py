"""What a pattern's fact becomes by what its object turns out to be: work or study said of a city is a
home (在伦敦工作 → LIVES_IN, inferred), work "at" a department is membership of it, work "at" a nursery or
a pupil's school is study there, and work from where the company is names where it lives.

The labelling rules behind these are in bench/data/extraction_set.md; the patterns read the words, this
module reads what the words named.
"""

from __future__ import annotations

import re

from engram.graph.places import is_chinese_place, is_place, is_world_place_zh
from engram.ingest.employment import attends
from engram.ingest.frames import DEPARTMENT
from engram.ingest.lexicon import DEFAULT_GAZETTEER
from engram.ingest.objects import ZH_BODY_ENDS
from engram.ingest.reading import Message, Sentence
from engram.models.graph import SourceKind
from engram.nlp.tokenize import has_cjk

_EMPLOYER_PLACE = {"WORKS_AT": "LIVES_IN", "LEFT_ORGANISATION": "MOVED_FROM", "STUDIES_AT": "LIVES_IN"}
"""Work or study said of a place rather than an employer or a school is where the person lives
(the labelling rules: 在伦敦工作, 在成都读研)."""
_MOVE_SAID = re.compile(r"\b(?:mov(?:e|ed|es|ing)|relocat\w*|flat|apartment|house|home|city|town)\b", re.I)
_JOB_SAID = re.compile(
    r"\b(?:job|company|firm|role|position|notice|team|boss|employer|career|office|work|working|join|joining)\b",
    re.I,
)
"""Beside a town that is left ("leaving Leeds next month"): a move says a home, a job says an employer
that shares its name with a town (Toyota, Nokia, Orange)."""
_LEAVING = re.compile(r"(?:left|leaving|leave|leaves)\b", re.I)
"""A leaving said with "leave", which a town takes as well as an employer (not "quit", "laid off from")."""
_NAME_GOES_ON = re.compile(r"\s*(?:[A-Z]|['’]s\b)")
"""After a place: the name goes on ("Boston Consulting Group", "Leeds's"), so it names no place alone."""
_COMMUTE = re.compile(r"去|到")
"""Going to a place to work (去北京上班) says where one works, not where one lives."""
_HOME_ELSEWHERE = re.compile(r"搬到|搬去|住在|家在")
"""Where one lives said beside where one works (我们家搬到昆山了，我还在上海上班)."""
_STUDIED = re.compile(r"了|过|以前|之前|[读上念学]的|\b(?:studied|went to|graduated)\b", re.I)
"""Study that is over (大学在武汉读的, "I studied in Boston")."""
_STUDYING = re.compile(r"读研|读博|读大学|上大学|读书|念书|上学|读高中|读初中|\bstud(?:y|ies|ying)\b", re.I)
"""Study that takes years: where it happens is where one lives (在成都读研)."""
_NO_TOWN = frozenset(
    {"城市", "一线城市", "二线城市", "其他城市", "这边", "那边", "这里", "那里", "外地", "本地"}
)
_PLATFORMS = frozenset(
    {"Twitter", "Facebook", "Instagram", "TikTok", "Snapchat", "Reddit", "LinkedIn", "WhatsApp", "Threads",
     "YouTube", "Tinder", "Bumble", "Hinge", "微博", "抖音", "小红书", "微信", "知乎", "B站"}
)  # fmt: skip
"""Platforms people quit as users: quitting one is no job left."""
_WHERE = frozenset({"LIVES_IN", "VISITED", "PLANS_TO_VISIT", "COMES_FROM", "STUDIES_AT"})
_ZH_NAME_GOES_ON = re.compile(
    r"交大|实验|[一二三四五六七八九十\d]+[小中]|"
    r"(?:(?!的|住|在|去|玩|和|跟|读|上|念|考)[\u4e00-\u9fff]){0,3}?(?:大学|小学|中学|酒店|宾馆|医院|银行|机场|大厦|科技园)"
)
"""After a Chinese place, words that make it the start of an institution's name."""
_ZH_INSTITUTION = re.compile(
    rf"(?!的|一家)[\u4e00-\u9fff]{{0,6}}?(?:小学|中学|学校|幼儿园|分公司|{ZH_BODY_ENDS})"
)
"""After a Chinese place in an employer's or a school's slot, words that make it an institution's name
(海淀实验小学): wider than ``_ZH_NAME_GOES_ON``, which also refuses homes and trips and so must not take a
place for a name where a verb follows it (在杭州读大学)."""


def object_predicate(
    predicate: str,
    target: str | None,
    span: tuple[int, int],
    match: re.Match[str],
    reading: Sentence,
    message: Message,
    subject: str,
    clause: tuple[int, int],
) -> tuple[str, SourceKind | None] | None:
    """Return ``(predicate, trust)`` for a fact whose object ``target`` sits at ``span`` of ``reading``
    (``trust`` "stated" or "inferred", or None to keep the reading's own), or None when it states
    nothing: a place where one studied once or briefly is no home (大学在武汉读的, 在北京上课三天)."""
    sentence = reading.text
    if (
        predicate in _WHERE
        and target is not None
        and has_cjk(target)
        and _ZH_NAME_GOES_ON.match(sentence, span[1])
    ):
        return None  # 上海交大, 海淀实验二小, 南京紫金酒店: the place begins a name, nobody's home or trip
    if predicate == "LIVES_IN" and target in _NO_TOWN:
        return None  # 一线城市600/晚: a kind of city, no home
    if predicate == "LEFT_ORGANISATION" and target in _PLATFORMS:
        return "STOPPED_USING", None  # "I quit Twitter for good": a user leaves a platform, not a job
    said = target and target + re.split(r"[,.;!?]", sentence[span[1] :], maxsplit=1)[0]  # "Leeds uni"
    if predicate == "WORKS_AT" and said and attends(said, sentence):
        return "STUDIES_AT", None  # "Our son just started at Maplewood Nursery", "started at Leeds uni"
    if predicate in _EMPLOYER_PLACE and _only_a_place(target, span, reading, message):
        if predicate == "STUDIES_AT" and (
            _STUDIED.search(sentence, clause[0], clause[1])
            or not _STUDYING.search(sentence, clause[0], clause[1])
        ):
            return None
        if predicate == "WORKS_AT" and (_COMMUTE.match(match.group()) or _HOME_ELSEWHERE.search(sentence)):
            return "WORKS_FROM", "stated"  # 得去北京上班, 家搬到昆山了，我还在上海上班: where the work is
        return _EMPLOYER_PLACE[predicate], "inferred"  # 在伦敦工作: a city
    if predicate == "LEFT_ORGANISATION" and _LEAVING.match(match.group()) and _a_town(target, span, sentence):
        if _MOVE_SAID.search(sentence) or DEFAULT_GAZETTEER.get(target or "") == "place":
            return "MOVED_FROM", "inferred"  # "leaving Leeds next month, moving to Bristol", "Leaving London"
        if not _JOB_SAID.search(sentence, *clause):
            return None  # "I'm leaving Leeds in March": a town or a firm of its name, unsaid which
    if (
        predicate in ("WORKS_AT", "VISITED", "USES", "LIVES_IN", "PLANS_TO_VISIT")
        and target is not None
        and DEPARTMENT.search(target)
    ):
        return "MEMBER_OF", None  # 运营部的宁薇, 施洁去了运营部, "moving to Revenue Ops": a department
    if predicate == "WORKS_FROM" and (subject, "organisation") in message.entities:
        return "LIVES_IN", None  # 入职乐途科技…公司在望京: where the company is
    return predicate, None


def _a_town(name: str | None, span: tuple[int, int], sentence: str) -> bool:
    """Return True when an English employer's slot holds a name the world gazetteer knows as a place and
    the default gazetteer not as an organisation, standing alone (not "Bristol Myers", "Leeds's")."""
    if name is None or has_cjk(name) or DEFAULT_GAZETTEER.get(name) == "organisation" or not is_place(name):
        return False
    return not _NAME_GOES_ON.match(sentence, span[1])


def _only_a_place(name: str | None, span: tuple[int, int], reading: Sentence, message: Message) -> bool:
    """Return True when an employer's slot holds a known place alone: 伦敦, "London", not "Boston
    Consulting Group" cut to Boston, nor 苏宁 (a company jieba tags as a place); 多伦多 is a city abroad."""
    if name is None or (name, "place") not in message.entities:
        return False
    if has_cjk(name):
        if _ZH_INSTITUTION.match(reading.text, span[1]):
            return False  # 海淀实验小学, 省人民医院: the place begins an institution's name
        return is_chinese_place(name) or is_world_place_zh(name) or DEFAULT_GAZETTEER.get(name) == "place"
    before = reading.text[: span[0]]
    return not _NAME_GOES_ON.match(reading.text, span[1]) and not re.search(r"[A-Z][\w&.-]*\s+$", before)
