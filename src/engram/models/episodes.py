"""Pydantic models: what goes into Engram and what comes out.

Input models forbid unknown fields, so a typo is a 422 that names the field rather than
silently dropped data. All datetimes are timezone-aware UTC; naive input is read as UTC.
"""

from __future__ import annotations

import json
import struct
from datetime import datetime
from typing import Annotated, Any, Literal

import numpy as np
import numpy.typing as npt
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    TypeAdapter,
    WithJsonSchema,
    field_validator,
)
from pydantic.json_schema import SkipJsonSchema

from engram.errors import InvalidInput
from engram.ids import new_id
from engram.models.graph import ID_PATTERN as ID_PATTERN
from engram.models.graph import MAX_QUERY_LENGTH, SEARCH_LIMIT_MAX, EntityIn, FactIn
from engram.models.json_values import NOT_BLANK, NUMBER_ONLY, Flag, Float64, Int64, JSONObject
from engram.timeutil import UtcDatetime, zone_named

MAX_FILTER_VALUES = 100
"""Most values one list filter (intent, source, actor_id) may hold: each is a bound SQL parameter."""
MAX_METADATA_FILTERS = 32
"""Most metadata keys one search may filter on: each is a condition in the SQL."""

LIST_LIMIT_MAX = 500
"""Most items one page of episodes or operations holds (library, REST and MCP alike)."""

MetadataValue = str | int | float | bool | None
EpisodeStatus = Literal["active", "archived"]


GroupId = Annotated[
    str, Field(pattern=ID_PATTERN, description="Namespace of the memory (user, team, tenant).")
]
Label = Annotated[str, Field(min_length=1, max_length=128, pattern=NOT_BLANK)]
ActorId = Annotated[str, Field(min_length=1, max_length=256, pattern=NOT_BLANK)]


def _content_schema(schema: dict[str, Any]) -> None:
    """State in the schema what ``EpisodeIn._content_not_empty`` checks (it words the errors)."""
    for branch in schema.get("anyOf", []):
        if branch.get("type") == "string":
            branch.update(minLength=1, pattern=NOT_BLANK)
        elif branch.get("type") == "object":
            branch["minProperties"] = 1


Reference = Annotated[str, Field(min_length=1, max_length=1024, pattern=NOT_BLANK)]


MAX_EMBEDDING_DIMENSIONS = 4096
_FLOATS: TypeAdapter[list[float]] = TypeAdapter(list[float])


def _embedding(value: Any) -> npt.NDArray[np.float32]:
    """Return a caller's embedding as float32.

    A list of numbers is packed by ``struct`` (~25 µs for 384, against ~60 µs for numpy and
    ~40 µs for a pydantic ``list[float]`` then as much again to make it an array); anything else
    goes through ``list[float]``, which takes what it takes (numeric strings) or refuses it at the
    item (its ValidationError passes through: pydantic names ``embedding.1``).
    """
    if isinstance(value, list | tuple) and 1 <= len(value) <= MAX_EMBEDDING_DIMENSIONS:
        try:
            return np.frombuffer(struct.pack(f"{len(value)}f", *value), dtype=np.float32)
        except (struct.error, OverflowError, TypeError):
            pass  # not all plain numbers: validated item by item below
    elif isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind in "biuf":
        value = value.tolist()
    elif not isinstance(value, list | tuple):
        raise ValueError("must be an array of numbers")
    floats = _FLOATS.validate_python(value)
    if not 1 <= len(floats) <= MAX_EMBEDDING_DIMENSIONS:
        raise ValueError(f"must hold 1 to {MAX_EMBEDDING_DIMENSIONS} numbers, not {len(floats)}")
    return np.asarray(floats, dtype=np.float32)


