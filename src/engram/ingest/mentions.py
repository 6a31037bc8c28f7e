"""Find entity mentions in one sentence, with lexicons, rules, a first-name list and jieba POS tags.

Entities (lower snake types: person, place, organisation, product, project, document, deal,
email, url, role, animal, event, thing) come from, in priority order: references
(``engram.nlp.references``, passed in by the caller), projects ("the Denver rollout",
深圳仓储项目), Chinese roles (销售经理 → role, never a person), Chinese structures
(``engram.ingest.mentions_zh``: 华东物流, 市场部, X3扫描仪, 服务合同), the gazetteer (name →
type), Chinese surname + title (张经理 → person ``{"title": "经理"}``), jieba POS tags, English
titles (Mr./Dr. + name) and English capitalised spans, typed by the gazetteer, an organisation
or place word (Acme Corp, Lake Tahoe) or a first name (``engram.nlp.names.first_names``).

Capitalised spans are skipped at a sentence start unless known, and so are months, weekdays,
pronouns, interjections and acronyms that only modify a noun ("an LGBTQ support group"). A
place followed by a country or region keeps the qualifier in its name and attributes: "Paris,
France" → ``{"name": "Paris, France", "attributes": {"city": "Paris", "country": "France"}}``,
so "Paris, France" and "Paris, Texas" never merge by name. Names only used to address
someone ("Thanks, Joanna!", "Sorry about your job Jon, but…") are marked ``vocative``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engram.ingest.frames import (
    EN_DEPARTMENT,
    EN_NAME_WORD,
    EN_PERSON_NAME,
    EN_PET,
    EN_ROLE,
    EN_ROLE_NOUNS,
    ZH_ROLE_RX,
)
from engram.ingest.lexicon import (
    COUNTRIES,
    DEFAULT_GAZETTEER,
    EXCLUDE,
    FIRST_NAMES,
    GREETING,
    OPENING_VERBS,
    ORG_WORDS,
    PLACE_WORDS,
    REGIONS,
    ZH_TITLED,
)
from engram.ingest.mentions_zh import (
    PRODUCT,
    inside_longer_name,
    is_surname,
    starts_a_word,
    structural_mentions,
    tagged_mentions,
)
from engram.models.graph import Scalar
from engram.nlp.names import first_names
from engram.nlp.references import Reference
from engram.nlp.tokenize import has_cjk

__all__ = [
    "DEFAULT_GAZETTEER",
    "Mention",
    "MentionFinder",
    "is_first_name",
    "is_surname",
    "located",
    "names_a_deal",
    "overlaps",
]

_EN_TITLE = re.compile(rf"\b(Mr|Mrs|Ms|Dr|Prof|Professor|Uncle|Aunt|Coach)\.?\s({EN_PERSON_NAME})")
_PROJECT_HEAD = (
    r"(?:rollout|migration|launch|project|upgrade|initiative|campaign|program|programme|pilot|redesign|"
    r"integration|release|implementation|deployment|refresh|rebrand|overhaul|roadmap|expansion|renovation|"
    r"rewrite|onboarding|kickoff|portal)"
)
_EN_PROJECT = re.compile(
    r"\b(?:the\s|our\s|their\s)?(?P<name>(?-i:Project\s[A-Z][\w-]*)|"
    r"(?:[A-Z][\w&-]*\s(?:&\s)?){1,4}(?:(?!(?:the|a|an|to|for|of|on|in|at|with|and|or|is|are|was|were|will|"
    r"has|have|had|our|their|its|new|old|next|last|this|that|per|by|from)\s)[a-z][a-z-]*[a-z](?<!ed)\s){0,2}"
    rf"{_PROJECT_HEAD})\b"
)
"""A named project: "Project Orion", "the Atlas migration", "the Ironbridge Logistics route-optimisation
project", "Juniper Ridge HOA portal" (capitalised words, at most two lowercase ones, then the head)."""
_LATIN = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
"""Latin letters, accented ones included (Charité, Zürich, Łódź)."""
_CAPITAL_WORD = re.compile(
    rf"(?<![{_LATIN}0-9'’])(?:St\.|[A-Z\u00c0-\u00d6\u00d8-\u00de\u0100-\u017f][{_LATIN}0-9&'’-]*"
    r"(?:\.(?:io|com|ai|app|co|net|org|dev)\b)?)"
)
"""A capitalised word, a web name whole (Customer.io, Booking.com)."""
_MONTH_AS_NAME = re.compile(
    r"(?:Jun|Jan|May|June|April|August)\s(?!(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|"
    r"Nov|Dec))[A-Z][a-z]{2,}\b"
)
_MONTH_BEFORE = re.compile(r"\b(?:in|on|by|of|since|until|from|last|next|this|early|late|mid|end)\s$", re.I)


