"""Whether a match of a job or a role says one is held: what it seems to say but does not.

A job looked for, applied to or recruited for is no job held; nor the role of the one succeeded or
replaced (项目经理从孙琦换成了王海涛), a role held before (阿里的前CTO王坚, "formerly Marketing Manager at")
or left (市场部经理陈凯已于3月31日离职); a unit before its employer ("VP of Digital Channels at Orchid
Hotels"), a team ("at the Platform team"), a territory ("Customer Success Manager for Benelux"), outside
counsel, a shop bought from or a place set (在凯麦食品的天猫店买的) is no employer; an attendees list, an
apposition naming someone else, where one came from (从…跳槽过来的), an activity (做了产品演示) and a duty
owned ("owner of the Maplewood tickets") hold no role of the one named. Called by
``engram.ingest.refusals.refused`` for WORKS_AT and HAS_ROLE.
"""

from __future__ import annotations

import re

from engram.ingest.lexicon import COUNTRIES

FORMER = re.compile(r"的前(?![台天面后])|前任")
_FORMER_BEFORE = re.compile(rf"(?:{FORMER.pattern}|原|\b(?:former|formerly|ex|previously)[\s-])$", re.I)
"""In a match, or right before it: a role held before (阿里的前CTO王坚, 前任总监, "formerly Marketing
Manager at …")."""
_SOUGHT = re.compile(
    r"\b(?:look(?:ing|s)? for|search(?:ing)? for|apply(?:ing)? (?:for|to)|applied (?:for|to)|"
    r"interview(?:ing|ed)? (?:for|at|with)|working on an? [\w -]{1,40} (?:role|position|search)|"
    r"(?:job |an )?offer from|offered (?:me )?(?:a|the) (?:job|role|position))\b",
    re.I,
)
"""A job looked for, applied to, interviewed for or offered is no job held ("I'll look for a nursing job
at …", "a job offer from Deliveroo as a data analyst")."""
_RECRUITING = re.compile(r"\b(?:hiring|recruiting)\b", re.I)
"""Before a role "for" a firm: recruited for a client ("We're hiring a Head of Customer Success for a Series B
SaaS company"), not the recruiter's employer ("I'm hiring a Staff Backend Engineer at Murmurline" is)."""
_SUCCEEDED = re.compile(
    r"\b(?:succeeded|succeeding|replaced|replacing|took over from|taking over from)\s+(?:Dr\.?\s)?"
    r"(?-i:[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\s*,?\s*$",
    re.I,
)
"""Right before "as <role>": the one succeeded ("I have succeeded Olivia Grant as Head of Procurement")."""
_UNIT_THEN_EMPLOYER = re.compile(r"[A-Z][\w&'-]*(?:\s[A-Z][\w&'-]*)*\s+at\s+[A-Z]")
"""A role of a unit at an employer ("VP of Digital Channels at Orchid Hotels"): the unit is no employer."""
_ZH_LEAVES = re.compile(
    r"已(?:经|于[^，。；]{0,10}?)?(?:离职|辞职|卸任|离任|退休)|(?:离职|辞职|卸任|离任|退休)了|(?<![将要会])辞去"
)
"""Said later in the clause of a role before a name (市场部经理陈凯已于3月31日离职, 辞去CEO职务): a role
held no more; not one to be left (财务总监林海12月底退休)."""
_ZH_REPLACED = re.compile(r"(?:已经?)?换成了?")
"""Right after a role's holder: another took it (项目经理从孙琦换成了王海涛, IT总监刘建已经换成了新人张扬)."""
_ZH_REPLACED_HOLDER = re.compile(r"[^，。；的]{0,12}?从[\u4e00-\u9fff]{2,3}(?:已经?)?换成")
"""A match that names the one replaced in a role of ours (金桥集团项目经理从何冰换成了吴迪: the account's, not
锐捷教育的项目经理从孙琦…, who still works there)."""
_OUTSIDE = re.compile(
    r"\b(?:outside|external|independent)\s(?:[\w-]+\s)?(?:counsel|auditors?|consultants?|advis[eo]rs?|contractors?)\b",
    re.I,
)
"""Who works for a firm from outside ("outside counsel for Fenwick & Roe"): its adviser, not its employee."""
_CAME_FROM = re.compile(r"从[^，。；]{1,10}?(?:过来|跳槽过来|调过来|跳过来)的|(?<![做拿弄搞说写想])出来的")
"""新领导是从华为过来的郭总, 华为出来的刘老师: where someone came from is a former employer, not a
current one."""
_APPOSITIVE_NAME = re.compile(
    r",\s(?-i:[A-Z][\w'’-]+)(?:\s(?:de\s|van\s|von\s|da\s|di\s|le\s)?(?-i:[A-Z][\w'’-]+))+"
)
"""A role then a comma and a full name ("the hiring manager at Corvasse, Elif Yilmaz", "our new ops lead,
Bram de Vries"): the named person holds it, not the sentence's subject."""
_NOT_AN_EMPLOYER = re.compile(
    r"(?-i:MD|CEO|CTO|CFO|COO|CIO|CMO|CPO|CRO|VP|SVP|EVP|GM|HR|PM)|(?:an?\s)?Series [A-F]\b.*"
)
"""A role in brackets ("Graham Tate (MD)") or a funding round ("a Series C fintech"): no employer."""
_FOR_A_TERRITORY = re.compile(
    r"\bfor\s(?:the\s)?(?:(?:North|South|East|West|Central|Northern|Southern|Eastern|Western|Greater)\s)?$"
)
REGION = re.compile(
    r"(?:(?:North|South|East|West|Central|Northern|Southern|Eastern|Western|Southeast)\s)?(?:Europe|Africa|Asia|"
    r"Americas?|Benelux|EMEA|APAC|APJ|AMER|NA|DACH|Nordics|LATAM|LatAm|MENA|Middle East|Iberia|Scandinavia|"
    r"Oceania|ANZ|UK&I)"
)
"""A sales territory ("Customer Success Manager for Benelux", "Head of Sales for East Africa", "our reseller
relationships in DACH"): after "for", with a country, no employer (not any town's name: "a pilot for
Delta"); nor a tool (engram.ingest.fragments)."""
_CLEFT = re.compile(r"[\u4e00-\u9fff]{0,4}的(?=[，。！？；,.!?;]|$)")
"""是CEO拍板的: who did it (a cleft sentence), nobody's role."""
_OWNER_OF_A_DUTY = re.compile(
    r"\b(?:owner|DRI)\sof\s(?:the\s)?(?:(?-i:[a-z])[\w/&-]*\s){0,3}(?:module|feature|process|queue|backlog|roadmap|"
    r"pipeline|workstream|migration|integration|rollout)\b|\b(?:owner|DRI)\sof\s[^.;!?]{1,40}?\b(?:tickets|accounts?|"
    r"renewals?|queue|escalations)\b",
    re.I,
)
"""One who owns a duty ("the owner of the tax/invoicing module", "owner of Maplewood and Tallis tickets"): no
role of a firm, nor a job at the customer named."""
_A_LIST = re.compile(r"\b(?:attendees|participants|present|invitees|cc)\s*:", re.I)
A_TEAM = re.compile(
    r"(?:the\s|our\s|their\s)?(?-i:[A-Z][\w&-]*)(?:\s(?-i:[A-Z][\w&-]*)){0,2}\s"
    r"(?-i:squad|team|pod|tribe|crew|desk|guild|chapter|workstream)s?\b",  # not Microsoft Teams
    re.I,
)
"""What a team is named after is no town nor tool ("moved from the Payments squad to the Platform
team")."""
_LEFT_NEXT = re.compile(
    r"(?:,\s(?:(?:has|had|have)\s(?:now\s)?(?:left|quit|resigned)|"
    r"(?:left|quit)(?=\s(?:the company|the firm|them)\b))|\s(?:has\s|had\s|just\s)?(?:left|quit|resigned))\b",
    re.I,
)
"""Said right after one placed at a firm: they left it ("Oisin from Lumenquay left", ", has left the
company")."""
_AN_ACTIVITY = re.compile(r"演示|介绍|培训|测试|方案|汇报|调研")
"""After a role word: a noun compound of an activity (做了产品演示), no role."""
_BOUGHT_AT = re.compile(r"的?(?:天猫|京东|淘宝|拼多多|抖音|官方|网上|线上)?(?:店|旗舰店|官网|小程序)里?买")
"""After a firm: a shop one bought at (在凯麦食品的天猫店买的), not an employer."""
_PLACE_SET = re.compile(r"(?:地点|地址|定|安排|约|放)$")
"""Before 在: where something is held (地点定在莫干山), not where one works."""


