"""Console pages for entities: search, the entity page (facts, timeline, evidence), merge, attributes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from engram.api.console.auth import CONSOLE_ACTOR
from engram.api.console.context import MOUNT, flash, reader, see_other, writer
from engram.api.console.i18n import catalogue, language
from engram.api.console.render import page
from engram.errors import Conflict, InvalidInput, NotFound, PreconditionFailed
from engram.graph.resolve import SPEAKER_ATTRIBUTE
from engram.memory import Memory
from engram.models.episodes import Episode
from engram.models.graph import Entity, Scalar
from engram.nlp.names import normalise_name

router = APIRouter()
FormText = Annotated[str, Form()]
FormList = Annotated[list[str], Form()]
EPISODES_SHOWN = 3
"""Episodes quoted under each fact on the entity page (the others are linked)."""
EPISODES_READ = 60
"""Most episodes one entity page reads to quote (beyond them, facts show their citations only)."""
NAME_MATCHES = 50
"""Entities a typed merge target is looked for among (those whose names contain its words)."""
PROTECTED_ATTRIBUTES = frozenset({SPEAKER_ATTRIBUTE})
"""Attributes the graph sets as evidence (the actor a speaker entity speaks as): shown, not editable."""


@router.get("/entities")
def search(request: Request, q: str = "") -> Response:
    """Find entities by name or alias."""
    who, memory, group = reader(request)
    found = memory.search_entities(q, group, limit=50) if q.strip() else []
    return page(request, "entities.html", who, q=q, found=found)


def _episodes(
    memory: Memory, group: str, ids: list[str], cache: dict[str, Episode | None]
) -> list[tuple[str, Episode | None]]:
    for episode_id in ids[:EPISODES_SHOWN]:
        if episode_id not in cache and len(cache) < EPISODES_READ:
            try:
                cache[episode_id] = memory.get_episode(episode_id, group)
            except NotFound:
                cache[episode_id] = None  # deleted since: its id is still shown
    return [(episode_id, cache.get(episode_id)) for episode_id in ids]


def entity_page(
    request: Request, entity_id: str, group_id: str | None, *, status: int = 200, **extra: Any
) -> Response:
    """Render the entity page (also after a failed merge or edit, with the errors in ``extra``)."""
    who, memory, group = reader(request, group_id)
    view = memory.get_entity(entity_id, group)
    history = memory.search_facts(
        {"subject": entity_id, "group_id": group, "include_history": True, "limit": 100}
    )
    past = [hit for hit in history.results if hit.fact.status not in ("current",)]
    past.sort(key=lambda hit: hit.fact.valid_at or hit.fact.recorded_at, reverse=True)
    cache: dict[str, Episode | None] = {}
    evidence = {
        hit.fact.id: _episodes(memory, group, hit.fact.episodes, cache) for hit in [*view.facts, *past]
    }
    return page(
        request,
        "entity.html",
        who,
        status,
        view=view,
        entity=view.entity,
        current=[hit for hit in view.facts if hit.fact.status == "current"],
        past=past,
        evidence=evidence,
        operations=memory.list_operations(group, entity_id=entity_id, limit=20).items,
        errors=extra.get("errors", {}),
        detail=extra.get("detail", ""),
        stale=extra.get("stale"),
        into=extra.get("into", ""),
        protected=PROTECTED_ATTRIBUTES,
    )


@router.get("/entities/{entity_id}")
def show(request: Request, entity_id: str, group_id: str | None = None) -> Response:
    """Show an entity: names, attributes, current facts, the timeline of past ones, the evidence."""
    return entity_page(request, entity_id, group_id)


@dataclass(frozen=True, slots=True)
class Unresolved:
    """Why the merge form's target names no single entity: a message id and its values."""

    message_id: str
    values: dict[str, object]


def resolve_entity(memory: Memory, group: str, text: str, exclude: str) -> str | Unresolved:
    """Return the entity id ``text`` names: an ``en_…`` id as typed, else the one current entity of
    the group (not ``exclude``) with that name or alias (compared normalised: case, width,
    spaces); none or several is an ``Unresolved`` to show beside the field."""
    text = text.strip()
    if not text:
        return Unresolved("entity.into_required", {})
    if text.startswith("en_"):
        return text
    key = normalise_name(text)
    named = [
        e
        for e in memory.search_entities(text, group, limit=NAME_MATCHES)
        if e.id != exclude and key in {normalise_name(n) for n in (e.name, *e.aliases)}
    ]
    if len(named) == 1:
        return named[0].id
    if not named:
        return Unresolved("entity.into_none", {"name": text})
    choices = "; ".join(f"{e.name} ({e.type}) {e.id}" for e in named)
    return Unresolved("entity.into_several", {"name": text, "count": len(named), "choices": choices})


