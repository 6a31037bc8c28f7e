"""Extract entities and facts with any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, …).

``LLMExtractor(base_url, model).extract(episode)`` sends ``POST {base_url}/chat/completions``
with a system prompt (``SYSTEM_PROMPT``, version ``PROMPT_VERSION``) and the Extraction JSON
schema as ``response_format``; ``extract_result`` also returns the tokens used, the items
dropped and the attempts made, for the pipeline to record per episode.

Replies are parsed tolerantly by ``engram.ingest.llm_parse.parse_extraction`` (re-exported
here): ``<think>`` blocks, code fences, prose and renamed keys are tolerated, invalid items
dropped one by one and counted.

Failures: 429, 5xx, timeouts, connection errors and unparseable replies are retried with
exponential backoff (``backoff * 2**n`` seconds, at most ``max_backoff``; a Retry-After header
wins); other 4xx are not. A 400/422 while sending a ``json_schema`` response format falls
back to ``json_object``, then to none (older servers), and stays there. After
``max_retries`` retries ExtractionError (HTTP 502) carries the tokens spent (at once for a
refusal: the model declining says nothing a retry would change); the caller
stores the episode with ``extraction_status: failed`` and ``engram reextract`` retries it.
"""

from __future__ import annotations

import hashlib
import textwrap
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from engram.errors import ExtractionError, InvalidInput
from engram.ingest.llm_parse import (
    ParsedExtraction,
    Refusal,
    Usage,
    message_text,
    parse_extraction,
    reply_usage,
)
from engram.models.episodes import Episode
from engram.models.graph import Extraction
from engram.models.predicates import REGISTRY
from engram.observability import metrics
from engram.timeutil import as_utc

__all__ = [
    "PROMPT_VERSION",
    "SYSTEM_PROMPT",
    "ExtractionError",
    "LLMExtractor",
    "LLMResult",
    "ParsedExtraction",
    "Refusal",
    "Usage",
    "parse_extraction",
]

_EXAMPLES = (
    (
        "李强",
        "其实我住在杭州滨江区，周末在家办公。上个月把微信读书卸载了，不再用了。",
        '{"entities": [{"name": "李强", "type": "person", "aliases": []}, '
        '{"name": "滨江区", "type": "place", "aliases": []}, '
        '{"name": "杭州", "type": "place", "aliases": ["Hangzhou"]}, '
        '{"name": "微信读书", "type": "product", "aliases": []}], '
        '"facts": [{"subject": "李强", "predicate": "LIVES_IN", "object": "滨江区", '
        '"fact": "李强其实住在杭州滨江区。", "confidence": 0.9, "source_kind": "stated"}, '
        '{"subject": "滨江区", "predicate": "PART_OF", "object": "杭州", "fact": "滨江区在杭州。", '
        '"confidence": 1.0, "source_kind": "stated"}, '
        '{"subject": "李强", "predicate": "WORKS_FROM", "value": "家", "fact": "李强周末在家办公。", '
        '"conditions": {"when": "周末"}, "confidence": 0.9, "source_kind": "stated"}, '
        '{"subject": "李强", "predicate": "STOPPED_USING", "object": "微信读书", '
        '"fact": "李强上个月卸载了微信读书，不再用了。", "valid_at": null, "confidence": 0.9, '
        '"source_kind": "stated"}]}',
    ),
    (
        "Anna Schmidt",
        "I left Globex and joined Acme on May 8, 2023. My brother loves Muse. Maybe I'll try tea.",
        '{"entities": [{"name": "Anna Schmidt", "type": "person", "aliases": []}, '
        '{"name": "Globex", "type": "organisation", "aliases": []}, '
        '{"name": "Acme", "type": "organisation", "aliases": []}, '
        '{"name": "Anna Schmidt\'s brother", "type": "person", "aliases": []}], '
        '"facts": [{"subject": "Anna Schmidt", "predicate": "LEFT_ORGANISATION", "object": "Globex", '
        '"fact": "Anna Schmidt left Globex.", "confidence": 1.0, "source_kind": "stated"}, '
        '{"subject": "Anna Schmidt", "predicate": "WORKS_AT", "object": "Acme", '
        '"fact": "Anna Schmidt joined Acme on May 8, 2023.", "valid_at": "2023-05-08", '
        '"confidence": 1.0, "source_kind": "stated"}, '
        '{"subject": "Anna Schmidt\'s brother", "predicate": "SIBLING_OF", "object": "Anna Schmidt", '
        '"fact": "Anna Schmidt has a brother.", "confidence": 1.0, "source_kind": "stated"}, '
        '{"subject": "Anna Schmidt\'s brother", "predicate": "LIKES", "value": "Muse", '
        '"fact": "Anna Schmidt\'s brother loves Muse.", "confidence": 1.0, "source_kind": "stated"}, '
        '{"subject": "Anna Schmidt", "predicate": "PLANS_TO", "value": "try tea", '
        '"fact": "Anna Schmidt may try tea.", "confidence": 0.5, "source_kind": "stated"}]}',
    ),
)
"""(speaker, episode, answer): tests check that each answer parses into a valid Extraction."""


