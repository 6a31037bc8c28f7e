"""Recognise common predicates in English and Chinese sentences: the pattern library.

A pattern is a regular expression over one sentence whose named group ``obj`` is the
object (an entity mention or a literal); the subject is found by the extractor to the left
of the match (a first-person pronoun means the episode's actor). What a predicate means, and
what negation turns it into, is in the registry (``engram.models.predicates``); a negated
statement whose predicate has no mapping yields no fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

from engram.ingest.clauses import Lang
from engram.nlp.amounts import AMOUNT


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


def _pattern(
    lang: Lang,
    flags: int,
    predicate: str,
    source: str,
    confidence: float = 0.9,
    *,
    trigger: str = "",
    inverse: bool = False,
    require_mention: bool = False,
    past: str | None = None,
) -> Pattern:
    """Return a compiled pattern; its trigger words come from ``trigger`` or the regex's lead."""
    regex = re.compile(source, flags)
    words = _trigger(source, trigger)
    return Pattern(predicate, lang, regex, confidence, inverse, require_mention, past, words)


_en = partial(_pattern, "en", re.I)
_zh = partial(_pattern, "zh", 0)


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
