"""The LLM extractor against a fake OpenAI-compatible chat endpoint on 127.0.0.1.

Waits between retries go to a recorder (``sleeps``) instead of the clock, so backoff and
Retry-After are checked exactly; only the timeout case spends real time (~0.5 s).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from conftest import free_port
from engram.errors import EngramError
from engram.ingest.extract import Extractor
from engram.ingest.llm import (
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    ExtractionError,
    LLMExtractor,
    Usage,
    parse_extraction,
)
from engram.models.episodes import Actor, Episode
from engram.models.graph import Extraction
from fakes.openai_server import ChatReply, FakeOpenAI, serve_fake_openai

MODEL = "qwen3:8b"
CLEAN = {
    "entities": [
        {"name": "李强", "type": "person", "aliases": ["小李"]},
        {"name": "杭州", "type": "place"},
    ],
    "facts": [
        {
            "subject": "李强",
            "predicate": "MOVES_TO",
            "object": "杭州",
            "fact": "李强下个月搬到杭州。",
            "confidence": 0.9,
        }
    ],
}


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with serve_fake_openai(free_port()) as fake:
        yield fake


@pytest.fixture
def fake(server: FakeOpenAI) -> FakeOpenAI:
    server.script()
    return server


@pytest.fixture
def sleeps() -> list[float]:
    return []


OPENED: list[LLMExtractor] = []


@pytest.fixture(autouse=True)
def close_extractors() -> Iterator[None]:
    yield
    while OPENED:
        OPENED.pop().close()


def extractor(fake: FakeOpenAI, sleeps: list[float], **options: object) -> LLMExtractor:
    """Return an extractor on the fake whose waits go to ``sleeps``; closed after the test."""
    settings: dict[str, object] = {"timeout": 2.0, "max_retries": 2, "backoff": 0.5, "sleep": sleeps.append}
    llm = LLMExtractor(fake.base_url, MODEL, **(settings | options))  # type: ignore[arg-type]
    OPENED.append(llm)
    return llm


def episode(content: str = "我下个月搬到杭州。", *, actor: Actor | None = None) -> Episode:
    now = datetime(2024, 1, 3, 12, tzinfo=UTC)
    return Episode(
        id="ep_1",
        group_id="default",
        version=1,
        timestamp=now,
        recorded_at=now,
        source="chat",
        source_type="text",
        actor=actor or Actor(id="u_42", name="李强"),
        content=content,
        fingerprint="f",
        operation_id="op_1",
    )


def reply(payload: object, **options: object) -> ChatReply:
    return ChatReply(content=json.dumps(payload, ensure_ascii=False), **options)  # type: ignore[arg-type]


# -- requests and replies -----------------------------------------------------------------------


def test_clean_json_and_the_request_it_answers(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(reply(CLEAN, prompt_tokens=321, completion_tokens=45))
    llm = extractor(fake, sleeps, api_key="sk-test")
    result = llm.extract_result(episode())
    assert result.extraction == Extraction.model_validate(CLEAN)
    assert (result.attempts, result.dropped, result.model, result.prompt_version) == (
        1,
        0,
        MODEL,
        PROMPT_VERSION,
    )
    assert result.usage == Usage(prompt_tokens=321, completion_tokens=45, requests=1)
    assert result.usage.total_tokens == 366
    assert llm.last_result == result
    (request,) = fake.chat_requests
    assert request["model"] == MODEL
    assert request["temperature"] == 0
    system, user = request["messages"]
    assert system == {"role": "system", "content": SYSTEM_PROMPT}
    assert user["role"] == "user"
    assert "我下个月搬到杭州。" in user["content"]
    assert "Speaker: 李强 (user, id u_42)" in user["content"]
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["schema"] == Extraction.model_json_schema()
    assert sleeps == []


def test_think_block_fence_and_prose_around_the_json(fake: FakeOpenAI, sleeps: list[float]) -> None:
    content = (
        '<think>The user moves. Maybe {"facts": nothing} — let me write JSON.</think>\n'
        "Here is the extraction:\n```json\n"
        + json.dumps(CLEAN, ensure_ascii=False, indent=2)
        + "\n```\nHope it helps!"
    )
    fake.script(ChatReply(content=content))
    assert extractor(fake, sleeps).extract(episode()) == Extraction.model_validate(CLEAN)


def test_renamed_keys_first_person_and_invalid_items(fake: FakeOpenAI, sleeps: list[float]) -> None:
    renamed = {
        "nodes": [
            {"entity": "I", "entity_type": "Person"},
            {"name": "Acme Corp", "type": "Organization", "alias": "Acme"},
            "Hangzhou",
            {"type": "place"},  # no name: dropped
        ],
        "relationships": [
            {"source": "I", "relation": "works at", "target": "Acme Corp", "confidence": "high"},
            {"from": "Acme Corp", "type": "locatedIn", "to": {"name": "Hangzhou"}},
            {"subject": "me", "attribute": "age", "value": 34, "valid_from": "2023-05-08"},
            {"subject": "李强", "predicate": "住在", "object": "杭州"},  # a registered synonym
            {"subject": "李强", "predicate": "觉得", "value": "不错"},  # no predicate it names: dropped
            {"subject": "李强", "predicate": "LIKES"},  # neither object nor value: dropped
        ],
    }
    fake.script(reply(renamed))
    result = extractor(fake, sleeps).extract_result(episode(actor=Actor(id="u_7", name="Li Qiang")))
    entities = result.extraction.entities
    assert [(e.name, e.type, e.aliases) for e in entities] == [
        ("Li Qiang", "person", []),
        ("Acme Corp", "organisation", ["Acme"]),
        ("Hangzhou", "thing", []),
    ]
    facts = [(f.subject, f.predicate, f.object, f.value) for f in result.extraction.facts]
    assert facts == [
        ("Li Qiang", "WORKS_AT", "Acme Corp", None),
        ("Acme Corp", "PART_OF", "Hangzhou", None),  # LOCATED_IN is a registered synonym of PART_OF
        ("Li Qiang", "AGE", None, 34),
        ("李强", "LIVES_IN", "杭州", None),
    ]
    assert result.extraction.facts[0].confidence == 0.9
    assert result.extraction.facts[2].valid_at == datetime(2023, 5, 8, tzinfo=UTC)
    assert result.dropped == 3


def test_malformed_json_fails_after_retries(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(*[ChatReply(content='Sure! {"entities": [{"name": "李强",') for _ in range(3)])
    with pytest.raises(ExtractionError) as caught:
        extractor(fake, sleeps).extract(episode())
    error = caught.value
    assert isinstance(error, EngramError) and error.status == 502
    assert error.attempts == 3 and len(fake.chat_requests) == 3
    assert error.usage == Usage(prompt_tokens=300, completion_tokens=60, requests=3), (
        "failed tries cost tokens"
    )
    assert "unparseable" in error.detail
    assert sleeps == [0.5, 1.0], "exponential backoff"


def test_429_then_success_honours_retry_after(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(
        ChatReply(status=429, body={"error": {"message": "rate limited"}}, headers={"Retry-After": "7"}),
        reply(CLEAN),
    )
    result = extractor(fake, sleeps).extract_result(episode())
    assert result.attempts == 2 and result.extraction.facts
    assert sleeps == [7.0]
    assert result.usage.requests == 1, "the 429 reported no usage"


def test_retry_after_is_capped(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(ChatReply(status=503, body="overloaded", headers={"Retry-After": "3600"}), reply(CLEAN))
    extractor(fake, sleeps, max_backoff=20).extract(episode())
    assert sleeps == [20]


def test_500_then_success(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(ChatReply(status=500, body={"error": {"message": "boom"}}), reply(CLEAN))
    result = extractor(fake, sleeps).extract_result(episode())
    assert result.attempts == 2 and sleeps == [0.5]


def test_timeout_then_success(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(reply(CLEAN, delay=0.6), reply(CLEAN))
    result = extractor(fake, sleeps, timeout=0.2).extract_result(episode())
    assert result.attempts == 2 and result.extraction.facts
    assert len(fake.chat_requests) == 2


def test_exhausted_retries(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(*[ChatReply(status=503, body={"error": {"message": "busy"}}) for _ in range(5)])
    with pytest.raises(ExtractionError) as caught:
        extractor(fake, sleeps, max_retries=3).extract(episode())
    assert caught.value.attempts == 4 and len(fake.chat_requests) == 4
    assert "HTTP 503" in caught.value.detail and f"llm:{MODEL}" in caught.value.detail
    assert sleeps == [0.5, 1.0, 2.0]


def test_client_errors_are_not_retried(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(ChatReply(status=401, body={"error": {"message": "bad key"}}), reply(CLEAN))
    with pytest.raises(ExtractionError, match="HTTP 401"):
        extractor(fake, sleeps).extract(episode())
    assert len(fake.chat_requests) == 1 and sleeps == []


def test_unreachable_endpoint(sleeps: list[float]) -> None:
    with (
        LLMExtractor(f"http://127.0.0.1:{free_port()}/v1", MODEL, max_retries=1, sleep=sleeps.append) as llm,
        pytest.raises(ExtractionError, match="connection failed") as caught,
    ):
        llm.extract(episode())
    assert caught.value.attempts == 2 and caught.value.usage == Usage()


def test_schema_format_falls_back_when_the_server_refuses_it(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(
        ChatReply(status=400, body={"error": {"message": "response_format json_schema unsupported"}}),
        reply(CLEAN),
        reply(CLEAN),
    )
    llm = extractor(fake, sleeps)
    assert llm.extract_result(episode()).attempts == 1
    llm.extract(episode())
    formats = [r["response_format"] for r in fake.chat_requests]
    assert [f["type"] for f in formats] == ["json_schema", "json_object", "json_object"], (
        "it stays downgraded"
    )
    assert sleeps == []


def test_usage_accumulates_per_episode_and_in_total(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(
        ChatReply(content="not json", prompt_tokens=50, completion_tokens=5),
        reply(CLEAN, prompt_tokens=50, completion_tokens=30),
        reply({"entities": [], "facts": []}, prompt_tokens=40, completion_tokens=10),
    )
    llm = extractor(fake, sleeps)
    first = llm.extract_result(episode())
    assert first.usage == Usage(100, 35, 2), "both attempts count for the episode"
    chit_chat = llm.extract_result(episode("hi!"))
    assert chit_chat.extraction.empty and chit_chat.usage == Usage(40, 10, 1)
    assert llm.total_usage == Usage(140, 45, 3)


def test_unknown_speaker_and_protocol(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.script(reply({"entities": [{"name": "I", "type": "person"}], "facts": []}))
    llm: Extractor = extractor(fake, sleeps)
    anonymous = episode().model_copy(update={"actor": None})
    assert llm.name == f"llm:{MODEL}"
    assert [e.name for e in llm.extract(anonymous).entities] == ["I"], "no speaker: names are kept"
    assert "Speaker: unknown" in fake.chat_requests[0]["messages"][1]["content"]


# -- parsing without a server -------------------------------------------------------------------


def test_prompt_examples_are_valid_extractions() -> None:
    answers = [
        line.removeprefix("Answer: ") for line in SYSTEM_PROMPT.splitlines() if line.startswith("Answer: ")
    ]
    assert len(answers) == 2
    for answer in answers:
        parsed = parse_extraction(answer)
        assert parsed.dropped == 0 and parsed.extraction.facts


ACME = '"entities": [{"name": "Acme"}], "facts": [{"subject": "Acme", "predicate": "hq", "value": "Berlin"}]'


@pytest.mark.parametrize(
    "text",
    [
        '{"extraction": {' + ACME + "}}",
        "reasoning about [Acme] {HQ}…</think>{" + ACME + "}",
        '{"entities": [{"name": "Acme",},], "facts": [{"subject": "Acme", "predicate": "HQ", "value": 1,}],}',
        'The answer [1]: [["Acme", "HQ", "Berlin"], {"name": "Acme"}]',
    ],
)
def test_parse_wrappers_unclosed_think_trailing_commas_and_triples(text: str) -> None:
    parsed = parse_extraction(text)
    assert [f.predicate for f in parsed.extraction.facts] == ["HQ"]
    assert [e.name for e in parsed.extraction.entities] == ["Acme"]


def test_parse_repairs_fields_item_by_item() -> None:
    text = json.dumps(
        {
            "entities": [{"name": "Acme", "type": "Org Unit!"}, {"name": "Acme", "type": "company"}],
            "facts": [
                {
                    "subject": "Acme",
                    "predicate": "FOUNDED",
                    "value": 1999,
                    "valid_at": "next Tuesday",
                    "confidence": 85,
                    "conditions": "on weekdays",
                    "source_kind": "guessed",
                },
                {
                    "subject": "Acme",
                    "predicate": "CEO",
                    "object": "Anna",
                    "valid_at": "2023-05-08T09:00:00Z",
                    "invalid_at": "2020-01-01",
                    "confidence": 7,
                },
            ],
        }
    )
    parsed = parse_extraction(text)
    (acme,) = parsed.extraction.entities
    assert acme.type == "org_unit", "duplicates keep the first mention"
    founded, ceo = parsed.extraction.facts
    assert (founded.valid_at, founded.confidence, founded.conditions) == (None, 0.85, {"when": "on weekdays"})
    assert founded.source_kind is None
    assert (ceo.valid_at, ceo.invalid_at, ceo.confidence) == (datetime(2023, 5, 8, 9, tzinfo=UTC), None, 0.07)
    assert parsed.dropped == 0


@pytest.mark.parametrize(
    "text", ["", "I could not find anything.", "<think>{</think>", "```json\n{oops\n```"]
)
def test_parse_without_json_raises(text: str) -> None:
    with pytest.raises(ExtractionError, match="unparseable"):
        parse_extraction(text)
