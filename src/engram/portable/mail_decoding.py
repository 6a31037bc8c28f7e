"""Turn a mail's bytes into text without mangling it, and tell a cut or broken message from a whole one.

Charsets. A message declares its charset per text part; ``policy.default`` then decodes with
``errors="replace"``, so a wrong or missing declaration silently becomes U+FFFD. Here a part is
decoded strictly, trying in order:

1. the declared charset, read as its common superset as browsers do (WHATWG Encoding): ISO-8859-1
   as Windows-1252, GB2312 and GBK as GB18030; then the declared charset itself;
2. UTF-8 (what undeclared or mislabelled mail mostly is; 8-bit bytes that are not UTF-8 rarely
   pass as UTF-8);
3. Windows-1252, only when no usable charset is declared (none, US-ASCII, or one Python does not
   know): the legacy encoding of undeclared Western mail.

Text none of these decode (a declared GB2312 body that is neither GB18030 nor UTF-8, undeclared
bytes Windows-1252 leaves undefined) is reported, not stored with replacement characters.
Header lines holding raw 8-bit bytes (``Subject: caf\\xe9``, no RFC 2047 encoding) are decoded
as UTF-8, else Windows-1252, by ``POLICY``; ``undecodable_headers`` names those neither reads.

Defects. The email package notes what it had to guess in ``defects``; ``lost_content`` picks the
ones meaning part of the message is missing (a multipart without its end boundary, base64 cut
mid-way): what a truncated mbox gives.
"""

from __future__ import annotations

import codecs
from email import errors
from email.message import Message
from email.policy import EmailPolicy
from typing import Any

SUPERSETS = {"iso8859-1": "cp1252", "gb2312": "gb18030", "gbk": "gb18030"}
"""Declared charset (codec name) -> the superset mail labelled with it is really written in."""
LOST_CONTENT: dict[type[errors.MessageDefect], str] = {
    errors.StartBoundaryNotFoundDefect: "a multipart part has no start boundary",
    errors.CloseBoundaryNotFoundDefect: "a multipart part has no end boundary",
    errors.InvalidBase64LengthDefect: "base64 content is cut mid-way",
    errors.InvalidBase64PaddingDefect: "base64 content is cut mid-way",
}
"""Defects that mean some of the message is missing (not the harmless ones old mailers cause),
each with what it means for people."""
LEGACY = "cp1252"
STORED_HEADERS = frozenset({"subject", "from", "to", "cc"})
"""Headers whose text an episode keeps (lower case)."""


def _codec(charset: str | None) -> str | None:
    """Return the codec name of ``charset``, or None when undeclared or unknown to Python."""
    if not charset:
        return None
    try:
        return codecs.lookup(charset).name
    except LookupError:
        return None


def decode_text(data: bytes, charset: str | None) -> str | None:
    """Return ``data`` decoded by the first of the candidates above that reads it whole, else None."""
    declared = _codec(charset)
    candidates = []
    if declared is not None and declared != "ascii":
        candidates += [SUPERSETS.get(declared, declared), declared]
    candidates.append("utf-8")
    if declared is None or declared == "ascii":
        candidates.append(LEGACY)
    for codec in dict.fromkeys(candidates):
        try:
            return data.decode(codec)
        except UnicodeDecodeError:
            continue
    return None


def _has_raw_bytes(value: str) -> bool:
    """Return whether ``value`` holds bytes the parser kept as surrogate escapes (raw 8-bit)."""
    return any("\udc80" <= char <= "\udcff" for char in value)


class _Lenient8BitPolicy(EmailPolicy):
    """``policy.default``, but header lines with raw 8-bit bytes are read as UTF-8, else Windows-1252."""

    def header_fetch_parse(self, name: str, value: str) -> Any:
        """Return the header object, its raw 8-bit bytes decoded first (else U+FFFD would replace them)."""
        if isinstance(value, str) and _has_raw_bytes(value):
            raw = value.encode("ascii", "surrogateescape")
            value = decode_text(raw, None) or value
        return super().header_fetch_parse(name, value)


POLICY = _Lenient8BitPolicy()
"""The policy mail is parsed with: ``email.policy.default`` plus 8-bit header decoding."""


def undecodable_headers(message: Message, names: frozenset[str] = STORED_HEADERS) -> list[str]:
    """Return the names of ``names`` header lines whose raw 8-bit bytes neither UTF-8 nor
    Windows-1252 reads (other headers, such as ``Received``, are not stored: junk there is harmless)."""
    return [
        name
        for name, value in message.raw_items()
        if name.lower() in names
        and isinstance(value, str)
        and _has_raw_bytes(value)
        and decode_text(value.encode("ascii", "surrogateescape"), None) is None
    ]


def lost_content(message: Message) -> list[str]:
    """Return what is missing from ``message`` (its parts included), one phrase per kind of defect.

    Every leaf part's payload is decoded first: base64 defects are only noted on decoding.
    """
    found: list[str] = []
    for part in message.walk():
        if not part.is_multipart():
            part.get_payload(decode=True)
        found += [LOST_CONTENT[type(d)] for d in part.defects if type(d) in LOST_CONTENT]
    return list(dict.fromkeys(found))
