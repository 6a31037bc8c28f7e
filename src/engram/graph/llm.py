"""Extract entities and facts with any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, …).

``LLMExtractor(base_url, model).extract(episode)`` sends ``POST {base_url}/chat/completions``
with a system prompt (``SYSTEM_PROMPT``, version ``PROMPT_VERSION``) and the Extraction JSON
schema as ``response_format``; ``extract_result`` also returns the tokens used, the items
dropped and the attempts made, for the pipeline to record per episode.

Replies are parsed tolerantly (``parse_extraction``): ``<think>`` blocks, code fences and
prose around the JSON are ignored; renamed keys are mapped (``relations``/``edges`` → facts,
``nodes`` → entities, ``source``/``from`` → subject, ``relation``/``type`` → predicate,
``target``/``to`` → object, …); predicates are UPPER_SNAKE'd; "I"/"我" become the speaker;
invalid items are dropped one by one and counted, the valid ones kept.

Failures: 429, 5xx, timeouts, connection errors and unparseable replies are retried with
exponential backoff (``backoff * 2**n`` seconds, at most ``max_backoff``; a Retry-After header
wins); other 4xx are not. A 400/422 while sending a ``json_schema`` response format falls
back to ``json_object``, then to none (older servers), and stays there. After
``max_retries`` retries ExtractionError (HTTP 502) carries the tokens spent; the caller
stores the episode with ``extraction_status: failed`` and ``engram reextract`` retries it.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx
from pydantic import ValidationError

from engram.errors import EngramError
from engram.graph.models import PREDICATE_PATTERN, EntityIn, Extraction, FactIn
from engram.models import Episode, as_utc

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


class ExtractionError(EngramError):
    """The extractor failed (endpoint unreachable, refusing, or answering with no usable JSON)."""

    status = 502
    title = "Extraction failed"
    exit_code = 5

    def __init__(self, detail: str, *, usage: Usage | None = None, attempts: int = 0) -> None:
        super().__init__(detail)
        self.usage = usage or Usage()
        self.attempts = attempts


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens an endpoint reported (its ``usage``), summed over requests."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    requests: int = 0

    @property
    def total_tokens(self) -> int:
        """Return prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.requests + other.requests,
        )


@dataclass(frozen=True, slots=True)
class ParsedExtraction:
    """What ``parse_extraction`` made of a reply: the valid items, and how many were dropped."""

    extraction: Extraction
    dropped: int


@dataclass(frozen=True, slots=True)
class LLMResult:
    """One episode's extraction, with what it cost: tokens (all attempts), attempts, drops."""

    extraction: Extraction
    usage: Usage
    attempts: int
    dropped: int
    model: str
    prompt_version: str


# -- tolerant parsing ---------------------------------------------------------------------------

