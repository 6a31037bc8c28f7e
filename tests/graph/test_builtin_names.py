"""Names jieba cuts or glues wrongly (龙骁任, 覃|小川, 欧阳|倩), the words after a mended name keeping their
offsets, organisations with their 集团 or 部, signature lines, and a date that ends a state (sentences
written for these tests)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from test_builtin_clauses import Triple, reads

from engram import Memory, Settings
from engram.ingest.builtin import BuiltinExtractor
from engram.ingest.mentions_zh import tagged_mentions
from engram.nlp.dates import fact_dates, scoped_dates

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "原销售一部经理宋骁任部门总监，向CEO诸葛明汇报。",
        "王芳",
        {("宋骁", "HAS_ROLE", "部门总监"), ("宋骁", "REPORTS_TO", "诸葛明")},
        {("宋骁任", "HAS_ROLE", "部门总监")},
    ),
    ("人事更新：蒋涛5月1号起升华东销售总监。", "王芳", {("蒋涛", "HAS_ROLE", "华东销售总监")}, set()),
    (
        "主题：续签确认\n林总好，合同已寄出。\n云杉数据 客户经理 覃小川",
        "王芳",
        {("覃小川", "WORKS_AT", "云杉数据"), ("覃小川", "HAS_ROLE", "客户经理")},
        set(),
    ),
    (
        "王经理您好，请尽快安排上门检修。\n清泉餐饮集团 行政部 包丽华",
        "王芳",
        {("包丽华", "WORKS_AT", "清泉餐饮集团"), ("包丽华", "MEMBER_OF", "行政部")},
        set(),
    ),
    ("对方签字的是物资部部长阎立军。", "王芳", {("阎立军", "HAS_ROLE", "部长")}, set()),
    ("成立数据智能部，龙飞任部门总监。", "王芳", set(), {("龙飞", "WORKS_AT", "数据智能")}),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:24] for c in CASES])
def test_names_mended(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


@pytest.mark.parametrize(
    ("sentence", "person"),
    [
        ("汪子涵今天去了北京", "汪子涵"),
        ("欧阳倩在管北京", "欧阳倩"),
        ("覃小川去了北京", "覃小川"),
        ("叶家豪下周起去北京", "叶家豪"),
    ],
)
def test_the_words_after_a_mended_name_keep_their_offsets(sentence: str, person: str) -> None:
    found = {(sentence[start:end], name, kind) for start, end, name, kind in tagged_mentions(sentence)}
    assert (person, person, "person") in found
    assert ("北京", "北京", "place") in found


@pytest.mark.parametrize(
    ("sentence", "end"),
    [
        ("李强2024年3月之前住在上海", "2024-03-01"),
        ("他们的合同6月底到期", "2024-07-01"),
        ("I'm on Slack until May 3", "2024-05-04"),
    ],
)
def test_a_date_something_ends_by_is_an_end(sentence: str, end: str) -> None:
    valid_at, invalid_at = fact_dates(scoped_dates(sentence, datetime(2024, 3, 13, tzinfo=UTC)))
    assert valid_at is None
    assert invalid_at is not None and invalid_at.date().isoformat() == end


@pytest.mark.parametrize(
    ("sentence", "inside"), [("京东方的屏幕质量不错。", "京东"), ("中兴通讯今年裁员了。", "中兴")]
)
def test_a_known_company_beginning_a_longer_name_is_not_read_in_it(
    extractor: BuiltinExtractor, sentence: str, inside: str
) -> None:
    names = {e.name for e in extractor.extract_text(sentence, actor="王芳").entities}
    assert inside not in names


@pytest.mark.parametrize(
    ("text", "actor", "person", "alias"),
    [
        (
            "Hi, I'm Michael Brown from Acme. Everyone calls me Mike.",
            "Michael Brown",
            "Michael Brown",
            "Mike",
        ),
        ("Bob signed the contract today, his full name is Robert Miller.", "Ann", "Bob", "Robert Miller"),
        ("大家都叫我老李，我在华为做采购。", "李强", "李强", "老李"),
        ("王芳来了，她全名叫王晓芳。", "李强", "王芳", "王晓芳"),
    ],
)
def test_a_name_given_in_so_many_words_is_an_alias(
    extractor: BuiltinExtractor, text: str, actor: str, person: str, alias: str
) -> None:
    result = extractor.extract_text(text, actor=actor)
    people = {e.name: e.aliases for e in result.entities if e.type == "person"}
    assert people[person] == [alias]
    assert alias not in people, "the alias is no second person"


@pytest.mark.parametrize("text", ["叫我去开会。", "People call me crazy sometimes.", "我叫他快点来。"])
def test_no_alias_where_no_name_is_given(extractor: BuiltinExtractor, text: str) -> None:
    result = extractor.extract_text(text, actor="李强")
    assert all(not e.aliases for e in result.entities)


def test_a_later_message_naming_the_alias_finds_the_person(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", embedder="none", extractor="builtin")
    with Memory.open(settings=settings, background_indexing=False) as memory:
        said = [
            ("Michael Brown", "Hi, I'm Michael Brown from Acme. Everyone calls me Mike."),
            ("Ann", "Mike likes golf."),
            ("李强", "大家都叫我老李，我在华为做采购。"),
            ("王芳", "老李喜欢打羽毛球。"),
        ]
        for name, content in said:
            memory.create_episode({"content": content, "actor": {"id": name, "name": name}})
        for alias, person in (("Mike", "Michael Brown"), ("老李", "李强")):
            [found] = memory.search_entities(alias)
            assert (found.name, found.aliases) == (person, [alias])
