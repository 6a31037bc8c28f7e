"""Facts a message implies once all its sentences are read: how each relative the speaker named is
related to them, where a customer's contact (or someone given a role there, or reporting to someone
there) works, whom a leaving said without its employer leaves, where they went next, and that such
a leaving is also the person's status, that a customer complaining about a product uses it, that
who stopped using one tool "from A to B" (从A换到B) uses B, and that the writer moves where someone
moves "with me"; a couple parted and a pet gone are ended relations (``engram.ingest.ended``).

Each step reads and rewrites :class:`~engram.ingest.reading.Message` ``facts`` in place, after the
patterns of every sentence have run (``engram.ingest.builtin``).
"""

from __future__ import annotations

import re

from engram.graph.places import is_place
from engram.ingest.ended import SPOUSES, couples_parted, diets_dropped, pets_gone
from engram.ingest.frames import DEPARTMENT, EN_NAME_WORD, EN_PET, EN_ROLE_RX
from engram.ingest.issues import COMPLAINT, FAULT, on_a_platform
from engram.ingest.mentions import Mention, is_first_name
from engram.ingest.reading import Message, sentences
from engram.ingest.refusals import held_before
from engram.ingest.relatives import CHILDREN
from engram.models.graph import FactIn
from engram.nlp.tokenize import has_cjk

_EQUATED = re.compile(r"\b(?P<name>(?-i:[A-Z])[\w-]*)\s(?:is|was)\s$")


def _equated(sentence: str, start: int) -> bool:
    """Return True when a thing, not a person, is said to be the relative at ``start`` ("Zyrtec is my best
    friend": a figure of speech, no relative of the writer's)."""
    said = _EQUATED.search(sentence, 0, start)
    return said is not None and not is_first_name(said["name"])


"""Kin predicates stated whether or not the relative does anything else in the message."""
_EMPLOYMENT = ("WORKS_AT", "LEFT_ORGANISATION")
_INFERRED_WEIGHT = 0.9
_OURS = re.compile(
    r"我们|我司|我方|咱们?|本公司|"
    r"我[^，。；]{0,3}(?:交给|转给|移交给|交接给)|(?:分配|指派|派单)给|\b(?:our|my|assigned to)\b",
    re.I,
)
"""Before a role: the speaker's own organisation, whatever the message was about (我交给…的区域经理严斌:
whom the speaker hands a customer to is a colleague; 客户X反馈…已分配给运维组张伟: a ticket's assignee)."""
_MOVING = re.compile(r"跳槽|离职|转岗|调去|调到|调往|加入|入职|\b(?:join|leav|left|quit|mov)", re.I)
"""A job change in the sentence: where the person worked before it is said elsewhere, if at all."""
_RETIRED = re.compile(r"退休|\bretir", re.I)
"""A retirement is its own status (退休, retired), read by its own patterns."""


def add_implied_facts(message: Message, text: str = "") -> None:
    """Add (and in one case rewrite) the facts ``message`` (read from ``text``) implies; see the
    module's docstring."""
    _complainants_use(message, text)
    _leaving_employer(message)
    _one_leaving(message)
    _next_employer(message)
    _left_status(message)
    _customer_contact_left(message)
    _contact_employers(message)
    _role_employers(message, text)
    _managers_employers(message)
    _kin_facts(message)
    couples_parted(message)
    pets_gone(message, text)
    diets_dropped(message, text)
    _switched_to(message)
    _tools_are_no_homes(message, text)
    _pet_named_after(message, text)
    _moving_with_the_writer(message)


_WITH_THE_WRITER = re.compile(r"\s(?:with me|with us)\b", re.I)


