"""Read chat exports as episodes, one per message, threads kept: Slack, ChatGPT and Claude.

- **Slack** workspace export (``slack``, a folder): ``users.json``, ``channels.json`` and a folder
  per channel of daily ``YYYY-MM-DD.json`` files. Join, leave, topic, purpose, rename and archive
  notices are skipped; bot messages are kept (actor: the bot). ``id`` ``slack:<channel id>:<ts>``;
  ``content`` with ``<@U…>`` as ``@Name``, ``<#C…|name>`` as ``#name``, ``<url|label>`` as
  ``label (url)`` and ``:emoji:`` shortcodes as emoji (the ``emoji`` package); ``metadata``
  ``channel``, ``channel_id``, ``ts``, ``thread_id`` (``<channel id>:<thread_ts>`` for thread
  messages), ``files`` (name, title, permalink), ``edited``, ``reactions``, ``reference_id``;
  ``references``: a reply's thread parent (``slack-<channel id>-<thread_ts>``) and shared files.
- **ChatGPT** export (``chatgpt``, ``conversations.json``): each conversation's ``mapping`` tree is
  walked from ``current_node`` up to the root, so abandoned edit branches are left out; hidden
  (system) messages and empty ones are skipped; text parts are kept, image parts dropped.
- **Claude** export (``claude``, ``conversations.json``): ``chat_messages`` in order;
  ``sender`` human or assistant; attachments' names in metadata and as document references.

For both assistants: one conversation is one thread (``metadata.thread_id`` the conversation
id, ``title``), and each message references the message before it. A message that cannot be
read is a Problem naming the file and message; the others are imported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import emoji

from engram.errors import InvalidInput
from engram.models.episodes import EpisodeIn
from engram.nlp.reference_ids import cited_documents, message_id, reference_names, unique
from engram.portable.base import ImportSource, Parsed, Problem, Record

SKIPPED_SUBTYPES = frozenset(
    {
        "channel_join",
        "channel_leave",
        "channel_topic",
        "channel_purpose",
        "channel_name",
        "channel_archive",
        "channel_unarchive",
        "group_join",
        "group_leave",
    }
)
_USER = re.compile(r"<@([UW][A-Z0-9]+)(?:\|([^>]+))?>")
_CHANNEL = re.compile(r"<#(C[A-Z0-9]+)(?:\|([^>]*))?>")
_LINK = re.compile(r"<((?:https?|mailto):[^|>]+)(?:\|([^>]+))?>")


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"{path.name}: not readable JSON: {exc}", field="file") from exc


def _from_epoch(value: Any) -> datetime:
    return datetime.fromtimestamp(float(value), UTC)


def _problem(where: str, exc: Exception) -> Problem:
    return Problem(where, f"{type(exc).__name__}: {exc}", "message")


# -- Slack ------------------------------------------------------------------------------------------


def read_slack(path: Path) -> ImportSource:
    """Open a Slack workspace export folder (``users.json`` beside one folder per channel)."""
    users = _load_json(path / "users.json") if (path / "users.json").is_file() else []
    channels = _load_json(path / "channels.json") if (path / "channels.json").is_file() else []
    people = {u["id"]: u for u in users if isinstance(u, dict) and "id" in u}
    bots = {
        u.get("profile", {}).get("bot_id"): u for u in people.values() if u.get("profile", {}).get("bot_id")
    }
    by_name = {c["name"]: c for c in channels if isinstance(c, dict) and "name" in c}
    days = sorted(p for p in path.glob("*/*.json") if p.parent.name in by_name or not by_name)
    messages: list[tuple[str, str, dict[str, Any]]] = []
    problems: list[Problem] = []
    for day in days:
        data = _load_json(day)
        if not isinstance(data, list):
            problems.append(
                Problem(f"{day.parent.name}/{day.name}", "expected a JSON array of messages", "file")
            )
            continue
        channel = by_name.get(day.parent.name, {"id": day.parent.name, "name": day.parent.name})
        for index, message in enumerate(data, start=1):
            where = f"{day.parent.name}/{day.name} message {index}"
            if isinstance(message, dict) and message.get("subtype") not in SKIPPED_SUBTYPES:
                messages.append((where, channel["id"], message))
    names = {c["id"]: c["name"] for c in by_name.values()}
    return ImportSource(
        _slack_records(messages, problems, people, bots, names), total=len(messages) + len(problems)
    )


def _slack_records(
    messages: list[tuple[str, str, dict[str, Any]]],
    problems: list[Problem],
    people: Mapping[str, Any],
    bots: Mapping[str, Any],
    channels: Mapping[str, str],
) -> Iterator[Parsed]:
    yield from problems
    for where, channel_id, message in messages:
        try:
            yield Record(
                f"{where} ts {message.get('ts')}", slack_episode(message, channel_id, people, bots, channels)
            )
        except (KeyError, TypeError, ValueError) as exc:
            yield _problem(where, exc)


def _display(user: Mapping[str, Any] | None, fallback: str) -> str:
    if not user:
        return fallback
    profile = user.get("profile", {})
    return str(user.get("real_name") or profile.get("real_name") or profile.get("display_name") or fallback)


def render_slack(text: str, people: Mapping[str, Any], channels: Mapping[str, str]) -> str:
    """Return Slack markup as plain text: mentions by name, channel names, links, emoji."""
    text = _USER.sub(lambda m: "@" + _display(people.get(m.group(1)), m.group(2) or m.group(1)), text)
    text = _CHANNEL.sub(lambda m: "#" + (m.group(2) or channels.get(m.group(1), m.group(1))), text)
    text = _LINK.sub(lambda m: f"{m.group(2)} ({m.group(1)})" if m.group(2) else m.group(1), text)
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return emoji.emojize(text, language="alias")


def slack_episode(
    message: Mapping[str, Any],
    channel_id: str,
    people: Mapping[str, Any],
    bots: Mapping[str, Any],
    channels: Mapping[str, str],
) -> EpisodeIn:
    """Return the episode of one Slack message. Raises KeyError (no ``ts``) or ValueError."""
    ts = str(message["ts"])
    files = [
        {k: f[k] for k in ("name", "title", "permalink") if f.get(k)}
        for f in message.get("files", [])
        if isinstance(f, dict)
    ]
    text = render_slack(str(message.get("text") or ""), people, channels).strip()
    if not text and files:
        text = "shared " + ", ".join(f.get("title") or f.get("name", "a file") for f in files)
    if message.get("bot_id") and not message.get("user"):
        bot = bots.get(message["bot_id"])
        actor = {
            "type": "bot",
            "id": bot["id"] if bot else message["bot_id"],
            "name": message.get("username") or _display(bot, message["bot_id"]),
        }
    else:
        user_id = str(message["user"])
        actor = {"type": "person", "id": user_id, "name": _display(people.get(user_id), user_id)}
    thread_ts = message.get("thread_ts")
    references = [message_id("slack", channel_id, str(thread_ts))] if thread_ts and thread_ts != ts else []
    documents, named = cited_documents(text, [str(f["name"]) for f in files if f.get("name")])
    references += documents
    metadata: dict[str, Any] = {
        "channel": channels.get(channel_id, channel_id),
        "channel_id": channel_id,
        "ts": ts,
        "reference_id": message_id("slack", channel_id, ts),
    }
    if named:
        metadata["reference_names"] = reference_names(named)
    if thread_ts:
        metadata["thread_id"] = f"{channel_id}:{thread_ts}"
    if files:
        metadata["files"] = files
    if message.get("edited"):
        metadata["edited"] = True
    if message.get("reactions"):
        metadata["reactions"] = [
            {"name": r.get("name"), "count": r.get("count")} for r in message["reactions"]
        ]
    return EpisodeIn(
        id=f"slack:{channel_id}:{ts}",
        timestamp=_from_epoch(ts),
        source="slack",
        source_type="message",
        actor=actor,
        content=text or "(empty message)",
        metadata=metadata,
        references=unique(references),
    )


# -- ChatGPT and Claude -----------------------------------------------------------------------------


def read_chatgpt(path: Path) -> ImportSource:
    """Open a ChatGPT export's ``conversations.json`` (or the folder holding it)."""
    file = path / "conversations.json" if path.is_dir() else path
    data = _load_json(file)
    if not isinstance(data, list):
        raise InvalidInput(f"{file.name}: expected a JSON array of conversations", field="file")
    return ImportSource(_chatgpt_records(data, file.name), total=None)


