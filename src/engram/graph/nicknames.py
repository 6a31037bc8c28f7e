"""Name forms that point at the same person: nicknames and honorifics, in Chinese and English.

- Chinese: a surname with a familiar prefix or a title (小李, 老李, 阿李, 李总, 李经理, 李工, 李老师)
  is a form of a full name with that surname (李强); compound surnames (欧阳, 司马) count whole.
- English: a first name and its nicknames from the ``nicknames`` dataset (Bob ↔ Robert, Liz ↔
  Elizabeth; carltonnorthern/nicknames, Apache-2.0), with the same surname or none (Bob ↔
  Robert Miller); a title and a surname (Mr. Holmes, Dr. Watson) ↔ a full name with that surname.

``form_similarity`` returns name evidence in [0, 1): a form is weaker than an exact name, and
only becomes a merge with the attributes and context that resolution adds (engram.graph.resolve).
"""

from __future__ import annotations

import re
from functools import cache

from engram.nlp.names import CHINESE_COMPOUND_SURNAMES, CHINESE_TITLES

_CN_PREFIXES = ("小", "老", "阿")
_CN_TITLES = (*CHINESE_TITLES, "董", "哥", "姐", "叔", "姨", "sir")
"""Titles, plus familiar forms (李哥, 王姨) that name a person to resolution but are too loose for
the extractor to read as a mention on their own."""
_EN_TITLES = frozenset(("mr", "mrs", "ms", "miss", "dr", "prof", "sir", "madam", "mx"))
CN_FORM = 0.75
"""A surname form (小李) against a full name with that surname (李强)."""
EN_FULL_NICKNAME = 0.9
"""Bob Chang against Robert Chang: a nickname and the same surname."""
EN_TITLE_SURNAME = 0.75
"""Mr. Holmes against Sherlock Holmes."""
EN_FIRST_ONLY = 0.6
"""Bob (no surname) against Robert Miller."""


@cache
def _namer() -> object:
    from nicknames import NickNamer

    return NickNamer()


def same_first_name(a: str, b: str) -> bool:
    """Return True when two first names are equal or one is a nickname of the other (Bob, Robert)."""
    a, b = a.casefold(), b.casefold()
    if a == b:
        return True
    namer = _namer()
    return b in namer.nicknames_of(a) or b in namer.canonicals_of(a)  # type: ignore[attr-defined]


def _cjk_name(name: str) -> bool:
    return re.fullmatch(r"[\u4e00-\u9fff]{2,4}", name) is not None


def chinese_surname_form(name: str) -> str | None:
    """Return the surname a familiar or titled form names (小李 → 李, 李经理 → 李), else None."""
    for prefix in _CN_PREFIXES:
        rest = name.removeprefix(prefix)
        if rest != name and (len(rest) == 1 or rest in CHINESE_COMPOUND_SURNAMES):
            return rest
    for title in _CN_TITLES:
        rest = name.removesuffix(title)
        if rest != name and (len(rest) == 1 or rest in CHINESE_COMPOUND_SURNAMES):
            return rest
    return None


def chinese_surname(full_name: str) -> str | None:
    """Return the surname of a full Chinese name (李强 → 李, 欧阳娜娜 → 欧阳), else None."""
    if not _cjk_name(full_name) or chinese_surname_form(full_name) is not None:
        return None
    return full_name[:2] if full_name[:2] in CHINESE_COMPOUND_SURNAMES else full_name[0]


def _english_parts(name: str) -> tuple[str | None, str | None, str | None] | None:
    """Return (title, first, last) of an English name, or None for something else."""
    words = [w for w in re.split(r"[\s.]+", name.strip()) if w]
    if not words or not all(re.fullmatch(r"[A-Za-z][A-Za-z'\-]*", w) for w in words):
        return None
    title = words[0].casefold() if words[0].casefold() in _EN_TITLES else None
    rest = words[1:] if title else words
    if not rest or len(rest) > 3:
        return None
    if title:
        return title, None, rest[-1].casefold()
    return None, rest[0].casefold(), rest[-1].casefold() if len(rest) > 1 else None


@cache
def form_keys(name: str) -> frozenset[str]:
    """Return keys two names share when one may be a form of the other (a cheap filter first).

    Chinese: the surname (李强, 小李, 李总 → ``cn:李``); English: the surname and every
    canonical first name (Bob → ``en:robert``, Robert Miller → ``en:robert``, ``en:miller``).
    """
    name = name.strip()
    surname = chinese_surname_form(name) or chinese_surname(name)
    if surname is not None:
        return frozenset({f"cn:{surname}"})
    parts = _english_parts(name)
    if parts is None:
        return frozenset()
    _, first, last = parts
    keys = {f"en:{last}"} if last else set()
    if first is not None:
        namer = _namer()
        firsts = {first, *namer.canonicals_of(first), *namer.nicknames_of(first)}  # type: ignore[attr-defined]
        keys |= {f"en:{f}" for f in firsts}
    return frozenset(keys)


def form_similarity(a: str, b: str) -> float:
    """Return the evidence in [0, 1) that names ``a`` and ``b`` are forms of one person's name."""
    a, b = a.strip(), b.strip()
    if not a or not b or a == b:
        return 0.0
    return max(_chinese(a, b), _chinese(b, a), _english(a, b), _english(b, a))


def _chinese(form: str, full: str) -> float:
    surname = chinese_surname_form(form)
    return CN_FORM if surname is not None and chinese_surname(full) == surname else 0.0


def _english(short: str, full: str) -> float:
    parts, whole = _english_parts(short), _english_parts(full)
    if parts is None or whole is None or whole[0] is not None:
        return 0.0
    title, first, last = parts
    if title is not None:
        return EN_TITLE_SURNAME if whole[2] is not None and last == whole[2] else 0.0
    assert first is not None and whole[1] is not None
    if whole[2] is None:  # Mel and Melanie: first names alone
        alone = last is None and first != whole[1]
        return EN_FIRST_ONLY if alone and same_first_name(first, whole[1]) else 0.0
    if last is None:
        return EN_FIRST_ONLY if same_first_name(first, whole[1]) else 0.0
    if last == whole[2] and first != whole[1] and same_first_name(first, whole[1]):
        return EN_FULL_NICKNAME
    return 0.0