def _moving_with_the_writer(message: Message) -> None:
    """ "My boyfriend Rui is moving to Lisbon with me": whoever moves somewhere with the writer, the writer
    moves there too (stated), unless the message says where the writer lives already."""
    actor = message.speaker.actor
    if not actor or message.states(actor, "LIVES_IN"):
        return
    for fact in list(message.facts.values()):
        if fact.predicate != "LIVES_IN" or fact.subject == actor or not fact.object or not fact.fact:
            continue
        at = fact.fact.find(fact.object)
        if at >= 0 and _WITH_THE_WRITER.match(fact.fact, at + len(fact.object)):
            message.add_fact(fact.model_copy(update={"subject": actor}))


def _pet_named_after(message: Message, text: str) -> None:
    """ "we got a puppy. cockapoo, named Pickle", "we adopted a cat!! she's called Mochi", "adopted a cat!!
    her name is Pickle": a pet the writer got, named in the clause or sentence after (stated: the name is
    said, only later)."""
    if not message.speaker.actor:
        return
    for found in _PET_THEN_NAME.finditer(text):
        pet = Mention(0, 0, found.group("name"), "animal")
        message.add_entity(pet)
        message.add_fact(
            FactIn(
                subject=message.speaker.actor,
                predicate="HAS_PET",
                object=pet.name,
                fact=found.group().strip(),
                confidence=0.8,
                source_kind="stated",
            )
        )


_PET_THEN_NAME = re.compile(
    rf"(?:\b(?:we|I)(?:'ve|'m|'re| have| am| are)?\s|^|(?<=[.!?]\s))(?:just\s|finally\s)?"
    rf"(?:got|adopted|adopting|rescued|brought home)\s(?:a|an|the|our)\s(?:[\w-]+\s){{0,2}}?(?:{EN_PET})\b"
    rf"(?:(?!\s(?:for|with|to)\s(?:my|our|his|her|their)\b)[^.!?\n,]){{0,40}}?(?:[.!?]+\s*|,\s|\s)"
    rf"(?:(?!(?:for|with|to|from)\b)[\w-]+,?\s){{0,4}}?"
    rf"(?:(?:(?:she|he|it)(?:'s|\sis)\s)?(?:named|called)(?:\s(?:him|her|it))?|(?:her|his|its)\sname(?:'s|\sis))\s"
    rf"(?P<name>{EN_NAME_WORD}(?:\s{EN_NAME_WORD})?)",  # "named him Sir Reginald"
    re.I | re.M,
)


def _complainants_use(message: Message, text: str) -> None:
    """客诉：新城中学反馈那批K8智能门锁老报E07错误, "Escalation from Brookfield Hotels: the KeyLink smart
    locks we installed drain their batteries": the one organisation of a complaint uses the one
    product whose fault it reports (inferred: a stated use or stop outweighs it). Not when the
    sentence wants, weighs or denies it, names someone else as its user (竞争对手在用…), or the
    product bears the organisation's own name (旗云科技 and its 旗云POS)."""
    if not COMPLAINT.search(text):
        return
    organisations = [  # a department (售后部) is the sender's team, not a second customer
        name for name, kind in message.entities if kind == "organisation" and not DEPARTMENT.search(name)
    ]
    products = [name for name, kind in message.entities if kind == "product"]
    if len(organisations) != 1 or len(products) != 1:
        return
    customer, product = organisations[0], products[0]
    if text.find(customer) > text.rfind(product) and not re.search(
        rf"{re.escape(product)}\s+(?:at|in|from)\s+(?:the\s+)?{re.escape(customer)}", text
    ):  # "ship the P500 gateways to Corvid, but QA flagged…": the customer is named before, or as where it is
        return
    if re.search(rf"{re.escape(customer)}\s*(?:and|&|和|与|跟|、)\s*\w", text):
        return  # "from Brookfield Hotels and Marriott": a second customer the finder did not type
    sentence = next((s for _, s in sentences(text) if product in s), "")
    if on_a_platform(sentence, max(0, sentence.find(product))):
        return  # "the app crashes on iOS 17.4", 导出Excel时报错: what fails on it, not it
    faulty = FAULT.search(sentence) or any(
        f.predicate == "HAS_ISSUE" and f.subject == product for f in message.facts.values()
    )
    if (
        not faulty
        or _NOT_ITS_OWN.search(sentence)
        or product[:2] == customer[:2]
        or any(f.object == product and f.predicate in _USE for f in message.facts.values())
    ):
        return
    message.add_fact(
        FactIn(
            subject=customer,
            predicate="USES",
            object=product,
            fact=sentence.strip(),
            confidence=round(0.75 * _INFERRED_WEIGHT, 2),
            source_kind="inferred",
        )
    )


