"""The eighth and ninth fresh readers' false readings and misses, fixed as classes (sentences written
for these tests, never theirs), and a newcomer's: a role said with "is the … at" names the employer."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    ("Dana Park is the IT Director at Globex.", "Sam",
     {("Dana Park", "WORKS_AT", "Globex"), ("Dana Park", "HAS_ROLE", "IT Director")}, set()),
    ("I'm the head of sales at Brightline Foods.", "Ana", {("Ana", "WORKS_AT", "Brightline Foods")}, set()),
    ("The meeting is at Globex.", "Ana", set(), {("Ana", "WORKS_AT", "Globex")}),
]  # fmt: skip


@pytest.fixture(scope="module")
def extractor() -> BuiltinExtractor:
    return BuiltinExtractor()


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_eighth_and_ninth_readers_classes(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
