"""Entity versions with provenance: a new entity, a mention absorbed into a known one, an edit, a merge.

Every change of an entity's names, type, attributes or summary writes a new version naming
its operation (``operation_id``) and, when an episode caused it, the episode (``episode_id``).
Each alias records which episode and operation introduced it (``alias_sources``), each
attribute its value with the same two (``{value, episode, operation}``; episode None for a
person's edit or a merge), and the summary its source (``summary_source``), so a
purge can take out exactly what a purged episode brought, and a revert restores a version
whole. A later episode's attribute value or summary replaces the earlier one (the earlier
stays in the timeline).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from engram.graph.resolve import UNKNOWN_TYPE, is_generic
from engram.ids import new_id
from engram.models.episodes import Episode, Operation
from engram.models.graph import Entity, EntityIn, Scalar
from engram.nlp.names import normalise_name
from engram.storage.protocol import Txn


def name_keys(entity: Entity | EntityIn) -> list[str]:
    """Return the normalised names an entity is found by: its name and aliases, no generic roles."""
    return keys_of((entity.name, *entity.aliases))


def keys_of(names: Iterable[str]) -> list[str]:
    """Return the normalised forms of ``names`` that find an entity (no generic roles, none empty)."""
    return [normalise_name(n) for n in names if not is_generic(n) and normalise_name(n)]


def attribute_values(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """Return stored attributes (``{value, episode, operation}``) as plain values."""
    return {k: v["value"] if isinstance(v, dict) and "value" in v else v for k, v in attributes.items()}


def source(episode_id: str | None, operation: Operation) -> dict[str, str | None]:
    """Return the provenance record of an alias or a summary."""
    return {"episode": episode_id, "operation": operation.id}


def attribute(value: Any, episode_id: str | None, operation: Operation) -> dict[str, Any]:
    """Return the stored record of an attribute value: the value with its provenance (see ``source``).

    A purge matches ``episode`` against the purged episode, so an operation id never goes there.
    """
    return {"value": value, **source(episode_id, operation)}


def new_entity(mention: EntityIn, episode: Episode, operation: Operation) -> Entity:
    """Return version 1 of the entity a mention in ``episode`` introduces."""
    aliases = [a for a in dict.fromkeys(mention.aliases) if a != mention.name]
    return Entity(
        id=new_id("en"),
        group_id=episode.group_id,
        version=1,
        name=mention.name,
        type=mention.type,
        aliases=aliases,
        attributes={k: attribute(v, episode.id, operation) for k, v in mention.attributes.items()},
        summary=mention.summary,
        first_seen=episode.timestamp,
        last_seen=episode.timestamp,
        recorded_at=operation.created_at,
        operation_id=operation.id,
        episode_id=episode.id,
        alias_sources={alias: source(episode.id, operation) for alias in aliases},
        summary_source=source(episode.id, operation) if mention.summary else None,
    )


def absorb(
    txn: Txn,
    known: Entity,
    mention: EntityIn,
    seen: tuple[datetime, datetime],
    episode_id: str | None,
    operation: Operation,
    *,
    alias_sources: Mapping[str, dict[str, str | None]] | None = None,
    keep_attributes: bool = False,
) -> Entity:
    """Write a new version of ``known`` with the mention's names, attributes and summary; return it.

    ``seen`` is the (first, last) time of the mention; ``episode_id`` the episode it comes
    from (None for a merge or an edit). New attribute values and a new summary replace the
    old ones, unless ``keep_attributes`` (a merge: the survivor's own values win).
    ``alias_sources`` gives the provenance of names that came from elsewhere (a merged
    entity's). Nothing is written when nothing changes.
    """
    given = alias_sources or {}
    aliases, sources = list(known.aliases), dict(known.alias_sources)
    for name in (mention.name, *mention.aliases):
        if name != known.name and name not in aliases and not is_generic(name):
            aliases.append(name)
            sources[name] = dict(given.get(name) or source(episode_id, operation))
    attributes = dict(known.attributes)
    for key, value in mention.attributes.items():
        old = attribute_values(attributes).get(key)
        if key not in attributes or (not keep_attributes and old != value):
            attributes[key] = attribute(value, episode_id, operation)
    changes: dict[str, Any] = {
        "aliases": aliases,
        "alias_sources": sources,
        "attributes": attributes,
        "type": mention.type if known.type == UNKNOWN_TYPE else known.type,
        "first_seen": min(known.first_seen, seen[0]),
        "last_seen": max(known.last_seen, seen[1]),
    }
    if mention.summary and mention.summary != known.summary and not (keep_attributes and known.summary):
        changes |= {"summary": mention.summary, "summary_source": source(episode_id, operation)}
    if all(getattr(known, key) == value for key, value in changes.items()):
        return known
    updated = known.model_copy(
        update={
            **changes,
            "version": known.version + 1,
            "recorded_at": operation.created_at,
            "operation_id": operation.id,
            "episode_id": episode_id,
        }
    )
    txn.put_entity(updated, name_keys(updated))
    return updated


def edit(
    txn: Txn,
    current: Entity,
    operation: Operation,
    *,
    attributes: Mapping[str, Scalar | None],
    add_aliases: list[str],
    remove_aliases: list[str],
    summary: str | None,
    clear_summary: bool,
    type_: str | None,
) -> tuple[Entity, list[str]]:
    """Write a person's edit of an entity as a new version; return it and the names of what changed.

    ``attributes`` is a merge patch (None removes a key); aliases are added or removed;
    ``summary`` replaces the summary (``clear_summary`` removes it); ``type_`` retypes it.
    """
    merged = dict(current.attributes)
    for key, value in attributes.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = attribute(value, None, operation)
    aliases, sources = list(current.aliases), dict(current.alias_sources)
    for alias in remove_aliases:
        if alias in aliases:
            aliases.remove(alias)
            sources.pop(alias, None)
    for alias in add_aliases:
        if alias != current.name and alias not in aliases:
            aliases.append(alias)
            sources[alias] = source(None, operation)
    fields: dict[str, Any] = {"attributes": merged, "aliases": aliases, "alias_sources": sources}
    if clear_summary:
        fields |= {"summary": None, "summary_source": None}
    elif summary is not None and summary != current.summary:
        fields |= {"summary": summary, "summary_source": source(None, operation)}
    if type_ is not None:
        fields["type"] = type_
    changed: list[str] = sorted(
        {key for key in ("attributes", "aliases", "summary", "type") if key in fields}
        & {key for key, value in fields.items() if getattr(current, key) != value}
    )
    if not changed:
        return current, []
    updated = current.model_copy(
        update={
            **fields,
            "version": current.version + 1,
            "recorded_at": operation.created_at,
            "operation_id": operation.id,
            "episode_id": None,
        }
    )
    txn.put_entity(updated, name_keys(updated))
    return updated, changed


def first_episode(txn: Txn, entity: Entity) -> str | None:
    """Return the episode that introduced an entity (its first version's), if one did."""
    first = txn.entity_version(entity.group_id, entity.id, 1)
    return None if first is None else first.episode_id
