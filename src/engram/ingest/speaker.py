"""Whether a statement with no subject of its own is the speaker's, and who held what a handover
hands on: the readings of the builtin extractor (engram.ingest.builtin) about the speaker.
"""

from __future__ import annotations

import re

from engram.ingest.frames import EN_TRIP_PRAISED, ZH_ROLE
from engram.ingest.mentions import is_first_name
from engram.ingest.mentions_zh import ORG_SUFFIX
from engram.ingest.reading import Message, Sentence
from engram.ingest.subjects import nearest_subject

PERSON_TYPES = frozenset({"person", "animal", "thing"})
"""What may be the subject of a predicate about a person (a pet; an unknown name)."""

_ZH_OWNER = re.compile(r"([\u4e00-\u9fff]{1,6})的$")
"""Whose the word at the cue is ("总监的邮箱"): someone's but the speaker's unless it is 我(们)的."""
_ZH_FIRST_PERSON = ("我", "我们", "咱们", "自己")
_ZH_MY_NEW = re.compile(r"新(?:的)?(?:号码|手机号?|电话|邮箱|微信)")
_ZH_NOTE_HEAD = re.compile(
    r"^\s*(?:【[^】]{0,12}】\s*)?(?:新线索|线索|客户拜访|拜访记录|拜访纪要|客户信息|客户跟进|跟进记录|商机)[：:]"
)
"""A CRM note's heading: what its clauses say without a subject is the customer's, not the writer's."""
_ZH_ROLE_IS = re.compile(rf"\s*(?:{ZH_ROLE}|负责人|创始人|对接人|联系人|决策人)是")
"""A clause opening with a role (负责人是德国人…): it speaks of whoever holds it."""
_ZH_FORMER_HOLDER = re.compile(r"(?:之前|原来|以前|原先)(?:负责|跟|对接|管|带)的(?:那个|那位)?")
_EN_TRIP_HAD = rf"(?-i:[A-Z][\w'’-]+(?:\s[A-Z][\w'’-]+)?)\s{EN_TRIP_PRAISED}"
"""A place told of as a trip the writer had ("Marrakech was amazing"): the writer is the one who went."""
_EN_BARE_START = re.compile(
    rf"^{_EN_TRIP_HAD}|"
    r"^(?:(?:big |some |quick |small |life |good )?(?:news|update)[:!]\s+)?"  # "big news: starting at …"
    r"(?:(?:yeah|yes|oh|wow|so|well|haha|lol|and|but|also|actually|honestly|plus|btw|just|still|not|"
    r"recently|lately|finally|totally|really|officially|already|welp|ok|okay)[,!]?\s+)*(?:gonna|been|just|went|switching|"
    r"got|love|started|starting|leaving|finished|had|made|joined|signed|took|bought|booked|moving|flying|driving|flew|drove|settled|visited|ran|tried|learning|"
    r"working|living|planning|doing|taking over|covering|picking up|handing|training|racing|"
    r"new (?:place|flat|apartment|house|home|job|room|studio|condo)|grew up|born|staying|renting|back from|"
    r"thinking|hoping|going|heading|can't wait|never|always|used to|gave|quit|left|sold|lost|found|began|"
    r"kept|deleted|uninstalled|cancelled|canceled|ditched|dropped|switched|replaced|no more|stopped|moved|"
    r"adopted|graduated|retired|passed|completed|vegan|vegetarian|pescatarian|"
    r"(?:(?:day|week|month)\s\d+|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a few|several)\s"
    r"(?:days?|weeks?|months?|years?))(?:\snow)?\swithout|"
    r"(?!(?:need|feed|seed|bed|red|speed|indeed|hundred|shed|wed|breed|weed|based|attached|excited)\b)"
    r"[a-z]{2,}ed(?=\s(?:up|out|off|in|on|to|into|my|our|the|a|an|some|from|with|over|back|away|down|it|them|"
    r"\d)\b))\b",
    re.I,
)
"""How a chat sentence whose subject is the speaker, unsaid, begins: "Gave up caffeine last month",
"Moved out of Brooklyn", "Officially quit Instagram" (a past-tense verb first, some irregular; a
word in -ed only before a particle or a determiner: "Reed works at Apple" names Reed)."""
_EN_SUBORDINATE = re.compile(
    r"\b(?:that|who|which|whom|whose|when|where|because|if|"
    r"found out|heard|learned|learnt|noticed|realized|realised|turns out)\b",
    re.I,
)
"""Before the cue: the clause is another's ("Dated a guy who worked at Google", "Just found out Nordvik's
champion, Erik Solberg, moved to Tidewave")."""
_TOPIC_HOLDERS = frozenset({"person", "organisation"})
"""Names whose topic a later Chinese clause without a subject continues."""
_EN_OWNER = re.compile(
    r"\b(?:their|his|her|its|(?:the\s)?(?:client|customer|prospect)['’]s|"
    r"(?!(?:Let|That|It|What|Here|There|He|She|Who|Where|How)['’]s)(?-i:[A-Z][\w&]*)['’]s)"
    r"\s+(?:[\w-]+\s+){0,2}$",
    re.I,
)
_ZH_OTHERS_OWN = re.compile(
    r"(?:(?:客户|对方|他们|她们|他|她|甲方|人家)的|"
    r"(?!我们|咱们|我司|公司|今年|明年|去年|本年|全年|年度|这个|那个|整个)[\u4e00-\u9fff]{2,6}的(?:项目|工程))$"
)
"""Whose a budget is when not the speaker's: 客户的预算, 博世的项目预算 (a customer's project)."""
_EN_THIRD_OWNER = re.compile(r"\b(?:their|his|her)\b", re.I)
_MINE = re.compile(r"(?:my|our)\s", re.I)
_FROM_HOLDER = re.compile(r"\s+from (me|us|(?-i:[A-Z][a-z]+(?: [A-Z][a-z]+)?))\b", re.I)
"""Who held what is taken over, said after it: "takes over EMEA partnerships from me"."""


