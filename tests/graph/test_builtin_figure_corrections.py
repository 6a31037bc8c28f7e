"""A figure corrected in the same breath ("110 seats, not 120", 3,500片，不是5,300片): the new figure is the
deal's, the denied one is no fact, and through Memory the correction supersedes the figure it replaces
(sentences written for these tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_builtin_clauses import Triple, reads, remembered

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # a deal's count and value said by a copula
    (
        "Correction: the Mireval order is 140 seats, not 160.",
        "Ann",
        {("Mireval order", "QUANTITY", 140)},
        {("Mireval order", "QUANTITY", 160)},
    ),
    (
        "Small fix to my notes: the Dunmore renewal is now 65 licences, not 56.",
        "Ann",
        {("Dunmore renewal", "QUANTITY", 65)},
        {("Dunmore renewal", "QUANTITY", 56)},
    ),
    (
        "Sorry all, the Kestrel contract is $73,500, not $75,300.",
        "Ann",
        {("Kestrel contract", "PRICE", 73500)},
        {("Kestrel contract", "PRICE", 75300), ("Kestrel contract", "PRICE", 73500300)},
    ),
    ("The Pell Harbour order was 300 units.", "Ann", {("Pell Harbour order", "QUANTITY", 300)}, set()),
    # a customer's count said by a copula is its deal's
    (
        "Correction: Brackwater Interiors is 36 seats, not 63. Sorry for the noise.",
        "Ann",
        {("Brackwater Interiors deal", "QUANTITY", 36)},
        {("Brackwater Interiors deal", "QUANTITY", 63), ("Brackwater Interiors", "ORDERED", "seats")},
    ),
    (
        "Quick fix: Quillfeather is 90 licences, not 80.",
        "Ann",
        {("Quillfeather deal", "QUANTITY", 90)},
        {("Quillfeather deal", "QUANTITY", 80)},
    ),
    (
        "更正：华岳教育是320套不是230套，总额48万。对方临时砍了30个账号。",
        "王芳",
        {("华岳教育订单", "QUANTITY", 320), ("华岳教育订单", "PRICE", 480000)},
        {("华岳教育订单", "QUANTITY", 30), ("华岳教育订单", "QUANTITY", 230)},
    ),
    # a need is no order; a carrier named after the count holds none (guards of the copula count)
    (
        "今天拜访了青禾物流的采购经理，初步需求是150个账号，预算在20万以内。",
        "王芳",
        set(),
        {("青禾物流订单", "QUANTITY", 150)},
    ),
    (
        "我核对了，发货单是20箱，签收记录是18箱，已经找顺丰理赔了。",
        "王芳",
        set(),
        {("顺丰订单", "QUANTITY", 20)},
    ),
    # a discount said by a copula, its denied figure dropped
    (
        "更正：华岳教育的折扣是7.5折，不是8.5折。",
        "王芳",
        {("华岳教育", "DISCOUNT", "7.5折")},
        {("华岳教育", "DISCOUNT", "8.5折")},
    ),
    # no deal said: a count of people is no order's
    ("Our support team is 40 users strong now.", "Ann", set(), {("support team", "QUANTITY", 40)}),
    # a Chinese count with thousands commas is read whole, and the one it replaces is denied
    (
        "更正一下：金桥建材的订单是4,800张，不是 8,400 张。",
        "王芳",
        {("金桥建材订单", "QUANTITY", 4800)},
        {
            ("金桥建材订单", "QUANTITY", 800),
            ("金桥建材订单", "QUANTITY", 400),
            ("金桥建材订单", "QUANTITY", 8400),
        },
    ),
    (
        "金桥建材的订单是250箱，不是520箱。",  # a control: read so before
        "王芳",
        {("金桥建材订单", "QUANTITY", 250)},
        {("金桥建材订单", "QUANTITY", 520)},
    ),
    (
        "金桥建材下单了2,400张石膏板。",
        "王芳",
        {("金桥建材订单", "QUANTITY", 2400), ("金桥建材", "ORDERED", "石膏板")},
        {("金桥建材订单", "QUANTITY", 400)},
    ),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_figure_corrections(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


def test_a_corrected_count_supersedes_the_one_it_replaces(tmp_path: Path) -> None:
    """Through Memory: the order's count said first is superseded by its correction, which is current."""
    said = [
        ("The Mireval order is for 160 seats.", "2024-03-01T10:00:00Z"),
        ("Correction: the Mireval order is 140 seats, not 160.", "2024-03-02T10:00:00Z"),
    ]
    hits = remembered(tmp_path, said, "Ann")
    counts = {
        (hit.subject_name, hit.fact.value, hit.fact.status)
        for hit in hits
        if hit.fact.predicate == "QUANTITY"
    }
    assert counts == {("Mireval order", 160, "superseded"), ("Mireval order", 140, "current")}
