"""The relatives a speaker names in a sentence ("my brother", 我哥哥, "my sister's husband", 我爸妈).

A relative named by the speaker ("my brother", "the wife", 我哥哥, 我妈) is a person of its own:
"<actor>'s brother" / "<actor>的哥哥" (aliases "brother", "my brother" / "哥哥", "我哥哥"), or the name
that follows ("my sister Julia", 我老婆叫刘敏, 我弟弟何磊); its relation to the actor is a fact
(``KIN``: SIBLING_OF, CHILD_OF, MARRIED_TO, PARTNER_OF, FRIEND_OF, REPORTS_TO) when the relative is
named, a spouse or partner, or the subject or object of another fact. A relative's relative ("my
sister's husband", 我姐的老公) is a person of their own related to that relative; both parents at once
(我爸妈, "my parents") are two people (``engram.ingest.parents``); someone else's parents or children
("Sarah's parents", 小王的爸妈) and kin words after "his"/他 name no one; a kin word opening a sentence
(奶奶对…过敏) is the speaker's relative with 我 dropped.
"""

from __future__ import annotations

import re

from engram.ingest.clauses import Lang
from engram.ingest.frames import EN_NAME_WORD, EN_PERSON_NAME
from engram.ingest.mentions import Mention, is_first_name, is_surname, overlaps
from engram.ingest.mentions_zh import is_unknown_word, is_whole_word, word_at
from engram.ingest.parents import parent_pair
from engram.models.graph import Scalar

Kin = tuple[str, str | None, bool]
"""(canonical word, predicate to the actor, whether the relative is the predicate's subject)."""