def _month_as_name(sentence: str, start: int) -> bool:
    """Return True for a month's name that is a first name, before a surname ("Met Jun Nakagawa", "April
    Ludgate"), not after a word that makes it the month ("in June Acme signed")."""
    return bool(_MONTH_AS_NAME.match(sentence, start)) and not _MONTH_BEFORE.search(sentence, 0, start)


_NUMBERED = re.compile(r" \d{1,4} [A-Z]")
"""A number inside a capitalised name ("Microsoft 365 Business Premium", "Office 365 Enterprise E3")."""
_POSSESSIVE = re.compile(r"(?:['’]s|['’-])$")
_CONNECTOR_GAP = re.compile(r" (?:of|de|da|del|van|von|the|&|\d{1,4})(?: the)? ")
_EN_DEAL = re.compile(
    r"\b(?i:the|our|their|this|that)\s(?P<name>(?:[A-Z][\w-]*\s){1,2}(?:deal|renewal|order|opportunity))\b"
)
_DEAL_BEFORE = re.compile(
    r"(?:订单号?|合同号?|单号|采购单|补单|下单|报价单|(?i:order|contract|agreement|deal|PO|quote|signed))\s?[:：#]?\s?$"
)
_DEAL_AFTER = re.compile(r"(?:这|那)(?:单|笔)")
_DEAL_IN_PARENS = re.compile(r"\b(?i:quote|order|po|deal|contract|renewal)\b[^()\n.]{0,40}\(\s?$")
"""An id in parentheses after what it numbers: "Quote for Alder & Finch (Q-24-0917)"."""


def names_a_deal(sentence: str, start: int, end: int) -> bool:
    """Return True when an id at ``start:end`` is said to be an order or a contract (订单DT-0311,
    合同号HY-0918, HL-0587这单, 补单LC-0815, "order SO-7731", "PO#CO-88412", "signed LSD-0123")."""
    return bool(
        _DEAL_BEFORE.search(sentence, max(0, start - 12), start)
        or _DEAL_AFTER.match(sentence, end)
        or _DEAL_IN_PARENS.search(sentence, max(0, start - 60), start)
    )


