"""Names jieba's dictionary misses: a brand cut off before a company's industry word (恒/拓 精密机械,
朗升/v 医疗器械), an account opening a note, a person named after 叫 or 是.

An unknown brand is often split into single characters or tagged as a verb or a place, so the
organisation read from the industry word alone (精密机械, 医疗器械) names every company of its trade.
The two characters before it are taken back when jieba gives them a name's tag, or a verb's tag on a
word its dictionary hardly knows (朗升, 衡信, 启明), or two single characters tagged as names or nouns;
not a city said before the company (青岛海澜食品 stays 海澜食品) nor a verb of moving (调去研发部).

A CRM note also opens with the account's name alone, set off by a space (翰墨文创 签了！, 铂澜 合同签了,
蓝鲸智造 回访): a name whose first word jieba's dictionary hardly knows is the organisation the note is
about (``account_header``); not a note's title (会议纪要, 周报), a time, a pronoun, a person or a place.

A place jieba does not know is named where one moves or lives (搬到了回龙观, 住在玉泉路附近): two to four
characters jieba reads as one word it hardly knows, or a street's (``home_place``). A person jieba cuts
apart (何/志强) is named after 叫 or 是 at a clause's end (接替的是何志强, 新来的叫汪晨):
a common surname and one or two characters the dictionary does not know as a word (``named_person``;
not 是李子, 是周末, 是高手).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.graph.places import is_chinese_place
from engram.ingest.frames import ZH_ROLE
from engram.ingest.lexicon import DEFAULT_GAZETTEER, SURNAMES
from engram.nlp.names import CHINESE_COMPOUND_SURNAMES
from engram.nlp.tokenize import has_cjk, jieba_module, tag_words

_NAME_TAGS = frozenset({"nr", "nrt", "nrfg", "nz", "ns", "j", "ng", "zg"})
_SINGLE_TAGS = _NAME_TAGS | {"n"}
_TRADE_TAGS = frozenset({"n", "nz", "vn"})
"""What the first word of an organisation named by its trade alone is tagged (精密机械/n, 外国语/nz)."""
_MOVES = re.compile(r"[调入加去到来回跳派离进转]")
"""The first character of the verbs jieba makes up before a unit or a firm (调去, 入职, 调到 研发部)."""
_COMMON_WORD = 100
"""jieba's dictionary frequency from which a two-character word tagged a verb is a verb (拜访 392,
采购 1843), not an unknown brand (朗升, 衡信: none; 启明: 25)."""


def _hardly_known(word: str) -> bool:
    """Return True when jieba's dictionary knows ``word`` as a word less often than ``_COMMON_WORD``."""
    return bool(jieba_module().dt.FREQ.get(word, 0) < _COMMON_WORD)


_HEADER = re.compile(r"^(?P<name>[\u4e00-\u9fff]{2,8})(?:[ \u3000]+|[：:]\s?)(?=[\u4e00-\u9fff])")
_ENDS_IN_A_ROLE = re.compile(rf"(?:{ZH_ROLE})$")
_NOTE_TITLES = re.compile(
    r"纪要|周报|日报|月报|备注|通知|公告|记录|总结|待办|更新|进展|提醒|简报|复盘|汇报|小结|"
    r"客诉|投诉|工单|反馈|跟进|拜访|需求|诉求|问题|处理|状态|结论|其他|说明|背景|目标|计划|风险|线索|回访|补充|[群部组]$"
)


def account_header(sentence: str, words: Sequence[tuple[str, str]]) -> tuple[int, int, str, str] | None:
    """Return the organisation a note's first words name when set off by a space (see the module
    docstring) as (start, end, name, "organisation"), else None. ``words`` are jieba's tagged words
    of ``sentence``."""
    found = _HEADER.match(sentence)
    if found is None or not words:
        return None
    name = found.group("name")
    inside, length = [], 0
    for word, tag in words:
        if length >= len(name):
            break
        inside.append((word, tag))
        length += len(word)
    if length != len(name):
        return None  # jieba read a word across the space
    first, flag = inside[0]
    if (  # 钱坤的电话是, 今天, 各位: words of no name
        any(not tag.startswith(("n", "g", "j")) and tag != "x" for _, tag in inside)
        or _NOTE_TITLES.search(name)
        or _ENDS_IN_A_ROLE.search(name)  # 京东客服 严伟: a signature's firm and role, not one name
        or is_chinese_place(name)
        or (flag.startswith("nr") and (len(inside) == 1 or not _hardly_known(inside[-1][0])))
        or not _hardly_known(first if len(first) > 1 else name)  # 客户, 大家: words, not a brand (鼎/睿: one)
    ):  # 张伟 离职了, 宁薇邮箱 …: a person, or something of theirs
        return None
    return 0, len(name), name, "organisation"


