"""Engram: long-term memory for AI agents.

The public surface is this module's ``__all__``; everything else is private.
"""

from engram.access import Principal
from engram.config import Settings
from engram.errors import (
    Conflict,
    EmbedderError,
    EngramError,
    ExtractionError,
    Forbidden,
    InvalidInput,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    StoreError,
    Unauthorized,
)
from engram.ingest.intents import IntentClassifier
from engram.keys import Keyring
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
    ArchiveResult,
    Entity,
    EntityIn,
    EntityView,
    Extraction,
    Fact,
    FactHit,
    FactIn,
    FactsAdded,
    FactSearch,
    FactSearchResponse,
    MergeCandidateView,
)
from engram.models.history import OperationPage, OperationView, PurgeReport, VersionChange
from engram.models.intents import Intent
from engram.models.keys import ApiKey, CreatedKey
from engram.models.references import ReferenceCitation, ReferencePage, ReferenceVersion
from engram.models.review import Dispute, EpisodeSupport, HealthReport, MergeEvidence, RevertPreview
from engram.models.stats import EpisodeCount, MemoryStats
from engram.portable.base import ImportStats, Problem
from engram.portable.group_format import ImportCounts

__version__ = "0.1.0"

__all__ = [
    "Actor",
    "AddFacts",
    "ApiKey",
    "ArchiveResult",
    "BatchItemResult",
    "BatchProblem",
    "BatchResult",
    "Conflict",
    "CreatedEpisode",
    "CreatedKey",
    "Dispute",
    "EmbedderError",
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
    "EpisodeSupport",
    "Extraction",
    "ExtractionError",
    "Fact",
    "FactHit",
    "FactIn",
    "FactSearch",
    "FactSearchResponse",
    "FactsAdded",
    "Forbidden",
    "HealthReport",
    "ImportCounts",
    "ImportStats",
    "Intent",
    "IntentClassifier",
    "InvalidInput",
    "Keyring",
    "Memory",
    "MemoryStats",
    "MergeCandidateView",
    "MergeEvidence",
    "NotFound",
    "Operation",
    "OperationPage",
    "OperationView",
    "PreconditionFailed",
    "PreconditionRequired",
    "Principal",
    "Problem",
    "PurgeReport",
    "ReferenceCitation",
    "ReferencePage",
    "ReferenceVersion",
    "RevertPreview",
    "SearchHit",
    "SearchQuery",
    "SearchResponse",
    "Settings",
    "StoreError",
    "ThreadHits",
    "Unauthorized",
    "VersionChange",
    "__version__",
]
