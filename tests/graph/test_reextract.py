"""A failing LLM extractor keeps the episode, marks it, and `engram reextract` retries it."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_failed_extraction_is_kept_marked_and_retried(tmp_path: Path) -> None:
    with serve_fake_openai(free_port()) as fake:
        env = {
            "ENGRAM_EXTRACTOR": "llm",
            "ENGRAM_LLM_BASE_URL": fake.base_url,
            "ENGRAM_LLM_MODEL": "fake-chat",
            "ENGRAM_LLM_MAX_RETRIES": "0",
            "ENGRAM_EMBEDDER": "none",
        }
        settings = Settings(
            data_dir=tmp_path,
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
        result = CliRunner().invoke(app, ["reextract", "--data-dir", str(tmp_path)], env=env)
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
        import apsw

        details = [
            json.loads(str(row[0]))
            for row in apsw.Connection(str(tmp_path / "engram.db")).execute(
                "SELECT details FROM operations WHERE kind = 'reextract'"
            )
        ]
        assert details[0]["tokens"] == {created.episode.id: {"prompt_tokens": 100, "completion_tokens": 20}}
