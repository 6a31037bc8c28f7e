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
from engram.models.stats import EpisodeCount, MemoryStats

__version__ = "0.1.0"

__all__ = [
    "Actor",
    "AddFacts",
    "Conflict",
    "CreatedEpisode",
    "EngramError",
    "Entity",
    "EntityIn",
    "EntityView",
    "Episode",
    "EpisodeContext",
    "EpisodeCount",
    "EpisodeFilters",
    "EpisodeIn",
    "EpisodePage",
    "EpisodePatch",
    "Extraction",
    "Fact",
    "FactHit",
    "FactIn",
    "FactSearch",
    "FactSearchResponse",
    "InvalidInput",
    "Memory",
    "MemoryStats",
    "NotFound",
    "Operation",
    "PreconditionFailed",
    "PreconditionRequired",
    "SearchHit",
    "SearchQuery",
    "SearchResponse",
    "Settings",
    "StoreError",
    "ThreadHits",
    "__version__",
]
