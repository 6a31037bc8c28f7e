"""Measure what Engram's MCP server costs an agent's context: tools/list and typical tool results.

Sizes are bytes of JSON as the server sends them (``model_dump_json(by_alias=True,
exclude_none=True)`` of the SDK's result, UTF-8), through the official SDK's in-process client:

- ``tools/list``: in total, and split into descriptions, input schemas and output schemas;
  the largest tools.
- results on the first LoCoMo dev conversation (its turns as episodes in one group, the
  builtin extractor building the graph): ``list_episodes`` with ``limit=100``,
  ``search_episodes`` with ``limit=10`` (mean over the benchmark's queries), ``search_facts``
  with ``limit=10``; each split into the text part (what most agents read) and the structured
  part.

Only public tool calls are used, so the same script measures any commit: run it on an older
tree with ``PYTHONPATH=<that tree>/src``. The baseline is that run; bench/RESULTS.md keeps both.

Usage: .venv/bin/python bench/mcp_sizes.py [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp_types import CallToolResult, ListToolsResult

from engram.api.mcp.server import create_mcp_server
from engram.config import Settings
from engram.memory import Memory
from engram.portable.locomo import load_locomo, locomo_records

LOCOMO_DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo-dev.json"
QUERIES = ["Caroline LGBTQ support group", "Melanie painting", "adoption agencies", "camping with kids"]
QUERIES += ["transgender journey", "pottery class", "charity race", "what books does Melanie read"]
GROUP = "locomo"


def size(value: Any) -> int:
    """Return the UTF-8 size of a JSON value (or an SDK model as it goes on the wire)."""
    if hasattr(value, "model_dump_json"):
        return len(value.model_dump_json(by_alias=True, exclude_none=True).encode())
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def parts(result: CallToolResult) -> dict[str, int]:
    """Return the wire size of a tool result, its text part and its structured part."""
    text = sum(len(block.text.encode()) for block in result.content if block.type == "text")
    structured = size(result.structured_content) if result.structured_content is not None else 0
    return {"total": size(result), "text": text, "structured": structured}


async def measure(memory: Memory) -> dict[str, Any]:
    """Return the sizes of tools/list and of typical results served from ``memory``."""
    async with Client(create_mcp_server(memory)) as client:
        listed = await client.list_tools()
        tools = listed.tools
        per_tool = {
            tool.name: size(tool) for tool in sorted(tools, key=lambda tool: size(tool), reverse=True)
        }
        tools_list = {
            "total": size(ListToolsResult(tools=tools)),
            "descriptions": sum(len((tool.description or "").encode()) for tool in tools),
            "input_schemas": sum(size(tool.input_schema) for tool in tools),
            "output_schemas": sum(size(tool.output_schema) for tool in tools if tool.output_schema),
            "largest": dict(list(per_tool.items())[:3]),
        }
        listed_page = await client.call_tool("list_episodes", {"group_id": GROUP, "limit": 100})
        searches = [
            parts(await client.call_tool("search_episodes", {"query": q, "group_id": GROUP, "limit": 10}))
            for q in QUERIES
        ]
        facts = [
            parts(await client.call_tool("search_facts", {"query": q, "group_id": GROUP, "limit": 10}))
            for q in QUERIES
        ]
    assert not listed_page.is_error, listed_page.content
    structured = listed_page.structured_content or {}
    return {
        "tools": len(tools),
        "tools_list": tools_list,
        "list_episodes_100": {**parts(listed_page), "items": len(structured.get("items", []))},
        "search_episodes_10": {key: round(statistics.mean(s[key] for s in searches)) for key in searches[0]},
        "search_facts_10": {key: round(statistics.mean(f[key] for f in facts)) for key in facts[0]},
    }


def main() -> None:
    """Load the first LoCoMo conversation into a fresh store and print the sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="the conversation's first 150 turns only")
    args = parser.parse_args()
    samples = load_locomo(LOCOMO_DEV)[:1]
    episodes = [record.episode.model_copy(update={"group_id": GROUP}) for record in locomo_records(samples)]
    episodes = episodes[:150] if args.quick else episodes
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), embedder="none", extractor="builtin")
        with Memory.open(settings=settings) as memory:
            memory.create_episodes(episodes)
            figures = anyio.run(measure, memory)
    figures["episodes"] = len(episodes)
    if args.json:
        print(json.dumps(figures))
        return
    tl = figures["tools_list"]
    print(f"{figures['episodes']} episodes (LoCoMo dev, first conversation); {figures['tools']} tools")
    print(
        f"tools/list: {tl['total']:,} B (descriptions {tl['descriptions']:,}, input schemas "
        f"{tl['input_schemas']:,}, output schemas {tl['output_schemas']:,}); largest {tl['largest']}"
    )
    for name in ("list_episodes_100", "search_episodes_10", "search_facts_10"):
        f = figures[name]
        extra = f", {f['items']} items" if "items" in f else ""
        print(f"{name}: {f['total']:,} B (text {f['text']:,}, structured {f['structured']:,}{extra})")


if __name__ == "__main__":
    main()
