"""Input helpers of Memory: fingerprints, metadata depth, validation that names the field, cursors."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np
from pydantic import ValidationError

from engram.errors import InvalidInput
from engram.models.episodes import EpisodeIn
from engram.models.graph import Extraction
from engram.nlp.embed import Embedder
from engram.storage.types import PageKey, Vector
from engram.validation import explain


def fingerprint(intent: str | None, content: str, actor_id: str | None) -> str:
    """Return ``sha256(intent + content + actor.id)`` as hex, fields joined by U+001F.

    The separator keeps ("ab", "c") and ("a", "bc") apart.
    """
    payload = "\x1f".join((intent or "", content, actor_id or ""))
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def supplied_extraction(episode_in: EpisodeIn) -> Extraction | None:
    """Return the entities and facts the caller extracted itself, or None when it sent none."""
    if episode_in.entities is None and episode_in.facts is None:
        return None
    return Extraction(entities=episode_in.entities or [], facts=episode_in.facts or [])


def given_vector(embedding: Sequence[float] | Vector, embedder: Embedder | None) -> Vector:
    """Return a caller's embedding at unit length.

    Raises InvalidInput(field="embedding") unless it fits ``embedder`` (the store's): one number
    per dimension, finite, not all zero. Without an embedder the memory stores no vectors.
    """
    if embedder is None:
        raise InvalidInput("this memory has no embedder, so it stores no vectors", field="embedding")
    if len(embedding) != embedder.dimensions:
        raise InvalidInput(
            f"embedding has {len(embedding)} numbers; this store's embedder ({embedder.name}) makes "
            f"{embedder.dimensions}",
            field="embedding",
        )
    vector = np.asarray(embedding, dtype=np.float32)
    norm = math.sqrt(float(vector @ vector))  # np.linalg.norm costs thrice as much on one vector
    if not math.isfinite(norm) or norm == 0.0:
        raise InvalidInput("embedding must be finite numbers, not all zero", field="embedding")
    result: Vector = vector / np.float32(norm)
    return result


def validated(model: type[Any], value: Any, what: str) -> Any:
    """Return ``value`` as ``model``; a pydantic error becomes InvalidInput naming the field."""
    if isinstance(value, model):
        return value
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        field, message = explain(exc.errors(), what)[0]
        raise InvalidInput(f"{field}: {message}", field=field) from exc


def merge_patch(target: dict[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """Apply a JSON merge patch (RFC 7396) to a copy of ``target``."""
    result = dict(target)
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        elif isinstance(value, Mapping) and isinstance(result.get(key), dict):
            result[key] = merge_patch(result[key], value)
        else:
            result[key] = value
    return result


def encode_cursor(key: PageKey) -> str:
    """Return an opaque cursor for the position after ``key``."""
    raw = json.dumps([key.timestamp.isoformat(), key.id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> PageKey:
    """Return the position a cursor encodes. Raises InvalidInput(field="cursor")."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        stamp, episode_id = json.loads(raw)
        return PageKey(datetime.fromisoformat(stamp), str(episode_id))
    except (ValueError, TypeError, binascii.Error) as exc:
        raise InvalidInput("cursor is not one this server issued", field="cursor") from exc
