"""Console health page: volumes, duplicates, failures to retry, backlogs, disputes, recent errors."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from engram.api.console.auth import CONSOLE_ACTOR
from engram.api.console.context import MOUNT, flash, reader, see_other, writer
from engram.api.console.render import page

router = APIRouter()
FormText = Annotated[str, Form()]


@router.get("/health")
def health(request: Request) -> Response:
    """Show volumes by intent and source, duplicates, failures to retry, backlogs, disputes, errors."""
    who, memory, group = reader(request)
    return page(request, "health.html", who, report=memory.health(group))


@router.post("/health/reextract")
def reextract(request: Request, csrf_token: FormText = "") -> Response:
    """Retry the extraction of the group's episodes whose extraction failed."""
    _who, memory, group = writer(request, csrf_token)
    succeeded, failing = memory.reextract(group, actor=CONSOLE_ACTOR)
    flash(request, "health.retried", succeeded=str(succeeded), failing=str(failing))
    return see_other(f"{MOUNT}/health")
