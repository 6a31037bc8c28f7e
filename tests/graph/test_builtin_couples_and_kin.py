"""Who is with whom: a relative the speaker names is related to them whether or not anything else is
said about the relative ("my mom's in hospital", 我弟刚考上公务员); couples said to be engaged, together,
married or parted ("Lena and I got engaged", "me and Sophie broke up", 我和阿峰下个月领证了); and what
dates such a relation (sentences written for these tests)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from test_builtin_clauses import Triple, read, reads, remembered

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # a relative named only by their kind is the speaker's relative
    (
        "my mom's in hospital, nothing too serious they think. I'm flying to Aarhus tomorrow",
        "Sofia Berg",
        {("Sofia Berg", "CHILD_OF", "Sofia Berg's mom")},
        set(),
    ),
    ("我弟刚考上公务员，在南京市税务局", "柯文", {("柯文的弟弟", "SIBLING_OF", "柯文")}, set()),
    ("我女儿舞蹈考级过了，四级，小家伙高兴坏了", "汪洋", {("汪洋的女儿", "CHILD_OF", "汪洋")}, set()),
    # a name jieba knows, followed by a time, is the relative's name (我哥丁磊下个月…), not a verb it
    # knows (我老婆张罗了…: a guard)
    (
        "我哥丁磊下个月从深圳调回南京，以后周末就能一起打球了。",
        "丁宁",
        {("丁磊", "SIBLING_OF", "丁宁")},
        {("丁宁的哥哥", "SIBLING_OF", "丁宁")},
    ),
    ("我老婆张罗了一桌菜", "丁宁", {("丁宁", "MARRIED_TO", "丁宁的老婆")}, {("丁宁", "MARRIED_TO", "张罗")}),
    # the sister denied and the sister named are one person: no second, unnamed sister
    (
        "It's my sister-in-law who works at Pixar, not my sister. My sister Abby is a nurse at Kaiser.",
        "Hugo Bell",
        {("Abby", "SIBLING_OF", "Hugo Bell")},
        {("Hugo Bell's sister", "SIBLING_OF", "Hugo Bell")},
    ),
    # guards: a boss named by kind only (no one to report to yet); together on an account, work split up,
    # a timeline proposed; 在一起开会, 住在一起
    (
        "my boss said yes to remote from Osaka!!",
        "Kenji Sato",
        set(),
        {("Kenji Sato", "REPORTS_TO", "Kenji Sato's boss")},
    ),
    # couples in English
    (
        "Lena and I got engaged on Saturday!! 💍",
        "Jonas Weber",
        {("Jonas Weber", "PARTNER_OF", "Lena")},
        set(),
    ),
    (
        "Kasia and I have been together 10 years today ❤️",
        "Piotr Nowak",
        {("Piotr Nowak", "PARTNER_OF", "Kasia")},
        set(),
    ),
    (
        "me and Aoife got married on the 8th!! small ceremony",
        "Ben Foley",
        {("Ben Foley", "MARRIED_TO", "Aoife")},
        set(),
    ),
    ("Sarah and I are together on the Acme account.", "Ann", set(), {("Ann", "PARTNER_OF", "Sarah")}),
    ("Tom and I split up the work.", "Ann", set(), {("Ann", "PARTNER_OF", "Tom")}),
    ("Dan proposed a new timeline for the rollout.", "Ann", set(), {("Ann", "PARTNER_OF", "Dan")}),
    # couples in Chinese
    ("跟你说个事，我和阿峰下个月领证了！💍", "黄蕾", {("黄蕾", "MARRIED_TO", "阿峰")}, set()),
    ("我和小雅在一起两年了，准备年底订婚", "孔薇", {("孔薇", "PARTNER_OF", "小雅")}, set()),
    ("阿杰向我求婚了！", "林美", {("林美", "PARTNER_OF", "阿杰")}, set()),
    ("我和老王在一起开会", "林美", set(), {("林美", "PARTNER_OF", "老王")}),
    (
        "我跟我妹住在一起，她在中科院读博",
        "宁馨",
        {("宁馨的妹妹", "SIBLING_OF", "宁馨")},
        {("宁馨", "PARTNER_OF", "宁馨的妹妹")},
    ),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_couples_and_kin(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


@pytest.mark.parametrize(
    ("sentence", "speaker", "partner"),
    [
        ("me and Sophie broke up. it was mutual, we're still friends", "Ethan Park", "Sophie"),
        ("Marco and I got divorced last year.", "Ann", "Marco"),
        ("我跟小王分手了", "林美", "小王"),
    ],
)
def test_a_couple_said_to_part_is_a_negated_relation(
    extractor: BuiltinExtractor, sentence: str, speaker: str, partner: str
) -> None:
    (relation,) = [f for f in read(extractor, sentence, speaker).facts if f.object == partner]
    assert relation.predicate in ("PARTNER_OF", "MARRIED_TO")
    assert relation.negated


@pytest.mark.parametrize(
    ("sentence", "speaker", "predicate", "dated"),
    [
        # the date is the wedding's, not when the couple got together or got engaged
        ("我跟我男朋友在一起三年了，打算明年五一结婚", "严雪", "PARTNER_OF", None),
        ("我和我女朋友订婚了💍 明年五月办婚礼", "邢飞", "PARTNER_OF", None),
        ("我和老婆结婚十周年了，下周去巴厘岛玩一趟，庆祝一下", "庞博", "MARRIED_TO", None),
        # a friend's own wedding does not date the friendship
        (
            "my best friend since kindergarten, Noa, is having her wedding in Tel Aviv in November",
            "Shira",
            "FRIEND_OF",
            None,
        ),
        # a wedding said with its date dates the marriage
        ("I married Tom last June.", "Ann", "MARRIED_TO", "2023-06-01"),
    ],
)
def test_what_dates_a_couple_or_a_friendship(
    extractor: BuiltinExtractor, sentence: str, speaker: str, predicate: str, dated: str | None
) -> None:
    (relation,) = [f for f in read(extractor, sentence, speaker).facts if f.predicate == predicate]
    assert (relation.valid_at.date().isoformat() if relation.valid_at else None) == dated


def test_a_break_up_ends_the_partnership_through_memory(tmp_path: Path) -> None:
    """Through Memory: "Jess and I are dating now", then "me and Jess broke up": the partnership ends."""
    said = [
        ("Jess and I are dating now. started as bouldering buddies lol", "2024-03-01T10:00:00Z"),
        ("me and Jess broke up. it's fine, mostly", "2024-06-02T10:00:00Z"),
    ]
    hits = remembered(tmp_path, said, "Noah")
    partnerships = [
        (hit.object_name, hit.fact.status, hit.fact.invalid_at)
        for hit in hits
        if hit.fact.predicate == "PARTNER_OF"
    ]
    assert partnerships == [("Jess", "superseded", datetime(2024, 6, 2, 10, tzinfo=UTC))]