def owned_by_another(reading: Sentence, cue: int) -> bool:
    """Return True when the word at ``cue`` is said to be someone else's, whatever else the sentence
    says ("Their budget is $200k, ours is smaller", "the client's budget", 客户的预算是80万)."""
    owner = _EN_OWNER if reading.lang == "en" else _ZH_OTHERS_OWN
    return owner.search(reading.text, max(0, cue - 40), cue) is not None


def someone_else(reading: Sentence, cue: int) -> bool:
    """Return True when a sentence without a first person speaks of someone else before ``cue``
    ("Dana says …", "according to their CFO, …", 客户张总说…); a bare "The budget is 500k" is the
    speaker's guess."""
    if reading.lang == "zh":
        return not speaker_implied(reading, cue)
    return _EN_THIRD_OWNER.search(reading.text, 0, cue) is not None or any(
        c.kind in ("mention", "block") and c.start < cue for c in reading.candidates
    )


_ANNOUNCEMENT = re.compile(
    r"^\s*(?:【[^】]{0,12}】\s*)?(?:@(?:全体|所有人)|各位|全体|大家(?:请)?注意|(?:行政|人事|IT|财务)?(?:通知|公告|提醒)[:：]|"
    r"提醒(?:一下)?(?:各位|大家|全体)|"
    r"(?i:@(?:all|channel|here|everyone)\b|(?:hi|hello|hey) (?:all|team|everyone)\b|"
    r"reminder\b(?!\s(?:me|to)\b)|"
    r"heads up,? (?:team|all)\b|announcement:|psa:))",
    re.M,
)


