"""Statements that hold no fact of the subject they seem to: someone else's, wished, past, or no day.

Someone else's: a child seen off (送女儿去杭州报到了), a partner just named (对象是个英国人,
我新交了男朋友，是做律师的), what all departments are asked (每个部门准备一个节目), the addressee's firm
(贵司计划…), a company's doing (公司取消了工位), our premises moving (我们办公室下个月搬到漕河泾). Wished or
past: a price asked for (对方希望单价降到38元), a pet that died, a diet broken or a habit resumed
(吃素破功了, "started eating fish again", 破戒了), an allergy denied (我对海鲜不过敏), money that went
somewhere ("budget went to the customer summit"), a goal ("goal is 50 this year"). No meeting's day:
the time a meeting moved away from, a year (2025年预算会议), minutes (会议纪要). Not a place: a department
("moved from Sales Engineering to Product"), where one bought a home (在杭州西溪那边买了套小房子). Not what it
seems: a team or an office moved to is no tool ("moving from Platform to the Data team"), a customer moved to
another plan is not the writer ("I've moved you from the Basic to the Plus plan"), one volunteers where a
volunteer is, an account is not an employer ("your Customer Success Manager at Helix Dental's account"), a
change of jobs is no visit (跳槽了，从阿里去了腾讯), a place with no word of work is no workplace
(买房了！在苏州工业园区), money spent is no budget (预算已经用了95万), a unit's budget is not the writer's
(研发中心今年的…预算是120万), a move only planned is no home until its day (准备搬去海南住), premises moving
are nobody's home ("Our Dublin office is moving to …"), a firm joining an association employs no one,
home again after a trip is no visit (周五回上海). Not done: a plan dropped ("was gonna … but"), a hand-over
supposed (如果老周走了，…交接给小陈), a decision of the group's (集团决定…), a cancellation still to come
("then we cancel the licence"), a discount pushed for, a day moved after "but … moved it to". Not of the
kind it seems: a one-off reaction ("Mom loved the party"), a cost per signup, a vendor signed with.
Checked by ``engram.ingest.refusals.refused`` for every pattern's match.
"""

from __future__ import annotations

import re

from engram.graph.places import is_place
from engram.ingest.frames import EN_DEPARTMENT, ZH_MOVED_TO
from engram.nlp.tokenize import has_cjk, tag_words

