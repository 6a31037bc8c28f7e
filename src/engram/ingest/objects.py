"""What a pattern's object span becomes: an entity (typed by the pattern or the registry), a value
(an amount, a number, a date resolved against the message's time, a phone number), a phrase,
or nothing (a pronoun with no antecedent, a count of things, a span another fact took).
"""

from __future__ import annotations

import re
from datetime import datetime

from engram.ingest.clauses import Lang, shared_head, split_objects, trim_object
from engram.ingest.frames import EN_EVENT, EN_ROLE_RX, ZH_MOVED_TO, Pattern
from engram.ingest.mentions import Mention, overlaps
from engram.ingest.reading import Message, Sentence
from engram.models.graph import Scalar
from engram.models.predicates import REGISTRY
from engram.nlp.amounts import AMOUNT, cn_to_int, is_money, parse_amount
from engram.nlp.dates import date_value, resolve_dates
from engram.nlp.tense import past_event
from engram.nlp.timeexpr import MONTHS_EN
from engram.nlp.tokenize import has_cjk

_NAMED_TYPES = frozenset({"place", "organisation", "product"})
_THEIR = frozenset({"their", "他们", "她们"})
"""An organisation named before, as an object: the customer whose CMO, whose 采购."""
_PERSON_PRONOUNS = frozenset({"他", "她", "him", "her"})
_STRICT_PLACES = frozenset({"LIVES_IN", "MOVED_FROM", "COMES_FROM"})
_TASTES = frozenset({"LIKES", "PREFERS", "INTERESTED_IN", "DISLIKES"})
_VERB_PHRASES = frozenset({"PLANS_TO", "GOAL", "WORKS_ON"})
_AN_EVENT = re.compile(EN_EVENT, re.I)
_PLANNED_VERB = re.compile(r"\bto\s[a-z]+\s(?:a|an|the|my|our)\s$", re.I)
"""Before a one-word event: a plan's verb ("planning to run a marathon"), read whole by its own pattern."""
ANTECEDENT = frozenset({"LIKES", "USES", "PREFERS", "INTERESTED_IN", "LIVES_IN", "WORKS_AT"})
"""Predicates whose object a later elliptical statement refers back to (现在特别讨厌: the earlier liking)."""
_SIGHTSEEING = re.compile(
    r"\s*(?:看|玩|旅游|旅行|度假|逛|参观|游览|游玩|拍|吃|$)|\s*(?:to )?(?:visit|see|sightsee|tour|explore|$)",
    re.I,
)
_MONTH_BEFORE = re.compile(rf"\b(?:{'|'.join(MONTHS_EN)})\.?\s$", re.I)
"""A month right before a bare number makes it a day of that month ("go-live before October 1")."""
_COUNTED = re.compile(r"\s*(?:[a-z]{3,}|台|套|个|件|份|箱|张|部|辆|人|本|册|盒|瓶|块)", re.I)
"""A bare number before a noun ("200 laptops", 200台) counts things."""
_ZH_CHANGED_TO = re.compile(
    rf"\s*(?:个|台|套|件|箱|人|间|张|把|颗|辆|只|份|元|块)?(?:调整|扩大|扩容|降|涨|提|改|调|减|增|砍|升|扩|谈|压|上调|下调|提高|"
    rf"降低|增加|减少|缩减|追加)了?"
    rf"(?:到|至|为|成)了?\s*(?P<obj>{AMOUNT})"
)
_EN_CHANGED_TO = re.compile(rf"\s*(?:to|→|->)\s*(?P<obj>{AMOUNT})", re.I)
_FROM_BEFORE = re.compile(r"\bfrom\s*$", re.I)


ZH_BODY_ENDS = "中心|公司|集团|研究院|研究所|事务所|协会|银行|医院|大学|学院"
"""How the name of a Chinese institution ends (上海质量检测中心, 北京协和医院)."""
_ZH_BODY = re.compile(rf"^(?!.*(?:一家|某))[\u4e00-\u9fff]+(?:{ZH_BODY_ENDS})$")
"""A Chinese organisation's name a place opens (上海质量检测中心), not one left unnamed (成都一家医院)."""


