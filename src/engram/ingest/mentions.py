"""Find entity mentions in one sentence, with lexicons, rules and jieba POS tags.

Entities (lower snake types: person, place, organisation, product, document, deal, email, url,
role, animal, thing) come from, in priority order: references (``engram.ingest.references``,
passed in by the caller), the gazetteer (name → type), Chinese surname + title (张经理 →
person ``{"title": "经理"}``), Chinese role words (销售经理 → role, never a person), jieba POS
tags (nr person, ns place, nt organisation, nz thing;
https://github.com/fxsjy/jieba#4-词性标注), English titles (Mr./Dr. + name), and English
capitalised spans (not at a sentence start unless known; months, weekdays, pronouns and
interjections excluded). A place followed by a country or region keeps the qualifier in its
name and attributes: "Paris, France" → ``{"name": "Paris, France", "attributes": {"city":
"Paris", "country": "France"}}``, "Paris, Texas" → ``{"city": "Paris", "region": "Texas"}``,
so the two never merge by name. Names only used to address someone ("Thanks, Joanna!") are
marked ``vocative``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engram.ingest.patterns import ZH_ROLE
from engram.models.graph import Scalar
from engram.nlp.tokenize import has_cjk, jieba_module


@cache
def _posseg() -> Any:
    """Return jieba.posseg, with jieba's dictionary loaded once (engram.nlp.tokenize)."""
    jieba_module()
    import jieba.posseg

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


@dataclass(slots=True)
class Mention:
    """A span of a sentence naming an entity."""

    start: int
    end: int
    name: str
    type: str
    attributes: dict[str, Scalar | None] = field(default_factory=dict)
    aliases: list[str] = field(default_factory=list)
    vocative: bool = False


def overlaps(start: int, end: int, spans: Iterable[tuple[int, int]]) -> bool:
    """Return True when ``start:end`` overlaps one of ``spans``."""
    return any(start < e and s < end for s, e in spans)


def _alternation(names: Iterable[str]) -> str:
    return "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))


class MentionFinder:
    """Find the mentions in a sentence; ``gazetteer`` maps known names to entity types."""

    def __init__(self, gazetteer: Mapping[str, str]) -> None:
        self._gazetteer = dict(gazetteer)
        latin = [n for n in self._gazetteer if not has_cjk(n)]
        cjk = [n for n in self._gazetteer if has_cjk(n)]
        never = "(?!x)x"
        self._latin = re.compile(rf"(?<![\w-])(?:{_alternation(latin) or never})(?![\w-])")
        self._cjk = re.compile(_alternation(cjk) or never)

    def find(self, sentence: str, found: list[Mention], actor: str | None) -> list[Mention]:
        """Return ``found`` (references already located) plus the other mentions, in order."""
        spans = [(m.start, m.end) for m in found]

        def add(mention: Mention) -> None:
            if mention.name and not overlaps(mention.start, mention.end, spans):
                found.append(mention)
                spans.append((mention.start, mention.end))

        cjk = has_cjk(sentence)
        for match in self._latin.finditer(sentence):
            add(Mention(*match.span(), match.group(), self._gazetteer[match.group()]))
        if cjk:
            for match in self._cjk.finditer(sentence):
                add(Mention(*match.span(), match.group(), self._gazetteer[match.group()]))
            for match in _ZH_TITLED.finditer(sentence):
                attrs: dict[str, Scalar | None] = {"surname": match.group(1), "title": match.group(2)}
                add(Mention(*match.span(), match.group(), "person", attrs))
            for match in _ZH_ROLE_RX.finditer(sentence):
                if len(match.group()) >= 3:
                    add(Mention(*match.span(), match.group(), "role"))
            for mention in _jieba_mentions(sentence):
                add(mention)
        for match in _EN_TITLE.finditer(sentence):
            add(Mention(*match.span(), match.group(2), "person", {"title": match.group(1)}))
        for mention in self._capitalised(sentence, actor, first_allowed=cjk):
            add(mention)
        found.sort(key=lambda m: m.start)
        return _qualify_places(sentence, found)

    def _capitalised(self, sentence: str, actor: str | None, *, first_allowed: bool) -> list[Mention]:
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
        out: list[Mention] = []
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
            out.append(Mention(start, end, name, kind, vocative=vocative))
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


def _jieba_mentions(sentence: str) -> list[Mention]:
    """Return person, place, organisation and proper-noun mentions tagged by jieba.posseg."""
    out: list[Mention] = []
    position = 0
    for word, flag in _posseg().cut(sentence):
        start, position = position, position + len(word)
        if len(word) < 2 or not has_cjk(word) or word in _ZH_NOT_NAMES:
            continue
        if flag in ("nr", "nrfg", "nrt"):
            name_like = word[0] in _SURNAMES or word[:2] in _COMPOUND_SURNAMES
            prefixed = word[0] in "小老阿" and len(word) == 2 and word[1] in _SURNAMES
            if len(word) <= 4 and (name_like or prefixed) and word[0] != word[1]:
                out.append(Mention(start, position, word, "person"))
        elif flag == "ns":
            out.append(Mention(start, position, word, "place"))
        elif flag == "nt":
            out.append(Mention(start, position, word, "organisation"))
        elif flag == "nz" and len(word) >= 2:
            out.append(Mention(start, position, word, "thing"))
    return out


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
