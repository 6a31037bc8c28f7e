"""Hand-overs: who takes on which accounts, queues and duties, and from whom (sentences written for these
tests; each case names the facts that must and must not be read)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from test_builtin_clauses import Case, reads, remembered

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # a duty in lower case taken over, by whom the clause opens on; the writer's own is theirs
    ("Marta will take over release notes.", "Owen", {("Marta", "RESPONSIBLE_FOR", "release notes")}, set()),
    ("From March, Kwame takes over vendor onboarding from me.", "Lucia",
     {("Kwame", "RESPONSIBLE_FOR", "vendor onboarding"), ("Lucia", "UNASSIGNED_FROM", "vendor onboarding")},
     set()),
    ("Ravi will take over my renewals while I'm on leave.", "Helen",
     {("Ravi", "RESPONSIBLE_FOR", "Helen's renewals")}, set()),
    ("Dmitri will take over her accounts (Granite Health and Polaris Freight).", "Owen",
     {("Dmitri", "RESPONSIBLE_FOR", "Granite Health"), ("Dmitri", "RESPONSIBLE_FOR", "Polaris Freight")},
     {("Dmitri", "RESPONSIBLE_FOR", "accounts")}),
    ("The toddlers took over the living room again.", "Owen", set(),
     {("Owen", "RESPONSIBLE_FOR", "living room")}),  # control: no duty
    # accounts or a queue covered; not costs
    ("Leonie will cover the Benelux accounts next week.", "Owen",
     {("Leonie", "RESPONSIBLE_FOR", "Benelux accounts")}, set()),
    ("Tariq is covering my support queue until Friday.", "Mina",
     {("Tariq", "RESPONSIBLE_FOR", "Mina's support queue")}, set()),
    ("I'm covering Granite Health and Polaris Freight this month.", "Owen",
     {("Owen", "RESPONSIBLE_FOR", "Granite Health"), ("Owen", "RESPONSIBLE_FOR", "Polaris Freight")}, set()),
    ("Our policy covers the repair costs.", "Owen", set(), {("Owen", "RESPONSIBLE_FOR", "repair costs")}),
    ("Jonah is off on Monday, Aiko's covering the Granite escalations.", "Owen", set(),
     {("Jonah", "RESPONSIBLE_FOR", "Granite escalations")}),  # an unknown name is not the one before it
    # a project led, run or owned is a duty, not a possession
    ("Sofia Marchetti now leads the billing migration.", "Owen",
     {("Sofia Marchetti", "RESPONSIBLE_FOR", "billing migration")}, set()),
    ("Hassan owns the backend, Iris the frontend.", "Owen", {("Hassan", "RESPONSIBLE_FOR", "backend")},
     {("Hassan", "OWNS", "backend")}),
    ("Hassan owns a sailing boat.", "Owen", {("Hassan", "OWNS", "sailing boat")}, set()),  # control
    ("Lena is now responsible for all public-sector accounts.", "Owen",
     {("Lena", "RESPONSIBLE_FOR", "public-sector accounts")}, set()),
    ("I handed the partner newsletter series over to Gwen.", "Owen",
     {("Gwen", "RESPONSIBLE_FOR", "partner newsletter series"),
      ("Owen", "UNASSIGNED_FROM", "partner newsletter series")}, set()),
    # accounts said to go to someone, a second one taking one on in the same sentence
    ("I'm leaving in May. My accounts go to Tasha: Halden Bank, Granite Health and Polaris Freight.", "Owen",
     {("Tasha", "RESPONSIBLE_FOR", "Halden Bank"), ("Tasha", "RESPONSIBLE_FOR", "Polaris Freight")}, set()),
    ("From April, Bianca takes over Granite Health and Luis gets Polaris Freight.", "Owen",
     {("Bianca", "RESPONSIBLE_FOR", "Granite Health"), ("Luis", "RESPONSIBLE_FOR", "Polaris Freight")},
     set()),
    ("Luis gets Polaris Freight tickets all the time.", "Owen", set(),
     {("Luis", "RESPONSIBLE_FOR", "Polaris Freight")}),  # control: no hand-over
    # a hand-over note's arrows: an account to a person
    ("Handover while I'm away: Polaris Freight → Camille; Granite Health → Bongani.", "Owen",
     {("Camille", "RESPONSIBLE_FOR", "Polaris Freight"), ("Bongani", "RESPONSIBLE_FOR", "Granite Health")},
     set()),
    ("Jira → Linear by March.", "Owen", set(), {("Linear", "RESPONSIBLE_FOR", "Jira")}),  # control: no person
    # Chinese: 交接给 after 这边的客户, customers counted before 由, an owner said to be someone, taken back
    ("我下个月调去深圳，华北这边的客户交接给孟涛。", "钱磊", {("孟涛", "RESPONSIBLE_FOR", "华北")}, set()),
    ("这期间恒达物流和新元制药两个客户由刘婷对接。", "钱磊",
     {("刘婷", "RESPONSIBLE_FOR", "恒达物流"), ("刘婷", "RESPONSIBLE_FOR", "新元制药")}, set()),
    ("海港二期项目的负责人定为邓琳。", "钱磊", {("邓琳", "RESPONSIBLE_FOR", "海港二期项目")}, set()),
    ("恒达物流这边我接手了，明天先去拜访。", "钱磊", {("钱磊", "RESPONSIBLE_FOR", "恒达物流")}, set()),
    ("新元制药我接回来了，恒达物流继续由刘婷跟。", "钱磊",
     {("钱磊", "RESPONSIBLE_FOR", "新元制药"), ("刘婷", "RESPONSIBLE_FOR", "恒达物流")}, set()),
    ("这事我来跟。", "钱磊", set(), {("钱磊", "RESPONSIBLE_FOR", "这事")}),  # control: nothing named
    ("华东区的负责人定为刘洋。", "王磊", {("刘洋", "RESPONSIBLE_FOR", "华东区")},
     {("王磊", "RESPONSIBLE_FOR", "华东区")}),
    ("我下个月调去总部，华东区的客户交接给刘洋了", "王磊",
     {("刘洋", "RESPONSIBLE_FOR", "华东区的客户"), ("王磊", "UNASSIGNED_FROM", "华东区的客户")},
     {("王磊", "RESPONSIBLE_FOR", "华东区"), ("王磊", "MEMBER_OF", "去总部")}),
    ("如果老周走了，渠道业务交接给小陈", "王磊", set(), {("小陈", "RESPONSIBLE_FOR", "渠道业务")}),
    ("通知：谢文博从4月1日起调任华东区销售总监，原华东区的客户统一转交给他负责。", "王磊",
     {("谢文博", "RESPONSIBLE_FOR", "华东区")}, set()),  # control: handed to "him", the one named
    ("My accounts go to Tasha: Halden Bank and Granite Health.", "Owen",
     {("Owen", "UNASSIGNED_FROM", "Halden Bank"), ("Tasha", "RESPONSIBLE_FOR", "Halden Bank")}, set()),
    ("Jonas was supposed to take over the DACH accounts from Ravi, but that fell through.", "Owen", set(),
     {("Jonas", "RESPONSIBLE_FOR", "DACH accounts"), ("Ravi", "UNASSIGNED_FROM", "DACH accounts")}),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_handovers(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


def test_a_handover_ends_the_former_holders_charge(tmp_path: Path) -> None:
    """Through Memory: the one who covered the accounts is superseded on the day they are taken over, and
    the new holder's charge is current."""
    said = [
        ("Ravi covers the DACH accounts.", "2024-03-01T10:00:00Z"),
        ("Jonas will take over the DACH accounts from Ravi.", "2024-04-02T10:00:00Z"),
    ]
    hits = remembered(tmp_path, said, "Owen")
    charges = {
        (hit.subject_name, hit.fact.status, hit.fact.invalid_at)
        for hit in hits
        if hit.fact.predicate == "RESPONSIBLE_FOR"
    }
    assert charges == {
        ("Ravi", "superseded", datetime(2024, 4, 2, 10, 0, tzinfo=UTC)),
        ("Jonas", "current", None),
    }