_MINUTES = re.compile(
    r"^\s*(?:【[^】]{0,12}】\s*)?(?:"
    r"[^\n，。！？：:,.!?]{0,16}?(?:会议?(?:纪要|记录)|纪要|复盘)(?:\s*[（(][^）)\n]{0,20}[)）])?\s*[：:]|"
    r"(?![^\n]*[我你])[^\n，。！？：:,.!?]{0,16}?(?:(?<![站开要去在能不学就将也都还])会议?|纪要|复盘)(?:\s*[（(][^）)\n]{0,20}[)）])?"
    r"(?:\s+[^\n，。！？,.!?]{0,10})?\s*[：:]?\s*\n|"
    r"(?![^\n]*(?:\b(?i:I|we|my|our|you|thanks)\b|!))"
    r"(?i:[^\n]{0,40}?\b(?:minutes|notes|sync|retro|all-hands|steering committee)\b[^\n:]{0,30})"
    r"\s*[：:]?\s*\n)"
)
"""A first line naming a meeting (行政例会纪要 5/7, 预算评审会, 会议纪要（12月18日 管理层周会）, 周会纪要：…,
"Meeting notes", "Bellweather kickoff notes", "PS team sync"; not a stand-up, 站会：, which is its
writer's own): the lines below are what the meeting decided, not what its writer does."""
_OTHERS_DO = re.compile(
    r"他们|她们|对方|人家|(?<!我们)(?<!咱们)(?<![我你这])那边|[他她](?=说|讲|答应|表示|回复)|\b(?:they|he|she)\b",
    re.I,
)
"""Said before the date in its clause: someone else's promise or plan (他们说下周三之前给, 快递那边改成了
今天下午5点前上门, "They meet on the 20th")."""
_ZH_THEY_MEET = re.compile(
    r"(?<![和跟与同约找见请])(?<!约了)(?<!见了)"
    r"(?:他们|她们|对方|客户|甲方|(?:(?![和跟与同约找见请])[\u4e00-\u9fff]){1,2}(?:总|校长|院长|主任|董事长))"
    r"(?:(?![我咱和跟与])[\u4e00-\u9fff\d]){0,8}?(?:内部|自己)?(?:开(?:个)?会|开董事会|在开|董事会)|"
    r"(?<!我们)(?<!我司)(?:开|在开)董事会"
)
"""In a meeting's clause, someone else meets (下周三他们内部开会讨论, 王校长9月中旬开会讨论,
这周在开董事会); not one met with (和客户开会, 约了客户下周二开会)."""
_YOURS = re.compile(r"\byour\b", re.I)
"""Before a deadline or a budget: the listener's ("Your next true-up is due on 15 July"); a meeting of
theirs ("your 90-day review") the writer may still attend."""
_ASKED_OF_ALL = re.compile(
    r"请(?:大家|各位|各部门|各组|全员|所有人)|\b(?:everyone|all of you) (?:please|must)\b", re.I
)
"""Said earlier in the sentence: a request to all (请各部门报名节目，截止12月20日)."""
_A_THINGS_BUDGET = re.compile(
    r"(?:研发|市场|营销|推广|活动|差旅|培训|采购|运营|人力|招聘|服务器|云服务|广告|团建|年会|体检)(?:的)?预算|预算(?:是|大概|约)?每人|每人预算|"
    r"\bbudget\b[^.;!?]{0,30}?\bfor (?:the |our |a |an )?(?:new )?(?-i:[a-z])(?!\w* (?:year|quarter)\b)|"
    r"\b(?:marketing|travel|training|hiring|R&D|project|events?|offsite|team|department|company|engineering|opex|capex)"
    r" budget\b|\bbudget (?:[^.;!?]{1,15} )?(?:per|a) (?:head|person|seat|user|hire|attendee)\b",
    re.I,
)
"""A budget said to be of a thing (研发预算, "budget … for the new warehouse migration", "events budget for
Q3", "budget per head"): not the writer's."""
_THEIR_OWN_MEETING = re.compile(r"\b(?:decision|internal|budget committee) meeting\b", re.I)
"""A meeting a customer holds without its vendor, unless the writer says they are in it."""
_NAMED_BUDGET = re.compile(
    r"(?-i:\b(?!(?:The|Our|My|This|That|Your|Total|Annual|Monthly|Yearly|New|Final|Approved|Overall|IT|HR|"
    r"Q[1-4]|H[12]|FY\w*|20\d\d)\b)[A-Z][\w&'-]+)\s+budget\b|"
    r"\bbudget\s(?:for|of)\s(?!(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)(?-i:[A-Z][a-z])",
    re.I,
)
"""A budget a name holds: "Orbis budget confirmed", "Riverside budget check", "Budget for Kessler …"."""
_SPEAKS_OF_SELF = re.compile(r"我|\bI\b|(?i:\b(?:me|my|we|us|our)\b)")


