"""The integrations under examples/ run as their README says, against a real Engram, with no network.

- examples/mcp_client.py (the official MCP SDK) over stdio and over streamable HTTP;
- examples/langgraph_agent/agent.py (LangGraph + langchain-mcp-adapters) in its own environment
  (``make examples-env``), with its scripted chat model: the graph routes memory questions to
  search_episodes, answers with the citations memory returned, says when memory does not know,
  and writes new facts back with create_episode;
- examples/clients/*.json are valid configuration that starts a working server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from engram.config import Settings
from engram.memory import Memory
from mcp_clients import ENGRAM, engram_serve

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
AGENT_PYTHON = EXAMPLES / ".venv" / "bin" / "python"

pytestmark = pytest.mark.slow


def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run ``command`` from the repository root; fail with its output unless it succeeds."""
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done


def stored(data_dir: Path) -> Memory:
    """Open the store an example wrote (BM25 only, as the example's server ran)."""
    return Memory.open(settings=Settings(data_dir=data_dir, embedder="none"))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Yield the base URL and data directory of an ``engram serve`` subprocess."""
    root = tmp_path_factory.mktemp("examples-served")
    with engram_serve(root / "data", root / "serve.log") as base:
        yield base, root / "data"


# -- the plain MCP client --------------------------------------------------------------------------


def check_client_output(output: str, data_dir: Path | None) -> None:
    *lines, last = output.strip().splitlines()
    ids = json.loads(last)
    text = "\n".join(lines)
    assert f"[source: {ids['cited']}]" in text and ids["cited"] == ids["stored"][0], (
        "the budget note is cited"
    )
    assert f"engram://groups/example-team/episodes/{ids['cited']}" in text and "我住在杭州" in text
    assert "李强 LIVES_IN 杭州" in text and "Not found" in text and "field: id" in text
    assert "Answer the question from Engram's memory only" in text
    if data_dir is not None:
        with stored(data_dir) as memory:
            assert memory.get_episode(ids["cited"], "example-team").content == "我住在杭州，预算是五十万。"


def test_mcp_client_example_over_stdio(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    done = run(
        [
            sys.executable,
            "examples/mcp_client.py",
            "--data-dir",
            str(data_dir),
            "--engram-command",
            ENGRAM,
            "--json",
        ]
    )
    check_client_output(done.stdout, data_dir)


def test_mcp_client_example_over_http(served: tuple[str, Path]) -> None:
    base, _ = served
    url = f"{base}/mcp"
    done = run([sys.executable, "examples/mcp_client.py", "--url", url, "--header", "X-Example: 1", "--json"])
    check_client_output(done.stdout, None)


# -- the LangGraph agent ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def agent_env() -> Path:
    """Create the agent's environment with ``make examples-env`` (once; make skips it when current)."""
    run(["make", "--no-print-directory", "examples-env", f"PYTHON={sys.executable}"])
    assert AGENT_PYTHON.exists()
    return AGENT_PYTHON


def test_langgraph_agent_remembers_cites_and_writes_back(agent_env: Path, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    command = [str(agent_env), "examples/langgraph_agent/agent.py", "--data-dir", str(data_dir)]
    done = run(
        [*command, "--engram-command", ENGRAM, "--json"], env={**os.environ, "ENGRAM_EMBEDDER": "none"}
    )
    transcript = json.loads(done.stdout.strip().splitlines()[-1])
    told, where, colour, job, where_work = transcript

    assert told["route"] == "chat" and told["stored"], "a statement is written back as an episode"
    assert where["route"] == "memory" and where["stored"] is None, "a question is not stored as a fact"
    assert "Hangzhou" in where["answer"] and f"[source: {told['stored']}]" in where["answer"]
    assert colour["route"] == "memory" and "does not know" in colour["answer"]
    assert "Initech" in where_work["answer"] and f"[source: {job['stored']}]" in where_work["answer"]

    with stored(data_dir) as memory:
        episode = memory.get_episode(told["stored"], "demo-user")
        assert episode.content == "I live in Hangzhou and my budget is 500000." and episode.actor is not None
        facts = memory.search_facts({"subject": "Dana", "group_id": "demo-user", "limit": 10}).results
        written = {(hit.fact.predicate, hit.object_name or hit.fact.value) for hit in facts}
        assert written == {("LIVES_IN", "Hangzhou"), ("BUDGET", 500000), ("WORKS_AT", "Initech")}
        assert all(hit.citations for hit in facts)


def test_langgraph_agent_over_http_with_headers(agent_env: Path, served: tuple[str, Path]) -> None:
    base, _ = served
    command = [str(agent_env), "examples/langgraph_agent/agent.py", "--url", f"{base}/mcp"]
    say = ["--say", "I live in Lisbon.", "--say", "Where do I live?"]
    done = run([*command, "--header", "X-Example: agent", *say, "--json"])
    told, asked = json.loads(done.stdout.strip().splitlines()[-1])
    assert "Lisbon" in asked["answer"] and f"[source: {told['stored']}]" in asked["answer"]


# -- client configuration snippets -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["claude_desktop.json", "cursor.json", "claude_code.mcp.json"])
def test_client_configuration_starts_a_working_server(name: str, tmp_path: Path) -> None:
    servers = json.loads((EXAMPLES / "clients" / name).read_text())["mcpServers"]
    http = json.dumps(servers["engram-http"])
    assert "http://127.0.0.1:8765/mcp" in http and "Authorization: Bearer <" in http.replace('": "', ": ")
    stdio = servers["engram"]
    assert stdio["command"] == "engram" and stdio["args"] == ["mcp"]
    env = {**os.environ, **stdio["env"], "ENGRAM_DATA_DIR": str(tmp_path / "data")}
    params = StdioServerParameters(command=ENGRAM, args=stdio["args"], env=env)

    async def scenario() -> None:
        async with Client(stdio_client(params)) as client:
            assert len((await client.list_tools()).tools) == 16

    anyio.run(scenario)
    assert (tmp_path / "data").is_dir(), "the server used ENGRAM_DATA_DIR"
