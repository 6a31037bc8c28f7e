"""Console pages for episodes: the new-episode form, search, the episode page, edit and delete."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import Response

from engram.api.console.auth import CONSOLE_ACTOR
from engram.api.console.context import MOUNT, flash, reader, see_other, writer
from engram.api.console.forms import PRIORITIES, SOURCES, EditForm, EpisodeForm, field_of, search_filters
from engram.api.console.render import highlight, page
from engram.errors import InvalidInput, NotFound, PreconditionFailed
from engram.memory import Memory
from engram.models.episodes import Episode

router = APIRouter()
FormText = Annotated[str, Form()]
FormList = Annotated[list[str], Form()]
EXTRACTION_KINDS = ("extract", "add_facts", "reextract")
BLANK_REFERENCES = 2
LINKED_REFERENCES = 50
"""References the episode page looks up to link (the rest are shown as text)."""


def _intents(memory: Memory) -> set[str]:
    return {intent.name for intent in memory.intents()}


def _new_form(
    request: Request, form: EpisodeForm, errors: dict[str, str], status: int = 200, **extra: Any
) -> Response:
    who, memory, _ = reader(request)
    references = form.references if "" in form.references else [*form.references, ""]
    return page(
        request,
        "episode_new.html",
        who,
        status,
        form=form,
        references=references,
        errors=errors,
        intents=memory.intents(),
        priorities=PRIORITIES,
        sources=SOURCES,
        duplicate=extra.get("duplicate"),
        detail=extra.get("detail", ""),
    )


@router.get("/episodes/new")
def new_episode(request: Request) -> Response:
    """Show the new-episode form; the time defaults to now (UTC)."""
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M")
    return _new_form(request, EpisodeForm(time=now, references=[""] * BLANK_REFERENCES), {})


@router.post("/episodes/new")
def create_episode(
    request: Request,
    csrf_token: FormText = "",
    intent: FormText = "",
    content: FormText = "",
    actor: FormText = "",
    time: FormText = "",
    source: FormText = "",
    references: FormList | None = None,
    priority: FormText = "",
    due: FormText = "",
    add_reference: FormText = "",
) -> Response:
    """Store the episode; errors go back next to their fields, a duplicate says "already stored"."""
    _who, memory, group = writer(request, csrf_token)
    form = EpisodeForm(intent, content, actor, time, source, references or [], priority, due)
    if add_reference:  # without JavaScript, "add a reference" posts the form back with one more row
        form.references = [*form.references, ""]
        return _new_form(request, form, {})
    payload, errors = form.episode(_intents(memory))
    if errors:
        return _new_form(request, form, errors, 422)
    try:
        created = memory.create_episode({**payload, "group_id": group}, actor=CONSOLE_ACTOR)
    except InvalidInput as exc:
        return _new_form(request, form, {field_of(exc.field): "form.error.invalid"}, 422, detail=exc.detail)
    if created.deduplicated:
        return _new_form(request, form, {}, 200, duplicate=created.episode)
    flash(request, "episode.created")
    return see_other(f"{MOUNT}/episodes/{created.episode.id}?created=1")


@router.get("/episodes")
def search(
    request: Request,
    q: str = "",
    intent: str = "",
    source: str = "",
    actor: str = "",
    after: str = "",
    before: str = "",
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Response:
    """Search episodes with the API's filters; an empty query lists the newest. Hits cite their episode."""
    who, memory, group = reader(request)
    filters, errors = search_filters(intent, source, actor, after, before)
    hits, warnings = [], []
    if not errors:
        response = memory.search_episodes(
            {"query": q, "group_id": group, "filters": filters, "limit": limit, "intent": intent or None}
        )
        hits = [(hit, highlight(hit.episode.content, q)) for hit in response.results]
        warnings = response.warnings
    return page(
        request,
        "episodes.html",
        who,
        422 if errors else 200,
        q=q,
        values={"intent": intent, "source": source, "actor": actor, "after": after, "before": before},
        errors=errors,
        hits=hits,
        warnings=warnings,
        limit=limit,
        intents=memory.intents(),
    )


