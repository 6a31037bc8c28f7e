"""Facts refused once their subject and object are known: what the sentence says, but not of that
subject.

- Someone the writer introduces holds what the sentence goes on to say (我有个妹妹在英国读研，
  学的是金融; 我家小雨今年八岁…特别喜欢画画; 朵朵最近迷上了画画), not the writer; a relative's
  partner or friend holds it, not the relative (我弟那个女朋友…在苏州当老师); someone else's
  interview, a relative who goes or a task the listener owes is no meeting or deadline of the
  writer's (我室友阿杰下周要去深圳面试, …我老公去, 你把…之前给我).
- A tool pays, prices, counts and uses nothing (CRM更新：…预付了定金1000元, 新的排课软件…还是用
  Excel): the note it labels is about a customer; a ticket counts nothing (工单…一台监护仪: the
  unit is the device's); a device works nowhere (德尔格给鼓楼医院报的麻醉机); a firm moved to a
  vendor lives nowhere ("Brackenridge moved to ADP").
- A title one is called by is no role held (陈老师 → 老师, "Coach Ramirez"); a status of a thing
  or a field (延期, "approved", 商机阶段改成“暂停”, a hospital's 出院, "streak died", 施工期间
  外卖暂停) is no person's; what a group feels ("he says the staff hate the app") is not the
  teller's; a firm that "signed with" a vendor is its customer, not its sponsored athlete; a
  dog's age is not the age of the one telling of it.
- A piece of the sentence is no object: a time (到时候就不续了, "we cancel Jan 1"), a teller
  (宋佳怡家长说不续了), a hedge (估计), a bare task (筹备), a word split from its name (学员黄子轩
  → 员黄子轩), a letter's closing (此致); a plan handed to another (由新招的高老师接手),
  undecided (是否采购) or asked about (…可以吗？) is not the subject's; someone asked to attend
  (让小何这周参加一下培训) is not the writer.
- What did not happen or does not hold: a place one cannot get used to (住不惯上海), a move
  called off ("won't be moving to Manchester after all"), a visa (去德国的签证), study or a job
  one is "going to" (no visit), a leaving only said possible (可能要辞职), where one studied
  once (在长沙读的书), a pet given up (养猫还是算了吧), a tool rarely used (不太用CRM手机端) or
  not to be used as a reference, a smile that has not stopped, a tool asked about, a job lost, a
  weekly rule (no one deadline), and a tool wished for ("wants us all to start using Clari…,
  dropping the spreadsheet"), neither used nor dropped.
- From the fourth round: chat words (btw) and a list's next item (4）下次周会…) are no objects; a street is
  no tool ("store 14 on Morse Rd"); a refusal to give up ("no way I'm giving up cheese"), a declined offer,
  a responsibility "no longer" covered, a threshold ("over $400k TCV"), a report sent ("sent SOC 2 report to
  Dev"), a date's year as a count, an instruction ("use the Salesforce scheduler"), an office's new address,
  a budget overrun (超预算了12万), where parents come to (从老家过来北京), a payer's town ("Guy from Troy
  paid"), a raise owned, and a clinic's "closed" on the person who mentions it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engram.graph.places import is_place
from engram.ingest.reading import Message, Sentence
from engram.models.graph import Scalar
from engram.nlp.timeexpr import RECURRING

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
_A_CHILDS_NAME = re.compile(r"([\u4e00-\u9fff])\1(?=最近|今年|已经|才|刚|特别|又|也|每|在)")
"""A sentence opening with a doubled name (朵朵最近迷上了画画, 豆豆今年上小学): a child's."""
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
_NO_OBJECT = re.compile(
    r"^(?:到时候|那时候?|以后|之后|现在|目前|此致|敬礼|祝好|估计|可能|应该|大概|也许|筹备|跟进|处理|安排|对接|准备|"
    r"新款|旧款|这款|那款|(?:我们|咱们)(?:行|这|那|公司|单位)里?|btw|lol|tbh|fyi|imo|haha)$|"
    r"(?<!再)说$|^\d+[）)]"
)
_SPLIT_NAME = re.compile(r"^[员生习校]")
_PLAN_NOT_THEIRS = re.compile(r"^(?:由|让|是否|要不要|能否)|^从(?![^，。]*(?:换|到|改|转))[^，。]{1,10}$")
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
_SET_TO = re.compile(
    r"(?:改成|改为|设为|设置为|标为|标成|set (?:it )?to|changed (?:it )?to)\s?[\"“'‘「]?$", re.I
)
"""Before a status: a field set to a value (商机阶段我改成“暂停”了), not how anyone is."""
_A_PERSONS_STATUS = re.compile(
    r"出院|住院|退休|离职|怀孕|生病|康复|\b(?:retired|pregnant|discharged|sick)\b", re.I
)
_GIVEN_UP = re.compile(r"算了|还是不了|不养了|\b(?:decided against|not getting)\b", re.I)
_WITH_BEFORE = re.compile(r"(?:跟|向|找|和|问|给)$")
"""Before a group: one asks it or deals with it (跟HR申请), no membership."""
_SOMEONE_ELSE_GOES = re.compile(
    r"我(?:家)?(?:老公|老婆|爸|妈|爱人|先生|太太|对象)(?:去|参加)|(?<![跟和与约找见])你(?:把|要|得)"
)
"""In a meeting's or a deadline's sentence: a relative goes (…开家长会，我老公去) or the listener owes it
(刘敏，你把…下周三之前给我): not the writer's."""
_STUDIED_ONCE = re.compile(r"读的$")
_HEDGED_LEAVING = re.compile(r"可能(?:要|会)|也许|或许|\b(?:might|may|could)\b", re.I)
_PET_SAID = re.compile(r"狗|猫|\b(?:dog|cat|puppy|kitten)s?\b", re.I)
"""Between a person and an age: a pet the age is of (老狗阿黄走了，十四岁了). Narrower than the pet words
of ``engram.ingest.refusals.said_of_a_pet``, which would take the breed after a pet's own name
(豆包，柯基，三岁) for another pet."""
_DURING = re.compile(r"期间|的时候|\bduring\b", re.I)
_GOING_FOR = re.compile(
    r"\bfor (?:engineering|college|uni|university|school|grad school|a job|work|law school|med school)\b|"
    r"\bto (?:study|work)\b|\b(?:leaving|left|quit|quitting)\b",
    re.I,
)
"""Beside "going to X": study or a job there ("going to Purdue for engineering", "leaving Orbis…, going to
Maersk"), not a visit."""
_THING_DIED = re.compile(
    r"\b(?!(?:he|she|i|they|dad|mom|mum|father|mother|grandpa|grandma|granny|grandad|grandfather|grandmother|"
    r"uncle|aunt|cousin|brother|sister|husband|wife|friend|son|daughter|dog|cat|puppy|kitten|bird|hamster)\b)"
    r"(?:(?-i:[a-z]+)|(?<=\bmy\s)\w+|(?<=\bour\s)\w+)\s(?:just\s|finally\s)?$",
    re.I,
)
"""Before "died": a thing ("streak died at 61", "our water heater died"), not the writer."""
_DONT_USE = re.compile(r"\b(?:don't|do not|never)\suse\b", re.I)
_NOT_STOPPED = re.compile(
    r"\b(?:hasn't|haven't|hadn't|didn't|never|can't|won't|not)\s(?:\w+\s)?(?:stop|stopped|quit)\b", re.I
)
_ASKS_STILL = re.compile(r"^\W*(?:quick q\W*)?(?:are|is|do|does|did|have|has|were|was)\b", re.I)
_LOST_A_JOB = re.compile(r"\blost (?:my|his|her|their) job (?:at|with)\s$", re.I)
_A_DAY_SAID = re.compile(
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s\d{1,2}$|^\d{1,2}[/.-]\d{1,2}$", re.I
)
_NOT_MOVING = re.compile(
    r"\b(?:won't|will not|isn't|is not|not)\s(?:be\s)?(?:moving|relocating|move)\s(?:to|back to)\s$", re.I
)
_LEFT_A_THING = re.compile(r"\bleft (?:my|his|her|our|their|the|a|an)\s(?!job\b)(?:[\w-]+\s){0,2}$", re.I)
"""Before a name: something left behind ("I left my Dialpad cheat sheet in the shared drive")."""
_HEARSAY_OR_ASKED = re.compile(r"\b(?:not sure|I heard|rumou?r|can anyone confirm)\b|\?\s*$", re.I)
_NOT_KEPT_UP = re.compile(r"没坚持|坚持不下去|没能坚持|\bdidn't last\b", re.I)
_NOT_ALLOWED = re.compile(r"不允许|不让|禁止|不准|\bnot allowed to\b|\bbanned\b", re.I)
_URGED_TO_GO = re.compile(r"(?:催|劝|叫|让|要)我(?:早点|赶紧|快点)?回?$")
_MOVED_FOR_WORK = re.compile(r"调回|调到|调去|派到|外派到?$")
_TO_SEE = re.compile(r"参观|拜访|考察|见|学习|\bvisit", re.I)
"""Beside an organisation one goes to: a visit (去北京参观华为), not a job (他要去字节)."""
_A_LANE = re.compile(r"([\u4e00-\u9fff]{2,3})(?:到|至|-|—)$")
"""Before a place: another place and 到 (厦门到成都): a freight lane, no trip."""
_NOT_GIVING_UP = re.compile(r"\b(?:no way|never gonna|not giving up|won't give up)\b|才不|绝不", re.I)
_A_THRESHOLD = re.compile(
    r"(?:\b(?:over|above|under|below|more than|less than|at least)|超过|低于|不超过)\s?$", re.I
)
_DECLINED = re.compile(r"\b(?:declined|turned (?:it )?down|rejected|refused)\b|拒绝|没接受|不接受", re.I)
_SENT_ON = re.compile(r"\b(?:sent|send|sending|emailed|forwarded|shared)\b", re.I)
_NOT_COVERING = re.compile(
    r"\b(?:no longer|not|never)\s(?:[\w-]+\s){0,2}$|n't\s(?:[\w-]+\s){0,2}$|不再[^，。]{0,4}$", re.I
)
_AN_OFFICE_MOVED = re.compile(r"(?:搬了办公室|办公室搬|新办公室)[^。]*地址|\boffice\b[^.]*\baddress\b", re.I)
"""An office's new address (只是搬了办公室，新地址在滨江区江南大道), not where the writer lives."""
_THERE_FROM = re.compile(r"(?:过来|回来|来|到|去)$")
"""Before a place one "comes from": where one goes (从老家过来北京), not where one is from."""
_THING_IS = re.compile(r"\bthe\s(?-i:[a-z]+)\s(?:is|was|are|were|will be)\s(?:\w+\s)?$", re.I)
"""Before a status given to a person: a thing is in that state ("when the clinic is closed")."""
_A_RAISE = re.compile(r"^(?:a\s)?(?:raise|promotion|bonus|cold|flu|headache)$", re.I)
_NOT_SETTLED_IN = re.compile(r"住不惯|住不习惯|待不惯|待不习惯")
_RARELY_USED = re.compile(r"不太用|不怎么用|很少用|不常用|不大用")


