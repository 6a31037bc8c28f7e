"""The shape of a fact pattern, and the regular-expression pieces the pattern tables share.

A :class:`Pattern` is a regular expression over one sentence whose named group ``obj`` is
the object (an entity mention, a literal, an amount, a date…); an optional group ``subj``
names the subject inside the match, otherwise the extractor finds it to the left
(``engram.ingest.subjects``). The tables are ``engram.ingest.patterns_en`` and
``engram.ingest.patterns_zh``; ``engram.ingest.patterns`` indexes them by trigger word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from engram.ingest.clauses import Lang, clause_at
from engram.nlp.amounts import AMOUNT

ObjectKind = Literal["", "entity", "value", "amount", "number", "date", "birthday", "phone", "email"]
SubjectMode = Literal["left", "topic", "group", "speaker", "addressee"]


@dataclass(frozen=True, slots=True)
class Pattern:
    """One way to say a predicate: ``regex`` over a sentence with a named group ``obj``.

    - ``inverse``: the object is the fact's subject and the found subject its object ("my son
      Jake" → Jake CHILD_OF me).
    - ``require_mention``: emit only when ``obj`` holds (or names) an entity; ``strict``: one of
      ``object_type`` or an unknown name (no place where an organisation is meant); ``whole``:
      the entity is the whole object (把微信的消息提醒停了 stops no 微信).
    - ``past``: the predicate to use when the clause is in the past tense; ``future``: the one
      to use when the clause says it is still to come ("planning to run a marathon").
    - ``trigger``: lower-case literals, one of which a matching sentence contains.
    - ``kind``: how ``obj`` is read (entity, value, amount, number, date, birthday, phone, email);
      "" takes the registry's object kind. ``object_type``: the type of an entity made from
      the object's text ("" takes the registry's).
    - ``subject``: ``left`` (the nearest subject left of the object, the actor for I/我),
      ``topic`` (a deal, project, product, document or organisation of the sentence, else the
      speaker), ``group`` (the regex's ``subj`` group, an entity of ``subject_type``),
      ``speaker`` (the actor when the clause speaks in the first person) or ``addressee``
      (the person the message is addressed to: "Thanks for being a great friend, Maria").
    - ``split``: coordinated objects make one fact each ("reading, writing and hiking").
    - ``negatable``: a "not" or "no longer" before the cue maps the predicate (``stop`` /
      ``negated`` here, else the registry's); False for cues that carry their own negation.
    - ``antecedent``: an object left unsaid ("现在特别讨厌", "我退出") is taken from an earlier
      fact or mention of the sentence.
    - ``ends``: the date of the clause is when the fact ended (``invalid_at``), not when it
      began ("her last day on the Globex account was March 31").
    - ``objectless``: a stop said without what it stops ("赵强上周离职了", "I quit my job") is a
      fact with neither object nor value, which ends the subject's latest fact of the predicate
      it stops (engram.graph.arbitrate); not made when the message already says what was left,
      nor in a sentence that asks, supposes or hedges (``UNSETTLED``).
    - ``named_subject``: the ``subj`` group must end inside a person the mention finder knows (a
      tagged or listed name), who is the subject whole; not any word shaped like a name
      ("产品经理周报", "our CTO Slack channel"). Without a ``subj`` group: the subject is found in the
      sentence, never implied to be the speaker (货都在宁波 places no one).
    - ``supposable``: like a stop, the statement is not read under a supposition or condition
      ("if I ever win the lottery I'm … moving to Lisbon").
    - ``named_topic``: a topic predicate's subject must be named (a deal, an order, a customer…),
      never the speaker ("我妈的快递预计本周六送达" is no deadline of the speaker's).
    - ``introduces``: the match only says who someone is (他们护理部温主任, 晨曦母婴的区域经理钟文斌); what
      the sentence goes on to say after it (要求下周五前…) neither dates the fact nor is its sentence.
    - ``handover``: the one who held the object before is unassigned from it (UNASSIGNED_FROM):
      "from me"/"from <name>" after it, or in Chinese the subject the clause continues
      (我下周休产假，…康泰医疗给小贺; 他手上的项目交给我).
    """

    predicate: str
    lang: Lang
    regex: re.Pattern[str]
    confidence: float = 0.9
    inverse: bool = False
    require_mention: bool = False
    strict: bool = False
    past: str | None = None
    trigger: tuple[str, ...] = ()
    future: str | None = None
    kind: ObjectKind = ""
    object_type: str = ""
    subject: SubjectMode = "left"
    subject_type: str = ""
    split: bool = False
    negatable: bool = True
    stop: str | None = None
    negated: str | None = None
    antecedent: bool = False
    ends: bool = False
    objectless: bool = False
    named_subject: bool = False
    whole: bool = False
    handover: bool = False
    supposable: bool = False
    named_topic: bool = False
    introduces: bool = False


_LEAD = re.compile(r"^(?:\\b)?(?:\(\?:((?:[\w' ]+\|)*[\w' ]+)\)|([\w' ]{3,}))")


def _trigger(source: str, given: str) -> tuple[str, ...]:
    """Return literals one of which a matching sentence must contain (lower-cased), () for any."""
    if given:
        return tuple(word.lower() for word in given.split("|"))
    lead = _LEAD.match(source)
    if lead is None:
        return ()
    if lead.group(1):
        return tuple(alt.lower() for alt in lead.group(1).split("|"))
    literal = lead.group(2)
    if source[lead.end() : lead.end() + 1] in ("?", "*", "{"):  # "reports?": "report" is enough
        literal = literal[:-1]
    return (literal.lower(),)


def pattern(
    lang: Lang,
    predicate: str,
    source: str,
    confidence: float = 0.9,
    *,
    trigger: str = "",
    **options: object,
) -> Pattern:
    """Return a compiled pattern (English ones case-insensitive); its trigger words come from
    ``trigger`` or the regex's leading alternation."""
    regex = re.compile(source, re.I if lang == "en" else 0)
    return Pattern(predicate, lang, regex, confidence, trigger=_trigger(source, trigger), **options)  # type: ignore[arg-type]


# ── shared pieces ────────────────────────────────────────────────────────────────────────

EN_OBJ = r"(?P<obj>[^,.!?;:()\n\"“”]{1,60})"
EN_A_DAY = (
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
)
"""What a meeting is moved from or to (a day, a date): no town, no project."""
EN_NAME = r"(?P<obj>(?-i:[A-Z])[\w'’-]*(?:\s(?-i:[A-Z])[\w'’-]*)?)"
EN_NAMES = r"(?P<obj>(?-i:[A-Z])[\w'’-]*(?:(?:\s|,\s|\sand\s|,\sand\s)(?-i:[A-Z])[\w'’-]*){0,3})"
EN_CAPS = r"(?-i:[A-Z][\w&.'’-]*(?:\s(?:&\s)?[A-Z][\w&.'’-]*){0,3})"
_NUMBERED = r"phase|stage|round|tier|step|wave|part|level|version|week|year|day|sprint|batch|lot"
"""Words a number counts in ("phase 1", "sprint 14"): no amount of money."""
EN_AMOUNT = (
    "".join(rf"(?<!\b{word} )" for word in _NUMBERED.split("|")) + rf"(?<![A-Za-z])(?P<obj>(?>{AMOUNT}))"
    r"(?!\s?(?:%|percent\b|pct\b|(?:oz|lbs?|kg|g|ml|mm|cm|km|gb|tb|mb|inch|inches|ft|sq ?ft)\b|\"))"
)
"""A sum of money ("$48k", "2.1 million"), not a share ("8%"), a measure ("the 12oz cups to $0.14":
$0.14) or a numbered phase ("phase 1")."""
ZH_MOVED_TO = r"(?:改到|改成|改在|改为|改期到|改期至|推迟到|推到|挪到|调到|延到|延期到|顺延到|提前到)"
"""A meeting or a date moved to another time (周会改到下午两点, 上线推迟到5月)."""
EN_DATE = (
    r"(?P<obj>[^,;!?()\n]{2,40}?(?:,\s(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s\d|\d)"
    r"[^,;!?()\n]{1,30}?)?)(?=[,;!?()\n]|\.(?:\s|$)|$|\s(?:pending|and|but|because|so|for|with)\b|"
    r"\s(?:at|in)\s(?:your|our|their|the|his|her|my)\b)"
)
"""A date phrase, through a comma that a date goes on after ("Tuesday, April 16 at 2pm"), up to a place
("Tuesday Oct 8 at 10:00 at your office in Rotterdam")."""
EN_DAY_WORD = (
    r"(?i:next|this|tomorrow|today|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan|feb|mar|apr|may|jun|"
    r"jul|aug|sep|oct|nov|dec|\d)"
)
"""How a date said without a preposition starts ("the meeting is next Monday at 10am")."""
EN_TRIP_PRAISED = (
    r"(?:was|were)\s(?:so\s|just\s|absolutely\s|honestly\s|really\s)?(?:amazing|gorgeous|perfect|wonderful|"
    r"incredible|beautiful|lovely|unreal|insane|magical|stunning|fantastic|breathtaking|a dream|"
    r"the highlight|my fav(?:ou?rite)?)\b"
)
"""How a trip had is praised after its place ("Marrakech was amazing", "Kyoto was unreal")."""
EN_NEAR_DAY = r"(?i:(?:next |this )?(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|today|tonight)\b"
"""A day named right after a verb, without a preposition ("let's meet Friday at 3pm")."""

SUPPOSED = {
    "en": re.compile(
        # 'd of "I'd quit", not of "I'd already left" (had) nor "I'd say"; "should", not "should mention"
        r"'d\b(?!\s+(?:already\s+|just\s+|never\s+|long\s+)?(?:[a-z]+ed|left|been|gone|had|done|made|"
        r"got|gotten|taken|given|known|seen|told|said|met|bought|sold|lost|found|spent|say|guess)\b)|"
        r"(?<!even )\bif\b|\b(?:unless|should(?!\s+(?:mention|say|tell|add|note)\b)|would|could|almost|"
        r"nearly|going to|want to|wants? (?:us|me|you|them|everyone|everybody)(?: all)? to|plan(?:ning)? to|"
        r"thinking about|thinking of|considering|might|hope|hoping|"
        r"good luck|"
        r"best of luck|let me know how|knock 'em dead|break a leg|fingers crossed)\b",
        re.I,
    ),
    "zh": re.compile(
        r"如果|要是|万一|假如|一旦|只要|打算|准备|考虑(?!到|了)|计划|想要?(?![起到念法象过说])|差点|推荐|建议|可能会|也许|或许|"
        # 再拖下去只能取消: a threat; 祝你面试顺利, 争取下周见面: a wish
        r"只能|只好|不然|否则|再[^，。；]{0,4}下去|祝|争取"
    ),
}
"""Words that suppose, plan, threaten, wish or nearly did: a stop (or a meeting) said after them did not
happen (如果…就不用飞书了, 我打算不用Jira了, 再拖下去只能取消, 祝你明天面试顺利, "I'd quit", "hope the call
goes well")."""
_CONTRAST = {"en": re.compile(r"\bbut\b|\bhowever\b", re.I), "zh": re.compile(r"但是?|不过|可是|然而")}
_IF_EN = r"(?:if|unless)\b(?!\s+(?:I|memory)\s+(?:remember|recall|serves)\b)"
"""An English condition's word ("if", "unless"), not "if I remember right"."""
_CONDITION = {
    "en": re.compile(rf"\s*{_IF_EN}", re.I),
    "zh": re.compile(r"\s*(?:如果|要是|万一|假如|只要)(?!没记错)"),
}
_THEN = re.compile(r"就|那|便")


_UNDECIDED = {
    "en": re.compile(
        r"\b(?:not sure (?:if|whether)|haven't decided|have not decided|undecided|torn between|"
        r"debating whether|evaluating whether|would love to|thinking (?:about|of) maybe)\b"
        r"|\b(?:I|we)'d love to\b",
        re.I,
    ),
    "zh": re.compile(
        r"(?:在|正在|还在)考虑|考虑(?:要不要|是否)|纠结|要不要|还没想好|没想好|还没决定|拿不定|"
        r"(?:评估|讨论|研究)(?:一下)?(?:是不是|是否)|希望[^，。；]{0,8}?(?:能|可以)?(?:安排|约)"
    ),
}
"""A choice not yet made: nothing in its clause happened or holds (我在考虑回去做设计,
正在纠结是留昆山还是回上海读, 正在评估是不是要取消北京办公室, "not sure whether to move to Austin")."""
_MISSED_ONCE = re.compile(r"怀念|想念")
"""Before a role or a place: what one misses is no more (有点怀念做设计的日子)."""


_ZH_PLANNED = re.compile(r"打算|准备|计划|想|可能|考虑|要")
"""Before a Chinese cue: a plan or a hedge, which a following 还没定 leaves open (not 瑞丰汽配的王经理说他们
可能再加单，但还没定: the order is open, not who he is)."""
_STILL_OPEN = {
    "en": re.compile(
        r"\b(?:still (?:being )?(?:discussed|debated|open)|up in the air|not (?:final|confirmed|decided) yet|"
        r"TBD)\b|,\s*maybe[.!]?$",
        re.I,
    ),
    "zh": re.compile(
        r"^[^，。；！？]*[，,]\s*(?:不过|但是?)?(?:我|我们)?(?:还在考虑|还在调研|还在研究|还没定|还没决定|还没想好)"
        r"(?=[，。；！？,.]|$)"
    ),
}
"""Said after it in the sentence: the clause's choice is not made yet ("moving off Jira to GitHub Projects
next quarter, maybe", "we might switch vendors, still being discussed"); in Chinese only as the next
clause on its own (明年可能换成别的平台，还在调研), since 还没定 after a subject is that subject's
(离职了，接替的人还没定: the leaving is settled)."""


def undecided(clause: str, before_cue: str, rest: str, lang: Lang) -> bool:
    """Return True when ``clause`` weighs a choice not yet made or wishes for it ("I'd love to live in
    Barcelona someday"), ``rest`` (the clause and what follows it) says it is still open, or
    ``before_cue`` (the clause up to the match) misses what it names: no fact is stated."""
    return (
        bool(_UNDECIDED[lang].search(clause))
        or bool(_STILL_OPEN[lang].search(rest) and (lang == "en" or _ZH_PLANNED.search(before_cue)))
        or (lang == "zh" and bool(_MISSED_ONCE.search(before_cue)))
    )


def supposed(sentence: str, clauses: list[tuple[int, int]], cue: int, lang: Lang) -> bool:
    """Return True when the clause of ``cue`` supposes or plans before it (``SUPPOSED``, counted
    from its last "but" or 但是), or follows a clause that sets a condition ("If they raise the
    price, we'll stop using Zoom"; in Chinese with 就 or 那: 如果价格再涨，我们就不用飞书了)."""
    index = clause_at(clauses, cue)
    start = clauses[index][0] if clauses else 0
    start = max((m.end() for m in _CONTRAST[lang].finditer(sentence, start, cue)), default=start)
    found = SUPPOSED[lang].search(sentence, start)  # the whole sentence: lookaheads see past the cue
    if found is not None and found.start() < cue:
        return True
    return _follows_condition(sentence, clauses, index, cue, lang, _THEN)


def _follows_condition(
    sentence: str, clauses: list[tuple[int, int]], index: int, cue: int, lang: Lang, then: re.Pattern[str]
) -> bool:
    """Return True when clause ``index`` follows one that sets a condition (in Chinese with ``then``
    before ``cue``: 如果价格再涨，我们就…)."""
    if index == 0 or not _CONDITION[lang].match(sentence, clauses[index - 1][0]):
        return False
    return lang == "en" or bool(then.search(sentence, clauses[index][0], cue) or then.match(sentence, cue))


def conditional(sentence: str, clauses: list[tuple[int, int]], cue: int, lang: Lang) -> bool:
    """Return True when the clause of ``cue`` is a condition ("If I become team lead starting in July",
    如果从7月起我负责华东区) or follows one ("If Acme signs, they get 15% off"; in Chinese with what
    follows or is offered, 就/那/可以/会…: 如果宏远集团30号前签约，我们可以给他们打八五折): nothing in it
    has happened. Unlike ``supposed``, plans and wishes are not conditions."""
    index = clause_at(clauses, cue)
    start = clauses[index][0] if clauses else 0
    if _CONDITION_IN[lang].search(sentence, start, cue):
        return True
    return _follows_condition(sentence, clauses, index, cue, lang, _THEN_OFFERED)


_THEN_OFFERED = re.compile(r"就|那|便|可以|会|得|要|想|打算|准备")
"""After a Chinese condition's clause: what follows from it (就, 那), is offered (可以, 会) or wished (如果
年终奖能发下来，我想带老婆去北海道)."""
_CONDITION_IN = {
    "en": re.compile(rf"(?<!even )\b{_IF_EN}", re.I),
    "zh": re.compile(r"如果|要是|万一|假如|假设|(?<![倘])若(?=[\u4e00-\u9fff\d])(?!干|是不)"),
}
UNSETTLED = {
    "en": re.compile(rf"\?|\b(?:maybe|perhaps|might)\b|{SUPPOSED['en'].pattern}", re.I),
    "zh": re.compile(rf"[？?]|吗|可能|也许|或许|不会|是不是|不同意|反对|不让|不准|{SUPPOSED['zh'].pattern}"),
}
"""A sentence that asks, supposes, plans or hedges: an objectless stop in it did not happen."""
ZH_STOP = r"，。！？；,.!?;、\s：:"
ZH_OBJ = rf"(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?=[{ZH_STOP}]|了|的|吧|呢|啊|$)"
ZH_OBJ_LONG = rf"(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?=[{ZH_STOP}]|了|吧|呢|啊|$)"
"""An object that may hold 的 (北京的客户)."""
ZH_NAME_BARE = r"(?P<obj>[\u4e00-\u9fff]{2,4}?|[A-Z][a-z]+)"
ZH_NAME = ZH_NAME_BARE + r"(?=[，。！？；,.!?;、\s]|$|也|都|今年|在|是|和|的|跟|做|从)"
ZH_DATE = (
    r"(?P<obj>(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|[0-9０-９一二三四五六七八九十两月日号周下本这个星期天年底初末.\-/点半上午下"
    r"中晚早明后今昨前礼拜分时刻整凌晨傍:：]){2,20})"
)
ZH_AMOUNT = (
    rf"(?<![A-Za-z0-9.-])(?<!从)(?<![唯第统单万专周])(?<!星期)(?<!礼拜)(?<!降了)(?<!涨了)(?<!降价)(?<!便宜了)(?<!贵了)"
    rf"(?<!差价)(?P<obj>(?>{AMOUNT}))"
    r"(?![遍次趟%％折年月季周日号晚夜半些点起份个天批期轮届倍共家]|(?:个)?(?:用户|账号|席位|人))"
)
"""An amount: not the number of an id (KD-2406), a count of times (再过一遍), of things (23起投诉), users or
seats (150用户) or of time (续费一年, 明年一季度, 两晚), a weekday (下周三), a share (10%, 一半, 85折), a date
(有效期至12月31日), a word (唯一, 第一, 一共), a change (降了8万, 差价100), the decimals of another number,
or the old value of a change (预算从200万加到了260万, 从0.32元调整为0.35元: the new one)."""


def zh_obj_before(suffix: str) -> str:
    """Return an object group that ends right before ``suffix``."""
    return rf"(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?:{suffix})"


_ZH_ROLE_PREFIX = (
    r"(?:(?:华东区?|华南区?|华北区?|华中区?|西南区?|西北区?|东北区?|销售|产品|项目|技术|市场|财务|会计|人事|行政|客户(?=经理|主管|专员|代表|总监)|采购|运营|研发|区域|部门|大客户|研发部|销售部|市场部|"
    r"产品部|技术部|财务部|人事部|运营部|中学|小学|大学|高中|初中|幼儿园|数学|语文|英语|软件|前端|后端|测试|"
    r"数据|算法|平面|室内|UI|总经理|董事长|总裁|总|副总|高级|资深|首席|初级|中级|主任|主治|执行|助理|区域|大区|全栈|教务|教导|"
    r"Java|Python|前台|后台|客户成功|售前|售后|美术|品牌|公关|法务|物流|仓储|品质|质量|生产|商务|渠道|电商|IT|"
    r"培训|招聘|视觉|交互|新媒体|投资|风控|客服|人力|信息|设备|物资|仓库|工程|护理|医务|质检|安全|网络|系统|人力资源)+)?"
)
ZH_ROLE = (
    _ZH_ROLE_PREFIX
    + r"(?:经理|总监|主管|专员|工程师|设计师|顾问|助理|老师|教师|医生|护士|律师|会计|主任|总裁|"
    r"董事长|CEO|CTO|CFO|COO|CIO|CMO|VP|创始人|合伙人|程序员|架构师|分析师|研究员|教授|学生|实习生|销售|产品经理|"
    r"项目经理|主编|编辑|记者|厨师|司机|警察|公务员|翻译|客服|前台|秘书|出纳|HR|工人|店长|老板娘|老板|柜员|收银员|导游|"
    r"快递员|外卖员|保安|教练|主播|博主|组长|队长|班长|班主任|校长|院长|行长|总编|药剂师|营养师|心理咨询师|"
    r"理财顾问|会计师|审计师|建筑师|摄影师|化妆师|面点师|程序猿|运维|测试|产品|运营|设计|律师助理|法务|"
    r"(?:前端|后端|全栈|软件|游戏|嵌入式)开发|副总裁|副总监|副总经理|副经理|副主任|副总|销售代表|业务代表|副所长|所长|副校长|副院长|部长|处长|科长|局长|厂长|仓管|(?<=IT|项目|采购|技术|业务|财务|运营|区域|门店|品牌|市场|销售)负责人|采购(?!部|单|订单|合同|了|的|一批|计划|预算))"
)
EN_DEPARTMENT = (
    r"(?:sales|marketing|engineering|product|operations|finance|customer success|customer support|support|"
    r"design|hr|human resources|people|growth|partnerships|research|it|security|legal|procurement|"
    r"supply chain|business development|data|analytics|technology|strategy|communications|talent|"
    r"customer experience|revops|revenue operations|revenue ops|sales ops|ops|devops|risk|compliance|quality|"
    r"facilities|"
    r"infrastructure|platform|purchasing|payroll|treasury|tax|audit|content|eng|digital|logistics|training|"
    r"e-?commerce|pediatrics|paediatrics|cardiology|oncology|radiology|surgery|nursing|claims|underwriting)\b"
)
"""What a head, VP or director leads: "VP of Sales" is a role, Sales no employer."""
EN_NAME_WORD = "(?-i:[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+)"
"""A capitalised word of a name, accented letters included (Róisín, Zoë)."""
EN_PERSON_NAME = rf"(?:{EN_NAME_WORD}(?:\s{EN_NAME_WORD})?)"
"""A person's name as a pattern's subject: one or two capitalised words."""
EN_ROLE_NOUNS = (
    "scrum master|product owner|buyer|engineer|developer|manager|teacher|doctor|nurse|designer|"
    "artist|writer|student|lawyer|accountant|CEO|CTO|CFO|COO|founder|co-founder|director|consultant|"
    "analyst|chef|photographer|musician|counselor|counsellor|therapist|scientist|researcher|"
    "professor|salesperson|architect|intern|programmer|editor|journalist|pilot|firefighter|"
    "police officer|social worker|vp|president|owner|entrepreneur|coach|athlete|actor|actress|dancer|"
    "painter|singer|filmmaker|author|veterinarian|vet tech|vet|dentist|pharmacist|mechanic|electrician|"
    "carpenter|instructor|trainer|tutor|librarian|paramedic|surgeon|psychologist|banker|investor|"
    "volunteer|officer|executive|administrator|recruiter|representative|specialist|coordinator|technician|"
    "plumber|baker|barista|bartender|waiter|waitress|cashier|clerk|secretary|receptionist|nanny|"
    "caregiver|soldier|marine|streamer|youtuber|blogger|podcaster|gamer|composer|producer|dj|poet|"
    "novelist|screenwriter|illustrator|animator|model|stylist|hairdresser|florist|farmer|rancher|"
    "realtor|broker|auditor|economist|statistician|mathematician|physicist|chemist|biologist|"
    "historian|archaeologist|astronaut|player|goalkeeper|quarterback|shooting guard|point guard|"
    "controller|comptroller|CMIO|CMO|CIO|CISO|CRO|CPO|GM|lead|flight attendant|counsel|strategist|"
    "paralegal|attorney|solicitor|hygienist|dietitian|nutritionist|physiotherapist|physical therapist|"
    "optometrist|midwife|pastor|welder|machinist|underwriter|actuary|supervisor|foreman|lecturer|"
    "courier|housekeeper|managing partner|senior partner|talent partner|business partner|mgr|physician|"
    "pediatrician|paediatrician|psychiatrist|radiologist|anesthesiologist|anaesthetist|cardiologist|oncologist|"
    "dermatologist|neurologist|sysadmin|admin|postdoc|SDR|BDR|CSM"
)
"""What a person's role is called, as alternatives in the order the role pattern tries them
("veterinarian" before "vet"); a head needs its department ("head of sales")."""
EN_ROLE = (
    r"(?:(?:senior|junior|lead|chief|head|principal|staff|sales|product|project|account|marketing|software|"
    r"data|art|design|creative|finance|hr|regional|general|operations|engineering|executive|managing|"
    r"assistant|high school|middle school|elementary school|primary school|math|english|science|"
    r"music|dance|yoga|fitness|personal|graphic|web|ux|ui|full-stack|backend|frontend|civil|"
    r"mechanical|registered|school|family|youth|mental health|social media|real estate|clinical|tech|"
    r"team|it|support|security|legal|procurement|purchasing|medical|nursing|customer success|growth|"
    r"partner|partnerships|office|ops|store|library|country|board|network|plant|site|shift|branch|district|area|"
    r"territory|clinic|lab|warehouse|fleet|facilities|program|programme|brand|category|channel|practice|qa|"
    r"devops|platform|infrastructure|mobile|analytics|inbound|outbound|enterprise|solutions|content|community|deputy|"
    r"on-call|interim|acting|risk|systems|studio|research|quality|compliance|hardware|firmware|cloud|"
    r"release|field|sous|pastry|communications|events|talent|tax|audit|strategy|business development|"
    r"business|revenue|digital|editorial|video|construction|site reliability|reliability|database|test|"
    r"machine learning|ml|ai|policy|logistics|supply chain|insurance|investment|payroll|pr)\s)*"
    rf"(?:{EN_ROLE_NOUNS}|head(?=\s(?:of|for)\s{EN_DEPARTMENT}))"
    rf"(?:\s(?:of|for)\s{EN_DEPARTMENT}|(?:(?<=vp)|(?<=svp)|(?<=evp))\s(?=(?-i:[A-Z])){EN_DEPARTMENT})?"
)
"""A role, with the department a head, VP or director leads ("VP of Sales", "head of customer success",
"VP Sales")."""
EN_TITLE = (
    r"(?-i:(?!Former |Ex-|Previous |Retired |Interim )"
    r"(?:(?:Head|VP|Vice President|Director|Chief [A-Z]\w+ Officer) of "
    r"[A-Z][\w&]*(?: (?:&\s)?[A-Z][\w&]*){0,3}"
    r"|(?:[A-Z][\w&/-]*\s){0,4}(?:Executive|Manager|Director|Engineer|Lead|Officer|Specialist|Consultant|Partner|"
    r"Founder|President|Coordinator|Analyst|Representative|Rep|Associate|Designer|Developer|Architect|Counsel|"
    r"Strategist|"
    r"Administrator|Supervisor|Owner|Agent|Advisor|Buyer|CEO|CTO|CFO|COO|CIO|CMO|VP)))"
)
"""A job title in capitals, ending in a role's noun ("Account Executive", "Head of Customer Success")."""
EN_ROLE_RX = re.compile(EN_ROLE, re.I)
ZH_ROLE_RX = re.compile(ZH_ROLE)
"""The role regexes compiled once, for the modules that test a span or scan a sentence for a role."""
EN_ROLE_TRIGGER = f"{EN_ROLE_NOUNS.lower()}|head"
"""The trigger words of a pattern that needs a role (every match holds one of them): far fewer
sentences hold one than hold its other words (" is ", " at "), and the role alternation is
the costly part of such a regex to try."""
EN_NOT_A_MODEL = "".join(rf"(?<!(?-i:[A-Z])[A-Za-z]{{{n}}}\s)" for n in range(1, 12))
"""Not the number of a model's name: "25 IntraScan 4 units", "50 Windows 11 licenses"."""
EN_HQ_MOVED = (
    rf"\b(?P<subj>{EN_CAPS}) (?:has |have |just |recently |finally |officially )?moved (?:their|its) "
    r"(?:HQ|headquarters|head office|main office) "
)
"""An organisation, named, that moved its head office (not "we almost moved our HQ")."""
EN_NOT_HELD = "".join(
    rf"(?<!{before}{word})"
    for before in ("former ", "ex-", "previous ", "formerly ", "previously ", "for ", "for a ", "for an ")
    for word in ("", *(rf"[A-Za-z]{{{n}}} " for n in range(2, 13)))
)
"""Before a role, with or without one word of it: a role not held now ("former IT director at …",
"candidate for CFO at …")."""
EN_NOT_UNTIL = r"(?![^,.;]*\b(?:until|till)\b)"
"""Not a role held until some time ("IT director at Pinecrest Schools until 2019")."""
EMAIL_ADDRESS = r"[A-Za-z0-9_.+-]+@[A-Za-z0-9.-]*[A-Za-z0-9]"
r"""An e-mail address, ASCII (a ``\w`` would run into the Chinese text around it)."""
EN_EVENT = (
    r"(?:support group|group|meeting|conference|convention|workshop|seminar|class|course|lesson|session|"
    r"parade|festival|fest|concert|gig|show|exhibition|exhibit|fair|race|marathon|half marathon|5k|10k|"
    r"tournament|competition|contest|championship|playoffs?|match|party|wedding|funeral|ceremony|rally|"
    r"protest|march|retreat|camp|bootcamp|trip|road trip|tour|hike|event|fundraiser|gala|meetup|"
    r"test|exam|interview|audition|reunion|gathering|service|lecture|talk|screening|premiere|"
    r"expo|summit|hackathon|recital|performance|musical|open house|book club|reading|signing|"
    r"program|programme|cruise|vacation|holiday|getaway|picnic|barbecue|bbq|potluck|drive|"
    r"camping trip|game night|jam session|club|league|team tryouts?|tryouts?|clinic|"
    r"shelter|charity event|dinner|brunch|pride)s?"
)
"""Head nouns of events a person attends (ATTENDED; PLANS_TO when still to come)."""
EN_HOBBY = (
    r"(?:running|surfing|painting|swimming|hiking|climbing|rock climbing|cycling|biking|dancing|singing|"
    r"knitting|"
    r"cooking|baking|gardening|yoga|skating|skateboarding|skiing|snowboarding|writing|reading|drawing|boxing|"
    r"fishing|journaling|meditating|meditation|lifting|weightlifting|jogging|sewing|camping|volunteering|"
    r"photography|pottery|woodworking|crocheting|quilting|birdwatching|kayaking|rowing|sailing|diving|"
    r"scuba diving|golfing|bowling|archery|fencing|martial arts|karate|judo|taekwondo|kickboxing|jiu-jitsu|"
    r"pilates|crossfit|"
    r"playing (?:the )?\w+|learning \w+|a podcast|a blog|a garden|an instrument)"
)
"""Pastimes said as a gerund (LIKES when done by habit, taken up or started)."""
EN_CREATION = (
    r"(?:painting|drawing|sketch|portrait|picture|mural|sculpture|pottery|bowl|vase|pot|mug|cake|"
    r"cupcakes?|cookies|bread|pie|muffins|brownies|dinner|meal|dish|soup|pasta|pizza|salad|"
    r"quilt|scarf|sweater|blanket|bracelet|necklace|jewelry|jewellery|card|dress|shirt|song|album|"
    r"poem|story|stories|book|novel|screenplay|script|video|film|movie|documentary|podcast|website|"
    r"app|game|blog|comic|birdhouse|table|shelf|garden|playlist|photo album|collage|costume|"
    r"ornament|candles?|soap|treehouse|model|robot|recipe|track|beat|zine|comic book|short story|bookmark|"
    r"(?:clothing |edition |fashion )line|"
    r"article|essay|thesis|dissertation|course|curriculum|logo|design|prototype)s?"
)
"""Head nouns of things a person makes, for verbs that do not always create (made, built…)."""
EN_PET = (
    r"(?:dog|cat|puppy|kitten|pup|parrot|hamster|rabbit|bunny|turtle|tortoise|horse|pony|guinea pig|snake|"
    r"lizard|gecko|bird|fish|ferret)"
)
"""Kinds of pet, one list for the patterns that name a pet and the readers that look for one."""
EN_BREEDS = (
    "corgi|labrador|lab|golden retriever|retriever|poodle|beagle|husky|pug|terrier|dachshund|shepherd|"
    "greyhound|bulldog|chihuahua|spaniel|collie|doodle|tabby|kitty"
)
"""Dog breeds and cat words that name a pet as well as "dog" or "cat" do."""
EN_PET_WORDS = EN_PET.removeprefix("(?:").removesuffix(")")
"""The kinds of pet as literal trigger words (dog|cat|puppy|…)."""
EN_GROUP = (
    r"(?:group|club|team|forum|community|band|choir|league|society|association|union|church|gym|"
    r"organi[sz]ation|committee|board|network|circle|crew|troupe|orchestra|ensemble|guild|"
    r"collective|co-op|coalition|chapter|squad|meetup|brigade)s?"
)
"""Head nouns of groups a person is a member of."""

DEPARTMENT = re.compile(
    rf"(?<![俱乐总分本])部$|(?<!办事)处$|(?<!数)科$|组$|\s(?:team|department|dept\.?)$|^{EN_DEPARTMENT}$",
    re.I,
)
"""The name of a department or team: one works at the organisation and is a member of these."""