def minutes(text: str) -> bool:
    """Return True when ``text`` opens with a line naming a meeting (会议纪要, 绩效校准会, "Minutes")."""
    return bool(_MINUTES.match(text))


def not_the_speakers(reading: Sentence, cue: int, message: Message, first: bool, predicate: str) -> bool:
    """Return True when a budget, meeting or deadline with no named holder is not the speaker's:
    said by others in its clause or asked of all before it, with no first person after them
    (他们说周四之前能到, 请各部门报名，截止…, "they meet on the 14th"); or, with no first person
    before ``cue`` (``first``), a budget or a deadline in a team announcement or a meeting's minutes
    (the team's, the meeting's; a meeting there is one its writer attends)."""
    start = reading.clause_of(cue)[0]
    others = _OTHERS_DO.search(reading.text, start, cue) or _ASKED_OF_ALL.search(reading.text, 0, cue)
    if others and not _SPEAKS_OF_SELF.search(reading.text, others.end(), cue):
        return True
    if predicate != "MEETING_AT" and _YOURS.search(reading.text, start, cue):
        return True
    if predicate == "MEETING_AT" and _ZH_THEY_MEET.search(reading.text, start, reading.clause_of(cue)[1]):
        return True
    if (
        predicate == "MEETING_AT"
        and _THEIR_OWN_MEETING.search(reading.text, start, reading.clause_of(cue)[1])
        and not _SPEAKS_OF_SELF.search(reading.text, 0, reading.clause_of(cue)[1])
    ):
        return True  # "Greg says their CFO is back, decision meeting is Dec 3": theirs alone
    if predicate == "BUDGET" and (
        _A_THINGS_BUDGET.search(reading.text)
        or any(m.start() <= cue for m in _NAMED_BUDGET.finditer(reading.text))
    ):  # "Orbis budget confirmed at £95k/yr", "Budget for Kessler cold storage …: $2.74M" too
        return True  # 明年研发预算1200万, "Budget approved: €58,000 for the new data warehouse migration"
    return not first and (message.announced or message.minutes) and predicate != "MEETING_AT"


_ZH_FIRM_ENDS = "|".join(sorted(ORG_SUFFIX | {"旅游"}, key=len, reverse=True))
_ZH_ACCOUNT_NOTE = re.compile(
    r"^\s*(?:【[^】]{0,12}】\s*)?(?:客户[:：]\s*[^\s，。：:]{2,16}[。｜|\s]|"
    r"[^\s，。：:]{2,16}\s?(?:客户)?(?:二次)?(?:拜访|回访)(?:记录|小结|纪要)?[。：:，\s]|"
    r"(?:拜访|回访)(?:记录|小结|纪要)[：:]|"
    rf"[^\s，。：:]{{1,10}}(?:{_ZH_FIRM_ENDS})[：:]|"
    r"(?i:crm|call|account|visit|discovery|meeting)\s(?:note|notes|call|log)\s?[–—:-]\s?(?-i:[A-Z])[^:\n.]{1,40}:|"
    r"(?-i:[A-Z][\w&'-]+(?:\s[A-Z][\w&'-]+){0,3})\s(?i:call|sync|demo|meeting|qbr|kickoff|visit)\b[^:\n.]{0,20}:)"
)
"""A sales note's first words: 恒泽新能源 拜访。, 远帆汽配客户拜访小结：, 客户：瑞拓医疗器械。, 拜访记录：…,
锦程旅游：… (a firm's name, then a colon), "CRM note – Northwind Distribution:", "Orbis call:"."""


