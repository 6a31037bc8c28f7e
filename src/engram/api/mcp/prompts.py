"""The MCP prompt that teaches memory-grounded answering, and the resources that open a citation.

- prompt ``answer_from_memory(question, group_id?, language?)``: the rules (answer only from
  what memory returns, cite ``[source: <id>]``, say when memory does not know, present
  disputed facts as such) in English or Chinese, followed by the evidence memory holds on the
  question (the best episodes and facts, as the tools would show them).
- resource templates ``engram://groups/{group_id}/episodes/{id}`` (an episode in full) and
  ``engram://groups/{group_id}/entities/{id}`` (an entity with its facts), as text; an unknown
  id is a JSON-RPC "invalid params" error naming it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.server.mcpserver.prompts.base import UserMessage
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS

from engram.api.mcp.graph import entity_result
from engram.api.mcp.text import entity_text, render
from engram.api.results import ResultLimits, search_page
from engram.errors import EngramError, NotFound
from engram.ingest.inputs import validated
from engram.memory import Memory
from engram.models.episodes import SearchQuery

if TYPE_CHECKING:
    from engram.api.mcp.server import EngramMCPServer

EPISODE_URI = "engram://groups/{group_id}/episodes/{id}"
ENTITY_URI = "engram://groups/{group_id}/entities/{id}"
EVIDENCE_HITS = 8
"""Episodes and facts the prompt brings as evidence (each)."""

RULES = {
    "en": """\
Answer the question from Engram's memory only.
1. Use only the episodes and facts under Evidence, or what you retrieve with search_episodes and \
search_facts. Do not fill gaps from general knowledge.
2. Cite the source of every statement as [source: <episode id>].
3. If memory does not answer the question, say that memory does not know (and what it does hold, \
if anything). Never guess.
4. A DISPUTED fact: say the sources disagree and give each value with its citation.
5. Prefer current facts; mention superseded ones only as history, with their dates.
Open a source with get_episode or the resource engram://groups/{group}/episodes/<id>.

Question: {question}

Evidence (group {group}):""",
    "zh": """\
只根据 Engram 的记忆回答问题。
1. 只使用下面"证据"中的片段和事实，或用 search_episodes、search_facts 检索到的内容；不要用常识补全。
2. 每一句陈述都注明来源：[source: <episode id>]。
3. 如果记忆里没有答案，就说明记忆中没有相关信息（以及记忆里有什么相关内容）；不要猜测。
4. 对 DISPUTED（有争议）的事实，说明来源之间有分歧，并分别给出各个说法及其来源。
5. 优先使用当前事实；已被取代的事实只作为历史提及，并注明时间。
用 get_episode 或资源 engram://groups/{group}/episodes/<id> 打开来源。

问题：{question}

证据（分组 {group}）：""",
}


def add_prompts_and_resources(server: EngramMCPServer, memory: Memory, limits: ResultLimits) -> None:
    """Register the answering prompt and the episode and entity resource templates of ``memory``."""

    @server.prompt(
        title="Answer from memory, with citations",
        description="Answer a question only from Engram's memory, citing [source: <id>], saying when "
        "memory does not know and flagging disputed facts; brings the evidence. language: en or zh.",
    )
    def answer_from_memory(question: str, group_id: str | None = None, language: str = "en") -> UserMessage:
        if language not in RULES:
            message = f"language must be one of {', '.join(RULES)}, not {language!r}"
            raise MCPError(INVALID_PARAMS, message, {"field": "language"})
        group = _read(lambda: memory.group(group_id), MCPError)
        query: SearchQuery = validated(
            SearchQuery, {"query": question, "group_id": group, "limit": EVIDENCE_HITS}, "query"
        )
        hits = search_page(memory.search_episodes(query), query, limits)
        facts = memory.search_facts({"query": question, "group_id": group, "limit": EVIDENCE_HITS})
        evidence = [
            render("search_episodes", hits.model_dump(mode="json")),
            render("search_facts", facts.model_dump(mode="json")),
        ]
        rules = RULES[language].replace("{group}", group).replace("{question}", question)
        return UserMessage("\n".join([rules, *evidence]))

    @server.resource(
        EPISODE_URI,
        name="episode",
        title="Episode",
        description="One episode in full: what a citation [source: <id>] points to.",
        mime_type="text/plain",
    )
    def episode_resource(group_id: str, id: str) -> str:
        episode = _read(lambda: memory.get_episode(id, group_id))
        return f"group {episode.group_id}\n" + render(
            "get_episode", {"episode": episode.model_dump(mode="json")}
        )

    @server.resource(
        ENTITY_URI,
        name="entity",
        title="Entity",
        description="An entity with its current facts (each citing its episodes) and its names over time.",
        mime_type="text/plain",
    )
    def entity_resource(group_id: str, id: str) -> str:
        view = _read(lambda: memory.get_entity(id, group_id))
        return entity_text(entity_result(view).model_dump(mode="json"))


def _read(read: Any, protocol_error: type[MCPError] | None = None) -> Any:
    """Return ``read()``; Engram errors become the SDK's resource errors (not found, or invalid).

    With ``protocol_error``, an Engram error becomes that JSON-RPC "invalid params" error instead.
    """
    try:
        return read()
    except EngramError as exc:
        if protocol_error is not None:
            raise protocol_error(INVALID_PARAMS, f"{exc.title}: {exc.detail}", {"field": exc.field}) from exc
        if isinstance(exc, NotFound):
            raise ResourceNotFoundError(exc.detail) from exc
        raise ResourceError(f"{exc.title}: {exc.detail}") from exc
