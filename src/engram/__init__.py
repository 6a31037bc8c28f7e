"""Engram: long-term memory for AI agents.

The public surface is this module's ``__all__``; everything else is private.
"""

from engram.config import Settings
from engram.errors import (
    Conflict,
    EngramError,
    InvalidInput,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    StoreError,
)
from engram.memory import Memory
from engram.models.episodes import (
    Actor,
    CreatedEpisode,
    Episode,
    EpisodeContext,
    EpisodeFilters,
    EpisodeIn,
    EpisodePage,
    EpisodePatch,
    Operation,
    SearchHit,
    SearchQuery,
    SearchResponse,
    ThreadHits,
)
from engram.models.graph import (
    AddFacts,
    Entity,
    EntityIn,
    EntityView,
    Extraction,
    Fact,
    FactHit,
    FactIn,
    FactSearch,
    FactSearchResponse,
)
from engram.models.review import Dispute, EpisodeSupport, HealthReport, Intent, MergeEvidence, RevertPreview

__version__ = "0.1.0"

__all__ = [
    "Actor",
    "AddFacts",
    "Conflict",
    "CreatedEpisode",
    "Dispute",
    "EngramError",
    "Entity",
    "EntityIn",
    "EntityView",
    "Episode",
    "EpisodeContext",
    "EpisodeFilters",
    "EpisodeIn",
    "EpisodePage",
    "EpisodePatch",
    "EpisodeSupport",
    "Extraction",
    "Fact",
    "FactHit",
    "FactIn",
    "FactSearch",
    "FactSearchResponse",
    "HealthReport",
    "Intent",
    "InvalidInput",
    "Memory",
    "MergeEvidence",
    "NotFound",
    "Operation",
    "PreconditionFailed",
    "PreconditionRequired",
    "RevertPreview",
    "SearchHit",
    "SearchQuery",
    "SearchResponse",
    "Settings",
    "StoreError",
    "ThreadHits",
    "__version__",
]