Embedding = Annotated[
    npt.NDArray[np.float32],
    PlainValidator(_embedding),
    PlainSerializer(lambda array: array.tolist(), return_type=list[float]),
    WithJsonSchema(
        {"items": {"type": "number"}, "maxItems": MAX_EMBEDDING_DIMENSIONS, "minItems": 1, "type": "array"}
    ),
]
"""A vector as a list of numbers in JSON, held as a float32 array."""


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class Actor(_Input):
    """Who produced an episode: ``{"type": "user", "id": "u_42", "name": "Li Qiang"}``."""

    type: Label = Field(default="user", description="user, agent, system, tool, ...")
    id: ActorId = Field(description="Stable id of the actor.")
    name: Annotated[str, Field(max_length=256)] | None = Field(default=None, description="Display name.")


def check_metadata_zone(metadata: dict[str, Any] | None) -> None:
    """Check ``metadata.timezone`` (the zone its days and clock times are in,
    engram.nlp.dates.reference_of): absent, null (a patch removing it) or an IANA name; else raise
    ValueError naming it (a 422 through pydantic)."""
    zone = (metadata or {}).get("timezone")
    if zone is None:
        return
    if not isinstance(zone, str):
        raise ValueError(
            "timezone must be an IANA time zone name such as Asia/Shanghai, not a " + type(zone).__name__
        )
    try:
        zone_named(zone, "metadata.timezone")
    except InvalidInput as exc:
        raise ValueError(f"timezone {exc.detail}") from exc