_USE = ("USES", "STOPPED_USING")
_NOT_ITS_OWN = re.compile(
    r"想|要不要|打算|考虑|评估|试用|竞争对手|别人|不是|而是|"
    r"\b(?:wants?|would like|evaluat\w*|consider\w*|interested|trial|hasn't|haven't|not the|instead|"
    r"competitor\w*|uses|using)\b",
    re.I,
)
"""A sentence that wants the product, weighs it, denies it or names another user of it."""


def _leaving_employer(message: Message) -> None:
    """安居物业的IT经理钱伟离职了，听说跳槽到鼎新物业: the leaving ends the employer named with the
    person before it (安居物业), not the one they go to after; one fact says both, and the role held
    there is no longer held."""
    for key, left in list(message.facts.items()):
        if left.predicate != "LEFT_ORGANISATION" or left.object is not None or left.value is not None:
            continue
        sentence = left.fact or ""
        named_at = sentence.find(left.subject)
        for other_key, works in list(message.facts.items()):
            if (
                works.predicate == "WORKS_AT"
                and works.subject == left.subject
                and _same_sentence(works, sentence)
                and works.object is not None
                and 0 <= sentence.find(works.object) < named_at
            ):
                del message.facts[key], message.facts[other_key]
                message.add_fact(left.model_copy(update={"object": works.object}))
                for role_key, role in list(message.facts.items()):
                    if (
                        role.predicate == "HAS_ROLE"
                        and role.subject == left.subject
                        and _same_sentence(role, sentence)
                        and sentence.find(str(role.object)) < named_at  # not the new one: 跳去顺丰当总监
                    ):
                        del message.facts[role_key]
                break


def _one_leaving(message: Message) -> None:
    """ "I'm in notice period at Pathwise, my last day is Sept 13": a leaving said without its employer
    is the one said with it in the same message, and dates it; or the end of the job the message dates
    ("…handed in my notice! Last day at Pennywise is Feb 2")."""
    for key, left in list(message.facts.items()):
        if left.predicate != "LEFT_ORGANISATION" or left.object is not None or left.value is not None:
            continue
        named = [
            (k, f)
            for k, f in message.facts.items()
            if f.predicate == "LEFT_ORGANISATION" and f.subject == left.subject and f.object is not None
        ]
        if any(
            f.predicate == "WORKS_AT" and f.subject == left.subject and f.invalid_at is not None
            for f in message.facts.values()
        ):
            del message.facts[key]
            continue
        if len(named) != 1:
            continue
        other_key, other = named[0]
        del message.facts[key]
        if other.valid_at is None and other.invalid_at is None:
            message.facts[other_key] = other.model_copy(update={"valid_at": left.valid_at})


def _customer_contact_left(message: Message) -> None:
    """【CRM】客户：恒远物流｜联系人：原采购经理魏强已离职, 澜海生物那边…原来的贾斌离职了: someone of the
    organisation talked about who leaves, with no employer said, leaves that organisation (inferred, so a
    stated employer outweighs it); not the speaker, a relative, or one said to be ours (我们组的小李)."""
    for key, left in list(message.facts.items()):
        person = left.subject
        employer = message.employer_before.get(person)
        if (
            left.predicate != "LEFT_ORGANISATION"
            or left.object is not None
            or left.value is not None
            or employer is None
            or person == message.speaker.actor
            or person in message.relatives
            or _OURS.search(_before(left.fact or "", person))
        ):
            continue
        del message.facts[key]
        message.add_fact(
            left.model_copy(
                update={
                    "object": employer,
                    "confidence": round((left.confidence or 0.8) * _INFERRED_WEIGHT, 2),
                    "source_kind": "inferred",
                }
            )
        )


