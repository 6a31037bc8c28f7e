"""Facts refused once their subject and object are known: what the sentence says, but not of that subject.

- Someone the writer introduces holds what the sentence goes on to say (我有个妹妹在英国读研，学的是金融;
  我家小雨今年八岁…特别喜欢画画), not the writer; a relative's partner or friend holds it, not the relative
  (我弟那个女朋友…在苏州当老师).
- A tool pays, prices, counts and uses nothing (CRM更新：…预付了定金1000元, 新的排课软件…还是用Excel): the
  note it labels is about a customer; a ticket counts nothing (工单…一台监护仪: the unit is the device's); a
  device works nowhere (德尔格给鼓楼医院报的麻醉机).
- A title one is called by is no role held (陈老师 → 老师); a status of a thing (延期, "approved") is no
  person's ("Anita says budget is approved"); what a group feels ("he says the staff hate the app") is not
  the teller's; a firm that "signed with" a vendor is its customer, not its sponsored athlete.
- A piece of the sentence is no object: a time (到时候就不续了), a teller (宋佳怡家长说不续了), a word split
  from its name (学员黄子轩 → 员黄子轩), a letter's closing (此致); a plan handed to another (由新招的高老师
  接手) or asked about (…可以吗？) is not the subject's; someone asked to attend (让小何这周参加一下培训) is
  not the writer; a place one cannot get used to living in (住不惯上海) is not home; a tool rarely used
  (不太用CRM手机端) is not given up, and one wished for ("wants us all to start using Clari…, dropping the
  spreadsheet") is neither used nor dropped.
"""

from __future__ import annotations

import re

from engram.ingest.reading import Message, Sentence
from engram.models.graph import Scalar

_ZH_KIN = (
    r"(?:哥哥?|姐姐?|弟弟?|妹妹?|表[哥姐弟妹]|堂[哥姐弟妹]|舅舅|叔叔|阿姨|姑姑|侄子|侄女|外甥女?|儿子|女儿)"
)
_INTRODUCED = re.compile(
    rf"我有(?:个|一个|位|一位|两个|几个)[\u4e00-\u9fff]{{0,4}}?(?:{_ZH_KIN}|朋友|同学|同事|闺蜜|发小|邻居|亲戚)"
)
"""我有个妹妹…, 我有个大学同学…: the sentence goes on about them."""
_OUR_CHILD = re.compile(
    r"我家(?!里|附近|楼|门口|那边|这边|老|猫|狗|小区|公司)[\u4e00-\u9fff]{2}(?=今年|已经|才|刚|上|在|特别|最|很|都|也|，)"
)
"""我家小雨今年八岁，…, 我家豆豆特别…: a child named after 我家, whom the sentence goes on about."""
_KINS_OTHER = re.compile(
    r"(?:弟弟?|哥哥?|姐姐?|妹妹?|爸|妈|儿子|女儿|老公|老婆)(?:的|那个|这个|那位)"
    r"(?P<other>女朋友|男朋友|对象|老婆|老公|媳妇|同学|朋友|同事|孩子|闺蜜|领导|老板)"
)
"""A relative's partner, friend or child (我弟那个女朋友, 我姐的同学): the one the sentence is about."""
_A_TOOL = re.compile(r"^(?:CRM|ERP|OA|Excel)$|(?:软件|系统|工具|平台|App|app)$")
_TOOLS_CANNOT = frozenset({"PRICE", "PAID", "BUDGET", "QUANTITY", "USES", "STOPPED_USING", "DEADLINE"})
_A_DEVICE = re.compile(r"(?:[\u4e00-\u9fff]{2}(?:机|器)|设备|系统|软件|仪器)$")
"""A device or a system (麻醉机, 呼吸器): read as a person by a pattern's shape, it works nowhere."""
_A_TICKET_BEFORE = re.compile(r"(?:工单|工单号|\bticket|\bcase|\bincident)\s*(?:号|#|no\.?|:|：)?\s*$", re.I)
_A_THING_BEFORE = re.compile(
    r"\b(?:budget|deal|contract|PO|order|request|proposal|plan|project|launch|release|tender|renewal)\s"
    r"(?:is|was|has been|got|will be)\s(?:now\s|finally\s|officially\s)?$|"
    r"(?:招标|预算|合同|项目|方案|会议|发布|上线|采购)(?:可能|也许|估计)?(?:会|要|被|将)?$",
    re.I,
)
"""Right before a status: the thing it is of ("Anita says budget is approved", 刘主任说招标可能会延期)."""
_A_GROUP_FEELS = re.compile(
    r"\b(?:(?:the|their|our|all the|all|most|some|many)\s(?:[a-z-]+\s)?(?:[a-z]+s|staff|team|people|folks)|"
    r"everyone|everybody)\s(?:all\s|really\s|just\s|still\s|kinda\s)?$|"
    r"(?:员工|同事|用户|客户|大家|孩子们|学生)们?(?:都|也|还)?(?:很|特别|不太)?$",
    re.I,
)
"""Right before a taste: a group feels it ("he says the engineers hate the new VPN"), not the teller."""
_TASTES = frozenset({"LIKES", "DISLIKES", "LOVES", "PREFERS"})
_NO_OBJECT = re.compile(r"^(?:到时候|那时候?|以后|之后|现在|目前|此致|敬礼|祝好)$|(?<!再)说$")
_SPLIT_NAME = re.compile(r"^[员生]")
_PLAN_NOT_THEIRS = re.compile(r"^由|^让")
_ASKED = re.compile(r"(?:吗|呢|么)？?\s*$|？\s*$")
_ASKED_TO_ATTEND = re.compile(
    r"(?:让|叫|请)[\u4e00-\u9fff]{1,3}(?:这周|下周|明天|今天|周[一二三四五六日末])?$"
)
_WISHED_TO_GO = re.compile(r"(?:想|打算|准备|计划)(?:要)?(?:去|到)$")
_WANTED = re.compile(
    r"\b(?:wants?|wanted|would like|hoping|hopes?|thinking (?:about|of)|considering)\b(?:\s\w+){0,3}\sto\b|"
    r"想要|希望",
    re.I,
)
"""A wish before a tool's use or end ("wants us all to start using Clari"), not a plan already made."""
_GOES_ON = re.compile(r"\s*(?:and\s)?(?-i:[a-z]+ing)\b")
"""A clause that goes on with a participle ("…, dropping the spreadsheet") and so with the last one's mood."""
_NOT_SETTLED_IN = re.compile(r"住不惯|住不习惯|待不惯|待不习惯")
_RARELY_USED = re.compile(r"不太用|不怎么用|很少用|不常用|不大用")


