"""Map errors to ``application/problem+json`` responses (RFC 9457). Never a stack trace.

Every problem carries the request's id (``request_id``, also the ``X-Request-ID`` header) so
an operator can find the request in the server's log. ``Problem`` is the body's schema and
``problem_responses`` documents a route's error statuses in the OpenAPI.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Scope

from engram.errors import EngramError, PreconditionFailed
from engram.validation import explain

PROBLEM_JSON = "application/problem+json"
REQUEST_ID_SCOPE_KEY = "engram.request_id"
"""Where the edge puts the request's id in the ASGI scope."""
BODY_LIMIT_SCOPE_KEY = "engram.max_body_bytes"
"""Where the edge puts the body size limit in the ASGI scope (for the 413's detail)."""

STATUS_MEANINGS = {
    401: "No API key, or one that is unknown or revoked: send Authorization: Bearer <key>.",
    403: "The API key's role may not do this (role, required_role), or the Origin header names a site "
    "that may not call this server.",
    404: "No such object in the group.",
    409: "The request contradicts what is stored.",
    412: "If-Match names a version that is no longer current; current_version says which is.",
    413: "The request body is larger than the server accepts (ENGRAM_MAX_BODY_BYTES).",
    421: "The Host header names a host this server does not serve (ENGRAM_TRUSTED_HOSTS).",
    422: "Invalid input; field names it (a dotted path, a header, or body).",
    428: "The update needs an If-Match header with the ETag read.",
    500: "A bug; the log holds the details under request_id.",
    503: "The store cannot be used (unreachable, read-only, or made by a newer Engram).",
}


class FieldError(BaseModel):
    """One invalid input."""

    field: str
    message: str


class Problem(BaseModel):
    """An error, as RFC 9457 problem details; every member but the first four is optional."""

    type: str = Field(default="about:blank", description="Always about:blank: status and title say it.")
    status: int = Field(description="The HTTP status code.")
    title: str = Field(description="The kind of problem, e.g. Invalid input.")
    detail: str = Field(description="What went wrong, for a person.")
    field: str | None = Field(
        default=None,
        description="The input at fault: a dotted path (filters.actor_id), a header (If-Match) or body.",
    )
    errors: list[FieldError] | None = Field(default=None, description="Every invalid input (422).")
    request_id: str | None = Field(
        default=None, description="This request's id, also sent as X-Request-ID; the server logs it."
    )
    current_version: int | None = Field(default=None, description="412: the version to retry with.")
    conflicting_operations: list[str] | None = Field(
        default=None, description="409 on revert: the later operations in the way."
    )
    role: str | None = Field(default=None, description="403: the role the API key has.")
    required_role: str | None = Field(default=None, description="403: the role the action needs.")


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """Return a route's ``responses=`` entries documenting ``statuses`` as problem+json bodies."""
    schema = {"$ref": "#/components/schemas/Problem"}
    return {
        status: {"description": STATUS_MEANINGS[status], "content": {PROBLEM_JSON: {"schema": schema}}}
        for status in statuses
    }


def request_id(scope: Scope) -> str | None:
    """Return the id the edge gave this request (None outside the edge, e.g. in a bare router)."""
    value = scope.get(REQUEST_ID_SCOPE_KEY)
    return value if isinstance(value, str) else None


def problem(scope: Scope, status: int, title: str, detail: str, **extra: Any) -> JSONResponse:
    """Return a problem+json response to the request of ``scope``; ``extra`` members are added unless None."""
    body = {"type": "about:blank", "status": status, "title": title, "detail": detail}
    body.update({key: value for key, value in extra.items() if value is not None})
    body["request_id"] = request_id(scope)
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)


def too_large(scope: Scope, size: int | None = None) -> JSONResponse:
    """Return the 413 problem for a body over the limit (``size`` when its Content-Length said)."""
    limit = scope.get(BODY_LIMIT_SCOPE_KEY)
    stated = f"{size} bytes" if size is not None else "larger than the limit"
    return problem(
        scope,
        413,
        "Content too large",
        f"the request body is {stated}; this server accepts at most {limit} bytes (ENGRAM_MAX_BODY_BYTES)",
        field="body",
    )


def _validation_problem(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    said = []
    for error in exc.errors():
        loc = tuple(error["loc"])
        if error["type"] == "missing" and loc == ("header", "if-match"):
            # A required If-Match is a precondition, not a malformed request (RFC 6585).
            return problem(
                request.scope,
                428,
                "Precondition required",
                "PATCH needs an If-Match header with the ETag you read",
                field="If-Match",
            )
        if loc[:1] == ("header",):
            error = {**error, "loc": (str(loc[-1]).title(),)}
            if loc[-1] == "if-match" and error["type"] == "string_pattern_mismatch":
                error["msg"] = 'must be the ETag you read, e.g. "3"'
        if loc == ("body",) and error["type"] in ("model_attributes_type", "dict_type"):
            error = {**error, "msg": "must be a JSON object, sent as application/json"}
        if error["type"] == "json_invalid":
            reason = error.get("ctx", {}).get("error", "cannot parse the body")
            error = {**error, "loc": ("body",), "msg": f"invalid JSON: {reason}"}
        elif error["type"] == "extra_forbidden":
            error = {**error, "msg": "unknown field"}
        said.append(error)
    # One entry per refused value: a value every branch of a union refused is one error, not six.
    errors = [{"field": field, "message": message} for field, message in explain(said)]
    first = errors[0] if errors else {"field": "body", "message": "invalid request"}
    detail = f"{first['field']}: {first['message']}"
    return problem(request.scope, 422, "Invalid input", detail, field=first["field"], errors=errors)


def _engram_problem(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, EngramError)
    field, detail = exc.field, exc.detail
    if isinstance(exc, PreconditionFailed) and field is None:  # expected_version arrives as If-Match
        field = "If-Match"
        detail += f'; read it again and retry with If-Match: "{exc.current_version}"'
    response = problem(request.scope, exc.status, exc.title, detail, field=field, **exc.extra)
    response.headers.update(exc.headers)
    return response


def _allowed_methods(request: Request) -> str | None:
    """Return the methods the OpenAPI documents for the request's path, or None if it has none.

    Starlette names the methods of the first route whose pattern matches: for
    ``/v1/entities/search`` that is ``/v1/entities/{entity_id}`` (GET), not the literal path
    (POST). The documented template with the fewest parameters is the one that applies.
    """
    path = request.scope["path"]
    matching: dict[str, list[str]] = {}
    for template, operations in request.app.openapi().get("paths", {}).items():
        pattern = re.sub(r"\\{[^/]+?\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            matching[template] = [method.upper() for method in operations]
    if not matching:
        return None
    return ", ".join(sorted(matching[min(matching, key=lambda template: template.count("{"))]))


def _http_problem(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 413:  # the body outgrew the limit while it streamed in
        return too_large(request.scope)
    detail = exc.detail if isinstance(exc.detail, str) else "request failed"
    response = problem(request.scope, exc.status_code, detail, detail)
    if exc.headers:
        response.headers.update(exc.headers)
    if exc.status_code == 405 and (allowed := _allowed_methods(request)):
        response.headers["Allow"] = allowed
    return response


def install(app: FastAPI) -> None:
    """Register the problem+json handlers on ``app``; unexpected errors are the edge's (500)."""
    app.add_exception_handler(RequestValidationError, _validation_problem)
    app.add_exception_handler(EngramError, _engram_problem)
    app.add_exception_handler(StarletteHTTPException, _http_problem)
