"""Pets got and named in the shapes people write ("adopted a rescue dog! her name is Pepper", "Got a puppy!
Border collie, named Sixten", "named him Sir Reginald"), and pets had but not named ("we now have three
cats"); not a pet got for someone else, an allergy or a wish (sentences written for these tests)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, reads

from engram.ingest.builtin import BuiltinExtractor

PETS: list[Case] = [
    (
        "adopted a rescue dog! his name is Bramble, he's a 3yo lurcher",
        "Ann",
        {("Ann", "HAS_PET", "Bramble")},
        set(),
    ),
    (
        "we got a second cat!!! her name is Toffee. our first one is NOT thrilled",
        "Ann",
        {("Ann", "HAS_PET", "Toffee")},
        set(),
    ),
    ("We got a puppy! A border terrier called Crumpet.", "Ann", {("Ann", "HAS_PET", "Crumpet")}, set()),
    ("We got a parrot! Named him Admiral Beak.", "Ann", {("Ann", "HAS_PET", "Admiral Beak")}, set()),
    (
        "we got the hamster. his name is Nugget and the kids adore him",
        "Ann",
        {("Ann", "HAS_PET", "Nugget")},
        set(),
    ),
    ("We got a kitten for my niece, her name is Lotte.", "Ann", set(), {("Ann", "HAS_PET", "Lotte")}),
    (
        "I've got two cats, Fig and Olive, and a tortoise",
        "Ann",
        {("Ann", "HAS_PET", "Fig"), ("Ann", "HAS_PET", "Olive")},
        set(),
    ),
    # not named
    ("we now have three rabbits, send help", "Ann", {("Ann", "HAS_PET", "three rabbits")}, set()),
    ("my neighbour Priya has a snake.", "Ann", {("Priya", "HAS_PET", "snake")}, set()),
    ("I have a cat allergy, sadly.", "Ann", set(), {("Ann", "HAS_PET", "cat")}),
    ("I'd love to have a dog someday.", "Ann", set(), {("Ann", "HAS_PET", "dog")}),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), PETS, ids=[c[0][:40] for c in PETS])
def test_pets_got_named_or_had(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
