"""Render console pages: the Jinja2 environment, the context every page shares, and text helpers."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from engram.api.console.auth import Principal, csrf_token
from engram.api.console.context import current_group, memory_of
from engram.api.console.i18n import HTML_LANG, LANGUAGES, catalogue, language
from engram.memory import Memory
from engram.nlp.tokenize import has_cjk, query_terms

SNIPPET = 280
"""Characters of content shown around the first highlighted word in a search result."""


def environment() -> Environment:
    """Return the Jinja2 environment of the console's templates (autoescaped, strict)."""
    env = Environment(
        loader=PackageLoader("engram.api.console", "templates"),
        autoescape=select_autoescape(default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = when
    # ``tojson`` shows details, metadata and previews to people: 杭州, not \u676d\u5dde (still
    # HTML-safe: Jinja escapes <, >, & and ' after dumping).
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
    return env


def when(value: datetime | str | None) -> str:
    """Return a UTC time as ``2026-05-01 14:03 UTC`` (empty for None)."""
    if value is None:
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.strftime("%Y-%m-%d %H:%M UTC")


def page(
    request: Request, template: str, who: Principal | None, status_code: int = 200, **context: Any
) -> HTMLResponse:
    """Render ``template`` with the shared context (language, principal, CSRF token, group, flashes)."""
    lang = language(request)
    messages = catalogue(lang)
    flashes = [messages.text(mid, **values) for mid, values in request.session.pop("flash", [])]
    memory = memory_of(request)
    shared = {
        "request": request,
        "t": messages.text,
        "lang": lang,
        "html_lang": HTML_LANG[lang],
        "languages": LANGUAGES,
        "who": who,
        "can_write": who is not None and who.can("write"),
        "can_admin": who is not None and who.can("admin"),
        "csrf": csrf_token(request),
        "group": current_group(request),
        "groups": [] if who is None or who.groups is None else sorted(who.groups),
        "flashes": flashes,
        "intent_label": _intent_labels(memory, lang),
        "here": request.url.path + (f"?{request.url.query}" if request.url.query else ""),
    }
    html = request.app.state.templates.get_template(template).render(**shared, **context)
    return HTMLResponse(html, status_code=status_code)


def fragment(request: Request, template: str, **context: Any) -> HTMLResponse:
    """Render a piece of a page (an htmx swap) with the visitor's language only."""
    messages = catalogue(language(request))
    html = request.app.state.templates.get_template(template).render(t=messages.text, **context)
    return HTMLResponse(html)


def _intent_labels(memory: Memory, lang: str) -> dict[str, str]:
    return {intent.name: intent.label(lang) for intent in memory.intents()}


def highlight(text: str, query: str, *, window: int | None = SNIPPET) -> Markup:
    """Return ``text`` escaped, the query's words marked with ``<mark>``; cut to a window around the
    first match when ``window`` is given."""
    terms = sorted({t for t in query_terms(query) if len(t) > 1 or has_cjk(t)}, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(t) for t in terms), re.IGNORECASE) if terms else None
    first = pattern.search(text) if pattern else None
    if window is not None and len(text) > window:
        start = max(0, (first.start() if first else 0) - window // 3)
        text = (
            ("…" if start else "")
            + text[start : start + window]
            + ("…" if start + window < len(text) else "")
        )
    if pattern is None:
        return Markup(escape(text))
    pieces, last = [], 0
    for match in pattern.finditer(text):
        pieces += [
            escape(text[last : match.start()]),
            Markup("<mark>"),
            escape(match.group()),
            Markup("</mark>"),
        ]
        last = match.end()
    pieces.append(escape(text[last:]))
    return Markup("").join(pieces)
