"""Who a statement is about: speakers, named people and pronouns, in one sentence.

- First person (I, my, we, 我, 我们) is the episode's actor; the relatives the speaker names are
  found by ``engram.ingest.relatives``.
- he/she/他/她 name the last person named earlier in the message; you, they, it, 你, 他们
  (outside an organisation's context) block the statement: there is no coreference beyond that.
- A clause without a subject (Chinese drops it: 是一名中学老师) inherits the subject of the
  clause before it; a clause that names something (叫豆豆, "named Max") hands that name on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from engram.ingest.clauses import Lang, clause_at
from engram.ingest.frames import DEPARTMENT, ZH_ROLE
from engram.ingest.mentions import Mention
from engram.ingest.relatives import EN_OWNED_KIN, EN_THEIR_KIN, ZH_THEIR_KIN

# ── subject candidates ───────────────────────────────────────────────────────────────────

CandidateKind = Literal["actor", "possessive", "mention", "block", "other"]
"""``other``: a person named by no name (老师, 邻居): the subject of its clause, so not the speaker,
but no name to give a fact; unlike ``block`` it says nothing about the rest of the sentence."""

_EN_I = re.compile(r"(?<!of )(?:(?-i:\bI\b)|\b(?:I'm|I've|I'd|I'll|me|my|myself|im|ive)\b|"
                   r"(?P<we>\b(?:we|we're|we've|we'll|our|us|ourselves|"
                   r"the whole family|the whole fam|the family)\b))", re.I)  # fmt: skip
"""First person; after "of" ("a friend of mine") it is part of another noun phrase, no subject ("mine
retired" is someone of mine, no one named: a block). "The whole family" is the speaker's ("my grandma
turned 90, the whole family flew to Jaipur": not the grandma)."""
_EN_BLOCK = re.compile(
    r"\b(?:(?P<third>he|she|he's|she's|he'll|she'll)|you|you're|you've|you'll|u|ya|(?P<plural>they|they're|they've)|"
    r"(?<!of )mine|"
    r"(?-i:it|It|it's|It's|IT(?!\s(?:director|manager|lead|head|team|department|dept|support|admin|ops)\b))|everyone|everybody|someone|somebody|people|anyone|nobody|"
    r"(?:(?<=^)|(?<=[,.;!?]\s)|(?<=\band\s)|(?<=\bbut\s)|(?<=\bso\s))an? (?:friend|colleague|coworker|"
    r"co-worker|neighbou?r|relative|stranger|guy|girl|woman|man|lady|buddy))\b",
    re.I,
)
"""Subject pronouns only (possessives such as "their subscription" and objects such as "told him"
are no subject), and people named by no name opening a clause ("A friend made it"); IT is a
department ("IT director at Pinecrest"), not a pronoun."""
_ZH_I = re.compile(
    r"(?<![跟和与同替帮让叫请给])(?:(?P<we>我们|咱们|(?<![他她])(?<!他们)(?<!她们)全家人?|一家人)|我|本人|俺)"
)
_ZH_BLOCK = re.compile(
    r"(?<!@)(?:你们|你|您|(?P<plural>他们|她们|对方)|(?P<third>(?<![吉其])他|她)|它|客户|大家|别人|(?<!所)有人|谁)"
)
"""Someone else (你, 他们, 大家…): not the speaker. "@大家", "@所有人" only address a notice; 谁负责华东？
asks who."""
_EN_GOVERNED = re.compile(
    r"\b(?:at|in|on|from|with|to|for|of|about|by|into|than|like|near|via|my|your|his|her|our|their|a|an|this|"
    r"that|these|those|sold|bought|visited|called|met|saw|told|asked|thanked|left|joined|quit|founded|hired|"
    r"emailed|contacted|replaced|leaving|joining|and)\s+$",
    re.I,
)
_EN_APPOSITIVE = re.compile(
    r",\s(?:(?:the|a|an|our|their|his|her)\s(?!former|ex-|previous|old\s)|"
    r"(?!(?:former|ex-|previously|formerly|candidate|father|mother|husband|wife|son|daughter|brother|sister|friend|"
    r"partner)\b)(?=[\w-]+(?:\s[\w-]+){0,3}\s(?:at|of|for)\s(?-i:[A-Z]))(?![^,.;]*\b(?:until|till)\b))",
    re.I,
)
"""A person described right after the name ("coffee with Carla Jensen, the new VP of Operations at
Ferris & Cole", "spoke with Marcus Hale, IT director at Pinecrest"): the subject of the description,
though a preposition governs the name."""
_ZH_GOVERNED = re.compile(r"[从跟与对给向把被在到去让离替帮叫请]$|发给$|交给$|接替$|代替$")
_ZH_PEOPLE = re.compile(
    r"老师|同事|邻居|朋友|同学|领导|老板|室友|舍友|小孩|学生|网友|医生|教练|师傅|阿姨|保姆|房东|闺蜜|哥们|大爷|大妈|"
    r"小姑娘|小伙子|大姐|大哥|前台|竞争对手|友商|同行|孩子|嫂子|姐夫|妹夫|弟妹|弟媳|儿媳|女婿|公公|婆婆|岳父|岳母|"
    r"丈母娘|老丈人|小姨子|小舅子|大伯|叔叔|姑姑|舅舅|姨妈|家里老人|老人家|"
    rf"(?:(?<=我们的)|(?<=我们公司的))[\u4e00-\u9fff]{{0,4}}?(?:{ZH_ROLE})"  # 我们的实施经理: not the speaker
)
"""People (and rivals) named by what they are: 乐乐的老师很喜欢画画 is the teacher's liking, not the
speaker's; 竞争对手在用… is not the customer's use."""
_ZH_WITH = re.compile(r"[和同]$")
"""和朋友, 同同事: company, not a subject (和 also joins two subjects, so only for these nouns)."""
_EN_POSSESSIVE = re.compile(r"(?:my|our)\b", re.I)
_EN_OUR_PERSON = re.compile(
    r"(?:my|our)\s(?:new\s|main\s|day-to-day\s)?"
    r"(?:contact|point of contact|poc|rep|account manager|champion|sponsor|buyer|buyers)\b",
    re.I,
)
""""Our contact", "my rep": someone else, the subject of what follows (not the speaker)."""
_EN_GOVERNED_ME = re.compile(r"\b(?:from|to|with|for|about|by|than)\s+$", re.I)
"""A preposition before "me"/"us": an object ("takes over … from me"), like a possessive."""
_EN_OBJECT_PRONOUN = re.compile(r"me|us", re.I)
_EN_WHO_BEFORE = re.compile(
    r",\s+who\s+(?:[\w'’-]+\s+){0,2}$|\b(?:join|joins|joined|joining|welcome|welcomes|welcomed|leave|leaves|left|"
    r"leaving)\s+$",
    re.I,
)
""""…, who joins us as Head of Sales", "Maria is joining us as…", "Ravi is leaving us … to join Stackwise
as VP Engineering": "us" is the object of whoever joins or leaves."""
_ZH_POSSESSIVE = re.compile(r"我(?:们)?(?:的|公司|家|团队|部门|这边|组|项目)")
"""First person as a possessive or an object ("our CTO", 我们公司的, "from me"): the actor only when
nothing else is the subject."""
_EN_AND_ACTS = re.compile(r"\band\s+$")
_EN_VERB_NEXT = re.compile(
    r"\s+(?:works|lives|moved|is|was|has|had|joined|left|runs|leads|reports|studies|loves|likes)\b"
)
_EN_WHO = re.compile(r",?\s(?P<who>who)\b", re.I)
_ZH_UNNAMED_OPENER = re.compile(
    r"(?<=[，,])(?:老公|老婆|媳妇|爱人|丈夫|妻子)|(?<=[，,；;])(?:原来|之前|以前)的"
)
"""A spouse opening a clause (the speaker's when it is a relative mention, else someone else's), or
a former holder (…换成孙丽了，原来的王强调去深圳分公司: whoever jieba misses there, not 孙丽)."""
_EN_MY_HELPER = re.compile(
    r"\bmy\s(?:(?:new|old|tax|financial|personal)\s)?(?P<who>accountant|lawyer|attorney|doctor|dentist|therapist|"
    r"trainer|landlord|assistant|agent|realtor|advis[oe]r|client|customer|contractor|tenant|tutor|teacher|vet|"
    r"mechanic|barber|stylist|nanny|babysitter|cleaner|physio|designer|developer)\b",
    re.I,
)
"""Someone the speaker hires or serves, unnamed ("my accountant prefers Xero"): the subject of what
follows, not the speaker."""
_NAMING = re.compile(r"^\s*(?:叫|名叫|名字叫|named|called)", re.I)


@dataclass(slots=True)
class Candidate:
    """Something left of a cue that can be a statement's subject (or blocks it: ``name`` None)."""

    start: int
    end: int
    kind: CandidateKind
    name: str | None
    weight: float
    mention: Mention | None = None


@dataclass(slots=True)
class Speaker:
    """What the message so far says about who is who: the actor, the last person, the addressee."""

    actor: str | None
    last_person: str | None = None
    addressee: str | None = None
    organisations: list[str] = field(default_factory=list)

    def person_before(self, mentions: list[Mention], position: int) -> str | None:
        """Return who "he", "her", 他 before ``position`` is: the last person named before it (the
        actor too: "Sarah …; she"; nobody addressed), else the message's last person."""
        people = [m.name for m in mentions if m.type == "person" and not m.vocative and m.end <= position]
        return people[-1] if people else self.last_person

    def organisation_before(self, mentions: list[Mention], position: int) -> str | None:
        """Return which organisation "their", 他们 before ``position`` is: the last one named before
        it in the sentence (远洋冷链…：他们…), else the message's last one."""
        named = [
            m.name
            for m in mentions
            if m.type == "organisation" and m.end <= position and not DEPARTMENT.search(m.name)
        ]  # not 采购部 of 拜访鼎岳医疗器械采购部…。对方…: the firm, not its department
        named = named or [o for o in self.organisations if not DEPARTMENT.search(o)]
        return named[-1] if named else None


_OPENS_CLAUSE = re.compile(r"(?:^|[,;:，；：—-])\s*$")
"""Nothing but a clause's start before a mention: it is the clause's subject ("my twins start…", not
"…with the kids")."""


def candidates(sentence: str, lang: Lang, mentions: list[Mention], speaker: Speaker) -> list[Candidate]:
    """Return every subject candidate of ``sentence``, in order of position."""
    out: list[Candidate] = []
    covered = [(m.start, m.end) for m in mentions if m.relative or m.type == "group"]

    def inside(start: int) -> bool:
        return any(s <= start < e for s, e in covered)

    first, block = (_EN_I, _EN_BLOCK) if lang == "en" else (_ZH_I, _ZH_BLOCK)
    for match in first.finditer(sentence):
        if lang == "en" and _EN_OUR_PERSON.match(sentence, match.start()):
            continue  # "our contact there is their CTO": the contact is the subject, not the speaker
        if not inside(match.start()):
            weight = 0.9 if match.group("we") else 1.0
            owner = (_EN_POSSESSIVE if lang == "en" else _ZH_POSSESSIVE).match(sentence, match.start())
            object_me = lang == "en" and (
                _EN_GOVERNED_ME.search(sentence, 0, match.start()) is not None
                or (
                    _EN_OBJECT_PRONOUN.fullmatch(match.group()) is not None
                    and _EN_WHO_BEFORE.search(sentence, 0, match.start()) is not None
                )
            )
            possessive = owner is not None or object_me
            kind: CandidateKind = "possessive" if possessive else "actor"
            out.append(Candidate(match.start(), match.end(), kind, speaker.actor, weight))
    for match in block.finditer(sentence):
        if inside(match.start()):
            continue
        name = None
        if lang == "zh" and ZH_THEIR_KIN.match(sentence, match.end()):
            pass  # 他老婆在阿里上班: their relative, no one we can name
        elif match.group("third"):
            name = speaker.person_before(mentions, match.start())
        elif match.group("plural"):  # 他们, "they": the organisation talked about, if any
            name = speaker.organisation_before(mentions, match.start())
        out.append(Candidate(match.start(), match.end(), "block" if name is None else "mention", name, 0.85))
    if lang == "zh":
        named = [(m.start, m.end) for m in mentions]
        for match in _ZH_PEOPLE.finditer(sentence):
            before = sentence[: match.start()]
            if inside(match.start()) or any(s <= match.start() < e for s, e in named):
                continue
            if not (_ZH_GOVERNED.search(before) or _ZH_WITH.search(before)):
                out.append(Candidate(match.start(), match.end(), "other", None, 0.85))
        for match in _ZH_UNNAMED_OPENER.finditer(sentence):
            if not inside(match.start()):  # 张伟结婚了，老婆在腾讯上班: his wife, no one we can name
                out.append(Candidate(match.start(), match.end(), "block", None, 1.0))
    # "my twins start swimming lessons", 我爸妈…: several people, none of whom the fact can name
    out += [
        Candidate(m.start, m.end, "block", None, 1.0)
        for m in mentions
        if m.type == "group" and not m.relative and _OPENS_CLAUSE.search(sentence, 0, m.start)
    ]
    if lang == "en":
        # "Mike said his dad retired": the dad, no one we can name
        out += [Candidate(m.start(), m.end(), "block", None, 1.0) for m in EN_THEIR_KIN.finditer(sentence)]
        out += [
            Candidate(m.start("who"), m.end(), "block", None, 1.0) for m in _EN_MY_HELPER.finditer(sentence)
        ]
        # "…replaced Alan Cross, who retired in August": who is the name before it
        for match in _EN_WHO.finditer(sentence):
            who = next((m for m in mentions if m.end == match.start() and m.type == "person"), None)
            if who is not None:
                out.append(Candidate(match.start("who"), match.end(), "mention", who.name, 0.9, who))
    governed = _EN_GOVERNED if lang == "en" else _ZH_GOVERNED
    for mention in mentions:
        described = lang == "en" and mention.type == "person" and _EN_APPOSITIVE.match(sentence, mention.end)
        owned_kin = EN_OWNED_KIN if lang == "en" else ZH_THEIR_KIN
        if mention.type == "person" and not mention.relative and owned_kin.match(sentence, mention.end):
            out.append(Candidate(mention.start, mention.end, "block", None, 1.0, mention))
            continue  # "Jake's Mom works at Target", 阿珍老公在美团上班: their relative's job (no one named)
        acting = (
            lang == "en"
            and _EN_AND_ACTS.search(sentence, 0, mention.start)
            and _EN_VERB_NEXT.match(sentence, mention.end)
        )  # "I met Tom and Lisa works at Globex now": Lisa is the subject of "works"
        if mention.vocative or (
            not mention.relative
            and not described
            and not acting
            and governed.search(sentence, 0, mention.start)
        ):
            continue  # "at Google", "from the office", 在华为, 从产品部: not a subject
        if mention.type == "group":
            out.append(Candidate(mention.start, mention.end, "block", None, 1.0, mention))
        else:
            out.append(Candidate(mention.start, mention.end, "mention", mention.name, 0.95, mention))
    out.sort(key=lambda c: (c.start, -c.end))
    return out


_CONTACT_FIELD = re.compile(r"(?:联系人|决策人|对接人|负责人)[:：]\s*$")
"""A record's contact field before a clause (客户：X｜联系人：Y｜…): Y is not what later fields are about."""
_DESCRIBED = re.compile(r"的[^是叫为，,。]{0,12}$")
"""A 的 right before a name's role (对接我们的采购经理冯总), not a copula's subject (我的偶像是姚明)."""


def clause_subject(
    sentence: str, clause: tuple[int, int], found: list[Candidate], allowed: frozenset[str]
) -> Candidate | None:
    """Return the leading subject of a clause: the name it introduces (叫豆豆), else its first candidate."""
    start, end = clause
    inside = [c for c in found if start <= c.start < end and _allowed(c, allowed)]
    inside = [c for c in inside if not _ZH_WITH_BEFORE.search(sentence, max(start, c.start - 2), c.start)]
    if not inside or _CONTACT_FIELD.search(sentence, 0, start):
        return (
            None  # 客户：远图教育｜联系人：冼志明｜现状：一直用Excel: the record's fields are the customer's
        )
    if _NAMING.match(sentence[start:end]):
        named = [c for c in inside if c.mention is not None]
        if named:
            return named[0]
    last = inside[-1]
    if (
        last is not inside[0]
        and last.mention is not None
        and last.mention.type == "person"
        and _DESCRIBED.search(sentence, inside[0].end, last.start)
        and not sentence[last.end : end].strip(" ，,")
    ):
        return last  # 之前对接我们的采购经理冯总，…: the person the clause ends on, whom the rest describes
    return inside[0]


def _allowed(candidate: Candidate, allowed: frozenset[str]) -> bool:
    if candidate.mention is None or candidate.kind == "block":
        return True
    return candidate.mention.type in allowed


def nearest_subject(
    sentence: str,
    clauses: list[tuple[int, int]],
    cue: int,
    found: list[Candidate],
    allowed: frozenset[str],
    verb: int | None = None,
) -> Candidate | None:
    """Return the subject of a cue at offset ``cue``: the nearest candidate left of it in its
    clause, else the leading subject of the closest earlier clause that has one. An unknown
    name (type thing) is a subject only right before the verb at ``verb`` (default ``cue``)."""
    verb = cue if verb is None else verb
    index = clause_at(clauses, cue)
    start = clauses[index][0]
    left = [c for c in found if start <= c.start < cue and _allowed(c, allowed)]
    left = [c for c in left if not _bracketed(sentence, c)] or left  # "Ananya (Quillfeather) is going…"
    if any(c.kind != "possessive" for c in left):
        left = [c for c in left if c.kind != "possessive" or c is left[0]]
    for candidate in reversed(left):
        mention = candidate.mention
        if (
            mention is not None
            and mention.type == "thing"
            and not _ONLY_ADVERBS.fullmatch(sentence, mention.end, verb)
        ):
            continue  # an unknown name is a subject only right before its verb ("no longer" between)
        return candidate
    described = [  # "…with Tom, the new CTO at Acme": the clause describes the person before it
        c
        for c in found
        if c.end <= start
        and not sentence[c.end : start].strip(" ,")
        and c.mention is not None
        and c.mention.type == "person"
        and _EN_APPOSITIVE.match(sentence, c.end)
        and _allowed(c, allowed)
    ]
    if described:
        return described[-1]
    possessed = None  # 来我们这边任…: "our side" is no subject while an earlier clause names one
    for earlier in range(index - 1, -1, -1):
        leading = clause_subject(sentence, clauses[earlier], found, allowed)
        if leading is not None and leading.kind != "possessive":
            return leading
        possessed = possessed or leading
    return possessed


def _bracketed(sentence: str, candidate: Candidate) -> bool:
    """Return True for a candidate alone in brackets, an aside about the name before it ("Ananya
    (Quillfeather)", 陈国栋（陈总）); not a full name after a familiar one (阿杰（梁杰）): that is the
    subject."""
    inside = sentence[candidate.start - 1 : candidate.start] in ("(", "（") and sentence[
        candidate.end : candidate.end + 1
    ] in (")", "）")
    person = candidate.mention is not None and candidate.mention.type == "person"
    return inside and not (person and _FAMILIAR.search(sentence, 0, max(candidate.start - 1, 0)))


_FAMILIAR = re.compile(r"(?:[小老阿][\u4e00-\u9fff]|[\u4e00-\u9fff](?:总|经理|老师|姐|哥|工))$")
"""A familiar or titled form ending the text before a bracket (阿杰（梁杰）, 王总（王启明）)."""


_ONLY_ADVERBS = re.compile(
    r"[\s,]*(?:(?:no longer|also|still|just|now|finally|already|never|recently|currently|will|would|"
    r"is going to|plans to|wants to)[\s,]*)*",
    re.I,
)
"""Between an unknown name and its verb: "Greenleaf Organics no longer uses Shopify"."""
_ZH_WITH_BEFORE = re.compile(r"(?:[跟与同向找给对走用选]|换成|改用)$")
"""Before whom one deals with or what one uses (刚跟顺丰的对接人确认了，以后统一走顺丰特惠，不用京东快递了):
no subject of the clauses after."""
_ZH_AND = re.compile(r"^\s*(?:和|与|、)\s*$")
_ZH_WITH_AND = re.compile(r"^\s*(?:跟|同)\s*$")
"""跟 and 同 join two subjects only when what follows says both (我跟老公都…, 我跟他一起…): else "with"."""
_ZH_BOTH = re.compile(r"都|一起|俩|两个")
_EN_AND = re.compile(r"^,?\s*(?:and|&)\s+$", re.I)
_EN_LIST_COMMA = re.compile(r"^,\s+$")


def coordinated(
    sentence: str, lang: Lang, found: list[Candidate], mentions: list[Mention], subject: str, cue: int
) -> list[str]:
    """Return the people joined to ``subject`` by "and" left of ``cue`` ("Tom and I live…",
    赵倩、邓凯都向他汇报, 她和姐夫都在厦门), in the sentence's order; [] when the subject stands alone.
    People are the subject candidates and the people named (a name after "and" is no candidate)."""
    known = {(c.start, c.end) for c in found}
    named = [
        Candidate(m.start, m.end, "mention", m.name, 1.0, m)
        for m in mentions
        if not m.vocative and (m.start, m.end) not in known
    ]
    people = sorted(
        (
            c
            for c in [*found, *named]
            if c.name and c.end <= cue and c.kind in ("actor", "mention") and _person(c)
        ),
        key=lambda c: c.start,
    )
    at = next((i for i in range(len(people) - 1, -1, -1) if people[i].name == subject), None)
    if at is None:
        return []

    def joined(left: Candidate, right: Candidate) -> str | None:
        """Return "and", "comma" (a list's comma, English) or None for what joins two people."""
        gap = sentence[left.end : right.start]
        if lang == "en":
            return "and" if _EN_AND.match(gap) else "comma" if _EN_LIST_COMMA.match(gap) else None
        chinese = _ZH_AND.match(gap) is not None or (
            _ZH_WITH_AND.match(gap) is not None and _ZH_BOTH.search(sentence, right.end, cue) is not None
        )
        return "and" if chinese else None

    first = last = at
    while (
        first > 0
        and joined(people[first - 1], people[first])
        and not _object_of_verb(sentence, lang, people[first - 1])
    ):
        first -= 1  # not "I met Tom and Lisa works…": Tom is met
    while last + 1 < len(people) and joined(people[last], people[last + 1]):
        last += 1
    joins = [joined(people[i], people[i + 1]) for i in range(first, last)]
    if "and" not in joins:
        return []  # "Sam, Kim live…" is no list; "Sam, Kim and I" is
    own_names = {
        subject,
        *subject.split(),
    }  # "My name is Yasmin and I've just joined…": Yasmin is the speaker
    return [
        name for name in dict.fromkeys(str(c.name) for c in people[first : last + 1]) if name not in own_names
    ]


def _object_of_verb(sentence: str, lang: Lang, candidate: Candidate) -> bool:
    """Return True when an English name is the object of the verb or preposition before it."""
    governed = _EN_GOVERNED.search(sentence, 0, candidate.start) if lang == "en" else None
    return governed is not None and not governed.group().lower().startswith("and")


def _person(candidate: Candidate) -> bool:
    return candidate.mention is None or candidate.mention.type == "person"
