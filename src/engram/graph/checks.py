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

import re
from collections.abc import Callable

from engram.errors import InvalidInput
from engram.graph.arbitrate import normal_value
from engram.graph.places import contains
from engram.graph.refine import narrows
from engram.models.graph import Extraction, FactIn
from engram.models.predicates import PredicateRegistry
from engram.nlp.names import normalise_name

ENTITY_ID = re.compile(r"^en_[0-9A-Z]{26}$")


def check_extraction(
    extraction: Extraction, registry: PredicateRegistry, exists: Callable[[str], bool]
) -> list[str]:
    """Return the unknown predicates the extraction uses; raise InvalidInput on bad input.

    ``exists(entity_id)`` tells whether an ``en_…`` id names an entity of the group.
    """
    for index, fact in enumerate(extraction.facts):
        for side in ("subject", "object"):
            name = getattr(fact, side)
            if name is not None and ENTITY_ID.match(name) and not exists(name):
                raise InvalidInput(f"no entity with id {name!r} in this group", field=f"facts.{index}.{side}")
        for earlier in range(index):
            clash = contradiction(extraction.facts[earlier], fact, registry)
            if clash is not None:
                raise InvalidInput(
                    f"facts.{index} contradicts facts.{earlier}: {clash}", field=f"facts.{index}"
                )
    unknown = [
        registry.canonical(f.predicate).name for f in extraction.facts if not registry.known(f.predicate)
    ]
    return list(dict.fromkeys(unknown))


def _target(fact: FactIn) -> str | None:
    if fact.object is not None:
        return f"o:{normalise_name(fact.object)}"
    return None if fact.value is None else f"v:{normal_value(fact.value)}"


def _refinement(a: str, b: str) -> bool:
    """Return True when one target narrows the other (a place inside another, a longer value)."""
    a, b = a[2:], b[2:]
    return narrows(a, b) or narrows(b, a) or contains(a, b) or contains(b, a)


def contradiction(a: FactIn, b: FactIn, registry: PredicateRegistry) -> str | None:
    """Return why facts ``a`` and ``b`` of one episode cannot both hold, or None."""
    if normalise_name(a.subject) != normalise_name(b.subject) or dict(a.conditions) != dict(b.conditions):
        return None
    if (a.valid_at, a.invalid_at) != (b.valid_at, b.invalid_at):
        return None
    pa, pb = registry.canonical(a.predicate), registry.canonical(b.predicate)
    ta, tb = _target(a), _target(b)
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
