"""A mail's signature block under its closing formula: who wrote it, their title and company.

    Thanks,                      Best,
    Irene Malik                  Carl Jensen
    Office Manager, Tidewater Legal   Summit Office Supply

The block's first part is the writer's name (one to three capitalised words, or a Chinese name with
a known surname); each later part, split at line ends, commas and bars, is a title (HAS_ROLE), a
department (MEMBER_OF) or else the company (WORKS_AT), skipping phones, addresses and links. The
block is found as engram.nlp.replies drops it; a signature on one line ("— Owen Petrakis, Account
Executive, LedgerLine", 鼎丰紧固件 赵磊) is read by patterns instead.
"""

from __future__ import annotations

import itertools
import re

from engram.graph.places import is_place
from engram.ingest.frames import EN_DEPARTMENT, EN_ROLE_NOUNS, EN_ROLE_RX, ZH_ROLE_RX
from engram.ingest.lexicon import ORG_WORDS, SURNAMES
from engram.ingest.mentions import Mention
from engram.ingest.mentions_zh import ZH_REGION_AND_TRADE, structural_mentions
from engram.ingest.reading import Message
from engram.models.graph import FactIn
from engram.nlp.replies import signature_lines
from engram.nlp.tokenize import has_cjk

_EN_NAME = re.compile(r"(?:Dr\.?\s)?[A-Z][a-z]+(?:[ '-](?:O['’]|Mc|Mac)?[A-Z][a-z]+){1,2}")
"""A writer's name: "Irene Malik", "Kevin O'Brien", "Dana McKay"."""
_PARTS = re.compile(r"\s*(?:[,，|｜·•/\u3000]|\s[-–—]\s|\s{2,})\s*")
_LEGAL_FORM = re.compile(
    r"(?:Ltd|Lda|Inc|LLC|LLP|GmbH|S\.?A|AG|B\.?V|N\.?V|Oy|AB|PLC|Pty|KK|Co|Corp|S\.?L|SAS|S\.?r\.?l|S\.?p\.?A)\.?"
)
_NOT_A_NAME = re.compile(
    r"\d|@|https?:|www\.|\b(?:tel|phone|mobile|cell|fax|ext|suite|street|st\.|ave|avenue|road|rd\.|blvd|floor|"
    r"linkedin|twitter|facebook|instagram|wechat|github|website|blog|notice|confidential\w*|disclaimer)\b|"
    r"电话|手机|邮箱|地址|传真|微信|同号|路|街|号|楼|室",
    re.I,
)
"""A phone, an address, a link or a footer: no title and no company, nor any after it on its line."""
_NOT_EMPLOYED = re.compile(
    r"(?:retired|former|ex-|student|volunteer|alumn\w*|candidate|emerit\w*|intern)\b|已?退休|前|学生|志愿者|实习",
    re.I,
)
"""A line saying one is not (or not yet) employed: its company is no employer."""
_ROLE = {"en": EN_ROLE_RX, "zh": ZH_ROLE_RX}
_DEPARTMENT = {
    "en": re.compile(
        rf"{EN_DEPARTMENT}|.*\b(?:Department|Dept\.?|Division)\b.*|(?:[\w&]+\s){{1,3}}Team|"
        r"(?:Regional|Inside|Field|Global|Enterprise|Channel|Retail|Corporate|Digital|Product)\s(?:Sales|Marketing)|"
        r"Accounts (?:Payable|Receivable)|Talent Acquisition|(?:Investor|Public|Media) Relations|People Ops|"
        r"(?:Exhibitor|Client|Customer|Member|Guest|Student|Patient|Partner|Vendor|Technical|Field)\s"
        r"(?:Services|Relations|Care|Support)|Recruiting|Recruitment|Admissions|Billing",
        re.I,
    ),
    "zh": re.compile(r"[\u4e00-\u9fff]{1,6}[部组处科]"),
}
_EN_TITLE = re.compile(
    rf"(?:[A-Z][\w&/-]*\s)*(?:Rep|Partner|Chair|Secretary|Treasurer|Dean|Lecturer|Fellow|Officer|Coordinator|Administrator|"
    rf"Specialist|Advisor|Adviser|Counsel|Recruiter|Liaison|{EN_ROLE_NOUNS})|"
    r"(?:[A-Z][\w&/-]*\s)*(?:Head|Director|VP|Manager|Chief|Professor|Dean|Chair|President|Lecturer|Editor|Officer|"
    r"Lead)\s(?:of|for)\s[A-Z][\w&\s-]*",
    re.I,
)
"""A title the role patterns may not know on a signature line: "Sales Development Rep", "Head of Sales",
"Programme Chair", "Chief of Staff", "Professor of Marine Ecology"."""
_ZH_LAST_LINE = re.compile(r"[\u4e00-\u9fff]{4,10}")
"""A signature's last line after a title: the company (绿野农场, 蓝鲸数据), however it ends."""
_ZH_FIRM = re.compile(
    rf"[\u4e00-\u9fff]{{2,14}}(?:{ZH_REGION_AND_TRADE})?(?:有限公司|公司|集团|事务所|研究院|工作室)"
)
"""A signature's last line naming a firm by its legal form (青岛恒达机械有限公司), title or not."""
_STATE = re.compile(
    r"(?:[A-Z][a-z]+\s)*(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|"
    r"NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC)"
)
"""A US state's code, after its city or not ("Austin, TX", "Phoenix AZ"): where, not who."""
_COMPANY = re.compile(r"(?:[A-Z0-9][\w&.'’-]*)(?:\s(?:&\s|of\s|and\s)?[A-Z0-9][\w&.'’-]*){0,5}")
"""An English company's name; a Chinese one is what the mention finder reads as an organisation."""