_EN_ACCOUNT = re.compile(
    r"\b(?i:the|our|their|this|that)\s(?P<name>[A-Z][\w&-]*(?:\s[A-Z][\w&-]*)?)\saccount\b"
)
"""A sales account is its customer: "the Globex account" names the organisation Globex."""
_EN_TEAM = re.compile(
    rf"\b(?i:the|our|their|its)\s(?P<name>(?:[A-Z]{{2,}}\s|[A-Z][a-z]+\s)?(?i:{EN_DEPARTMENT})\s?(?:team|department|dept))"
    r"(?=['’]s\s|\sbudget\b)|\b(?:budget|headcount|deadline)\sfor\s(?:the|our)\s"
    rf"(?P<named>(?:[A-Z]{{2,}}\s|[A-Z][a-z]+\s)?(?i:{EN_DEPARTMENT})\s?(?:team|department|dept))\b"
)
"""A team or department said as what holds a value ("The marketing team's budget", "the budget for the
EMEA sales team"): an organisation named in lower case, as the teams one joins are."""
_BUDGET_VERB = r"(?:is|was|will|stays|at|got|has|had|approved|capped|cut|raised|increased|reduced|set|went)\b"
_EN_BUDGETED = re.compile(
    r"\b(?i:budget|headcount)\sfor\s(?:the\s|our\s|this\s|a\s)?"
    r"(?P<name>(?!(?i:the|our|a|an|this|next|last|each|every|it|that|year|quarter|month|whole|entire|company|"
    r"team|us|project|deal|contract|account)\b)"
    rf"(?:[a-z][a-z-]+(?:\s(?!{_BUDGET_VERB})[a-z][a-z-]+){{0,2}}|[A-Z][A-Za-z-]+(?:\s(?!{_BUDGET_VERB})[a-z][a-z-]+){{1,2}}))"
    rf"(?=\s{_BUDGET_VERB}|\s?[:=]|\s(?:[$€£]|\d))"
)
"""What a budget said for a thing is for ("Budget for the offsite is €25k", "budget for paid social is 22k",
"Budget for the Berlin trade show is capped at $18,000"): a project of its own, not the writer's budget (a
name alone, "budget for Acme", is left to the finders that know names)."""
_NOT_ITS_WORD = (
    r"(?i:but|and|or|so|for|of|to|in|on|with|is|was|a|an|the|says|said|thinks|told|that|this|their|our|my|"
    r"your)\b"
)
"""A word no name of what a budget is for holds ("Jiří says the budget", "add-on but budget")."""
_EN_BUDGET_OF = re.compile(
    r"(?<!['’]s\s)\b(?:(?i:the|this|our)\s)?(?P<name>(?!(?i:the|our|my|a|an|this|next|last|total|annual|overall|whole|"
    r"entire|new|current|approved|his|her|their|its|same|original|initial|remaining|monthly|yearly|quarterly|"
    rf"team|company|department|project|budget)\b)(?:(?!{_NOT_ITS_WORD})[A-Za-z0-9][\w-]*\s){{0,2}}"
    rf"(?!{_NOT_ITS_WORD})[a-z][\w-]*)\s(?i:budget)\b"
    rf"(?=\s(?:is\s|was\s|has\s|got\s)?{_BUDGET_VERB}|\s?[:=]|\s(?:[$€£]|\d))"
)
"""What a budget is for, said before it ("website redesign budget raised to $48k", "Trade fair budget
approved: €35,000", "the Q3 paid ads budget is reduced"): a project of its own, not the writer's budget."""
_EN_PRODUCT_KIND = (
    r"(?:locks?|sensors?|brackets?|scanners?|printers?|terminals?|tablets?|kiosks?|trackers?|cameras?|routers?|"
    r"thermostats?|chargers?|batteries|battery|headsets?|servers?|readers?|meters?|pumps?|valves?|handhelds?|"
    r"gateways?|modems?|switches|monitors?|displays?|panels?|dryers?|washers?|laptops?|phones?|radios?|"
    r"controllers?|robots?|drones?|compressors?|chillers?|purifiers?)"
)
_EN_PRODUCT = re.compile(
    r"\b(?i:the|our|their|its|his|her|those|these|new)\s(?P<name>[A-Z][\w-]*[a-z0-9][\w-]*(?:\s\d+)?\s"
    rf"(?:(?!the\b|and\b|or\b|of\b)[a-z][\w-]*\s|(?:GPS|POS)\s){{0,2}}?{_EN_PRODUCT_KIND})\b"
)
"""A named product said with its kind: "the KeyLink smart locks", "the ColdChain sensors"."""
_EN_DOCUMENT = re.compile(
    r"\b(?i:the|our|their|this|that|my|his|her)\s(?P<name>(?:(?:service|master|sales|purchase|rental|employment|"
    r"framework|support|maintenance|license|licence|partnership|supply|consulting)\s)?(?:contract|agreement|"
    r"subscription|lease|licen[cs]e|NDA|SOW|statement of work))\b"
)
_ACRONYM = re.compile(r"[A-Z]{2,6}\+?")
_MAX_NAME_WORDS = 8
"""The most capitalised words one name holds ("The Royal Bank of Scotland Group Pension Fund")."""
_VOCATIVE_BEFORE = re.compile(
    r"(?:\b(?:hey|hi|hello|thanks|thank you|congrats|congratulations|bye|dear|go|sorry|wow|yo|morning|night|"
    r"welcome|cheers|oh|yeah|yes|no|ok|okay|cool|great|awesome|nice|amazing|sweet|haha|lol|aw+|love you|"
    r"see you|take care|you|your|you're|good|right|true|exactly|totally|agreed)|[,，!?])\W*$",
    re.I,
)


_ADDRESSING = re.compile(
    r"\b(?:you|your|you're|sorry|thanks|thank|congrats|congratulations|proud of)\b", re.I
)


@dataclass(slots=True)
class Mention:
    """A span of a sentence naming an entity (``relative``: a relative the speaker names; ``owner``:
    the relative whose relative this one is, "my sister" of "my sister's husband")."""

    start: int
    end: int
    name: str
    type: str
    attributes: dict[str, Scalar | None] = field(default_factory=dict)
    aliases: list[str] = field(default_factory=list)
    vocative: bool = False
    relative: bool = False
    owner: Mention | None = None


def overlaps(start: int, end: int, spans: Iterable[tuple[int, int]]) -> bool:
    """Return True when ``start:end`` overlaps one of ``spans``."""
    return any(start < e and s < end for s, e in spans)