@dataclass(frozen=True, slots=True)
class _Read:
    """One fact as read: ``subject predicate target|value`` at ``cue`` (the object at ``obj_start``) in
    ``clause`` of ``reading``."""

    predicate: str
    subject: str
    target: str | None
    value: Scalar | None
    reading: Sentence
    clause: tuple[int, int]
    cue: int
    obj_start: int
    message: Message

    @property
    def text(self) -> str:
        return self.reading.text

    @property
    def said(self) -> str | None:
        """The object as said: the entity's name or a value in words."""
        return self.target if self.target is not None else self.value if isinstance(self.value, str) else None

    @property
    def by_speaker(self) -> bool:
        return self.subject == self.message.speaker.actor

    def typed(self, name: str, kind: str) -> bool:
        return _typed(name, kind, self.reading, self.message)

    def in_clause(self, pattern: re.Pattern[str], *, to_object: bool = False) -> bool:
        """Return whether ``pattern`` occurs in the fact's clause (up to the object: ``to_object``)."""
        end = self.obj_start if to_object else self.clause[1]
        return pattern.search(self.text, self.clause[0], end) is not None


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
    fact = _Read(predicate, subject, target, value, reading, clause, cue, obj_start, message)
    return _no_object(fact) or _another_holds_it(fact) or _not_that_kind(fact) or _did_not_happen(fact)


