"""A plain Python client of Engram's MCP server, with the official MCP SDK (``mcp``).

It starts ``engram mcp`` (stdio) on a data directory, or connects to ``--url``
(``engram serve`` … ``/mcp``, with ``--header "Authorization: Bearer <key>"`` once API keys are
configured), then does what an agent does: store episodes with the facts it extracted, search
them, open a citation as a resource, read the facts about a person, and fetch the prompt that
teaches answering from memory.

Run (from the repository root): ``make example-client``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

GROUP = "example-team"
LI = {"type": "user", "id": "u_7", "name": "李强"}
NOTES = [
    {
        "content": "我住在杭州，预算是五十万。",
        "actor": LI,
        "entities": [{"name": "李强", "type": "person"}, {"name": "杭州", "type": "place"}],
        "facts": [
            {"subject": "李强", "predicate": "LIVES_IN", "object": "杭州", "fact": "李强住在杭州"},
            {"subject": "李强", "predicate": "BUDGET", "value": 500000, "fact": "李强的预算是五十万"},
        ],
    },
    {"content": "Caroline moved the shipping date of order 4471 to Friday.", "intent": "confirm_date"},
]


def text(result: Any) -> str:
    """Return the text part of a tool result; raise with it when the tool refused."""
    words = "\n".join(block.text for block in result.content if block.type == "text")
    if result.is_error:
        raise RuntimeError(words)
    return words


async def demo(client: Client, out: list[str]) -> dict[str, Any]:
    """Use the memory as an agent would; append what it prints to ``out``; return the ids seen."""
    stored = []
    for note in NOTES:
        result = await client.call_tool("create_episode", {**note, "group_id": GROUP})
        out.append(text(result))
        stored.append(result.structured_content["episode"]["id"])

    hits = await client.call_tool("search_episodes", {"query": "李强的预算", "group_id": GROUP})
    out.append(text(hits))
    citation = hits.structured_content["results"][0]["citation"]  # "[source: ep_…]"
    cited = re.fullmatch(r"\[source: (.+)\]", citation).group(1)

    opened = await client.read_resource(f"engram://groups/{GROUP}/episodes/{cited}")
    out.append(f"resource {opened.contents[0].uri}:\n{opened.contents[0].text}")

    facts = await client.call_tool("search_facts", {"subject": "李强", "group_id": GROUP})
    out.append(text(facts))

    refused = await client.call_tool("get_episode", {"id": "ep_missing", "group_id": GROUP})
    out.append(f"an error reads: {refused.content[0].text}")

    prompt = await client.get_prompt(
        "answer_from_memory", {"question": "Where does 李强 live?", "group_id": GROUP}
    )
    out.append(prompt.messages[0].content.text)
    return {"stored": stored, "cited": cited}


async def run(args: argparse.Namespace) -> tuple[list[str], dict[str, Any]]:
    """Connect over stdio or HTTP and run the demo."""
    out: list[str] = []
    if args.url:
        headers = {k.strip(): v.strip() for k, v in (h.split(":", 1) for h in args.header)}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            Client(streamable_http_client(args.url, http_client=http)) as client,
        ):
            return out, await demo(client, out)
    # the server inherits this environment (ENGRAM_* settings)
    params = StdioServerParameters(
        command=args.engram_command, args=["mcp", "--data-dir", args.data_dir], env=dict(os.environ)
    )
    async with Client(stdio_client(params)) as client:
        return out, await demo(client, out)


def main() -> None:
    """Parse the arguments, run the demo and print what the memory answered."""
    parser = argparse.ArgumentParser(description="Use Engram's MCP server from Python.")
    parser.add_argument("--data-dir", help="Engram data directory (default: a new temporary one)")
    default_engram = str(Path(sys.executable).with_name("engram"))
    parser.add_argument("--engram-command", default=shutil.which("engram") or default_engram)
    parser.add_argument("--url", help="an Engram MCP endpoint, e.g. http://127.0.0.1:8765/mcp")
    parser.add_argument("--header", action="append", default=[], help='e.g. "Authorization: Bearer <key>"')
    parser.add_argument("--json", action="store_true", help="print the ids as JSON after the text")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        args.data_dir = args.data_dir or scratch
        out, ids = asyncio.run(run(args))
    print("\n\n".join(out))
    if args.json:
        print(json.dumps(ids))


if __name__ == "__main__":
    main()
