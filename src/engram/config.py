"""Typed settings, read once at the edge (CLI start-up, app factory) and passed down.

Sources, highest first: explicit arguments, environment variables ``ENGRAM_*``, defaults.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Engram's settings; every field can be set as ``ENGRAM_<FIELD>`` in the environment."""

    model_config = SettingsConfigDict(env_prefix="ENGRAM_", extra="ignore", frozen=True)

    data_dir: Path = Field(default=Path("engram-data"), description="Directory of the SQLite store.")
    default_group: str = Field(default="default", pattern=r"^[A-Za-z0-9._:-]{1,128}$")
    max_content_bytes: int = Field(
        default=256 * 1024, gt=0, description="Largest episode content, UTF-8 bytes."
    )
    max_query_chars: int = Field(default=1000, gt=0, description="Longer search queries are truncated.")
    import_batch_size: int = Field(default=500, gt=0, description="Episodes per import transaction.")

    @property
    def database_path(self) -> Path:
        """Return the SQLite file inside ``data_dir``."""
        return self.data_dir / "engram.db"
