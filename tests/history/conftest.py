"""The history tests' Memory: on each backend, building its graph only from what the caller
supplies (exact control over entities and facts)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engram import Memory, Settings


@pytest.fixture
def memory(backend: dict[str, Any]) -> Iterator[Memory]:
    with Memory.open(settings=Settings(**backend, embedder="none", extractor="none")) as opened:
        yield opened
