"""Who holds a role of an organisation works there; a writer's first day in a role; years at a firm; who
succeeds whom in a role; a role in a town and a move "with me" say where one lives; a name before a pronoun
or a second verb is the whole object (sentences written for these tests, in the shapes fresh readers listed
as missed)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, reads

from engram.ingest.builtin import BuiltinExtractor

EMPLOYERS: list[Case] = [
    # A role said with a comma before its holder ("a new … director, Name") is no name addressed.
    (
        "Marlow Dairy has a new finance director, Helen Brooke.",
        "Ann",
        {("Helen Brooke", "HAS_ROLE", "finance director"), ("Helen Brooke", "WORKS_AT", "Marlow Dairy")},
        set(),
    ),
    # An organisation's role or champion, with or without "is" before the holder.
    (
        "Heads-up: Ortiva's champion Lena Vogt was promoted to COO.",
        "Ann",
        {("Lena Vogt", "WORKS_AT", "Ortiva"), ("Lena Vogt", "HAS_ROLE", "COO")},
        set(),
    ),
    (
        "Halden Steel's IT lead is Sam Rowe.",
        "Ann",
        {("Sam Rowe", "WORKS_AT", "Halden Steel"), ("Sam Rowe", "HAS_ROLE", "IT lead")},
        set(),
    ),
    (
        "Deal closed. Fennick's contact is Maya Lind, maya.lind@fennick.io.",
        "Ann",
        {("Fennick", "CONTACT", "Maya Lind"), ("Maya Lind", "WORKS_AT", "Fennick")},
        set(),
    ),
    # Controls: one who moved on since, and a person's manager (no firm).
    (
        "Ortiva's champion, Lena Vogt, moved to Brightline as CRO.",
        "Ann",
        set(),
        {("Lena Vogt", "WORKS_AT", "Ortiva")},
    ),
    ("Maria's manager Tom Reed approved the trip.", "Ann", set(), {("Tom Reed", "WORKS_AT", "Maria")}),
    # Roles the table lacked: a doctor's specialty, an admin; an acronym before a role.
    (
        "My sister Jo is a radiologist at Leeds General.",
        "Ann",
        {("Jo", "HAS_ROLE", "radiologist"), ("Jo", "WORKS_AT", "Leeds General")},
        set(),
    ),
    (
        "Sorrel Health signed today. Their admin is Pavel Novak.",
        "Ann",
        {("Pavel Novak", "HAS_ROLE", "admin"), ("Pavel Novak", "WORKS_AT", "Sorrel Health")},
        set(),
    ),
    ("my partner Sam works nights, he's an ICU nurse", "Ann", {("Sam", "HAS_ROLE", "ICU nurse")}, set()),
    (
        "I've taken a job as a pastry chef at a bistro in Porto.",
        "Ann",
        {("Ann", "HAS_ROLE", "pastry chef")},
        set(),
    ),
    (
        "Grace got promoted to head of pediatrics at St. Anne's!",
        "Ann",
        {("Grace", "HAS_ROLE", "head of pediatrics")},
        set(),
    ),
    # A holder with an accented name; a title before an address.
    (
        "Update: our Head of Product, José Ortega, now reports to the CEO.",
        "Ann",
        {("José Ortega", "HAS_ROLE", "Head of Product")},
        set(),
    ),
    (
        "Main contact there is Ivo Marsh, head of procurement, ivo.marsh@tarnfoods.com.",
        "Ann",
        {("Ivo Marsh", "HAS_ROLE", "head of procurement")},
        set(),
    ),
    # The writer's first day or week, said without "I".
    (
        "First day as Head of Data at Corvane today!",
        "Nia Shaw",
        {("Nia Shaw", "HAS_ROLE", "Head of Data"), ("Nia Shaw", "WORKS_AT", "Corvane")},
        set(),
    ),
    ("First week at Lumio done.", "Nia Shaw", {("Nia Shaw", "WORKS_AT", "Lumio")}, set()),
    (
        "The first day of the trial at Lumio is Monday.",
        "Nia Shaw",
        set(),
        {("Nia Shaw", "WORKS_AT", "Lumio")},
    ),
    # Years at a firm are a job; hours somewhere are a wait.
    ("I've been at Siemens for 8 years now.", "Ann", {("Ann", "WORKS_AT", "Siemens")}, set()),
    ("We have been at Heathrow for three hours.", "Ann", set(), {("Ann", "WORKS_AT", "Heathrow")}),
]


@pytest.mark.parametrize(
    ("text", "actor", "wanted", "unwanted"), EMPLOYERS, ids=[c[0][:40] for c in EMPLOYERS]
)
def test_who_holds_a_role_of_an_organisation_works_there(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


SUCCESSORS: list[Case] = [
    (
        "Dunmore Farms: Ray Cole retires in June. His successor as plant manager is Ella Frost.",
        "Ann",
        {("Ella Frost", "HAS_ROLE", "plant manager")},
        {("Ray Cole", "HAS_ROLE", "plant manager")},
    ),
    # A capitalised title is a role, no organisation anyone works at; the one replaced does not hold it.
    (
        "Ray's replacement as Head of Support: Ella Frost.",
        "Ann",
        {("Ella Frost", "HAS_ROLE", "Head of Support")},
        {("Ray", "HAS_ROLE", "Head of Support"), ("Ella Frost", "WORKS_AT", "Head of Support")},
    ),
]


@pytest.mark.parametrize(
    ("text", "actor", "wanted", "unwanted"), SUCCESSORS, ids=[c[0][:40] for c in SUCCESSORS]
)
def test_a_successor_holds_the_role_not_the_one_replaced(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


ZH_EMPLOYERS: list[Case] = [
    # 去X做<a field of work>: a job (not 去X做汇报, an errand)
    ("下个月我去美团做产品。", "钱勇", {("钱勇", "WORKS_AT", "美团")}, set()),
    ("明天我去华为做汇报。", "钱勇", set(), {("钱勇", "WORKS_AT", "华为")}),
    # A CRM note's bracket after a name: the employer, with or without the role; not a former one
    ("客户孙波（远山物流 采购）来电，说要加单。", "钱勇", {("孙波", "WORKS_AT", "远山物流")}, set()),
    ("新同事李然（原京东）下周入职。", "钱勇", set(), {("李然", "WORKS_AT", "京东")}),
    # Firms the list lacked
    ("我表哥在小米上班，天天加班。", "钱勇", {("钱勇的表哥", "WORKS_AT", "小米")}, set()),
]


@pytest.mark.parametrize(
    ("text", "actor", "wanted", "unwanted"), ZH_EMPLOYERS, ids=[c[0][:20] for c in ZH_EMPLOYERS]
)
def test_a_chinese_job_said_by_its_field_or_a_bracket(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


HOMES: list[Case] = [
    # One works, so lives, in the town a role is said in; a firm is no town.
    ("My brother Tariq is a paramedic in Glasgow.", "Ann", {("Tariq", "LIVES_IN", "Glasgow")}, set()),
    ("He's a consultant in Accenture.", "Ann", set(), {("Ann", "LIVES_IN", "Accenture")}),
    # Whoever moves somewhere "with me" moves the writer too; "with us" after a town keeps the town.
    (
        "My girlfriend Lena is moving to Porto with me in May!",
        "Ann",
        {("Lena", "LIVES_IN", "Porto"), ("Ann", "LIVES_IN", "Porto")},
        set(),
    ),
    (
        "Sara moved to Leeds with her kids.",
        "Ann",
        {("Sara", "LIVES_IN", "Leeds")},
        {("Ann", "LIVES_IN", "Leeds")},
    ),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), HOMES, ids=[c[0][:40] for c in HOMES])
def test_a_role_in_a_town_and_a_move_with_the_writer_say_where_one_lives(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


OBJECTS: list[Case] = [
    # A name stays the object when a pronoun or a second verb follows it.
    ("We're no longer using Zendesk as of today.", "Ann", {("Ann", "STOPPED_USING", "Zendesk")}, set()),
    (
        "Called Orrin Hotels. They currently use Opera PMS and are unhappy with its reports.",
        "Ann",
        {("Orrin Hotels", "USES", "Opera PMS")},
        set(),
    ),
    ("I'm excited to work hard and learn a lot.", "Ann", set(), {("Ann", "PLANS_TO", "work hard")}),
]


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), OBJECTS, ids=[c[0][:40] for c in OBJECTS])
def test_a_name_before_a_pronoun_or_a_second_verb_is_the_object(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
