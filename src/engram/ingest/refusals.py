"""Readings refused whatever pattern made them: what a match seems to say but does not.

Each check takes the sentence and the match's clause (``start, end`` offsets into the sentence): a job or
a role not held (a role held before, a job looked for, a unit before its employer:
engram.ingest.employment); a day at home is no place of work (明天我在家办公); a team is no town or tool
("the Platform team"); a discount only asked for is none agreed (要求打九折, "pushing for 8% off"); a move
said among tools or a role changed is no home; a day, a city, a person, a side or a contact changed is
no tool (会议从周一换成了周二, 对接人从徐总换成了宋涛); a task is no responsibility (负责把报告交上来);
where one went after leaving is no visit (离职（去了美团）); a plan once meant (本来想去日本) is none;
leave, a new home or a wedding is no place of work (请假在家); an age said after a pet is the pet's and
interest in (or, in Chinese, use of) what is ours a customer's (both checked once the subject is known);
a thing named only by what it is (合同, "the subscription") holds no fact, and a title is no person's
name.
"""

from __future__ import annotations

import re

from engram.graph.places import is_place
from engram.ingest.employment import A_TEAM, FORMER, not_held
from engram.ingest.frames import DEPARTMENT, EN_BREEDS, EN_PET, EN_ROLE_RX, EN_TRIP_PRAISED, ZH_ROLE
from engram.ingest.frames_zh import LEFT_FOR, PET
from engram.ingest.lexicon import COUNTRIES, DEFAULT_GAZETTEER, ORG_WORDS, SURNAMES
from engram.ingest.not_stated import (
    A_DEPARTMENT,
    A_YEAR,
    OUR_PREMISES,
    not_stated,
)
from engram.nlp.timeexpr import MONTHS_EN, RECURRING
from engram.nlp.tokenize import has_cjk, tag_words

