"""Open the store the settings name: SQLite in ``data_dir`` by default, PostgreSQL for a URL.

This is the one place that chooses a backend; everything else speaks the Storage protocol.
"""

from __future__ import annotations

from pathlib import Path

from engram.config import Settings
from engram.errors import InvalidInput
from engram.storage.engine import SQLStorage

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_sqlite(path: Path | str) -> SQLStorage:
    """Return the store on the SQLite file at ``path`` (created, or migrated, as needed).

    Raises StoreError when the file's schema is newer than this Engram knows.
    """
    from engram.storage.sqlite.backend import SQLiteBackend

    return SQLStorage(SQLiteBackend(path))


def open_postgres(conninfo: str, *, pool_size: int = 10, timeout: float = 10.0) -> SQLStorage:
    """Return the store on a PostgreSQL database (a ``postgresql://`` URL or libpq key=value string).

    Raises StoreError when the database cannot be reached, lacks pgvector, or has a newer schema.
    """
    from engram.storage.postgres.backend import PostgresBackend

    return SQLStorage(PostgresBackend(conninfo, pool_size=pool_size, timeout=timeout))


def open_store(settings: Settings) -> SQLStorage:
    """Return the store ``settings.database_url`` names, or the SQLite file in ``data_dir``.

    PostgreSQL gets a pool of ``settings.database_pool_size`` connections.

    Raises InvalidInput (field ``ENGRAM_DATABASE_URL``) for a URL of another kind, and
    StoreError when the database cannot be opened.
    """
    if settings.database_url is None:
        return open_sqlite(settings.database_path)
    url = settings.database_url.get_secret_value()
    if not url.startswith(POSTGRES_SCHEMES):
        raise InvalidInput(
            "the database URL must start with postgresql:// (unset it for the embedded SQLite store)",
            field="ENGRAM_DATABASE_URL",
        )
    return open_postgres(url, pool_size=settings.database_pool_size)
