"""The first names the builtin extractor reads as people (engram.nlp.names.first_names)."""

from __future__ import annotations

import pytest

from engram.nlp.names import first_names


@pytest.mark.parametrize(
    "name", ["Melanie", "Priya", "Quentin", "Bao", "Minh", "Penelope", "Cecily", "Devika"]
)
def test_names_ranked_in_the_wider_cut_are_known(name: str) -> None:
    assert name in first_names()


@pytest.mark.parametrize(
    "word", ["Reason", "Evidence", "Staff", "Support", "Brighton", "Fiji", "London", "Will"]
)
def test_words_and_places_that_are_also_given_names_are_not(word: str) -> None:
    assert word not in first_names()