_DEAL_OWNER = re.compile(
    r"(?:^|(?<=[，。！；：\s]))(?P<name>[\u4e00-\u9fff]{2,4}?)(?:的)?(?:正式|新|年度|服务|采购|首年)?"
    r"(?:合同|订单|续约|续费|年框|框架协议)"
    r"(?=(?:已经|终于|正式|也)?(?:签了|签下|签署|已签|搞定|拿下))"
)


def deal_owner(sentence: str) -> list[tuple[int, int, str, str]]:
    """Return the customer a signed deal is named after (恒拓合同签了！, 铂澜续约搞定了) when jieba hardly
    knows the name as a word, as (start, end, name, "organisation"): a brand, not 这个/新的/我们."""
    out = []
    for found in _DEAL_OWNER.finditer(sentence):
        name = found.group("name")
        first = tag_words(name)[0]
        if (
            _hardly_known(name)
            and not name.endswith("的")
            and not first[1].startswith((*_NOT_IN_A_NAME, "r"))
        ):
            out.append((found.start("name"), found.end("name"), name, "organisation"))
    return out


def brand_start(words: Sequence[tuple[str, str]], offsets: Sequence[int], start: int) -> int:
    """Return where an organisation found at ``start`` (a word offset) begins with its brand taken
    back from the words before it, else ``start``: only when the organisation opens with a common
    noun (精密机械, 医疗器械, 外国语), not with a place or a name (北京总部, 麦田数科)."""
    index = next((i for i, offset in enumerate(offsets) if offset == start), 0)
    if index == 0 or words[index][1] not in _TRADE_TAGS:
        return start
    word, flag = words[index - 1]
    if len(word) == 2 and has_cjk(word) and not _MOVES.match(word) and not is_chinese_place(word):
        unknown_verb = flag.startswith("v") and _hardly_known(word)
        return offsets[index - 1] if flag in _NAME_TAGS or unknown_verb else start
    singles = words[index - 2 : index] if index >= 2 else ()
    if len(singles) == 2 and all(len(w) == 1 and has_cjk(w) and f in _SINGLE_TAGS for w, f in singles):
        return offsets[index - 2]
    return start


_NAMED = re.compile(
    r"(?<=叫)(?P<name>[\u4e00-\u9fff]{2,3}?)(?=[，。；！？、,\s]|$|的)|(?<=是)(?P<said>[\u4e00-\u9fff]{2,3}?)(?=[，。；！？、,\s]|$)"
)
"""A name after 叫 (一个叫汪晨的), or after 是 ending the clause (接替的是何志强; not 是谷歌的工程师)."""


_ROLE = re.compile(ZH_ROLE)
_AFTER_ROLE = re.compile(
    r"\s?(?P<name>[\u4e00-\u9fff]{2,3}?)(?=[\s，。；！？：:（(、,]|$|说|表示|提到|认为|反馈)"
)
"""A name right after a role, to the clause's end or a verb of saying (采购经理 欧阳敏 说)."""


_NOT_IN_A_NAME = ("u", "v", "m", "t", "a", "d", "p", "c")
"""Tags of a word no name holds: a particle, a verb, a number, a time, an adjective, an adverb…"""


def _read_as_a_name(name: str) -> bool:
    """Return True when jieba reads ``name`` as a person's (孙丽/nr, 周/nr 建平) or it opens with a compound
    surname (欧阳敏); not 易/a 谈/v (销售易谈) nor 周会/n."""
    if name[:2] in CHINESE_COMPOUND_SURNAMES:
        return True
    words = tag_words(name)
    if len(words) == 1:
        return words[0][1].startswith("nr")
    return not any(flag.startswith(_NOT_IN_A_NAME) for _, flag in words)