def _no_object(fact: _Read) -> bool:
    """A piece of the sentence read as the object (到时候, 宋佳怡家长说, 员黄子轩, "Jan 1"), or a plan that is
    another's, undecided or asked about."""
    said, predicate = fact.said, fact.predicate
    if said is not None and (
        _NO_OBJECT.search(said)
        or (predicate == "STUDIES" and _SPLIT_NAME.match(said))
        or (predicate == "RESPONSIBLE_FOR" and "把" in said)  # 12月底之前把年度总结（交给我）: a task asked
        or (predicate == "CANCELLED" and _A_DAY_SAID.match(said))  # "we cancel Jan 1": when, not what
    ):
        return True
    return predicate == "PLANS_TO" and bool(
        (said and _PLAN_NOT_THEIRS.match(said)) or _ASKED.search(fact.text, fact.clause[0])
    )


def _another_holds_it(fact: _Read) -> bool:
    """Someone or something else the sentence names holds the fact: an introduced relative or child, a
    relative's partner, another's meeting or task, a pet's age, a group's taste, a thing's status."""
    text, subject, predicate, clause = fact.text, fact.subject, fact.predicate, fact.clause
    before = text[: max(fact.cue, fact.obj_start)]
    if fact.by_speaker and (
        _INTRODUCED.search(before) or _OUR_CHILD.search(before) or _A_CHILDS_NAME.match(text)
    ):
        return True
    if not fact.by_speaker and (other := _KINS_OTHER.search(before)) and not subject.endswith(other["other"]):
        return True
    if (
        fact.by_speaker
        and predicate in ("MEETING_AT", "DEADLINE")
        and (_SOMEONE_ELSE_GOES.search(text) or _another_sets_out(fact))
    ):
        return True  # 阿杰下周要去深圳面试, 我老公去, 你把…之前给我
    if predicate == "ATTENDED" and _ASKED_TO_ATTEND.search(text, clause[0], fact.cue):
        return True
    if predicate == "AGE" and _PET_SAID.search(text, _end_of(subject, text), fact.obj_start):
        return True  # 我妈打电话说家里那条老狗阿黄走了，十四岁了: the dog's age
    if predicate in _TASTES and _A_GROUP_FEELS.search(text, clause[0], fact.cue):
        return True
    return predicate == "STATUS" and _a_things_status(fact)


