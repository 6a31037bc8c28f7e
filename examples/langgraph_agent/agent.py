"""A LangGraph agent with long-term memory in Engram, reached over MCP with langchain-mcp-adapters.

    router ─┬─ memory question ─> memory tool (search_episodes) ─> enricher (search_facts) ─┐
            └─ anything else ──────────────────────────────────────────────────────────────┴─>
    reasoning (answers from the evidence only, citing [source: id]) ─> episode creator
    (create_episode with the entities and facts the model extracted) ─> end

Run (from the repository root): ``make example-agent``. Without a model configured it uses
``ScriptedChatModel``, a rule-based stand-in so the demo runs offline; with ``--model openai``
it uses ``ChatOpenAI`` (set ``OPENAI_API_KEY``, optionally ``OPENAI_BASE_URL`` for any
OpenAI-compatible server, and ``ENGRAM_EXAMPLE_MODEL``, default gpt-4o-mini).

Engram is started as ``engram mcp`` (stdio) on ``--data-dir``, or reached at ``--url``
(``engram serve`` … ``/mcp``; add ``--header "Authorization: Bearer <key>"`` once API keys are
configured).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import shutil
import tempfile
from typing import Any, Literal, TypedDict

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode

GROUP = "demo-user"
USER = {"type": "user", "id": "u_demo", "name": "Dana"}
CONVERSATION = [
    "I live in Hangzhou and my budget is 500000.",
    "Where do I live?",
    "What is my favourite colour?",
    "I work at Initech.",
    "Where do I work?",
]

ROUTER = "ROUTER: answer with one word: memory if the user asks about something they said before, else chat."
RETRIEVER = "RETRIEVER: call search_episodes with the user's question as query and group_id {group}."
REASONER = """\
REASONER: answer the user only from the evidence below, which comes from long-term memory.
Cite every statement's source as [source: <episode id>]. If the evidence does not answer the
question, say that memory does not know. If a fact is DISPUTED, say the sources disagree."""
RECORDER = """\
RECORDER: if the user's message states facts about the user, call create_episode once with
content = the message, group_id {group}, actor {actor}, and the entities and facts you extract
(first person is the actor's name; predicates UPPER_SNAKE such as LIVES_IN, WORKS_AT, BUDGET).
If it states nothing new (a question, chit-chat), do not call any tool."""


class Turn(TypedDict, total=False):
    """The graph's state for one user message."""

    question: str
    route: str
    messages: list[BaseMessage]
    evidence: list[str]
    answer: str
    recorder: list[BaseMessage]


# -- the offline stand-in for a chat model -------------------------------------------------------------

_QUESTION = re.compile(r"\?\s*$|^(what|where|who|when|which|how|do|does|did|is|are)\b", re.IGNORECASE)
_WORDS = re.compile(r"[a-z0-9]+")
_STOP = {"i", "my", "me", "do", "does", "is", "the", "a", "what", "where", "who", "when", "and", "at", "in"}
_RULES = [
    (re.compile(r"\bI live in (\w+)", re.IGNORECASE), "LIVES_IN", "place"),
    (re.compile(r"\bI work at (\w+)", re.IGNORECASE), "WORKS_AT", "organisation"),
    (re.compile(r"\bmy budget is (\d+)", re.IGNORECASE), "BUDGET", None),
]


def _stem(word: str) -> str:
    for suffix in ("ing", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)]
    return word


def _words(text: str) -> set[str]:
    return {_stem(w) for w in _WORDS.findall(text.lower()) if w not in _STOP}


