"""A fifth fresh reader's false readings, fixed as classes: a stop said ahead ("decided to stop
using"), a provider switched (not a handover), a customer visited (not a city), a pet named by its
kind, a relative's job, sentence openers and room numbers taken for names and tools, a trip being
planned: sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    ("We've decided to stop using Uline for packaging supplies; switching to Packlane from June.", "Dan",
     {("Dan", "STOPPED_USING", "Uline"), ("Dan", "USES", "Packlane")},
     {("Dan", "USES", "Uline"), ("We've", "USES", "Packlane")}),
    ("We switched from Comcast to Verizon Fios.", "Noah",
     {("Noah", "USES", "Verizon Fios"), ("Noah", "STOPPED_USING", "Comcast")},
     {("Noah", "ASSIGNED_TO", "Verizon Fios"), ("Noah", "UNASSIGNED_FROM", "Comcast")}),
    ("拜访成都天府医院信息科，王主任说他们今年要上HIS系统升级项目。", "韩梅", set(),
     {("韩梅", "PLANS_TO_VISIT", "成都")}),
    ("My dog Pepper is allergic to chicken.", "Tom",
     {("Pepper", "ALLERGIC_TO", "chicken"), ("Tom", "HAS_PET", "Pepper")},
     {("Tom", "ALLERGIC_TO", "chicken")}),
    ("婚礼超感人！阿珍老公是个程序员，在美团上班。", "谢楠", set(), {("阿珍", "WORKS_AT", "美团")}),
    ("李总您好，我是新的对接人吴刚，原来负责贵司的陈晨已经调去北京分公司了。", "吴刚",
     {("陈晨", "WORKS_AT", "北京分公司")},
     {("陈晨", "LEFT_ORGANISATION", "北京分公司"), ("吴刚", "UNASSIGNED_FROM", "贵司的陈晨")}),
    ("我们部门老大换了，新领导是从华为过来的郭总。", "吴迪", set(), {("郭总", "WORKS_AT", "华为")}),
    ("周一在三环上追尾了，这段时间坐地铁上班。", "魏然",
     {("魏然", "USES", "地铁")}, {("段时间", "USES", "地铁")}),
    ("Finally settled in Montclair.", "David", {("David", "LIVES_IN", "Montclair")},
     {("Finally", "LIVES_IN", "Montclair")}),
    ("QBR Northwind Bank went well. Next meeting is with their CFO Harold Ng.", "Chloe",
     {("Harold Ng", "WORKS_AT", "Northwind Bank")}, {("Harold Ng", "WORKS_AT", "QBR Northwind Bank")}),
    ("Dad was diagnosed with diabetes. He's already cut out soda and started walking every morning.", "Jess",
     {("Jess's dad", "STOPPED_USING", "soda")},
     {("Jess's dad", "STOPPED_USING", "soda and started walking")}),
    ("Our Netflix subscription got cancelled, we mostly watch YouTube now.", "Sean", set(),
     {("Sean", "STATUS", "cancelled")}),
    ("背调结果：候选人吴倩之前在美团做了三年产品经理，前主管评价很高。", "李娜", set(),
     {("吴倩", "RESPONSIBLE_FOR", "评价很高")}),
    ("儿子最后还是决定去中山大学了，奖学金更多。", "冯涛", set(), {("冯涛的儿子", "STUDIES", "金更多")}),
    ("@所有人 明天下午三点的周会改到四点，会议室换成802。", "吴迪", set(), {("吴迪", "USES", "802")}),
    # Jobs left and joined, said plainly; an acronym before a time is a name.
    ("I'm no longer at Deloitte — started at KPMG as a tax manager last Monday.", "Tom",
     {("Tom", "LEFT_ORGANISATION", "Deloitte"), ("Tom", "WORKS_AT", "KPMG")}, set()),
    ("Lisa Tran is leaving to join Nordstrom.", "Greg", {("Lisa Tran", "WORKS_AT", "Nordstrom")}, set()),
    ("I'm no longer at the office.", "Tom", set(), {("Tom", "LEFT_ORGANISATION", "office")}),
    ("We joined an LGBTQ support group.", "Tom", {("Tom", "MEMBER_OF", "LGBTQ support group")},
     {("Tom", "MEMBER_OF", "n LGBTQ support group")}),
    # A note's meeting field; flights booked are a trip planned.
    ("QBR done. Next meeting: April 30, 10am ET, with their CFO Harold Ng.", "Chloe",
     {("Chloe", "MEETING_AT", "2024-04-30 10:00")}, set()),
    ("Booked flights to Lisbon for July 3-14.", "Chloe", {("Chloe", "PLANS_TO_VISIT", "Lisbon")}, set()),
    # Pets, schools, births, roles joined in, tools switched, prices quoted: plain statements.
    ("We adopted a rescue dog last weekend, named Pepper.", "Ann", {("Ann", "HAS_PET", "Pepper")}, set()),
    ("Leila Haddad will join us as Product Designer on April 1.", "Ann",
     {("Leila Haddad", "HAS_ROLE", "Product Designer")}, {("Ann", "HAS_ROLE", "Product Designer")}),
    ("Switching from OpenStreetMap tiles to Mapbox this week.", "Ann",
     {("Ann", "USES", "Mapbox"), ("Ann", "STOPPED_USING", "OpenStreetMap")}, set()),
    ("We sent Globex Corp a quote of $14,800.", "Ann", {("Globex Corp", "PRICE", 14800)}, set()),
    ("我弟考上浙大了。", "王芳", {("王芳的弟弟", "STUDIES_AT", "浙大")}, set()),
    ("儿子12月18号出生的。", "王芳", {("王芳的儿子", "BIRTHDAY", "12-18")}, set()),
    ("我下个月开始带数据平台组了，一共6个人。", "何俊", {("何俊", "MANAGES", "数据平台组")}, set()),
    ("我不想带这个团队了。", "何俊", set(), {("何俊", "MANAGES", "这个团队")}),
    # A sixth reader's: a job moved to, a measure as money, a sales team as a firm, work handed over.
    ("Carlos Mendez moved from Fintrust to Arbor Capital as their new CTO.", "Ann",
     {("Carlos Mendez", "LEFT_ORGANISATION", "Fintrust"), ("Carlos Mendez", "WORKS_AT", "Arbor Capital")},
     {("Carlos Mendez", "MOVED_FROM", "Fintrust")}),
    ("Coastline Packaging raised the price of the 12oz cups.", "Ann", set(),
     {("Coastline Packaging", "PRICE", 12)}),
    ("Thanks for the order.\n\nBest,\nVictor Nunez\nRegional Sales, Steelform Seating", "Victor Nunez",
     {("Victor Nunez", "WORKS_AT", "Steelform Seating")}, {("Victor Nunez", "WORKS_AT", "Regional Sales")}),
    ("我下周休假，工作先交给小郑。", "马超", set(), {("小郑", "RESPONSIBLE_FOR", "工作")}),
    # Food one does not eat, said after 我.
    ("我不吃辣。", "王芳", {("王芳", "DISLIKES", "辣")}, set()),
    # Signatures with no closing formula: on one line, under the text, or after a title line.
    ("Hi Sam, the invoice INV-88213 was paid on May 10.\nInes Duarte | Accounts Payable | Marisol Hotels",
     "Ines Duarte", {("Ines Duarte", "WORKS_AT", "Marisol Hotels")}, set()),
    ("We'll go ahead with 35 units, not 40.\nJenna Park\nProcurement Lead | Halvorsen Foods", "Jenna Park",
     {("Jenna Park", "WORKS_AT", "Halvorsen Foods"), ("Jenna Park", "HAS_ROLE", "Procurement Lead")}, set()),
    ("S5720目前库存只有25台，能否分两批发？\n刘强\n华东区销售经理｜深圳锐捷通信", "刘强",
     {("刘强", "WORKS_AT", "深圳锐捷通信"), ("刘强", "HAS_ROLE", "华东区销售经理")}, set()),
    ("发票已开，请查收。\n孙丽｜财务部｜上海启明软件", "孙丽",
     {("孙丽", "WORKS_AT", "上海启明软件"), ("孙丽", "MEMBER_OF", "财务部")}, set()),
    ("A4从每箱168元调到185元。\n周明\n销售代表\u3000广州华彩纸业", "周明",
     {("周明", "WORKS_AT", "广州华彩纸业"), ("周明", "HAS_ROLE", "销售代表")}, set()),
    ("请于3月20日前发货。\n此致\n张伟\n采购部 主管\n苏州恒达精密制造有限公司\n电话：0512-66881234", "张伟",
     {("张伟", "WORKS_AT", "苏州恒达精密制造有限公司")}, set()),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_fifth_readers_classes(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_a_trip_being_planned_is_dated_ahead(extractor: BuiltinExtractor) -> None:
    """ "Planning a trip to Mexico City in November", said in June: this November, not last."""
    at = datetime(2024, 6, 7, 9, tzinfo=UTC)
    facts = extractor.extract_text("Planning a trip to Mexico City in November.", actor="Lucy", at=at).facts
    dates = [f.valid_at.date().isoformat() for f in facts if f.predicate == "PLANS_TO_VISIT" and f.valid_at]
    assert dates == ["2024-11-01"]
