"""Read email as episodes: an mbox file, ``.eml`` files (one file or a folder) or a Maildir folder.

Parsed by the standard library (``mailbox``, ``email`` with ``policy.default``, which decodes
RFC 2047 words, RFC 2231 file names and every charset Python knows, GB2312 and GB18030 included);
text whose charset is missing or wrong is decoded by ``engram.portable.mail_decoding`` (declared
charset, UTF-8, Windows-1252), never with replacement characters. One episode per message:

- ``id`` ``email:<sha256 of the Message-ID, 32 hex>`` (of the raw message when it has none), so
  importing again deduplicates; ``source`` "email", ``source_type`` "email";
- ``timestamp`` the ``Date`` header, in UTC; ``actor`` the sender ``{type: "person", id: address
  (lower case), name}``;
- ``content`` the text/plain part (else the HTML part as text) without quoted replies and
  signature (``engram.nlp.replies``); a message with nothing left keeps its whole text;
- ``metadata``: ``subject``, ``message_id``, ``thread_id`` (the thread's first Message-ID: the
  first of ``References``, else ``In-Reply-To``, else its own, so Engram's thread context joins the
  replies), ``in_reply_to``, ``from``, ``to``, ``cc``, ``attachments`` (``filename``,
  ``content_type``, ``size``), ``reference_id`` (what other episodes cite it as) and ``file``;
- ``references``: the parent message (``email-<In-Reply-To>``), each attachment
  (``doc-<name>[-v<version>]``) and each document the text cites (《…》, file names, links to
  files, "see attached …"), as named by ``engram.nlp.reference_ids``.

A message that cannot be read is a Problem naming the file, its position and its Message-ID, and
is not imported; the others are. Unreadable: no or bad ``Date``, no sender, a text part or a
stored header (Subject, From, To, Cc) no charset decodes, or content missing (a multipart
without its end boundary, base64 cut mid-way: the last message of a truncated mbox). An
incomplete message is skipped rather than stored in part: its id comes from its Message-ID, so
the part stored would make importing the whole message later (the mbox copied again in full) a
Conflict instead of the message.
"""

from __future__ import annotations

import email
import hashlib
import mailbox
from collections.abc import Iterator
from datetime import UTC
from email.message import EmailMessage, Message
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup

from engram.errors import InvalidInput
from engram.models.episodes import EpisodeIn
from engram.nlp.reference_ids import cited_documents, email_id, reference_names, unique
from engram.nlp.replies import strip_reply
from engram.portable.base import ImportSource, Parsed, Problem, Record
from engram.portable.mail_decoding import POLICY, decode_text, lost_content, undecodable_headers

SOURCE = "email"


def _parse_bytes(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=POLICY)
    assert isinstance(message, EmailMessage)  # an EmailPolicy always builds EmailMessage
    return message


def read_email(path: Path) -> ImportSource:
    """Open ``path``: a Maildir (folder with ``cur``/``new``), a folder of ``.eml`` files, an ``.eml``
    file, or else an mbox file. The total is counted up front.

    Raises InvalidInput (field ``PATH``) for a file that is not an mbox (it must begin with a
    ``From `` line) rather than read it as no message at all.
    """
    if path.is_dir() and (path / "cur").is_dir() and (path / "new").is_dir():
        box = mailbox.Maildir(path, factory=None, create=False)
        keys = sorted(box.keys())  # unique names start with the delivery time
        return ImportSource(_maildir_records(box, keys, path), total=len(keys))
    if path.is_dir():
        files = sorted(p for p in path.rglob("*.eml") if p.is_file())
        return ImportSource(_eml_records(files, path), total=len(files))
    if path.suffix.lower() == ".eml":
        return read_eml(path)
    _check_mbox(path)
    mbox = mailbox.mbox(path, factory=None, create=False)
    try:
        total = len(mbox)
    finally:
        mbox.close()
    return ImportSource(_mbox_records(path), total=total)


def read_eml(path: Path) -> ImportSource:
    """Open ``path`` as mail: a folder (Maildir or ``.eml`` files) as ``read_email`` does, a file as one
    message whatever its name."""
    if path.is_dir():
        return read_email(path)
    return ImportSource(_eml_records([path], path.parent), total=1)


def _check_mbox(path: Path) -> None:
    """Raise InvalidInput unless ``path`` is empty or begins (after blank lines) with a ``From `` line."""
    with path.open("rb") as handle:
        head = handle.read(4096).lstrip(b"\r\n")
    if head and not head.startswith(b"From "):
        try:
            begins = repr(head.split(b"\n", 1)[0][:60].decode("utf-8"))
        except UnicodeDecodeError:
            begins = "bytes that are not UTF-8 text"
        raise InvalidInput(
            f"{path}: not an mbox file: an mbox begins with a 'From ' line, this one with {begins}",
            field="PATH",
        )


def _mbox_records(path: Path) -> Iterator[Parsed]:
    box = mailbox.mbox(path, factory=None, create=False)  # read without locking: we never write it
    try:
        for position, key in enumerate(box.iterkeys(), start=1):
            raw = box.get_bytes(key)
            yield message_record(_parse_bytes(raw), f"{path.name} message {position}", path.name)
    finally:
        box.close()