def _same_sentence(fact: FactIn, sentence: str) -> bool:
    """Return True when ``fact`` was read from ``sentence`` (or from its opening, which is all a fact that
    only introduces someone keeps: 安居物业的IT经理钱伟)."""
    return bool(fact.fact) and sentence.startswith(fact.fact or "")


def _as_a_role(sentence: str, place: str) -> bool:
    """Return True when ``sentence`` says one goes to ``place`` as a role ("going to Lumidyne as senior PM"):
    a job taken there, no trip."""
    return bool(
        re.search(rf"{re.escape(place)}\s+as\s(?:an?\s|the\s|their\s|our\s)?(?:new\s)?{_A_ROLE}", sentence)
    )


_A_ROLE = rf"(?:(?i:{EN_ROLE_RX.pattern})|(?:[Ss]enior\s|[Ll]ead\s)?[A-Z]{{2,4}}\b)"
"""A role named or abbreviated (senior PM, CTO)."""


def _next_employer(message: Message) -> None:
    """钱坤已经不在华东物流了，听说去了顺丰, "Alice left Acme and joined Globex": an organisation someone
    "went to" or "joined" after leaving one is their next employer, not a visit or a membership (a
    department joined stays one); otherwise a customer called on (拜访启明光电) is no trip, and an
    organisation visits nowhere."""
    for key, went in list(message.facts.items()):
        if (
            went.predicate == "MEMBER_OF"
            and went.object is not None
            and (went.object, "organisation") in message.entities
            and not DEPARTMENT.search(went.object)
            and message.states(went.subject, "LEFT_ORGANISATION")
        ):
            del message.facts[key]
            message.add_fact(went.model_copy(update={"predicate": "WORKS_AT"}))
            continue
        if (
            went.predicate in ("VISITED", "PLANS_TO_VISIT")
            and (went.subject, "organisation") in message.entities
        ):
            del message.facts[key]  # "they'll go to Zebra" said of a pharmacy: a supplier, not a trip
            continue
        if (
            went.predicate in ("VISITED", "PLANS_TO_VISIT")
            and went.object is not None
            and (
                (
                    (went.object, "organisation") in message.entities
                    and message.states(went.subject, "LEFT_ORGANISATION")
                )
                or _as_a_role(went.fact or "", went.object)  # "going to Lumidyne as senior PM"
            )
        ):
            del message.facts[key]
            message.add_fact(went.model_copy(update={"predicate": "WORKS_AT"}))
        elif (
            went.predicate in ("VISITED", "PLANS_TO_VISIT")
            and went.object is not None
            and (went.object, "organisation") in message.entities
            and f"拜访{went.object}" in (went.fact or "")
        ):
            del message.facts[key]  # 拜访启明光电: a call on a customer (参观华为 is a visit)


def _left_status(message: Message) -> None:
    """闫老师上个月离职了, "Jeff quit": a leaving said without its employer is also the person's status
    (离职 / left), which stays true whatever employer it ends (engram.graph.arbitrate)."""
    for fact in list(message.facts.values()):
        if (
            fact.predicate == "LEFT_ORGANISATION"
            and fact.object is None
            and fact.value is None
            and not message.states(fact.subject, "STATUS")
            and not _RETIRED.search(fact.fact or "")
        ):
            status = "离职" if has_cjk(fact.fact or "") else "left"
            message.add_fact(fact.model_copy(update={"predicate": "STATUS", "value": status}))


