"""Refinement: is a new claim's target a finer version of a live fact's (杭州 → 西湖区, 2024-06 → 2024-06-05)?

Evidence, any of:

- places: a PART_OF fact in the graph (Capitol Hill PART_OF Seattle), a name that extends the
  other (杭州 → 杭州西湖区), or the gazetteers (engram.graph.places: 浙江 ⊃ 杭州, Texas ⊃ Austin);
- dates and other literals: a value that extends the other (2024-06 → 2024-06-05 10:00);
- numbers: the coarser one was approximate (约/大概/左右/about/around/roughly… in its sentence)
  and the finer one lies within its rounding (五十万左右 → 52万: within ±50,000) or 10 % of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engram.graph.arbitrate import Claim
from engram.graph.places import contains
from engram.models.graph import Fact, Scalar
from engram.nlp.names import normalise_name
from engram.storage.protocol import Txn

APPROXIMATE = re.compile(
    r"约|大约|大概|左右|差不多|上下|估计|about|around|roughly|approximately|approx\.?|~|ish\b", re.IGNORECASE
)
PLACE_TYPES = frozenset({"place", "thing"})
NUMBER_SLACK = 0.1
"""A finer number within this share of an approximate one refines it."""


def refiner(txn: Txn, group_id: str) -> Callable[[Claim, Fact], bool]:
    """Return the test "the claim's target is a finer version of the fact's" over ``txn``'s graph."""

    def refines(claim: Claim, fact: Fact) -> bool:
        if claim.object is not None and fact.object is not None:
            parents = {f.object for f in txn.facts_about(group_id, [claim.object], ["PART_OF"])}
            if fact.object in parents:
                return True
            new, old = txn.entity(group_id, claim.object), txn.entity(group_id, fact.object)
            if new is None or old is None:
                return False
            if narrows(old.name, new.name):
                return True
            if new.type not in PLACE_TYPES or old.type not in PLACE_TYPES:
                return False
            fines = (new.name, *new.aliases)
            return any(contains(coarse, fine) for coarse in (old.name, *old.aliases) for fine in fines)
        if claim.value is not None and fact.value is not None:
            return value_refines(fact.value, fact.fact, claim.value)
        return False

    return refines


def value_refines(coarse: Scalar, coarse_sentence: str, fine: Scalar) -> bool:
    """Return True when literal ``fine`` narrows ``coarse`` (stated in ``coarse_sentence``)."""
    big, small = _number(coarse), _number(fine)
    if big is not None and small is not None:
        if big == small or not APPROXIMATE.search(coarse_sentence):
            return False
        return abs(small - big) < _unit(big) / 2 or abs(small - big) <= abs(big) * NUMBER_SLACK
    return narrows(str(coarse), str(fine))


def narrows(coarse: str, fine: str) -> bool:
    """Return True when ``fine`` names a part of ``coarse`` by extending it: 杭州 → 杭州滨江区.

    An extension that continues a Latin word or number ("v1" → "v10") is another value.
    """
    coarse, fine = normalise_name(coarse), normalise_name(fine)
    if len(coarse) < 2 or coarse == fine or not fine.startswith(coarse):
        return False
    following = fine[len(coarse)]
    return not (following.isascii() and following.isalnum())


def _number(value: Scalar) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    text = str(value).replace(",", "").strip()
    return float(text) if re.fullmatch(r"-?\d+(?:\.\d+)?", text) else None


def _unit(number: float) -> float:
    """Return the place of the last non-zero digit of a whole number (500000 → 100000)."""
    if number != int(number) or number == 0:
        return 1.0
    unit, whole = 1, abs(int(number))
    while whole % (unit * 10) == 0:
        unit *= 10
    return float(unit)
