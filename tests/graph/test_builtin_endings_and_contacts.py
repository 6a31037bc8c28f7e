"""Things said to have ended (a diet dropped, a pet put down or given away), a taste never had, and the
contact or role of an organisation said the way notes say it (sentences written for these tests)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, read, reads

from engram.ingest.builtin import BuiltinExtractor

ENDED = [
    # (sentence, speaker, predicate, object, negated)
    ("Not vegan anymore. Had a burger yesterday and no regrets", "Ann", "DIET", "vegan", True),
    ("not vegetarian anymore btw, bacon won", "Ann", "DIET", "vegetarian", True),
    ("Gave up being vegetarian after 5 years", "Ann", "DIET", "vegetarian", True),
    ("I quit being vegan last year", "Ann", "DIET", "vegan", True),
    ("Vegetarian since 2019 and never looked back", "Ann", "DIET", "Vegetarian", False),
    ("went vegan in January but honestly I'm not anymore, cheese won", "Ann", "DIET", "vegan", True),
    ("I'm not on a diet anymore, was doing keto for 6 months", "Ann", "DIET", "keto", True),
    ("I went vegan and I'm not sorry anymore", "Ann", "DIET", "vegan", False),
    ("We had to put our dog Rufus down last week. 14 years old.", "Ann", "HAS_PET", "Rufus", True),
    ("Our cat Pixel had to be put down yesterday. 17 years.", "Ann", "HAS_PET", "Pixel", True),
    ("We had to put our old dog Rex down yesterday. 14 years.", "Ann", "HAS_PET", "Rex", True),
    ("We had to rehome our cat Biscuit after the baby came.", "Ann", "HAS_PET", "Biscuit", True),
    ("we had to put down our old dog Rex last week. 14 years.", "Ann", "HAS_PET", "Rex", True),
    (
        "我们家的猫咪团子上周走丢了，还没找到。",
        "林晓",
        "HAS_PET",
        "团子",
        False,
    ),  # lost, not gone: labelled so
    (
        "we had to rehome our rabbit, Thumper, because Lily developed an allergy",
        "Ann",
        "HAS_PET",
        "Thumper",
        True,
    ),
    ("我家狗狗旺财去年走了，到现在还是很想它", "王芳", "HAS_PET", "旺财", True),
    ("我家猫咪团团送人了，房东不让养", "王芳", "HAS_PET", "团团", True),
    # controls: a pet that lies down or puts a paw down, a dog that walked far, is still had
    ("Our dog Biscuit loves to lie down by the fire", "Ann", "HAS_PET", "Biscuit", False),
    ("My dog Rufus put his paw down on the map", "Ann", "HAS_PET", "Rufus", False),
    ("我家狗狗旺财走了好远才回来", "王芳", "HAS_PET", "旺财", False),
]


@pytest.mark.parametrize(("sentence", "speaker", "predicate", "obj", "negated"), ENDED)
def test_what_ended_is_negated(
    extractor: BuiltinExtractor, sentence: str, speaker: str, predicate: str, obj: str, negated: bool
) -> None:
    found = [
        (f.subject, f.object if f.object is not None else f.value, f.negated)
        for f in read(extractor, sentence, actor=speaker).facts
        if f.predicate == predicate
    ]
    assert found == [(speaker, obj, negated)]


def test_a_question_states_no_diet(extractor: BuiltinExtractor) -> None:
    facts = read(extractor, "Vegan since March? How do you get protein").facts
    assert not [f for f in facts if f.predicate == "DIET"]


CASES: list[Case] = [
    # A taste never had is a dislike ("never been a fan of"), not a liking never begun.
    ("Never been a fan of cilantro tbh", "Ann", {("Ann", "DISLIKES", "cilantro")}, set()),
    ("I've never been a fan of jazz", "Ann", {("Ann", "DISLIKES", "jazz")}, {("Ann", "LIKES", "jazz")}),
    ("I'm a big fan of jazz", "Ann", {("Ann", "LIKES", "jazz")}, set()),  # a control
    # A denial denied (不是不爱) states no taste.
    ("我不是不爱吃海鲜，是过敏", "王芳", set(), {("王芳", "DISLIKES", "海鲜"), ("王芳", "LIKES", "海鲜")}),
    ("我不爱吃海鲜", "王芳", {("王芳", "DISLIKES", "海鲜")}, set()),  # a control
    # The contact of the organisation talked about, said bare, kept, changed or by role.
    (
        "Account note — Halvorsen Logistics: renewed. Contact is still Jonas Berg (ops director).",
        "Ann",
        {("Halvorsen Logistics", "CONTACT", "Jonas Berg")},
        set(),
    ),
    (
        "New lead: Mapleridge School District, 14 schools. Contact is their IT director, Wendell Ames.",
        "Ann",
        {("Mapleridge School District", "CONTACT", "Wendell Ames")},
        set(),
    ),
    (
        "Account note Zeleznik Brno: contact changed to Jakub Horak (plant manager).",
        "Ann",
        {("Zeleznik Brno", "CONTACT", "Jakub Horak")},
        set(),
    ),
    (
        "Sofia Marquez is leaving. New point of contact at Quarry Analytics will be Ben Okafor.",
        "Ann",
        {("Quarry Analytics", "CONTACT", "Ben Okafor")},
        set(),
    ),
    (
        "Ticket #4471 — Orchard Lane Foods reports that CSV exports cut off. Customer contact: Ruth Adeyemi.",
        "Ann",
        {("Orchard Lane Foods", "CONTACT", "Ruth Adeyemi")},
        set(),
    ),
    (
        "Halvorsen Logistics renewed. Previous contact Sarah Lim left the company.",
        "Ann",
        set(),
        {("Halvorsen Logistics", "CONTACT", "Sarah Lim")},
    ),  # a control: a contact before
    # 他们的负责人, a titled name after its firm in a note, a job and then where it is held: who works where.
    ("刚签了长沙湘江传媒，对方负责人龚雪。", "王芳", {("龚雪", "WORKS_AT", "湘江传媒")}, set()),
    (
        "宁波甬达汽配最近登录掉了80%，他们的负责人 沈磊 好像已经走了",
        "王芳",
        set(),
        {("沈磊", "WORKS_AT", "甬达汽配")},
    ),
    (
        "CRM记录：博远医疗 赵主任 对我们的随访系统很感兴趣。",
        "王芳",
        {("赵主任", "WORKS_AT", "博远医疗")},
        set(),
    ),
    ("我老婆是护士，在儿童医院，三班倒", "伟强", {("伟强的老婆", "WORKS_AT", "儿童医院")}, set()),
    ("我老公是医生，在北京，天天值班", "王芳", set(), {("王芳的老公", "WORKS_AT", "北京")}),  # a place
    ("我老婆是老师，在实验小学教语文", "黎明", set(), {("老师", "WORKS_AT", "实验小学")}),
    # A role of theirs said with "is" or in brackets: they work there; an accented name is a name.
    (
        "Partnership call with Nimbus Cloud. Their partner manager is Derek Lam.",
        "Ann",
        {("Derek Lam", "WORKS_AT", "Nimbus Cloud"), ("Derek Lam", "HAS_ROLE", "partner manager")},
        set(),
    ),
    (
        "Call with Solvay Foods went well. Champion is their CIO Raúl Ortega.",
        "Ann",
        {("Raúl Ortega", "WORKS_AT", "Solvay Foods"), ("Raúl Ortega", "HAS_ROLE", "CIO")},
        set(),
    ),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_tastes_and_contacts(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
