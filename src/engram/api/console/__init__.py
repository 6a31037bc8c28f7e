"""The memory console at ``/admin``: server-rendered pages (Jinja2, vendored htmx) over Memory."""

from engram.api.console.app import create_console
from engram.api.console.auth import KeyCheck, Principal, check_api_key

__all__ = ["KeyCheck", "Principal", "check_api_key", "create_console"]
