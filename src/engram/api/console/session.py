"""Console pages about the visit itself: sign-in and out, language, group, the start page."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from engram.api.console.auth import Access, check_api_key, check_csrf, principal, require, sign_in, sign_out
from engram.api.console.context import MOUNT, back_to, flash, memory_of, see_other
from engram.api.console.i18n import LANGUAGE_COOKIE, LANGUAGES
from engram.api.console.render import page

router = APIRouter()


@router.get("/", include_in_schema=False)
def start(request: Request) -> Response:
    """Send the visitor to the episode search (or to sign in)."""
    require(principal(request), "read")
    return see_other(f"{MOUNT}/episodes")


@router.get("/sign-in")
def sign_in_page(request: Request, next: str | None = None) -> Response:
    """Show the sign-in form (an API key), or say why no one can sign in here."""
    access: Access = request.app.state.access
    configured = access.keys.configured()
    who = principal(request)
    return page(request, "sign_in.html", who, keys_configured=configured, next=back_to(next), error=None)


@router.post("/sign-in")
def sign_in_submit(
    request: Request,
    key: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "",
    csrf_token: Annotated[str, Form()] = "",
) -> Response:
    """Sign in with an API key; an unknown key shows the form again with an error next to the field."""
    check_csrf(request, csrf_token)
    access: Access = request.app.state.access
    who = check_api_key(access.keys, key)
    if who is None:
        configured = access.keys.configured()
        error = "sign_in.error.unknown" if configured else "sign_in.error.no_keys"
        return page(
            request, "sign_in.html", None, 401, keys_configured=configured, next=back_to(next), error=error
        )
    sign_in(request, who)
    return see_other(back_to(next))


@router.post("/sign-out")
def sign_out_submit(request: Request, csrf_token: Annotated[str, Form()] = "") -> Response:
    """End the session."""
    check_csrf(request, csrf_token)
    sign_out(request)
    return see_other(f"{MOUNT}/sign-in")


@router.get("/language")
def choose_language(set: str, next: str | None = None) -> Response:
    """Remember the visitor's language (a cookie) and go back to the page."""
    if set not in LANGUAGES:
        raise HTTPException(404, "language")
    response = see_other(back_to(next))
    response.set_cookie(LANGUAGE_COOKIE, set, max_age=365 * 86400, path=MOUNT, samesite="lax")
    return response


@router.get("/group")
def choose_group(request: Request, group_id: str, next: str | None = None) -> Response:
    """Work in another group (remembered in the session). Refused for a group outside the principal's."""
    who = require(principal(request), "read")
    group = memory_of(request).group(group_id.strip() or None)
    if not who.sees(group):
        raise HTTPException(403, "group")
    request.session["group"] = group
    flash(request, "group.switched", group=group)
    return see_other(back_to(next))