_ZH_CONTACT_NOTE = re.compile(r"\s*(?:【[^】]{0,10}】)?(?:CRM|客户|联系人)?(?:备注|画像|档案)[：:]")
"""A Chinese note about a customer's contact (CRM备注：, 客户画像：)."""


def note_contact(reading: Sentence, actor: str | None) -> str | None:
    """Return the person a Chinese contact note's first sentence names (CRM备注：万象零售 蒋晨 采购总监…),
    whose tastes and birthday its subjectless sentences then tell; None for any other sentence."""
    if reading.lang != "zh" or not _ZH_CONTACT_NOTE.match(reading.text):
        return None
    return next((m.name for m in reading.mentions if m.type == "person" and m.name != actor), None)


def account_note(text: str) -> bool:
    """Return True when ``text`` is a sales note about one customer (``_ZH_ACCOUNT_NOTE``)."""
    return bool(_ZH_ACCOUNT_NOTE.match(text))


def announcement(text: str) -> bool:
    """Return True when ``text`` opens, or a line of it opens (各位： under a mail's subject), by addressing a
    whole team (@全体, 各位同事, 行政通知：, 提醒各位老师, "@channel", "Hi team", "Reminder:")."""
    return bool(_ANNOUNCEMENT.search(text))


def speaker_implied(reading: Sentence, cue: int) -> bool:
    """Return True when a sentence with no subject is the speaker's ("Been to Rome once", 去了大理);
    a pronoun of a later English clause ("…, it was fun") does not stop it, a Chinese one does
    (钱坤的电话是…，上午比较好找他) unless it names someone said after the cue (搬去南京跟男朋友住，他…),
    and so does a Chinese name before the cue that is no subject the predicate allows: in the cue's
    clause, or a person or organisation in an earlier one (远航汽车的负责人叫高峰，以前在比亚迪…; but
    北京太冷了，明年搬去深圳 is the speaker's)."""
    end = reading.clause_of(cue)[1] if reading.lang == "en" else len(reading.text)
    if any(
        c.kind == "block" and c.start < end and not _named_between(reading, cue, c.start)
        for c in reading.candidates
    ):
        return False
    if reading.lang == "zh":  # 钱坤已经不在华东物流了, 明德教育的决策人是…: a name opens the topic
        start = reading.clause_of(cue)[0]
        if _ZH_NOTE_HEAD.match(reading.text) or _ZH_ROLE_IS.match(reading.text, start, cue + 1):
            return False  # 新线索：…，用的是企业微信; 负责人是德国人…: the customer's, the role holder's
        owner = _ZH_OWNER.search(reading.text, start, cue)
        if owner and not owner.group(1).endswith(_ZH_FIRST_PERSON):  # 总监的邮箱是…: not mine
            return False
        return not any(
            c.kind == "mention"
            and c.start < cue
            and (c.start >= start or (c.mention is not None and c.mention.type in _TOPIC_HOLDERS))
            for c in reading.candidates
        )
    bare = _EN_BARE_START.match(reading.text)
    if bare is None or is_first_name(bare.group().split()[-1]):
        return False  # "Reed works at Apple": a name, not a verb
    if "?" in reading.text[cue : end + 1]:
        return False  # "Still interested in a chat?": asked of the listener
    # "Learned that Tom left Acme", "Dated a guy who worked at Google": the clause is someone else's
    return not _EN_SUBORDINATE.search(reading.text, 0, cue)


def _named_between(reading: Sentence, cue: int, pronoun: int) -> bool:
    """Return True when a person is named after ``cue`` and before a later ``pronoun``, which then
    names them, not the speaker's subject (搬去南京跟男朋友住，他在南大读博)."""
    return cue < pronoun and (
        any(m.type == "person" and cue <= m.start < pronoun for m in reading.mentions)
        or any(c.kind == "other" and cue <= c.start < pronoun for c in reading.candidates)  # 男朋友, 同事
    )