_CONTACT_FOR = re.compile(r"\bcontact for\b", re.I)


def _contact_employers(message: Message) -> None:
    """恒泰物流的对接人换成孙丽, "our contact at Acme is Dana": a customer's contact works there
    (inferred, so a stated employer of the person outweighs it)."""
    for fact in list(message.facts.values()):
        if (
            fact.predicate == "CONTACT"
            and fact.object is not None
            and fact.object != message.speaker.actor  # "I'm the on-call contact for Brightwell": ours
            and not _CONTACT_FOR.search(fact.fact or "")  # "Derek is the point of contact for both": ours
            and (fact.subject, "organisation") in message.entities
            and not any(message.states(fact.object, p) for p in _EMPLOYMENT)
        ):
            message.add_fact(_works_at(fact, fact.object, fact.subject))


def _role_employers(message: Message, text: str) -> None:
    """拜访启明光电，IT负责人葛伟确认…, 对接的是他们工程部的庄经理: someone given a role or a department
    after an organisation was named works there (inferred: a stated employer outweighs it), unless
    the role is said to be ours (我们的技术总监王磊) or the organisation is where the speaker moves
    ("I've accepted the role of CFO at Harbor Robotics. Nicole Adams will be interim Controller")."""
    for fact in list(message.facts.values()):
        person, employer = fact.subject, message.employer_before.get(fact.subject)
        if (
            employer is None
            or _speakers_move(employer, text)
            or fact.predicate not in ("HAS_ROLE", "MEMBER_OF")
            or person in message.relatives
            or person == message.speaker.actor
            or any(message.states(person, p) for p in _EMPLOYMENT)
            or _OURS.search(_before(fact.fact or "", person))
            or _MOVING.search(_clause_naming(person, text) or fact.fact or "")
            or held_before(fact.fact or "")
            or (_signed(fact, person) and not _our_firm(employer, text))
        ):
            continue
        message.add_fact(_works_at(fact, person, employer))


def _signed(fact: FactIn, person: str) -> bool:
    """Return True for a fact read from a signature block (its lines, the writer's name first)."""
    return "\n" in (fact.fact or "") and (fact.fact or "").startswith(person)


def _our_firm(employer: str, text: str) -> bool:
    """Return True when the body says ``employer`` is the writer's ("interviewing with us at Orchard Lane
    Health", "we at Acme"): a signature's department belongs to it, not to a venue or a client named."""
    name = re.escape(employer)
    return bool(re.search(rf"\b(?:us|we|here)\s(?:at|from)\s(?:the\s)?{name}|\bour\s{name}", text, re.I))


def _managers_employers(message: Message) -> None:
    """ "Kevin reports to their CFO, Nina Park" (of Umbrella Health): whoever reports to someone works
    where they work, when no employer of their own is said (inferred)."""
    for fact in list(message.facts.values()):
        if fact.predicate != "REPORTS_TO" or fact.object is None or fact.subject == message.speaker.actor:
            continue
        if any(message.states(fact.subject, p) for p in _EMPLOYMENT):
            continue
        employer = next(
            (f for f in message.facts.values() if f.subject == fact.object and f.predicate == "WORKS_AT"),
            None,
        )
        if employer is not None and employer.object is not None:
            message.add_fact(_works_at(fact, fact.subject, employer.object))


def _works_at(said: FactIn, person: str, employer: str) -> FactIn:
    """Return the inferred WORKS_AT another fact implies, from its sentence, at a lower confidence (a
    stated employer of the person outweighs it in arbitration)."""
    return said.model_copy(
        update={
            "subject": person,
            "predicate": "WORKS_AT",
            "object": employer,
            "value": None,
            "conditions": {},
            "confidence": round((said.confidence or 0.8) * _INFERRED_WEIGHT, 2),
            "source_kind": "inferred",
        }
    )