def _changed_to(text: str, span: tuple[int, int]) -> re.Match[str] | None:
    """Return the amount or count the one at ``span`` changed to: 从两百万降到一百五十万, 由20个增至26个,
    "from $90k to $60k" (a range "$50k to $80k" or "paid $500 to 3 suppliers" is no change)."""
    if _FROM_BEFORE.search(text, 0, span[0]):
        return _EN_CHANGED_TO.match(text, span[1])
    return _ZH_CHANGED_TO.match(text, span[1])


_MAX_WORDS = 8
_MAX_CJK = 12


_GOVERNING = re.compile(
    r"(?:都|也|一直|还)?(?:向|给|跟|对|和)|,\s(?:who|that)\s.*|\s(?:[a-z]+\s){1,3}(?:to|with|for|under)\s",
    re.S,
)
_AND_ZH = re.compile(r"[、和与]")


def _before_own_subject(reading: Sentence, pronoun: int) -> int:
    """Return where the people a pronoun object may name end: before the subject of its own clause
    (赵倩、邓凯都向他汇报, "Dev Patel, who reports to her", "Tom Price reports to her": not them, but
    whoever was named before)."""
    people = [m for m in reading.mentions if m.type == "person" and m.end <= pronoun]
    if not people or not _GOVERNING.fullmatch(reading.text, people[-1].end, pronoun):
        return pronoun
    subject = people.pop()
    while people and _AND_ZH.fullmatch(reading.text, people[-1].end, subject.start):
        subject = people.pop()
    return subject.start


