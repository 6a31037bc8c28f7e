"""Global, versioned reference ids and the documents a text cites."""

from __future__ import annotations

import pytest

from engram.nlp.reference_ids import document_id, email_id, find_mentions, message_id, page_id, slug
from engram.nlp.replies import signature_lines, strip_reply


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Quote 2024-Q3_v2.pdf", "doc-quote-2024-q3-v2"),
        ("quote-2024-q3-v2.pdf", "doc-quote-2024-q3-v2"),
        ("报价单_v2.pdf", "doc-报价单-v2"),
        ("合同草案", "doc-合同草案"),
        ("采购合同第二版.docx", "doc-采购合同-v2"),
        ("MSA-v4.pdf", "doc-msa-v4"),
        ("Cobalt_Quote_Q-5527.pdf", "doc-cobalt-quote-q-5527"),
        ("Contract (final).docx", "doc-contract-vfinal"),
    ],
)
def test_document_ids_carry_the_version(name: str, expected: str) -> None:
    assert document_id(name) == expected


def test_other_ids() -> None:
    assert email_id("<CAF7q1@mail.cobalt.example>") == "email-CAF7q1@mail.cobalt.example"
    assert page_id("confluence-project-alpha-65540", 7) == "page-confluence-project-alpha-65540-v7"
    assert page_id("wiki-index", None) == "page-wiki-index"
    assert message_id("slack", "C1", "1718010131.000729") == "slack-C1-1718010131.000729"
    assert slug("  Project Alpha : Home!! ") == "project-alpha-home"


def test_mentions_in_text() -> None:
    text = "see attached quote Q-5527\nfor 120 seats; 《合同草案》 and https://dr.example/x/MSA-v4.pdf, "
    text += "notes.txt"
    found = find_mentions(text, ["Cobalt_Quote_Q-5527.pdf"])
    assert [(m.kind, m.id) for m in found] == [
        ("attached", "doc-cobalt-quote-q-5527"),  # the attachment the phrase names
        ("title", "doc-合同草案"),
        ("url", "doc-msa-v4"),
        ("file", "doc-notes"),
    ]
    zh = find_mentions("附件是更新后的报价单（报价单_v2.pdf）：合计12.6万元", ["报价单_v2.pdf"])
    assert [m.id for m in zh] == ["doc-报价单-v2"]
    assert find_mentions("see attached the signed order form.") == [
        find_mentions("see attached the signed order form.")[0]
    ]
    assert find_mentions("see attached the signed order form.")[0].id == "doc-signed-order-form"
    assert find_mentions("a link https://wiki.example/pages/655 and nothing else") == []


def test_strip_reply_rules() -> None:
    text = (
        "Works for us.\n\nDevin\n\n-- \nDevin Park\nIT Director\n\nOn Wed, Jun 5, 2024 Maria wrote:\n> older"
    )
    assert strip_reply(text) == "Works for us.\n\nDevin"
    outlook = "Fine.\n\n-----Original Message-----\nFrom: x\n\nold text"
    assert strip_reply(outlook) == "Fine."
    foxmail = "好的。\n\n此致\n敬礼\n\n张磊\n\n------------------ 原始邮件 ------------------\n发件人: x"
    assert strip_reply(foxmail) == "好的。"
    coremail = '收到。\n\n在 2024-06-05 10:20:33，"张磊" <z@x.example> 写道：\n>原文'
    assert strip_reply(coremail) == "收到。"
    long_tail = "Regards,\n" + "\n".join(
        f"line {n}: a long sentence of real content, which no signature would ever hold" for n in range(3)
    )
    assert strip_reply(long_tail) == long_tail  # a closing followed by real text is not a signature


def test_signature_lines_are_what_strip_reply_drops() -> None:
    mail = "Order confirmed.\n\nBest,\nCarl Jensen\n  Summit Office Supply  \n\n+1 415 555 0100"
    assert signature_lines(mail) == ["Carl Jensen", "Summit Office Supply", "+1 415 555 0100"]
    assert strip_reply(mail) == "Order confirmed."
    long_tail = "Regards,\n" + "a long sentence of real content, which no signature would ever hold"
    assert signature_lines(long_tail) == []
    assert signature_lines("No closing formula here.\nCarl") == []
