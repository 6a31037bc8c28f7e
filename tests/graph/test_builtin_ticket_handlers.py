"""Who handles a support ticket ("Assigned to Kenji.", "I'm on it.", 负责人：谢婉, 指派给后端冯涛): the
handler is RESPONSIBLE_FOR the numbered ticket, stored so through Memory (sentences written for these
tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_builtin_clauses import Triple, reads, remembered

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    (
        "Ticket #48213 – Customer Brightwell Dental reports that PDF export fails. Assigned to Kenji.",
        "Nadia",
        {("Kenji", "RESPONSIBLE_FOR", "Ticket #48213")},
        set(),
    ),
    (
        "Ticket #4471 – Pinewood Dental: SMS reminders not sending. Assigned to me.",
        "Rafael",
        {("Rafael", "RESPONSIBLE_FOR", "Ticket #4471")},
        set(),
    ),
    (
        "Ticket #4611 – Sablewood Hotels: bookings not syncing since Tuesday. I'm on it.",
        "Ruth",
        {("Ruth", "RESPONSIBLE_FOR", "Ticket #4611")},
        set(),
    ),
    (
        "Kestrel Airways ticket #4712 - the app crashes on iOS 17.4. Jun Park is looking.",
        "Zara",
        {("Jun Park", "RESPONSIBLE_FOR", "ticket #4712")},
        set(),
    ),
    (
        "【工单 #4788】客户：杭州青禾食品；问题：小程序库存不扣减；优先级：高；负责人：谢婉。",
        "彭晓",
        {("谢婉", "RESPONSIBLE_FOR", "工单 #4788")},
        set(),
    ),
    (
        "工单#20487：客户反馈登录后页面白屏，已复现。优先级P1，指派给后端冯涛处理。",
        "彭晓",
        {("冯涛", "RESPONSIBLE_FOR", "工单#20487")},
        set(),
    ),
    (
        "海川贸易提了一个bug：安卓端推送收不到。工单#6120，给了林小雨",
        "彭晓",
        {("林小雨", "RESPONSIBLE_FOR", "工单#6120")},
        set(),
    ),
    # guards: a question, a team, no numbered ticket
    ("Ticket #5102: can Kenji take this one?", "Ann", set(), {("Kenji", "RESPONSIBLE_FOR", "Ticket #5102")}),
    (
        "Ticket #6410 – Ridgeway Gym: the app crashes. Assigned to Hana's mobile team.",
        "Ann",
        set(),
        {("Hana", "RESPONSIBLE_FOR", "Ticket #6410")},
    ),
    ("The login bug is assigned to Kenji.", "Ann", set(), {("Kenji", "RESPONSIBLE_FOR", "login bug")}),
]


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_ticket_handlers(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


def test_a_handler_keeps_every_ticket_through_memory(tmp_path: Path) -> None:
    """Through Memory: two tickets assigned to one engineer are both current (a handler holds many)."""
    said = [
        ("Ticket #5101 – Larkspur Hotels: SSO login fails. Assigned to Kenji.", "2024-03-01T10:00:00Z"),
        (
            "Ticket #5102 – Brightline Schools: uploads over 20MB fail. Assigned to Kenji.",
            "2024-03-02T10:00:00Z",
        ),
    ]
    hits = remembered(tmp_path, said, "Ann")
    handled = {
        (hit.subject_name, hit.object_name, hit.fact.status)
        for hit in hits
        if hit.fact.predicate == "RESPONSIBLE_FOR"
    }
    assert handled == {("Kenji", "Ticket #5101", "current"), ("Kenji", "Ticket #5102", "current")}