def _registry_lines() -> str:
    """Return the prompt's predicate vocabulary, read from the registry so the two never drift."""
    names = ", ".join(REGISTRY)
    endings = ", ".join(f"{p.name} ends {p.ends}" for p in REGISTRY.values() if p.ends)
    lines = (f"- predicate names to prefer: {names}.", f"- ending predicates: {endings}.")
    return "".join(textwrap.fill(line, 92, subsequent_indent="  ") + "\n" for line in lines)


SYSTEM_PROMPT = (
    """\
You extract a knowledge graph from one episode of an AI agent's memory (a message, a note,
a document). Answer with one JSON object and nothing else: no prose, no code fences.

Shape:
{"entities": [{"name": str, "type": str, "aliases": [str]}],
 "facts": [{"subject": str, "predicate": str, "object": str or null, "value": str or number
   or boolean or null, "fact": str, "valid_at": str or null, "invalid_at": str or null,
   "conditions": {str: str}, "confidence": number, "source_kind": "stated" or "inferred"}]}

Rules:
- entities: the people, organisations, places, projects, products, events and other named
  things the episode talks about. type: person, organisation, place, project, product,
  event, animal, document, concept or thing.
- facts: claims worth remembering. subject names an entity in "entities"; give exactly one
  of object (another entity's name) or value (an amount, a date, a word).
- predicate: English UPPER_SNAKE_CASE whatever the episode's language.
"""
    + _registry_lines()
    + """\
- Who: the first person ("I", "my", "我") is the speaker named above the episode: use the
  speaker's name (unknown speaker: "speaker"). A relative or colleague without a name is a
  separate person named after the speaker ("Anna's brother", "李强的哥哥") and linked to the
  speaker by a fact; what they like or do is theirs, not the speaker's.
- Endings: what stopped or no longer holds ("no longer", "quit", "不再", "卸载了", "搬走了")
  is a fact with the ending predicate, whose object is what ended; a plain "don't like" /
  "不喜欢" is DISLIKES. A stated end date goes in invalid_at of the fact that ended.
- Corrections and refinements ("actually", "more precisely", "其实", "更正"): give the new or
  finer fact with the same predicate and keep the cue word in "fact"; a place inside
  another also gets a PART_OF fact.
- fact: one sentence in the episode's language, keeping its time words ("下个月", "next
  Tuesday"). conditions (when or where it holds) are in the episode's language too.
- valid_at / invalid_at: ISO 8601 only for a date written in full with its year
  ("2024-06-05", "2024年6月5日", "May 8, 2023"); else null: relative dates are resolved later.
- confidence 0..1: 1 for plain statements, lower for hedged ones ("maybe", "可能").
  source_kind: "stated" when the episode says it, "inferred" when you conclude it.
- Questions, greetings and chit-chat: {"entities": [], "facts": []}.
"""
    + "".join(
        f"\nExample {n}. Speaker: {speaker}\nEpisode: {text}\nAnswer: {answer}\n"
        for n, (speaker, text, answer) in enumerate(_EXAMPLES, 1)
    )
)
"""The system message; its vocabulary comes from the predicate registry."""

PROMPT_VERSION = "extract-v2-" + hashlib.sha256(SYSTEM_PROMPT.encode()).hexdigest()[:8]
"""Recorded with each extraction's tokens: the revision, then a digest of the exact prompt sent
(the registry's predicates are part of it, so a registry change gives a new version)."""


@dataclass(frozen=True, slots=True)
class LLMResult:
    """One episode's extraction, with what it cost: tokens (all attempts), attempts, drops."""

    extraction: Extraction
    usage: Usage
    attempts: int
    dropped: int
    model: str
    prompt_version: str


# -- the extractor ------------------------------------------------------------------------------

_FORMATS = ("json_schema", "json_object", "none")


@dataclass(frozen=True, slots=True)
class _Outcome:
    """One attempt: the parsed reply, or why not (``final``: retrying will not help)."""

    parsed: ParsedExtraction | None = None
    usage: Usage = field(default_factory=Usage)
    problem: str = ""
    wait: float | None = None
    final: bool = False


def _response_format(kind: str) -> dict[str, Any] | None:
    if kind == "json_schema":
        schema = Extraction.model_json_schema()
        return {
            "type": "json_schema",
            "json_schema": {"name": "extraction", "strict": False, "schema": schema},
        }
    return {"type": "json_object"} if kind == "json_object" else None


def _retry_after(response: httpx.Response) -> float | None:
    """Return the seconds a Retry-After header asks for (a number or an HTTP date), or None."""
    header = response.headers.get("retry-after")
    if not header:
        return None
    try:
        return max(0.0, float(header))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return max(0.0, (as_utc(when) - datetime.now(UTC)).total_seconds())


