"""A failing LLM extractor keeps the episode, marks it, and `engram reextract` retries it (both backends)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import apsw
import psycopg
from typer.testing import CliRunner

from conftest import free_port
from engram import Memory, Settings
from engram.cli import app
from fakes.openai_server import ChatReply, serve_fake_openai

REPLY = {
    "entities": [{"name": "Li Qiang", "type": "person"}, {"name": "Hangzhou", "type": "place"}],
    "facts": [
        {"subject": "Li Qiang", "predicate": "LIVES_IN", "object": "Hangzhou", "fact": "I live in Hangzhou"}
    ],
}


def operation_details(settings: Settings, kind: str) -> list[dict[str, Any]]:
    """Return the details of the stored operations of one kind, read from the database itself."""
    sql = "SELECT details FROM operations WHERE kind = ?"
    if settings.database_url is None:
        rows = apsw.Connection(str(settings.database_path)).execute(sql, (kind,)).fetchall()
        return [json.loads(str(row[0])) for row in rows]
    with psycopg.connect(settings.database_url.get_secret_value()) as conn:
        return [row[0] for row in conn.execute(sql.replace("?", "%s"), (kind,)).fetchall()]


def test_failed_extraction_is_kept_marked_and_retried(backend: dict[str, Any], tmp_path: Path) -> None:
    with serve_fake_openai(free_port()) as fake:
        url = backend.get("database_url")
        env = {
            "ENGRAM_EXTRACTOR": "llm",
            "ENGRAM_LLM_BASE_URL": fake.base_url,
            "ENGRAM_LLM_MODEL": "fake-chat",
            "ENGRAM_LLM_MAX_RETRIES": "0",
            "ENGRAM_EMBEDDER": "none",
            "ENGRAM_DATABASE_URL": None if url is None else url.get_secret_value(),
        }
        settings = Settings(
            **backend,
            extractor="llm",
            llm_base_url=fake.base_url,
            llm_model="fake-chat",
            llm_max_retries=0,
            embedder="none",
        )
        with Memory.open(settings=settings) as memory:
            fake.script(ChatReply(status=503))
            created = memory.create_episode(
                {"content": "I live in Hangzhou", "actor": {"id": "li", "name": "Li Qiang"}}
            )
            stored = memory.get_episode(created.episode.id)
            assert stored.metadata["extraction_status"] == "failed" and stored.version == 2
            assert "503" in stored.metadata["extraction_error"]
            assert memory.search_facts({}).results == []
        fake.script(ChatReply(content=json.dumps(REPLY)))
        result = CliRunner().invoke(app, ["reextract", "--data-dir", str(settings.data_dir)], env=env)
        assert result.exit_code == 0, result.output
        assert "re-extracted 1 episodes; 0 still failing" in result.stdout
        with Memory.open(settings=settings) as memory:
            [hit] = memory.search_facts({"query": "Hangzhou"}).results
            assert (hit.subject_name, hit.fact.predicate, hit.object_name) == (
                "Li Qiang",
                "LIVES_IN",
                "Hangzhou",
            )
            episode = memory.get_episode(created.episode.id)
            assert (
                episode.metadata["extraction_status"] == "done" and "extraction_error" not in episode.metadata
            )
            assert hit.citations == [f"[source: {episode.id}]"]
        assert fake.chat_requests[-1]["model"] == "fake-chat"
        details = operation_details(settings, "reextract")
        assert details[0]["tokens"] == {created.episode.id: {"prompt_tokens": 100, "completion_tokens": 20}}
