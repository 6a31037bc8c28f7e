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
    BatchItemResult,
    BatchProblem,
    BatchResult,
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

__version__ = "0.1.0"

__all__ = [
    "Actor",
    "AddFacts",
    "BatchItemResult",
    "BatchProblem",
    "BatchResult",
    "Conflict",
    "CreatedEpisode",
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
    "Extraction",
    "Fact",
    "FactHit",
    "FactIn",
    "FactSearch",
    "FactSearchResponse",
    "InvalidInput",
    "Memory",
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