def read_objects(
    pattern: Pattern,
    predicate: str,
    kind: str,
    match: re.Match[str],
    reading: Sentence,
    message: Message,
) -> list[tuple[str | None, Scalar | None, tuple[int, int]]]:
    """Return ``(object entity name, value, span)`` for each object the match names."""
    lang = reading.lang
    raw = match.group("obj")
    start = match.start("obj")
    if kind in ("amount", "number", "date", "birthday", "phone"):
        span = (start, start + len(raw))
        if kind in ("amount", "number") and (changed := _changed_to(reading.text, span)):
            start, raw = changed.start("obj"), changed.group("obj")  # 从两百万降到一百五十万: the new figure
            span = (start, start + len(raw))
        rescheduled = _RESCHEDULED.search(raw) if kind == "date" and predicate in _MOVABLE else None
        if rescheduled and (
            _MOVED_FROM_BEFORE.search(reading.text, 0, start) or _MOVED_FROM_INSIDE.match(raw)
        ):
            start, raw = start + rescheduled.end(), raw[rescheduled.end() :]  # "from Thursday to Friday 3pm"
            span = (start, start + len(raw))
        past = False
        if kind == "date":  # only a date's reading depends on its clause's tense
            # the clause the date ends in: "部门会议：周五下午…" opens the date with the colon
            clause = reading.text[slice(*reading.clause_of(span[1] - 1))]
            called_off = _CALLED_OFF.search(reading.text, max(0, match.start() - 30), match.start())
            if predicate == "MEETING_AT" and (
                called_off or _CALLED_OFF.search(clause) or _MISSED.search(clause)
            ):
                return []  # "Sync on Jan 3 at 11am has been cancelled", "Can't make standup today"
            past = past_event(clause, lang)
        elif kind == "birthday":  # "was born on Tuesday": the Tuesday before, not the next one
            past = _BORN.search(reading.text, 0, start) is not None
        value = _literal(kind, raw, _moved_from(reading.text, start, message.at), past=past)
        if kind in ("amount", "number") and _RANGE_ON.match(reading.text, span[1]):
            return []  # "€20-30k", 20~30万, "$50k to $80k": a range is no one figure
        counted = _COUNTED.match(reading.text, span[1]) or _MONTH_BEFORE.search(reading.text, 0, span[0])
        share = reading.text.startswith("百分之", span[0])
        if kind == "amount" and ((not is_money(raw) and counted) or share):
            return []  # "order for 200 laptops": a count; "before October 1": a day; 百分之十五: a share
        if value is None or (kind == "amount" and value == 0) or overlaps(*span, reading.claimed):
            return []  # 金额显示为0: an amount of nothing is a symptom, never a price or a budget
        return [(None, value, span)]
    if predicate in _TASTES and re.match(r"\s*(?:this|that|these|those|it|its)\b", raw, re.I):
        return []  # "this trilogy is one of my faves": what it is was said elsewhere
    if raw.strip().lower() in _PERSON_PRONOUNS and pattern.object_type == "person":  # 我向他汇报
        name = message.speaker.person_before(reading.mentions, _before_own_subject(reading, start))
        return [(name, None, match.span("obj"))] if name and name != message.speaker.actor else []
    if raw.strip().lower() in _THEIR and pattern.object_type == "organisation":  # "Anita Rao, their CMO"
        name = message.speaker.organisation_before(reading.mentions, start)
        return [(name, None, match.span("obj"))] if name else []
    phrase = True if predicate in _VERB_PHRASES else None
    if pattern.object_type == "role" and EN_ROLE_RX.fullmatch(raw.strip()):
        trimmed = raw.strip()  # "VP of Sales": the pattern read a whole role, "of" included
    else:
        trimmed = trim_object(raw, lang, verb_phrase=phrase) if raw.strip() else ""
    if not trimmed:
        if pattern.objectless:
            return [(None, None, match.span())]
        return _antecedent(pattern, kind, match, reading, message)
    offset = start + max(raw.find(trimmed), 0)
    spans = split_objects(trimmed, lang) if pattern.split else [(0, len(trimmed))]
    texts = [trimmed[s:e].strip() for s, e in spans]
    if pattern.split and len(spans) > 1:
        texts = [trim_object(t, lang, verb_phrase=phrase) for t in texts]
        if lang == "en":
            texts = shared_head(texts)
    out: list[tuple[str | None, Scalar | None, tuple[int, int]]] = []
    for (s, e), text in zip(spans, texts, strict=True):
        span = (offset + s, offset + e)
        named = next((m for m in reading.mentions if m.start == span[0] and m.end > span[1]), None)
        if named is not None and named.type not in ("role", "group"):  # "a fan of Lord of the Rings"
            span, text = (named.start, named.end), named.name
        if not text or _taken(span, reading.claimed, verb_phrase=predicate in _VERB_PHRASES):
            continue
        if _sightseeing(reading.text, span, reading.claimed):
            continue  # 去日本看樱花 is the visit already read, 去日本读研 a plan of its own
        item = _object(pattern, predicate, kind, text, span, reading, message)
        if item is not None:
            out.append(item)
    if predicate in ANTECEDENT and out and out[0][1] is not None:
        reading.antecedents.append((start, str(out[0][1])))
    return out