def _episode_page(
    request: Request, episode_id: str, group_id: str | None, *, status: int = 200, **extra: Any
) -> Response:
    who, memory, group = reader(request, group_id)
    episode = memory.get_episode(episode_id, group)
    operations = memory.list_operations(group, episode_id=episode_id, limit=50).items
    extractions = [op for op in operations if op.kind in EXTRACTION_KINDS]
    support = memory.episode_support(episode_id, group)
    names = {e.id: e.name for e in support.entities}
    other = {k: v for k, v in episode.metadata.items() if k not in ("priority", "due")}
    return page(
        request,
        "episode.html",
        who,
        status,
        episode=episode,
        versions=memory.episode_versions(episode_id, group),
        operations=operations,
        extractions=extractions,
        support=support,
        names=names,
        references=[
            (ref, _reference_link(memory, group, ref) if i < LINKED_REFERENCES else None)
            for i, ref in enumerate(episode.references)
        ],
        source_reference=source if isinstance(source := episode.metadata.get("reference_id"), str) else None,
        created=request.query_params.get("created") == "1",
        intents=memory.intents(),
        priorities=PRIORITIES,
        other_metadata=json.dumps(other, ensure_ascii=False, indent=1) if other else "",
        errors=extra.get("errors", {}),
        stale=extra.get("stale"),
        detail=extra.get("detail", ""),
    )


def _reference_link(memory: Memory, group: str, reference: str) -> str | None:
    """Return the console page a reference names: a stored episode, else an entity known by it."""
    try:
        memory.get_episode(reference, group)
        return f"{MOUNT}/episodes/{reference}"
    except (NotFound, InvalidInput):
        pass
    named = [
        e for e in memory.search_entities(reference, group, limit=5) if reference in (e.name, *e.aliases)
    ]
    return f"{MOUNT}/entities/{named[0].id}" if named else None


@router.get("/episodes/{episode_id}")
def episode_page(request: Request, episode_id: str, group_id: str | None = None) -> Response:
    """Show an episode: its fields, versions, references, what was extracted, its operations."""
    return _episode_page(request, episode_id, group_id)


@router.post("/episodes/{episode_id}/edit")
def edit_episode(
    request: Request,
    episode_id: str,
    csrf_token: FormText = "",
    version: FormText = "",
    intent: FormText = "",
    status: FormText = "active",
    priority: FormText = "",
    due: FormText = "",
    metadata: FormText = "",
    references: FormList | None = None,
) -> Response:
    """Apply the edit as a new version if the episode is still at the version the form was made from.

    A stale form shows both: what the visitor sent and the version someone else stored since.
    """
    _who, memory, group = writer(request, csrf_token)
    form = EditForm(version, intent, status, priority, due, metadata, references or [])
    current = memory.get_episode(episode_id, group)
    patch, errors = form.patch(current, _intents(memory))
    expected = form.expected_version()
    if errors or expected is None:
        return _episode_page(
            request, episode_id, None, status=422, errors=errors or {"version": "form.error.version"}
        )
    try:
        updated = memory.update_episode(
            episode_id, patch, expected_version=expected, group_id=group, actor=CONSOLE_ACTOR
        )
    except PreconditionFailed:
        return _episode_page(request, episode_id, None, status=409, stale=_stale(form, current))
    except InvalidInput as exc:
        return _episode_page(
            request,
            episode_id,
            None,
            status=422,
            errors={field_of(exc.field): "form.error.invalid"},
            detail=exc.detail,
        )
    flash(
        request,
        "episode.updated" if updated.version != expected else "episode.unchanged",
        version=str(updated.version),
    )
    return see_other(f"{MOUNT}/episodes/{episode_id}")


def _stale(form: EditForm, current: Episode) -> dict[str, Any]:
    """Return what a stale edit page shows: the visitor's values and the stored version's."""
    other = {k: v for k, v in current.metadata.items() if k not in ("priority", "due")}
    return {
        "mine": form,
        "theirs": {
            "version": current.version,
            "intent": current.intent or "",
            "status": current.status,
            "priority": str(current.metadata.get("priority", "")),
            "due": str(current.metadata.get("due", "")),
            "metadata": json.dumps(other, ensure_ascii=False, indent=1) if other else "",
            "references": current.references,
        },
    }


@router.get("/episodes/{episode_id}/delete")
def confirm_delete(request: Request, episode_id: str) -> Response:
    """Ask to confirm the deletion (a retraction that can be undone)."""
    who, memory, group = reader(request)
    return page(request, "episode_delete.html", who, episode=memory.get_episode(episode_id, group))


@router.post("/episodes/{episode_id}/delete")
def delete_episode(request: Request, episode_id: str, csrf_token: FormText = "") -> Response:
    """Retract the episode; the audit page of the delete offers its undo."""
    _who, memory, group = writer(request, csrf_token)
    deleted = memory.delete_episode(episode_id, group, actor=CONSOLE_ACTOR)
    flash(request, "episode.deleted", id=episode_id)
    return see_other(f"{MOUNT}/audit/{deleted.operation.id}")