_FORMERLY = re.compile(rf"{FORMER.pattern}|\b(?:former|formerly)\b", re.I)
_A_ROLE_FROM = re.compile(rf"(?:{ZH_ROLE})从$")
_YOURS = re.compile(r"贵司|贵公司|您|你们")
"""Whose an order is when said right before it (贵司订购的): the addressee's."""
_NOT_A_PRICE = re.compile(
    r"(?:退款|退还|退回|维修|手续费|赔偿|运费|押金)[^，。；]{0,4}$|(?:低|高|便宜|贵|少|多|降价|涨价|补)了?$|"
    r"(?:stra(?:ß|ss)e|street|st\.?|road|rd\.?|avenue|ave\.?|lane|way|blvd\.?|weg|gasse|platz)\s$",
    re.I,
)
_ZH_TOTAL = re.compile(r"(?:总价|总计|合计|共计|总额)[为是:：]?\s?$")
_BUDGET_DIFFERENCE = re.compile(r"(?:超了?|超出了?|超支了?|多花了?|省了?|剩下?了?|还剩)$")
"""比预算超了八万, 预算还剩5万: what was spent beyond or left of a budget, not the budget."""
_A_JOB_OPENING = re.compile(
    r"(?:the |a |an |this |that )?(?-i:[A-Z])[\w -]{1,40}?\s(?:role|position|opening|vacancy)\b"
)
_NOT_A_PHONE = re.compile(
    r"\b(?:VAT|tax|IBAN|account|registration|company|order|invoice|tracking|PO)\s(?:no\.?|number|id)\b", re.I
)
_A_MESSAGE_LEFT = re.compile(r"\s*(?:an?\s)?(?:VM|voicemail|message|msg|note|comment|review)\b", re.I)
_MOVING = re.compile(r"\b(?:mov(?:e|ed|es|ing)|relocat\w*)\b", re.I)
_LEFT_WHEN = re.compile(r"\s(?:after|in|on|for|last|this|at|when|because)\b")
_A_NUMBER_CHANGED = re.compile(
    r"\b(?:number|address|ID|IBAN)\s(?:has\s|have\s|was\s|also\s|been\s){0,3}$", re.I
)
"""Before "changed to": a number or an address changed, no tool ("Our VAT number has changed to GB …")."""
_MONTHS_MINUTES = re.compile(
    r"(?:\d{1,2}|[一二三四五六七八九十]{1,2})月份?[^，。！？；\d日号]{0,6}?(?:会议)?(?:纪要|记录|总结)"
)
_MOVE_BACK = re.compile(r"\bmov(?:e|es|ed|ing)\s$", re.I)
"""Before "back from Vancouver": a home left, no trip."""
_NOT_A_TOOL_EN = re.compile(r"^\d+\s|['’]s own\b")
"""A street number ("moved to 14 rue des Tanneurs"), or what a firm runs itself ("Fjordkit's own servers")."""
_BY_ACCIDENT = re.compile(r"\b(?:accidentally|by accident|by mistake)\b", re.I)
_WORK_NOT_TOOL = re.compile(r"(?:the\s)?\S+\s(?:work|team|project|track|squad)\b", re.I)
"""After a name: a piece of work or a team ("switching to the iOS work"), no tool."""
_MANAGED = re.compile(r"(?:manage|lead|run|join|head)\s", re.I)
"""A verb opening the object ("moves to manage the Payments team"): a job, no tool."""
_DECIDED_AHEAD = re.compile(r"\b(?:will|'ll|going to|gonna)\s(?:\w+\s)?$", re.I)
"""Before "use": a decision still to be carried out ("we'll use ElastiCache"), no use yet."""
_NO_PRICE = re.compile(
    r"\b(?:target|quota|goal|forecast|revenue|ARR)\b[^.;!?]{0,25}$|"
    r"超(?:出|支)?了?预算了?$|\bover budget by\s$",
    re.I,
)
"""Before an amount: a target, a result or an overrun, no price or budget ("FY25 target is $12M ARR", "Quota
per AE goes to $900k", 物流费用超预算了12万)."""
_A_TERM = re.compile(r"\s?(?:yrs?|years?|months?|mos?)\b", re.I)
_GOT_INTO = re.compile(r"\bgot into (?:the |a |an )?$", re.I)
_ROLE_BASED = re.compile(r"\b(?:role|position|job|opening|vacancy)\b[^.!?]*\bbased in\s$", re.I)
"""Where a job is based ("a Head of Sales role at Tallowfern — remote-friendly, based in Minneapolis")."""
_A_DATE_EN = re.compile(
    rf"(?:{'|'.join(sorted(MONTHS_EN, key=len, reverse=True))})\.?\s\d{{1,2}}(?:st|nd|rd|th)?\b|"
    r"\d{1,2}/\d{1,2}\b",
    re.I,
)
_NOT_GOING = re.compile(r"\b(?:not|n't|never)\s(?:\w+\s)?$|\bnot\s$", re.I)
_FISCAL = re.compile(r"\b(?:FY|Q|H)\d*$")
_ONE_DAY = re.compile(r"今天|明天|后天|今晚|\b(?:today|tomorrow|tonight|this (?:morning|afternoon))\b", re.I)
_AT_WORK = re.compile(r"办公|上班|工作|\b(?:work|working|works|office|remote|remotely|WFH)\b", re.I)
_AWAY_FROM_WORK = re.compile(
    r"请假|休假|病假|产假|婚假|年假|陪产|搬家|新房|新家|买房|房子|婚礼|婚宴|办酒|寿宴|聚会|过年|春节|老家|度假|养病|坐月子"
)
"""A place said with leave, a home or a family event and no word of work (请假在家, 新房子在苏州工业园区,
婚礼…在绍兴老家): nowhere one works from."""
_ASKED_FOR = re.compile(
    r"要求|希望|想要|争取|申请|\b(?:asks?|asked|asking|wants?|wanted|requests?|requested|pushing|hoping)\b",
    re.I,
)
_ANIMAL = re.compile(rf"{PET}|宠物|\b(?:{EN_PET}|{EN_BREEDS}|pet)s?\b", re.I)
_SPEAKER = re.compile(r"我(?!家|们家)|\b(?:I|I'm|I am)\b")
"""An age said after a pet is the pet's (我家猫叫团子，今年五岁了), unless the speaker speaks of
themselves in between."""
_OURS = re.compile(r"\s*(?:我们的|我们|我司|our\b)", re.I)
"""Interest in what is ours (对我们的智慧排课很感兴趣) is a customer's, never the speaker's."""
_TOOL_TALK = re.compile(r"\b(?:stopped using|switched (?:from|to)|migrated|migrating)\b", re.I)
"""A sentence about tools: "stopped using PagerDuty and moved to Opsgenie" moves to no town."""
_PREMISES = re.compile(r"\b(?:office|HQ|headquarters|warehouse|store|shop|factory|plant|studio)s?\b", re.I)
_FROM_A_TEAM = re.compile(r"\bfrom (?:the|my|our) (?:[\w-]+ )?team to\s$", re.I)
_A_PERIOD = re.compile(
    r"(?i:Lent|Ramadan|Dry January|a (?:while|week|month|year)|now|good|the (?:week|month|year))"
)
_TEAM_TALK = re.compile(
    r"\b(?:squad|pod|tribe|department|dept)\b|"
    r"\b(?:on|off|left|from|joined) (?:the|a|my|our) (?:[\w-]+ )?team\b",
    re.I,
)
"""A sentence about teams: "no longer on the Growth squad, moved to Retention" moves to no town."""
_WE = re.compile(r"\b(?:we|we're)\b", re.I)
_NOT_LEAVING = re.compile(r"\b(?:not|never)\s(?:(?:[\w-]+\s){0,3}(?:to|about|of|on)\s)?$|n't\s$", re.I)
_ONE_HAN = re.compile(r"[\u4e00-\u9fff]")
_DROPPED_OFF = re.compile(
    r"\s(?:off\b|at\s(?:(?-i:[A-Z])|school\b|daycare\b|the (?:airport|station)\b)|"
    r"for\s(?:school|practice|class)\b)",
    re.I,
)
"""After "dropped Kavya": a drop-off ("dropped Kavya at Oberlin"), nothing given up."""
_A_PERSON = re.compile(r"[\u4e00-\u9fff](?:总|经理|工|老师|姐|哥|主任)|[小老阿][\u4e00-\u9fff]")
_A_CONTACT = re.compile(r"对接人|负责人|联系人|接口人|领导|leader|主管", re.I)
"""Who one deals with, changed (甲方对接人从徐总换成了宋涛): no tool given up or taken."""
_ZH_SIDE = re.compile(r"(?:我们|你们|他们|咱们)?(?:这边|那边)|我们|咱们")
"""切换到我们这边: a side, no tool."""
_ZH_TASK = re.compile(r"[把去到给将帮]")
_ZH_BARE_DUTY = re.compile(
    r"(?:对接|跟进|确认|处理|协调|联系|沟通|落实|执行|安排|签收|期间|后(?![端台勤])[\u4e00-\u9fff]{0,6})"
)
"""A duty said by its verb alone (负责对接, 期间由小彭负责): what it is about was said elsewhere."""
_ZH_NOT_A_PLAN = re.compile(
    r"见附件|如下|附后|暂时|暂停|搁置|取消|推迟|延期|初步|定在|定于|权|得|[^，。；]*(?:日期|时间)$"
)
"""What follows 计划 as a noun: 详细计划见附件, 扩产计划暂时搁置, 上线计划初步定在8月, 计划上线日期."""
_ASKED_TO = re.compile(r"(?:请|让|叫|要求)[^，。；]{0,8}$")
"""Before a plan: someone asks for it (让我们准备材料, 请各部门负责人准备10分钟的汇报)."""
_A_TITLE_AFTER_SURNAME = re.compile(
    rf"(?:(?<![\u4e00-\u9fff])|(?<=的))[{''.join(sorted(c for c in SURNAMES if len(c) == 1))}]主管"
)
"""马主管, 原来的马主管: a surname and a title, opening a clause or after 的 (小李主管财务 is a duty)."""
_FROM_A_TIME = re.compile(r"起|^(?:明年|今年|下周|下个?月|本月|本季度|年底|年初)")
_BY_THEN = re.compile(r"[旬底初]?[之以]?前")
_OFFERED = re.compile(r"可以|能否|能不能|是否方便|方便的话|\b(?:could|can) (?:do|come|meet|demo)\b", re.I)
_A_STAY = re.compile(r"住(?:两|三|几|一|半)?(?:个)?(?:天|周|星期|个月|月|段时间)|\bstay(?:ing)? for\b", re.I)
_A_VERSION = re.compile(r"v\d+(?:\.\d+)*|版本\S*", re.I)
_ONE_KIND = re.compile(r"一(?:套|个|款|种)")
_PERFORMED = re.compile(r"\b(?:completed|conducted|performed|delivered)\b", re.I)
_ONCE_SET = re.compile(r"(?:原定|原计划|原来定|本来定)的?(?:[^，。；]{0,6}?(?:于|在|是))?$")
_A_WEIGHT = re.compile(r"公斤|斤|kg|体重", re.I)
_POINTS = re.compile(r"\s?(?:分(?![钟之])|[件台个套箱瓶包])")
_BACK_THEN = re.compile(r"的时候|那时候?|小时候")
_TRIP_PRAISED = re.compile(rf"\s{EN_TRIP_PRAISED}")
_PRAISED = re.compile(
    r"\b(?:great|good|nice|awesome|amazing|brilliant|well done|congrats)\b[^.!?]{0,24}$", re.I
)
_RECURRING = re.compile(
    r"每(?:周|天|月|个月|年)?[^，。；]{0,3}$|\bevery (?:day|week|month|\w+day)\b[^,.;]{0,6}$", re.I
)
_A_CAMPUS_EVENT = re.compile(r"宣讲会|招聘会|讲座|校招|\b(?:career fair|campus talk|info session)\b", re.I)
_ZH_FOR_A_WHILE = re.compile(r"(?:下周|这周|本周|明天|后天|今天|周末|这几天|月底)[^，。；]{0,2}在$")
_A_TARGET = re.compile(r"目标(?!价)|指标|\b(?:target|quota|goal)\b(?! price)", re.I)
_OWED = re.compile(r"欠款|欠费|拖欠|逾期未付|\b(?:overdue|outstanding balance|owes us|owed)\b", re.I)
_ANOTHER_PARTY = re.compile(r"(?:女方|男方|对方|新娘|新郎)(?:是|也是)?$")
_TASTES = frozenset({"LIKES", "DISLIKES", "PREFERS", "USES", "INTERESTED_IN"})
_A_SHARE_OF_PEOPLE = re.compile(
    r"(?:\d+(?:\.\d+)?\s?[%％]|百分之[\d一二三四五六七八九十]+|大部分|大多数|多数|一半|不少)的?(?:用户|客户|人|受访者|同事)|"
    r"\b(?:\d+(?:\.\d+)?%|most|many|half|a third|two thirds) of (?:our |the )?"
    r"(?:users|customers|respondents|people)\b",
    re.I,
)
_DEAL_STAGE = re.compile(
    r"(?:negotiation|proposal|discovery|qualification|closed[- ](?:won|lost)|contracting|legal review|"
    r"procurement|evaluation|pilot|stage \d|phase \d)\b",
    re.I,
)
_REMOVED = re.compile(r"(?:去掉|减掉|少了|删掉|拿掉|砍掉|砍了|减了)了?$|每$")
_UNDER_WAY = re.compile(r"中的?(?:项目|客户|商机|线索|订单)")
_NOT_PAID_YET = re.compile(r"预计|将于|将在|下周|下个?月|月底前|还没|未到")
_A_MEASURE = re.compile(r"\s?(?:[LlKk](?![a-z])|升|寸|斤|公斤|克|毫升|ml|cm|厘米|米)")
"""After a number: a size or a weight, no money (4.5L的, 3.5L的)."""
_NO_MONEY_OWED = re.compile(r"退款|退费|发票")
"""A refund or an invoice before an amount: no price (退款…金额1,860元, 发票开错了…金额27.5万)."""
_ZH_NOT_USED = re.compile(
    r"^(?:问题|情况|过程|方面|功|\d+(?:楼|层|号)|一(?:套|个|款)(?:很|挺|比较|非常)[^的]*$)"
)
"""Not what is used: 如有使用问题, 使用情况, 切换成功, 会议室换成5楼, 一套很老(的进销存): a word of the
sentence, a floor, a description cut before its noun."""
_MAY_USE = re.compile(r"(?:能否|可以|可|是否|能不能|不可)$")
"""Before 使用: a question or a rule (能否使用优惠券, 可使用店铺券), nobody's use."""
_A_TIME = re.compile(r"(?:周|星期|礼拜)[一二三四五六日天末]|[上下本这]周|[\d一二三四五六七八九十]+[月号日点]")
_A_QUARTER = re.compile(r"(?:今年|明年|下半年|上半年)?(?:Q[1-4]|[一二三四1-4]季度)|年底|年初|月底|月初", re.I)
"""A part of the year (今年Q4, 一季度, 年底): a time, no place one goes to."""
_WENT_TO_WORK = re.compile(rf"(?:{LEFT_FOR}|(?:调岗|转岗|调动)了?[，,]?)(?:去了|到了)(?!一?趟|一次)", re.I)
"""Where one went right after leaving or a transfer (周涛离职（去了美团）, 曹工调岗了，去了生产部) is
where one works now, not a visit."""
_TO_WORK_THERE = re.compile(r"(?:做|当|上班|工作|任职|实习)(?!了)")
"""After where one went: to work there (去了一家保险公司做培训), not a visit."""
_FIRM_MOVE = re.compile(rf"\bfrom\s(?:[\w&'’.-]+\s){{0,4}}?(?:{'|'.join(sorted(ORG_WORDS))})\.?\s+to\s+$")
"""A move from one firm to another ("moved from Pelloway Insurance to Granbury Mutual"): a job, no home."""
_TO_AN_EMPLOYER = re.compile(
    r"\bmoved (?:there|here) from\b|"
    r"\bfrom\s.{1,40}?\sto\s(?:the\s|our\s)?(?:new\s)?(?:office|building|premises|site)\b|"
    r"\bfrom\s.{1,40}?\sto\s(?:the\s)?(?:[A-Z][\w&'’.-]*\s){0,3}"
    r"(?:Recruitment|Staffing|Partners|Group|Associates|Consulting|Consultancy|Bank|Insurance|Mutual|Schools?|"
    r"University|College|Hospitals?|Trust|Agency|Law|Capital)\b"
)
"""Where one moved from somewhere to: an employer's name ("from Brightpath to Quayline Recruitment"), an
employer moved to from another ("head of procurement at Tessaly Foods (moved there from Drezno Tools)"),
a new office ("moving from Ancoats to the new office"): a job or an office changed, no tool or home."""
_WE_MOVED = re.compile(
    r"\b(?:we|they)(?:'ve| have| had|'re| are)?\s(?:\w+\s)?(?:moved|moving)\s(?:over\s)?to\s+$", re.I
)
"""A team or a customer moved to somewhere no gazetteer knows: a tool or a vendor, no home."""
_COUNTED_IN = re.compile(r"[\d一二两三四五六七八九十]+[家个间座所处]\s*(?:都|也)?在$")
"""A count of sites before 在 (其中8家在南京): where a firm's stores are."""
_CAPITALISED = re.compile(r"[A-Z][\w.'’-]*(?:\s[A-Z][\w.'’-]*)*")
"""The name that opens an English object ("Denver" of "Denver last year")."""
_ROLE_CHANGE = re.compile(rf"\bfrom\s(?:[\w-]+\s){{0,3}}?(?:{EN_ROLE_RX.pattern})\s+to\s+$", re.I)
"""A job changed ("moved from plant manager to VP Supply Chain"): no home."""
_ONCE_MEANT = re.compile(
    r"本来|原本|原来想|\b(?:was going to|were going to|had planned to|originally)\b", re.I
)
"""A plan given up (国庆本来想去日本，但是签证没办下来): no plan now."""
_GENERIC_THING = re.compile(
    r"(?:Q[1-4]|FY\d{2,4}|H[12]|Decision|Goal|Target|"  # a note's heading ("Q3 goal: …", "Decision: …")
    r"合同|协议|订单|续约|续费|年费|订阅|报价|方案|(?:the |our |their )?"
    r"(?:contract|agreement|subscription|renewal|order|quote|proposal|license|licence|invoice))",
    re.I,
)


