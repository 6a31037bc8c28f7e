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
``max_retries`` retries ExtractionError (HTTP 502) carries the tokens spent; the caller
stores the episode with ``extraction_status: failed`` and ``engram reextract`` retries it.
"""

from __future__ import annotations

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
    Usage,
    message_text,
    parse_extraction,
    reply_usage,
)
from engram.models.episodes import Episode
from engram.models.graph import Extraction
from engram.observability import metrics
from engram.timeutil import as_utc

__all__ = [
    "PROMPT_VERSION",
    "SYSTEM_PROMPT",
    "ExtractionError",
    "LLMExtractor",
    "LLMResult",
    "ParsedExtraction",
    "Usage",
    "parse_extraction",
]

PROMPT_VERSION = "extract-v1"

_EXAMPLES = (
    (
        "李强",
        "我下个月搬到杭州，预算提高到80万。",
        '{"entities": [{"name": "李强", "type": "person", "aliases": []}, '
        '{"name": "杭州", "type": "place", "aliases": ["Hangzhou"]}], '
        '"facts": [{"subject": "李强", "predicate": "MOVES_TO", "object": "杭州", '
        '"fact": "李强下个月搬到杭州。", "valid_at": null, "confidence": 0.9}, '
        '{"subject": "李强", "predicate": "BUDGET", "value": 800000, '
        '"fact": "李强的预算提高到80万。", "confidence": 0.9}]}',
    ),
    (
        "Anna Schmidt",
        "I joined Acme as CTO on May 8, 2023. On weekends I prefer tea.",
        '{"entities": [{"name": "Anna Schmidt", "type": "person", "aliases": []}, '
        '{"name": "Acme", "type": "organization", "aliases": []}], '
        '"facts": [{"subject": "Anna Schmidt", "predicate": "WORKS_AT", "object": "Acme", '
        '"fact": "Anna Schmidt joined Acme as CTO on May 8, 2023.", "valid_at": "2023-05-08", '
        '"confidence": 1.0}, {"subject": "Anna Schmidt", "predicate": "PREFERS", "value": "tea", '
        '"fact": "Anna Schmidt prefers tea on weekends.", "conditions": {"when": "weekends"}, '
        '"confidence": 0.8}]}',
    ),
)
"""(speaker, episode, answer): tests check that each answer parses into a valid Extraction."""

SYSTEM_PROMPT = """\
You extract a knowledge graph from one episode of an AI agent's memory (a message, a note,
a document). Answer with one JSON object and nothing else: no prose, no code fences.

Shape:
{"entities": [{"name": str, "type": str, "aliases": [str]}],
 "facts": [{"subject": str, "predicate": str, "object": str or null, "value": str or number
   or boolean or null, "fact": str, "valid_at": str or null, "invalid_at": str or null,
   "conditions": {str: str}, "confidence": number}]}

Rules:
- entities: the people, organizations, places, projects, products, events and other named
  things the episode talks about. type is lower_snake_case: person, organization, place,
  project, product, event, concept, thing.
- facts: claims worth remembering about an entity. subject is the name of an entity in
  "entities". Give exactly one of object (the name of another entity in "entities") or
  value (a literal: an amount, a quantity, a preference, a status).
- predicate: an English verb phrase in UPPER_SNAKE_CASE whatever the episode's language:
  LIVES_IN, WORKS_AT, MANAGES, BUDGET, PREFERS.
- fact: one sentence stating the claim, in the episode's language, with its time expression
  kept as written ("下个月", "next Tuesday").
- The first person ("I", "me", "my", "我") is the speaker named above the episode: use the
  speaker's name, never "I" or "我". If the speaker is unknown, call them "speaker".
- valid_at / invalid_at: ISO 8601 (2023-05-08 or 2023-05-08T15:00:00Z) only when the episode
  states a full date with its year; otherwise null (relative dates are resolved later).
- conditions scope a fact ({"when": "weekends"}); confidence is 0 to 1, lower for hedged or
  inferred claims.
- Greetings and chit-chat: {"entities": [], "facts": []}.
""" + "".join(
    f"\nExample {n}. Speaker: {speaker}\nEpisode: {text}\nAnswer: {answer}\n"
    for n, (speaker, text, answer) in enumerate(_EXAMPLES, 1)
)
"""The system message. Change PROMPT_VERSION with it: token counts are recorded per prompt."""


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
