"""Open the store the settings name: SQLite in ``data_dir`` by default, PostgreSQL for a URL.

This is the one place that chooses a backend; everything else speaks the Storage protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engram.config import Settings
from engram.errors import InvalidInput
from engram.storage.engine import SQLStorage

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_sqlite(
    path: Path | str, *, vector_cache_mb: int = 4096, indexed_metadata_keys: Sequence[str] = ()
) -> SQLStorage:
    """Return the store on the SQLite file at ``path`` (created, or migrated, as needed).

    At most ``vector_cache_mb`` MiB of episode vectors stay in memory; each of
    ``indexed_metadata_keys`` gets an index of its values. Raises StoreError when the file's
    schema is newer than this Engram knows.
    """
    from engram.storage.sqlite.backend import SQLiteBackend

    backend = SQLiteBackend(path, vector_cache_bytes=vector_cache_mb << 20)
    return SQLStorage(backend, indexed_metadata_keys=indexed_metadata_keys)


def open_postgres(
    conninfo: str,
    *,
    pool_size: int = 10,
    timeout: float = 10.0,
    vector_cache_mb: int = 4096,
    indexed_metadata_keys: Sequence[str] = (),
) -> SQLStorage:
    """Return the store on a PostgreSQL database (a ``postgresql://`` URL or libpq key=value string).

    At most ``vector_cache_mb`` MiB of episode vectors stay in memory (for filtered searches);
    each of ``indexed_metadata_keys`` gets an index of its values. Raises StoreError when the
    database cannot be reached, lacks pgvector, or has a newer schema.
    """
    from engram.storage.postgres.backend import PostgresBackend

    backend = PostgresBackend(
        conninfo, pool_size=pool_size, timeout=timeout, vector_cache_bytes=vector_cache_mb << 20
    )
    return SQLStorage(backend, indexed_metadata_keys=indexed_metadata_keys)


def open_store(settings: Settings) -> SQLStorage:
    """Return the store ``settings.database_url`` names, or the SQLite file in ``data_dir``.

    PostgreSQL gets a pool of ``settings.database_pool_size`` connections.

    Raises InvalidInput (field ``ENGRAM_DATABASE_URL``) for a URL of another kind, and
    StoreError when the database cannot be opened.
    """
    keys = settings.indexed_metadata_keys
    if settings.database_url is None:
        return open_sqlite(
            settings.database_path, vector_cache_mb=settings.vector_cache_mb, indexed_metadata_keys=keys
        )
    url = settings.database_url.get_secret_value()
    if not url.startswith(POSTGRES_SCHEMES):
        raise InvalidInput(
            "the database URL must start with postgresql:// (unset it for the embedded SQLite store)",
            field="ENGRAM_DATABASE_URL",
        )
    return open_postgres(
        url,
        pool_size=settings.database_pool_size,
        vector_cache_mb=settings.vector_cache_mb,
        indexed_metadata_keys=keys,
    )