class ScriptedChatModel(BaseChatModel):
    """A rule-based chat model that plays each node's part, so the demo runs with no network.

    It reads what a real model would read (the node's system prompt, the user's message, the
    tool results) and answers through the same channels (text or tool calls); only its
    "understanding" is a handful of rules. Swap in any tool-calling chat model with ``--model``.
    """

    @property
    def _llm_type(self) -> str:
        return "engram-example-scripted"

    def bind_tools(self, tools: list[Any], **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools], **kwargs)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        system = next((m.content for m in messages if isinstance(m, SystemMessage)), "")
        user = next(str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage))
        tools = {tool["function"]["name"] for tool in kwargs.get("tools", [])}
        if str(system).startswith("ROUTER"):
            reply = AIMessage("memory" if _QUESTION.search(user.strip()) else "chat")
        elif "search_episodes" in tools:
            call = {
                "name": "search_episodes",
                "args": {"query": user, "group_id": GROUP},
                "id": "call_search",
            }
            reply = AIMessage("", tool_calls=[call])
        elif "create_episode" in tools:
            reply = self._record(user)
        else:
            reply = AIMessage(self._answer(user))
        return ChatResult(generations=[ChatGeneration(message=reply)])

    @staticmethod
    def _answer(message: str) -> str:
        """Answer from the evidence block of the reasoner's prompt (the user message carries it)."""
        question, _, evidence = message.partition("\nEvidence:\n")
        if not evidence:
            return "Noted."
        wanted = _words(question)
        facts = [line for line in evidence.splitlines() if line.startswith("- ") and wanted & _words(line)]
        if facts:
            disputed = " (the sources disagree)" if any("DISPUTED" in line for line in facts) else ""
            sentence, _, rest = facts[0].partition(" — ")[2].partition(" [")
            citations = " ".join(re.findall(r"\[source: [^\]]+\]", rest))
            return f"{sentence}{disputed} {citations}".strip()
        lines = evidence.splitlines()
        for header, content in itertools.pairwise(lines):
            source = re.search(r"\[source: [^\]]+\]", header)
            if source and content.startswith("  ") and wanted & _words(content):
                return f"Memory says: {content.strip()} {source.group(0)}"
        return "Memory does not know that: nothing stored answers it."

    @staticmethod
    def _record(message: str) -> AIMessage:
        """Extract entities and facts with the rules; call create_episode when there are any."""
        if _QUESTION.search(message.strip()):
            return AIMessage("Nothing new to remember.")
        name = USER["name"]
        entities: list[dict[str, Any]] = [{"name": name, "type": "person"}]
        facts: list[dict[str, Any]] = []
        for pattern, predicate, kind in _RULES:
            match = pattern.search(message)
            if match is None:
                continue
            if kind is None:
                facts.append(
                    {
                        "subject": name,
                        "predicate": predicate,
                        "value": int(match.group(1)),
                        "fact": f"{name}'s budget is {match.group(1)}",
                    }
                )
            else:
                entities.append({"name": match.group(1), "type": kind})
                facts.append(
                    {
                        "subject": name,
                        "predicate": predicate,
                        "object": match.group(1),
                        "fact": f"{name} {predicate.lower().replace('_', ' ')} {match.group(1)}",
                    }
                )
        args = {
            "content": message,
            "group_id": GROUP,
            "actor": USER,
            "entities": entities if facts else [],
            "facts": facts,
        }
        return AIMessage("", tool_calls=[{"name": "create_episode", "args": args, "id": "call_record"}])


# -- the graph ---------------------------------------------------------------------------------------


def build_graph(model: BaseChatModel, tools: list[BaseTool]) -> Any:
    """Return the compiled agent: router → memory tool → enricher → reasoning → episode creator."""
    by_name = {tool.name: tool for tool in tools}
    retriever = model.bind_tools([by_name["search_episodes"]])
    recorder = model.bind_tools([by_name["create_episode"]])
    search_tools = ToolNode([by_name["search_episodes"]])
    record_tools = ToolNode([by_name["create_episode"]])

    async def router(turn: Turn) -> Turn:
        decision = await model.ainvoke([SystemMessage(ROUTER), HumanMessage(turn["question"])])
        return {"route": "memory" if "memory" in str(decision.content).lower() else "chat"}

    async def memory_tool(turn: Turn) -> Turn:
        asked = await retriever.ainvoke(
            [SystemMessage(RETRIEVER.format(group=GROUP)), HumanMessage(turn["question"])]
        )
        found = await search_tools.ainvoke({"messages": [asked]})
        return {"messages": [asked, *found["messages"]]}

    async def enricher(turn: Turn) -> Turn:
        hits = [_text(m.content) for m in turn.get("messages", []) if isinstance(m, ToolMessage)]
        facts = await by_name["search_facts"].ainvoke({"query": turn["question"], "group_id": GROUP})
        return {"evidence": [*hits, _text(facts)]}

    async def reasoning(turn: Turn) -> Turn:
        prompt = turn["question"]
        if turn.get("evidence"):
            prompt += "\nEvidence:\n" + "\n".join(turn["evidence"])
        answer = await model.ainvoke([SystemMessage(REASONER), HumanMessage(prompt)])
        return {"answer": str(answer.content)}

    async def episode_creator(turn: Turn) -> Turn:
        system = RECORDER.format(group=GROUP, actor=json.dumps(USER))
        asked = await recorder.ainvoke([SystemMessage(system), HumanMessage(turn["question"])])
        if not getattr(asked, "tool_calls", None):
            return {"recorder": [asked]}
        done = await record_tools.ainvoke({"messages": [asked]})
        return {"recorder": [asked, *done["messages"]]}

    def route(turn: Turn) -> Literal["memory_tool", "reasoning"]:
        return "memory_tool" if turn["route"] == "memory" else "reasoning"

    graph = StateGraph(Turn)
    for node in (router, memory_tool, enricher, reasoning, episode_creator):
        graph.add_node(node.__name__, node)
    graph.add_edge(START, "router")
    graph.add_conditional_edges("router", route)
    graph.add_edge("memory_tool", "enricher")
    graph.add_edge("enricher", "reasoning")
    graph.add_edge("reasoning", "episode_creator")
    graph.add_edge("episode_creator", END)
    return graph.compile()