def _a_things_status(fact: _Read) -> bool:
    """A status said of a thing, a field or a time, not of the person or place it was given to."""
    text, subject = fact.text, fact.subject
    if fact.in_clause(_A_THING_BEFORE, to_object=True) and fact.typed(subject, "person"):
        return True  # "Anita says budget is approved", 刘主任说招标可能会延期
    if fact.in_clause(_THING_IS, to_object=True) and fact.typed(subject, "person"):
        return True  # "Brenda wants it done when the clinic is closed"
    if fact.in_clause(_SET_TO, to_object=True):
        return True  # 商机阶段我改成“暂停”了: a field's value
    if _A_PERSONS_STATUS.search(str(fact.value)) and (
        fact.typed(subject, "organisation") or fact.typed(subject, "place")
    ):
        return True  # 人民医院 … 出院: a patient's state
    if _DURING.search(text, _end_of(subject, text), fact.obj_start):
        return True  # 施工期间外卖暂停: a time, not what pauses
    return (
        fact.by_speaker
        and str(fact.value).lower() in ("died", "dead")
        and fact.in_clause(_THING_DIED, to_object=True)
    )  # "streak died at 61", "our water heater died"


def _not_that_kind(fact: _Read) -> bool:
    """The subject or object is not of the kind the predicate needs: a tool, a ticket or a device as a
    holder, a title as a role, a vendor as a home or a sponsor, a job or a lane as a trip."""
    text, subject, target, predicate = fact.text, fact.subject, fact.target, fact.predicate
    if (
        predicate in _TOOLS_CANNOT
        and _A_TOOL.search(subject)
        and (
            not fact.typed(subject, "organisation")
            or re.search(rf"(?:新的?|这个|那个|这款|那款|the new|our|their)\s?{re.escape(subject)}", text)
        )
    ):
        return True  # not 云帆软件, a firm; but 新的排课软件 is a tool whatever its name looks like
    if predicate == "QUANTITY" and (at := text.find(subject)) > 0 and _A_TICKET_BEFORE.search(text[:at]):
        return True
    if predicate == "QUANTITY" and text[fact.obj_start - 1 : fact.obj_start] in ("/", "-", "."):
        return True  # "renewal 2/1/2027": a date's year
    if predicate == "PRICE" and _A_THRESHOLD.search(text, max(0, fact.obj_start - 16), fact.obj_start):
        return True  # "needs CFO approval since it's over $400k TCV": a threshold
    if predicate == "REPORTS_TO" and fact.in_clause(_SENT_ON, to_object=True):
        return True  # "sent SOC 2 Type II report to Dev": a document sent
    if predicate == "COMES_FROM" and fact.in_clause(_THERE_FROM, to_object=True):
        return True
    if predicate == "OWNS" and fact.said and _A_RAISE.match(fact.said):
        return True  # "just got a raise"
    if (
        predicate == "PAID"
        and (at := text.find(subject)) > 0
        and text[:at].endswith("from ")
        and is_place(subject)
    ):
        return True  # "Guy from Troy paid $6,500": the town of the payer
    if predicate == "USES" and target and re.search(r"\s(?:Rd|Ave|Blvd|St)\.?$", target):
        return True  # "store 14 on Morse Rd": a street, no tool
    if predicate == "USES" and re.match(r"\s*(?:please\s)?use\b", text[fact.clause[0] :], re.I):
        return True  # "…, use the Salesforce scheduler": an instruction, no one's use
    if predicate == "LIVES_IN" and fact.by_speaker and _AN_OFFICE_MOVED.search(text):
        return True  # 只是搬了办公室，新地址在滨江区江南大道: an office's address
    if predicate == "WORKS_AT" and (_A_DEVICE.search(subject) or fact.in_clause(_LOST_A_JOB, to_object=True)):
        return True  # 德尔格给鼓楼医院报的麻醉机: a product; "Dave lost his job at Anthem"
    if predicate == "HAS_ROLE" and target and subject.lower().endswith(target.lower()):
        return len(subject) <= len(target) + 1  # 陈老师 → 老师, "Coach Ramirez" → ramirez
    if predicate == "SPONSORED_BY" and re.search(r"\bsigned with\s$", text[: fact.obj_start]):
        return not fact.typed(subject, "person")
    if predicate == "MEMBER_OF" and fact.in_clause(_WITH_BEFORE, to_object=True):
        return True
    if predicate == "LEFT_ORGANISATION" and fact.in_clause(_LEFT_A_THING, to_object=True):
        return True
    if predicate == "STUDIES" and fact.in_clause(_STUDIED_ONCE, to_object=True):
        return True  # 在长沙读的书, 来上海读的大学: where one studied once
    if predicate == "DEADLINE" and fact.in_clause(RECURRING):
        return True  # "forecasts in there every Monday by 9am": a rule, no one deadline
    if (
        predicate == "LIVES_IN"
        and not fact.by_speaker
        and target
        and not is_place(target)
        and not fact.typed(subject, "person")
        and not fact.typed(subject, "organisation")
    ):
        return True  # "Brackenridge moved to ADP": a vendor, nobody's home (not 乐途科技…公司在望京)
    return predicate in ("VISITED", "PLANS_TO_VISIT") and _no_trip(fact)


