"""Open the store the settings name: SQLite in ``data_dir`` by default, PostgreSQL for a URL.

This is the one place that chooses a backend; everything else speaks the Store protocol.
"""

from __future__ import annotations

from engram.config import Settings
from engram.errors import InvalidInput
from engram.storage.protocol import Store

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(settings: Settings) -> Store:
    """Return the store ``settings.database_url`` names, or the SQLite file in ``data_dir``.

    PostgreSQL gets a pool of ``settings.database_pool_size`` connections.

    Raises InvalidInput (field ``ENGRAM_DATABASE_URL``) for a URL of another kind, and
    StoreError when the database cannot be opened.
    """
    if settings.database_url is None:
        from engram.storage.sqlite.store import SQLiteStore

        return SQLiteStore(settings.database_path)
    url = settings.database_url.get_secret_value()
    if not url.startswith(POSTGRES_SCHEMES):
        raise InvalidInput(
            "the database URL must start with postgresql:// (unset it for the embedded SQLite store)",
            field="ENGRAM_DATABASE_URL",
        )
    from engram.storage.postgres.store import PostgresStore

    return PostgresStore(url, pool_size=settings.database_pool_size)