def merge_operation(memory: Memory, group: str, into: str) -> str | None:
    """Return the id of the latest merge into ``into`` (to offer its undo)."""
    found = memory.list_operations(group, kind=["merge"], entity_id=into, limit=1).items
    return found[0].id if found else None


@router.post("/entities/{entity_id}/merge")
def merge(request: Request, entity_id: str, csrf_token: FormText = "", into: FormText = "") -> Response:
    """Merge this entity into another, named by name or id (one operation; administrators); the
    survivor's page offers the undo. A target that names no single entity, or that cannot take
    this one, is explained beside the field."""
    _who, memory, group = writer(request, csrf_token, role="admin")
    t = catalogue(language(request)).text
    target = resolve_entity(memory, group, into, entity_id)
    if isinstance(target, Unresolved):
        return _merge_refused(request, entity_id, into, t(target.message_id, **target.values))
    try:
        survivor = memory.merge_entities(entity_id, target, group, actor=CONSOLE_ACTOR)
    except (Conflict, InvalidInput, NotFound) as exc:
        if exc.field != "into":
            raise
        return _merge_refused(
            request,
            entity_id,
            into,
            (isinstance(exc, Conflict) and _type_clash(memory, group, entity_id, target, t)) or exc.detail,
        )
    operation = merge_operation(memory, group, survivor.entity.id) or ""
    flash(request, "entity.merged", name=survivor.entity.name, operation=operation)
    return see_other(f"{MOUNT}/entities/{survivor.entity.id}")


def _merge_refused(request: Request, entity_id: str, into: str, detail: str) -> Response:
    return entity_page(
        request, entity_id, None, status=422, errors={"into": "form.error.invalid"}, detail=detail, into=into
    )


def _type_clash(memory: Memory, group: str, entity_id: str, target: str, t: Callable[..., str]) -> str | None:
    """Return the console's words for a merge refused because the types differ (None if they do not)."""
    try:
        source, into = memory.get_entity(entity_id, group).entity, memory.get_entity(target, group).entity
    except NotFound:
        return None
    if source.type == into.type:
        return None
    return t("entity.into_types", source=source.type, target=into.name, into=into.type)


def attribute_patch(
    entity: Entity, keys: list[str], values: list[str], remove: list[str], new_key: str, new_value: str
) -> dict[str, Scalar | None]:
    """Return the attributes the form changed: edited values (as typed), removed keys (None), a new one.

    PROTECTED_ATTRIBUTES are shown, never changed here: a posted edit or removal of one is ignored,
    a new attribute of that name is InvalidInput(field="new_key").
    """
    current = {
        k: v.get("value") if isinstance(v, dict) else v
        for k, v in entity.attributes.items()
        if k not in PROTECTED_ATTRIBUTES
    }
    if new_key.strip() in PROTECTED_ATTRIBUTES:
        raise InvalidInput(f"{new_key.strip()!r} is set by Engram and cannot be edited here", field="new_key")
    patch: dict[str, Scalar | None] = {}
    for key, value in zip(keys, values, strict=False):
        if key in current and key not in remove and str(current[key]) != value:
            patch[key] = value
    for key in remove:
        if key in current:
            patch[key] = None
    if new_key.strip():
        patch[new_key.strip()] = new_value
    return patch


@router.post("/entities/{entity_id}/attributes")
def edit_attributes(
    request: Request,
    entity_id: str,
    csrf_token: FormText = "",
    version: FormText = "",
    key: FormList | None = None,
    value: FormList | None = None,
    remove: FormList | None = None,
    new_key: FormText = "",
    new_value: FormText = "",
) -> Response:
    """Store the edited attributes as a new entity version, if the entity is still at the form's version."""
    _who, memory, group = writer(request, csrf_token)
    entity = memory.get_entity(entity_id, group).entity
    if not version.isdigit():
        return entity_page(request, entity_id, None, status=422, errors={"attributes": "form.error.version"})
    try:
        patch = attribute_patch(entity, key or [], value or [], remove or [], new_key, new_value)
        memory.update_entity(
            entity_id, patch, expected_version=int(version), group_id=group, actor=CONSOLE_ACTOR
        )
    except PreconditionFailed:
        return entity_page(request, entity_id, None, status=409, stale=patch)
    except InvalidInput as exc:
        return entity_page(
            request,
            entity_id,
            None,
            status=422,
            errors={"attributes": "form.error.invalid"},
            detail=exc.detail,
        )
    flash(request, "entity.updated" if patch else "entity.unchanged")
    return see_other(f"{MOUNT}/entities/{entity_id}")