_THINK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_THINK_TAIL = re.compile(r"^.*?</(?:think|thinking|reasoning)>", re.S | re.I)
"""Servers that strip the opening tag leave "reasoning…</think>{json}"."""
_FENCE = re.compile(r"```[a-zA-Z]*[ \t]*\n?(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_MAX_STARTS = 64

_WRAPPERS = ("extraction", "result", "results", "output", "data", "graph", "knowledge_graph", "response")
_ENTITY_LISTS = ("entities", "nodes", "entity_list", "entity")
_FACT_LISTS = ("facts", "relations", "relationships", "edges", "triples", "triplets", "claims", "statements")
_NAME = ("name", "entity", "entity_name", "label", "text", "title", "id")
_TYPE = ("type", "entity_type", "category", "kind", "class")
_SUBJECT = ("subject", "source", "from", "head", "subj", "src", "source_entity", "entity")
_PREDICATE: tuple[str, ...] = (
    "predicate",
    "relation",
    "relationship",
    "rel",
    "relation_type",
    "type",
    "label",
    "verb",
)
_PREDICATE += ("property", "attribute")
_OBJECT = ("object", "target", "to", "tail", "obj", "dst", "target_entity")
_VALUE = ("value", "literal", "amount")
_SENTENCE = ("fact", "sentence", "description", "statement", "text", "evidence", "summary")
_VALID = ("valid_at", "valid_from", "start", "start_date", "since", "date")
_INVALID = ("invalid_at", "valid_to", "valid_until", "end", "end_date", "until")
_CONFIDENCE_WORDS = {"high": 0.9, "medium": 0.6, "low": 0.3}
_FIRST_PERSON = frozenset({"i", "me", "my", "myself", "speaker", "the speaker", "user", "the user"})
_FIRST_PERSON |= {"我", "本人", "自己"}


def _json_candidates(text: str) -> Iterator[str]:
    for fence in _FENCE.finditer(text):
        yield fence[1]
    yield text


def _decode(text: str) -> Any:
    """Return the first JSON object (or array) in ``text``; raise ValueError when there is none."""
    text = _THINK_TAIL.sub("", _THINK.sub("", text)).replace("<think>", "")
    decoder = json.JSONDecoder()
    for candidate in _json_candidates(text):
        for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
            starts = [i for i, char in enumerate(attempt) if char in "{["][:_MAX_STARTS]
            for start in starts:
                try:
                    value, _ = decoder.raw_decode(attempt, start)
                except ValueError:
                    continue
                if isinstance(value, dict) or (
                    isinstance(value, list) and any(isinstance(i, dict | list) for i in value)
                ):
                    return value
    raise ValueError("no JSON object in the reply")


def _lower_keys(item: dict[Any, Any]) -> dict[str, Any]:
    return {
        str(key).strip().lower().replace("-", "_").replace(" ", "_"): value for key, value in item.items()
    }


def _first(item: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = item.get(key)
        if value is not None and value != "":
            return value
    return None


def _lists(payload: Any) -> tuple[list[Any], list[Any]]:
    """Return the raw entity and fact items of a reply, whatever the top-level keys are called."""
    if isinstance(payload, list):
        facts = [i for i in payload if isinstance(i, dict | list) and not _is_entity(i)]
        return [i for i in payload if _is_entity(i)], facts
    top = _lower_keys(payload)
    if not any(key in top for key in _ENTITY_LISTS + _FACT_LISTS):
        inner = [top[key] for key in _WRAPPERS if isinstance(top.get(key), dict)]
        if inner:
            return _lists(inner[0])
    entities, facts = _first(top, _ENTITY_LISTS), _first(top, _FACT_LISTS)
    return (
        entities if isinstance(entities, list) else [],
        facts if isinstance(facts, list) else [],
    )


def _is_entity(item: Any) -> bool:
    if isinstance(item, str):
        return True
    if not isinstance(item, dict):
        return False
    keys = _lower_keys(item).keys()
    return not keys & {*_SUBJECT, *_OBJECT, "predicate", "relation"} and bool(keys & {"name", "entity_name"})


def _name(value: Any, speaker: str | None) -> str | None:
    if isinstance(value, dict):
        value = _first(_lower_keys(value), _NAME)
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    name = str(value).strip()
    if speaker and name.lower() in _FIRST_PERSON:
        return speaker
    return name or None


def _snake(value: str) -> str:
    value = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", value.strip())
    return re.sub(r"[^A-Za-z0-9]+", "_", value).strip("_")


def _entity_type(value: Any) -> str:
    snake = _snake(value).lower() if isinstance(value, str) else ""
    return snake[:64] if re.fullmatch(r"[a-z][a-z0-9_]*", snake) else "thing"


def _predicate(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    snake = _snake(value).upper()[:64]
    return snake if re.fullmatch(PREDICATE_PATTERN, snake) else None


def _scalars(value: Any, *, allow_none: bool) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {}
    kinds = (str, int, float, bool, type(None)) if allow_none else (str, int, float, bool)
    return {str(k): v for k, v in value.items() if isinstance(v, kinds)}


def _aliases(value: Any, name: str) -> list[str]:
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    aliases = [a.strip() for a in values if isinstance(a, str) and a.strip() and a.strip() != name]
    return list(dict.fromkeys(aliases))[:64]


def _date(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return as_utc(datetime.fromisoformat(value.strip()))
    except ValueError:
        return None


def _confidence(value: Any) -> float | None:
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _CONFIDENCE_WORDS:
            return _CONFIDENCE_WORDS[word]
        try:
            value = float(word.rstrip("%")) / (100 if word.endswith("%") else 1)
        except ValueError:
            return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if 1 < value <= 100:
        value = value / 100
    return float(value) if 0 <= value <= 1 else None


def _entity(raw: Any, speaker: str | None) -> dict[str, Any] | None:
    if isinstance(raw, str):
        raw = {"name": raw}
    if not isinstance(raw, dict):
        return None
    item = _lower_keys(raw)
    name = _name(_first(item, _NAME), speaker)
    if name is None:
        return None
    return {
        "name": name,
        "type": _entity_type(_first(item, _TYPE)),
        "aliases": _aliases(_first(item, ("aliases", "alias", "other_names")), name),
        "attributes": _scalars(_first(item, ("attributes", "properties", "attrs")), allow_none=True),
    }


def _fact(raw: Any, speaker: str | None) -> dict[str, Any] | None:
    if isinstance(raw, list) and len(raw) == 3:  # a triple
        raw = dict(zip(("subject", "predicate", "object"), raw, strict=True))
    if not isinstance(raw, dict):
        return None
    item = _lower_keys(raw)
    obj, value = _first(item, _OBJECT), _first(item, _VALUE)
    if obj is not None and not isinstance(obj, str | dict):  # a number or a boolean is a literal
        obj, value = None, value if value is not None else obj
    object_name = _name(obj, speaker) if obj is not None else None
    if object_name is not None:
        value = None
    elif isinstance(value, dict | list):
        value = json.dumps(value, ensure_ascii=False)
    valid_at, invalid_at = _date(_first(item, _VALID)), _date(_first(item, _INVALID))
    if valid_at and invalid_at and invalid_at < valid_at:
        invalid_at = None
    conditions = _first(item, ("conditions", "condition", "when"))
    sentence = _first(item, _SENTENCE)
    source_kind = item.get("source_kind")
    return {
        "subject": _name(_first(item, _SUBJECT), speaker),
        "predicate": _predicate(_first(item, _PREDICATE)),
        "object": object_name,
        "value": value,
        "fact": sentence[:2000] if isinstance(sentence, str) else None,
        "valid_at": valid_at,
        "invalid_at": invalid_at,
        "conditions": {"when": conditions}
        if isinstance(conditions, str)
        else _scalars(conditions, allow_none=False),
        "confidence": _confidence(item.get("confidence", item.get("score"))),
        "source_kind": source_kind if source_kind in ("stated", "inferred", "system") else None,
    }


def parse_extraction(text: str, *, speaker: str | None = None) -> ParsedExtraction:
    """Return the Extraction in an LLM reply, keeping every valid item and counting the others.

    ``speaker`` replaces first-person names ("I", "me", "我", "user"). Raises
    ExtractionError when the reply holds no JSON object or array at all.
    """
    try:
        payload = _decode(text)
    except ValueError as exc:
        raise ExtractionError(f"unparseable reply: {exc}: {text[:200]!r}") from exc
    raw_entities, raw_facts = _lists(payload)
    entities: dict[str, EntityIn] = {}
    facts: list[FactIn] = []
    dropped = 0
    for raw in raw_entities:
        try:
            entity = EntityIn.model_validate(_entity(raw, speaker))
        except ValidationError:
            dropped += 1
            continue
        entities.setdefault(entity.name, entity)
    for raw in raw_facts:
        try:
            facts.append(FactIn.model_validate(_fact(raw, speaker)))
        except ValidationError:
            dropped += 1
    kept = list(entities.values())
    dropped += max(0, len(kept) - 256) + max(0, len(facts) - 512)
    return ParsedExtraction(Extraction(entities=kept[:256], facts=facts[:512]), dropped)


# -- the extractor ------------------------------------------------------------------------------

_FORMATS = ("json_schema", "json_object", "none")


@dataclass(frozen=True, slots=True)
class _Outcome:
    """One attempt: the parsed reply, or why not (``final``: retrying will not help)."""

    parsed: ParsedExtraction | None = None
    usage: Usage = Usage()
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


def _message_text(payload: Any) -> str:
    """Return the assistant message's text; raise ValueError for a reply without one."""
    message = payload["choices"][0]["message"]
    content = message.get("content")
    if isinstance(content, list):  # content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if not isinstance(content, str) or not content.strip():
        refusal = message.get("refusal")
        raise ValueError(f"refused: {refusal}" if refusal else "empty reply")
    return content


def _usage(payload: Any) -> Usage:
    usage = payload.get("usage") if isinstance(payload, dict) else None
    if not isinstance(usage, dict):
        return Usage(requests=1)
    tokens = [usage.get(key) for key in ("prompt_tokens", "completion_tokens")]
    prompt, completion = (t if isinstance(t, int) and not isinstance(t, bool) else 0 for t in tokens)
    return Usage(prompt, completion, 1)


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
            raise ValueError(f"response_format must be one of {', '.join(_FORMATS)}")
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
            usage = _usage(payload)
            return _Outcome(parse_extraction(_message_text(payload), speaker=speaker), usage)
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
