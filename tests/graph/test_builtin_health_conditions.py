"""A chronic condition found or had is a state of health (STATUS) of whoever has it; a family history, a
question or a hypothetical is none (sentences written for these tests)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, reads

from engram.ingest.builtin import BuiltinExtractor

CONDITIONS: list[Case] = [
    ("我爸上周查出来高血压，现在每天吃药。", "王芳", {("王芳的爸爸", "STATUS", "高血压")}, set()),
    ("我婆婆有糖尿病，甜的一口不碰。", "王芳", {("王芳的婆婆", "STATUS", "糖尿病")}, set()),
    ("体检查出脂肪肝，医生让我少喝酒。", "王芳", {("王芳", "STATUS", "脂肪肝")}, set()),
    ("我家有高血压史，所以每年都体检。", "王芳", set(), {("王芳", "STATUS", "高血压")}),
    ("你有没有高血压？", "王芳", set(), {("王芳", "STATUS", "高血压")}),
    (
        "My grandad has type 2 diabetes, so no cake for him.",
        "Ann",
        {("Ann's grandad", "STATUS", "type 2 diabetes")},
        set(),
    ),
    ("I've had asthma since I was a kid.", "Ann", {("Ann", "STATUS", "asthma")}, set()),
    ("Does your son have asthma?", "Ann", set(), {("Ann", "STATUS", "asthma")}),
]


@pytest.mark.parametrize(
    ("text", "actor", "wanted", "unwanted"), CONDITIONS, ids=[c[0][:30] for c in CONDITIONS]
)
def test_a_chronic_condition_is_its_holders_state(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
