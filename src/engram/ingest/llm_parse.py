"""Read an OpenAI-compatible chat reply: its text, its token usage, the Extraction in it.

Replies are parsed tolerantly (``parse_extraction``): ``<think>`` blocks, code fences and
prose around the JSON are ignored; renamed keys are mapped (``relations``/``edges`` → facts,
``nodes`` → entities, ``source``/``from`` → subject, ``relation``/``type`` → predicate,
``target``/``to`` → object, …); predicates are UPPER_SNAKE'd, and registered synonyms in
any language map to their predicate ("住在" → LIVES_IN); "I"/"我" become the speaker and "my
brother"/"我哥哥" the speaker's brother, a person of their own; a fact flagged ``negated`` takes
its predicate's negation (USES → STOPPED_USING, LIKES → DISLIKES); invalid items are dropped
one by one and counted, the valid ones kept. A reply whose message is a refusal raises
``Refusal``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from engram.errors import ExtractionError
from engram.models.graph import PREDICATE_PATTERN, EntityIn, Extraction, FactIn
from engram.models.predicates import REGISTRY
from engram.nlp.amounts import AMOUNT, parse_amount
from engram.timeutil import as_utc


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
_MY = re.compile(r"^(?:my|our)\s+(?P<rest>\S.*)$", re.I)
_WO = re.compile(
    r"^(?:我的|我们的|我们|我)(?P<rest>(?:亲)?(?:哥哥|姐姐|弟弟|妹妹|哥|姐|弟|妹|爸爸|妈妈|爸|妈|父亲|母亲|"
    r"老婆|老公|妻子|丈夫|儿子|女儿|孩子|朋友|同事|老板|领导|男朋友|女朋友|室友|同学))$"
)
_WO_DE = re.compile(r"^(?:我的|我们的)(?P<rest>\S.*)$")
_SOURCE_KINDS = {"stated": "stated", "explicit": "stated", "direct": "stated", "said": "stated"}
_SOURCE_KINDS |= {"inferred": "inferred", "implied": "inferred", "implicit": "inferred"}
_SOURCE_KINDS |= {"inference": "inferred", "derived": "inferred", "system": "system"}
_NEGATED = ("negated", "negation", "is_negated", "negative")


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
    """Return the name an item gives, with the first person read as the speaker.

    "my brother" / "我哥哥" is someone else: the speaker's brother ("Anna's brother",
    "李强的哥哥"), so that what they like is not given to the speaker.
    """
    if isinstance(value, dict):
        value = _first(_lower_keys(value), _NAME)
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    name = str(value).strip()
    if speaker and name.lower() in _FIRST_PERSON:
        return speaker
    if speaker and (mine := _MY.match(name)):
        return f"{speaker}'s {mine['rest']}"
    if speaker and (mine := _WO.match(name) or _WO_DE.match(name)):
        return f"{speaker}的{mine['rest']}"
    return name or None


def _snake(value: str) -> str:
    value = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", value.strip())
    return re.sub(r"[^A-Za-z0-9]+", "_", value).strip("_")


_TYPES = {
    **dict.fromkeys(("organization", "org", "company", "business", "institution", "team"), "organisation"),
    **dict.fromkeys(("location", "city", "country", "gpe", "region", "address"), "place"),
    **dict.fromkeys(("people", "human", "individual", "user"), "person"),
    **dict.fromkeys(("人", "人物", "用户"), "person"),
    **dict.fromkeys(("地点", "地方", "城市", "国家", "地区"), "place"),
    **dict.fromkeys(("公司", "组织", "机构", "团队"), "organisation"),
    **dict.fromkeys(("产品", "软件", "应用"), "product"),
    **dict.fromkeys(("项目",), "project"),
    **dict.fromkeys(("事件", "活动"), "event"),
    **dict.fromkeys(("动物", "宠物", "pet"), "animal"),
    **dict.fromkeys(("文件", "文档", "合同"), "document"),
}
"""Entity types models also use, mapped to the graph's (different types never merge)."""