def _object(
    pattern: Pattern,
    predicate: str,
    kind: str,
    text: str,
    span: tuple[int, int],
    reading: Sentence,
    message: Message,
) -> tuple[str | None, Scalar | None, tuple[int, int]] | None:
    if any(m.start < span[0] < m.end for m in reading.mentions):
        return None  # 锐达机械这两个客户 read from 械: an object begins where a name does
    if (_ZH_NO_VALUE if reading.lang == "zh" else _EN_NO_VALUE).fullmatch(text) or text.isdigit():
        return None  # …; 会议室换成802: a room number is no tool
    registered = REGISTRY.get(predicate)
    wanted = pattern.object_type or (registered.object_type if registered else "")
    inside = [
        m for m in reading.mentions if span[0] <= m.start < span[1] and not m.vocative and m.type != "group"
    ]
    if kind == "email":
        emails = [m for m in inside if m.type == "email"]
        address = emails[0] if emails else Mention(*span, text.lower(), "email")
        message.add_entity(address)
        return address.name, None, span
    mention = _pick(inside, wanted, strict=pattern.strict or predicate in _STRICT_PLACES)
    if wanted == "organisation" and mention is not None and mention.type == "place" and _ZH_BODY.match(text):
        mention = Mention(*span, text, "organisation")  # 上海质量检测中心: the body, not its city
        reading.add_mention(mention)
    if mention is None and predicate == "WORKS_AT":  # an employer named as its product: "a job at Spotify"
        mention = next((m for m in inside if m.type == "product"), None)
    if pattern.whole and (mention is None or (mention.start, mention.end) != span):
        return None
    if (
        kind == "entity"
        and wanted == "role"
        and mention is not None
        and (mention.start, mention.end) != span
        and not (mention.type == "role" and mention.start == span[0] and mention.end > span[1])
    ):  # "Scrum master": a capitalised word is no role alone; "VP of Sales", "Director of Ops": the whole
        mention = None  # role, not "VP" nor "director"
    if kind == "entity" or pattern.require_mention:
        if mention is None and kind == "entity" and wanted == "role":
            mention = Mention(*span, text if any(w.isupper() for w in text.split()) else text.lower(), "role")
            reading.add_mention(mention)
        elif mention is None and inside and wanted in ("product", "organisation", "place"):
            return None  # "换成了小吴": a person where a product should be
        elif (
            mention is None and kind == "entity" and not pattern.require_mention and _name_like(text, wanted)
        ):
            mention = Mention(*span, text, wanted or "thing")
            reading.add_mention(mention)
        if mention is not None:
            if mention.type == "thing" and wanted not in ("", "thing"):
                mention.type = wanted
            if pattern.object_type == "animal":
                mention.type = "animal"
            message.add_entity(mention)
            if mention.relative:
                message.used.add(mention.name)
            return mention.name, None, (max(span[0], mention.start), min(span[1], mention.end))
        if pattern.require_mention or (kind == "entity" and wanted in _NAMED_TYPES):
            return None
    if _too_long(text, reading.lang) or (
        predicate in _VERB_PHRASES
        and reading.lang == "en"
        and " " not in text
        and not (_AN_EVENT.fullmatch(text) and not _PLANNED_VERB.search(reading.text, 0, span[0]))
    ):  # too long to be a value, or a verb alone ("countries I want to visit"); "going to a wedding" plans
        return None  # the event, "planning to run a marathon" what is done there (read whole elsewhere)
    if (
        mention is not None
        and mention.type not in ("role", "thing")
        and mention.start == span[0]
        and (mention.end == span[1])
    ):
        message.add_entity(mention)
        return mention.name, None, span
    if predicate == "STATUS" and text.istitle() and " " not in text and not reading.text[: span[0]].strip():
        text = text.lower()  # "Lost the Meridian Freight deal": a state, capitalised only as the first word
    if predicate == "RESPONSIBLE_FOR" and message.speaker.actor and _MY.search(reading.text, 0, span[0]):
        text = f"{message.speaker.actor}'s {text}"  # "Zoe is covering my inbound queue": the writer's queue
    return None, text, span


def _antecedent(
    pattern: Pattern,
    kind: str,
    match: re.Match[str],
    reading: Sentence,
    message: Message,
) -> list[tuple[str | None, Scalar | None, tuple[int, int]]]:
    """Return the object an elliptical statement refers back to (现在特别讨厌 → the earlier liking)."""
    if not pattern.antecedent:
        return []
    span = match.span()
    if kind == "entity" and pattern.object_type == "organisation":  # "Owner Chidi Okafor": of the firm named
        name = message.speaker.organisation_before(reading.mentions, match.start())
        return [(name, None, span)] if name else []
    if kind == "entity":
        named = [m for m in reading.mentions if m.end <= match.start() and m.type == pattern.object_type]
        if not named:
            return []
        mention = named[-1]
        message.add_entity(mention)
        return [(mention.name, None, span)]
    if reading.lang == "zh" and pattern.predicate == "STOPPED_USING":
        clause_start = reading.clause_of(match.start())[0]
        said = _ZH_ONLY_ADVERBS.sub("", reading.text[clause_start : match.start()])
        if len(said) > 1:  # 滴滴企业版停用: the clause says its own object, the pattern read it not
            return []
    earlier = [text for position, text in reading.antecedents if position < match.start()]
    return [(None, earlier[-1], span)] if earlier else []


