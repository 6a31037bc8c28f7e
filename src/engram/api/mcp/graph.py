"""The MCP server's knowledge-graph tools: search_facts, search_entities, get_entity, add_facts,
update_entity, merge_entities.

Registered by ``engram.api.mcp.server.create_mcp_server``, so their calls go through the same
dispatch (text rendering, error mapping). Each tool is a few lines over ``Memory``; searches
return at most ``SEARCH_LIMIT_MAX`` hits, get_entity at most ``ENTITY_FACTS_MAX`` facts and
``ENTITY_TIMELINE_MAX`` versions, with a flag when it cut either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from engram.api.mcp.args import (
    MCP_ACTOR,
    AsOfArg,
    EntitiesArg,
    EntityIdArg,
    EpisodeIdArg,
    GroupIdArg,
    KnownAtArg,
    SearchLimitArg,
)
from engram.api.mcp.guides import STATUS_GUIDE
from engram.memory import Memory
from engram.models.graph import Entity, EntityView, FactHit, FactIn

if TYPE_CHECKING:
    from engram.api.mcp.server import EngramMCPServer

ENTITY_FACTS_MAX = 50
"""Most facts get_entity returns (newest first)."""
ENTITY_TIMELINE_MAX = 20
"""Most entity versions get_entity returns (the newest ones, oldest first)."""

SubjectArg = Annotated[
    str | None, Field(min_length=1, max_length=256, description="Only facts about this entity (id or name).")
]
PredicateArg = Annotated[
    str | None,
    Field(min_length=1, max_length=64, description='Only this predicate (LIVES_IN) or a synonym ("住在").'),
]
FactsInArg = Annotated[
    list[FactIn],
    Field(min_length=1, max_length=512, description="Facts you extracted (shape as in create_episode)."),
]


# -- result models ---------------------------------------------------------------------------------


class FactSearchResult(BaseModel):
    """Facts, best first, each with the names it connects and the citations to quote."""

    results: list[FactHit]


class EntitySearchResult(BaseModel):
    """Entities whose name or alias matches, most recently seen first."""

    results: list[Entity]


class EntityResult(BaseModel):
    """An entity, the facts about it (newest first) and its version timeline (oldest first)."""

    entity: Entity
    facts: list[FactHit]
    facts_truncated: bool = Field(
        description=f"True when there were more than {ENTITY_FACTS_MAX} facts; search_facts with "
        "subject set to this id and a query or predicate finds the rest."
    )
    timeline: list[Entity]
    timeline_truncated: bool = Field(
        description=f"True when only the newest {ENTITY_TIMELINE_MAX} versions are shown."
    )


class AddFactsResult(BaseModel):
    """What adding the facts did to the graph."""

    episode_id: str
    facts: dict[str, int] = Field(
        description=(
            "Outcome counts: new, restatement (same claim again: more provenance and confidence), "
            "conditional, refinement, update or correction (supersedes an older value), ended "
            "(closed what it stops), dispute (newer but weaker: disputed, the stated fact stays; "
            "the same time: both), late_arrival (older than the current fact: history)."
        )
    )
    fact_ids: list[str] = Field(description="The facts written or confirmed, in order.")
    entities_created: list[str]
    entities_matched: list[str] = Field(description="Existing entities the names resolved to.")
    merge_candidates: int = Field(description="Entities that may be duplicates, recorded for review.")
    unknown_predicates: list[str] = Field(
        default_factory=list, description="Predicates not in the registry: kept as given, many-valued."
    )


def entity_result(view: EntityView) -> EntityResult:
    """Return the bounded MCP form of an entity view."""
    return EntityResult(
        entity=view.entity,
        facts=view.facts[:ENTITY_FACTS_MAX],
        facts_truncated=len(view.facts) > ENTITY_FACTS_MAX,
        timeline=view.timeline[-ENTITY_TIMELINE_MAX:],
        timeline_truncated=len(view.timeline) > ENTITY_TIMELINE_MAX,
    )


def add_graph_tools(
    server: EngramMCPServer, memory: Memory, *, reads: ToolAnnotations, writes: ToolAnnotations
) -> None:
    """Register search_facts, search_entities, get_entity and add_facts of ``memory`` on ``server``."""

    def search_facts(
        query: Annotated[
            str,
            Field(
                max_length=2000,
                description="Words to look for, any language. Empty: newest first.",
            ),
        ] = "",
        group_id: GroupIdArg = None,
        subject: SubjectArg = None,
        predicate: PredicateArg = None,
        as_of: AsOfArg = None,
        known_at: KnownAtArg = None,
        include_history: Annotated[bool, Field(description="Also superseded and retracted facts.")] = False,
        include_archived: Annotated[
            bool,
            Field(description="Also archived (cold) history."),
        ] = False,
        limit: SearchLimitArg = 10,
    ) -> FactSearchResult:
        """Search facts (who lives where, budgets, preferences...), best first; default: true now."""
        search: dict[str, Any] = {"query": query, "group_id": group_id, "subject": subject}
        search |= {"predicate": predicate, "as_of": as_of, "known_at": known_at}
        search |= {"include_history": include_history, "include_archived": include_archived, "limit": limit}
        return FactSearchResult(results=memory.search_facts(search).results)

    def search_entities(
        query: Annotated[
            str,
            Field(min_length=1, max_length=256, description="A name, alias or part of one, any language."),
        ],
        group_id: GroupIdArg = None,
        types: Annotated[
            list[str] | None,
            Field(description="Keep entities of any of these types: person, organisation, place, ..."),
        ] = None,
        limit: SearchLimitArg = 10,
    ) -> EntitySearchResult:
        """Find entities (people, organisations, places, ...) by name or alias; gives their en_… ids."""
        found = memory.search_entities(query, group_id, types=types or (), limit=limit)
        return EntitySearchResult(results=found)

    def get_entity(id: EntityIdArg, group_id: GroupIdArg = None, known_at: KnownAtArg = None) -> EntityResult:
        """Return an entity, its current and disputed facts (newest first, ≤ 50) and versions (≤ 20)."""
        view = memory.get_entity(id, group_id, known_at=known_at)
        return entity_result(view)

    def add_facts(
        episode_id: Annotated[
            EpisodeIdArg, Field(description="The stored episode that states these facts (provenance).")
        ],
        facts: FactsInArg,
        group_id: GroupIdArg = None,
        entities: EntitiesArg = None,
    ) -> AddFactsResult:
        """Add facts (shaped as in create_episode) that a stored episode states.

        A claim made again adds provenance, a newer value supersedes the old one, a weaker one
        is disputed; STOPPED_USING-like facts end what they stop.
        """
        request = {"episode_id": episode_id, "group_id": group_id, "entities": entities or [], "facts": facts}
        done = memory.add_facts(request, actor=MCP_ACTOR)
        return AddFactsResult.model_validate({"episode_id": episode_id, **done.model_dump()})

    def update_entity(
        id: EntityIdArg,
        expected_version: Annotated[int, Field(ge=1, description="Its version, from get_entity.")],
        group_id: GroupIdArg = None,
        attributes: Annotated[
            dict[str, str | int | float | bool | None] | None, Field(description="Merged; null removes.")
        ] = None,
        add_aliases: Annotated[list[str] | None, Field(description="Names to add.")] = None,
        remove_aliases: Annotated[list[str] | None, Field(description="Names to remove.")] = None,
        summary: Annotated[str | None, Field(description="Replaces it; empty removes it.")] = None,
        type: Annotated[str | None, Field(description="A new type.")] = None,
    ) -> EntityResult:
        """Correct an entity (attributes, aliases, summary, type) as a new, revertible version."""
        patch: dict[str, Any] = {"attributes": attributes, "type": type}
        if add_aliases or remove_aliases:
            patch["aliases"] = {"add": add_aliases or [], "remove": remove_aliases or []}
        if summary is not None:
            patch["summary"] = summary.strip() or None
        view = memory.update_entity(
            id,
            patch={k: v for k, v in patch.items() if v is not None or k == "summary"},
            expected_version=expected_version,
            group_id=group_id,
            actor=MCP_ACTOR,
        )
        return entity_result(view)

    def merge_entities(
        id: EntityIdArg,
        into: Annotated[EntityIdArg, Field(description="The entity that survives (keeps its id).")],
        group_id: GroupIdArg = None,
    ) -> EntityResult:
        """Merge entity ``id`` into ``into`` when they are one (小李 is 李强); same type only.

        The survivor gains the other's names, attributes, facts and mentions.
        """
        view = memory.merge_entities(id, into, group_id, actor=MCP_ACTOR)
        return entity_result(view)

    server.add_engram_tool(search_facts, reads, guide=STATUS_GUIDE)
    server.add_engram_tool(search_entities, reads)
    server.add_engram_tool(get_entity, reads)
    server.add_engram_tool(add_facts, writes)
    server.add_engram_tool(update_entity, writes)
    server.add_engram_tool(merge_entities, writes)
