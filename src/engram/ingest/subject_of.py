"""Who a pattern's match is about: the subject of the fact it states.

The pattern says how to look (``Pattern.subject``: its ``subj`` group, the topic of the sentence —
a deal, project, product or organisation, else the speaker for a budget, meeting or deadline —, the
speaker, the person addressed, or the nearest subject left of the object); this module looks, in
the sentence's mentions and subject candidates (``engram.ingest.subjects``), and registers the
subject's entity with the message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engram.ingest.frames import Pattern
from engram.ingest.mentions import Mention, is_first_name
from engram.ingest.mentions_zh import starts_a_word
from engram.ingest.reading import Message, Sentence
from engram.ingest.refusals import a_title, generic_thing
from engram.ingest.relatives import cjk_person as _cjk_person
from engram.ingest.speaker import (
    PERSON_TYPES,
    not_the_speakers,
    number_holder,
    owned_by_another,
    someone_else,
    speaker_implied,
)
from engram.ingest.subjects import nearest_subject
from engram.ingest.topics import (
    FIGURES,
    a_rival,
    asked_by_another,
    earlier_topic,
    order_of_message,
    sentence_topic,
)
from engram.nlp.tokenize import has_cjk

_LEFT_TYPES = frozenset({"person", "organisation", "animal", "thing"})
PERSONAL = frozenset(
    {
        *("HAS_ROLE", "WORKS_AT", "REPORTS_TO", "STUDIES_AT", "STUDIES", "MARRIED_TO", "PARTNER_OF"),
        *("SIBLING_OF", "CHILD_OF", "FRIEND_OF", "AGE", "BIRTHDAY", "LIKES", "DISLIKES", "PREFERS"),
        *("INTERESTED_IN", "GOAL", "HAS_PET", "ALLERGIC_TO", "DIET", "COMES_FROM", "LEFT_ROLE"),
        *("ASSIGNED_TO", "UNASSIGNED_FROM", "LEFT_ORGANISATION", "VOLUNTEERS_AT", "ATTENDED", "CREATED"),
        "RESPONSIBLE_FOR",
    }
)
"""Predicates whose subject is a person (or a pet), never an organisation."""
_SPEAKER_FALLBACK = frozenset({"BUDGET", "MEETING_AT", "DEADLINE"})
"""Topic predicates that fall back to the speaker (lower confidence) when no topic is named."""
_LEFT_TOPICS: Mapping[str, frozenset[str]] = {
    "CANCELLED": frozenset({"organisation", "person", "thing"}),
    "ORDERED": frozenset({"organisation", "person", "thing"}),
    "PAID": frozenset({"organisation", "thing"}),
    "CONTACT": frozenset({"organisation", "thing"}),
    "STATUS": frozenset({"person", "organisation"}),
}
"""Topic predicates whose subject may also be the organisation or person that acts."""
_ANNOUNCED = frozenset({"USES", "STOPPED_USING"})
_FIRST_PERSON = ("actor", "possessive")
_DIARY = re.compile(r"(?:first|last)\s(?:day|week|shift)\b", re.I)
"""A match opening on "First day as …", "Last day at …" (its pattern anchors it at a clause's start): a
subjectless first person, the writer's own day."""
_MADE_BY = re.compile(r"(?:做|写|开发|搭|设计|负责)的")
"""After a person: what they made (雷鸣做的推荐模型上线了), whose state it is, not theirs."""
_THEIR_THING = re.compile(r"\w['’]s(?: [\w-]+){1,3} (?:is |was |has been |got )?$")
"""Before a state's cue, someone's thing ("Mira's transfer got approved"): the state is the thing's."""
_A_THING_OF_ITS_OWN = re.compile(
    r"(?:^|[.;,!?]\s*)(?:the|our|your|my|their)\s(?!(?:order|shipment|delivery|invoice|payment|contract|renewal|"
    r"deal|project|launch|rollout|go-live|upgrade|migration|ticket|case|request)s?\b)(?-i:[a-z][\w-]*(?:\s[a-z][\w-]*)?)"
    r"(?:\s(?:is|are|was|were|has been|have been|got))?\s$",
    re.I,
)
"""Between a name and a state, a thing that has it ("PO 7781 has shipped. The tote bags are delayed")."""
_THE_CONTACTS = frozenset({"INTERESTED_IN", "USES", "STOPPED_USING"})
"""What a note's subjectless sentence says of the person it is about, not of its writer."""
_OF_THE_CONTACT = frozenset(
    {"PREFERS", "DISLIKES", "LIKES", "BIRTHDAY", "AGE", "ALLERGIC_TO", "DIET", "HAS_PET", "COMES_FROM"}
)
"""What a contact note's subjectless sentence says of its contact: tastes, a birthday, habits."""
_SUBJECTLESS_USE = re.compile(r"(?:still |now )?(?:using|currently on|currently using|on)\b", re.I)
"""A sentence opening on what is used, its user unsaid ("Using Clio today", "Currently on Opera PMS")."""
_NOT_PEOPLE = frozenset({"product", "organisation", "document", "deal", "project"})


def _person_if_first_named(mention: Mention, text: str) -> None:
    """Make a place a person when ``text`` opens with a first name ("Nina Park's number": a first
    name, then a surname like a place)."""
    if mention.type == "place" and is_first_name(text.split()[0]):
        mention.type = "person"


def subject_of(
    pattern: Pattern,
    predicate: str,
    match: re.Match[str],
    cue: int,
    reading: Sentence,
    message: Message,
) -> tuple[str, float] | None:
    """Return ``(subject name, confidence weight)``, registering the subject's entity; None if unsaid."""
    speaker = message.speaker
    if pattern.subject == "group":
        start, end = match.span("subj")
        text = match.group("subj").strip()
        inside = [m for m in reading.mentions if start <= m.start < end and not m.vocative]
        if text.lower() in ("we", "i", "our", "my"):  # "We signed …": the speaker's team
            return (speaker.actor, 0.9) if speaker.actor else None
        kin = next((m for m in reading.mentions if m.relative and m.start <= start and end <= m.end), None)
        if kin is not None:  # 老公 of 我姐的老公: the relative the whole phrase names
            return kin.name, 0.9
        if pattern.named_subject:  # the person the finder knows where the group ends, whole
            # (赵强 of 经理赵强上周…, where a regex name begins too early; 王小明 of 王小明明天来);
            # between commas after a role it is no vocative ("their CFO, Nina Park")
            named = next((m for m in reading.mentions if m.start < end <= m.end), None)
            if named is not None and not has_cjk(named.name) and start > named.end - len(named.name):
                return None  # "Park" of "Met Lisa Park at SaaStr": a name's tail is no subject
            if named is not None:
                _person_if_first_named(named, named.name)
            if named is None or named.type != "person" or a_title(named.name):
                return None  # "Marketing Manager" of "(formerly Marketing Manager at …)": a title
            message.add_entity(named)
            return named.name, 0.95
        if text.lower() in ("he", "she", "his", "her"):  # "…Maria Lopez; her direct line is …"
            name = speaker.person_before(reading.mentions, start)
            return (name, 0.85) if name else None
        if text.lower() in ("they", "it", "you", "their", "its", "your"):
            return None
        if inside and inside[0].end > end:
            return None  # "Lord of the Rings": the subject is part of a longer name
        if inside:
            mention = inside[0]
            if pattern.subject_type == "person" and mention.type in _NOT_PEOPLE:
                return None  # 恒远律所目前用的金蝶云: a product is nobody's employee
            if mention.type == "thing" and pattern.subject_type:
                mention.type = pattern.subject_type
            elif pattern.subject_type == "person":
                _person_if_first_named(mention, text)
        elif text:
            if (
                pattern.subject_type == "person"
                and has_cjk(text)
                and not (_cjk_person(text) and starts_a_word(reading.text, start))
            ):
                return None  # 临时工: 时 ends a word, it begins no name
            mention = Mention(start, end, text, pattern.subject_type or "thing")
            reading.add_mention(mention)
        else:
            return None
        message.add_entity(mention)
        return mention.name, 0.95
    if pattern.subject == "addressee":
        return (speaker.addressee, 0.9) if speaker.addressee else None
    if pattern.subject == "speaker":  # a first person in the sentence, or the match's own (交给我)
        first = (
            "我" in match.group()
            or any(c.kind in _FIRST_PERSON for c in reading.candidates)
            or _DIARY.match(match.group()) is not None
        )
        return (speaker.actor, 0.9) if first and speaker.actor else None
    if pattern.subject == "topic":
        if predicate == "STATUS" and _A_THING_OF_ITS_OWN.search(reading.text, 0, cue):
            return None  # "PO 7781 has shipped. The tote bags are delayed": the bags' state, not the order's
        # 我是PM，技术负责人是卢珊，预算300万: the project's budget unless its own clause says "I" or "we"
        said = (reading.clause_of(cue)[0], cue) if predicate == "BUDGET" else (0, max(cue, match.end()))
        first = any(c.kind in _FIRST_PERSON and said[0] <= c.start < said[1] for c in reading.candidates)
        topic = sentence_topic(predicate, cue, reading)
        if topic is not None and predicate in FIGURES and a_rival(topic, message):
            topic = None  # "They went with Corvida — we were at $31": our price, not the rival's
        topic = order_of_message(predicate, reading, message, topic) or topic
        if topic is not None and generic_thing(topic.name):
            # 合同5月31日到期, "our subscription": whose it is (an earlier name), not the word, or no one
            topic = earlier_topic(predicate, message, reading.text, cue)
            if topic is None:
                return None
        if topic is None and not (first and predicate in _SPEAKER_FALLBACK):
            topic = earlier_topic(predicate, message, reading.text, cue)
        if topic is not None and generic_thing(topic.name):
            return None  # 合同已于七月底到期: only what it is, named nowhere
        if topic is not None:
            message.add_entity(topic)
            return topic.name, 0.95 if topic in reading.mentions else 0.8
        if predicate in _SPEAKER_FALLBACK and not pattern.named_topic and not asked_by_another(reading, cue):
            theirs = (
                predicate == "BUDGET"
                and (owned_by_another(reading, cue) or (not first and someone_else(reading, cue)))
            ) or (predicate == "MEETING_AT" and owned_by_another(reading, cue))
            theirs = theirs or not_the_speakers(reading, cue, message, first, predicate)
            if not speaker.actor or theirs:
                return None  # "客户张总说预算…", "their board meeting on Oct 14": someone else's
            if predicate == "BUDGET" and not first and (reading.lang == "zh" or message.account_note):
                account = speaker.organisation_before(reading.mentions, cue)
                if account:
                    return account, 0.7  # 拜访鼎宏科技…。预算大概80万: the customer's, named before
                if message.account_note:
                    return None  # "CRM note – Northwind Distribution: … Budget approx $120k/yr": not mine
            return speaker.actor, 0.75 if first else 0.65
        if predicate not in _LEFT_TOPICS:
            return None
        left = nearest_subject(
            reading.text, reading.clauses, cue, reading.candidates, _LEFT_TOPICS[predicate], match.start()
        )
        if (
            left is None
            or not left.name
            or left.kind == "possessive"
            or _THEIR_THING.search(reading.text, 0, cue)
            or (predicate == "STATUS" and left.start < reading.clause_of(cue)[0])
            or (pattern.named_topic and left.kind in _FIRST_PERSON)  # "We lost Kestrel.": never the "we"
            or (predicate == "STATUS" and _MADE_BY.match(reading.text, left.end))  # 雷鸣做的推荐模型上线了
        ):
            return None  # "Our Netflix subscription got cancelled": the thing owned, not its owner; "so I'll
            # be fasting, lunch meetups are on hold": a state of another clause's subject
        return left.name, left.weight
    allowed = PERSON_TYPES if predicate in PERSONAL else _LEFT_TYPES
    if predicate == "HAS_PET":
        allowed = allowed - {"animal"}  # 英短叫奶茶，布偶叫雪球: the second pet is no pet's
    if predicate in ("PHONE", "EMAIL") and (holder := number_holder(reading, cue, speaker.actor)) is not None:
        return (holder, 0.85) if holder else None  # 由行政部的邵斌跟我们对接，电话139…: his number
    collective = message.announced or message.minutes  # said to a team, or a meeting's record
    people = [
        c for c in reading.candidates if not (c.kind == "mention" and a_title(c.name or ""))
    ]  # "Head of CS"
    found = nearest_subject(reading.text, reading.clauses, cue, people, allowed, match.start())
    if found is not None and (found.name or not (collective and predicate in _ANNOUNCED)):
        return (found.name, found.weight) if found.name else None
    if pattern.named_subject:
        return None  # 货都在宁波: nobody said to be there
    inner = [
        c
        for c in reading.candidates
        if cue <= c.start < match.start("obj") and c.kind in ("actor", "possessive")
    ]
    if inner and speaker.actor:  # "Email me at …", "reach me on …", "Lost my job as …"
        return speaker.actor, inner[0].weight
    # an announcement's or minutes' statement with no subject is the team's or the meeting's (but a
    # number, as on its signature, is still its writer's)
    team_said = collective and predicate not in ("PHONE", "EMAIL")
    if speaker.actor and not team_said and speaker_implied(reading, cue):
        if reading.lang == "zh" and message.topic_person and all(c.start > cue for c in reading.candidates):
            return message.topic_person, 0.8  # 我儿子下个月中考。…最近又着迷打篮球: still the son
        if reading.lang == "zh" and message.note_contact and predicate in _OF_THE_CONTACT:
            return message.note_contact, 0.75  # CRM备注：万象零售 蒋晨 采购总监…。偏好微信: 蒋晨's
        if reading.lang == "en" and message.topic_person and predicate in _THE_CONTACTS:
            return message.topic_person, 0.75  # "Met Jun Nakagawa… Interested in the fleet module": Jun
        if message.account_note and (predicate in _THE_CONTACTS or predicate in ("PLANS_TO", "BUDGET")):
            account = speaker.organisation_before(reading.mentions, cue)
            return (account, 0.7) if account else None  # 远帆汽配客户拜访小结：…现在用的是金蝶的ERP, 打算采购
        return speaker.actor, 0.85
    if speaker.actor and collective and predicate in _ANNOUNCED:
        return speaker.actor, 0.8  # @全体 报销统一走飞书审批: the tools its writer's organisation uses
    if (
        predicate in _ANNOUNCED
        and reading.lang == "en"
        and not found
        and _SUBJECTLESS_USE.match(reading.text)
    ):
        account = speaker.organisation_before(reading.mentions, cue)
        if account:  # "Fenwick & Roe (law firm). Using Clio today": a sales note's account, said before
            return account, 0.75
    return None


_NAMED_AS = re.compile(r"(?:\b(?:name is|name's|named|called)\s|叫|名叫|取名)$", re.I)


def pet_named_before(reading: Sentence, cue: int) -> tuple[str, float] | None:
    """Return the animal named before ``cue`` whose an age or a state with no person as its subject is:
    the one named ("her name is Miso, she's 2", 我的狗叫可乐，柯基，两岁: 可乐, not the breed), else the
    last animal; None when the sentence names none."""
    before = [m for m in reading.mentions if m.end <= cue]
    named = [
        m for m in before if m.type in ("thing", "animal") and _NAMED_AS.search(reading.text, 0, m.start)
    ]
    animals = [m for m in before if m.type == "animal"]
    pets = named or animals
    return (pets[-1].name, 0.8) if pets else None
