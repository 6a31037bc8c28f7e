"""What a pattern's fact becomes by what its object turns out to be: work or study said of a city is a
home (在伦敦工作 → LIVES_IN, inferred), work "at" a department is membership of it, work "at" a nursery or
a pupil's school is study there, and work from where the company is names where it lives.

The labelling rules behind these are in bench/data/extraction_set.md; the patterns read the words, this
module reads what the words named.
"""

from __future__ import annotations

import re

from engram.graph.places import is_chinese_place
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
_COMMUTE = re.compile(r"去|到")
"""Going to a place to work (去北京上班) says where one works, not where one lives."""
_HOME_ELSEWHERE = re.compile(r"搬到|搬去|住在|家在")
"""Where one lives said beside where one works (我们家搬到昆山了，我还在上海上班)."""
_STUDIED = re.compile(r"了|过|以前|之前|[读上念学]的|\b(?:studied|went to|graduated)\b", re.I)
"""Study that is over (大学在武汉读的, "I studied in Boston")."""
_STUDYING = re.compile(r"读研|读博|读大学|上大学|读书|念书|上学|读高中|读初中|\bstud(?:y|ies|ying)\b", re.I)
"""Study that takes years: where it happens is where one lives (在成都读研)."""
_ZH_INSTITUTION = re.compile(
    rf"(?!的|一家)[\u4e00-\u9fff]{{0,6}}?(?:小学|中学|学校|幼儿园|分公司|{ZH_BODY_ENDS})"
)


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
    if (
        predicate in ("WORKS_AT", "VISITED", "USES", "LIVES_IN", "PLANS_TO_VISIT")
        and target is not None
        and DEPARTMENT.search(target)
    ):
        return "MEMBER_OF", None  # 运营部的宁薇, 施洁去了运营部, "moving to Revenue Ops": a department
    if predicate == "WORKS_FROM" and (subject, "organisation") in message.entities:
        return "LIVES_IN", None  # 入职乐途科技…公司在望京: where the company is
    return predicate, None


def _only_a_place(name: str | None, span: tuple[int, int], reading: Sentence, message: Message) -> bool:
    """Return True when an employer's slot holds a known place alone: 伦敦, "London", not "Boston
    Consulting Group" cut to Boston, nor 苏宁 (a company jieba tags as a place)."""
    if name is None or (name, "place") not in message.entities:
        return False
    if has_cjk(name):
        if _ZH_INSTITUTION.match(reading.text, span[1]):
            return False  # 海淀实验小学, 省人民医院: the place begins an institution's name
        return is_chinese_place(name) or DEFAULT_GAZETTEER.get(name) == "place"
    before, after = reading.text[: span[0]], reading.text[span[1] :]
    return not re.match(r"\s*(?:[A-Z]|['’]s\b)", after) and not re.search(r"[A-Z][\w&.-]*\s+$", before)