def handed_over_by(match: re.Match[str], reading: Sentence, message: Message) -> str | None:
    """Return who held what a handover hands on: "from me"/"from <name>" right after it, else the
    subject before the verb ("Carla handed the Umbrella account to Dev"; the one taking over is no
    holder: the caller drops them), or in Chinese the person the clause continues
    (我下周休产假，…康泰医疗给小贺); None when the sentence names nobody who held it."""
    former = _ZH_FORMER_HOLDER.search(reading.text, match.end()) if reading.lang == "zh" else None
    if former is not None:  # 华东区大客户由我来跟，之前负责的老陈调去北京分公司了
        people = [m for m in reading.mentions if m.start == former.end() and m.type == "person"]
        if people:
            return people[0].name
    if reading.lang == "en" and _MINE.match(match.group()):
        return message.speaker.actor  # "My accounts go to Tasha: …": the writer's
    said = _FROM_HOLDER.match(reading.text, match.end("obj")) if reading.lang == "en" else None
    if said is not None:
        if said.group(1).lower() in ("me", "us"):
            return message.speaker.actor
        people = [m for m in reading.mentions if m.start == said.start(1) and m.type == "person"]
        return people[0].name if people else None
    cue = match.start("obj") if reading.lang == "zh" else match.start()
    named = [c for c in reading.candidates if c.name]  # 手上的客户 blocks no one here
    found = nearest_subject(reading.text, reading.clauses, cue, named, PERSON_TYPES)
    if found is not None and reading.lang == "zh" and reading.text[: found.start].endswith("由"):
        return None  # 后端由老王牵头，前端交给小刘: 老王 holds the back end, not the front end handed on
    if found is None:  # …交给小陈了，我转去做…: the speaker said so after; 钥匙交接给小冯了: nobody did
        mine = any(c.kind == "actor" for c in reading.candidates)
        return message.speaker.actor if mine else None
    if found.mention is None and found.kind == "mention":  # 他手上的项目交给我: "he" is who held it, when
        earlier = {m.name for m in reading.mentions if m.type == "person" and m.end <= cue}
        earlier |= {name for name, kind in message.entities if kind == "person"}
        if len(earlier - {message.speaker.actor}) > 1:  # …向VP韩宇汇报；他原来带的…: which "he" is unclear
            return None
    return found.name if found.mention is None or found.mention.type == "person" else None


_REACH_ME = re.compile(
    r"(?:联系|找|打给|\b(?:call|reach|contact|text|email)\s)\s?(?:我|me\b)[，,:：\s]*$", re.I
)
_REACH_ME_AT = re.compile(r"\b(?:call|reach|contact|text|email)\s+me\s+(?:at|on)\b", re.I)
_REACH_SOMEONE = re.compile(r"(?:找|联系|打给)(?![我你他她])[\u4e00-\u9fff]{2,3}[，,:：\s]*$")


def number_holder(reading: Sentence, cue: int, actor: str | None) -> str | None:
    """Return whose a phone number or address said in a clause of its own is: the speaker's after
    "请联系我，电话…" / "reach me at"; nobody's we can name ("") after 以后找徐婷婷，电话… when 徐婷婷 is not
    a known person; else the last person named before the clause (由行政部的邵斌跟我们对接，电话139…); None
    when the clause names a subject of its own or there is no one before it."""
    start = reading.clause_of(cue)[0]
    if _ZH_MY_NEW.search(reading.text, start, cue + 4) and "我" in reading.text[:start]:
        return actor or ""  # 我已从中信证券离职，…，新号码158…: the writer's new number
    if _REACH_ME_AT.match(reading.text, cue):
        return actor or ""  # "You can reach me at …": mine, whoever "you" is
    if any(start <= c.start < cue for c in reading.candidates):
        return None
    before = reading.text[:start]
    if _REACH_ME.search(before):
        return actor or ""
    people = [m for m in reading.mentions if m.type == "person" and m.end <= start and not m.vocative]
    if _REACH_SOMEONE.search(before) and not (people and before.rstrip("，,:： ").endswith(people[-1].name)):
        return ""
    return people[-1].name if people else None