_PERSON_APPOSITION = re.compile(
    rf",\s(?:(?:our|my|the|their|his|her)\s(?:new\s|old\s|former\s)?{EN_ROLE}\b\s?,"
    rf"|{EN_ROLE}\s?(?:[.;]|$|\s(?:at|@)\s(?-i:[A-Z])))",
    re.I,
)
"""A role between commas right after a name ("Hank, our CTO, prefers …"), or one ending the clause or
saying where ("Walt Brennan, CFO.", "Tilda Marchetti, ops manager at Greyhollow Farms"): a person's."""
_ROLE_APPOSITION = re.compile(
    rf"\b(?:our|my|the|their|his|her|its|an?)\s(?:new\s|old\s|former\s|interim\s|acting\s)?{EN_ROLE},\s$",
    re.I,
)
"""A role and a comma right before a name ("reports to their CFO, Nina Park", "has a new IT director,
Paula Grant"): the person, not someone addressed."""
_A_TITLE = re.compile(EN_ROLE, re.I)
"""A capitalised run that is a role whole ("Head of Support", "Chief Revenue Officer")."""
_HEADQUARTERED = re.compile(
    r"(?:['’]s)?\s(?:HQ|headquarters|head office)\b|\s(?:is|was|are)\s(?:now\s)?headquartered\b"
)
"""A name whose headquarters are spoken of is an organisation's ("Globex's headquarters is in Denver",
"Initech is headquartered in Austin")."""
_FIRM_APPOSITION = re.compile(
    r"\b(?:a|an|the)\s(?:[\w-]+\s)?(?:charity|startup|start-up|company|firm|agency|nonprofit|non-profit|bank|"
    r"consultancy|supplier|vendor|law firm|manufacturer|distributor|retailer|hospital|clinic),\s$",
    re.I,
)
"""What kind of firm a name is, said right before it ("starting at a charity, Riverside Refugee Trust")."""
_MODIFIES = re.compile(
    r"\+?\s(?!(?:as|in|on|at|last|next|this|for|from|since|yesterday|today|tomorrow|and|or|but|to|with|about|is|"
    r"was|will|has|had|are|were|says|said)\b)[a-z]"
)
"""A lower-case word after an acronym that the acronym modifies (not a preposition, a time or a verb)."""
_PET_BEFORE = re.compile(rf"\b{EN_PET}\s$", re.I)
"""A name right after the kind of pet it is names the pet ("my dog Pepper", "our cat Mochi")."""
_NOUN_APPOSITION = re.compile(
    r"\b(?:our|my|the|their|his|her|its|[A-Z][\w&]*['’]s)\s(?:(?:new|old|former|current|main)\s)?"
    r"(?:[\w-]+-in-charge|vendor|supplier|provider|partner|contact|point of contact|rep)s?,\s$",
    re.I,
)
"""A noun and a comma right before a name ("their pharmacist-in-charge, Hugo Lam", "our supplier,
Initech"): the name is what the noun is, not someone addressed."""


def is_first_name(word: str) -> bool:
    """Return True when ``word`` is a known first name ("Melanie", "Priya", "Jon")."""
    return word in FIRST_NAMES or word in first_names()


def _alternation(names: Iterable[str]) -> str:
    return "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))


def located(ref: Reference, offset: int, sentence: str) -> Mention:
    """Return a reference found in a message as a mention of its sentence at ``offset`` (an id
    said to be an order or a contract is a deal: 订单DT-0311, HL-0587这单)."""
    start, end = ref.start - offset, ref.end - offset
    product = PRODUCT.match(sentence, start)
    if ref.type == "reference" and product is not None and product.end() > end:  # RF-200染色机: the machine
        return Mention(start, product.end(), product.group(), "product")
    named = next((m for m in PRODUCT.finditer(sentence, max(0, start - 8), end) if m.start() < start), None)
    if ref.type == "reference" and named is not None and named.end() == end:  # 冰箱BCD-520: the fridge
        return Mention(named.start(), end, named.group(), "product")
    kind = "deal" if ref.type == "reference" and names_a_deal(sentence, start, end) else ref.type
    aliases = [ref.id] if ref.id != ref.name else []
    return Mention(start, end, ref.name, kind, {**ref.attributes, "ref_id": ref.id}, aliases)


_LOWERCASE_PART = re.compile(r"(?<=\s)[a-z][a-z-]*[a-z]\s(?:[a-z][a-z-]*[a-z]\s)?\w+$")