class EpisodeIn(_Input):
    """A new episode, as a client sends it (POST /v1/episodes, MCP ``create_episode``).

    ``content`` is text, or a JSON object that is stored as canonical JSON text with
    ``source_type`` "json". ``timestamp`` defaults to the time of receipt.
    """

    id: Annotated[str, Field(pattern=ID_PATTERN)] | None = None
    group_id: GroupId | None = None
    timestamp: UtcDatetime | None = None
    source: Label | None = None
    source_type: Label | None = None
    actor: Actor | None = None
    intent: Label | None = None
    content: str | JSONObject = Field(json_schema_extra=_content_schema)
    metadata: JSONObject = Field(default_factory=dict)
    references: list[Reference] = Field(default_factory=list, max_length=256)
    entities: list[EntityIn] | None = Field(
        default=None,
        max_length=256,
        description="Entities the caller extracted itself (skips server extraction).",
    )
    facts: list[FactIn] | None = Field(
        default=None,
        max_length=512,
        description="Facts the caller extracted itself; subjects/objects name entities.",
    )
    embedding: Embedding | None = Field(
        default=None,
        description="The episode's vector, computed by the caller with the store's embedder (as many "
        "numbers as its dimensions; scaled to unit length): stored at once instead of embedded later.",
    )

    @field_validator("content")
    @classmethod
    def _content_not_empty(cls, value: str | dict[str, Any]) -> str | dict[str, Any]:
        if isinstance(value, str) and not value.strip():
            raise ValueError("content must not be empty")
        if isinstance(value, dict) and not value:
            raise ValueError("content must not be an empty object")
        return value

    @field_validator("metadata")
    @classmethod
    def _zone_known(cls, value: dict[str, Any]) -> dict[str, Any]:
        check_metadata_zone(value)
        return value

    def content_text(self) -> str:
        """Return the content as stored: the text, or the object as canonical JSON."""
        if isinstance(self.content, dict):
            return json.dumps(self.content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return self.content


class Episode(BaseModel):
    """One stored version of an episode. ``version`` starts at 1; its ETag is ``"<version>"``."""

    id: str
    group_id: str
    version: int
    timestamp: datetime = Field(description="When it happened (UTC).")
    recorded_at: datetime = Field(description="When this version was stored (UTC).")
    expired_at: datetime | None = Field(default=None, description="When this version was superseded.")
    source: str | None = None
    source_type: str
    actor: Actor | None = None
    intent: str | None = None
    content: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    references: list[str] = Field(default_factory=list)
    fingerprint: str
    status: EpisodeStatus = "active"
    operation_id: str = Field(description="The operation that created this version.")

    @property
    def etag(self) -> str:
        """Return the HTTP entity tag of this version."""
        return f'"{self.version}"'


class CreatedEpisode(BaseModel):
    """The answer to a create: the stored episode, and whether it already existed."""

    episode: Episode
    deduplicated: bool
    unknown_predicates: list[str] = Field(
        default_factory=list,
        description="Supplied predicates the registry does not know: kept as given, many-valued.",
    )


class EpisodePatch(_Input):
    """A JSON merge patch (RFC 7396) of the mutable parts of an episode.

    Absent fields are left alone; ``null`` clears ``intent`` or, inside ``metadata``, removes a key.
    Content, actor and timestamp are immutable: a correction is a new episode.
    """

    metadata: JSONObject | None = Field(
        default=None, description="Merged key by key; a null value deletes that key."
    )
    intent: Label | None = Field(default=None, description="New intent; null clears it.")
    status: EpisodeStatus | None = Field(default=None, description="active or archived.")
    references: list[Reference] | None = Field(
        default=None, max_length=256, description="Replaces the list of referenced ids or URLs."
    )

    @field_validator("metadata")
    @classmethod
    def _zone_known(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        check_metadata_zone(value)
        return value


class EpisodeFilters(_Input):
    """Filters applied in the store before any ranking. Lists mean "any of".

    Bounded (``MAX_FILTER_VALUES`` values a list, ``MAX_METADATA_FILTERS`` metadata keys) so a
    filter is refused with a 422 naming it before any SQL is built.
    """

    intent: list[Label] = Field(
        default_factory=list, max_length=MAX_FILTER_VALUES, description="Any of these intents."
    )
    source: list[Label] = Field(
        default_factory=list, max_length=MAX_FILTER_VALUES, description="Any of these sources."
    )
    actor_id: list[ActorId] = Field(
        default_factory=list, max_length=MAX_FILTER_VALUES, description="Any of these actor ids."
    )
    timestamp_after: UtcDatetime | None = Field(default=None, description="Inclusive lower bound.")
    timestamp_before: UtcDatetime | None = Field(default=None, description="Exclusive upper bound.")
    metadata: dict[
        Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$")],
        Annotated[str, Field(max_length=1024)] | bool | Int64 | Float64 | None,
    ] = Field(
        default_factory=dict,
        max_length=MAX_METADATA_FILTERS,
        description="Exact matches on top-level metadata keys.",
        json_schema_extra={"additionalProperties": False},
    )
    # Time travel, set by Memory from a request's own ``known_at``/``as_of`` (not a filter clients
    # send inside ``filters``, hence absent from the schema): the store reads the versions held
    # at ``known_at`` (transaction time) and keeps episodes with ``timestamp <= as_of`` (valid time).
    known_at: SkipJsonSchema[UtcDatetime | None] = None
    as_of: SkipJsonSchema[UtcDatetime | None] = None


KNOWN_AT = "Transaction time (UTC): read what the memory held then; not in the future."
AS_OF = "Valid time (UTC): only episodes that had happened by then (timestamp <= as_of)."


class SearchQuery(_Input):
    """An episode search. An empty query with filters lists matching episodes newest first."""

    query: str = Field(default="", max_length=MAX_QUERY_LENGTH)
    group_id: GroupId | None = None
    filters: EpisodeFilters = Field(default_factory=EpisodeFilters)
    limit: Annotated[int, Field(ge=1, le=SEARCH_LIMIT_MAX), NUMBER_ONLY] = 10
    explain: Flag = False
    intent: Label | None = Field(default=None, description="Boost episodes with this intent.")
    reference_time: UtcDatetime | None = Field(
        default=None, description='What "last week" in the query is relative to; default now.'
    )
    mmr: Flag = Field(default=False, description="Diversify results (maximal marginal relevance).")
    min_score: Annotated[float, Field(strict=True, ge=0, allow_inf_nan=False)] | None = Field(
        default=None, description="Drop hits scoring lower."
    )
    context: Flag = Field(
        default=False, description="Add each hit's previous and next episode of its thread."
    )
    group_by_thread: Flag = Field(default=False, description="Also group the hits by thread (session).")
    known_at: UtcDatetime | None = Field(default=None, description=KNOWN_AT)
    as_of: UtcDatetime | None = Field(default=None, description=AS_OF)
    cursor: str | None = Field(
        default=None, max_length=512, description="next_cursor of the previous page of this same query."
    )

    @field_validator("filters")
    @classmethod
    def _no_time_travel_in_filters(cls, value: EpisodeFilters) -> EpisodeFilters:
        if value.known_at is not None or value.as_of is not None:
            raise ValueError("known_at and as_of go at the top level of the query, not in filters")
        return value


class EpisodeContext(BaseModel):
    """The episodes around a hit in its thread (session, conversation)."""

    previous: Episode | None = None
    next: Episode | None = None


class SearchHit(BaseModel):
    """One search result: the episode, its score, its citation and, on request, why it ranked."""

    episode: Episode
    score: float
    citation: str = Field(description="`[source: <episode id>]`")
    explanation: dict[str, Any] | None = None
    context: EpisodeContext | None = None


class ThreadHits(BaseModel):
    """The hits of one thread (session, conversation), in rank order."""

    thread: str | None = Field(description="``<source>/<thread key>``; None for an episode without one.")
    episode_ids: list[str]
    best_score: float


class SearchResponse(BaseModel):
    """Search results, best first, plus warnings such as a truncated query."""

    results: list[SearchHit]
    warnings: list[str] = Field(default_factory=list)
    threads: list[ThreadHits] | None = Field(default=None, description="With group_by_thread only.")
    next_cursor: str | None = Field(
        default=None, description="Pass back as cursor (same query) for the next hits; null: no more."
    )


class EpisodePage(BaseModel):
    """A page of episodes, newest first; pass ``next_cursor`` back to get the next page."""

    items: list[Episode]
    next_cursor: str | None = None


OPERATION_KINDS = frozenset(
    {
        "ingest",  # create_episode
        "import",  # create_episodes: a batch, an importer
        "update",  # a new episode version (PATCH)
        "extraction_status",  # the extractor failed or succeeded again (episode metadata)
        "extract",  # the graph built from episodes
        "add_facts",  # facts added to a stored episode
        "reextract",  # the graph of episodes whose extraction had failed
        "merge",  # two entities merged
        "delete",  # an episode retracted
        "revert",  # an operation undone
        "purge",  # an episode erased
        "archive",  # inactive facts moved to cold storage
        "entity_update",  # a person edited an entity's attributes
        "distinct",  # a person judged two entities not the same (a merge candidate dismissed)
        "arbitrate",  # a person settled disputed facts
    }
)
"""Every kind of operation Engram records."""


class Operation(BaseModel):
    """One audited change to the memory."""

    id: str
    group_id: str
    kind: str = Field(description="ingest · update · import · …")
    actor: str | None = None
    created_at: datetime
    summary: str
    details: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def begin(
        cls, group_id: str, kind: str, summary: str, *, at: datetime, actor: str | None = None
    ) -> Operation:
        """Return a new operation (a fresh ``op_…`` id) of ``kind`` in ``group_id``, created ``at``."""
        return cls(id=new_id("op"), group_id=group_id, kind=kind, actor=actor, created_at=at, summary=summary)


class BatchProblem(BaseModel):
    """Why one item of a batch was not stored: the problem+json members of its error."""

    status: int = Field(description="The HTTP status the item alone would have had (422, 409…).")
    title: str
    detail: str
    field: str | None = Field(default=None, description="The offending field of the item, e.g. content.")


class BatchItemResult(BaseModel):
    """The answer for one item of a batch, in request order."""

    index: int
    status: Literal["created", "deduplicated", "failed"]
    episode: Episode | None = None
    problem: BatchProblem | None = None


class BatchResult(BaseModel):
    """Per-item answers of a batch create, and how many were created, deduplicated and failed."""

    results: list[BatchItemResult]
    created: int
    deduplicated: int
    failed: int