def _speakers_move(organisation: str, text: str) -> bool:
    """Return True when the sentence first naming ``organisation`` tells the speaker's own job change
    (I/我 and a move: "I've accepted the role of CFO at Harbor Robotics", 我下个月加入蔚来)."""
    sentence = _sentence_naming(organisation, text)
    return bool(_MOVE.search(sentence) and _SPEAKER.search(sentence))


def _sentence_naming(name: str, text: str) -> str:
    """Return the first sentence of ``text`` naming ``name`` ("" when none does)."""
    return next((s for _, s in sentences(text) if name in s), "")


def _clause_naming(name: str, text: str) -> str:
    """Return the clause of the first sentence naming ``name`` that names it (吴越下个月跳槽去万科, not
    the next clause's 毕磊调去子公司了)."""
    return next((c for c in _CLAUSE_BREAK.split(_sentence_naming(name, text)) if name in c), "")


_CLAUSE_BREAK = re.compile(r"[，,；;]")


_MOVE = re.compile(rf"{_MOVING.pattern}|\b(?:accept|start|step\w* down)", re.I)
_SPEAKER = re.compile(r"\bI\b|\bI'(?:ve|m|ll)\b|我(?!们)", re.I)


def _before(sentence: str, name: str) -> str:
    """Return the few words before ``name`` in ``sentence`` (12 characters of Chinese, 30 of English);
    its last words when it holds only part of the name (the evidence "已分配给运维组张" of 张伟's role)."""
    start = sentence.find(name) if name in sentence else len(sentence)
    return sentence[max(start - (12 if has_cjk(sentence) else 30), 0) : start]


def _kin_facts(message: Message) -> None:
    """Add each relative's relation to the actor ("my mom says hi": the actor is her child), or to the
    relative they are the relative of; a relative's relative, or a boss, only when they matter (named, a
    spouse, or in another fact)."""
    actor = message.speaker.actor
    if not actor:
        return
    relatives = list(message.relatives.items())
    for name, (mention, sentence) in relatives:
        owner = mention.owner  # my sister's husband: related to the sister
        if owner is None or owner.name in message.relatives:
            continue
        kins = {mention.attributes.get("kin"), owner.attributes.get("kin")}
        if name in message.used or SPOUSES & kins:
            relatives.append((owner.name, (owner, sentence)))  # named when a fact names them
            message.used.add(owner.name)
            message.add_entity(owner)
    unnamed = {name for name in message.relatives if name.startswith((f"{actor}'s ", f"{actor}的"))}
    named_relations = {m.attributes.get("relation") for n, (m, _) in relatives if n not in unnamed}
    for name, (mention, sentence) in relatives:
        predicate = mention.attributes.get("kin")
        if not isinstance(predicate, str):
            continue
        if (
            name in unnamed
            and name not in message.used
            and (
                predicate == "REPORTS_TO"
                or mention.attributes.get("relation") in named_relations
                or _equated(sentence, mention.start)
            )
        ):
            continue  # "my boss said yes": no one to report to yet; "not my sister. My sister Abby is…";
            # "Zyrtec is my best friend": something said to be one
        relative_first = predicate in ("SIBLING_OF", "PARTNER_OF", "FRIEND_OF") or (
            predicate == "CHILD_OF" and mention.attributes.get("relation") in CHILDREN
        )
        other = mention.owner.name if mention.owner else actor
        subject, obj = (name, other) if relative_first else (other, name)
        message.add_fact(
            FactIn(
                subject=subject,
                predicate=predicate,
                object=obj,
                fact=sentence[:2000],
                confidence=0.85,
                source_kind="stated",
            )
        )


