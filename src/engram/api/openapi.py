"""The OpenAPI document: FastAPI's, with every error a problem+json body of one ``Problem`` schema.

Routes document their own error statuses (``problem_responses``); the statuses the edge can
answer on any route (403, 413, 421, 500, 503), the 401 of every route that needs an API key
(``/v1``) and the 422 FastAPI adds are completed here. The document declares the bearer scheme.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from engram.api.rest.problems import Problem, problem_responses

EVERY_ROUTE = (403, 413, 421, 500, 503)
"""Statuses the edge or the store can answer on any route."""
KEYED_PREFIX = "/v1/"
"""Routes under this prefix need an API key (once keys exist): 401 without one."""
BEARER = {"apiKey": {"type": "http", "scheme": "bearer", "description": "An API key (`engram keys create`)."}}


def _problem_schemas() -> dict[str, Any]:
    schema = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    definitions: dict[str, Any] = schema.pop("$defs", {})
    return {**definitions, "Problem": schema}


def document(app: FastAPI) -> dict[str, Any]:
    """Return the app's OpenAPI document with problem+json error responses on every operation."""
    schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    schemas.update(_problem_schemas())
    schema["components"]["securitySchemes"] = BEARER
    for path, path_item in schema.get("paths", {}).items():
        keyed = path.startswith(KEYED_PREFIX)
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            statuses = [*([401] if keyed else []), *EVERY_ROUTE, *([422] if "422" in responses else [])]
            for status, response in problem_responses(*statuses).items():
                responses[str(status)] = response
            if keyed:
                operation["security"] = [{"apiKey": []}, {}]  # none needed on loopback while no key exists
    return schema


def install(app: FastAPI) -> None:
    """Make ``app`` serve ``document(app)`` at /openapi.json (built once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