class LLMExtractor:
    """An Extractor backed by an OpenAI-compatible chat endpoint (``POST {base_url}/chat/completions``).

    ``timeout`` is per request, in seconds; ``max_retries`` retries follow the first attempt,
    waiting ``backoff * 2**n`` seconds (at most ``max_backoff``, or what Retry-After asks,
    capped the same way). ``sleep`` is how it waits (tests pass a recorder). Usable from
    several threads; ``last_result`` is then whichever finished last: prefer
    ``extract_result``.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff: float = 1.0,
        max_backoff: float = 60.0,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
        response_format: str = "json_schema",
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if response_format not in _FORMATS:
            raise InvalidInput(
                f"response_format must be one of {', '.join(_FORMATS)}", field="response_format"
            )
        self.name = f"llm:{model}"
        self.model = model
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.last_result: LLMResult | None = None
        self.total_usage = Usage()
        self._temperature = temperature
        self._max_tokens = max_tokens
        self._format = _FORMATS.index(response_format)
        self._sleep = sleep
        self._lock = threading.Lock()
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=timeout)

    def messages(self, episode: Episode) -> list[dict[str, str]]:
        """Return the chat messages for ``episode``: the system prompt, then the speaker and content."""
        actor = episode.actor
        if actor is None:
            speaker = "Speaker: unknown"
        else:
            speaker = f"Speaker: {actor.name or actor.id} ({actor.type}, id {actor.id})"
        header = [speaker] + ([f"Source: {episode.source}"] if episode.source else [])
        user = "\n".join([*header, "Episode:", episode.content])
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]

    def _body(self, episode: Episode) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": self.messages(episode)}
        if self._temperature is not None:
            body["temperature"] = self._temperature
        if self._max_tokens is not None:
            body["max_tokens"] = self._max_tokens
        response_format = _response_format(_FORMATS[self._format])
        if response_format is not None:
            body["response_format"] = response_format
        return body

    def extract(self, episode: Episode) -> Extraction:
        """Return what the model finds in ``episode``; raise ExtractionError when it cannot say."""
        return self.extract_result(episode).extraction

    def extract_with_usage(self, episode: Episode) -> tuple[Extraction, dict[str, int]]:
        """Return the extraction and the tokens it cost (MeteredExtractor)."""
        result = self.extract_result(episode)
        usage = result.usage
        return result.extraction, {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
        }

    def extract_result(self, episode: Episode) -> LLMResult:
        """Return the extraction of ``episode`` with the tokens it cost, attempts and drops.

        Raises ExtractionError (with ``usage`` and ``attempts``) after the retries, or at
        once for a 4xx other than 408/429.
        """
        speaker = (episode.actor.name or episode.actor.id) if episode.actor else None
        usage, attempts = Usage(), 0
        while True:
            attempts += 1
            outcome = self._attempt(episode, speaker)
            usage += outcome.usage
            metrics.count_llm_tokens(outcome.usage.prompt_tokens, outcome.usage.completion_tokens)
            if outcome.parsed is not None:
                parsed = outcome.parsed
                result = LLMResult(
                    parsed.extraction, usage, attempts, parsed.dropped, self.model, PROMPT_VERSION
                )
                with self._lock:
                    self.last_result = result
                    self.total_usage += usage
                return result
            if outcome.final or attempts > self.max_retries:
                with self._lock:
                    self.total_usage += usage
                detail = f"{self.name} at {self._client.base_url} failed after {attempts} attempt(s)"
                raise ExtractionError(f"{detail}: {outcome.problem}", usage=usage, attempts=attempts)
            wait = outcome.wait if outcome.wait is not None else self.backoff * 2 ** (attempts - 1)
            metrics.LLM_RETRIES.inc()
            self._sleep(min(self.max_backoff, wait))

    def _attempt(self, episode: Episode, speaker: str | None) -> _Outcome:
        """Make one request (plus response_format fallbacks) and parse its reply."""
        while True:
            try:
                response = self._client.post("/chat/completions", json=self._body(episode))
            except httpx.TimeoutException:
                return _Outcome(problem=f"timed out after {self._client.timeout.read}s")
            except httpx.TransportError as exc:
                return _Outcome(problem=f"connection failed: {exc!r}")
            status = response.status_code
            if status not in (400, 422) or self._format == len(_FORMATS) - 1:
                break
            self._format += 1  # the server does not take this response_format: try the next
        if status in (408, 429) or status >= 500:
            return _Outcome(problem=f"HTTP {status}: {response.text[:200]}", wait=_retry_after(response))
        if status >= 400:
            return _Outcome(problem=f"HTTP {status}: {response.text[:200]}", final=True)
        usage = Usage()
        try:
            payload = response.json()
            usage = reply_usage(payload)
            return _Outcome(parse_extraction(message_text(payload), speaker=speaker), usage)
        except Refusal as exc:
            return _Outcome(usage=usage, problem=str(exc), final=True)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            return _Outcome(usage=usage, problem=f"bad reply: {exc}")
        except ExtractionError as exc:
            return _Outcome(usage=usage, problem=exc.detail)

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> LLMExtractor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
