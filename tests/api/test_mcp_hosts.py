"""MCP over HTTP admits only loopback Host headers when bound to loopback, any when bound remotely."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from engram import Memory
from engram.api.app import create_app

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.mark.parametrize(
    ("bind", "host_header", "admitted"),
    [
        ("127.0.0.1", "127.0.0.1:8765", True),
        ("127.0.0.1", "memory.example.org", False),
        ("0.0.0.0", "memory.example.org", True),
    ],
)
def test_host_header_policy_follows_the_bind_address(
    memory: Memory, bind: str, host_header: str, admitted: bool
) -> None:
    with TestClient(create_app(memory, host=bind), base_url=f"http://{host_header}") as client:
        response = client.post("/mcp", json=INITIALIZE, headers=HEADERS)
    assert (response.status_code == 200) is admitted, response.text
