"""Console page for references: the episodes citing a document, an email, a record or a URL."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from engram.api.console.context import reader
from engram.api.console.render import page
from engram.errors import InvalidInput, NotFound

router = APIRouter()
SHOWN = 50
"""Citing episodes per page (``cursor`` continues)."""


@router.get("/references")
def reference_page(request: Request, ref: str = "", cursor: str | None = None) -> Response:
    """Show what ``ref`` (a reference id or a name) resolves to, its versions and the episodes citing it.

    The lookup is Memory.reference_episodes, as GET /v1/references/{ref}/episodes; an unknown
    reference shows "no episode cites it" (404), a bad one its problem (422).
    """
    who, memory, group = reader(request)
    if not ref.strip():
        return page(request, "references.html", who, ref=ref, found=None, problem="")
    try:
        found = memory.reference_episodes(ref, group, limit=SHOWN, cursor=cursor)
    except NotFound:
        return page(request, "references.html", who, 404, ref=ref, found=None, problem="none")
    except InvalidInput as exc:
        return page(request, "references.html", who, 422, ref=ref, found=None, problem=exc.detail)
    return page(request, "references.html", who, ref=ref, found=found, problem="")
