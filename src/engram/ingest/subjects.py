"""Who a statement is about: speakers, relatives, named people and pronouns, in one sentence.

- First person (I, my, we, 我, 我们) is the episode's actor.
- A relative named by the speaker ("my brother", "the wife", 我哥哥, 我妈) is a person of its
  own: "<actor>'s brother" / "<actor>的哥哥" (aliases "brother", "my brother" / "哥哥", "我哥哥"),
  or the name that follows ("my sister Julia", 我老婆叫刘敏, 我弟弟何磊); its relation to the actor
  is a fact (``KIN``: SIBLING_OF, CHILD_OF, MARRIED_TO, PARTNER_OF, FRIEND_OF, REPORTS_TO) when
  the relative is named, a spouse or partner, or the subject or object of another fact.
  A relative's relative ("my sister's husband", 我姐的老公) is a person of their own related to
  that relative; 我爸妈 / 父母 name no one person; a kin word opening a sentence (奶奶对…过敏) is the
  speaker's relative with 我 dropped.
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
from engram.ingest.frames import ZH_ROLE
from engram.ingest.mentions import Mention, is_first_name, is_surname, overlaps
from engram.ingest.mentions_zh import is_unknown_word, is_whole_word, word_at
from engram.ingest.parents import parent_pair

Kin = tuple[str, str | None, bool]
"""(canonical word, predicate to the actor, whether the relative is the predicate's subject)."""

KIN_EN: dict[str, Kin] = {
    **dict.fromkeys(("brother", "sister", "sibling", "bro", "sis"), ("", "SIBLING_OF", True)),
    **dict.fromkeys(("mom", "mother", "mum", "mommy", "mama", "dad", "father", "daddy", "papa"),
                    ("", "CHILD_OF", False)),
    **dict.fromkeys(("son", "daughter", "kid", "child", "baby", "stepson", "stepdaughter"),
                    ("", "CHILD_OF", True)),
    **dict.fromkeys(("wife", "husband", "spouse", "hubby"), ("", "MARRIED_TO", False)),
    **dict.fromkeys(("girlfriend", "boyfriend", "partner", "fiance", "fiancé", "fiancee", "fiancée"),
                    ("", "PARTNER_OF", True)),
    **dict.fromkeys(("friend", "best friend", "buddy", "bestie", "pal"), ("", "FRIEND_OF", True)),
    **dict.fromkeys(("boss", "manager", "supervisor"), ("", "REPORTS_TO", False)),
    **dict.fromkeys(("grandma", "grandmother", "grandpa", "grandfather", "granny", "nana", "aunt", "uncle",
                     "cousin", "niece", "nephew", "grandson", "granddaughter", "stepmom", "stepdad",
                     "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law", "coworker",
                     "colleague", "roommate", "neighbor", "neighbour", "teammate", "mentor", "coach"),
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
    "闺女": ("女儿", "CHILD_OF", True), "娃": ("孩子", "CHILD_OF", True),
    **{w: (w, "MARRIED_TO", False) for w in ("老婆", "老公", "妻子", "丈夫", "爱人", "太太", "媳妇", "先生")},
    **{w: (w, "PARTNER_OF", True) for w in ("女朋友", "男朋友", "女友", "男友", "对象")},
    **{w: (w, "FRIEND_OF", True) for w in ("朋友", "好朋友", "闺蜜", "哥们", "发小")},
    **{w: (w, "REPORTS_TO", False) for w in ("领导", "老板", "上司")},
    **{w: (w, None, True) for w in ("表妹", "表哥", "表姐", "表弟", "堂哥", "堂姐", "堂弟", "堂妹",
                                    "奶奶", "爷爷", "外婆", "外公", "姥姥", "姥爷", "舅舅", "阿姨",
                                    "叔叔", "姑姑", "岳父", "岳母",
                                    "公公", "婆婆", "同事", "室友", "邻居",
                                    "姐夫", "妹夫", "嫂子", "表嫂", "弟媳", "女婿", "儿媳", "小姨", "大姨",
                                    "姑妈", "舅妈", "侄子", "侄女", "外甥", "外甥女", "孙子", "孙女", "外孙",
                                    "外孙女", "姨妈", "姑父", "姨父", "婶婶", "伯伯", "大伯")},
}  # fmt: skip
_EN_PLURAL_KIN = (
    r"kids|children|parents|brothers|sisters|siblings|friends|folks|grandparents|cousins|sons|daughters"
)
_EN_NOT_KIN = (
    r"(?![\s-]in[\s-]law|\s(?:printers?|company|companies|portal|program|programme|agency|network|account|"
    r"requests?|shower|photos?|friends|group|chat|kitchen|brand|site|store|city|ship|app)\b)"
)
"""After a kin word, what makes it no relative: "father in law" (an in-law), "our sister company", "my
Brother printer", "friend request", "baby shower", "our partner portal"."""
_EN_KIN = re.compile(
    r"\b(?P<det>my|our|the)\s(?:(?:little|big|older|younger|baby|twin|best|eldest|oldest|youngest|late|dear|"
    r"beloved|new|lovely|amazing|wonderful|awesome|dear old|old)\s)*"
    rf"(?P<kin>{'|'.join(sorted((k for k in KIN_EN if ' ' not in k), key=len, reverse=True))}|best friend"
    rf"|(?P<plural>{_EN_PLURAL_KIN}))\b{_EN_NOT_KIN}(?P<poss>['’]s)?(?:(?:,?\s|\s(?:is|was)\s(?:called\s|named\s)?)"
    rf"(?P<name>(?-i:[A-Z][a-z]+)(?:\s(?-i:[A-Z][a-z]+))?))?",
    re.I,
)
_ZH_BARE_KIN = (
    "老婆|老公|媳妇|奶奶|爷爷|外婆|外公|姥姥|姥爷|小姨|大姨|"
    "姑妈|舅舅|舅妈|表妹|表弟|表哥|表姐|公公|婆婆|老妈|老爸|闺女|儿子|女儿|娃|姐夫|妹夫|嫂子|表嫂|弟媳"
)  # fmt: skip
"""Kin words that name the speaker's relative without 我 when they open a sentence (奶奶对青霉素过敏);
妈, 哥 and 姐 alone are left out: they also address people. After a comma another person may be the
topic (张伟结婚了，老婆在腾讯上班)."""
_ZH_KIN_WORD = "|".join(sorted(KIN_ZH, key=len, reverse=True))
_ZH_IN_LAWS = "姐夫|妹夫|嫂子|弟媳"
_ZH_WITH_KIN = rf"(?<=我[和跟与])|(?<=^[和跟])|(?<=^[她他][和跟与])(?={_ZH_IN_LAWS})"
"""A kin word is the speaker's after 我和 (我和老公都在厦门) or an opening 跟 (跟女朋友在一起三年了), and an
in-law after an opening 她和 / 他和 (姐夫 is the speaker's, whoever "she" is; not after 客户刘女士说她和…)."""
_ZH_KIN = re.compile(
    rf"(?:我(?:的|们的|家的?)?|^(?=(?:{_ZH_BARE_KIN})(?!饼))|{_ZH_WITH_KIN})"
    rf"(?P<kin>{_ZH_KIN_WORD})(?![夫媳婿圈])(?!存储)"  # 我朋友圈: WeChat moments; 对象存储: object storage
    r"(?:(?:叫|是|名叫)?(?P<name>小[\u4e00-\u9fff](?=\d)|(?:小[\u4e00-\u9fff]|[\u4e00-\u9fff]{2,3}?)(?=[，。！？；,在是也都今去最做跟和"
    r"从的上]|$)))?"  # 我闺蜜小雅5月18号…: a 小X name before a date
)
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
_ZH_PLURAL_KIN = re.compile(r"我(?:的|们的|家的?)?(?P<kin>爸妈|父母|家人|家里人|孩子们|两个孩子)")
_OTHERS_PLURAL_KIN = {
    "en": re.compile(
        rf"(?:\b(?-i:[A-Z])[\w-]*|\b(?i:my|our|his|her|their)\s[\w-]+)['’]s\s(?:{_EN_PLURAL_KIN})\b"
        r"|\b(?i:his|her|their)\s(?:parents|folks)\b|(?:\b(?i:my|our)\s)?\b(?:parents-in-law|in-laws)\b"
    ),
    "zh": re.compile(r"[\u4e00-\u9fff]{1,4}?(?<!我)(?<!我们)的(?:爸妈|父母|孩子们)"),
}
"""Someone else's parents or children ("Sarah's parents", 小王的爸妈, "my parents-in-law"): several
people, none of them the one named before (nor the speaker's own parents)."""
_ZH_KIN_OF_KIN = re.compile(rf"的(?P<kin>{_ZH_KIN_WORD})")
_ZH_KIN_OF_KIN_PLURAL = re.compile(rf"的(?:{_ZH_KIN_WORD})们")
_EN_OWNED_KIN = re.compile(rf"['’]s\s(?:{_EN_KIN_WORD})\b", re.I)
"""A relative of the one named before ("Jake's Mom", "my sister's husband's brother")."""
_ZH_THEIR_KIN = re.compile(rf"的?(?:{_ZH_KIN_WORD})")
_EN_THEIR_KIN = re.compile(
    rf"\b(?:his|her)\s+(?:(?:older|younger|little|big|kid|baby|late|ex-?)\s*)?(?:{_EN_KIN_WORD})\b", re.I
)
"""A relative of "him" or "her" (他老婆, "his dad"): someone else, not the person "he" is."""
_EN_CHAIN_NAME = re.compile(r",?\s(?P<name>(?-i:[A-Z][a-z]+)(?:\s(?-i:[A-Z][a-z]+))?)")


def find_relatives(sentence: str, lang: Lang, actor: str | None, mentions: list[Mention]) -> list[Mention]:
    """Return the relatives a speaker names in ``sentence`` as person mentions.

    A relative's mention has ``attributes["relation"]`` (the canonical kin word) and
    ``attributes["kin"]`` (the predicate to the actor); a plural ("my kids") has type
    ``group`` and never becomes an entity, nor do someone else's parents or children ("Sarah's
    parents", 小王的爸妈); both parents at once ("my parents", 我爸妈) are the mother, paired with the
    father (``engram.ingest.parents``). Without an actor, relatives are not named.
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
            if chained and _EN_OWNED_KIN.match(sentence, chained.end()):
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
        for match in _EN_BARE_KIN.finditer(sentence):
            if _EN_NOT_BARE.search(sentence, 0, match.start()) or overlaps(
                match.start(), match.end(), [(m.start, m.end) for m in out]
            ):
                continue
            kin = match["kin"].lower()
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
            if not is_whole_word(sentence, match.start("kin"), match.end("kin")) and not is_whole_word(
                sentence, match.start(), match.end("kin")
            ):  # 老公司 (an old company), 老婆婆: no relative; 我妹 is one jieba word
                continue
            canonical, predicate, _ = KIN_ZH[match["kin"]]
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
                (  # (我老婆张罗了一桌菜)
                    m
                    for m in mentions
                    if m.start == match.end() and m.type == "person" and is_unknown_word(m.name)
                ),
                None,
            )
            name = _named(match, mentions)
            end = None
            if name is None and following is not None:
                name, end = following.name, following.end
            out.append(_relative(match, name, canonical, predicate, actor, lang, end=end))
    others = [(m.start, m.end) for m in out if m.type == "group"]
    return [m for m in out if m.type == "group" or not overlaps(m.start, m.end, others)]


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


def _named(match: re.Match[str], mentions: list[Mention]) -> str | None:
    """Return the name right after a kin word, when it is a person's name."""
    if not match["name"]:
        return None
    start = match.start("name")
    for mention in mentions:
        if mention.start == start and mention.type in ("person", "thing", "animal"):
            return mention.name
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
    return name if name[0] in "小阿" or doubled or cjk_person(name) else None


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


# ── subject candidates ───────────────────────────────────────────────────────────────────

CandidateKind = Literal["actor", "possessive", "mention", "block", "other"]
"""``other``: a person named by no name (老师, 邻居): the subject of its clause, so not the speaker,
but no name to give a fact; unlike ``block`` it says nothing about the rest of the sentence."""

_EN_I = re.compile(r"(?<!of )(?:(?-i:\bI\b)|\b(?:I'm|I've|I'd|I'll|me|my|mine|myself|im|ive)\b|"
                   r"(?P<we>\b(?:we|we're|we've|"
                   r"we'll|our|us|ourselves)\b))", re.I)  # fmt: skip
"""First person; after "of" ("a friend of mine") it is part of another noun phrase, no subject."""
_EN_BLOCK = re.compile(
    r"\b(?:(?P<third>he|she|he's|she's|he'll|she'll)|you|you're|you've|you'll|u|ya|(?P<plural>they|they're|they've)|"
    r"(?-i:it|It|it's|It's|IT(?!\s(?:director|manager|lead|head|team|department|dept|support|admin|ops)\b))|everyone|everybody|someone|somebody|people|anyone|nobody|"
    r"(?:(?<=^)|(?<=[,.;!?]\s)|(?<=\band\s)|(?<=\bbut\s)|(?<=\bso\s))an? (?:friend|colleague|coworker|"
    r"co-worker|neighbou?r|relative|stranger|guy|girl|woman|man|lady|buddy))\b",
    re.I,
)
"""Subject pronouns only (possessives such as "their subscription" and objects such as "told him"
are no subject), and people named by no name opening a clause ("A friend made it"); IT is a
department ("IT director at Pinecrest"), not a pronoun."""
_ZH_I = re.compile(r"(?<![跟和与同替帮让叫请给])(?:(?P<we>我们|咱们)|我|本人|俺)")
_ZH_BLOCK = re.compile(
    r"(?<!@)(?:你们|你|您|(?P<plural>他们|她们)|(?P<third>(?<![吉其])他|她)|它|客户|对方|大家|别人|(?<!所)有人)"
)
"""Someone else (你, 他们, 大家…): not the speaker. "@大家", "@所有人" only address a notice."""
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
    r"丈母娘|老丈人|小姨子|小舅子|大伯|叔叔|姑姑|舅舅|姨妈|"
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
    r",\s+who\s+(?:[\w'’-]+\s+){0,2}$|\b(?:join|joins|joined|joining|welcome|welcomes|welcomed)\s+$", re.I
)
""""…, who joins us as Head of Sales", "Maria is joining us as…": "us" is the object of whoever joins."""
_ZH_POSSESSIVE = re.compile(r"我(?:们)?(?:的|公司|家|团队|部门|这边|组|项目)")
"""First person as a possessive or an object ("our CTO", 我们公司的, "from me"): the actor only when
nothing else is the subject."""
_EN_AND_ACTS = re.compile(r"\band\s+$")
_EN_VERB_NEXT = re.compile(
    r"\s+(?:works|lives|moved|is|was|has|had|joined|left|runs|leads|reports|studies|loves|likes)\b"
)
_EN_WHO = re.compile(r",\s(?P<who>who)\b", re.I)
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
        named = [m.name for m in mentions if m.type == "organisation" and m.end <= position]
        named = named or self.organisations
        return named[-1] if named else None


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
        if lang == "zh" and _ZH_THEIR_KIN.match(sentence, match.end()):
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
    if lang == "en":
        # "Mike said his dad retired": the dad, no one we can name
        out += [Candidate(m.start(), m.end(), "block", None, 1.0) for m in _EN_THEIR_KIN.finditer(sentence)]
        # "…replaced Alan Cross, who retired in August": who is the name before it
        for match in _EN_WHO.finditer(sentence):
            who = next((m for m in mentions if m.end == match.start() and m.type == "person"), None)
            if who is not None:
                out.append(Candidate(match.start("who"), match.end(), "mention", who.name, 0.9, who))
    governed = _EN_GOVERNED if lang == "en" else _ZH_GOVERNED
    for mention in mentions:
        described = lang == "en" and mention.type == "person" and _EN_APPOSITIVE.match(sentence, mention.end)
        if lang == "en" and _EN_OWNED_KIN.match(sentence, mention.end):
            out.append(Candidate(mention.start, mention.end, "block", None, 1.0, mention))
            continue  # "Jake's Mom works at Target": his mother's job, not Jake's (she is no one named)
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
    if any(c.kind != "possessive" for c in left):
        left = [c for c in left if c.kind != "possessive" or c is left[0]]
    for candidate in reversed(left):
        mention = candidate.mention
        if mention is not None and mention.type == "thing" and sentence[mention.end : verb].strip(" ,"):
            continue  # an unknown name is a subject only right before its verb
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
    return [name for name in dict.fromkeys(str(c.name) for c in people[first : last + 1]) if name != subject]


def _object_of_verb(sentence: str, lang: Lang, candidate: Candidate) -> bool:
    """Return True when an English name is the object of the verb or preposition before it."""
    governed = _EN_GOVERNED.search(sentence, 0, candidate.start) if lang == "en" else None
    return governed is not None and not governed.group().lower().startswith("and")


def _person(candidate: Candidate) -> bool:
    return candidate.mention is None or candidate.mention.type == "person"