KIN_EN: dict[str, Kin] = {
    **dict.fromkeys(("brother", "sister", "sibling", "bro", "sis", "twin"), ("", "SIBLING_OF", True)),
    **dict.fromkeys(("mom", "mother", "mum", "mommy", "mama", "dad", "father", "daddy", "papa"),
                    ("", "CHILD_OF", False)),
    **dict.fromkeys(("son", "daughter", "kid", "child", "baby", "stepson", "stepdaughter", "youngest",
                     "eldest", "oldest"), ("", "CHILD_OF", True)),  # "my youngest, Alfie, just turned 3"
    **dict.fromkeys(("wife", "husband", "spouse", "hubby"), ("", "MARRIED_TO", False)),
    **dict.fromkeys(("girlfriend", "boyfriend", "partner", "fiance", "fiancé", "fiancee", "fiancée"),
                    ("", "PARTNER_OF", True)),
    **dict.fromkeys(("friend", "best friend", "buddy", "bestie", "pal"), ("", "FRIEND_OF", True)),
    **dict.fromkeys(("boss", "manager", "supervisor"), ("", "REPORTS_TO", False)),
    **dict.fromkeys(("grandma", "grandmother", "grandpa", "grandfather", "grandad", "granddad", "gran",
                     "granny", "nana", "abuela", "abuelo", "nonna", "nonno", "oma", "opa", "lola", "lolo",
                     "aunt", "uncle",
                     "cousin", "niece", "nephew", "grandson", "granddaughter", "stepmom", "stepdad",
                     "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law", "coworker",
                     "colleague", "roommate", "housemate", "flatmate", "neighbor", "neighbour", "teammate",
                     "ex-wife", "ex-husband", "ex-girlfriend", "ex-boyfriend", "mentor", "coach"),
                    ("", None, True)),
}  # fmt: skip
KIN_ZH: dict[str, Kin] = {
    **{w: (w, "SIBLING_OF", True) for w in ("哥哥", "姐姐", "弟弟", "妹妹")},
    "哥": ("哥哥", "SIBLING_OF", True), "姐": ("姐姐", "SIBLING_OF", True),
    "弟": ("弟弟", "SIBLING_OF", True), "妹": ("妹妹", "SIBLING_OF", True),
    **{w: ("妈妈", "CHILD_OF", False) for w in ("妈妈", "妈", "母亲", "老妈")},
    **{w: ("爸爸", "CHILD_OF", False) for w in ("爸爸", "爸", "父亲", "老爸")},
    **{w: (w, "CHILD_OF", True) for w in ("儿子", "女儿", "孩子", "大儿子", "小儿子", "二儿子", "大女儿",
                                          "小女儿", "二女儿")},
    "闺女": ("女儿", "CHILD_OF", True), "娃": ("孩子", "CHILD_OF", True), "bb": ("孩子", "CHILD_OF", True),
    # 我家老大, 老二叫豆豆, 我宝宝
    **{w: ("孩子", "CHILD_OF", True) for w in ("老大", "老二", "老三", "宝宝", "大宝", "二宝", "小孩")},
    **{w: (w, "MARRIED_TO", False) for w in ("老婆", "老公", "妻子", "丈夫", "爱人", "太太", "媳妇", "先生")},
    "媳妇儿": ("媳妇", "MARRIED_TO", False),
    "那口子": ("爱人", "MARRIED_TO", False), "那位": ("爱人", "MARRIED_TO", False),  # 我家那位
    "老伴": ("老伴", "MARRIED_TO", False), "老伴儿": ("老伴", "MARRIED_TO", False),
    **{w: (w, "PARTNER_OF", True) for w in ("女朋友", "男朋友", "女友", "男友", "对象")},
    "男票": ("男朋友", "PARTNER_OF", True), "女票": ("女朋友", "PARTNER_OF", True),
    "npy": ("对象", "PARTNER_OF", True),  # 我npy叫小雅: "男/女朋友" in chat
    **{w: (w, "FRIEND_OF", True) for w in ("朋友", "好朋友", "闺蜜", "哥们", "发小")},
    **{w: (w, "REPORTS_TO", False) for w in ("领导", "老板", "上司")},
    **{w: (w, None, True) for w in ("表妹", "表哥", "表姐", "表弟", "堂哥", "堂姐", "堂弟", "堂妹",
                                    "奶奶", "爷爷", "外婆", "外公", "姥姥", "姥爷", "舅舅", "阿姨",
                                    "叔叔", "姑姑", "岳父", "岳母", "同学", "老同学", "小学同学", "初中同学",
                                    "高中同学", "大学同学", "公公", "婆婆", "同事", "室友", "邻居",
                                    "姐夫", "妹夫", "嫂子", "表嫂", "弟媳", "女婿", "儿媳", "小姨", "大姨",
                                    "姑妈", "舅妈", "侄子", "侄女", "外甥", "外甥女", "孙子", "孙女", "外孙",
                                    "外孙女", "姨妈", "姑父", "姨父", "婶婶", "伯伯", "大伯", "二姨", "三姨",
                                    "二舅", "大舅", "小舅", "二叔", "三叔", "小叔", "二姑", "大姑", "小姑")},
}  # fmt: skip
CHILDREN = frozenset(
    canonical or word
    for word, (canonical, predicate, first) in {**KIN_EN, **KIN_ZH}.items()
    if predicate == "CHILD_OF" and first
)
"""The relations of a speaker's child (son, 女儿, "my youngest"): the child is CHILD_OF the speaker."""
_EN_PLURAL_KIN = (
    r"kids|children|parents|brothers|sisters|siblings|friends|folks|grandparents|cousins|sons|daughters|"
    r"twins|triplets"
)
_EN_NOT_KIN = (
    r"(?![\s-]in[\s-]law|(?<=our partner)\s(?-i:[A-Z])|(?<=partner)s?\s(?:at|from)\s(?-i:[A-Z])|"
    r"\s(?:printers?|company|companies|portal|program|programme|agency|network|account|"
    r"requests?|shower|photos?|friends|group|chat|kitchen|brand|site|store|city|ship|app|call|agreement|"
    r"manager|marketplace|team|summit|event|ecosystem|integration|channel|meeting)\b)"
)
"""After a kin word, what makes it no relative: "father in law" (an in-law), "our sister company", "my
Brother printer", "friend request", "baby shower", "our partner portal", "our partner call", "our partner
Looma Systems", "our partner at Sunbelt Integrators" (a firm)."""
_EN_KIN = re.compile(
    r"\b(?P<det>my|our|the)\s(?:(?:little|wee|big|older|younger|baby|twin|best|eldest|oldest|youngest|late|dear|"
    r"beloved|new|lovely|amazing|wonderful|awesome|dear old|old)\s)*"
    rf"(?P<kin>{'|'.join(sorted((k for k in KIN_EN if ' ' not in k), key=len, reverse=True))}|best friend"
    rf"|(?P<plural>{_EN_PLURAL_KIN}))\b{_EN_NOT_KIN}(?P<poss>['’]s)?(?:(?:,?\s|\s(?:is|was)\s(?:called\s|named\s)?)"
    rf"(?P<name>{EN_PERSON_NAME}))?",
    re.I,
)
_ZH_BARE_KIN = (
    "老婆|老公|媳妇|奶奶|爷爷|外婆|外公|姥姥|姥爷|小姨|大姨|"
    "姑妈|舅舅|舅妈|表妹|表弟|表哥|表姐|公公|婆婆|老妈|老爸|闺女|儿子|女儿|娃|姐夫|妹夫|嫂子|表嫂|弟媳|老二|老三|妈妈|爸爸|宝宝|大宝|二宝"
)  # fmt: skip
"""Kin words that name the speaker's relative without 我 when they open a sentence (奶奶对青霉素过敏) or a
clause after 但是/可是/不过 (我不太能吃辣，但是老公是湖南人);
妈, 哥 and 姐 alone are left out: they also address people. After a comma another person may be the
topic (张伟结婚了，老婆在腾讯上班)."""
_ZH_FORMER = ("我原来的", "我以前的", "我之前的")
_ZH_KIN_WORD = "|".join(sorted(KIN_ZH, key=len, reverse=True))
_ANOTHER_MARRIES = re.compile(rf"嫁|我(?:的|家)?(?:{_ZH_KIN_WORD})[^，。]{{0,10}}(?:结婚|娶|订婚)")
"""Before a bare spouse word: another marries (我姐嫁到了…, 我小儿子下个月结婚), so the spouse is theirs."""
_ZH_IN_LAWS = "姐夫|妹夫|嫂子|弟媳"
_ZH_WITH_KIN = rf"(?<=我[和跟与])|(?<=^[和跟])|(?<=^[她他][和跟与])(?={_ZH_IN_LAWS})"
"""A kin word is the speaker's after 我和 (我和老公都在厦门) or an opening 跟 (跟女朋友在一起三年了), and an
in-law after an opening 她和 / 他和 (姐夫 is the speaker's, whoever "she" is; not after 客户刘女士说她和…)."""
_ZH_KIN = re.compile(
    rf"(?:我(?:的|们的|们家的?|家的?|那个|原来的|以前的|之前的)?|(?:^|(?<=[：:])|(?<=[，,]但是)|(?<=[，,]可是)|(?<=[，,]不过))(?=(?:{_ZH_BARE_KIN})(?!饼))|(?<=[，,])(?=老公|老婆|媳妇|爱人|儿子|女儿|闺女)|{_ZH_WITH_KIN})"
    # 朋友圈, 宝宝们, 对象存储, 厉害了我的哥 (an idiom): no kin
    rf"(?<!了我的)(?P<kin>{_ZH_KIN_WORD})(?![夫媳婿圈们])(?!存储)"
    r"(?:(?:(?:出生了|出世了)[，,]\s?(?:取名)?叫|叫|是|名叫)?(?P<name>小[\u4e00-\u9fff](?=\d)|(?:小[\u4e00-\u9fff]|[\u4e00-\u9fff]{2,3}?)(?=[，。！？；,在是也都今去最做跟和现"
    r"从的上]|$)))?"  # 我闺蜜小雅5月18号…: a 小X name before a date
)
_EN_NEWBORN = re.compile(rf"^(?P<kin>Baby) (?P<name>{EN_NAME_WORD}) (?=arrived|was born|is here)", re.I)
"""A birth announced with the baby's name ("Baby Clara arrived on Friday!"): the speaker's child."""
_EN_BARE_KIN = re.compile(r"\b(?P<kin>Mom|Dad|Mum|Grandma|Grandpa|Granny|Nana|Hubby)\b(?![,!?]|\s*$)")
"""Mom, Dad… capitalised without "my" are the speaker's parents ("Dad finally retired"); not when
addressed ("Thanks Mom!", "Mom, can you…") nor someone else's ("his Dad", "Jake's Mom")."""
_EN_NOT_BARE = re.compile(
    r"(?:\b(?:your|his|her|their|my|our|the|a|thanks|thank you|hi|hey|bye|love you|dear|ok|okay)\s*,?\s*"
    r"|['’]s\s)$",
    re.I,
)
_THE_KIN = frozenset({"wife", "husband", "hubby", "kids"})
_EN_KIN_WORD = "|".join(sorted(KIN_EN, key=len, reverse=True))
_EN_KIN_OF_KIN = re.compile(rf"\s(?P<kin>{_EN_KIN_WORD})\b", re.I)
_ZH_PLURAL_KIN = re.compile(
    r"(?:我(?:的|们的|家的?)?|(?:^|(?<=[，,；;]))(?=爸妈|父母))(?P<kin>爸妈|父母|家人|家里人|孩子们|两个孩子)"
)  # 父母都还在那边: a clause opening with 父母 speaks of the speaker's
_OTHERS_PLURAL_KIN = {
    "en": re.compile(
        rf"(?:\b(?-i:[A-Z])[\w-]*|\b(?i:my|our|his|her|their)\s[\w-]+)['’]s\s(?:{_EN_PLURAL_KIN})\b"
        r"|\b(?i:his|her|their)\s(?:parents|folks)\b|(?:\b(?i:my|our)\s)?\b(?:parents-in-law|in-laws)\b"
    ),
    "zh": re.compile(r"[\u4e00-\u9fff]{1,4}?(?<!我)(?<!我们)的(?:爸妈|父母|孩子们)"),
}
"""Someone else's parents or children ("Sarah's parents", 小王的爸妈, "my parents-in-law"): several
people, none of them the one named before (nor the speaker's own parents)."""
_ZH_KIN_OF_KIN = re.compile(
    rf"(?:的|(?=对象|老公|老婆|男朋友|女朋友|媳妇|未婚夫|未婚妻))(?P<kin>{_ZH_KIN_WORD})"
)
"""A relative's relative: 我姐的老公, or a partner without 的 (我姐对象是警察)."""
_ZH_KIN_OF_KIN_PLURAL = re.compile(rf"的(?:{_ZH_KIN_WORD})们")
EN_OWNED_KIN = re.compile(rf"['’]s\s(?:{_EN_KIN_WORD})\b", re.I)
"""A relative of the one named before ("Jake's Mom", "my sister's husband's brother")."""
ZH_THEIR_KIN = re.compile(rf"的?(?:{_ZH_KIN_WORD})")
EN_THEIR_KIN = re.compile(
    rf"\b(?:his|her)\s+(?:(?:older|younger|little|big|kid|baby|late|ex-?)\s*)?(?:{_EN_KIN_WORD})\b", re.I
)
"""A relative of "him" or "her" (他老婆, "his dad"): someone else, not the person "he" is."""
_EN_CHAIN_NAME = re.compile(rf",?\s(?P<name>{EN_PERSON_NAME})")