def _seen_not_a_place(obj: str) -> bool:
    """Return True for "see Mitski" (a band, a person): what one goes to see is a trip's place only when it
    is a place ("went to see Kraków's old town")."""
    seen = _SEEN.match(obj)
    return seen is not None and not is_place(_POSSESSIVE_END.sub("", seen.group(1).strip()))


_SEEN = re.compile(r"\s*(?i:see)\s+((?:[A-ZÀ-Þ][\w’'-]*\s?)+)")
_POSSESSIVE_END = re.compile(r"['’]s$")
_NOT_A_TRIP = re.compile(
    r"\bto see\s+$|\b(?:didn'?t|did not|never|won'?t)\s(?:end up|get to|make it)\b", re.I
)
_A_COUNT_BEFORE = re.compile(r"\d+\s?[个家位名条]$")
_NOT_WILLING = re.compile(r"不肯|不愿意?|死活不|可以再?(?=养)")
_POSSESSOR = re.compile(r"(?:[A-Z][\w-]*\s)*[A-Z][\w-]*['’]s\b")
_TEACHES = re.compile(
    r"幼师|老师|教师|保育员|园长|班主任|\bteach(?:er|es|ing)\b|\blecturer\b|\bprofessor\b", re.I
)
"""Before a school, who teaches there: no pupil of it."""


