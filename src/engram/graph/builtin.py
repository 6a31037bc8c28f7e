"""Extract entities and facts from an episode offline, with rules, lexicons and jieba POS tags.

Entities (lower snake types: person, place, organisation, product, document, deal, email, url,
role, animal, thing) come from, in priority order: references (``engram.graph.references``),
the gazetteer (name → type), Chinese surname + title (张经理 → person ``{"title": "经理"}``),
Chinese role words (销售经理 → role, never a person), jieba POS tags (nr person, ns place,
nt organisation, nz thing; https://github.com/fxsjy/jieba#4-词性标注), English titles
(Mr./Dr. + name), and English capitalised spans (not at a sentence start unless known;
months, weekdays, pronouns and interjections excluded). A place followed by a country or
region keeps the qualifier in its name and attributes: "Paris, France" → ``{"name": "Paris,
France", "attributes": {"city": "Paris", "country": "France"}}``, "Paris, Texas" →
``{"city": "Paris", "region": "Texas"}``, so the two never merge by name. Names only used to
address someone ("Thanks, Joanna!") are not entities.

Facts come from ``engram.graph.patterns``; the subject is the nearest person-like mention or
pronoun left of the object: a first-person pronoun (I/my/我/我们) names the episode's actor
(``actor.name``, else ``actor.id``), who is then added as a person entity; he/she/you/他/你
block the fact (no coreference here). ``fact`` is the sentence, ``source_kind`` "stated",
``valid_at`` is left None (relative dates are resolved elsewhere). Pure: no store, no network.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engram.graph.models import EntityIn, Extraction, FactIn, Scalar
from engram.graph.patterns import (
    PATTERNS,
    REGISTRY,
    ZH_ROLE,
    Lang,
    Pattern,
    cn_to_int,
    find_conditions,
    is_past,
    negation,
    parse_amount,
    trim_object,
)
from engram.graph.references import ReferenceTable
from engram.models import Episode
from engram.text.tokenize import has_cjk

_lock = threading.Lock()


@cache
def _posseg() -> Any:
    """Import jieba.posseg and load its dictionary once (about a second); thread-safe."""
    with _lock:
        import jieba
        import jieba.posseg

        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()
        return jieba.posseg


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# ── lexicons ────────────────────────────────────────────────────────────────────────────

COUNTRIES = _words(
    "USA US America Canada Mexico Brazil Argentina Chile Peru Colombia UK England Scotland Ireland Wales "
    "France Germany Spain Portugal Italy Netherlands Belgium Switzerland Austria Sweden Norway Denmark "
    "Finland Poland Greece Turkey Russia Ukraine Israel Egypt Morocco Kenya Nigeria India Pakistan China "
    "Japan Korea Vietnam Thailand Singapore Malaysia Indonesia Philippines Australia Iceland Cuba Jamaica "
    "中国 美国 日本 英国 法国 德国 韩国 加拿大 澳大利亚 新加坡 意大利 西班牙 俄罗斯 印度 泰国 越南"
)
REGIONS = _words(
    "Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho "
    "Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota "
    "Mississippi Missouri Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Tennessee Texas Utah "
    "Vermont Virginia Washington Wisconsin Wyoming Ontario Quebec Bavaria Tuscany Provence Normandy "
    "北京 上海 天津 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 "
    "湖南 广东 海南 四川 "
    "贵州 云南 陕西 甘肃 青海 台湾 内蒙古 广西 西藏 宁夏 新疆 香港 澳门"
)
_CITIES = _words(
    "Paris London Berlin Tokyo Beijing Shanghai Boston Chicago Seattle Austin Denver Miami Portland Atlanta "
    "Dallas Houston Philadelphia Toronto Vancouver Montreal Sydney Melbourne Madrid Barcelona Rome Milan "
    "Amsterdam Dublin Lisbon Vienna Prague Seoul Bangkok Dubai Mumbai Delhi Moscow Istanbul Nashville "
    "Orlando Phoenix Vegas Brooklyn Manhattan Europe Asia Africa 杭州 广州 深圳 成都 南京 武汉 西安 苏州 "
    "长沙 青岛 厦门 东京 纽约 伦敦 巴黎 台北 大阪 首尔 硅谷"
) | {"New York", "Los Angeles", "San Francisco", "San Diego", "Las Vegas", "Hong Kong", "Mexico City",
     "New Orleans", "Silicon Valley", "Rio de Janeiro", "New Zealand", "South Korea", "North Carolina",
     "South Carolina", "New Jersey", "New Mexico", "North Dakota", "South Dakota", "West Virginia",
     "Rhode Island", "New Hampshire"}  # fmt: skip
_ORGS = _words(
    "Google Microsoft Apple Amazon Meta Facebook Netflix Tesla IBM Intel Nvidia OpenAI Salesforce Oracle "
    "Uber Airbnb Twitter Starbucks Walmart Costco Harvard Stanford MIT Yale Princeton Oxford UNICEF NASA "
    "阿里巴巴 阿里 腾讯 百度 华为 字节跳动 京东 美团 网易 滴滴 拼多多 联想 比亚迪 中国银行 "
    "工商银行 清华大学 北京大学 "
    "浙江大学 复旦大学"
)
_PRODUCTS = _words(
    "iPhone iPad MacBook Android Windows Slack Notion Zoom Excel PowerPoint Jira Confluence Trello Asana "
    "Figma GitHub Gmail Outlook WhatsApp Instagram TikTok YouTube Spotify ChatGPT HubSpot Shopify "
    "Photoshop Kindle PlayStation Xbox Linux 微信 企业微信 钉钉 飞书 支付宝 淘宝 抖音 微博 小红书 QQ WPS "
    "腾讯会议 石墨文档 小米手机"
) | {"Microsoft Teams", "Google Docs", "Nintendo Switch"}
DEFAULT_GAZETTEER: Mapping[str, str] = {
    **dict.fromkeys(COUNTRIES | REGIONS | _CITIES, "place"),
    **dict.fromkeys(_ORGS, "organisation"),
    **dict.fromkeys(_PRODUCTS, "product"),
}
FIRST_NAMES = _words(
    "James John Robert Michael William David Richard Joseph Thomas Charles Daniel Matthew Anthony Mark "
    "Steven Paul Andrew Joshua Kevin Brian George Timothy Tim Ronald Jason Jeffrey Ryan Jacob Gary Nicholas "
    "Eric Jonathan Jon Stephen Larry Justin Scott Brandon Benjamin Ben Samuel Sam Gregory Alexander Alex "
    "Patrick Frank Jack Dennis Jerry Tyler Aaron Jose Adam Nathan Nate Henry Peter Zachary Kyle Noah Ethan "
    "Jeremy Walter Christian Keith Roger Terry Austin Sean Gerald Carl Harold Dylan Arthur Lawrence Jordan "
    "Jesse Bryan Billy Bruce Gabriel Joe Logan Albert Willie Alan Eugene Russell Vincent Philip Bobby "
    "Johnny Bradley Roy Ralph Randy Wayne Liam Lucas Mason Oliver Elijah Leo Max Evan Calvin Dave Mike "
    "Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Lisa Nancy Betty Sandra "
    "Margaret Ashley Kimberly Emily Donna Michelle Carol Amanda Melissa Deborah Deb Stephanie Dorothy "
    "Rebecca Sharon Laura Cynthia Amy Kathleen Angela Shirley Brenda Emma Anna Pamela Nicole Samantha "
    "Katherine Kate Christine Helen Debra Rachel Carolyn Caroline Janet Maria Catherine Heather Diane Olivia "
    "Julie Joyce Victoria Ruth Virginia Lauren Kelly Christina Joan Evelyn Judith Andrea Hannah Megan "
    "Cheryl Jacqueline Martha Madison Teresa Gloria Sara Janice Ann Kathryn Abigail Sophia Frances Jean "
    "Alice Judy Isabella Julia Grace Amber Denise Danielle Marilyn Beverly Charlotte Natalie Theresa Diana "
    "Brittany Doris Kayla Alexis Lori Marie Melanie Mel Joanna Gina Audrey Jolene Mia Ava Chloe Zoe Lily "
    "Ella Luna Nora Ruby Tom Tony Jim Bill Bob Ted Nick Chris Matt Josh Jake Luke Kim Li Wang Zhang Chen"
)
_EXCLUDE = _words(
    "i i'm i've i'd i'll the a an this that these those it its it's my your our their his her we you they "
    "he she what when where why how who which whose hey hi hello thanks thank congrats congratulations "
    "wow oh yes yeah yep yup no nope sure ok okay lol haha hah btw omg aw aww awesome great cool nice good "
    "well so but and or if also just really absolutely definitely totally anyway anyways plus speaking "
    "sounds glad sorry please let let's maybe not do did does have has had is are was were can could "
    "would should will dear bye cheers happy merry love hope enjoy take keep see talk check wish gonna "
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday christmas easter thanksgiving halloween mom dad mum god "
    "ps am pm tv ai dm mr mrs ms dr prof there here then now today yesterday tomorrow ceo cto cfo coo vp "
    "mon tue tues wed thu thur thurs fri sat sun jan feb mar apr jun jul aug sep sept oct nov dec english "
    "spanish german french italian chinese japanese korean european american british asian african"
)
_GREETING = re.compile(r"(?:\b(?:hey|hi|hello|thanks|thank you|congrats|congratulations|bye|dear|go|sorry|"
                       r"wow|yo|morning|night|welcome|cheers)|[,，])\s*,?\s*$", re.I)  # fmt: skip
_ORG_WORDS = _words(
    "Inc Corp LLC Ltd Company Co University College School Academy Institute Bank Group Foundation "
    "Association Center Centre Club Church Hospital Team Studio Studios Labs Agency Society Museum Library"
)
_PLACE_WORDS = _words(
    "City Street St Avenue Ave Road Park Lake River Mountain Mountains Beach Island Islands Valley County "
    "Bay Canyon Falls Hills Square Town Village Coast National"
)
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔"
    "钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛"
    "邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝"
    "路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂"
    "全佟应臧闵苟邬边卞姬师仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
_COMPOUND_SURNAMES = (
    "欧阳",
    "司马",
    "上官",
    "诸葛",
    "东方",
    "皇甫",
    "令狐",
    "慕容",
    "尉迟",
    "公孙",
    "司徒",
    "夏侯",
)
_ZH_TITLES = ("董事长", "总经理", "总监", "经理", "主任", "律师", "博士", "教授", "先生", "女士", "小姐",
              "师傅", "老板", "局长", "处长", "科长", "部长", "院长", "校长", "总裁", "老师", "医生", "大夫",
              "主管", "总", "工")  # fmt: skip
_SURNAME_ALT = "|".join([*_COMPOUND_SURNAMES, f"[{''.join(sorted(_SURNAMES))}]"])
_ZH_TITLED = re.compile(rf"({_SURNAME_ALT})({'|'.join(_ZH_TITLES)})(?![\u4e00-\u9fff]{{0,1}}(?:经理|监))")
_ZH_ROLE_RX = re.compile(ZH_ROLE)
_ZH_NOT_NAMES = _words("谢谢 高兴 文明 明白 时间 平安 安心 常常 万一 成功 华为 向往 方便 和平 于是 经常 师傅")
_EN_TITLE = re.compile(
    r"\b(Mr|Mrs|Ms|Dr|Prof|Professor|Uncle|Aunt|Coach)\.?\s([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)"
)
_LATIN_WORD = re.compile(r"(?<![A-Za-z0-9'’])[A-Za-z][A-Za-z0-9&'’-]*")
_CONNECTORS = frozenset({"of", "de", "da", "del", "van", "von", "the", "&"})
_SENTENCE = re.compile(
    r"(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bvs)[.!?]+['\")]*(?=\s)|[。！？；]+|\n+"
)
_CLAUSE = re.compile(r"[,，;；:：]|\b(?:and|but|because|so)\b|而且|但是|因为|所以")
_EN_I = re.compile(r"(?-i:\bI\b)|\b(?:I'm|I've|I'd|I'll|me|my|mine|myself)\b|"
                   r"(?P<we>\b(?:we|we're|we've|our|us)\b)",
                   re.I)  # fmt: skip
_EN_BLOCK = re.compile(r"\b(?:you|your|you're|he|she|they|his|her|their|them|him|it|it's)\b", re.I)
_ZH_I = re.compile(r"(?P<we>我们|咱们)|我|本人")
_ZH_BLOCK = re.compile(r"你|您|他|她|它|客户|对方")
_SUBJECT_TYPES = frozenset({"person", "organisation", "thing", "animal"})
_NOT_SUBJECT_TYPES = frozenset({"place", "role", "email", "url"})
_TOPIC_PREDICATES = frozenset({"BUDGET", "PRICE", "DEADLINE", "MEETING_AT"})
_NAME_PREDICATES = frozenset({"MARRIED_TO", "CHILD_OF", "SIBLING_OF", "FRIEND_OF", "REPORTS_TO", "HAS_PET"})


@dataclass(slots=True)
class _Mention:
    start: int
    end: int
    name: str
    type: str
    attributes: dict[str, Scalar | None] = field(default_factory=dict)
    aliases: list[str] = field(default_factory=list)
    vocative: bool = False


def _overlaps(start: int, end: int, spans: Iterable[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in spans)


def _alternation(names: Iterable[str]) -> str:
    return "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))


def _sentences(text: str) -> list[tuple[int, str]]:
    """Return ``(offset, sentence)`` pairs, stripped, empty ones dropped."""
    out: list[tuple[int, str]] = []
    position = 0
    for match in [*_SENTENCE.finditer(text), None]:
        end = match.end() if match else len(text)
        chunk = text[position:end]
        stripped = chunk.strip()
        if stripped:
            out.append((position + chunk.index(stripped), stripped))
        position = end
    return out


class BuiltinExtractor:
    """Find entities and facts with rules; deterministic, offline, a few hundred µs per turn.

    ``gazetteer`` (name → entity type) extends the defaults; ``references`` are rules for
    :class:`~engram.graph.references.ReferenceTable` (tried before the defaults); ``patterns``
    are extra :class:`~engram.graph.patterns.Pattern` objects tried before the built-in ones.
    ``use_defaults=False`` drops the default gazetteer, reference rules and patterns.
    """

    name = "builtin"

    def __init__(
        self,
        *,
        gazetteer: Mapping[str, str] | None = None,
        references: Sequence[Mapping[str, str]] = (),
        patterns: Sequence[Pattern] = (),
        use_defaults: bool = True,
    ) -> None:
        self._gazetteer = {**(DEFAULT_GAZETTEER if use_defaults else {}), **(gazetteer or {})}
        self._references = ReferenceTable(references, use_defaults=use_defaults)
        self._patterns = {
            lang: [p for p in [*patterns, *(PATTERNS if use_defaults else ())] if p.lang == lang]
            for lang in ("en", "zh")
        }
        latin = [n for n in self._gazetteer if not has_cjk(n)]
        cjk = [n for n in self._gazetteer if has_cjk(n)]
        never = "(?!x)x"
        self._latin = re.compile(rf"(?<![\w-])(?:{_alternation(latin) or never})(?![\w-])")
        self._cjk = re.compile(_alternation(cjk) or never)

    def extract(self, episode: Episode) -> Extraction:
        """Return the entities and facts ``episode`` states; empty for chit-chat."""
        actor = (episode.actor.name or episode.actor.id) if episode.actor else None
        text = episode.content
        if episode.source_type == "json":
            text = _json_text(text)
        return self.extract_text(text, actor=actor, references=episode.references)

    def extract_text(
        self, text: str, *, actor: str | None = None, references: Sequence[str] = ()
    ) -> Extraction:
        """Return what ``text`` says, with ``actor`` as the subject of first-person statements."""
        entities: dict[tuple[str, str], EntityIn] = {}
        facts: dict[tuple[Any, ...], FactIn] = {}
        refs = self._references.find(text)
        for ref in self._references.resolve(references):
            _add_entity(entities, _Mention(0, 0, ref.name, ref.type, dict(ref.attributes), [ref.id]))
        actor_used = False
        for offset, sentence in _sentences(text):
            local = [
                _Mention(r.start - offset, r.end - offset, r.name, r.type, {**r.attributes, "ref_id": r.id},
                         [r.id] if r.id != r.name else [])
                for r in refs
                if offset <= r.start and r.end <= offset + len(sentence)
            ]  # fmt: skip
            mentions = self._mentions(sentence, local, actor)
            for fact in self._facts(sentence, mentions, actor):
                key = (fact.subject, fact.predicate, fact.object, fact.value, tuple(fact.conditions.items()))
                facts.setdefault(key, fact)
                actor_used = actor_used or actor in (fact.subject, fact.object)
            for mention in mentions:
                if not mention.vocative:
                    _add_entity(entities, mention)
        if actor and actor_used:
            _add_entity(entities, _Mention(0, 0, actor, "person"))
        return Extraction(entities=list(entities.values())[:256], facts=list(facts.values())[:512])

    # ── entities ───────────────────────────────────────────────────────────────────────

    def _mentions(self, sentence: str, found: list[_Mention], actor: str | None) -> list[_Mention]:
        spans = [(m.start, m.end) for m in found]

        def add(mention: _Mention) -> None:
            if mention.name and not _overlaps(mention.start, mention.end, spans):
                found.append(mention)
                spans.append((mention.start, mention.end))

        cjk = has_cjk(sentence)
        for match in self._latin.finditer(sentence):
            add(_Mention(*match.span(), match.group(), self._gazetteer[match.group()]))
        if cjk:
            for match in self._cjk.finditer(sentence):
                add(_Mention(*match.span(), match.group(), self._gazetteer[match.group()]))
            for match in _ZH_TITLED.finditer(sentence):
                attrs: dict[str, Scalar | None] = {"surname": match.group(1), "title": match.group(2)}
                add(_Mention(*match.span(), match.group(), "person", attrs))
            for match in _ZH_ROLE_RX.finditer(sentence):
                if len(match.group()) >= 3:
                    add(_Mention(*match.span(), match.group(), "role"))
            for mention in _jieba_mentions(sentence):
                add(mention)
        for match in _EN_TITLE.finditer(sentence):
            add(_Mention(*match.span(), match.group(2), "person", {"title": match.group(1)}))
        for mention in self._capitalised(sentence, actor, first_allowed=cjk):
            add(mention)
        found.sort(key=lambda m: m.start)
        return _qualify_places(sentence, found)

    def _capitalised(self, sentence: str, actor: str | None, *, first_allowed: bool) -> list[_Mention]:
        """Return runs of capitalised Latin words as mentions, typed by gazetteer, suffix or name list."""
        known = FIRST_NAMES | ({actor} if actor else set())
        words = [
            (m.start(), m.start() + len(w), w)
            for m in _LATIN_WORD.finditer(sentence)
            if (w := re.sub(r"(?:['’]s|['’-])$", "", m.group()))
        ]
        runs: list[list[tuple[int, int, str]]] = []
        current: list[tuple[int, int, str]] = []
        for index, (start, end, word) in enumerate(words):
            capital = word[0].isupper() and word.lower() not in _EXCLUDE
            joinable = bool(current) and sentence[current[-1][1] : start] == " "
            if capital and (joinable or not current):
                current.append((start, end, word))
                continue
            following = words[index + 1] if index + 1 < len(words) else None
            if following and following[2] == "the" and index + 2 < len(words):
                following = words[index + 2]
            if (current and joinable and word in _CONNECTORS and following and following[2][0].isupper()
                    and following[2].lower() not in _EXCLUDE):  # fmt: skip
                current.append((start, end, word))
                continue
            if current:
                runs.append(current)
            current = [(start, end, word)] if capital else []
        if current:
            runs.append(current)
        out: list[_Mention] = []
        lead = len(sentence) - len(sentence.lstrip("\"'“‘(-*"))
        for run in runs:
            while run and run[-1][2] in _CONNECTORS:
                run.pop()
            if run and run[0][0] == lead and not first_allowed and run[0][2] not in known:
                run = run[1:]
                if run and not run[0][2][0].isupper():
                    continue
            if not run or (len(run) == 1 and len(run[0][2]) == 1):
                continue
            start, end = run[0][0], run[-1][1]
            name = sentence[start:end]
            kind = self._type_of(name, [w for _, _, w in run], known)
            vocative = kind in ("person", "thing") and bool(
                _GREETING.search(sentence[:start]) and re.match(r"\s*(?:[!?.,]|$)", sentence[end:])
            )
            out.append(_Mention(start, end, name, kind, vocative=vocative))
        return out

    def _type_of(self, name: str, words: list[str], known: frozenset[str] | set[str]) -> str:
        if name in self._gazetteer:
            return self._gazetteer[name]
        if any(w in _ORG_WORDS for w in words):
            return "organisation"
        if words[-1] in _PLACE_WORDS:
            return "place"
        if words[0] in known and len(words) <= 3:
            return "person"
        return "thing"

    # ── facts ──────────────────────────────────────────────────────────────────────────

    def _facts(self, sentence: str, mentions: list[_Mention], actor: str | None) -> list[FactIn]:
        lang: Lang = "zh" if has_cjk(sentence) else "en"
        claimed: list[tuple[int, int]] = []
        out: list[FactIn] = []
        lower = sentence.lower()
        for pattern in self._patterns[lang]:
            if pattern.trigger and not any(word in lower for word in pattern.trigger):
                continue
            for match in pattern.regex.finditer(sentence):
                fact = self._fact(pattern, match, sentence, mentions, actor, lang, claimed)
                if fact is not None:
                    out.append(fact)
        return out

    def _fact(
        self,
        pattern: Pattern,
        match: re.Match[str],
        sentence: str,
        mentions: list[_Mention],
        actor: str | None,
        lang: Lang,
        claimed: list[tuple[int, int]],
    ) -> FactIn | None:
        raw = match.group("obj")
        if raw is None:
            return None
        trimmed = trim_object(raw, lang)
        obj_start = match.start("obj") + max(raw.find(trimmed), 0)
        obj_end = obj_start + len(trimmed)
        if not trimmed or _overlaps(obj_start, obj_end, claimed):
            return None
        registered = REGISTRY[pattern.predicate]
        predicate, confidence = pattern.predicate, pattern.confidence
        clause_start = max((m.end() for m in _CLAUSE.finditer(sentence, 0, match.start())), default=0)
        tail = _CLAUSE.search(sentence, obj_end)
        clause = sentence[clause_start : tail.start() if tail else len(sentence)]
        if pattern.past and is_past(clause, lang):
            predicate = pattern.past
        cue = negation(sentence[clause_start : match.start("obj")], sentence[obj_start:], lang)
        if cue and registered.ends is None:  # DISLIKES, STOPPED_USING… carry their own negation
            mapped = registered.stop if cue == "stop" else registered.negation
            if mapped is None:
                return None
            predicate, confidence = mapped, confidence - (0.15 if cue == "not" else 0.0)
        target = REGISTRY[predicate]
        if any(m.start <= match.start() < m.end for m in mentions):
            return None  # the cue is part of a name (报价 in 报价单_v2.pdf)
        topic = predicate in _TOPIC_PREDICATES
        subject = _subject(sentence[: match.start("obj")], mentions, actor, lang, topic=topic)
        if subject is None:
            return None
        subject_name, weight = subject
        obj = _pick(mentions, obj_start, obj_end, target.object_type, exclude=subject_name)
        if obj is not None and lang == "en" and not _heads(sentence, obj_start, obj_end, obj):
            obj = None  # "an LGBTQ+ counseling workshop" is not the entity LGBTQ
        value: Scalar | None = None
        if target.object_kind == "amount":
            value = parse_amount(trimmed)
            if value is None:
                return None
        elif predicate == "AGE":
            value = int(trimmed) if trimmed.isdigit() else cn_to_int(trimmed)
        elif obj is not None:
            obj_end = max(obj_end, obj.end)
            if obj.type == "thing" and target.object_type not in ("", "thing"):
                obj.type = target.object_type
            if predicate == "HAS_PET":
                obj.type = "animal"
                if match.groupdict().get("kind"):
                    obj.attributes["species"] = match.group("kind").lower()
        elif pattern.require_mention:
            return None
        elif predicate == "HAS_ROLE" or (predicate in _NAME_PREDICATES and _name_like(trimmed)):
            kind = target.object_type if predicate != "HAS_ROLE" else "role"
            name = trimmed.lower() if kind == "role" and not trimmed.isupper() else trimmed
            obj = _Mention(obj_start, obj_end, name, kind)
            if "kind" in match.groupdict() and match.group("kind"):
                obj.attributes["species"] = match.group("kind").lower()
            mentions.append(obj)
        elif len(trimmed) > 60 or len(trimmed.split()) > 8:
            return None
        else:
            value = trimmed
            confidence -= 0.1 if target.object_kind == "entity" else 0.0
        if value is None and obj is None:
            return None
        claimed.append((obj_start, obj_end))
        confidence = round(max(0.1, min(1.0, confidence * weight)), 2)
        subject_out, object_out = subject_name, obj.name if obj else None
        if pattern.inverse and object_out is not None:
            subject_out, object_out = object_out, subject_out
        conditions = find_conditions(clause) or _leading_condition(sentence, clause_start)
        return FactIn(
            subject=subject_out,
            predicate=predicate,
            object=object_out,
            value=value if object_out is None else None,
            fact=sentence[:2000],
            conditions=conditions,
            confidence=confidence,
            source_kind="stated",
        )


def _heads(sentence: str, start: int, end: int, mention: _Mention) -> bool:
    """Return True when ``mention`` is the whole object phrase, bar determiners and trailing words."""
    before = sentence[start : mention.start].strip().lower()
    after = sentence[mention.end : end].strip(" +'’s")
    if before in ("a", "an", "the", "my", "our"):
        return not (after and after[0].islower())  # "an LGBTQ center": the name only modifies a noun
    return before == ""


def _name_like(text: str) -> bool:
    return text[0].isupper() or (has_cjk(text) and len(text) <= 4)


def _leading_condition(sentence: str, clause_start: int) -> dict[str, str]:
    """Return the condition a short leading clause puts on a later clause ("On weekends, I …")."""
    first = _CLAUSE.search(sentence)
    if first is None or clause_start == 0 or first.start() > 24:
        return {}
    return find_conditions(sentence[: first.start()])


def _subject(
    left: str, mentions: list[_Mention], actor: str | None, lang: Lang, *, topic: bool
) -> tuple[str, float] | None:
    """Return ``(subject name, confidence weight)`` from the text left of the object, or None.

    Topic predicates (budget, price, deadline, meeting) also take products, deals and
    documents as subjects, and fall back to the actor (weight 0.7) when nothing precedes.
    """
    best: tuple[int, str | None, float] = (-1, actor if topic else None, 0.7)
    for match in (_EN_I if lang == "en" else _ZH_I).finditer(left):
        if match.start() > best[0]:
            best = (match.start(), actor, 0.9 if match.group("we") else 1.0)
    for match in (_EN_BLOCK if lang == "en" else _ZH_BLOCK).finditer(left):
        if match.start() > best[0]:
            best = (match.start(), None, 1.0)
    for mention in mentions:
        allowed = mention.type not in _NOT_SUBJECT_TYPES if topic else mention.type in _SUBJECT_TYPES
        if mention.type == "thing" and not topic and left[mention.end :].strip():
            allowed = False  # an unknown name is a subject only right before its verb
        if mention.end <= len(left) and mention.start > best[0] and allowed and not mention.vocative:
            best = (mention.start, mention.name, 0.95)
    return None if best[1] is None else (best[1], best[2])


def _pick(mentions: list[_Mention], start: int, end: int, wanted: str, *, exclude: str) -> _Mention | None:
    """Return the mention inside ``start:end`` best fitting the object type (first compatible, else first)."""
    inside = [m for m in mentions if start <= m.start < end and m.name != exclude]
    for mention in inside:
        if mention.type in (wanted, "thing"):
            return mention
    return inside[0] if inside else None


def _jieba_mentions(sentence: str) -> list[_Mention]:
    """Return person, place, organisation and proper-noun mentions tagged by jieba.posseg."""
    out: list[_Mention] = []
    position = 0
    for word, flag in _posseg().cut(sentence):
        start, position = position, position + len(word)
        if len(word) < 2 or not has_cjk(word) or word in _ZH_NOT_NAMES:
            continue
        if flag in ("nr", "nrfg", "nrt"):
            name_like = word[0] in _SURNAMES or word[:2] in _COMPOUND_SURNAMES
            prefixed = word[0] in "小老阿" and len(word) == 2 and word[1] in _SURNAMES
            if len(word) <= 4 and (name_like or prefixed) and word[0] != word[1]:
                out.append(_Mention(start, position, word, "person"))
        elif flag == "ns":
            out.append(_Mention(start, position, word, "place"))
        elif flag == "nt":
            out.append(_Mention(start, position, word, "organisation"))
        elif flag == "nz" and len(word) >= 2:
            out.append(_Mention(start, position, word, "thing"))
    return out


def _qualify_places(sentence: str, mentions: list[_Mention]) -> list[_Mention]:
    """Merge "Paris, France" / "Paris, Texas" into one place that keeps its qualifier."""
    out: list[_Mention] = []
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


def _add_entity(entities: dict[tuple[str, str], EntityIn], mention: _Mention) -> None:
    key = (mention.name, mention.type)
    existing = entities.get(key)
    if existing is None:
        entities[key] = EntityIn(
            name=mention.name, type=mention.type, aliases=mention.aliases, attributes=mention.attributes
        )
        return
    existing.attributes.update({k: v for k, v in mention.attributes.items() if k not in existing.attributes})
    existing.aliases.extend(a for a in mention.aliases if a not in existing.aliases)


def _json_text(content: str) -> str:
    """Return the string values of a JSON episode, one per line (the raw text if it is not JSON)."""
    try:
        data = json.loads(content)
    except json.JSONDecodeError:
        return content

    def strings(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        items = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
        return [text for item in items for text in strings(item)]

    return "\n".join(strings(data))