_ZH_PARENT_OF = re.compile(r"^(?P<child>[\u4e00-\u9fff]{1,3}?)(?:妈妈?|爸爸?|妈咪|爹)$")
"""A parent known by the child's name (豆豆妈, 乐乐爸): the child is named in what they write."""


def find_relatives(
    sentence: str, lang: Lang, actor: str | None, mentions: list[Mention], *, bare_parents: bool = True
) -> list[Mention]:
    """Return the relatives a speaker names in ``sentence`` as person mentions.

    A relative's mention has ``attributes["relation"]`` (the canonical kin word) and
    ``attributes["kin"]`` (the predicate to the actor); a plural ("my kids") has type
    ``group`` and never becomes an entity, nor do someone else's parents or children ("Sarah's
    parents", 小王的爸妈); both parents at once ("my parents", 我爸妈) are the mother, paired with the
    father (``engram.ingest.parents``). Without an actor, relatives are not named. ``bare_parents``
    False: "Mom" and "Dad" said bare are not the speaker's parents (a parent writing to a child calls the
    other parent so: ``to_a_child``).
    """
    out = [
        Mention(m.start(), m.end(), m.group(), "group") for m in _OTHERS_PLURAL_KIN[lang].finditer(sentence)
    ]
    if lang == "en":
        for match in _EN_KIN.finditer(sentence):
            kin = match["kin"].lower()
            if match["det"].lower() == "the" and kin not in _THE_KIN:
                continue
            if kin in ("parents", "folks") and actor and match["det"].lower() == "my":
                out.append(parent_pair(match.start(), match.end("kin"), actor, lang))
                continue
            if match["plural"] or kin == "kids":
                out.append(Mention(match.start(), match.end("kin"), kin, "group"))
                continue
            chained = _EN_KIN_OF_KIN.match(sentence, match.end()) if match["poss"] else None
            if chained and EN_OWNED_KIN.match(sentence, chained.end()):
                out.append(Mention(match.start(), chained.end(), chained.group(), "group"))
                continue  # my sister's husband's brother: too far to name or relate
            if chained:  # my sister's husband: the husband, who is not the speaker's relative
                named = _EN_CHAIN_NAME.match(sentence, chained.end())
                if named and not is_first_name(named["name"].split()[0]):
                    named = None
                out.append(_kin_of_kin(match, chained, actor, lang, named=named))
                continue
            canonical, predicate, _ = KIN_EN[kin]
            name = _named(match, mentions)
            out.append(_relative(match, name, kin, predicate, actor, lang))
        for match in _EN_NEWBORN.finditer(sentence):
            out.append(_relative(match, match["name"], "baby", "CHILD_OF", actor, lang))
        for match in _EN_BARE_KIN.finditer(sentence):
            if _EN_NOT_BARE.search(sentence, 0, match.start()) or overlaps(
                match.start(), match.end(), [(m.start, m.end) for m in out]
            ):
                continue
            kin = match["kin"].lower()
            if not bare_parents and kin in ("mom", "dad", "mum"):
                continue
            word = "husband" if kin == "hubby" else kin
            out.append(_relative(match, None, word, KIN_EN[kin][1], actor, lang))
    else:
        several = list(_ZH_PLURAL_KIN.finditer(sentence))
        groups = [(m.start(), m.end()) for m in several]
        out += [
            parent_pair(m.start(), m.end(), actor, lang)
            if actor and m["kin"] in ("爸妈", "父母")
            else Mention(m.start(), m.end(), m.group(), "group")
            for m in several
        ]
        for match in _ZH_KIN.finditer(sentence):
            if overlaps(match.start(), match.end("kin"), groups):  # 我爸妈: both parents, no one person
                continue
            bare = match.start() and sentence[match.start() - 1] in "，," and match.group()[0] != "我"
            if bare and (
                not sentence.startswith("我") or _ANOTHER_MARRIES.search(sentence, 0, match.start())
            ):
                # 张伟结婚了，老婆在腾讯上班: his wife (我们…搬到上海了，老公调到… is mine);
                # 我姐嫁到了…，老公… and 我小儿子下个月结婚，媳妇是湖南的: the spouse of the one who marries
                continue
            if not is_whole_word(sentence, match.start("kin"), match.end("kin")) and not is_whole_word(
                sentence, match.start(), match.end("kin")
            ):  # 老公司 (an old company), 老婆婆: no relative; 我妹 is one jieba word
                continue
            canonical, predicate, _ = KIN_ZH[match["kin"]]
            if match.group().startswith(_ZH_FORMER):  # 我原来的领导: no longer reported to
                predicate = None
            plural = _ZH_KIN_OF_KIN_PLURAL.match(sentence, match.end("kin"))
            if plural:  # 我姐的孩子们: several people, none of them the sister
                out.append(
                    Mention(match.start(), plural.end(), sentence[match.start() : plural.end()], "group")
                )
                continue
            chained = _ZH_KIN_OF_KIN.match(sentence, match.end("kin"))
            if chained and not is_whole_word(sentence, chained.start("kin"), chained.end("kin")):
                chained = None  # 我姐的老公司: her old company
            if chained:  # 我姐的老公: the husband, who is not the speaker's relative
                out.append(_kin_of_kin(match, chained, actor, lang))
                continue
            following = next(  # 我老婆刘敏不喜欢猫: a name jieba found next, not a word it knows
                (  # (我老婆张罗了一桌菜) unless a time follows the name it knows (我哥丁磊下个月…)
                    m
                    for m in mentions
                    if m.start == match.end()
                    and m.type == "person"
                    and (is_unknown_word(m.name) or _time_follows(sentence, m.end))
                ),
                None,
            )
            name = _named(match, mentions)
            end = None
            if name is None and following is not None:
                name, end = following.name, following.end
            out.append(_relative(match, name, canonical, predicate, actor, lang, end=end))
        named_after = _ZH_PARENT_OF.match(actor or "")
        for match in re.finditer(re.escape(named_after["child"]), sentence) if named_after else ():
            if not sentence.startswith(("妈", "爸"), match.end()) and not overlaps(
                match.start(), match.end(), [(m.start, m.end) for m in out]
            ):  # 豆豆妈 writes 豆豆开始学钢琴了: her child
                attributes: dict[str, Scalar | None] = {"relation": "孩子", "kin": "CHILD_OF"}
                out.append(
                    Mention(match.start(), match.end(), match.group(), "person", attributes, relative=True)
                )
    others = [(m.start, m.end) for m in out if m.type == "group"]
    return [
        m
        for m in out
        if m.type == "group"
        or not (overlaps(m.start, m.end, others) or _DENIED_KIN.search(sentence, 0, m.start))
    ]


