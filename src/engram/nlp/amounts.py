"""Parse amounts and Chinese numerals: "500k", "$1.2M", "80万", "八十万", "一万五".

``AMOUNT`` is the regular expression of an amount phrase inside a sentence; ``parse_amount``
reads its value and ``cn_to_int`` the value of a Chinese numeral.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_CN_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
             "八": 8, "九": 9}  # fmt: skip
_CN_SMALL = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}
_MULTIPLIER = {"k": 1_000, "thousand": 1_000, "grand": 1_000, "m": 1_000_000, "mn": 1_000_000,
               "million": 1_000_000, "b": 1_000_000_000, "bn": 1_000_000_000, "billion": 1_000_000_000,
               "百": 100, "千": 1_000, "万": 10_000, "亿": 100_000_000}  # fmt: skip

CURRENCY_CODES = frozenset(
    ("USD", "EUR", "GBP", "CNY", "RMB", "JPY", "CHF", "SEK", "NOK", "DKK", "CZK", "PLN", "HUF", "AUD", "CAD",
     "NZD", "INR", "HKD", "SGD", "KRW", "BRL", "MXN", "ZAR", "TRY", "AED")
)  # fmt: skip
"""ISO 4217 codes of the currencies amounts are written in: never the name of a thing."""
_CODES = "|".join(sorted(CURRENCY_CODES))
AMOUNT = (
    rf"(?:[$€£¥￥]\s?|(?-i:{_CODES})\s)?(?:\d[\d,]*(?:\.\d+)?|[零〇一二两三四五六七八九十百千万亿]+)"
    r"(?:\s?(?:k|K|m|M|mn|bn|B|million|billion|thousand|grand)\b|\s?[来多余]?[百千万亿]+|(?<=\d)[wW](?:\d(?!\d))?(?=[\u4e00-\u9fff，。！？；、]|$))?"
    rf"(?:\s?(?:dollars|bucks|usd|rmb|yuan|euros?|(?-i:{_CODES}))\b|\s?(?:元|块钱|块|美元|人民币|欧元))?"
)
_MONEY = re.compile(
    rf"[$€£¥￥元块万亿千百]|\d\s?(?:k|m|mn|bn|w)\b|{_CODES}|yuan|dollars?|euros?|bucks|million|thousand|grand",
    re.I,
)
_NUMBER = re.compile(
    r"(\d[\d,]*(?:\.\d+)?)\s*(?:(k|mn|m|bn|b|million|billion|thousand|grand)\b|([百千万亿]+))?", re.I
)
_CN_NUMBER = re.compile(r"[零〇一二两三四五六七八九十百千万亿]+")
_ROUGHLY = re.compile(r"(?<=[\d十百千])[来多余](?=[百千万亿])")
"""三十来万, 二十多万: "some", read as the round number."""
_WAN = re.compile(r"(?<=\d)[wW](?:(?P<thousands>\d)(?!\d))?(?![A-Za-z])")
"""8w, 60W, 3w5 (3.5万): chat shorthand for 万; the AMOUNT phrase takes it only before Chinese."""


def is_money(amount: str) -> bool:
    """Return whether an amount phrase (an ``AMOUNT`` match) says money, not a count or a term:
    a currency or a magnitude ("$48k", 7.2万, "120k", 两千), not a bare "3" or 180."""
    return bool(_MONEY.search(amount))


def cn_to_int(text: str) -> int | None:
    """Return the value of a Chinese numeral (八十万 → 800000, 一万五 → 15000), None if not one."""
    if not text or any(ch not in _CN_DIGIT and ch not in _CN_SMALL and ch not in _CN_BIG for ch in text):
        return None
    total = section = number = 0
    last_unit = 0
    for ch in text:
        if ch in _CN_DIGIT:
            number = _CN_DIGIT[ch]
            last_unit = 0 if ch in "零〇" else last_unit
        elif ch in _CN_SMALL:
            last_unit = _CN_SMALL[ch]
            section += (number or 1) * last_unit
            number = 0
        elif ch == "万":
            total += (section + number) * 10_000
            section = number = 0
            last_unit = 10_000
        else:
            total = (total + section + number) * 100_000_000
            section = number = 0
            last_unit = 100_000_000
    if number and last_unit >= 100:  # colloquial 一万五 = 15000, 三千五 = 3500
        number *= last_unit // 10
    return total + section + number


def parse_amount(text: str) -> int | float | None:
    """Return the amount a phrase names: an int ("500k", "$1.2M", "80万", "八十万", "50万元", "8w",
    "三十来万" → 300000: an approximate amount is its round number), a float to the cent when it has
    cents ("$3.85" → 3.85).

    Currency is not converted (the unit stays in the fact's sentence); None when no number.
    """
    text = _ROUGHLY.sub("", _WAN.sub(lambda m: f".{m['thousands']}万" if m["thousands"] else "万", text))
    match = _NUMBER.search(text)
    if match:
        try:
            number = Decimal(match.group(1).replace(",", ""))
        except InvalidOperation:
            return None
        if match.group(2):
            number *= _MULTIPLIER[match.group(2).lower()]
        for unit in match.group(3) or "":
            number *= _MULTIPLIER[unit]
        whole = int(number)
        return whole if number == whole else float(round(number, 2))
    numeral = _CN_NUMBER.search(text)
    return cn_to_int(numeral.group()) if numeral else None