def _entity_type(value: Any) -> str:
    if not isinstance(value, str):
        return "thing"
    known = _TYPES.get(value.strip()) or _TYPES.get(value.strip().lower())
    snake = known or _snake(value).lower()
    return snake[:64] if re.fullmatch(r"[a-z][a-z0-9_]*", snake) else "thing"


def _predicate(value: Any, negated: bool) -> str | None:
    """Return the predicate's UPPER_SNAKE name: a registered one for any of its synonyms
    ("住在", "no longer uses"), else the text UPPER_SNAKE'd; None when neither is one.

    ``negated`` turns it into its registered negation (LIKES → DISLIKES, USES →
    STOPPED_USING); a negated predicate without one is None (nothing says what it means).
    """
    if not isinstance(value, str):
        return None
    known = REGISTRY.canonical(value)
    name = known.name if known.name in REGISTRY else _snake(value).upper()[:64]
    if negated:
        registered = REGISTRY.get(name)
        name = (registered.negation or registered.stop or "") if registered else ""
    return name if re.fullmatch(PREDICATE_PATTERN, name) else None


def _negated(item: dict[str, Any]) -> bool:
    flag = _first(item, _NEGATED)
    if isinstance(flag, str):
        return flag.strip().lower() in ("true", "yes", "1")
    return flag is True or str(item.get("polarity", "")).strip().lower() in ("negative", "negated")


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


def _amount(predicate: str | None, value: Any) -> Any:
    """Return an amount predicate's value written as text ("800000", "80万") as a number."""
    registered = REGISTRY.get(predicate) if predicate else None
    if registered is None or registered.object_kind != "amount" or not isinstance(value, str):
        return value
    text = value.strip()
    parsed = parse_amount(text) if re.fullmatch(AMOUNT, text) else None
    return value if parsed is None else parsed


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
    predicate = _predicate(_first(item, _PREDICATE), _negated(item))
    value = _amount(predicate, value)
    valid_at, invalid_at = _date(_first(item, _VALID)), _date(_first(item, _INVALID))
    if valid_at and invalid_at and invalid_at < valid_at:
        invalid_at = None
    conditions = _first(item, ("conditions", "condition", "when"))
    sentence = _first(item, _SENTENCE)
    source_kind = item.get("source_kind")
    if isinstance(source_kind, str):
        source_kind = _SOURCE_KINDS.get(source_kind.strip().lower())
    return {
        "subject": _name(_first(item, _SUBJECT), speaker),
        "predicate": predicate,
        "object": object_name,
        "value": value,
        "fact": sentence[:2000] if isinstance(sentence, str) else None,
        "valid_at": valid_at,
        "invalid_at": invalid_at,
        "conditions": {"when": conditions}
        if isinstance(conditions, str)
        else _scalars(conditions, allow_none=False),
        "confidence": _confidence(item.get("confidence", item.get("score"))),
        "source_kind": source_kind if isinstance(source_kind, str) else None,
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


# -- the reply around it ------------------------------------------------------------------------


class Refusal(ValueError):
    """The model declined to answer (its message's ``refusal``): asking again will not help."""


def message_text(payload: Any) -> str:
    """Return the assistant message's text.

    Raises Refusal when the message is a refusal, ValueError for a reply without text.
    """
    message = payload["choices"][0]["message"]
    refusal = message.get("refusal")
    if isinstance(refusal, str) and refusal.strip():
        raise Refusal(f"the model refused: {refusal.strip()[:200]}")
    content = message.get("content")
    if isinstance(content, list):  # content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if not isinstance(content, str) or not content.strip():
        raise ValueError("empty reply")
    return content


def reply_usage(payload: Any) -> Usage:
    """Return the tokens a reply reports (one request, zero tokens when it says nothing)."""
    usage = payload.get("usage") if isinstance(payload, dict) else None
    if not isinstance(usage, dict):
        return Usage(requests=1)
    tokens = [usage.get(key) for key in ("prompt_tokens", "completion_tokens")]
    prompt, completion = (t if isinstance(t, int) and not isinstance(t, bool) else 0 for t in tokens)
    return Usage(prompt, completion, 1)