A_YEAR = re.compile(r"(?:19|20)\d\d年?|(?:今|明|去)年")
"""An object that is only a year ("a $2M budget for 2025", 2025年预算会议)."""
_SEEN_OFF = re.compile(
    r"送(?:女儿|儿子|孩子|闺女|娃|他|她)[^，。；]{0,2}$|送(?:女儿|儿子|孩子|闺女|娃|他|她)去"
)
_MOVED_AWAY = re.compile(rf"[^，。；]{{0,20}}?{ZH_MOVED_TO}")
_MAYBE_MOVING = re.compile(
    r"(?:可能|也许|或许|说不定|估计)(?:会)?(?:[^，。；]{0,6}?(?:定居|移民)|搬)(?![^，。；]*了)"
    r"|\bmight move\b|\bmay move\b",
    re.I,
)
"""A move only weighed (可能搬到滨江，还在看房子), not one guessed done (可能搬去苏州了: an inferred home)."""
_TEACHES = re.compile(r"老师|教师|任教|教书|\b(?:teacher|teaches|teaching)\b", re.I)
_A_MEAL = re.compile(r"(?:早饭|午饭|晚饭|早餐|午餐|晚餐|夜宵|宵夜|\b(?:breakfast|lunch|dinner)\b)", re.I)
_VISITED = re.compile(r"(?:拜访|参观|考察)(?:了|完了?|过)")
_SCHOOL_STARTS = re.compile(
    r"\bstart(?:s|ing)? (?:secondary |high |middle |primary |boarding )?school\b|开学|入学", re.I
)
_A_STUDENT = re.compile(r"\b(?:studying|student|freshman|majoring|degree)\b|读书|读研|读博|上学", re.I)
_A_SCHOOL = re.compile(r"(?:University|College|School|Academy|大学|学院)\b", re.I)
_ONLY_MAYBE_INSTEAD = re.compile(r"可能(?:会)?改(?:成|为)?去$")
_A_UNIVERSITY = re.compile(r"(?:大学|学院|川大|北大|清华|复旦|浙大)$")
_OFF_TO_STUDY = re.compile(r"上大学|读大学|考上了?|考进了?|录取")
_CALLED_OFF = re.compile(r"[^，。；]{0,6}?取消")
_SIGN_OFF_LIMIT = re.compile(r"[^，。；]{0,3}?以下[^，。；]{0,4}?批")
_A_CHARGE_DISPUTED = re.compile(r"扣费|扣款|多扣|退款|\b(?:double[- ]charged|charged twice|refund)\b", re.I)
_IN_STOCK = re.compile(r"(?:库存|现货|剩余|还剩|剩下)(?:只有|还有|仅有|有)?$")
_POINTS_GIVEN = re.compile(r"个?点(?![\d钟半])")
_QUOTE_VALID = re.compile(r"报价(?:单)?(?:的)?有效期")
_ONE_WEEKEND = re.compile(r"(?<!每)(?<!每个)周末[^，。；]{0,3}?陪|(?<!每)(?<!每个)周末(?=[^，。；]{0,8}了)")
_ROLE_TO_BE = re.compile(
    r"\b(?:training|studying|want(?:s|ing)?|hop(?:e|es|ing)|plans?|planning) to (?:become|be)\s(?:an?\s)?$",
    re.I,
)
_HOME_SOLD = re.compile(
    r"\bsold (?:her|his|my|our|their|the) (?:house|flat|home|place|apartment) in\s$", re.I
)
_A_HOME_BOUGHT = re.compile(r"买了(?:一)?套|买了房")
_NOT_YET_HANDED_OVER = re.compile(r"交房|装修完")
"""A home bought and still to be handed over or done up (买了房，年底交房): no home yet. Narrower than
``_HOME_BOUGHT``, since a flat rented (租了个两居) is a home."""
_FETCHING = re.compile(r"把[^，。；]{1,6}接到$")
_RENT = re.compile(r"房租|租在|租的房|租了(?:个|一)?(?:房|间|套|一居|两居)|\brent\b", re.I)
_ASKED_TO_SWITCH = re.compile(r"(?:要求|让我们|希望|建议)[^，。；]{0,12}?换成")
_NOT_TAKING_OVER = re.compile(r"\b(?:not|n't|never)\s(?:be\s)?(?:taking|take|took)\sover\b", re.I)
_A_CEILING = re.compile(r"\b(?:above|more than|beyond|over|no more than|max(?:imum)?|capped at|cap)\s$", re.I)
_A_REQUEST = re.compile(r"(?:'d|\bwould)\slove\s$", re.I)
_A_FIRM_JOINED = re.compile(r"(?:公司|集团|事务所|工作室)$")
_AGE_TO_COME = re.compile(
    r"\b(?:before|by the time|until|when|once|by)\s(?:I'm|I am|I turn|she's|he's)\s$", re.I
)
_A_STUDENTS_DAY = re.compile(r"\b(?:my|our) (?:classes|lectures|seminars|classmates)\b|\bsemester\b", re.I)
_A_KIND_OF_FIRM = re.compile(r"(?:an?\s)?[A-Z]\w+\s(?:company|firm|startup|agency|bank|consultancy)\b")
"""After a word taken for an employer: it only said what kind of firm ("a job with a Dutch company")."""
_DECIDED_AGAINST = re.compile(r"\b(?:decided against|decided not to|called off)\b|决定不|不打算|不去了", re.I)
_HOME_TOWN_VISIT = re.compile(r"回家|回去|回老家|老家")
_HOME_BOUGHT = re.compile(
    r"买了?(?:一)?套|买房|[一两三四]居|\bbought (?:a |our |my )?(?:flat|house|apartment|home)\b", re.I
)
_RESOLUTION = re.compile(r"新年(?:计划|目标|flag|愿望)|\bnew year'?s? resolutions?\b", re.I)
_GREW_UP = re.compile(r"长大|小时候|\bgrew up\b", re.I)
_CHILDRENS_SCHOOL = re.compile(
    r"\b(?:Primary|Elementary|Nursery|Kindergarten|Preschool|Infants?)\b|小学|幼儿园|['’]s primary\b", re.I
)
_A_PUPIL = re.compile(
    r"\b(?:his|her|their) (?:teacher|class|classmates)\b|\bfirst day\b|\breception\b|"
    r"\blook back at the gate\b",
    re.I,
)
_A_DEGREE = re.compile(r"(?:MSc|MA|BA|BSc|PhD|MBA|MPhil|MRes|BEng|MEng|LLM|MPH|master'?s|bachelor'?s)", re.I)
_SAVED = re.compile(
    r"\bsav(?:e|es|ed|ing)\b(?: us| them| me)?(?: about| around| roughly| over| nearly)?\s?$", re.I
)
_ORDER_FORM = re.compile(r"\border form (?:for|with)\b[^.;!?]{0,30}$", re.I)
_OVER_FROM = re.compile(r"(?:came|comes|coming) over from\b", re.I)
_NAME_SAID = re.compile(r"^\s*([A-Z][\w'’-]*(?:\s[A-Z][\w'’-]*)*)")
"""The capitalised words an object opens with ("Kabul" of "Kabul next spring")."""
_EN_WONDERING = re.compile(r"\b(?:might|maybe|perhaps|I think)\b", re.I)
"""Before an allergy asked about ("I think I might be lactose intolerant?"; not "I'm allergic to shellfish
btw so maybe not the seafood place?", whose question comes after)."""
_FIGURATIVE = re.compile(r"(?:anything|everything|all things|any)\b", re.I)
_SINCE = re.compile(r"\bsince\s$|自从$", re.I)
_A_GOAL = re.compile(r"\b(?:goal|target|aim)\b|目标", re.I)
_MONEY_WENT = re.compile(r"\b(?:budget|money|funding|funds|it|that)\s(?=went\b)", re.I)
_DENIED_HERE = re.compile(r"\b(?:not|no longer|anymore)\b|不再|不是", re.I)
_EATS_AGAIN = re.compile(
    r"\beating (?:meat|fish|chicken|seafood|dairy) again\b|\bback to eating\b|开荤|又吃肉", re.I
)
A_DEPARTMENT = re.compile(
    rf"(?-i:[A-Z]\w*\s)?(?i:{EN_DEPARTMENT})(?:\s(?:team|department))?(?=\s*[,.;]|\s+(?:to|and)\b|$)"
)
_EACH_ASKED = re.compile(r"(?:每个部门|各部门|每个人|每人|大家)$")
_MEETING_NOTES = re.compile(r"(?:会议|开会)(?:纪要|记录)")
OUR_PREMISES = re.compile(r"(?:我们|咱们|我司)的?(?:办公室|公司|总部|门店|工厂|仓库)")
_WISHED = re.compile(r"(?:希望|要求|想要|想让|提出)[^，。；]{0,8}$")
_YOUR_FIRM = re.compile(r"贵司|贵公司|贵方|贵单位")
_OTHERS_CANCEL = re.compile(r"(?:公司|他们|对方|客户|学校|老板|领导)[^，。；我]{0,3}$")
_RELAPSED = re.compile(
    r"破功|破戒|又(?:抽|喝|吃)上了|(?<=[烟酒糖])失败|又开始(?:抽|喝|吃)|\b(?:fell off the wagon|relapsed)\b",
    re.I,
)
_NOT_ALLERGIC = re.compile(r"不过敏|没有?过敏|\bnot allergic\b", re.I)
_ONLY_INTOLERANT = re.compile(r"[,;]?\s*(?:but\s)?not allergic\b(?!\sto\b)", re.I)
"""Right after an intolerance: no allergy ("lactose intolerant, not allergic"; not "not allergic to dogs")."""
_PARTNERS = r"(?:男朋友|女朋友|男友|女友|对象|老公|老婆|未婚夫|未婚妻|室友)"
_PARTNER_IS = re.compile(rf"(?<!我)(?<!我的){_PARTNERS}(?:也|都)?是")
_ANOTHER_WEDS = re.compile(
    r"(?:妹|姐|哥|弟|儿子|女儿|闺蜜|朋友|同事|表[姐妹哥弟])(?:要|快|准备|打算)?(?:结婚|订婚)"
)
_PARTNER_THEN = re.compile(rf"{_PARTNERS}[，,]\s*$")
_A_UNIT_IN = re.compile(r"\b(?:[A-Z][\w&-]*\s){1,3}(?:team|office|squad|department|pod)\b")
"""A team or an office named ("the Data team", "their Rotterdam office"; not Microsoft Teams, Office 365)."""
_DEPARTMENT = re.compile(rf"(?i:(?:product |sales |customer |people |marketing )?{EN_DEPARTMENT})")
_MOVED_YOU = re.compile(r"\b(?:moved|switched|upgraded|downgraded|migrated) you\b", re.I)
_VOLUNTEER = re.compile(r"\bvolunteers?\s(?:at|with|for|in)\s(?:the\s|a\s)?$", re.I)
_AN_ACCOUNT = re.compile(r"['’]s\saccount\b", re.I)
_PLANNED = re.compile(
    r"打算|准备|计划|想(?!起)|\b(?:planning|plan|plans|going|want|wants|hoping|hope) to\b", re.I
)
_DATED = re.compile(
    r"\d|[一二三四五六七八九十]月|年底|年初|月底|月初|明年|今年|下个?月|下周|春天|夏天|秋天|冬天|过年|"
    r"\b(?:next|this|by|in (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|spring|summer|autumn|fall|"
    r"winter)\b",
    re.I,
)
_MOVES_THERE = re.compile(r"搬(?:去|到|来|回)了?$")
_SETTLED_BACK = re.compile(r"住|工作|上班|不在|待了|不想再漂")
_ABANDONED = re.compile(
    r"\b(?:was|were) (?:gonna|going to|planning to|planning on|supposed to)\b[^.;!?]*\bbut\b|"
    r"本来(?:想|打算|计划)[^。；！]*(?:但|可是|不过)",
    re.I,
)
_ZH_IF = re.compile(r"如果|要是|假如|万一|假设")
_MOVED_IT = re.compile(
    r"\b(?:but|then|and)\b[^.;!?]*\b(?:moved|pushed|rescheduled|changed|shifted) it\b", re.I
)
_TO_CANCEL = re.compile(
    r"\b(?:will|'ll|going to|gonna|then we|plan to|planning to|need to|have to)\s(?:\w+\s)?cancel", re.I
)
_A_METRIC = re.compile(
    r"\b(?:cost|price|spend) per (?:signup|sign-up|lead|click|acquisition|install|user acquired)\b", re.I
)
_LOVED_THE = re.compile(r"\b(?:loved|enjoyed|liked)\s(?:the\s)?$", re.I)
_ONE_EVENT = re.compile(
    r"(?i:(?:the )?(?:party|dinner|meal|show|gift|present|trip|concert|wedding|surprise|cake|evening|night|"
    r"movie|film|game))"
)
_WE_SIGNED = re.compile(r"\b(?:we|we've|we have|our company|our team)\b", re.I)
_PREMISES_MOVE = re.compile(
    r"\b(?:our|the|their) (?:[A-Z][\w-]* )?(?:office|HQ|headquarters|branch|store|warehouse|studio|factory) "
    r"(?:is |are |will be )?(?:moving|moves|moved|relocating)\b|"
    r"(?:办公室|公司|门店|仓库|总部|工厂)(?:下个月|下周|明年|年底|将|也)?(?:要)?搬",
    re.I,
)
_MOVED_ALONG = re.compile(
    r"(?:我|我们|全家)(?:也|都)?(?:跟着)?搬|\b(?:I|we)(?:'m| am|'re| are)? (?:also )?moving (?:too|with)",
    re.I,
)
_UNDECIDED = re.compile(r"还没定|没定下来|还在考虑|\bnot (?:decided|sure) yet\b", re.I)
_ASKED_FOR = re.compile(
    r"\b(?:pushed for|asked for|asking for|wants?|wanted|requested|requesting|demanding|pushing for|"
    r"negotiating for|negotiating)\s"
    r"(?:an?\s)?$",
    re.I,
)
_NOT_THAT_NOT = re.compile(r"(?:不是|并非|也不是)不")
"""A denial denied (不是不爱): the writer hedges, it states no taste."""
_FIRM_JOINED = re.compile(r"(?:公司|我们公司|集团|我司)(?:正式|已经|已)?加入")
_DECIDED_BY_OTHERS = re.compile(
    r"(?:集团|公司|老板|管理层|领导|总部|董事会|上面)(?:已经|最终|最后)?(?:决定|定了|打算|计划|准备)|"
    r"\b(?:the company|management|leadership|the board|HQ) (?:has |have )?decided\b",
    re.I,
)
_JOB_CHANGE = re.compile(r"跳槽|(?:又|就)跳了|入职|换工作|换了(?:份|个)?工作|\bnew job\b", re.I)
_AT_WORK = re.compile(r"办公|上班|工作|坐班|驻场|打卡|远程|通勤|公司|入职|单位|\bwork", re.I)
_SPENT = re.compile(r"用了|花了|用掉|花掉|剩下?|\bspent\b|\bleft\b|\bremaining\b", re.I)
_A_UNITS = re.compile(r"中心(?:今年|明年|本季度|下半年|上半年)?的[^，。；]{0,8}预算")
"""A centre's budget (研发中心今年的…预算): the finder names no such unit (a 部 it does); not the writer's."""


