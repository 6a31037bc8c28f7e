"""The MCP server's knowledge-graph tools: search_facts, search_entities, get_entity, add_facts.

Registered by ``engram.api.mcp.server.create_mcp_server`` on the same ``EngramMCPServer``, so their
errors go through the same mapping (``isError`` results naming the field). Each tool is a few
lines over ``Memory``; results are bounded: searches return at most 50 hits, get_entity at most
``ENTITY_FACTS_MAX`` facts and ``ENTITY_TIMELINE_MAX`` versions, with a flag when it cut either.
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from engram.api.mcp.server import (
    EXTRACTION_GUIDE,
    MCP_ACTOR,
    SEARCH_LIMIT_MAX,
    EngramMCPServer,
    EntitiesArg,
    EpisodeIdArg,
    GroupIdArg,
)
from engram.memory import Memory
from engram.models.graph import Entity, EntityView, FactHit, FactIn
from engram.timeutil import UtcDatetime

ENTITY_FACTS_MAX = 50
"""Most facts get_entity returns (newest first)."""
ENTITY_TIMELINE_MAX = 20
"""Most entity versions get_entity returns (the newest ones, oldest first)."""

CURRENT_VS_HISTORY = """\
Each fact has a status: current (true now, as far as memory knows), disputed (sources disagree: \
present it as uncertain, with both values and their citations), superseded (replaced by a newer \
fact, see superseded_by and invalid_at) or retracted. Superseded and retracted facts are hidden \
unless include_history is true; they rank below equally matching current facts (half weight). \
Old history that no search ever returned may be archived: include_archived reads it too (those \
hits say archived: true). Two clocks: as_of is valid time (what was true in the world at \
that moment), known_at is transaction time (what memory believed at that moment, before later \
corrections were recorded). Quote a fact's `citations`, `[source: <episode id>]`, beside anything \
you base on it; get_episode reads the source."""

# -- parameter types (module level: the SDK resolves tool annotations in this module's globals) ----

SubjectArg = Annotated[
    str | None,
    Field(min_length=1, max_length=256, description="Only facts about this entity: its id (en_…) or name."),
]
PredicateArg = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=64,
        description='Only this predicate: UPPER_SNAKE (LIVES_IN) or a synonym ("budget", "住在").',
    ),
]
AsOfArg = Annotated[
    UtcDatetime | None,
    Field(description="Valid time, ISO 8601: the facts that were true in the world at this moment."),
]
KnownAtArg = Annotated[
    UtcDatetime | None,
    Field(description="Transaction time, ISO 8601: what memory believed at this moment."),
]
SearchLimitArg = Annotated[int, Field(ge=1, le=SEARCH_LIMIT_MAX, description="Most hits to return, 1-50.")]
EntityIdArg = Annotated[
    str, Field(min_length=1, max_length=128, description="Entity id (en_…), as search_entities returns it.")
]
FactsInArg = Annotated[
    list[FactIn],
    Field(
        min_length=1,
        max_length=512,
        description=(
            'Facts you extracted: [{"subject": "李强", "predicate": "LIVES_IN", "object": "杭州", '
            '"fact": "李强住在杭州"}]; exactly one of object or value (see the tool description).'
        ),
    ),
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
            "conditional, refinement, update (supersedes an older value), dispute (conflicts with "
            "a current fact: both now disputed), late_arrival (older than the current fact: history)."
        )
    )
    fact_ids: list[str] = Field(description="The facts written or confirmed, in order.")
    entities_created: list[str]
    entities_matched: list[str] = Field(description="Existing entities the names resolved to.")
    merge_candidates: int = Field(description="Entities that may be duplicates, recorded for review.")


def _entity_result(view: EntityView) -> EntityResult:
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
                description="Words to look for in facts, any language. Empty: newest facts first.",
            ),
        ] = "",
        group_id: GroupIdArg = None,
        subject: SubjectArg = None,
        predicate: PredicateArg = None,
        as_of: AsOfArg = None,
        known_at: KnownAtArg = None,
        include_history: Annotated[
            bool, Field(description="Also return superseded and retracted facts, with their status.")
        ] = False,
        include_archived: Annotated[
            bool,
            Field(description="Also read archived facts (old history in cold storage); implies history."),
        ] = False,
        limit: SearchLimitArg = 10,
    ) -> FactSearchResult:
        """Search the knowledge graph's facts (who lives where, budgets, preferences, ...); best first.

        By default only what is true now. Each hit gives the fact (subject and object as entity
        ids, or a literal value), subject_name, object_name, a score and citations.
        """
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
        """Find entities (people, organisations, places, ...) by name or alias.

        Returns their ids (en_…): pass one to get_entity for its facts and history, or as the
        subject of search_facts or of facts you add.
        """
        found = memory.search_entities(query, group_id, types=types or (), limit=limit)
        return EntitySearchResult(results=found)

    def get_entity(id: EntityIdArg, group_id: GroupIdArg = None, known_at: KnownAtArg = None) -> EntityResult:
        """Return one entity, the facts about it and the timeline of its versions.

        facts are its current (or disputed) facts, newest first, at most 50 (facts_truncated
        flags a cut); timeline is its versions (names, aliases, attributes), at most the newest
        20 (timeline_truncated). With known_at: the entity and facts as memory knew them then.
        """
        view = memory.get_entity(id, group_id, known_at=known_at)
        return _entity_result(view)

    def add_facts(
        episode_id: Annotated[
            EpisodeIdArg, Field(description="The stored episode that states these facts (provenance).")
        ],
        facts: FactsInArg,
        group_id: GroupIdArg = None,
        entities: EntitiesArg = None,
    ) -> AddFactsResult:
        """Add facts you extracted from an episode that is already stored (e.g. after re-reading it).

        They go through the same resolution and arbitration as create_episode's: a claim made
        again adds provenance, a newer value supersedes the old one, a conflicting one marks
        both disputed. Returns the outcome counts and the fact ids.
        """
        request = {"episode_id": episode_id, "group_id": group_id, "entities": entities or [], "facts": facts}
        done = memory.add_facts(request, actor=MCP_ACTOR)
        return AddFactsResult.model_validate({"episode_id": episode_id, **done})

    def merge_entities(
        id: EntityIdArg,
        into: Annotated[EntityIdArg, Field(description="The entity that survives (keeps its id).")],
        group_id: GroupIdArg = None,
    ) -> EntityResult:
        """Merge two entities you know are the same (小李 is 李强): ``id`` is merged into ``into``.

        The survivor gains the other's names as aliases, its attributes, facts and mentions;
        the merged id stops resolving. Entities of different types cannot be merged.
        """
        view = memory.merge_entities(id, into, group_id, actor=MCP_ACTOR)
        return _entity_result(view)

    server.add_engram_tool(search_facts, reads, guide=CURRENT_VS_HISTORY)
    server.add_engram_tool(search_entities, reads)
    server.add_engram_tool(get_entity, reads, guide=CURRENT_VS_HISTORY)
    server.add_engram_tool(add_facts, writes, guide=EXTRACTION_GUIDE + "\n\n" + CURRENT_VS_HISTORY)
    server.add_engram_tool(merge_entities, writes)