_DENIED_KIN = re.compile(
    r"\b(?:(?:is|was|are|['’]s)\s+(?:not|never)|isn't|wasn't|aren't)\s+(?:my\s+)?$|不是我的?$", re.I
)
"""Before a relative: a denial ("ava is NOT my girlfriend", 她不是我女朋友)."""


def _kin_of_kin(
    first: re.Match[str],
    second: re.Match[str],
    actor: str | None,
    lang: Lang,
    *,
    named: re.Match[str] | None = None,
) -> Mention:
    """Return the relative of a relative ("my sister's husband", 我姐的老公): a person of their own
    whose kin predicate is to their ``owner`` (the first relative, itself related to the speaker);
    ``named``: the name that follows ("my sister's husband Tom")."""
    table = KIN_EN if lang == "en" else KIN_ZH
    (kin, inner_kin, _), (outer, outer_kin, _) = table[first["kin"].lower()], table[second["kin"].lower()]
    kin, outer = kin or first["kin"].lower(), outer or second["kin"].lower()
    owner = _relative(first, None, kin, inner_kin, actor, lang)
    if lang == "en":
        full, aliases = f"{owner.name}'s {outer}", [f"my {kin}'s {outer}", f"{kin}'s {outer}"]
    else:
        full, aliases = f"{owner.name}的{outer}", [f"我{kin}的{outer}", f"{kin}的{outer}"]
    if actor is None:
        return Mention(first.start(), second.end(), full, "group")
    attributes: dict[str, str | int | float | bool | None] = {"relation": outer, "kin": outer_kin}
    if named:
        full, aliases, end = named["name"], [], named.end()
    else:
        end = second.end()
    return Mention(first.start(), end, full, "person", attributes, aliases, relative=True, owner=owner)


