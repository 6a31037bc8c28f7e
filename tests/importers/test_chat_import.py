"""Chat importers on the sample exports: Slack workspace, ChatGPT and Claude conversations."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from engram.memory import Memory

DATA = Path(__file__).resolve().parents[1] / "data" / "importers" / "chat"


def test_slack_export(memory: Memory) -> None:
    stats = memory.import_file(DATA / "slack")
    assert (stats.created, stats.problems) == (13, [])
    items = memory.list_episodes(limit=100).items
    assert Counter(e.metadata["channel"] for e in items) == {"deals-fabrikam": 7, "support-cn": 6}
    assert not any("has joined the channel" in e.content for e in items)
    threads = Counter(e.metadata.get("thread_id") for e in items if "thread_id" in e.metadata)
    assert threads == {"C05K2D8FBQX:1718010131.000729": 4, "C05M8S3CNW1:1718155812.000200": 3}
    replies = [ref for e in items for ref in e.references if ref.startswith("slack-")]
    assert len(replies) == 5
    parent = memory.get_episode("slack:C05K2D8FBQX:1718010131.000729")
    assert parent.timestamp == datetime(2024, 6, 10, 9, 2, 11, 729, tzinfo=UTC)
    assert parent.actor and parent.actor.name == "Jonas Schulz"
    assert "@Maria Lopez" in parent.content  # <@U…> rendered
    shares = [e for e in items if "files" in e.metadata]
    assert len(shares) == 2
    assert {ref for e in shares for ref in e.references} == {
        "doc-security-review-options",
        "doc-索赔单-wl-240610-07",
    }
    bot = next(e for e in items if e.actor and e.actor.type == "bot")
    assert bot.actor and bot.actor.name == "CRM Sync"
    assert "open in Salesforce (https://" in bot.content
    assert any("#support-cn" in e.content for e in items)
    assert any("🙏" in e.content for e in items)
    deleted = [e for e in items if e.actor and e.actor.name == "Priya Nair"]
    assert deleted  # a deleted user is still named


def test_chatgpt_export(memory: Memory) -> None:
    stats = memory.import_file(DATA / "chatgpt" / "conversations.json")
    assert stats.created == 8
    items = sorted(memory.list_episodes(limit=100).items, key=lambda e: e.timestamp)
    per = Counter(e.metadata["thread_id"] for e in items)
    assert per == {"42522ce5-86e7-51ee-b44e-1ee122a4f788": 4, "32d6bc18-a036-5a85-a8f1-ba8137345799": 4}
    for thread in per:
        roles = [e.actor.id for e in items if e.metadata["thread_id"] == thread and e.actor]
        assert roles == ["user", "assistant", "user", "assistant"]
    assert not any("Make it more formal" in e.content for e in items)  # the abandoned branch
    first_zh = next(e for e in items if e.metadata["thread_id"].startswith("42522ce5"))
    assert first_zh.content.startswith("这是今天项目周会白板的照片")  # the text part of multimodal_text
    assert sum(1 for e in items if e.references) == 6  # each message cites the one before


def test_claude_export(memory: Memory) -> None:
    stats = memory.import_file(DATA / "claude")
    assert (stats.created, stats.problems) == (6, [])
    items = memory.list_episodes(limit=100).items
    assert Counter(e.metadata["thread_id"] for e in items) == {
        "e6cc07d7-5e75-5843-8b26-fd7ab2548a2b": 4,
        "1bd1e788-3993-58bf-ada8-fa8ffa8982e8": 2,
    }
    first = min(items, key=lambda e: e.timestamp)
    assert first.metadata["attachments"] == ["notes-security-review.txt"]
    assert "doc-notes-security-review" in first.references
    assert {e.actor.id for e in items if e.actor} == {"human", "assistant"}