def _text(result: Any) -> str:
    """Return the text of a tool result (adapters give a string or content blocks)."""
    if isinstance(result, tuple):
        result = result[0]
    if isinstance(result, list):
        return "\n".join(block.get("text", "") if isinstance(block, dict) else str(block) for block in result)
    return str(result)


def _model(name: str) -> BaseChatModel:
    if name == "scripted":
        return ScriptedChatModel()
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(model=os.environ.get("ENGRAM_EXAMPLE_MODEL", "gpt-4o-mini"), temperature=0)


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Talk through the conversation; return one record per turn."""
    if args.url:
        headers = dict(h.split(":", 1) for h in args.header)
        connection: dict[str, Any] = {
            "transport": "streamable_http",
            "url": args.url,
            "headers": {k.strip(): v.strip() for k, v in headers.items()},
        }
    else:
        connection = {
            "transport": "stdio",
            "command": args.engram_command,
            "args": ["mcp", "--data-dir", args.data_dir],
            "env": dict(os.environ),
        }
    client = MultiServerMCPClient({"engram": connection})
    transcript = []
    async with client.session("engram") as session:
        agent = build_graph(_model(args.model), await load_mcp_tools(session))
        for question in args.say or CONVERSATION:
            turn = await agent.ainvoke({"question": question})
            stored = [_text(m.content) for m in turn.get("recorder", []) if isinstance(m, ToolMessage)]
            stored_id = re.search(r"episode (ep_\w+|\S+);", stored[0]) if stored else None
            transcript.append(
                {
                    "user": question,
                    "route": turn["route"],
                    "answer": turn["answer"],
                    "stored": stored_id.group(1) if stored_id else None,
                }
            )
    return transcript


def main() -> None:
    """Parse the arguments, run the conversation and print it."""
    parser = argparse.ArgumentParser(description="A LangGraph agent with Engram memory over MCP.")
    parser.add_argument("--data-dir", help="Engram data directory (default: a new temporary one)")
    parser.add_argument("--engram-command", default=shutil.which("engram") or "engram", help="the engram CLI")
    parser.add_argument("--url", help="an Engram MCP endpoint (http://127.0.0.1:8765/mcp) instead of stdio")
    parser.add_argument(
        "--header", action="append", default=[], help='HTTP header, e.g. "Authorization: Bearer K"'
    )
    parser.add_argument("--model", choices=["scripted", "openai"], default="scripted")
    parser.add_argument(
        "--say", action="append", help="a user message (repeatable); default: a demo conversation"
    )
    parser.add_argument("--json", action="store_true", help="print the transcript as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        args.data_dir = args.data_dir or scratch
        transcript = asyncio.run(run(args))
    if args.json:
        print(json.dumps(transcript, ensure_ascii=False))
        return
    for record in transcript:
        print(f"user:  {record['user']}\n  route: {record['route']}\n  agent: {record['answer']}")
        if record["stored"]:
            print(f"  stored episode {record['stored']}")


if __name__ == "__main__":
    main()