def _time_follows(sentence: str, position: int) -> bool:
    """Return True when jieba reads a time word (下个月, 明天) at ``position`` of ``sentence``."""
    word = word_at(sentence, position)
    return word is not None and word[1] == "t"


def _named(match: re.Match[str], mentions: list[Mention]) -> str | None:
    """Return the name right after a kin word, when it is a person's name."""
    if not match["name"]:
        return None
    start = match.start("name")
    if match.string.startswith("是", match.end("kin")) and (
        match.string.startswith("的", match.end("name")) or match["name"].endswith("人")
    ):
        return None  # 老公是张伟的同学, 女朋友是成都人: who he or she is, not a name
    for mention in mentions:
        if mention.start == start and mention.type in ("person", "thing", "animal"):
            return mention.name
        if mention.start == start:
            return None  # 我老公是谷歌的…: an organisation, a place or a product is no one's name
    name = match["name"]
    if re.fullmatch(r"[A-Za-z]+(?: [A-Za-z]+)?", name):
        return name if is_first_name(name.split()[0]) else None
    if name in KIN_ZH:  # 老爸老妈: two relatives, not a father named 老妈
        return None
    if name in _TIME_DOUBLES:  # 我爸天天去钓鱼: every day, not a father named 天天
        return None
    if _time_or_school(match.string, start):  # 我爸周六…, 我妈常带我…, 我女儿小学…: no one named
        return None
    doubled = len(name) == 2 and name[0] == name[1]  # 乐乐, 豆豆: a child's or a pet's name
    if doubled or name[0] in "小阿":
        return name
    known = word_at(match.string, start)  # 我妈高兴得…: a word jieba knows as no noun is no name
    if known is not None and len(known[0]) > 1 and not known[1].startswith("n"):
        return None
    return name if cjk_person(name) else None