def cut_name(words: Sequence[tuple[str, str]], offsets: Sequence[int]) -> list[tuple[int, int, str, str]]:
    """Return the people jieba cuts after their surname, before a verb (吴/nr 婷婷/z 升职了 → 吴婷婷): a
    common surname tagged a name alone, then one or two characters of no word's tag a name lacks (or two
    jieba calls an adjective, opening a clause: 郝/nr 明远/a 提前退休了), before a verb, an adverb or an
    idiom, the whole hardly known as a word, as (start, end, name, "person"). ``words`` are jieba's tagged
    words of the sentence, ``offsets`` where each begins."""
    out = []
    for index, (word, flag) in enumerate(words[:-2]):
        given, given_flag = words[index + 1]
        following = words[index + 2][1]
        name = word + given
        if (
            flag == "nr"
            and word in SURNAMES
            and 1 <= len(given) <= 2
            and has_cjk(given)
            and (
                not given_flag.startswith((*_NOT_IN_A_NAME, "x", "r", "nr", "ns"))
                or (given_flag == "a" and len(given) == 2 and (index == 0 or words[index - 1][1] == "x"))
            )  # 郝/nr 明远/a opening a clause
            and following.startswith(("v", "x", "d", "i"))  # 提前退休/i, 已/d
            and _hardly_known(name)
            and not is_chinese_place(name)
        ):
            out.append((offsets[index], offsets[index] + len(name), name, "person"))
    return out


def named_person(sentence: str) -> list[tuple[int, int, str, str]]:
    """Return the people named after 叫 or 是 at a clause's end, right after a role (采购经理 欧阳敏 说,
    信息科主任周建平。) or by a doubled given name (刘思思休产假了) (see the module docstring) as (start, end,
    name, "person")."""
    out = [
        (found.start(), found.end(), found.group(), "person")
        for found in _DOUBLED.finditer(sentence)
        if found.group()[0] in SURNAMES and found.group() not in DEFAULT_GAZETTEER
    ]
    after_roles = (_AFTER_ROLE.match(sentence, role.end()) for role in _ROLE.finditer(sentence))
    for found in (*_NAMED.finditer(sentence), *(m for m in after_roles if m is not None)):
        group = str(found.lastgroup)  # "name" after 叫 or a role, "said" after 是
        name = found.group(group)
        if (
            (name[0] in SURNAMES or name[:2] in CHINESE_COMPOUND_SURNAMES)
            and _hardly_known(name)
            and not _ROLE.fullmatch(name)
            and _read_as_a_name(name)
            and not is_chinese_place(name)
            and name not in DEFAULT_GAZETTEER
        ):
            out.append((found.start(group), found.end(group), name, "person"))
    return out


_DOUBLED = re.compile(
    r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff](?P<given>[\u4e00-\u9fff])(?P=given)(?![\u4e00-\u9fff]{0,1}[们儿])"
)
"""A surname and a doubled given name opening a word (刘思思, 王婷婷), which jieba cuts apart: a person."""
_HOME = re.compile(
    r"(?:(?<=搬到)|(?<=搬到了)|(?<=搬去)|(?<=搬去了)|(?<=住在)|(?<=房子在)|(?<=，在))"
    r"(?!了)(?P<name>[\u4e00-\u9fff]{2,4}?)(?=[，。！？；,]|$|附近|那边|这边|了)"
)


_PLACE_END = re.compile(r"[路街村镇湾园苑桥庄港]$")
"""The last character of a street's, a village's or an estate's name (玉泉路, 翠苑)."""


def home_place(sentence: str) -> list[tuple[int, int, str, str]]:
    """Return the places named where one moves or lives (see the module docstring) as (start, end, name,
    "place")."""
    out = []
    for found in _HOME.finditer(sentence):
        name = found.group("name")
        one_word = (
            len(list(jieba_module().cut(name))) == 1
        )  # not 无锡/老家, 上海/住: a place known, then more
        if one_word and (_hardly_known(name) or _PLACE_END.search(name)) and name[0] not in SURNAMES:
            out.append((found.start(), found.end(), name, "place"))
    return out
