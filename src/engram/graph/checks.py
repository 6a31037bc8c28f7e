"""Checks of an extraction an agent supplies, before anything is written: contradictions, unknown ids.

- Contradictory facts in one episode are refused (InvalidInput naming the later one,
  ``facts.3``): the same subject, predicate and target both asserted and negated; a fact and
  the stop or opposite of it with the same target (USES X and STOPPED_USING X, LIKES and
  DISLIKES); two different targets of a one-valued predicate (LIVES_IN 上海 and LIVES_IN 苏州)
  — each time with the same conditions and the same valid and invalid times. Two places one
  inside the other (杭州, 西湖区) or a value and its extension are a refinement, not a clash.
- A subject or object given as an entity id (``en_…``) must exist in the group
  (``facts.3.subject``); a name that is not known yet creates the entity.
- Predicates the registry does not know are kept as given (many-valued, low sensitivity) and
  returned, to be reported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from engram.errors import InvalidInput
from engram.graph.arbitrate import normal_value
from engram.graph.places import contains
from engram.graph.refine import narrows
from engram.models.graph import Extraction, FactIn
from engram.models.predicates import Predicate, PredicateRegistry
from engram.nlp.names import normalise_name

ENTITY_ID = re.compile(r"^en_[0-9A-Z]{26}$")
_LOOKS_LIKE_ENTITY_ID = re.compile(r"^en_\w+$")  # meant as an id, not a name nobody would give


@dataclass(frozen=True)
class _Claim:
    """What a fact asserts, normalised once: facts clash only within one ``scope``."""

    scope: tuple[str, str, object, object]  # subject, conditions, valid_at, invalid_at
    predicate: Predicate
    target: str | None
    negated: bool

    @property
    def signature(self) -> tuple[str, str | None, bool]:
        return (self.predicate.name, self.target, self.negated)


def check_extraction(
    extraction: Extraction, registry: PredicateRegistry, exists: Callable[[str], bool]
) -> list[str]:
    """Return the unknown predicates the extraction uses; raise InvalidInput on bad input.

    ``exists(entity_id)`` tells whether an ``en_…`` id names an entity of the group. Each fact
    is compared with the distinct earlier claims of its scope only (a repeated fact adds no
    comparisons), so a batch of many facts is checked in about linear time.
    """
    claims: list[_Claim] = []
    distinct: dict[tuple[str, str, object, object], dict[tuple[str, str | None, bool], int]] = {}
    for index, fact in enumerate(extraction.facts):
        for side in ("subject", "object"):
            name = getattr(fact, side)
            if name is None or not _LOOKS_LIKE_ENTITY_ID.match(name):
                continue
            if not ENTITY_ID.match(name):
                raise InvalidInput(
                    f"{name!r} is not an entity id (en_ and 26 ULID characters); name the entity instead",
                    field=f"facts.{index}.{side}",
                )
            if not exists(name):
                raise InvalidInput(f"no entity with id {name!r} in this group", field=f"facts.{index}.{side}")
        claim = _claim(fact, registry)
        claims.append(claim)
        earlier = distinct.setdefault(claim.scope, {})
        if claim.signature in earlier:
            continue  # the same claim again: it clashes with nothing its first statement did not
        for at in earlier.values():
            clash = _clash(claims[at], claim)
            if clash is not None:
                raise InvalidInput(f"facts.{index} contradicts facts.{at}: {clash}", field=f"facts.{index}")
        earlier[claim.signature] = index
    unknown = [
        registry.canonical(f.predicate).name for f in extraction.facts if not registry.known(f.predicate)
    ]
    return list(dict.fromkeys(unknown))


def _claim(fact: FactIn, registry: PredicateRegistry) -> _Claim:
    scope = (
        normalise_name(fact.subject),
        json.dumps(fact.conditions, sort_keys=True, ensure_ascii=False),
        fact.valid_at,
        fact.invalid_at,
    )
    return _Claim(scope, registry.canonical(fact.predicate), _target(fact), fact.negated)


def _target(fact: FactIn) -> str | None:
    if fact.object is not None:
        return f"o:{normalise_name(fact.object)}"
    return None if fact.value is None else f"v:{normal_value(fact.value)}"


def _refinement(a: str, b: str) -> bool:
    """Return True when one target narrows the other (a place inside another, a longer value)."""
    a, b = a[2:], b[2:]
    return narrows(a, b) or narrows(b, a) or contains(a, b) or contains(b, a)


def _clash(a: _Claim, b: _Claim) -> str | None:
    """Return why claims ``a`` and ``b`` of one scope cannot both hold, or None."""
    pa, pb = a.predicate, b.predicate
    ta, tb = a.target, b.target
    same = ta is not None and ta == tb
    if pa.name == pb.name:
        if same and a.negated != b.negated:
            return f"{pa.name} of the same target is asserted and negated"
        two_values = ta is not None and tb is not None and not same and not (a.negated or b.negated)
        if pa.cardinality == "one" and two_values and not _refinement(ta or "", tb or ""):
            return f"{pa.name} holds one value at a time, and two are given for the same time and conditions"
        return None
    opposed = pb.name in pa.closes or pa.name in pb.closes
    if same and opposed and not (a.negated or b.negated):
        return f"{pa.name} and {pb.name} of the same target cannot both hold"
    return None