_ZH_ONLY_ADVERBS = re.compile(
    r"现在|目前|特别|非常|真的?|太|挺|很|最|也|都|已经|早就|就|还|再|又|直接|彻底|一直|我们?|他们?|她们?|你们?|"
    r"不过|但是?|可是|然后|所以|反正|后来|最近|其实|[\s，,。！!~～…]"
)
"""Words a clause may say before an elliptical stop without saying its object (我们也停用了,
现在直接卸载了)."""


_MISSED = re.compile(
    r"\b(?:can'?t|cannot|won'?t|will not|unable to) (?:make|attend|join|be at)\b|\bskip(?:ping)?\b|"
    r"(?:\bnot|n't|\bnever|\bunable to)\s(?:gonna\s|going to\s|be able to\s|able to\s)?"
    r"(?:make|attend|join|be at|do)\b|"  # "not gonna make the retro today", "can't do the demo on the 12th"
    r"\bno meetings?\b|meeting-free|去不了|参加不了|来不了|不参加|请假|不(?:安排|开|排)(?:会|会议)",
    re.I,
)
"""A meeting the speaker will not be at ("Can't make standup today", 明天的周会我参加不了), or none at all
(周五下午统一不安排会议, "no meetings on Fridays"): not theirs."""
_RANGE_ON = re.compile(r"\s?(?:[-–—~～]|到|至)\s?[$€£¥￥]?\s?\d|\sto\s[$€£¥￥]\s?\d")
"""After an amount or a count: the upper end of a range."""
_BORN = re.compile(r"\bborn\b|出生|生的", re.I)
_CALLED_OFF = re.compile(
    r"\b(?:cancell?ed|cancel|cancelling|canceling|called off|no longer happening)\b|取消了?|不开了", re.I
)


_MOVED_TO = re.compile(
    rf"(?:{ZH_MOVED_TO}|\b(?:moved|pushed(?: back)?|bumped|shifted|rescheduled) (?:to|for))\s*$", re.I
)
_WITH_A_DAY = frozenset({"day", "part_of_day", "hour", "minute"})


_RESCHEDULED = re.compile(r"\s+to\s+", re.I)
_MOVED_FROM_BEFORE = re.compile(
    r"\b(?:push|move|moved|pushed|shift|shifted|reschedule|rescheduled)\b[^.!?]{0,25}\bfrom\s$", re.I
)
"""A meeting moved "from" one time "to" another: the new time is the meeting's."""
_MOVED_FROM_INSIDE = re.compile(r"(?:pushed|moved|shifted|rescheduled)\s(?:back\s)?from\s", re.I)
"""The same, said inside the date a pattern read ("launch is pushed from March 12 to April 9")."""
_MOVABLE = frozenset({"MEETING_AT", "LAUNCH_DATE", "DEADLINE"})
"""Dates said moved "from" one day "to" another ("the launch is pushed from March 12 to April 9")."""


def _moved_from(text: str, start: int, at: datetime | None) -> datetime | None:
    """Return what a date at ``start`` is read against: when it follows a move (明天上午的周会改到下午两点,
    下周一的周会改到周二), the day still ahead the sentence names before the move, so a time alone keeps
    that day and a weekday its week; else ``at``."""
    cue = _MOVED_TO.search(text, 0, start)
    if at is None or cue is None:
        return at
    before = resolve_dates(text[: cue.start()], at)
    if before is None or before.start is None or before.granularity not in _WITH_A_DAY or before.start < at:
        return at  # a day already past is no meeting still to move ("the Friday sync" read as last Friday)
    return before.start