def _chatgpt_path(conversation: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Return the nodes from the root to ``current_node`` (the branch the user last saw)."""
    mapping = conversation["mapping"]
    node_id = conversation.get("current_node")
    path: list[dict[str, Any]] = []
    while node_id is not None and node_id in mapping and len(path) <= len(mapping):
        path.append(mapping[node_id])
        node_id = mapping[node_id].get("parent")
    return path[::-1]


def _chatgpt_text(message: Mapping[str, Any]) -> str:
    content = message.get("content") or {}
    parts = content.get("parts") or ([content["text"]] if isinstance(content.get("text"), str) else [])
    return "\n".join(p for p in parts if isinstance(p, str)).strip()


def _chatgpt_records(conversations: list[Any], file: str) -> Iterator[Parsed]:
    for number, conversation in enumerate(conversations, start=1):
        conversation_id = str(conversation.get("conversation_id") or conversation.get("id") or number)
        where = f"{file} conversation {number} ({conversation_id})"
        try:
            nodes = _chatgpt_path(conversation)
        except (KeyError, TypeError, AttributeError) as exc:
            yield _problem(where, exc)
            continue
        previous: str | None = None
        for node in nodes:
            message = node.get("message")
            if not message or (message.get("metadata") or {}).get("is_visually_hidden_from_conversation"):
                continue
            role = str((message.get("author") or {}).get("role") or "")
            text = _chatgpt_text(message)
            if role not in {"user", "assistant"} or not text:
                continue
            moment = message.get("create_time") or conversation.get("create_time")
            try:
                episode = EpisodeIn(
                    id=f"chatgpt:{node['id']}",
                    timestamp=_from_epoch(moment),
                    source="chatgpt",
                    source_type="message",
                    actor={"type": role, "id": role, "name": "ChatGPT" if role == "assistant" else None},
                    content=text,
                    metadata={
                        "thread_id": conversation_id,
                        "title": conversation.get("title") or "",
                        "model": (message.get("metadata") or {}).get("model_slug"),
                        "reference_id": message_id("chatgpt", str(node["id"])),
                    },
                    references=[previous] if previous else [],
                )
            except (KeyError, TypeError, ValueError) as exc:
                yield _problem(f"{where} message {node.get('id')}", exc)
                continue
            previous = message_id("chatgpt", str(node["id"]))
            episode.metadata = {k: v for k, v in episode.metadata.items() if v is not None}
            yield Record(f"{where} message {node['id']}", episode)


def read_claude(path: Path) -> ImportSource:
    """Open a Claude export's ``conversations.json`` (or the folder holding it)."""
    file = path / "conversations.json" if path.is_dir() else path
    data = _load_json(file)
    if not isinstance(data, list):
        raise InvalidInput(f"{file.name}: expected a JSON array of conversations", field="file")
    total = sum(len(c.get("chat_messages") or []) for c in data if isinstance(c, dict))
    return ImportSource(_claude_records(data, file.name), total=total)


def _claude_records(conversations: list[Any], file: str) -> Iterator[Parsed]:
    for number, conversation in enumerate(conversations, start=1):
        conversation_id = str(conversation.get("uuid") or number)
        previous: str | None = None
        for index, message in enumerate(conversation.get("chat_messages") or [], start=1):
            where = f"{file} conversation {number} ({conversation_id}) message {index}"
            try:
                text = (
                    str(message.get("text") or "").strip()
                    or "\n".join(
                        str(c.get("text")) for c in message.get("content") or [] if c.get("type") == "text"
                    ).strip()
                )
                names = [str(a["file_name"]) for a in message.get("attachments") or [] if a.get("file_name")]
                names += [str(f["file_name"]) for f in message.get("files") or [] if f.get("file_name")]
                if not text:
                    yield Problem(where, "no text", "text")
                    continue
                sender = str(message["sender"])
                documents, named = cited_documents(text, names)
                episode = EpisodeIn(
                    id=f"claude:{message['uuid']}",
                    timestamp=datetime.fromisoformat(str(message["created_at"]).replace("Z", "+00:00")),
                    source="claude",
                    source_type="message",
                    actor={
                        "type": "user" if sender == "human" else sender,
                        "id": sender,
                        "name": "Claude" if sender == "assistant" else None,
                    },
                    content=text,
                    metadata={
                        "thread_id": conversation_id,
                        "title": conversation.get("name") or "",
                        "reference_id": message_id("claude", str(message["uuid"])),
                        **({"attachments": names} if names else {}),
                        **({"reference_names": reference_names(named)} if named else {}),
                    },
                    references=unique(([previous] if previous else []) + documents),
                )
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                yield _problem(where, exc)
                continue
            previous = message_id("claude", str(message["uuid"]))
            yield Record(where, episode)