def not_theirs(
    predicate: str,
    subject: str,
    target: str | None,
    value: Scalar | None,
    reading: Sentence,
    clause: tuple[int, int],
    cue: int,
    obj_start: int,
    message: Message,
) -> bool:
    """Return True when the fact ``subject predicate target|value``, read at ``cue`` (the object at
    ``obj_start``) in ``clause`` of ``reading``, is not what the sentence says of ``subject`` (see the
    module docstring)."""
    sentence, before = reading.text, reading.text[: max(cue, obj_start)]
    said = target if target is not None else value if isinstance(value, str) else None
    speaker = message.speaker.actor
    if said is not None and (_NO_OBJECT.search(said) or (predicate == "STUDIES" and _SPLIT_NAME.match(said))):
        return True
    if subject == speaker and (_INTRODUCED.search(before) or _OUR_CHILD.search(before)):
        return True
    if subject != speaker and (other := _KINS_OTHER.search(before)) and not subject.endswith(other["other"]):
        return True
    if (
        predicate in _TOOLS_CANNOT
        and _A_TOOL.search(subject)
        and (
            not _typed(subject, "organisation", reading, message)
            or re.search(rf"(?:新的?|这个|那个|这款|那款|the new|our|their)\s?{re.escape(subject)}", sentence)
        )
    ):
        return True  # not 云帆软件, a firm; but 新的排课软件 is a tool whatever its name looks like
    if (
        predicate == "QUANTITY"
        and (at := sentence.find(subject)) > 0
        and _A_TICKET_BEFORE.search(sentence[:at])
    ):
        return True
    if predicate == "WORKS_AT" and _A_DEVICE.search(subject):
        return True  # 德尔格给鼓楼医院报的麻醉机: a product, no employee
    if predicate == "HAS_ROLE" and target and subject.endswith(target) and len(subject) <= len(target) + 1:
        return True
    if (
        predicate == "STATUS"
        and _A_THING_BEFORE.search(sentence, clause[0], obj_start)
        and _typed(subject, "person", reading, message)
    ):
        return True
    if predicate in _TASTES and _A_GROUP_FEELS.search(sentence, clause[0], cue):
        return True
    if predicate == "SPONSORED_BY" and re.search(r"\bsigned with\s$", sentence[:obj_start]):
        return not _typed(subject, "person", reading, message)
    if predicate == "PLANS_TO" and (
        (said and _PLAN_NOT_THEIRS.match(said)) or _ASKED.search(sentence, clause[0])
    ):
        return True
    if predicate == "VISITED" and _WISHED_TO_GO.search(sentence, clause[0], obj_start):
        return True
    if predicate in ("USES", "STOPPED_USING") and _wished(reading, clause, cue):
        return True
    if predicate == "ATTENDED" and _ASKED_TO_ATTEND.search(sentence, clause[0], cue):
        return True
    if predicate == "LIVES_IN" and _NOT_SETTLED_IN.search(sentence):
        return True
    return predicate == "STOPPED_USING" and bool(_RARELY_USED.search(sentence, clause[0], clause[1]))


def _typed(name: str, kind: str, reading: Sentence, message: Message) -> bool:
    """Return True when ``name`` is an entity of type ``kind`` in the message or the sentence."""
    return (name, kind) in message.entities or any(
        m.name == name and m.type == kind for m in reading.mentions
    )


def _wished(reading: Sentence, clause: tuple[int, int], cue: int) -> bool:
    """Return True when a tool's use or its end at ``cue`` is wished or planned ("Rachel wants us all to
    start using Clari in January, dropping the spreadsheet"), in its clause or the one it goes on from."""
    if _WANTED.search(reading.text, clause[0], cue):
        return True
    earlier = [c for c in reading.clauses if c[1] <= clause[0]]
    return bool(
        earlier
        and _GOES_ON.match(reading.text, clause[0])
        and _WANTED.search(reading.text, earlier[-1][0], clause[0])
    )
