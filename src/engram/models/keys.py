"""API keys as Engram stores and shows them: never the key itself, only its name, role and groups."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

Role = Literal["read", "write", "admin"]
"""What a key may do: ``read`` reads, ``write`` also changes memory, ``admin`` also reverts,
merges and archives."""
ROLES: tuple[Role, ...] = ("read", "write", "admin")


class ApiKey(BaseModel):
    """One API key (its digest stays in the store; the key is shown once, at creation)."""

    id: str = Field(description="The key's id (key_…).")
    name: str = Field(description="Unique name; recorded as the actor of every operation the key makes.")
    role: Role
    group_ids: list[str] | None = Field(
        description="The groups the key may read and write; null: every group."
    )
    prefix: str = Field(description="The key's first characters, to recognise it (not enough to use it).")
    created_at: datetime
    expires_at: datetime | None = Field(default=None, description="When the key stops working; null: never.")
    revoked_at: datetime | None = None
    last_used_at: datetime | None = Field(
        default=None, description="When the key was last accepted, to within a minute."
    )


class CreatedKey(BaseModel):
    """A new key and its secret: the secret is returned here once and never stored."""

    key: ApiKey
    secret: str = Field(description="The API key to send as ``Authorization: Bearer <secret>``.")
