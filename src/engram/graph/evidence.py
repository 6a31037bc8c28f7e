"""What resolution weighs of a mention and of a known entity: their facts, neighbours and profile.

A mention's evidence comes from its own episode's extraction; a known entity's from its current
facts in the graph. Both are read into the same shapes (predicate → normalised targets, and
neighbour ids or ``v:<value>``), which engram.graph.resolve compares.
"""

from __future__ import annotations

from collections.abc import Mapping

from engram.graph.entities import attribute_values
from engram.graph.resolve import SPEAKER_ATTRIBUTE, Profile
from engram.models.episodes import Episode
from engram.models.graph import Entity, EntityIn, Extraction
from engram.nlp.names import normalise_name
from engram.storage.protocol import Txn

__all__ = ["NAMED_BY_TAIL", "as_speaker", "known_facts", "mention_facts", "profile_of", "tail_of"]

NAMED_BY_TAIL = frozenset({"project", "deal"})
"""Types whose shorter name is often the tail of the full one ("the CRM rollout" of "the Northwind CRM
rollout", 续约 of 苍穹游戏续约)."""


def tail_of(key: str, known: str) -> bool:
    """Return True when one of two normalised names ends the other at a word boundary and the shorter
    has two words or more ("crm rollout" / "northwind crm rollout"): the same thing named shorter,
    evidence for a merge candidate (resolution weighs it with the rest)."""
    short, full = sorted((key, known), key=len)
    return short != full and full.endswith(" " + short) and " " in short


def mention_facts(
    extraction: Extraction, mention: EntityIn, resolved: Mapping[str, str]
) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """Return what the episode says about a mention: predicate → targets, and its neighbours.

    Targets are normalised names and values; neighbours are the entity ids its facts point
    at (or their names, not resolved yet) and ``v:<value>`` for values, as in known_facts.
    """
    names = {normalise_name(n) for n in (mention.name, *mention.aliases)}
    facts: dict[str, set[str]] = {}
    neighbours: set[str] = set()
    for fact in extraction.facts:
        if normalise_name(fact.subject) not in names:
            continue
        target = fact.object if fact.object is not None else fact.value
        if target is None:
            continue
        key = normalise_name(str(target))
        facts.setdefault(fact.predicate, set()).add(key)
        if fact.object is not None:
            neighbours.add(resolved.get(key, f"n:{key}"))
        else:
            neighbours.add(f"v:{key}")
    return {p: frozenset(t) for p, t in facts.items()}, frozenset(neighbours)


def as_speaker(mention: EntityIn, episode: Episode) -> EntityIn:
    """Return the person ``mention`` names with the actor's id (``actor_id``) when it is the episode's
    speaker, named by the actor's name or id: resolution's surest evidence (engram.graph.resolve)."""
    actor = episode.actor
    if actor is None or mention.type != "person" or mention.name not in (actor.name, actor.id):
        return mention
    if SPEAKER_ATTRIBUTE in mention.attributes:
        return mention
    return mention.model_copy(update={"attributes": {**mention.attributes, SPEAKER_ATTRIBUTE: actor.id}})


def profile_of(entity: Entity) -> Profile:
    """Return what a known entity's own version says of it (no facts, neighbours or threads yet)."""
    return Profile(
        name=entity.name,
        type=entity.type,
        aliases=frozenset(entity.aliases),
        attributes=attribute_values(entity.attributes),
        first_seen=entity.first_seen,
        last_seen=entity.last_seen,
    )


def known_facts(txn: Txn, group: str, entity: Entity) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """Return what the graph says about a known entity: predicate → targets, and its neighbours."""
    facts: dict[str, set[str]] = {}
    neighbours: set[str] = set()
    for fact in txn.facts_touching(group, entity.id):
        if fact.status != "current":
            continue
        if fact.subject != entity.id:
            neighbours.add(fact.subject)
            continue
        if fact.object is not None:
            other = txn.entity(group, fact.object)
            keys = set() if other is None else {normalise_name(n) for n in (other.name, *other.aliases)}
            neighbours.add(fact.object)
        elif fact.value is not None:
            keys = {normalise_name(str(fact.value))}
            neighbours |= {f"v:{k}" for k in keys}
        else:
            continue
        facts.setdefault(fact.predicate, set()).update(keys)
    return {p: frozenset(t) for p, t in facts.items()}, frozenset(neighbours)