def _maildir_records(box: mailbox.Maildir, keys: list[str], root: Path) -> Iterator[Parsed]:
    for key in keys:
        entry = box.get_message(key)  # a MaildirMessage: where it lies and its flags (S = seen)
        name = f"{root.name}/{entry.get_subdir()}/{key}"
        parsed = message_record(_parse_bytes(box.get_bytes(key)), name, name)
        if isinstance(parsed, Record):
            parsed.episode.metadata["seen"] = "S" in entry.get_flags()
        yield parsed


def _eml_records(files: list[Path], root: Path) -> Iterator[Parsed]:
    for file in files:
        name = file.relative_to(root).as_posix()
        yield message_record(_parse_bytes(file.read_bytes()), name, name)


def message_record(message: EmailMessage | Message, where: str, file: str) -> Parsed:
    """Return the Record of one parsed message, or the Problem that keeps it out (``where`` names it)."""
    assert isinstance(message, EmailMessage)
    message_id = str(message.get("Message-ID") or "").strip()
    label = f"{where} {message_id}" if message_id else where
    if not message.keys():
        return Problem(label, "not an email message: it has no header lines", "headers")
    try:
        date = message["Date"]
        moment = getattr(date, "datetime", None) if date is not None else None
    except (TypeError, ValueError) as exc:
        return Problem(label, f"unreadable Date header: {exc}", "Date")
    if moment is None:
        return Problem(label, "no Date header (or one that is not a date)", "Date")
    senders = getaddresses([str(message.get("From") or "")])
    address = senders[0][1] if senders else ""
    if not address or "@" not in address:
        return Problem(label, "no sender address in From", "From")
    unreadable = undecodable_headers(message)
    if unreadable:
        return Problem(label, f"the {unreadable[0]} header is not UTF-8 or Windows-1252 text", unreadable[0])
    missing = lost_content(message)
    if missing:
        return Problem(label, f"incomplete message ({'; '.join(missing)}): is the file cut short?", "body")
    try:
        episode = message_episode(message, file=file, message_id=message_id, sender=senders[0])
    except UnreadableText as exc:
        return Problem(label, str(exc), "body")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    episode.timestamp = moment.astimezone(UTC)
    return Record(label, episode)


def _addresses(message: EmailMessage, header: str) -> list[str]:
    return [address.lower() for _, address in getaddresses([str(v) for v in message.get_all(header, [])])]


def _ids(value: object) -> list[str]:
    return [part.strip() for part in str(value or "").replace(">", "> ").split() if part.strip()]


class UnreadableText(ValueError):
    """A text part that no candidate charset decodes (``engram.portable.mail_decoding``)."""


def message_text(message: EmailMessage) -> str:
    """Return the message's text: the text/plain body, else the HTML body as text, else ''.

    Raises UnreadableText when the body's bytes are text in no charset tried.
    """
    body = message.get_body(preferencelist=("plain", "html"))
    if body is None:
        return ""
    assert isinstance(body, EmailMessage)
    payload = body.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    charset = body.get_content_charset()
    content = decode_text(data, charset)
    if content is None:
        tried = f"{charset}, UTF-8" if charset else "UTF-8 or Windows-1252"
        raise UnreadableText(f"the {body.get_content_type()} body is not {tried} text")
    if body.get_content_subtype() == "html":
        content = BeautifulSoup(content, "html.parser").get_text("\n")
    return str(content)


def message_episode(
    message: EmailMessage, *, file: str, message_id: str, sender: tuple[str, str]
) -> EpisodeIn:
    """Return the episode of ``message`` (timestamp left unset: the caller reads the Date).

    ``message_id`` and ``sender`` (name, address) are the headers the caller already read:
    reading a header through ``policy.default`` parses it each time.
    """
    raw_id = message_id
    key = raw_id or hashlib.sha256(message.as_bytes()).hexdigest()
    parents = _ids(message.get("References"))
    in_reply_to = _ids(message.get("In-Reply-To"))
    thread = (parents or in_reply_to or [raw_id or key])[0]
    name, address = sender
    attachments = [
        {
            "filename": part.get_filename() or "",
            "content_type": part.get_content_type(),
            "size": len(part.get_payload(decode=True) or b""),
        }
        for part in message.iter_attachments()
        if part.get_filename()
    ]
    subject = str(message.get("Subject") or "")
    full = message_text(message).strip()
    content = strip_reply(full) or full or subject or "(no text)"
    names = [str(a["filename"]) for a in attachments]
    references = [email_id(in_reply_to[-1])] if in_reply_to else []
    documents, named = cited_documents(content, names)
    references += documents
    if raw_id and subject:
        named.append((subject, email_id(raw_id)))
    metadata: dict[str, Any] = {
        "subject": subject,
        "message_id": raw_id.strip("<>") or None,
        "thread_id": thread.strip("<>"),
        "in_reply_to": in_reply_to[-1].strip("<>") if in_reply_to else None,
        "from": address.lower(),
        "to": _addresses(message, "To"),
        "cc": _addresses(message, "Cc"),
        "attachments": attachments,
        "reference_id": email_id(raw_id) if raw_id else None,
        "reference_names": reference_names(named),
        "file": file,
    }
    return EpisodeIn(
        id="email:" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:32],
        source=SOURCE,
        source_type="email",
        actor={"type": "person", "id": address.lower(), "name": str(name) or None},
        content=content,
        metadata={k: v for k, v in metadata.items() if v not in (None, [], "", {})},
        references=unique(references),
    )