def _project(start: int, end: int, name: str) -> Mention:
    """Return a project mention; one said with its owner before lowercase words (the Ironbridge Logistics
    route-optimisation project) spans only those words, so the owner stays a name of its own, and
    is also called by them ("route-optimisation project")."""
    own = _LOWERCASE_PART.search(name)
    if own is None or len(name[: own.start()].split()) < 2:  # "the Kestrel onboarding project": one name
        return Mention(start, end, name, "project")
    return Mention(start + own.start(), end, name, "project", aliases=[own.group()])


class MentionFinder:
    """Find the mentions in a sentence; ``gazetteer`` maps known names to entity types."""

    def __init__(self, gazetteer: Mapping[str, str]) -> None:
        self._gazetteer = dict(gazetteer)
        latin = [n for n in self._gazetteer if not has_cjk(n)]
        cjk = [n for n in self._gazetteer if has_cjk(n)]
        never = "(?!x)x"
        # ASCII bounds: a Chinese character is a \w, and "用iPhone" names iPhone
        self._latin = re.compile(rf"(?<![A-Za-z0-9_-])(?:{_alternation(latin) or never})(?![A-Za-z0-9_-])")
        self._cjk = re.compile(_alternation(cjk) or never)

    def find(self, sentence: str, found: list[Mention], actor: str | None) -> list[Mention]:
        """Return ``found`` (references already located) plus the other mentions, in order."""
        spans = [(m.start, m.end) for m in found]

        def add(mention: Mention) -> None:
            if mention.name and not overlaps(mention.start, mention.end, spans):
                found.append(mention)
                spans.append((mention.start, mention.end))

        cjk = has_cjk(sentence)
        for match in _EN_PROJECT.finditer(sentence):
            start, name = match.start("name"), match["name"]
            first = name.split()[0]
            if first.lower() in ("the", "our", "their", "this", "that"):
                start, name = start + len(first) + 1, name[len(first) + 1 :]
            if len(name.split()) > 1 and name.split()[0].lower() not in EXCLUDE and not name[0].islower():
                add(_project(start, match.end("name"), name))  # not "The tank expansion": no name at all
        for match in _EN_DEAL.finditer(sentence):
            add(Mention(match.start("name"), match.end("name"), match["name"], "deal"))
        for match in _EN_ACCOUNT.finditer(sentence):
            add(Mention(match.start("name"), match.end("name"), match["name"], "organisation"))
        lowered = sentence.lower()
        if "budget" in lowered or "headcount" in lowered:  # both scan every word: only where one can match
            for match in (*_EN_BUDGETED.finditer(sentence), *_EN_BUDGET_OF.finditer(sentence)):
                add(Mention(match.start("name"), match.end("name"), match["name"], "project"))
        for match in _EN_TEAM.finditer(sentence):
            group = "name" if match["name"] else "named"
            add(Mention(match.start(group), match.end(group), match[group], "organisation"))
        for match in _EN_PRODUCT.finditer(sentence):
            brand = match["name"].split()[0]  # "the X200 sensor" is also called X200
            add(Mention(match.start("name"), match.end("name"), match["name"], "product", {}, [brand]))
        for match in _EN_DOCUMENT.finditer(sentence):
            add(Mention(match.start("name"), match.end("name"), match["name"], "document"))
        if cjk:
            for match in ZH_ROLE_RX.finditer(sentence):
                if len(match.group()) >= 3:
                    add(Mention(*match.span(), match.group(), "role"))
            for start, end, name, kind in sorted(structural_mentions(sentence), key=lambda f: (f[0], -f[1])):
                add(Mention(start, end, name, kind))
        for match in self._latin.finditer(sentence):
            kind = self._gazetteer[match.group()]
            if kind == "place" and _ORG_AFTER.match(sentence, match.end()):
                continue  # Georgia Tech, Boston Consulting Group: the place begins an organisation's name
            if kind == "organisation" and _NUMBERED.match(sentence, match.end()):
                continue  # Microsoft 365, Office 365 Enterprise E3: the firm begins a product's name
            add(Mention(*match.span(), match.group(), kind))
        if cjk:
            tagged = tagged_mentions(sentence)
            for start, end, name, kind in tagged:
                if kind == "organisation" and len(name) >= 4:  # 南京大学, before the place 南京 inside it
                    add(Mention(start, end, name, kind))
            for match in self._cjk.finditer(sentence):
                kind = self._gazetteer[match.group()]
                if kind == "organisation" and inside_longer_name(sentence, *match.span()):
                    continue  # 京东方 is not 京东: a known name beginning a longer proper name
                add(Mention(*match.span(), match.group(), kind))
            for match in ZH_TITLED.finditer(sentence):
                if len(match.group(2)) == 1 and not starts_a_word(sentence, match.start()):
                    continue  # 平时工作日: 时 ends 平时, no surname before the title 工 (jieba's cut of
                    # a rare name, 设备科牛主任, is trusted only for the one-character titles)
                attrs: dict[str, Scalar | None] = {"surname": match.group(1), "title": match.group(2)}
                add(Mention(*match.span(), match.group(), "person", attrs))
            for start, end, name, kind in tagged:
                add(Mention(start, end, name, kind))
        for match in _EN_TITLE.finditer(sentence):
            add(Mention(*match.span(), match.group(2), "person", {"title": match.group(1)}))
        for mention in self._capitalised(sentence, actor, first_allowed=cjk):
            add(mention)
        found.sort(key=lambda m: m.start)
        return _qualify_places(sentence, found)

    def _capitalised(self, sentence: str, actor: str | None, *, first_allowed: bool) -> list[Mention]:
        """Return runs of capitalised Latin words as mentions, typed by gazetteer, suffix or name list."""
        words = [
            (m.start(), m.start() + len(w), w)
            for m in _CAPITAL_WORD.finditer(sentence)
            if (w := _POSSESSIVE.sub("", m.group()))
            and (w.lower() not in EXCLUDE or _month_as_name(sentence, m.start()))
        ]
        if not words:
            return []
        out: list[Mention] = []
        lead = len(sentence) - len(sentence.lstrip("\"'“‘(-*"))
        actor_words = set(actor.split()) if actor else set()
        for run in _runs(sentence, words):
            titled = _after_role(sentence, run)
            if titled is not None:  # "GM Rhys Calder", "Owner Chidi Okafor": a role, then a person
                start, end = titled[0][0], titled[-1][1]
                out.append(Mention(start, end, sentence[start:end], "person"))
                continue
            opens = run[0][0] == lead or _after_emoji(sentence, run[0][0])
            if opens and len(run) > 1 and run[0][2] in OPENING_VERBS:
                run = run[1:]  # "Met Okafor & Sons today", "Closed Ravensworth Foods": a verb, then a name
                opens = False  # the name after the verb is no sentence's first word ("Visited Drezno Tools")
            if opens and not first_allowed:
                known = (
                    run[0][2] in actor_words
                    or is_first_name(run[0][2])
                    or run[0][2] in self._gazetteer
                    or _PERSON_APPOSITION.match(sentence, run[-1][1]) is not None
                    or (len(run) > 1 and run[-1][2] in ORG_WORDS)  # "Pinecrest Bank paid…": a firm's name
                    or _HEADQUARTERED.match(sentence, run[-1][1]) is not None
                )
                possessive = sentence[run[-1][1] : run[-1][1] + 2] in ("'s", "’s")  # "Initech's renewal"
                gerund = len(run) == 1 and re.fullmatch(r"[A-Z][a-z]{2,}ing", run[0][2]) is not None
                if (
                    not known
                    and not possessive
                    and (gerund or not _verb_follows(sentence, run[-1][1], len(run)))
                ):
                    run = run[1:]  # "Having loved ones…": a sentence's first word, no name
            if not run or (len(run) == 1 and len(run[0][2]) == 1) or len(run) > _MAX_NAME_WORDS:
                continue  # a line of capitals ("MARIA LOPEZ MARIA LOPEZ …") names nobody
            start, end = run[0][0], run[-1][1]
            name = sentence[start:end]
            if len(run) > 1 and _A_TITLE.fullmatch(name):
                out.append(Mention(start, end, name, "role"))  # "replacement as Head of Support": no firm
                continue
            acronym = len(run) == 1 and _ACRONYM.fullmatch(name) and name not in self._gazetteer
            if acronym and _MODIFIES.match(sentence, end):
                continue  # "an LGBTQ support group": it modifies a noun (not "KPMG last Monday")
            kind = self._type_of(name, [w for _, _, w in run], actor_words)
            if kind == "thing" and (
                _HEADQUARTERED.match(sentence, end) or _FIRM_APPOSITION.search(sentence, 0, start)
            ):
                kind = "organisation"
            elif kind in ("thing", "person") and _PET_BEFORE.search(sentence, 0, start):
                kind = "animal"  # "My dog Pepper is allergic to chicken": the dog, from the start
            apposition = (
                _PERSON_APPOSITION.match(sentence, end) is not None
                or _ROLE_APPOSITION.search(sentence, 0, start) is not None
            )
            if kind == "thing" and (
                apposition or (1 < len(run) <= 3 and _ROLE_BEFORE.search(sentence, 0, start))
            ):
                kind = "person"  # "Hank, our CTO, …", "marketing lead Farah Aziz": a role says who
            named_after = apposition or _NOUN_APPOSITION.search(sentence, 0, start) is not None
            vocative = (
                kind in ("person", "thing") and not named_after and _vocative(sentence, start, end, len(run))
            )
            out.append(Mention(start, end, name, kind, vocative=vocative))
        return out

    def _type_of(self, name: str, words: list[str], actor_words: set[str]) -> str:
        if name in self._gazetteer:
            return self._gazetteer[name]
        if any(w in ORG_WORDS for w in words[1:]) or " & " in name:  # Alder & Finch: a firm
            return "organisation"
        if (
            words[-1] in PLACE_WORDS
            and len(words) > 1
            and not (len(words) == 2 and words[-1] in _SURNAME_PLACE_WORDS and is_first_name(words[0]))
        ):
            return "place"
        if len(words) <= 3 and (words[0] in actor_words or is_first_name(words[0])):
            return "thing" if any(ch.isdigit() for ch in name) else "person"  # Aurelio X2: a model
        return "thing"