_NOT_A_NAME = frozenset(
    {"单子", "单位", "方案", "方面", "方式", "高端", "高层", "江湖", "金额",
     "北大", "浙大", "南大", "苏大", "川大", "武大", "厦大", "吉大", "山大", "人大", "交大", "华师"}
)  # fmt: skip
"""Words that begin with a surname's character but name no one (恒泰物流的单子，…; 苏大 is a
university)."""
_TIME_DOUBLES = frozenset({"天天", "常常", "时时", "年年", "月月", "刚刚", "渐渐", "偏偏", "往往", "明明"})


_SCHOOLS = frozenset({"小学", "中学", "初中", "高中", "大学", "幼儿园", "小时候"})


def _time_or_school(sentence: str, start: int) -> bool:
    """Return True when the word jieba reads at ``start`` is a time (周六, 周末), an adverb (常, 马上) or a
    school level: what follows a kin word there says when or where, not who."""
    found = word_at(sentence, start)
    return found is not None and (found[1] in ("t", "d") or found[0] in _SCHOOLS)


def cjk_person(name: str) -> bool:
    """Return True when a Chinese word reads as a person's name: a surname and one or two characters,
    or 小/老/阿 and one character."""
    if re.search(r"[的了在是们天年月号说跟和]", name) or name in _NOT_A_NAME:
        return False
    return (len(name) in (2, 3) and is_surname(name[0])) or (len(name) == 2 and name[0] in "小老阿")