def _no_trip(fact: _Read) -> bool:
    """A place or an organisation one goes to for a job or study, is urged to, is posted to, or that
    starts a freight lane: no trip."""
    text, target, clause = fact.text, fact.target, fact.clause
    if _GOING_FOR.search(text, 0, clause[1] + 40):
        return True  # "going to Purdue for engineering", "leaving Orbis…, going to Maersk"
    if (
        fact.in_clause(_URGED_TO_GO, to_object=True)
        or fact.in_clause(_MOVED_FOR_WORK, to_object=True)
        or ((lane := _A_LANE.search(text, clause[0], fact.obj_start)) and _ends_in_a_place(lane[1]))
    ):
        return True  # 我妈催我回长沙, 调回杭州工作, 厦门到成都的冷链
    return bool(
        fact.predicate == "PLANS_TO_VISIT"
        and target
        and fact.typed(target, "organisation")
        and not is_place(target)
        and text.endswith("去", 0, fact.obj_start)
        and not fact.in_clause(_TO_SEE)
    )  # 他要去字节: a job, not 去北京参观华为


def _did_not_happen(fact: _Read) -> bool:
    """Said, but not as having happened or holding: wished, given up, hedged, denied, asked, forbidden."""
    text, predicate, clause = fact.text, fact.predicate, fact.clause
    if predicate == "VISITED" and (
        fact.in_clause(_WISHED_TO_GO, to_object=True)
        or (
            fact.target
            and text.startswith("的", fact.obj_start + len(fact.target))
            and re.search(r"(?:去|到)了?(?:一家|一个|那家|这家)?$", text[clause[0] : fact.obj_start])
        )
    ):
        return True  # 想去杭州发展; 去德国的签证下来了: a visa, no visit yet
    if predicate in ("USES", "STOPPED_USING") and _wished(fact.reading, clause, fact.cue):
        return True
    if predicate in ("HAS_PET", "PLANS_TO") and _GIVEN_UP.search(text, clause[0]):
        return True  # 养猫还是算了吧, 想养只小金毛…算了
    if predicate == "LEFT_ORGANISATION" and _HEDGED_LEAVING.search(
        text, clause[0], max(fact.cue, fact.obj_start)
    ):
        return True  # 她可能要从海底捞辞职了
    if predicate == "STOPPED_USING" and (
        fact.in_clause(_DONT_USE)
        or fact.in_clause(_NOT_STOPPED)
        or fact.in_clause(_RARELY_USED)
        or _NOT_ALLOWED.search(text, clause[0], max(fact.cue, fact.obj_start))
    ):
        return True  # "don't use Halcyon as a reference", "hasn't stopped smiling", 不太用, 不允许用飞书
    if predicate == "STOPPED_USING" and _NOT_GIVING_UP.search(text, clause[0], max(fact.cue, fact.obj_start)):
        return True  # "no way I'm giving up cheese"
    if predicate == "DISCOUNT" and _DECLINED.search(text):
        return True  # "tried a save offer (20% off), they declined"
    if predicate == "RESPONSIBLE_FOR" and fact.in_clause(_NOT_COVERING, to_object=True):
        return True  # "I'm no longer covering Sunnyvale accounts"
    if predicate == "USES" and text.rstrip().endswith("?") and _ASKS_STILL.search(text[clause[0] :]):
        return True  # "are we still using Fieldwire on Kessler…?"
    if predicate == "INTERESTED_IN" and _HEARSAY_OR_ASKED.search(text):
        return True  # "I heard Dr. Okafor is thinking about selling Riverside? Can anyone confirm?"
    if predicate in ("DIET", "LIKES", "USES") and _NOT_KEPT_UP.search(text, clause[0]):
        return True  # 吃素没坚持下去
    return predicate == "LIVES_IN" and bool(
        fact.in_clause(_NOT_MOVING, to_object=True) or _NOT_SETTLED_IN.search(text)
    )  # "Kiera won't be moving to Manchester after all", 住不惯上海


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


def _end_of(name: str, sentence: str) -> int:
    """Return where ``name`` ends in ``sentence`` (0 when it is not there: the subject was implied)."""
    at = sentence.find(name)
    return at + len(name) if at >= 0 else 0


def _another_sets_out(fact: _Read) -> bool:
    """Return True when another person opens the fact's clause (我室友阿杰下周要去深圳面试), not one the
    writer meets (跟王总下周三见面)."""
    text, start = fact.text, fact.clause[0]
    return any(
        m.type == "person"
        and m.name != fact.message.speaker.actor
        and start <= m.start < fact.cue
        and not re.search(r"[跟和与同约找见请给]", text[start : m.start])
        and "我" not in text[m.end : fact.cue]
        for m in fact.reading.mentions
    )


def _ends_in_a_place(text: str) -> bool:
    """Return True when ``text`` ends in a place the gazetteers know (想要厦门 → 厦门)."""
    return any(is_place(text[-n:]) for n in (2, 3) if len(text) >= n)