def _literal(kind: str, raw: str, at: datetime | None, *, past: bool = False) -> Scalar | None:
    """Return the value of an amount, number, date, birthday or phone object; None when unreadable.
    A date told as ``past`` is never moved ahead to next week, month or year."""
    text = raw.strip()
    if kind == "amount":
        return parse_amount(text)
    if kind == "number":
        digits = text.replace(",", "")  # 1,200 units
        return int(digits) if digits.isdigit() else cn_to_int(text)
    if kind in ("date", "birthday"):
        if at is None:
            return text or None
        return date_value(text, at, yearless=kind == "birthday", future=not past)
    digits = re.sub(r"\D", "", text)
    return digits if 7 <= len(digits) <= 15 else None


def _pick(inside: list[Mention], wanted: str, *, strict: bool = False) -> Mention | None:
    """Return the mention best fitting the object type: the first of that type, else the first
    compatible one (``strict``: the wanted type or an unknown name)."""
    for mention in inside:
        if mention.type == wanted:
            return mention
    if strict:
        return next((m for m in inside if m.type == "thing"), None)
    compatible = {
        "place": ("organisation", "thing"),
        "organisation": ("thing", "place"),
        "product": ("thing",),
        "animal": ("person", "thing"),
        "person": ("thing",),
    }
    for mention in inside:
        if mention.type in compatible.get(wanted, ("thing",)) or not wanted:
            return mention
    return None


def _taken(span: tuple[int, int], claimed: list[tuple[int, int]], *, verb_phrase: bool) -> bool:
    """Return True when another fact's object overlaps ``span``; a verb phrase may hold one whole
    (去日本读研 around the place 日本 is still a plan)."""
    if not verb_phrase:
        return overlaps(*span, claimed)
    return any(
        s < span[1] and span[0] < e and not (span[0] <= s and e <= span[1] and e - s < span[1] - span[0])
        for s, e in claimed
    )


def _sightseeing(sentence: str, span: tuple[int, int], claimed: list[tuple[int, int]]) -> bool:
    """Return True when a verb phrase holding another fact's object only goes there to look around."""
    inner = [e for s, e in claimed if span[0] <= s and e <= span[1]]
    return bool(inner) and bool(_SIGHTSEEING.match(sentence, max(inner), span[1]))


def _name_like(text: str, wanted: str) -> bool:
    if has_cjk(text):
        return len(text) <= 8
    words = text.split()
    return bool(words) and len(words) <= 4 and all(w[0].isupper() or not w.isalpha() for w in words)


def _too_long(text: str, lang: Lang) -> bool:
    return len(text) > _MAX_CJK if lang == "zh" else len(text.split()) > _MAX_WORDS


_ZH_NO_VALUE = re.compile(
    r"[哈啊啦呀嘛吧呢哦喔哟]+|我们|你们|他们|她们|咱们|新来的?|这个|那个|工作|事情|这事|这件事|手上的事|不|没|没有|"
    r"快?半?[\d一二两三四五六七八九十几]*个?多?(?:月|年|天|周|星期|礼拜|小时)(?:了|多)?"
)
"""Not a thing a fact can be about: a particle (由小吴负责哈), a pronoun, a duration (戒了快三个月)."""
_MY = re.compile(r"\bmy\s+$", re.I)
"""Right before a duty handed on: the writer's ("covering my accounts")."""
_EN_NO_VALUE = re.compile(
    r"(?:(?:during|on|at|in|over|for|through) )?(?:the |a )?(?:week|weekdays?|weekends?|night|nights|"
    r"mornings?|evenings?|days?|daytime|workdays?|work ?week|summer|winter|holidays?|moment|time being)"
    r"(?: anymore| any more| these days| lately)?"
    r"|(?:these days|lately|anymore|any more|now|nowadays|every (?:day|week|night|morning))",
    re.I,
)
"""Not a thing either: when it happens ("I don't drink during the week anymore")."""