def _after_emoji(sentence: str, start: int) -> bool:
    """Return True when the word at ``start`` follows an emoji, which ends a chat sentence the
    splitter kept whole ("…as of today 🎉 Switched to sparkling water")."""
    before = sentence[:start].rstrip()
    return bool(before) and unicodedata.category(before[-1]) == "So"


_ORG_AFTER = re.compile(rf"(?:\s(?-i:[A-Z])[\w&'’-]*){{0,2}}?\s(?:{'|'.join(sorted(ORG_WORDS))})\b")
"""Capitalised words after a place that end in an organisation's word (Consulting Group, Tech)."""
_SURNAME_PLACE_WORDS = frozenset({"Park"})
"""A place word that is also a common surname: after a first name, a person's ("Nina Park"; "Emma Lake"
and "Grace Hill" are as often places)."""
_TITLE = re.compile(
    r"(?:CEO|CTO|CFO|COO|CMO|CIO|CISO|CRO|CPO|GM|VP|SVP|EVP|Owner|Founder|Co-founder|Director|Manager|"
    r"President|Chair|Chairman|Chairwoman|Treasurer|Superintendent|Principal|Controller|Counsel)"
)
"""A role that, capitalised before a name, titles the person ("GM Rhys Calder", "Owner Chidi Okafor")."""
_NO_DEPARTMENT_TITLE = re.compile(
    r"CEO|CTO|CFO|COO|CMO|CIO|CISO|CRO|CPO|GM|Owner|Founder|Co-founder|President|Chair\w*"
)
"""A title whose "of" names a firm, never a department ("CEO of Initech"; not "Director of Sales")."""
_ROLE_BEFORE = re.compile(rf"\b(?:{EN_ROLE_NOUNS})\s$")
"""A role in lower case (or an acronym) right before a name ("facilities manager Omar Bayoumi"; not
"Lead Generation Summit")."""
_ACTS = re.compile(
    r"\s*(?:[,;:.!?)—–]|$)|\s+(?:says|said|will|would|is|was|has|had|wants|owns|makes|made|runs|leads|signed|approved|"
    r"agreed|asked|called|joins|joined|decides|decided|and)\b"
)
"""What follows a person named after a role: a verb of theirs or the clause's end."""
_LEADS_A_DEPARTMENT = re.compile(r"(?:vp|svp|evp|head|director)", re.I)
_DEPARTMENT_WORD = re.compile(EN_DEPARTMENT, re.I)
_DEPARTMENT_LEAD_BEFORE = re.compile(r"\b(?:VP|SVP|EVP)\s$")


