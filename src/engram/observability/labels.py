"""Bounded label values for the metrics: no client-chosen text ever becomes a new time series.

An intent or source outside the configured set is counted as ``other``, a missing one as
``none``. The interface (REST, MCP, console, or a library call) is set per request by the
edge that received it, in a context variable that worker threads inherit.
"""

from __future__ import annotations

from collections.abc import Collection
from contextvars import ContextVar

DEFAULT_INTENTS: tuple[str, ...] = (
    "request_info",
    "provide_quote",
    "negotiate_price",
    "confirm_date",
    "reschedule_meeting",
    "place_order",
    "cancel_order",
    "complain_product",
    "report_bug",
    "request_refund",
    "escalate_risk",
    "reject_requirement",
    "accept_proposal",
    "close_deal",
    "follow_up",
    "share_document",
)
"""The default intent taxonomy (sales and support)."""

DEFAULT_SOURCES: tuple[str, ...] = (
    "api",
    "chat",
    "crm",
    "csv",
    "email",
    "import",
    "jsonl",
    "locomo",
    "mcp",
    "phone",
    "slack",
    "sms",
    "teams",
    "ticket",
    "web",
    "wechat",
    "wiki",
)
"""Sources that get a label of their own unless configured otherwise."""

OTHER = "other"
NONE = "none"

INTERFACES = ("rest", "mcp", "console", "library")
INTERFACE: ContextVar[str] = ContextVar("engram_interface", default="library")
"""Which edge the current request came through; ``library`` for direct calls (CLI, embedding)."""


def bounded(value: str | None, allowed: Collection[str]) -> str:
    """Return ``value`` when it is in ``allowed``, ``none`` when missing, else ``other``."""
    if value is None:
        return NONE
    return value if value in allowed else OTHER
