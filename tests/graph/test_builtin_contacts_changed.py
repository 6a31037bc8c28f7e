"""A customer's people: a role in brackets ("Dana Cho (their PM)"), a record's contact field, a contact
replaced (对接人改为…), a role given to someone new (采购总监换成了方卓), someone of the customer leaving
with no employer said (原来的贾斌离职了), a familiar form with the full name in brackets (小周（周宇航）).
Sentences written for these tests; each case names the facts that must and must not be read."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, read, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    ("【CRM】客户：博远物流｜联系人：原采购经理卢强已离职，现对接人改为采购主管江晓梅，"
     "电话13816620411", "周宁",
     {("博远物流", "CONTACT", "江晓梅"), ("江晓梅", "WORKS_AT", "博远物流"),
      ("卢强", "LEFT_ORGANISATION", "博远物流"), ("卢强", "LEFT_ROLE", "采购经理")}, set()),
    ("绿洲农业那边确认了：采购总监换成了方卓，原来的许晨退休了。", "周宁",
     {("方卓", "HAS_ROLE", "采购总监"), ("方卓", "WORKS_AT", "绿洲农业"),
      ("许晨", "LEFT_ORGANISATION", "绿洲农业")}, set()),
    ("宏达物流的系统下周升级。另外对方IT负责人换成了钱伟。", "周宁",
     {("钱伟", "HAS_ROLE", "IT负责人"), ("钱伟", "WORKS_AT", "宏达物流")}, set()),
    # Whose number: the one to contact, me after 请联系我, nobody's when the one to contact is unknown.
    ("邮件：我是宏达的新对接人李娜，原对接人刘小峰已调往华南区，今后请联系我，电话13655556666。", "李娜",
     {("李娜", "PHONE", "13655556666")}, {("刘小峰", "PHONE", "13655556666")}),
    ("中粮的联系人更新一下，以后找徐婷婷，电话13912345678。", "周宁", set(),
     {("周宁", "PHONE", "13912345678")}),
    ("以后找何佳，电话13800001111。", "周宁", {("何佳", "PHONE", "13800001111")}, set()),
    # Ours, the speaker, or nobody's: no employer inferred.
    ("我们的项目经理换成了小王。", "周宁",
     {("小王", "HAS_ROLE", "项目经理")}, {("小王", "WORKS_AT", "我们")}),
    ("拜访了华为，回来听说我们组的小李离职了。", "周宁", set(), {("小李", "LEFT_ORGANISATION", "华为")}),
    ("拜访了华为。我上个月离职了。", "周宁", set(), {("周宁", "LEFT_ORGANISATION", "华为")}),
    # A role in brackets after a name, and a CRM record's contact field.
    ("Call w/ Fairview Logistics: Dan Hollis (VP Ops) confirmed the pilot.", "Ann",
     {("Dan Hollis", "HAS_ROLE", "VP Ops"), ("Dan Hollis", "WORKS_AT", "Fairview Logistics")}, set()),
    ("Kickoff w/ Brightwater Health. Attendees: Leo Martinez, Dana Cho (their PM), me.", "Ann",
     {("Dana Cho", "HAS_ROLE", "PM"), ("Dana Cho", "WORKS_AT", "Brightwater Health")}, set()),
    ("Meridian Freight | Contact: Alicia Gomez (Procurement Lead) | Interested in: 25 handhelds", "Ann",
     {("Meridian Freight", "CONTACT", "Alicia Gomez")}, set()),
    ("Lunch with Tom Baker (my old roommate) was fun.", "Ann", set(),
     {("Tom Baker", "HAS_ROLE", "my old roommate")}),
    # A familiar form with the full name in brackets is that person, and patterns read past the brackets.
    ("手上的客户交接一下：华庭广场项目交给小周（周宇航）。", "周宁",
     {("小周", "RESPONSIBLE_FOR", "华庭广场项目")}, set()),
    ("后端由老王（王建国）牵头，前端交给小刘。", "周宁", {("老王", "RESPONSIBLE_FOR", "后端")}, set()),
]  # fmt: skip


def test_a_familiar_form_in_front_of_a_full_name_is_its_alias(extractor: BuiltinExtractor) -> None:
    result = read(extractor, "日常对接找他手下的小米（米佳）。后端由老王（王建国）牵头。", actor="周宁")
    people = {e.name: e.aliases for e in result.entities if e.type == "person"}
    assert people.get("米佳") == ["小米"] and people.get("王建国") == ["老王"]
    assert "小米" not in people and "老王" not in people


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_a_customers_people_change(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
