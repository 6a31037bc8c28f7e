"""The knowledge graph's models: what extractors produce, and what the graph stores.

An extraction is the same schema whichever extractor made it (agent-supplied, builtin,
LLM): ``{entities: [{name, type, aliases?, attributes?}], facts: [{subject, predicate,
object? | value?, fact?, valid_at?, invalid_at?, conditions?, confidence?, source_kind?}]}``.
A fact's ``subject`` and ``object`` name entities of the same extraction (or existing entity
ids, ``en_…``); the resolver maps them to graph entities.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engram.models.json_values import NOT_BLANK, NUMBER_ONLY, Flag, Float64, Int64, has_nul, nul_path
from engram.models.json_values import Scalar as Scalar
from engram.timeutil import UtcDatetime

SEARCH_LIMIT_MAX = 100
"""Most hits one search of episodes, facts or entities returns (library, REST and MCP alike)."""

SourceKind = Literal["stated", "inferred", "system"]
FactStatus = Literal["current", "superseded", "disputed", "retracted"]
PREDICATE_PATTERN = r"^[A-Z][A-Z0-9_]{0,63}$"
ENTITY_TYPE_PATTERN = r"^[a-z][a-z0-9_]*$"
MAX_QUERY_LENGTH = 10_000
"""Longest search query accepted (422 beyond, before any work); past ``max_query_chars`` it is truncated."""
ID_PATTERN = r"^[A-Za-z0-9._:-]{1,128}$"
"""Client-chosen episode ids and group ids."""

Name = Annotated[str, Field(min_length=1, max_length=256, pattern=NOT_BLANK)]
EntityType = Annotated[str, Field(min_length=1, max_length=64, pattern=ENTITY_TYPE_PATTERN)]
AttributeKey = Annotated[str, Field(min_length=1, max_length=64, pattern=NOT_BLANK)]
Summary = Annotated[str, Field(min_length=1, max_length=2000, pattern=NOT_BLANK)]
"""Who or what an entity is: not blank once stripped (the schema says so, as for names)."""
"""An attribute name a person sets (PATCH /v1/entities/{id})."""
AttributeValue = Annotated[str, Field(max_length=1000)] | bool | Int64 | Float64
"""An attribute value a person sets: text (at most 1,000 characters), a number or a boolean."""


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class _NoNul(_Input):
    @model_validator(mode="after")
    def _no_nul(self) -> Any:
        """Refuse a NUL character when the input arrives, not when the graph is written: by then
        the episode that carries these entities and facts is stored (the store refuses NUL)."""
        fields = dict(vars(self))
        if has_nul(fields):
            shown = str(nul_path(fields)).replace("\x00", "\\x00")  # a key holding one: not echoed raw
            raise ValueError(f"{shown} must not contain NUL characters")
        return self


class EntityIn(_NoNul):
    """An entity mention: ``{"name": "李强", "type": "person", "aliases": ["小李"]}``."""

    name: Name = Field(description="Fullest name.")
    type: EntityType = Field(
        default="thing", description="lower_snake: person, organisation, place, product, ..."
    )
    aliases: list[Name] = Field(default_factory=list, max_length=64, description="Other names.")
    attributes: dict[str, Scalar | None] = Field(
        default_factory=dict, description='Traits: {"gender": "female"}.'
    )
    summary: Summary | None = Field(default=None, description="Who or what it is.")


class FactIn(_NoNul):
    """One claim about a subject: an edge to another entity (``object``) or a literal ``value``.

    ``predicate`` is UPPER_SNAKE (``LIVES_IN``, ``BUDGET``); ``conditions`` scope it
    (``{"when": "weekends"}``); ``valid_at`` / ``invalid_at`` bound when it was true
    (``invalid_at`` not before ``valid_at``).
    """

    # The schema states "exactly one of object or value" as JSON Schema can say it.
    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [
                {"required": ["object"], "properties": {"object": {"type": "string"}}},
                {"required": ["value"], "properties": {"value": {"not": {"type": "null"}}}},
            ]
        }
    )

    subject: Name = Field(description="Entity name or id (en_…).")
    predicate: Annotated[str, Field(pattern=PREDICATE_PATTERN)] = Field(
        description="UPPER_SNAKE: LIVES_IN, WORKS_AT, BUDGET, ... (synonyms mapped)."
    )
    object: Name | None = Field(default=None, description="Entity name or id (or give value).")
    value: Scalar | None = Field(default=None, description="A literal: number, date, word (or give object).")
    fact: Annotated[str, Field(max_length=2000)] | None = Field(
        default=None, description="One sentence, in the episode's language."
    )
    valid_at: UtcDatetime | None = Field(default=None, description="When it became true, if stated.")
    invalid_at: UtcDatetime | None = Field(default=None, description="When it stopped being true, if stated.")
    conditions: dict[str, Scalar] = Field(
        default_factory=dict, description='When it holds: {"when": "weekends"}.'
    )
    confidence: Annotated[float, Field(strict=True, ge=0, le=1)] | None = Field(
        default=None, description="How sure the text is, 0..1."
    )
    source_kind: SourceKind | None = Field(default=None, description="stated or inferred.")
    negated: Flag = Field(default=False, description="Denied or ended (不再, no longer).")

    @field_validator("predicate", mode="before")
    @classmethod
    def _canonical_predicate(cls, value: Any) -> Any:
        """Map a registered synonym ("budget", "住在", "works at") to its UPPER_SNAKE name; an
        unknown name is kept as given, in UPPER_SNAKE ("collaborates with" → COLLABORATES_WITH)."""
        if isinstance(value, str) and value.strip():
            from engram.models.predicates import REGISTRY

            return REGISTRY.canonical(value, keep_unknown=True).name
        return value

    @model_validator(mode="after")
    def _object_or_value(self) -> FactIn:
        if self.object is not None and self.value is not None:
            raise ValueError("a fact has exactly one of object (an entity) or value (a literal), not both")
        targetless = self.object is None and self.value is None
        if targetless and not (self.negated or _ends_something(self.predicate)):
            raise ValueError("a fact has exactly one of object (an entity) or value (a literal)")
        if self.valid_at and self.invalid_at and self.invalid_at < self.valid_at:
            raise ValueError("invalid_at is before valid_at")
        return self


def _ends_something(predicate: str) -> bool:
    """Return True for a stop predicate (STOPPED_USING): it may name no target (the latest one ends)."""
    from engram.models.predicates import REGISTRY

    return bool(REGISTRY.canonical(predicate).closes) and REGISTRY.canonical(predicate).ends is not None


class AliasChanges(_Input):
    """Names to add to an entity and names to take off it."""

    add: list[Name] = Field(default_factory=list, max_length=64)
    remove: list[Name] = Field(default_factory=list, max_length=64)


class EntityPatch(_Input):
    """A person's change to an entity (PATCH /v1/entities/{id}, update_entity): absent fields stay.

    ``attributes`` is a JSON merge patch (a null value removes that attribute); ``aliases``
    adds and removes names; ``summary`` replaces the summary (null removes it); ``type``
    retypes the entity. The name stays: merge two entities to rename one into another.
    """

    attributes: dict[AttributeKey, AttributeValue | None] | None = None
    aliases: AliasChanges | None = None
    summary: Summary | None = None
    type: EntityType | None = None


class Extraction(_Input):
    """What an extractor found in one episode."""

    entities: list[EntityIn] = Field(default_factory=list, max_length=256)
    facts: list[FactIn] = Field(default_factory=list, max_length=512)

    @property
    def empty(self) -> bool:
        """Return True when nothing was found (chit-chat builds no graph)."""
        return not self.entities and not self.facts


class Entity(BaseModel):
    """A current entity version in the graph."""

    id: str
    group_id: str
    version: int
    name: str
    type: str
    aliases: list[str] = Field(default_factory=list)
    attributes: dict[str, Any] = Field(
        default_factory=dict,
        description="name → {value, episode, operation}: the value, and which episode (None: a person's "
        "edit or a merge) and operation gave it.",
    )
    summary: str | None = None
    first_seen: datetime
    last_seen: datetime
    recorded_at: datetime
    expired_at: datetime | None = None
    operation_id: str
    episode_id: str | None = Field(
        default=None, description="The episode this version came from (None: an edit, a merge, a revert)."
    )
    alias_sources: dict[str, dict[str, str | None]] = Field(
        default_factory=dict,
        description="alias → {episode, operation}: which episode (None: a person's edit) and operation "
        "introduced it.",
    )
    summary_source: dict[str, str | None] | None = Field(
        default=None, description="{episode, operation} that gave the summary."
    )


class Fact(BaseModel):
    """A fact version: bi-temporal (valid_at/invalid_at, recorded_at/expired_at) with provenance."""

    id: str
    group_id: str
    version: int
    subject: str = Field(description="Entity id.")
    predicate: str
    object: str | None = Field(default=None, description="Entity id.")
    value: Scalar | None = None
    fact: str
    conditions: dict[str, Scalar] = Field(default_factory=dict)
    confidence: float
    source_kind: SourceKind
    episodes: list[str] = Field(description="Provenance: the episodes that state it.")
    valid_at: datetime | None = None
    invalid_at: datetime | None = None
    recorded_at: datetime
    expired_at: datetime | None = None
    status: FactStatus = "current"
    superseded_by: str | None = None
    operation_id: str
    status_reason: str | None = Field(
        default=None, description="Why it has its status: the arbiter's reason (disputed, ended, ...)."
    )


class FactSearch(_Input):
    """A facts search; by default current facts only (docs/architecture.md, "API contract")."""

    query: str = Field(default="", max_length=MAX_QUERY_LENGTH)
    group_id: Annotated[str, Field(pattern=ID_PATTERN)] | None = None
    subject: Name | None = Field(default=None, description="An entity id or name: facts about it.")
    predicate: Name | None = Field(default=None, description="A predicate or one of its synonyms.")
    as_of: UtcDatetime | None = Field(default=None, description="Valid time: what was true then.")
    known_at: UtcDatetime | None = Field(default=None, description="Transaction time: what we believed then.")
    include_history: Flag = False
    include_archived: Flag = Field(
        default=False,
        description="Also read archived facts (`engram archive`); they are history, so this implies "
        "include_history unless as_of is given.",
    )
    limit: Annotated[int, Field(ge=1, le=SEARCH_LIMIT_MAX), NUMBER_ONLY] = 10


class FactHit(BaseModel):
    """A fact with its score, the names it connects, and citations of its episodes.

    The score is BM25 over the fact's words; superseded and retracted facts count
    ``search.inactive_fact_weight`` (0.5 by default) of it.
    """

    fact: Fact
    score: float
    subject_name: str | None = None
    object_name: str | None = None
    citations: list[str]
    archived: bool = Field(default=False, description="True when read from the archive (include_archived).")


class ArchiveResult(BaseModel):
    """What an archive run moved to cold storage (or, in a dry run, would move)."""

    group_id: str
    cutoff: datetime = Field(description="Inactive facts whose latest version is older than this.")
    dry_run: bool
    facts: list[str] = Field(description="Ids of the facts archived (every version of each moves).")
    versions: int = Field(description="Fact versions moved.")
    operation_id: str | None = Field(description="The `archive` operation; None when nothing moved.")


class FactSearchResponse(BaseModel):
    """Facts best first."""

    results: list[FactHit]


class EntityView(BaseModel):
    """An entity, the facts about it, and its version timeline."""

    entity: Entity
    facts: list[FactHit]
    timeline: list[Entity]


class AddFacts(_Input):
    """Facts (and entities) extracted from an episode that is already stored (POST /v1/facts)."""

    episode_id: Annotated[str, Field(pattern=ID_PATTERN)]
    group_id: Annotated[str, Field(pattern=ID_PATTERN)] | None = None
    entities: list[EntityIn] = Field(default_factory=list, max_length=256)
    facts: list[FactIn] = Field(min_length=1, max_length=512)


class FactsAdded(BaseModel):
    """What adding facts to a stored episode did to the graph."""

    entities_created: list[str] = Field(description="Ids of the entities made for new names.")
    entities_matched: list[str] = Field(description="Ids of known entities the names resolved to.")
    merge_candidates: int = Field(description="Possible duplicates recorded for review.")
    facts: dict[str, int] = Field(description="Facts by arbitration outcome (new, restated, superseded…).")
    fact_ids: list[str] = Field(description="Ids of the facts written.")
    unknown_predicates: list[str] = Field(
        default_factory=list, description="Predicates the registry does not know: kept as given, many-valued."
    )
    decisions: list[dict[str, Any]] = Field(
        default_factory=list, description="Per fact: the arbiter's decision and its reason."
    )


class MergeCandidateView(BaseModel):
    """Two entities the resolver thinks may be one: review, then merge_entities (or leave them)."""

    entity: Entity
    candidate: Entity
    score: float
    parts: dict[str, float] = Field(description="Name, attributes and context scores in [0, 1].")
