"""A pet said to have died or been lost is had no more: a negated HAS_PET, which through Memory ends the one
held (sentences written for these tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_builtin_clauses import read, remembered

from engram.ingest.builtin import BuiltinExtractor

GONE = [
    ("Our cat Mochi passed away on Sunday", "Ann", "Mochi"),
    ("We lost our cat Miso last week. 15 good years.", "Ann", "Miso"),
    ("My cat Luna passed away this morning. She was 17.", "Kate", "Luna"),
    ("my dog Biscuit died yesterday, I'm wrecked", "Ann", "Biscuit"),
    ("我家的猫豆豆上个月去世了", "王芳", "豆豆"),
]


@pytest.mark.parametrize(("sentence", "speaker", "pet"), GONE)
def test_a_pet_gone_is_had_no_more(
    extractor: BuiltinExtractor, sentence: str, speaker: str, pet: str
) -> None:
    pets = [f for f in read(extractor, sentence, actor=speaker).facts if f.predicate == "HAS_PET"]
    assert [(f.subject, f.object, f.negated) for f in pets] == [(speaker, pet, True)]


def test_a_pet_alive_is_had(extractor: BuiltinExtractor) -> None:
    pets = [f for f in read(extractor, "my dog Biscuit loves the beach").facts if f.predicate == "HAS_PET"]
    assert [(f.subject, f.object, f.negated) for f in pets] == [("Ann", "Biscuit", False)]


def test_only_the_pet_gone_is_had_no_more(extractor: BuiltinExtractor) -> None:
    """Of two pets named, the one said to have died (昨天汤圆走了) ends; the other is still had."""
    said = "我养了两只仓鼠，一只叫芝麻一只叫汤圆，昨天汤圆走了😢"
    pets = {
        (f.object, f.negated) for f in read(extractor, said, actor="雯雯").facts if f.predicate == "HAS_PET"
    }
    assert ("汤圆", True) in pets
    assert ("芝麻", False) in pets


@pytest.mark.parametrize(
    "gone", ["Our dog Biscuit passed away on Sunday", "We had to put our dog Biscuit down last week."]
)
def test_a_pet_gone_ends_the_pet_remembered(tmp_path: Path, gone: str) -> None:
    """Through Memory: the pet told of in March and said in June to have died or been put down is no longer
    a current pet."""
    hits = remembered(
        tmp_path,
        [("my dog Biscuit loves the beach", "2024-03-01T09:00:00Z"), (gone, "2024-06-04T09:00:00Z")],
        "Ann",
    )
    pets = [(hit.object_name, hit.fact.status) for hit in hits if hit.fact.predicate == "HAS_PET"]
    assert ("Biscuit", "current") not in pets
    assert any(name == "Biscuit" and status != "current" for name, status in pets), pets