_EN_SWITCHED_TO = (
    r"\bfrom\s+{old}\s+(?:over\s+)?to\s+(?:the\s+|a\s+|an\s+)?"
    r"(?P<new>(?-i:[A-Z0-9])[\w+&-]*(?:\.[\w+&-]+)*(?:\s(?-i:[A-Z0-9])[\w+&-]*){{0,2}})"
)
_ZH_SWITCHED_TO = (
    r"从{old}(?:迁移|迁|换|切换|切|转|改)到"
    r"(?P<new>[A-Za-z0-9\u4e00-\u9fff]{{2,10}}?)(?=[，。；！、,.;!\s]|了|$)"
)


_TOOL_TALK = re.compile(
    r"\b(?:tools?|on-call|accounts?|licen[cs]es?|subscriptions?|platform|app|software|CRM|stack|migrat\w*|workspace)\b",
    re.I,
)


def _tools_are_no_homes(message: Message, text: str) -> None:
    """One move read both as a home and as a tool ("moving from Asana to Linear", "moving from Tacoma
    to Boise"): a gazetteer's place is a home and no tool; anything else a tool and no home. In a message
    that gives up a tool with a Latin name, a move to a Latin name that is no place is to another tool
    ("dropping Hotjar… Moving to PostHog"; not 不用租房了…搬到亦庄)."""
    homes = {f.fact for f in message.facts.values() if f.predicate == "LIVES_IN"}
    used = {f.object for f in message.facts.values() if f.predicate in _USE and f.object}
    gave_up = any(f.predicate == "STOPPED_USING" and str(f.object).isascii() for f in message.facts.values())
    # "New on-call tool: we've moved from PagerDuty to Opsgenie": a move between two Latin names that are no
    # places, in a message about tools, is a switch (not "moved from Shoreditch to Clapham")
    moves = [f for f in message.facts.values() if f.predicate in ("LIVES_IN", "MOVED_FROM") and f.object]
    switched = (
        {"LIVES_IN", "MOVED_FROM"} <= {f.predicate for f in moves}
        and all(str(f.object).isascii() and not is_place(str(f.object)) for f in moves)
        and _TOOL_TALK.search(text) is not None
    )
    for key, fact in list(message.facts.items()):
        place = bool(fact.object) and is_place(str(fact.object))
        tool_as_home = (
            fact.predicate == "LIVES_IN"
            and (fact.object in used or (gave_up and str(fact.object).isascii()))
            and not place
        ) or (switched and fact.predicate in ("LIVES_IN", "MOVED_FROM"))
        home_as_tool = fact.predicate in _USE and fact.fact in homes and place
        if tool_as_home or home_as_tool:
            del message.facts[key]


def _switched_to(message: Message) -> None:
    """ "moving standups from Zoom to Google Meet", 代码仓库从自建GitLab迁移到阿里云云效: who stopped using
    the first tool uses the second, named right after it (a product, though the mention finder may not
    know its name). A use whose subject is a tool given up in the message (设计组不再用蓝湖了，交付统一走
    Figma: not 蓝湖's) is the one who gave it up's."""
    given_up = {
        str(f.object or f.value): f.subject for f in message.facts.values() if f.predicate == "STOPPED_USING"
    }
    for key, fact in list(message.facts.items()):
        if fact.predicate == "USES" and fact.subject in given_up and given_up[fact.subject] != fact.subject:
            del message.facts[key]
            message.add_fact(fact.model_copy(update={"subject": given_up[fact.subject]}))
    for fact in list(message.facts.values()):
        if (
            fact.predicate != "STOPPED_USING"
            or fact.object is None
            or not fact.fact
            or fact.source_kind == "inferred"
        ):
            continue  # "we might switch from Zoom to Teams": a guess uses nothing
        template = _ZH_SWITCHED_TO if has_cjk(fact.fact) else _EN_SWITCHED_TO
        switched = re.search(template.format(old=re.escape(fact.object)), fact.fact)
        if switched is None:
            continue
        new = switched.group("new")
        message.add_entity(Mention(0, 0, new, "product"))
        message.add_fact(
            fact.model_copy(update={"predicate": "USES", "object": new, "invalid_at": None, "negated": False})
        )
