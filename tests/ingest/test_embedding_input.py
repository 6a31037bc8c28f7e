"""Embeddings sent with episodes: read as float32 at speed, yet refused as before, naming the item and
the field, with nothing half-written, on both backends and through the library, REST and JSON Lines."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from engram import InvalidInput, Memory, Settings
from engram.api.app import create_app
from engram.models.episodes import EpisodeIn
from fixed_embedder import FixedEmbedder


@pytest.fixture
def memory(backend: dict[str, Any]) -> Iterator[Memory]:
    settings = Settings(**backend, embedder="none", extractor="none", classify_intents=False)
    with Memory.open(settings=settings, embedder=FixedEmbedder(), background_indexing=False) as opened:
        yield opened


def _batch(count: int) -> list[dict[str, Any]]:
    return [{"content": f"episode {i}", "embedding": [1.0, float(i), 0.0, 2.0]} for i in range(count)]


@pytest.mark.parametrize(
    ("embedding", "field", "words"),
    [
        ([1.0, "two", 0.0, 1.0], "3.embedding.1", "valid number"),  # not a number: the item is named
        ([1.0, None, 0.0, 1.0], "3.embedding.1", "valid number"),
        ([[1.0], [2.0], [3.0], [4.0]], "3.embedding.0", "valid number"),
        ([1.0, 2.0], "3.embedding", "2 numbers"),  # the store's embedder makes 4
        ([0.0, 0.0, 0.0, 0.0], "3.embedding", "not all zero"),
        ([1.0, 1e39, 0.0, 1.0], "3.embedding", "finite"),  # beyond float32
        ("1, 2, 3, 4", "3.embedding", "array of numbers"),
        ([], "3.embedding", "1 to 4096"),
    ],
)
def test_a_bad_embedding_in_a_large_batch_names_its_item(
    memory: Memory, embedding: Any, field: str, words: str
) -> None:
    items = _batch(150)
    items[3]["embedding"] = embedding
    with pytest.raises(InvalidInput) as caught:
        memory.create_episodes(items)
    assert caught.value.field == field
    assert words in caught.value.detail
    assert memory.stats().episodes == 0, "nothing half-written"


def test_embeddings_are_read_as_a_list_of_floats_would_be(memory: Memory) -> None:
    given = [
        [3, 0, 0, 4],  # integers
        ["3", "0", "0", "4"],  # numeric strings, as pydantic's list[float] takes them
        [True, 0, 0, False],  # booleans are 1 and 0
        np.array([3.0, 0.0, 0.0, 4.0]),
        (3.0, 0.0, 0.0, 4.0),
    ]
    created = memory.create_episodes([{"content": f"e{i}", "embedding": v} for i, v in enumerate(given)])
    assert memory.pending_embeddings() == 0
    assert [c.deduplicated for c in created] == [False] * len(given)
    parsed = EpisodeIn.model_validate({"content": "x", "embedding": [3, 0, 0, 4]})
    assert parsed.embedding is not None and parsed.embedding.dtype == np.float32
    assert parsed.model_dump()["embedding"] == [3.0, 0.0, 0.0, 4.0], "dumped as the list it came as"
    assert json.loads(parsed.model_dump_json())["embedding"] == [3.0, 0.0, 0.0, 4.0]
    hits = memory.search_episodes({"query": "anything", "limit": 10}, channels=["vector"]).results
    assert len(hits) == len(given), "each vector is stored and searched"


def test_rest_batch_of_vectors_stores_them_and_names_a_bad_one(memory: Memory) -> None:
    items = _batch(50)
    items[7]["embedding"] = [1.0, 2.0]
    with TestClient(create_app(memory), base_url="http://127.0.0.1") as client:
        response = client.post("/v1/episodes:batch", json={"episodes": items})
    assert response.status_code == 200
    body = response.json()
    assert (body["created"], body["failed"]) == (49, 1)
    assert body["results"][7]["problem"]["field"] == "embedding"
    assert memory.pending_embeddings() == 0 and memory.stats().episodes == 49


def test_json_lines_import_reads_vectors_and_keeps_its_errors(memory: Memory, tmp_path: Path) -> None:
    path = tmp_path / "episodes.jsonl"
    lines = [json.dumps(item) for item in _batch(120)]
    path.write_text("\n".join(lines) + "\n")
    stats = memory.import_file(path, "jsonl")
    assert stats.created == 120 and memory.pending_embeddings() == 0
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n" + '{"content": "y",\n')
    with pytest.raises(InvalidInput) as caught:
        memory.import_file(broken, "jsonl")
    assert caught.value.field == "line" and "line 2: not valid JSON" in caught.value.detail
    not_a_number = tmp_path / "nan.jsonl"  # NaN is no JSON, yet Python's reader always took it
    not_a_number.write_text('{"content": "x", "embedding": [1, NaN, 0, 1]}\n')
    with pytest.raises(InvalidInput) as nan:
        memory.import_file(not_a_number, "jsonl")
    assert nan.value.field == "0.embedding" or nan.value.field == "embedding"
    assert "finite" in nan.value.detail
    assert memory.stats().episodes == 120
