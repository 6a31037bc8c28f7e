"""Autocomplete for the console's forms (htmx fragments): references and entities, by typing."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from engram.api.console.context import reader
from engram.api.console.render import fragment
from engram.memory import Memory

router = APIRouter()
SUGGESTIONS = 10


def reference_suggestions(memory: Memory, group: str, text: str) -> list[tuple[str, str]]:
    """Return (reference, label) pairs for what was typed: documents and other referenced things
    (entities known by a reference id such as ``doc:报价单@v2``), references stored episodes carry,
    and the episodes themselves (by id and by their words)."""
    text = text.strip()
    if not text:
        return []
    found: dict[str, str] = {}
    for entity in memory.search_entities(text, group, limit=SUGGESTIONS):
        for name in (entity.name, *entity.aliases):
            if ":" in name:
                found.setdefault(name, f"{entity.name} ({entity.type})")
    hits = memory.search_episodes({"query": text, "group_id": group, "limit": SUGGESTIONS}).results
    for hit in hits:
        for reference in hit.episode.references:
            if text.lower() in reference.lower():
                found.setdefault(reference, reference)
    for hit in hits:
        found.setdefault(hit.episode.id, hit.episode.content[:80])
    return list(found.items())[:SUGGESTIONS]


@router.get("/suggest/references")
def suggest_references(request: Request, q: str = "", references: str = "") -> Response:
    """Return ``<option>`` elements of references matching the typed text (for a datalist)."""
    _, memory, group = reader(request)
    return fragment(request, "options.html", options=reference_suggestions(memory, group, q or references))


@router.get("/suggest/entities")
def suggest_entities(request: Request, q: str = "", into: str = "", entity_id: str = "") -> Response:
    """Return ``<option>`` elements of entities whose names match the typed text (value: the id)."""
    _, memory, group = reader(request)
    text = (q or into).strip()
    found = memory.search_entities(text, group, limit=SUGGESTIONS) if text else []
    options = [(e.id, f"{e.name} ({e.type})") for e in found if e.id != entity_id]
    return fragment(request, "options.html", options=options)


@router.get("/fragments/reference-row")
def reference_row(request: Request, references: Annotated[list[str] | None, Query()] = None) -> Response:
    """Return one more labelled reference input for the new-episode form (after the rows sent)."""
    reader(request)
    return fragment(request, "reference_row.html", index=len(references or []) + 1, value="")