def _after_role(sentence: str, run: list[tuple[int, int, str]]) -> list[tuple[int, int, str]] | None:
    """Return the name a capitalised role opening ``run`` titles ("GM Rhys Calder" → Rhys Calder; "VP
    Ops Carla Nunez" → Carla Nunez): two or three plain capitalised words; else None."""
    if _TITLE.fullmatch(run[0][2]):
        rest = run[1:]
        if _LEADS_A_DEPARTMENT.fullmatch(run[0][2]) and rest and _DEPARTMENT_WORD.fullmatch(rest[0][2]):
            rest = rest[1:]
    elif _DEPARTMENT_LEAD_BEFORE.search(sentence, 0, run[0][0]) and _DEPARTMENT_WORD.fullmatch(run[0][2]):
        rest = run[1:]  # "VP" itself is no capitalised word of a name (EXCLUDE)
    else:
        return None
    if not 2 <= len(rest) <= 3 or any(
        not re.fullmatch(rf"{EN_NAME_WORD}[a-z'’-]*", word) or word in ORG_WORDS or word in PLACE_WORDS
        for _, _, word in rest
    ):
        return None
    if not (is_first_name(rest[0][2]) or _ACTS.match(sentence, rest[-1][1])):
        return None  # "Manager Approval Required for…": no one named
    return rest


