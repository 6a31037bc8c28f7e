"""The console's languages: one message catalogue per language (``messages/<code>.json``).

A catalogue maps a message id (``episodes.search.title``) to its text, with ``{name}``
placeholders filled by :meth:`Catalogue.text`. The language is the one the visitor chose
(the ``engram_lang`` cookie), else the best of the browser's ``Accept-Language``, else English.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from fastapi import Request

LANGUAGES: dict[str, str] = {"en": "English", "zh": "中文"}
"""Language code → its name in itself (what the switch shows)."""
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "engram_lang"
HTML_LANG = {"en": "en", "zh": "zh-CN"}


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The messages of one language."""

    language: str
    messages: dict[str, str]

    def text(self, message_id: str, /, **values: object) -> str:
        """Return the message, its ``{placeholders}`` filled; an unknown id is returned as is (visible)."""
        message = self.messages.get(message_id, message_id)
        return message.format(**values)


@cache
def catalogue(language: str) -> Catalogue:
    """Return the catalogue of ``language`` (one of LANGUAGES)."""
    raw = files("engram.api.console").joinpath("messages", f"{language}.json").read_text(encoding="utf-8")
    return Catalogue(language, json.loads(raw))


def negotiate(accept_language: str | None) -> str:
    """Return the supported language the ``Accept-Language`` header prefers (``zh-CN,zh;q=0.9`` → zh)."""
    best, best_q = DEFAULT_LANGUAGE, -1.0
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().split("-")[0]
        if code not in LANGUAGES:
            continue
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if quality <= 0:  # q=0: not acceptable
            continue
        quality -= position * 1e-6  # equal weights: the first listed wins
        if quality > best_q:
            best, best_q = code, quality
    return best


def language(request: Request) -> str:
    """Return the language to answer ``request`` in."""
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return negotiate(request.headers.get("accept-language"))
