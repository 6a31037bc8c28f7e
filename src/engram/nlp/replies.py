"""Keep only what a message's author wrote: drop quoted replies, forwarded-by-reply blocks and signatures.

Rules (English and Chinese mail clients), applied in order:

1. everything from the first *reply marker* on is dropped: an attribution line ("On Mon, Jun 3,
   2024 at 9:12 AM Maria <…> wrote:", "在 2024-06-05 10:20:33，"张磊" <…> 写道：", "… 于 … 写道："),
   Outlook's ``-----Original Message-----``, Foxmail's ``------------------ 原始邮件 ------------------``,
   the ``-- `` signature delimiter (RFC 3676), "Sent from my iPhone" / "发自我的iPhone";
2. remaining quoted lines (``>``, ``> >``, ``>`` without a space) are dropped;
3. a closing formula ("Best regards,", "Thanks,", "此致 / 敬礼", "祝好") followed only by a few
   short lines (name, title, phone) is dropped with them.

A forward ("---------- Forwarded message ---------") is kept: the forwarded text is the substance.
Hand-written rather than a library: see docs/decisions.md (reply parsers found on PyPI cover
English and European clients; Foxmail, Coremail and "写道" attributions are not among them).
"""

from __future__ import annotations

import re

_ATTRIBUTION = re.compile(
    r"^\s*(?:On\s.{4,200}\bwrote:|在\s?.{2,120}写道[：:]|.{1,80}\s于\s?.{2,80}写道[：:]"
    r"|.{2,120}\s(?:schrieb|a écrit)\s?:)\s*$",
    re.I,
)
_CUT_LINE = re.compile(
    r"^\s*(?:-{2,}\s*Original Message\s*-{2,}|-{3,}\s*原始邮件\s*-{3,}|_{10,}|"
    r"Sent from my \w+.*|发自我的\w+.*|从我的\s?\w+\s?发送)\s*$",
    re.I,
)
_SIGNATURE_DELIMITER = re.compile(r"^-- ?$")
_QUOTED = re.compile(r"^\s*>")
_CLOSING = re.compile(
    r"^\s*(?:best(?: regards)?|kind regards|warm regards|regards|many thanks|thanks(?: again)?|thank you|"
    r"cheers|sincerely|yours(?: sincerely| truly)?|br|此致|祝好|谢谢|顺颂商祺|敬礼)[,，!！。.]?\s*$",
    re.I,
)
MAX_SIGNATURE_LINES = 6
MAX_SIGNATURE_LINE_CHARS = 60


def strip_reply(text: str) -> str:
    """Return ``text`` without quoted history and signature, trimmed; unchanged when nothing matches."""
    lines = text.replace("\r\n", "\n").split("\n")
    kept: list[str] = []
    for index, line in enumerate(lines):
        joined = line + " " + lines[index + 1] if index + 1 < len(lines) else line
        if _CUT_LINE.match(line) or _SIGNATURE_DELIMITER.match(line) or _ATTRIBUTION.match(line):
            break
        if line.lstrip().startswith("On ") and _ATTRIBUTION.match(joined):  # attribution wrapped in two
            break
        if not _QUOTED.match(line):
            kept.append(line.rstrip())
    return "\n".join(_without_closing(kept)).strip()


def _without_closing(lines: list[str]) -> list[str]:
    """Drop a closing formula and the short lines after it, when nothing longer follows."""
    index = _closing_at(lines)
    if index is None:
        return lines
    kept = lines[:index]
    while kept and (not kept[-1].strip() or _CLOSING.match(kept[-1])):  # 此致 above 敬礼
        kept.pop()
    return kept


def signature_lines(text: str, writer: str | None = None) -> list[str]:
    """Return the non-blank lines of ``text``'s signature block (name, title, company, phone: the short
    lines after its last closing formula, as :func:`strip_reply` drops them), stripped; [] when none.

    Without a closing formula, the block is the last few short lines from one opening with
    ``writer``'s name, alone or before a separator ("…Please escalate.\n\nIngrid Solberg\nIT Lead,
    Fjordline", "…paid on May 10.\nInes Duarte | Accounts Payable | Marisol Hotels").
    """
    lines = text.replace("\r\n", "\n").split("\n")
    index = _closing_at(lines)
    if index is None and writer:
        index = _unsigned_at(lines, writer.strip().casefold())
    return [] if index is None else [line.strip() for line in lines[index + 1 :] if line.strip()]


_AFTER_NAME = re.compile(r"\s*[|｜/,，]")
"""What separates a name from the title or company on its signature line."""


def _unsigned_at(lines: list[str], writer: str) -> int | None:
    """Return the index of the line before a last block that opens with the writer's name."""
    for index in range(len(lines) - 1, 0, -1):
        line = lines[index].strip().casefold()
        if not (line == writer or (line.startswith(writer) and _AFTER_NAME.match(line, len(writer)))):
            continue
        tail = [line for line in lines[index:] if line.strip()]
        if len(tail) > MAX_SIGNATURE_LINES or any(len(line) > MAX_SIGNATURE_LINE_CHARS for line in tail):
            return None
        return index - 1
    return None


def _closing_at(lines: list[str]) -> int | None:
    """Return the index of the last closing formula followed only by a few short lines, else None."""
    for index in range(len(lines) - 1, -1, -1):
        if not _CLOSING.match(lines[index]):
            continue
        tail = [line for line in lines[index + 1 :] if line.strip()]
        if len(tail) > MAX_SIGNATURE_LINES or any(len(line) > MAX_SIGNATURE_LINE_CHARS for line in tail):
            return None
        return index
    return None
