"""REST routes that refuse what they would silently ignore: a query parameter they do not take.

A misspelt or misplaced filter (``timestamp_after`` on the list, which takes ``after``) used to be
dropped, and the answer looked right while it was unfiltered. Unknown body fields were already a
422 (the models forbid extras); now an unknown query parameter is one too, naming it and the
parameters the route takes. The OpenAPI document is unchanged: only the handler checks.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.dependencies.models import Dependant

from engram.api.rest.json_body import StrictJSONRoute
from engram.api.rest.slots import RequestSlots
from engram.errors import InvalidInput, shown


class StrictRoute(StrictJSONRoute):
    """A StrictJSONRoute that answers an unknown query parameter with a 422 naming it, and runs a
    request only in one of the app's read or write slots (``app.state.slots``, engram.api.rest.slots)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        """Return the JSON-strict handler, behind a check of the query's parameter names."""
        handler = super().get_route_handler()
        known = _query_names(self.dependant)

        async def checked_handler(request: Request) -> Response:
            unknown = [name for name in request.query_params if name not in known]
            if unknown:
                takes = ", ".join(sorted(known)) or "none"
                detail = f"unknown query parameter {shown(unknown[0])}; this route takes: {takes}"
                raise InvalidInput(detail, field=unknown[0])
            slots: RequestSlots | None = getattr(request.app.state, "slots", None)
            if slots is None:
                return await handler(request)
            async with slots.of(request):
                return await handler(request)

        return checked_handler


def _query_names(dependant: Dependant) -> frozenset[str]:
    """Return the names of the query parameters a route and its dependencies declare."""
    names = {field.alias for field in dependant.query_params}
    for dependency in dependant.dependencies:
        names |= _query_names(dependency)
    return frozenset(names)