def add_signature_facts(text: str, message: Message) -> None:
    """Add the writer's company, title and department that ``text``'s signature block gives."""
    lines = signature_lines(text, message.speaker.actor)
    if not lines or (len(lines) < 2 and len(_PARTS.split(lines[0])) < 2):
        return  # a name alone; "Ines Duarte | Accounts Payable | Marisol Hotels" is a whole block
    parts_by_line = [_parts(line) for line in lines]
    first = parts_by_line[0]
    name = next((p for p in first if _a_name(p, "zh")), "") if has_cjk(lines[0]) else first[0]
    name = _the_writer(re.sub(r"^Dr\.?\s", "", name), message)
    lang = "zh" if has_cjk(name) else "en"
    if not _a_name(name, lang) or message.states(name, "WORKS_AT"):
        return
    writer = Mention(0, 0, name, "person")
    parts_by_line[0] = [p for p in first if p != name and _the_writer(p, message) != name]  # the name itself
    for line in parts_by_line:
        if any(_NOT_EMPLOYED.match(part) for part in line):
            continue  # "Retired, Boeing", "Student, Stanford University"
        # the writer's own name ("Ben Fletcher | Growth Lead | …") is no part; an address ("221B Baker
        # Street, London") ends the line
        line = [part for part in line if _the_writer(re.sub(r"^Dr\.?\s", "", part), message) != name]
        read = list(itertools.takewhile(lambda part: not _NOT_A_NAME.search(part), line))
        company = _line_company(read, lang)
        for part in read:
            _read_part(part, lang, writer, message, lines, company)


def _line_company(parts: list[str], lang: str) -> str | None:
    """Return the part of an English line that may name the company: the last one shaped like a
    name that is no title, department or place ("Responsable Achats, Maison Lefevre", "Director,
    Finance Systems | Harbor Point Hospital": a title or a unit comes first, the company last)."""
    if lang != "en":
        return None
    shaped = [
        p
        for p in parts
        if not (_a_title(p, lang) or _DEPARTMENT[lang].fullmatch(p) or is_place(p) or _STATE.fullmatch(p))
    ]
    return next((p for p in reversed(shaped) if _a_company(p, lang)), None)


def _a_title(part: str, lang: str) -> bool:
    english = lang == "en" and _EN_TITLE.fullmatch(part) and not _firm(part)
    return bool(_ROLE[lang].fullmatch(part) or english)


def _read_part(
    part: str, lang: str, writer: Mention, message: Message, lines: list[str], company: str | None
) -> None:
    if _a_title(part, lang):
        _add(message, writer, "HAS_ROLE", Mention(0, 0, part, "role"), lines)
    elif _DEPARTMENT[lang].fullmatch(part):
        _add(message, writer, "MEMBER_OF", Mention(0, 0, part, "organisation"), lines)
    elif (
        not message.states(writer.name, "WORKS_AT")
        and not is_place(part)
        and (company is None or part == company)
        and (_a_company(part, lang) or _last_after_title(part, lang, writer, message, lines))
    ):
        _add(message, writer, "WORKS_AT", Mention(0, 0, part, "organisation"), lines)


def _firm(part: str) -> bool:
    """Return True for a part ending in a firm's word ("Northstar Marine", "Bloom Studio")."""
    return part.rsplit(" ", 1)[-1] in ORG_WORDS


def _a_company(part: str, lang: str) -> bool:
    if lang == "en":
        return bool(_COMPANY.fullmatch(part))
    return any(
        kind == "organisation" and start == 0 and end == len(part)
        for start, end, _, kind in structural_mentions(part)
    )


def _parts(line: str) -> list[str]:
    """Return a signature line's parts: split at commas, bars and wide gaps, and a Chinese line also
    at single spaces (采购部 曹雪, 恒泰建材 采购部); a legal form after a comma is no part ("Lumenpath
    Partners, Lda.")."""
    parts = [p for p in _PARTS.split(line) if p and not _LEGAL_FORM.fullmatch(p)]
    return [w for p in parts for w in p.split()] if has_cjk(line) else parts


def _last_after_title(part: str, lang: str, writer: Mention, message: Message, lines: list[str]) -> bool:
    """Return True for a Chinese block's last part after the writer's title (李芳/运营主管/绿野农场,
    刘强/华东区销售经理｜深圳锐捷通信)."""
    if lang != "zh":
        return False
    if _ZH_FIRM.fullmatch(part):  # 苏州恒达精密制造有限公司, a phone line after it or not
        return True
    return (
        part == _parts(lines[-1])[-1]
        and bool(_ZH_LAST_LINE.fullmatch(part))
        and (message.states(writer.name, "HAS_ROLE") or message.states(writer.name, "MEMBER_OF"))
    )


def _the_writer(name: str, message: Message) -> str:
    """Return the writer's full name for a first name signed alone ("Roberto" of Roberto Silva)."""
    actor = message.speaker.actor or ""
    return actor if " " in actor and actor.split()[0] == name else name


def _a_name(name: str, lang: str) -> bool:
    if lang == "en":  # not "Accounts Payable", "Office Supplies Team": a department signs for no one
        return bool(_EN_NAME.fullmatch(name)) and not _DEPARTMENT["en"].fullmatch(name)
    return 2 <= len(name) <= 4 and name[0] in SURNAMES and not _NOT_A_NAME.search(name)


def _add(message: Message, writer: Mention, predicate: str, target: Mention, lines: list[str]) -> None:
    message.add_entity(writer)
    message.add_entity(target)
    message.add_fact(
        FactIn(
            subject=writer.name,
            predicate=predicate,
            object=target.name,
            fact="\n".join(lines),
            confidence=0.8,
            source_kind="stated",
        )
    )