def _relative(
    match: re.Match[str],
    name: str | None,
    kin: str,
    predicate: str | None,
    actor: str | None,
    lang: Lang,
    *,
    end: int | None = None,
) -> Mention:
    """Return the relative ``match`` names (``end``: where a name found after the match ends)."""
    end = end if end is not None else match.end("name") if name else match.end("kin")
    surface = match.group(0)[: match.end("kin") - match.start()]
    if actor is None and name is None:
        return Mention(match.start(), end, surface, "group")
    attributes: dict[str, str | int | float | bool | None] = {"relation": kin}
    if predicate:
        attributes["kin"] = predicate
    if name:
        return Mention(match.start(), end, name, "person", attributes, [], relative=True)
    if lang == "en":
        full, aliases = f"{actor}'s {kin}", [kin, f"my {kin}"]
    else:
        full, aliases = f"{actor}的{kin}", list(dict.fromkeys([kin, surface, f"我{kin}"]))
    return Mention(match.start(), end, full, "person", attributes, aliases, relative=True)


_TO_A_CHILD = re.compile(r"\b(?:honey|sweetheart|sweetie|darling|kiddo|pumpkin|munchkin)\b", re.I)


def to_a_child(text: str) -> bool:
    """Return True when ``text`` speaks fondly to its reader ("That's fine honey", "Maya darling,"): a
    parent to a child, perhaps, for whom "Dad" is the writer's partner, not the writer's father."""
    return bool(_TO_A_CHILD.search(text))