_A_TOOL_DROPPED = re.compile(
    r"\b(?:dropp(?:ed|ing)|ditch(?:ed|ing)|cancell?(?:ed|ing)|sunsett?(?:ed|ing)|(?:switch|migrat)(?:ed|ing)\s(?:from|off))\b",
    re.I,
)
"""A tool given up in the sentence: the unknown name one moves or goes back to is the tool that replaces
it."""
_NAME_OPENING = re.compile(r"(?-i:[A-Z][\w'’.-]*(?:\s[A-Z][\w'’.-]*)*)")


def not_stated(
    predicate: str, match: re.Match[str], sentence: str, clause: tuple[int, int], obj_start: int
) -> bool:
    """Return True when ``match`` (of ``predicate``, its object at ``obj_start``, in ``clause`` of
    ``sentence``) states no fact of its subject (the module docstring)."""
    if predicate in ("STUDIES_AT", "WORKS_AT", "HAS_ROLE") and _SEEN_OFF.search(
        sentence, clause[0], match.start() + 1
    ):
        return True  # 送女儿去杭州报到了: the one seen off goes there
    if predicate == "MEETING_AT" and (
        _MOVED_AWAY.match(sentence, match.end("obj")) or _MOVED_AWAY.search(sentence, match.end(), clause[1])
    ):
        return True  # 下午两点跟…的会议改到明天上午10点: the old time
    if predicate == "LIVES_IN" and _MAYBE_MOVING.search(sentence, clause[0], clause[1]):
        return True  # 可能搬到滨江，还在看房子: a move only weighed
    if predicate == "LIVES_IN" and re.search(
        rf"从{re.escape(match.group('obj').strip())}(?:回|搬)", sentence
    ):
        return True  # 我从深圳回长沙了，在深圳待了八年: where one lived until the move
    if predicate == "STUDIES_AT" and _TEACHES.search(sentence):
        return True  # 我老婆是小学语文老师，在朝阳区一所小学: where one teaches
    if predicate == "DISLIKES" and _A_MEAL.match(match.group("obj").strip()):
        return True  # 在减肥，不吃晚饭: a meal skipped, no dislike
    if predicate in ("LIKES", "DISLIKES") and _NOT_THAT_NOT.search(sentence, clause[0], obj_start):
        return True  # 我不是不爱吃海鲜，是过敏: neither a dislike nor plainly a liking
    if predicate == "PLANS_TO_VISIT" and (_VISITED.search(match.group()) or _SCHOOL_STARTS.search(sentence)):
        return True  # 今天下午拜访了…: a visit made; "start secondary school — Ella's going to St Mary's"
    if predicate == "WORKS_AT" and _A_STUDENT.search(sentence) and _A_SCHOOL.search(match.group("obj")):
        return True  # "just started at Addis Ababa University, studying medicine": study, no job
    if (
        predicate == "LIVES_IN"
        and sentence[max(0, match.start() - 1) : match.start() + 2].endswith("家在")
        and (_HOME_TOWN_VISIT.search(sentence))
    ):
        return True  # 我家在昆明，不过已经十年没回去过年了: where one comes from (COMES_FROM)
    if predicate == "CUSTOMER_OF" and _HOME_BOUGHT.search(sentence):
        return True  # 我在梅溪湖买了套两居: a home bought, no shop's customer
    if predicate in ("LIKES", "STUDIES") and _RESOLUTION.search(sentence, 0, obj_start):
        return True  # 新年计划：每个月读两本书，每周游泳两次: a resolution, not yet a habit
    if predicate == "VISITED" and _GREW_UP.search(sentence, 0, obj_start):
        return True  # 我小时候在哈尔滨长大，后来跟爸妈去了广州: a move as a child, no visit
    if predicate == "PLANS_TO_VISIT" and sentence[max(0, match.start() - 1) : match.start() + 1].startswith(
        "接"
    ):
        return True  # 明天开始接回华北大区: a region taken back, no trip
    if (
        predicate == "WORKS_AT"
        and _CHILDRENS_SCHOOL.search(sentence, obj_start, match.end("obj") + 12)
        and (_A_PUPIL.search(sentence) or "'s primary" in sentence.lower())
    ):
        return True  # "Emma started at Hillcrest Primary, she already loves her teacher": a pupil
    if (
        predicate == "LEFT_ORGANISATION"
        and _OVER_FROM.match(match.group())
        and is_place(" ".join(_NAME_SAID.findall(match.group("obj"))[:1]))
    ):
        return True  # "coming over from Kabul next spring": a visit from a town, no employer left
    if predicate == "STUDIES_AT" and _A_DEGREE.fullmatch(match.group("obj").strip()):
        return True  # "Got into the MSc in Marine Biology at Plymouth": the degree, not the school
    if predicate == "PRICE" and _SAVED.search(sentence, max(0, obj_start - 24), obj_start):
        return True  # "moving to Grafana Cloud, saves us about $40k/yr": a saving, no price
    if predicate == "ORDERED" and _ORDER_FORM.search(sentence, max(0, obj_start - 50), obj_start):
        return True  # "I've attached the order form for 40 seats of Orbit Pro": nothing ordered yet
    if predicate == "ALLERGIC_TO" and (
        (_EN_WONDERING.search(sentence, 0, obj_start) and "?" in sentence[obj_start:])
        or _FIGURATIVE.match(match.group("obj"))
    ):
        return True  # "I think I might be lactose intolerant?", "allergic to anything 'AI-powered'"
    if predicate == "MEETING_AT" and _SINCE.search(sentence, max(0, obj_start - 8), obj_start):
        return True  # "not sending by SMS since Monday's update": when a fault began
    if predicate == "PLANS_TO_VISIT" and _ONLY_MAYBE_INSTEAD.search(
        sentence, max(0, obj_start - 8), obj_start
    ):
        return True  # 去新疆，…可能会改成去西安: an alternative weighed
    if predicate == "VISITED" and (
        _A_UNIVERSITY.search(match.group("obj")) or _OFF_TO_STUDY.search(sentence)
    ):
        return True  # 我女儿上大学了，去了成都的川大; 老大最后去了东南大学: studying there, no visit
    if predicate == "WORKS_FROM" and _CALLED_OFF.match(sentence, match.end()):
        return True  # 在家办公的安排取消了: the arrangement ended
    if predicate == "HAS_ROLE" and sentence[match.end("obj") : match.end("obj") + 1] == "端":
        return True  # 做司机端的产品: the drivers' side of a product, no driver
    if predicate == "BUDGET" and _SIGN_OFF_LIMIT.match(sentence, match.end()):
        return True  # 单笔5万以下我直接批: an approval limit
    if predicate == "PRICE" and _A_CHARGE_DISPUTED.search(sentence, 0, obj_start):
        return True  # 账单重复扣费2次，金额各8600元: a charge complained of
    if predicate == "QUANTITY" and (
        _IN_STOCK.search(sentence, max(0, obj_start - 8), obj_start)
        or _POINTS_GIVEN.match(sentence, match.end("obj"))
    ):
        return True  # 库存只有200支, 剩余100支: stock, not the order; 再让了两个点: a discount
    if predicate == "EXPIRES_ON" and _QUOTE_VALID.search(sentence, max(0, obj_start - 10), obj_start):
        return True  # 报价有效期至1月31日: the quote's validity, no product's end
    if (
        predicate == "LIKES"
        and _ONE_WEEKEND.search(sentence, clause[0], obj_start)
        and sentence[match.end("obj") : match.end("obj") + 1] == "了"
    ):
        return True  # 周末陪我爸去钓鱼了: one weekend's outing, no habit
    if predicate in ("ATTENDED", "PLANS_TO") and match.group("obj").startswith("人数"):
        return True  # 参加人数大概40人: a headcount
    if predicate == "LIVES_IN" and (
        _A_HOME_BOUGHT.search(sentence) and _NOT_YET_HANDED_OVER.search(sentence)
    ):
        return True  # 我在苏州工业园区买了房，年底交房: not living there yet
    if predicate == "PLANS_TO_VISIT" and _FETCHING.search(sentence, max(0, obj_start - 12), obj_start):
        return True  # 我明年打算把我爸妈接到上海来住: they come, no trip of the writer's
    if predicate == "STOPPED_USING" and re.match(r"我(?!们的|司)", match.group("obj").strip()):
        return True  # 招商银行那个项目以后不用我跟了: a duty handed on, nothing stopped
    if predicate == "RESPONSIBLE_FOR" and "的是" in match.group("obj"):
        return True  # 负责产品的是贺敏: who, not what
    if predicate == "PREFERS" and match.group("obj").strip().startswith("不"):
        return True  # 我倾向于不续了: a leaning, no thing preferred
    if predicate == "HAS_ROLE" and _ROLE_TO_BE.search(sentence, max(0, obj_start - 30), obj_start):
        return True  # "training to become a pilot": not one yet
    if predicate == "LIVES_IN" and _HOME_SOLD.search(sentence, max(0, obj_start - 30), obj_start):
        return True  # "she sold her house in Bristol": no home there now
    if predicate == "PRICE" and _RENT.search(sentence, max(0, obj_start - 16), obj_start):
        return True  # 房子也换了，租在公司旁边，一个月4500: the rent, no price of the firm named
    if predicate == "USES" and _ASKED_TO_SWITCH.search(sentence, clause[0], obj_start):
        return True  # 青橙零售要求下一批扫码枪换成无线款: a request, nothing used yet
    if predicate == "RESPONSIBLE_FOR" and _NOT_TAKING_OVER.search(sentence, clause[0], obj_start):
        return True  # "I'm NOT taking over Lindqvist Bygg after all"
    if predicate == "DISCOUNT" and _A_CEILING.search(sentence, max(0, obj_start - 24), obj_start):
        return True  # "Don't promise Fenwick anything above 20% discount": a limit, none agreed
    if predicate == "LIKES" and _A_REQUEST.search(sentence, max(0, obj_start - 12), obj_start):
        return True  # "Wen, I'd love feedback by Friday": a request
    if predicate == "VISITED" and _A_FIRM_JOINED.search(match.group("obj")):
        return True  # 离开公司后我去了一家猎头公司: a job, no visit
    if predicate == "AGE" and _AGE_TO_COME.search(sentence, max(0, obj_start - 20), obj_start):
        return True  # "a sub-4 marathon before I'm 40": an age to come
    if predicate == "WORKS_AT" and (
        _A_STUDENTS_DAY.search(sentence) or _A_KIND_OF_FIRM.match(match.group("obj").strip())
    ):
        return True  # "first week at Rutgers, I'm the oldest in my classes"; "a job with a Dutch company"
    if predicate in ("LIVES_IN", "PLANS_TO_VISIT") and _DECIDED_AGAINST.search(
        sentence, clause[0], obj_start
    ):
        return True  # "We've decided against moving to Bergen after all"
    if predicate == "AGE" and _A_GOAL.search(sentence, clause[0], obj_start):
        return True  # "goal is 50 this year": books, not years
    if predicate in ("ATTENDED", "VISITED") and _MONEY_WENT.search(
        sentence, max(0, match.start() - 12), match.start() + 5
    ):
        return True  # "budget went to the customer summit"
    if predicate == "DIET" and _EATS_AGAIN.search(sentence) and not _DENIED_HERE.search(sentence, *clause):
        return True  # "vegetarian for 6 years but started eating fish again"
    if predicate == "MOVED_FROM" and A_DEPARTMENT.match(match.group("obj").strip()):
        return True  # "Carlos moved from Sales Engineering to Product": departments
    if predicate == "MEETING_AT" and A_YEAR.fullmatch(match.group("obj").strip()):
        return True  # 2025年预算会议: the year the meeting is about, not its day
    if predicate in ("COMES_FROM", "WORKS_AT", "HAS_ROLE") and _partners(sentence, clause, match.start()):
        return True  # 对象是个英国人, 新交了男朋友，是做律师的: the partner's
    if predicate == "PLANS_TO" and _EACH_ASKED.search(
        sentence, max(clause[0], match.start() - 6), match.start()
    ):
        return True  # 每个部门准备一个节目: asked of all
    if predicate == "MEETING_AT" and _MEETING_NOTES.search(sentence, clause[0], clause[1]):
        return True  # 用Notion记会议纪要: the minutes, no meeting
    if (
        predicate in ("MOVED_FROM", "PLANS_TO_VISIT", "VISITED")
        and "搬" in sentence[clause[0] : clause[1]]
        and OUR_PREMISES.search(sentence, clause[0], match.start())
    ):
        return True  # 公司下个月要搬到浦东了: the premises move
    if (
        predicate in ("LIVES_IN", "PLANS_TO_VISIT")
        and _A_TOOL_DROPPED.search(sentence)
        and (named := _NAME_OPENING.match(match.group("obj").strip()))
        and not is_place(named.group())
    ):
        return True  # "Dropped Jira, moving to Zammad", "dropping Renovate. Going back to Dependabot": a tool
    if predicate == "PRICE" and _WISHED.search(sentence, clause[0], obj_start):
        return True  # 对方希望单价降到38元/箱: asked for, no price
    if predicate in ("PLANS_TO", "BUDGET") and _YOUR_FIRM.search(sentence, 0, match.start()):
        return True  # 贵司计划在Q3上线…，预算约60万: the addressee's, whose company goes unnamed
    if predicate == "CANCELLED" and _OTHERS_CANCEL.search(sentence, clause[0], match.start()):
        return True  # 公司取消了工位: the company's doing
    if predicate == "CUSTOMER_OF" and (
        is_place(match.group("obj"))
        or (has_cjk(match.group("obj")) and any(is_place(match.group("obj")[:n]) for n in (2, 3)))
    ):  # 在杭州西溪那边买了套小房子
        return True  # 打算年底在深圳买房: where one buys, no supplier
    if predicate == "STOPPED_USING" and _a_trip_not_taken(sentence, match.group("obj").strip(), obj_start):
        return True  # 我今年不去新西兰了: a trip not taken, nothing given up
    if predicate in ("STOPPED_USING", "DIET") and _RELAPSED.search(sentence):
        return True  # 吃素破功了, 破戒了，又抽上了, 戒烟失败了: given up no more
    if predicate in ("USES", "STOPPED_USING") and (
        _A_UNIT_IN.search(sentence, obj_start, match.end())
        or _DEPARTMENT.fullmatch(match.group("obj").strip())
        or _MOVED_YOU.search(sentence, clause[0], obj_start)
    ):
        return True  # "moves to their Rotterdam office", "Zara moves to Product Ops", "moved you from Basic"
    if predicate == "WORKS_AT" and (
        _VOLUNTEER.search(sentence, max(0, obj_start - 24), obj_start)
        or _AN_ACCOUNT.search(sentence, obj_start, match.end() + 12)
    ):
        return True  # "I'm a volunteer at the Riverside animal shelter", "at Helix Dental's account"
    if predicate == "VISITED" and _JOB_CHANGE.search(sentence):
        return True  # 我跳槽了，从阿里去了腾讯: a job
    if (
        predicate == "WORKS_FROM"
        and has_cjk(sentence)
        and (not _AT_WORK.search(sentence) or match.group("obj").endswith(("那家", "这家")))
    ):
        return True  # 我家买房了！在苏州工业园区; 练瑜伽…在公司楼下那家: no work said
    if (
        predicate == "LIVES_IN"
        and _PLANNED.search(sentence, 0, match.start())
        and not _DATED.search(sentence, clause[0], match.end())
    ):
        return True  # 准备搬去海南住: a move planned with no day is no home yet (a dated one starts then)
    if (
        predicate == "VISITED"
        and "回" in sentence[max(0, obj_start - 4) : obj_start]
        and _SETTLED_BACK.search(sentence)
    ):
        return True  # 以前在上海住了五年，后来回成都了, 回老家重庆了，在这边找了份工作: moved back, no trip
    abandoned = _ABANDONED.search(sentence, clause[0])
    if abandoned and predicate in ("PLANS_TO", "PLANS_TO_VISIT", "RESPONSIBLE_FOR", "MEETING_AT"):
        return True  # "I was gonna go to Iceland in June but it's too expensive": a plan dropped
    if (
        abandoned
        and predicate in ("LIVES_IN", "WORKS_AT", "STUDIES_AT", "USES")
        and obj_start < abandoned.end()
    ):
        return True  # "I was going to move to Berlin but decided to stay in Vienna": never lived there
    if predicate == "CANCELLED" and _TO_CANCEL.search(
        sentence, max(0, match.start() - 16), match.start() + 8
    ):
        return True  # "then we cancel the licence", "we'll cancel the Zoom plan": not done yet
    if predicate == "RESPONSIBLE_FOR" and _ZH_IF.search(sentence, 0, match.start()):
        return True  # 如果老周走了，渠道业务交接给小陈: a hand-over supposed, not made
    if predicate == "MEETING_AT" and _MOVED_IT.search(sentence, match.end()):
        return True  # "The offsite was planned for May 5, but we moved it to May 12": not May 5
    if predicate == "PRICE" and _A_METRIC.search(sentence, max(0, obj_start - 30), obj_start):
        return True  # "Cost per signup about $23": a marketing metric, no price
    if (
        predicate == "LIKES"
        and _ONE_EVENT.match(match.group("obj").strip())
        and _LOVED_THE.search(sentence, max(0, obj_start - 12), obj_start)
    ):
        return True  # "Mom loved the party": a one-off reaction, no lasting taste
    if predicate == "SPONSORED_BY" and _WE_SIGNED.search(sentence, clause[0], obj_start):
        return True  # "We've signed with Ramp for corporate cards": a vendor, no sponsor
    if predicate == "LIVES_IN" and (
        (_PREMISES_MOVE.search(sentence, 0, obj_start) and not _MOVED_ALONG.search(sentence))
        or _UNDECIDED.search(sentence)
    ):
        return True  # "Our Dublin office is moving to …", 我们北京办公室下个月搬到望京; 搬回厦门…不过还没定
    if predicate == "DISCOUNT" and _ASKED_FOR.search(sentence, max(0, obj_start - 24), obj_start):
        return True  # "They pushed for 8% discount, we settled on 5%": asked, not given
    if predicate == "WORKS_AT" and _FIRM_JOINED.search(sentence, 0, obj_start):
        return True  # 公司正式加入中国软件行业协会: the firm's membership, no job
    if predicate == "VISITED" and "回" in sentence[max(0, obj_start - 3) : obj_start] and "出差" in sentence:
        return True  # 这周都在成都出差…周五回上海: home again, no visit
    if predicate == "PLANS_TO" and _DECIDED_BY_OTHERS.search(sentence, 0, match.start() + 2):
        return True  # 集团决定把西南区并入华南区, "the company decided to …": theirs, and decided
    if predicate in ("PLANS_TO_VISIT", "VISITED") and _MOVES_THERE.search(
        sentence, max(0, obj_start - 3), obj_start
    ):
        return True  # 搬去海南: a move, not a trip
    if predicate == "BUDGET" and (
        _SPENT.search(match.group()) or _A_UNITS.search(sentence, clause[0], obj_start)
    ):
        return True  # 预算已经用了95万; 研发中心今年的云服务器预算是120万
    # 我对海鲜不过敏
    return predicate == "ALLERGIC_TO" and bool(
        _NOT_ALLERGIC.search(sentence, obj_start, match.end() + 2)
        or _ONLY_INTOLERANT.match(sentence, match.end())
    )


def _a_trip_not_taken(sentence: str, obj: str, obj_start: int) -> bool:
    """Return True when a stop's object is a place gone to (不去新西兰了): a trip, not a thing given up."""
    if not (sentence[:obj_start].endswith("去") or obj.startswith("去")):
        return False
    place = obj.removeprefix("去").removesuffix("了")
    return is_place(place) or [tag for _, tag in tag_words(place)] == ["ns"]


def _partners(sentence: str, clause: tuple[int, int], start: int) -> bool:
    """Return True when what is said at ``start`` is of a partner just named (对象是个英国人, 我新交了男朋友，
    是做律师的), not of the speaker."""
    weds = _PARTNER_IS.search(sentence, clause[0], start + 1) and _ANOTHER_WEDS.search(sentence, 0, clause[0])
    return bool(weds) or bool(
        _PARTNER_THEN.search(sentence, 0, clause[0]) and sentence.startswith("是", clause[0])
    )
