"""The wrong facts the eighty-eighth to ninety-first fresh readers judged, read as classes (sentences
written for these tests, never theirs)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A nursery, or a school said of a child or with what is studied, is attended, not an employer.
    (
        "Our daughter Maisie just started at Little Acorns Nursery.",
        "Ann",
        {("Maisie", "STUDIES_AT", "Little Acorns Nursery")},
        {("Maisie", "WORKS_AT", "Little Acorns Nursery")},
    ),
    (
        "My brother Tomas started at Leeds University, he's doing civil engineering.",
        "Ann",
        {("Tomas", "STUDIES_AT", "Leeds University")},
        {("Tomas", "WORKS_AT", "Leeds University")},
    ),
    (  # control: a lecturer's new employer
        "Priya started at Northgate University as a lecturer.",
        "Ann",
        {("Priya", "WORKS_AT", "Northgate University")},
        {("Priya", "STUDIES_AT", "Northgate University")},
    ),
    # A deal's stage is no home or tool; "just learned" is finding out, not study.
    (
        "Pipeline note: Corvane Foods moved to Negotiation.",
        "Ann",
        set(),
        {("Corvane Foods", "LIVES_IN", "Negotiation")},
    ),
    (
        "Just learned our main contact at Halden Labs, Marta Ruiz, got promoted.",
        "Ann",
        set(),
        {("Ann", "STUDIES", "main contact")},
    ),
    # A verb or a count after a thing liked is no thing liked.
    (
        "I love sushi, went to Kura twice this week",
        "Ann",
        {("Ann", "LIKES", "sushi")},
        {("Ann", "LIKES", "went")},
    ),
    ("I'm a huge fan of Pixar, seen Up like 12 times", "Ann", set(), {("Ann", "LIKES", "12 times")}),
    # The writer signing up is no order; an appointment is owned by no one; a dispute closed is no deal.
    ("and I signed up for the Leeds half in June.", "Ann", set(), {("Ann", "ORDERED", "Leeds")}),
    (
        "I've got my driving test on 3 May. 2nd attempt",
        "Ann",
        set(),
        {("Ann", "OWNS", "driving test on 3 May")},
    ),
    (
        "Billing dispute with Corvane Foods closed, they paid the missing £800.",
        "Ann",
        set(),
        {("Corvane Foods", "SIGNED", "Corvane Foods deal")},
    ),
    (
        "Halden Labs signed! 25 seats. Marta signed after the legal review.",
        "Ann",
        {("Halden Labs", "SIGNED", "Halden Labs deal")},
        {("Marta", "SIGNED", "after the legal review")},
    ),
    # A job offered is no role held; a territory managed is no tool.
    (
        "Got a job offer from Monzo as a product designer!",
        "Ann",
        set(),
        {("Ann", "HAS_ROLE", "product designer")},
    ),
    (
        "Welcome Tomas to Partnerships! He'll be managing our reseller relationships in EMEA.",
        "Ann",
        set(),
        {("Tomas", "USES", "EMEA")},
    ),
    # Jobs the readers listed as missed: a promotion, a job "as" a role, a start "in January", a first week.
    (
        "Ines Moreau got promoted to Studio Director.",
        "Ann",
        {("Ines Moreau", "HAS_ROLE", "Studio Director")},
        set(),
    ),
    (
        "My husband got a new job at Oakridge Bank as a risk analyst",
        "Ann",
        {("Ann's husband", "WORKS_AT", "Oakridge Bank"), ("Ann's husband", "HAS_ROLE", "risk analyst")},
        set(),
    ),
    (
        "Camille Duret joins us on Monday as Product Manager.",
        "Ann",
        {("Camille Duret", "HAS_ROLE", "Product Manager")},
        set(),
    ),
    ("first week at Monzo, everyone's lovely", "Ann", {("Ann", "WORKS_AT", "Monzo")}, set()),
    (
        "I'm starting a new job in January at Oakridge Bank",
        "Ann",
        {("Ann", "WORKS_AT", "Oakridge Bank")},
        set(),
    ),
    (
        "I'm starting a new job in June at Unilever, brand manager.",
        "Ann",
        set(),
        {("Unilever", "HAS_ROLE", "brand manager")},
    ),
    (  # a guard: a town after the employer is no employer
        "starting a new job in May at a surf school in Porto.",
        "Ann",
        set(),
        {("Ann", "WORKS_AT", "Porto")},
    ),
    ("她是学生会主席。", "王芳", set(), {("王芳", "STUDIES", "生会主席")}),  # a guard: 学生会 is no study
    # What is studied said by a copula (是学…的, 学的是…); the subject denied is not studied.
    (
        "我儿子不是学金融的，是学统计的。",
        "王芳",
        {("王芳的儿子", "STUDIES", "统计")},
        {("王芳的儿子", "STUDIES", "金融")},
    ),
    # 大三 is a year of study; 成都人 and 重庆人 say where someone is from, not a name nor the groom's home.
    ("我表弟在南京读大二，学的是建筑。", "王芳", set(), {("王芳的表弟", "STUDIES", "大二")}),
    (
        "我女朋友是苏州人，特别爱吃甜的。",
        "王芳",
        {("王芳的女朋友", "PARTNER_OF", "王芳")},
        {("苏州人", "PARTNER_OF", "王芳")},
    ),
    ("我哥下个月结婚，女方是西安人。", "王芳", set(), {("王芳的哥哥", "COMES_FROM", "西安")}),
    # Where one comes to is no hometown; a former holder who went to a department holds no duty.
    ("我爸妈下个月从老家来深圳住一阵。", "王芳", set(), {("王芳的爸爸", "COMES_FROM", "深圳")}),
    (
        "我正式接任华东区经理，原经理陈晓去了市场部。",
        "王芳",
        {("陈晓", "MEMBER_OF", "市场部")},
        {("王芳", "RESPONSIBLE_FOR", "陈晓去"), ("陈晓", "VISITED", "市场部")},
    ),
    # A choice being weighed happened not; a conjunction is nothing given up; a survey's share is not mine.
    ("我们正在评估是不是要取消深圳仓库。", "王芳", set(), {("王芳", "CANCELLED", "深圳仓库")}),
    (
        "我在减肥，所以戒了奶茶",
        "王芳",
        {("王芳", "STOPPED_USING", "奶茶")},
        {("王芳", "STOPPED_USING", "所以")},
    ),
    ("调研结果：70%的用户更喜欢深色主题。", "王芳", set(), {("王芳", "PREFERS", "深色主题")}),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_readers_88_91(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)