def _runs(sentence: str, words: list[tuple[int, int, str]]) -> list[list[tuple[int, int, str]]]:
    """Return runs of capitalised words joined by single spaces (or "of", "de", "the"… between names;
    not "of" after a title that leads no department: "GM of Hanxing Tech" is a role at a firm, "Director of
    Sourcing" one role)."""
    runs: list[list[tuple[int, int, str]]] = [[words[0]]]
    for word in words[1:]:
        gap = sentence[runs[-1][-1][1] : word[0]]
        titled = len(runs[-1]) == 1 and _NO_DEPARTMENT_TITLE.fullmatch(runs[-1][0][2]) is not None
        if gap == " " or (_CONNECTOR_GAP.fullmatch(gap) and not (titled and gap.startswith(" of"))):
            runs[-1].append(word)
        else:
            runs.append([word])
    return runs


def _verb_follows(sentence: str, end: int, words: int = 1) -> bool:
    """Return True when the word after ``end`` looks like a verb (a name at a sentence start acts): a
    past, "will", or after a name of several words ("Greenleaf Organics no longer uses…") a present or
    an auxiliary too."""
    after = re.match(r"\s+([a-z]+)", sentence[end:])
    if after is None:
        return False
    word = after.group(1)
    if (word.endswith("ed") and len(word) > 4) or word == "will":
        return True
    return words > 1 and (
        _AFTER_A_SUBJECT.fullmatch(word) is not None
        or (word.endswith("s") and not word.endswith("ss") and len(word) > 3)
    )


_AFTER_A_SUBJECT = re.compile(
    r"no|also|just|still|now|has|have|is|was|are|were|can|could|would|should|may|might|finally"
)
"""Words after a subject of several words at a sentence start ("Greenleaf Organics no longer…")."""


_INTRODUCED = re.compile(r"\bwelcom(?:e|ing)(?:\s+(?:aboard|to the team))?[\s,]*$", re.I)


def _vocative(sentence: str, start: int, end: int, words: int) -> bool:
    """Return True when a name only addresses someone: "Thanks, Joanna!", "Hey Mel", "…your job Jon, but"."""
    before, after = sentence[:start], sentence[end:]
    if _INTRODUCED.search(before) and (
        words > 1 or re.search(r"\b(?:please|let's|join me in)\s+\w+\s*$", before, re.I)
    ):
        return False  # "Please welcome Arjun Mehta", "Welcome Yusuf Demir! He joins…": introduced to the team
    if GREETING.search(before) and re.match(r"\s*(?:[!?.,]|$)", after):
        return True
    if words == 1 and re.match(r"\s*(?:[!?,]|\.(?:\s|$)|$)", after):
        clause = re.split(r"[,;:!?.]", before)[-1]
        return bool(_VOCATIVE_BEFORE.search(before) or not before.strip() or _ADDRESSING.search(clause))
    return False


def _qualify_places(sentence: str, mentions: list[Mention]) -> list[Mention]:
    """Merge "Paris, France" / "Paris, Texas" into one place that keeps its qualifier."""
    out: list[Mention] = []
    for mention in mentions:
        previous = out[-1] if out else None
        qualifier = "country" if mention.name in COUNTRIES else "region" if mention.name in REGIONS else None
        if (previous is not None and qualifier and previous.type in ("place", "thing")
                and re.fullmatch(r",\s?", sentence[previous.end : mention.start])
                and "city" not in previous.attributes):  # fmt: skip
            previous.attributes.update({"city": previous.name, qualifier: mention.name})
            previous.name = f"{previous.name}, {mention.name}"
            previous.type, previous.end = "place", mention.end
            continue
        out.append(mention)
    return out