def _territory(sentence: str, match: re.Match[str], obj_start: int) -> bool:
    """Return True when the object at ``obj_start`` is a territory after "for" (``_FOR_A_TERRITORY``)."""
    named = re.match(r"[A-Z][\w&]*(?:\s[A-Z][\w&]*)*", match.group("obj").strip())  # "Benelux on March 18"
    name = named.group() if named else ""
    return bool(_FOR_A_TERRITORY.search(sentence, max(0, obj_start - 30), obj_start)) and (
        name in COUNTRIES or REGION.fullmatch(name) is not None
    )


def not_held(
    predicate: str, match: re.Match[str], sentence: str, clause: tuple[int, int], obj_start: int
) -> bool:
    """Return True when ``match`` (of WORKS_AT or HAS_ROLE, its object at ``obj_start`` in ``clause`` of
    ``sentence``) states no job or role held (the module docstring)."""
    sought = _SOUGHT.search(sentence, clause[0], match.start()) or (  # a job looked for or recruited for
        _RECRUITING.search(sentence, clause[0], match.start()) and " for " in match.group()
    )
    succeeded = predicate == "HAS_ROLE" and _SUCCEEDED.search(sentence, clause[0], match.start())
    unit = (  # "VP of Digital Channels at Orchid Hotels"
        predicate == "WORKS_AT"
        and sentence[max(0, obj_start - 3) : obj_start].lower() == "of "
        and _UNIT_THEN_EMPLOYER.match(sentence, obj_start)
    )
    before = _FORMER_BEFORE.search(sentence, max(0, match.start() - 12), match.start())
    came_from = predicate == "WORKS_AT" and _CAME_FROM.search(
        sentence, max(0, match.start() - 1), match.end()
    )
    left = (predicate == "HAS_ROLE" and _ZH_LEAVES.search(sentence, match.end(), clause[1])) or (
        _ZH_REPLACED.match(sentence, match.end())
        or _ZH_REPLACED_HOLDER.match(sentence, match.start(), clause[1])
    )  # 金桥集团项目经理从何冰换成了吴迪: neither the role nor the firm is 何冰's
    # 是CEO拍板的: a cleft sentence (not 是做外贸的: a line of work)
    said_is = (
        predicate == "HAS_ROLE" and match.group().startswith("是") and not match.group().startswith("是做")
    )
    cleft = said_is and _CLEFT.match(sentence, match.end("obj"))
    former = FORMER.search(match.group()) or before
    outside = predicate == "WORKS_AT" and _OUTSIDE.search(sentence, clause[0], obj_start)
    team = predicate == "WORKS_AT" and A_TEAM.match(sentence, obj_start)  # "at the Platform team"
    not_employer = predicate == "WORKS_AT" and (
        _NOT_AN_EMPLOYER.fullmatch(match.group("obj").strip()) or _territory(sentence, match, obj_start)
    )
    activity = predicate == "HAS_ROLE" and _AN_ACTIVITY.match(sentence, match.end("obj"))  # 做了产品演示
    gone = predicate == "WORKS_AT" and _LEFT_NEXT.match(sentence, match.end())  # "Oisin from Lumenquay left",
    # "Wes Holloway, our contact at Zephyr Outdoor, has left the company"
    # "the hiring manager at Corvasse, Elif Yilmaz" (not "…at Orbis and reports to their COO, Nina Park")
    appositive = (  # not "Jonah Peretz (their VP Ops), Aisha Bello": a list of people, each with their own
        _APPOSITIVE_NAME.match(sentence, match.end())
        and " and " not in match.group()
        and not match.group().endswith(")")
    )
    shop = predicate == "WORKS_AT" and (
        _BOUGHT_AT.search(sentence, obj_start, match.end()) or _PLACE_SET.search(sentence, 0, match.start())
    )  # 在凯麦食品的天猫店买的, 地点定在莫干山
    duty = _OWNER_OF_A_DUTY.search(sentence, max(0, match.start() - 12), clause[1])  # "owner of … tickets"
    listed = ", " in match.group() and _A_LIST.search(
        sentence, 0, match.start()
    )  # "Attendees: me, Bruno, their"
    held_by_another = sought or succeeded or appositive or came_from or cleft or left or listed
    return bool(
        held_by_another
        or unit
        or former
        or outside
        or team
        or shop
        or not_employer
        or activity
        or gone
        or duty
    )


_PUPILS_SCHOOL = re.compile(
    r"\b(?:nursery|kindergarten|preschool|pre-school|daycare|day care)\b|幼儿园|托儿所", re.I
)
_A_SCHOOL = re.compile(
    r"\b(?:uni|university|college|school|academy|primary|secondary|elementary)\b|大学|学院|中学|小学", re.I
)
_A_PUPIL = re.compile(
    r"\b(?:son|daughter|kids?|boy|girl|child|children|nephew|niece|grandson|granddaughter)\b(?!['’]s)"
    r"|\b(?:studying|doing (?!well|great|fine|ok)\w+|majoring|freshman|first[- ]year|degree)\b"
    r"|儿子|女儿|孩子|闺女|读",
    re.I,
)


def attends(school: str, sentence: str) -> bool:
    """Return True when the place one "started at" is a school they attend rather than an employer: a
    nursery ("Our son started at Maplewood Nursery"), or a school or university said of a child or with
    what is studied ("My sister started at Edinburgh Uni, she's doing veterinary medicine")."""
    return bool(_PUPILS_SCHOOL.search(school) or (_A_SCHOOL.search(school) and _A_PUPIL.search(sentence)))
