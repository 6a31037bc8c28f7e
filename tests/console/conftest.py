"""Console fixtures: the whole app through the ASGI stack, a seeded memory, forms with their CSRF token."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from console.seed import Seeded, seed
from engram import Memory
from engram.api.app import create_app

KEYS = {
    "read-key": ("rita", "read", ["default", "team-a"]),
    "write-key": ("walt", "write", ["default", "team-a"]),
    "admin-key": ("ada", "admin", None),
    "team-a-key": ("tam", "write", ["team-a"]),
}
"""The API keys ``with_keys`` creates in the store: label → (name, role, group_ids)."""


def csrf(page: httpx.Response) -> str:
    """Return the CSRF token a rendered page carries in its forms."""
    found = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert found is not None, "the page has no form with a CSRF token"
    return found.group(1)


def text(page: httpx.Response) -> str:
    """Return a page's visible text, whitespace collapsed (tags dropped)."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.text)))


def submit(
    client: TestClient, page: str, action: str, data: dict[str, Any], headers: dict[str, str] | None = None
) -> httpx.Response:
    """GET ``page`` (for its CSRF token), then POST ``data`` to ``action`` without following redirects."""
    token = csrf(client.get(page, headers=headers))
    return client.post(action, data={"csrf_token": token, **data}, headers=headers, follow_redirects=False)


@pytest.fixture
def seeded(memory: Memory) -> Seeded:
    return seed(memory)


@pytest.fixture
def admin(memory: Memory, seeded: Seeded) -> Iterator[TestClient]:
    """The console on loopback with no keys: everyone is the local administrator."""
    with TestClient(create_app(memory), base_url="http://127.0.0.1") as client:
        yield client


@pytest.fixture
def secrets(memory: Memory) -> dict[str, str]:
    """Create the API keys of KEYS in the store; return label → the key's secret."""
    return {
        label: memory.keys.create(role, groups, name).secret for label, (name, role, groups) in KEYS.items()
    }


@pytest.fixture
def with_keys(memory: Memory, seeded: Seeded, secrets: dict[str, str]) -> Iterator[Callable[..., TestClient]]:
    """Return a factory of clients of the console on a store with API keys (KEYS), signed in with
    the key labelled ``key`` if given."""
    opened: list[TestClient] = []

    def make(key: str | None = None, *, host: str = "127.0.0.1") -> TestClient:
        client = TestClient(create_app(memory, host=host), base_url="http://127.0.0.1")
        client.__enter__()
        opened.append(client)
        if key is not None:
            data = {"key": secrets[key], "next": "/admin/health"}
            signed = submit(client, "/admin/sign-in", "/admin/sign-in", data)
            assert signed.status_code == 303, signed.text
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)
