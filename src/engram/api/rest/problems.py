"""Map errors to ``application/problem+json`` responses (RFC 9457). Never a stack trace."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from engram.errors import EngramError
from engram.validation import field_path

PROBLEM_JSON = "application/problem+json"
logger = logging.getLogger("engram.api")


def problem(status: int, title: str, detail: str, **extra: Any) -> JSONResponse:
    """Return a problem+json response; ``extra`` members are added when not None."""
    body = {"type": "about:blank", "status": status, "title": title, "detail": detail}
    body.update({key: value for key, value in extra.items() if value is not None})
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)


def _validation_problem(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = []
    for error in exc.errors():
        field = field_path(error["loc"])
        if error["type"] == "json_invalid":
            field = "body"
            message = f"invalid JSON: {error.get('ctx', {}).get('error', 'cannot parse the body')}"
        elif error["type"] == "extra_forbidden":
            message = "unknown field"
        else:
            message = error["msg"].removeprefix("Value error, ")
        errors.append({"field": field, "message": message})
    first = errors[0] if errors else {"field": "body", "message": "invalid request"}
    return problem(
        422, "Invalid input", f"{first['field']}: {first['message']}", field=first["field"], errors=errors
    )


def _engram_problem(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, EngramError)
    return problem(exc.status, exc.title, exc.detail, field=exc.field, **exc.extra)


def _http_problem(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else "request failed"
    response = problem(exc.status_code, detail, detail)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


def _unexpected_problem(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem(500, "Internal error", "the server failed to handle this request; see its log")


def install(app: FastAPI) -> None:
    """Register the problem+json handlers on ``app``."""
    app.add_exception_handler(RequestValidationError, _validation_problem)
    app.add_exception_handler(EngramError, _engram_problem)
    app.add_exception_handler(StarletteHTTPException, _http_problem)
    app.add_exception_handler(Exception, _unexpected_problem)