def refused(
    predicate: str, match: re.Match[str], sentence: str, clause: tuple[int, int], obj_start: int
) -> bool:
    """Return True when ``match`` (of ``predicate``, its object at ``obj_start``) states no fact."""
    obj = match.group("obj")
    if not_stated(predicate, match, sentence, clause, obj_start):
        return True  # someone else's, a wish, a past, no meeting's day (engram.ingest.not_stated)
    if predicate in ("USES", "STOPPED_USING") and _A_ROLE_FROM.search(
        sentence, max(0, obj_start - 12), obj_start
    ):
        return True  # 项目经理从孙琦换成了王海涛: a role's holder changed, no tool
    if _DEAL_STAGE.match(sentence, obj_start) and sentence[max(0, obj_start - 9) : obj_start] == "moved to ":
        return True  # "Stonebridge: moved to Negotiation": a deal's stage, no home or tool
    if predicate in ("WORKS_AT", "HAS_ROLE"):
        return not_held(predicate, match, sentence, clause, obj_start)  # engram.ingest.employment
    if predicate in ("RESPONSIBLE_FOR", "UNASSIGNED_FROM") and match.group("obj").endswith(
        ("会", "要", "将", "提", "去", "走")
    ):
        return True  # 我的工作会交接给…, 需求说明书提交给马骏, 原主管施洁去了…, 赵敏走了之后: no duty
    if predicate in ("PLANS_TO_VISIT", "VISITED") and (
        _POSSESSOR.match(match.group("obj").strip())
        or _NOT_A_TRIP.search(sentence, clause[0], obj_start)
        or _seen_not_a_place(match.group("obj"))
    ):
        return True  # "going to King's" (a college), "went to see Mitski" (a concert), "didn't end up going"
    if predicate == "COMES_FROM" and _A_COUNT_BEFORE.search(
        sentence, max(0, match.start() - 8), match.start()
    ):
        return True  # 其中12个来自华南: where some of a count came from, nobody's origin
    if predicate in ("STOPPED_USING", "HAS_PET") and _NOT_WILLING.search(sentence, clause[0], obj_start):
        return True  # 不肯戒酒: still drinking; 终于可以再养狗了: none yet
    if predicate == "STUDIES_AT" and _TEACHES.search(sentence, 0, obj_start):
        return True  # 我老婆是做幼师的，在朝阳一个公立幼儿园: she teaches there
    if predicate in _TASTES and _A_SHARE_OF_PEOPLE.search(sentence, clause[0], obj_start):
        return True  # 60%的用户更喜欢深色模式, "most users prefer…": a survey's, not the writer's
    if predicate in ("LAUNCH_DATE", "DEADLINE", "MEETING_AT") and _ONCE_SET.search(sentence, 0, obj_start):
        return True  # 原定10月底上线，现在推到12月中: the date given up
    if predicate == "COMES_FROM" and (
        match.group("obj").startswith(("的", "来", "到", "去"))
        or _ANOTHER_PARTY.search(sentence, max(0, match.start() - 4), match.start())
    ):  # 卖了老家的房子来杭州跟我们住, 从老家来上海: where one comes to; 女方是重庆人: the bride's
        return True
    if predicate == "COMES_FROM" and obj.startswith("新") and not is_place(obj) and is_place(obj[1:]):
        return True  # 终于是新杭州人了: one who came to 杭州 (新疆, 新加坡 are places)
    if predicate == "AGE" and _A_WEIGHT.search(sentence):
        return True  # 要减到75公斤以下，现在82: a weight
    if predicate == "PRICE" and _POINTS.match(sentence, match.end("obj")):
        return True  # 技术占60分，价格40分, 量增加到每月5万件: points or a count, no price
    if predicate == "VISITED" and _TRIP_PRAISED.match(sentence, match.end("obj")) and not is_place(obj):
        return True  # "Tuesday was amazing", "Sarah was amazing": no place, no trip
    if predicate == "MEETING_AT" and _PRAISED.search(sentence, 0, match.start()):
        return True  # "great job on the presentation today": praise for one held
    if predicate == "DEADLINE" and _RECURRING.search(sentence, max(0, obj_start - 12), obj_start):
        return True  # 每周五下午5点前提交: a rule that recurs, no one deadline
    if predicate in ("LIVES_IN", "STUDIES_AT") and _BACK_THEN.search(sentence, obj_start, clause[1]):
        return True  # 我在杭州读高中的时候住校: back then
    if predicate == "PRICE" and (
        _OWED.search(sentence, 0, obj_start) or _A_TARGET.search(sentence, 0, obj_start)
    ):  # 已经欠款3个月了，总额27万, "$4,200 overdue", 季度目标：新签合同额500万: a debt or a goal
        return True
    if predicate == "LIVES_IN" and DEPARTMENT.search(match.group("obj").strip()):
        return True  # 我在SaaS组待了3年: a team, no home
    if predicate in ("STUDIES_AT", "STUDIES") and _A_CAMPUS_EVENT.search(sentence):
        return True  # 宣讲会第一站是9月20日在南岭大学: a campus visited, no study
    if (
        predicate == "LIVES_IN"
        and has_cjk(sentence)
        and _ZH_FOR_A_WHILE.search(sentence, clause[0], obj_start)
    ):
        return True  # 我下周都在南昌: where one is for a week
    if predicate == "QUANTITY" and _REMOVED.search(sentence, max(0, obj_start - 4), obj_start):
        return True  # 去掉了一个培训包, 砍了50个账号, 每千个85元: a count taken off or a unit, no quantity
    if predicate == "PLANS_TO" and sentence[max(0, match.start() - 1) : match.start()] == "比":
        return True  # 比计划晚6天: behind the plan, no plan
    if predicate == "PREFERS" and _A_DATE_EN.match(match.group("obj").strip()):
        return True  # "they'd prefer Sept 2": a start date wished, no taste
    if predicate == "LIVES_IN" and _ROLE_BASED.search(sentence, 0, obj_start):
        return True
    if predicate == "MEETING_AT" and (
        _OFFERED.search(match.group()) or _BY_THEN.match(sentence, match.end("obj"))
    ):
        return True  # 下周三可以到学校演示, 6月中旬前要看到演示: a slot offered, a deadline; no meeting set
    if predicate == "LIVES_IN" and _A_STAY.search(sentence):
        return True  # 要去海南住两个月，在三亚租了个房子: a stay, no home
    if predicate in ("USES", "STOPPED_USING") and (
        _A_VERSION.fullmatch(match.group("obj").strip())
        or (_ONE_KIND.match(match.group("obj")) and sentence.startswith("的", match.end("obj")))
    ):
        return True  # 还在用v2: a version; 一款进口(的羊肉味狗粮): a description cut before its noun
    if predicate == "ATTENDED" and _PERFORMED.search(match.group()):
        return True  # "We've completed the penetration test": work done for a client, not attended
    if predicate == "MEETING_AT" and RECURRING.search(sentence, clause[0], clause[1]):
        return True  # "Weekly pipeline review moves to Tuesdays 10am": a series, no one meeting
    if predicate in ("PRICE", "BUDGET") and _NO_PRICE.search(sentence, clause[0], obj_start):
        return True
    if (predicate == "QUANTITY" and _A_TERM.match(sentence, match.end("obj"))) or (
        predicate == "ORDERED" and _A_TERM.fullmatch(" " + match.group("obj").strip())
    ):
        return True  # "renewed for 2 yrs": a term, no quantity nor product
    if predicate == "LIKES" and _GOT_INTO.search(sentence, 0, obj_start):
        return True  # "got into the regional orchestra": admitted, no taste
    if predicate == "MEETING_AT" and _MONTHS_MINUTES.match(sentence, obj_start):
        return True  # 华东区8月销售会议纪要: minutes of the month's meeting, held on a day not said
    if predicate == "WORKS_FROM":
        away = not _AT_WORK.search(match.group()) and _AWAY_FROM_WORK.search(sentence)
        return bool(_ONE_DAY.search(sentence, *clause) or away)
    if predicate == "PRICE" and _NOT_A_PRICE.search(sentence, max(clause[0], obj_start - 8), obj_start):
        return True  # 退款金额12,800元, 维修费用680元, 比报价低了1.5万: a refund, a fee, a difference
    if (
        predicate == "PRICE"
        and _ZH_TOTAL.search(sentence, max(0, obj_start - 4), obj_start)
        and "单价" in sentence
    ):
        return True  # 单价1280，总价64000: the unit price is the price; the total only multiplies it
    if predicate == "PHONE" and _NOT_A_PHONE.search(sentence, max(0, match.start() - 30), match.start() + 12):
        return True  # "Our VAT number has also changed to GB 318 4472 09": a tax id, no phone
    city = _LEFT_WHEN.split(match.group("obj").strip())[0] if predicate == "LEFT_ORGANISATION" else ""
    if city and not has_cjk(city) and _MOVING.search(sentence) and is_place(city):
        return True  # "moving to Glasgow and leaving Edinburgh": a city left (平安, Stonebridge: firms)
    if predicate == "PLANS_TO" and _NOT_GOING.search(sentence, max(0, match.start() - 12), match.start()):
        return True  # "I'm not going to the Amsterdam conference anymore"
    if predicate == "INTERESTED_IN" and _A_JOB_OPENING.match(match.group("obj")):
        return True  # "interested in the Head of IT role": a job applied for (read as such elsewhere)
    if predicate == "BUDGET":
        fiscal = (
            _FISCAL.search(sentence, max(clause[0], obj_start - 4), obj_start)
            or sentence.startswith("FY", obj_start)
            or A_YEAR.fullmatch(match.group("obj").strip())
        )  # "budget frozen until FY26", "a $2M digital budget for 2025": a year, no amount
        return bool(_BUDGET_DIFFERENCE.search(sentence, max(clause[0], obj_start - 6), obj_start) or fiscal)
    if predicate == "DISCOUNT":
        return bool(_ASKED_FOR.search(sentence, clause[0], obj_start))
    role = EN_ROLE_RX.match(match.group("obj")) if predicate in ("MOVED_FROM", "UNASSIGNED_FROM") else None
    if role and match.group("obj").startswith(" to ", role.end()):
        return True  # "Priya moved from Head of Ops to COO": a role left, no place
    if predicate in ("MOVED_FROM", "UNASSIGNED_FROM", "USES", "STOPPED_USING") and _TO_AN_EMPLOYER.search(
        sentence, max(clause[0], match.start() - 50), clause[1]
    ):
        return True  # "I moved from Brightpath to Quayline Recruitment": a job changed, no home or tool
    if predicate == "LEFT_ORGANISATION" and _A_MESSAGE_LEFT.match(match.group("obj")):
        return True  # "Left VM for Candice Obi": a voicemail left, no employer
    if predicate == "LEFT_ORGANISATION" and _NOT_LEAVING.search(
        sentence, max(0, match.start() - 40), match.start()
    ):
        return True  # "we are not committed to leaving Merrow", "I'm not leaving Acme"
    if predicate in (
        "LIVES_IN",
        "MOVED_FROM",
        "LEFT_ORGANISATION",
        "USES",
        "STOPPED_USING",
    ) and A_TEAM.match(sentence, obj_start):
        return True
    if predicate == "LIVES_IN":
        lead_in = sentence[clause[0] : obj_start]
        firm = match.group("obj").rsplit(" ", 1)[-1] in ORG_WORDS or _FIRM_MOVE.search(lead_in)
        named = _CAPITALISED.match(match.group("obj"))
        tool = _WE_MOVED.search(lead_in) and not (named and is_place(named.group()))  # "we moved to Raygun"
        counted = _COUNTED_IN.search(lead_in)  # 8家在南京: where a firm's stores are, no one's home
        quarter = _A_QUARTER.match(match.group("obj"))  # "the rewrite moved to Q1 2025"
        # a team, a department, our premises or a known service moved to ("moved to Retention", "from
        # Sales Engineering to Product", "from the SMB team to Enterprise", 我们办公室下个月搬到漕河泾, "so
        # done with Twitter, moved to Bluesky")
        town = bool(named and is_place(named.group()))
        teams = (bool(_TEAM_TALK.search(sentence)) and not town) or bool(_FROM_A_TEAM.search(lead_in))
        department = A_DEPARTMENT.match(match.group("obj").strip()) or OUR_PREMISES.search(
            sentence, clause[0], match.start()
        )
        service = not town and any(
            DEFAULT_GAZETTEER.get(word) in ("product", "organisation")
            for word in _CAPITALISED.findall(sentence)
        )
        return bool(
            _TOOL_TALK.search(sentence)
            or _ROLE_CHANGE.search(lead_in)
            or firm
            or tool
            or counted
            or quarter
            or teams
            or department
            or service
        )
    if (
        predicate == "COMES_FROM"
        and match.group().startswith("are ")
        and not _WE.search(sentence, 0, obj_start)
    ):
        return True  # "my flatmates are from Brazil": theirs
    if (
        predicate == "STOPPED_USING"
        and match.group().lower().startswith("drop")
        and _DROPPED_OFF.search(sentence, obj_start, match.end() + 20)
    ):
        return True
    if (
        predicate in ("USES", "STOPPED_USING")
        and (
            _A_NUMBER_CHANGED.search(sentence, clause[0], match.start())
            or _A_TIME.match(match.group("obj"))
            or _A_QUARTER.match(match.group("obj"))
            or is_place(match.group("obj"))
            or (
                (named := _CAPITALISED.match(match.group("obj"))) and is_place(named.group())
            )  # "moving to Manchester in"
            or match.group("obj") in COUNTRIES
            or (_ONE_HAN.fullmatch(match.group("obj")) and sentence[obj_start - 1 : obj_start] == "用")
            or _A_PERSON.fullmatch(match.group("obj"))
            or _ZH_SIDE.fullmatch(match.group("obj"))
            or _a_zh_action(match.group("obj"))
            or _A_CONTACT.search(sentence, clause[0], match.start())
            or _ROLE_CHANGE.search(sentence, clause[0], obj_start)
            or _A_PERIOD.fullmatch(match.group("obj").strip())  # "gave up coffee for Lent": no tool
            or _PREMISES.search(
                sentence, clause[0], match.start()
            )  # "Our Berlin office moves to Torstraße 118"
            or (  # "no longer on the Growth squad, moved to Retention": a team
                _TEAM_TALK.search(sentence)
                and match.group().lower().startswith(("moved", "moving"))
                and match.group("obj").split(" ", 1)[0] not in DEFAULT_GAZETTEER
            )
        )
    ):
        # 会议从周一换成了周二, 从北京换成了上海, 对接人从徐总换成了宋涛: a day, a city, a person is no tool;
        # 不去日本了: a country; 6楼不用爬了: one character after 用 is a verb, no tool
        return True
    if predicate == "RESPONSIBLE_FOR" and (
        _ZH_TASK.match(match.group("obj"))
        or match.group("obj") == "中"
        or _ZH_BARE_DUTY.fullmatch(match.group("obj"))
    ):
        # 周五前负责把报告交上来, 负责去小区接孩子: a task; 跟进中: under way; 负责对接: with whom, unsaid
        return True
    if predicate in ("PLANS_TO", "RESPONSIBLE_FOR") and (
        _ONE_HAN.fullmatch(match.group("obj")) or _ZH_NOT_A_PLAN.match(match.group("obj"))
    ):
        return True  # 准备投, 比计划晚了: one character is no plan; 详细计划见附件: a pointer
    if predicate == "PLANS_TO" and _ASKED_TO.search(sentence, clause[0], match.start()):
        return True
    if predicate == "RESPONSIBLE_FOR" and _UNDER_WAY.match(match.group("obj")):
        return True  # 跟进中项目：7个: the ones under way, no duty (跟进中粮报价 is one)
    if predicate == "PAID" and (
        _NOT_PAID_YET.search(sentence, obj_start, clause[1]) or _A_MEASURE.match(sentence, match.end("obj"))
    ):
        return True  # 首付款14.3万预计下周到账: expected; 收到的是3.5L的: a size
    if predicate == "PRICE" and has_cjk(sentence) and _NO_MONEY_OWED.search(sentence, 0, obj_start):
        return True
    if (
        predicate in ("USES", "STOPPED_USING")
        and (
            _NOT_A_TOOL_EN.search(match.group("obj"))
            or _WORK_NOT_TOOL.match(match.group("obj"))
            or _MANAGED.match(match.group("obj"))
            or _BY_ACCIDENT.search(sentence, clause[0], clause[1])
            or (
                predicate == "USES"
                and match.group().lower().startswith(("use", "move", "switch", "migrat"))
                and _DECIDED_AHEAD.search(sentence, clause[0], match.start())
            )
            or _ZH_NOT_USED.match(match.group("obj"))
            or match.group("obj") in ("素", "荤")  # 不再吃素了: a diet (DIET), no thing used
            or _MAY_USE.search(sentence, 0, match.start())
            or sentence[obj_start - 1 : obj_start + 1] == "用友"  # 之前在用友做了4年: a firm worked at
        )
    ):
        return True
    if predicate in ("RESPONSIBLE_FOR", "UNASSIGNED_FROM") and _A_TITLE_AFTER_SURNAME.match(
        sentence, max(0, match.start() - 1)
    ):
        return True  # 原来的马主管上个月离职: 马主管 is a person, not "in charge of"
    if predicate == "STOPPED_USING" and _FROM_A_TIME.search(match.group("obj")):
        return True  # 从明年起逐步迁移到K8s: from a time on, no tool given up
    if predicate == "CANCELLED" and (match.group("obj").startswith("退款") or "并" in match.group("obj")):
        return True  # 航班取消退款未到账: a refund; 作废原发票并重开: an invoice reissued
    if predicate == "ORDERED" and _YOURS.search(sentence, max(clause[0], match.start() - 4), match.start()):
        return True  # 贵司订购的工牌: the addressee's order, whose company goes unnamed
    if predicate == "VISITED":
        went_to_work = _WENT_TO_WORK.search(sentence, max(0, match.start() - 8), match.end()) or (
            _TO_WORK_THERE.search(match.group("obj"), 2)  # 去了一家保险公司做培训: a job
        )
        return bool(went_to_work or _MOVE_BACK.search(sentence, 0, match.start()))
    if predicate == "PLANS_TO_VISIT":
        obj = match.group("obj")
        if _A_TIME.fullmatch(obj) or _A_QUARTER.match(obj):
            return True  # 提前到今年Q4做调研: a time moved to, no place
    if predicate in ("PLANS_TO_VISIT", "PLANS_TO"):
        return bool(_ONCE_MEANT.search(sentence, clause[0], match.start()))
    return False


_JOINED = re.compile(r"\band\s(?:then\s)?(?:joined|moved to|went to|started at)\b|\bto join\b", re.I)


def joined_before(sentence: str, start: int, end: int) -> bool:
    """Return True when ``sentence`` says between ``start`` and ``end`` that someone joined a place
    ("left Grovetide and joined …"): what follows is where they went, not what they left."""
    return bool(_JOINED.search(sentence, start, end))


def _a_zh_action(obj: str) -> bool:
    """Return True for a Chinese object that is an action, not a tool (不用跑外面充了, 退款失败, 改回去了):
    a verb of going alone, or words opening on one jieba tags a verb, unless the gazetteer knows them
    (钉钉; 烟 of 戒烟 stays a thing given up)."""
    if not has_cjk(obj) or obj in DEFAULT_GAZETTEER:
        return False
    words = tag_words(obj)
    return obj in ("去", "来", "回", "走") or (len(words) > 1 and words[0][1] == "v" and has_cjk(words[0][0]))


def said_of_a_pet(sentence: str, start: int) -> bool:
    """Return True when a pet is spoken of before ``start`` and the speaker not since: an age read
    there with no subject of its own is the pet's (我家猫叫团子，是只英短，今年五岁了)."""
    animals = list(_ANIMAL.finditer(sentence, 0, start))
    return bool(animals) and not _SPEAKER.search(sentence, animals[-1].end(), start)


def ours(sentence: str, obj_start: int) -> bool:
    """Return True when the object at ``obj_start`` is ours (我们的智慧排课, "our API"): interest in it
    is a customer's, never the speaker's; in Chinese so is using or dropping it (迈瑞不再用我们的网关了)."""
    return bool(_OURS.match(sentence, obj_start))


def held_before(text: str) -> bool:
    """Return True when ``text`` says a role was held before (阿里的前CTO王坚, 前任总监, "former",
    "formerly"): no employer is implied from it."""
    return bool(_FORMERLY.search(text))


def generic_thing(name: str) -> bool:
    """Return True for a name that only says what a thing is (合同, 订单, "our subscription"): every
    contract would be one entity."""
    return bool(_GENERIC_THING.fullmatch(name))


def a_title(name: str) -> bool:
    """Return True for a name that is a role ("Marketing Manager", "Head of CS"), not a person's."""
    return bool(EN_ROLE_RX.fullmatch(name) or _HEAD_OF.fullmatch(name))


_HEAD_OF = re.compile(
    r"(?:Head|VP|SVP|EVP|Director|Chief [A-Z]\w+ Officer)\s(?:of|for)\s[A-Z][\w&]*(?:\s[A-Z][\w&]*)?"
)
