"""The HTTP edge over the real ASGI stack: trusted hosts, origins, CORS, body size, request ids, 500s."""

from __future__ import annotations

import logging
import re
import socket
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.datastructures import Headers
from typer.testing import CliRunner

from conftest import LOOPBACK
from engram import Memory
from engram.api.app import create_app
from engram.api.edge import Principal, open_access
from engram.cli import app
from engram.config import Settings
from mcp_clients import engram_serve

PROBLEM = "application/problem+json"
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
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def configured(tmp_path: Path) -> Iterator[Memory]:
    """Yield a Memory whose settings trust one more host, allow one CORS origin, and take 4 KiB bodies."""
    settings = Settings(
        data_dir=tmp_path / "configured",
        embedder="none",
        trusted_hosts=["memory.example.org", "*.corp.example"],
        cors_origins=["https://app.example.org"],
        max_body_bytes=4096,
    )
    with Memory.open(settings=settings) as memory:
        yield memory


def assert_problem(response: httpx.Response, status: int, field: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["field"] == field
    assert body["request_id"] == response.headers["x-request-id"]
    return body


def call(client: TestClient, target: str, **kwargs: Any) -> httpx.Response:
    """Send the request ``target`` names: ``/mcp`` an MCP initialize, others a GET or an episode POST."""
    if target == "/mcp":
        headers = {**MCP_HEADERS, **kwargs.pop("headers", {})}
        return client.post("/mcp", json=INITIALIZE, headers=headers, **kwargs)
    if target == "POST /v1/episodes":
        return client.post("/v1/episodes", json={"content": "hello"}, **kwargs)
    return client.get(target, **kwargs)


TARGETS = ["/v1/episodes", "POST /v1/episodes", "/mcp", "/metrics", "/openapi.json", "/healthz", "/docs"]


@pytest.mark.parametrize("target", TARGETS)
def test_a_foreign_host_is_refused_on_every_route(memory: Memory, target: str) -> None:
    with TestClient(create_app(memory), base_url="http://rebound.attacker.example:8765") as client:
        response = call(client, target)
        body = assert_problem(response, 421, "Host")
    assert "rebound.attacker.example" in body["detail"]
    assert memory.store.counts()["episodes"] == 0


@pytest.mark.parametrize("host", ["localhost:8765", "127.0.0.1", "[::1]:8765"])
@pytest.mark.parametrize("target", ["/v1/episodes", "/mcp"])
def test_loopback_names_are_served(memory: Memory, host: str, target: str) -> None:
    with TestClient(create_app(memory), base_url=f"http://{host}") as client:
        assert call(client, target).status_code == 200


@pytest.mark.parametrize(
    ("bind", "host", "served"),
    [
        ("10.1.2.3", "10.1.2.3:8765", True),  # the address the server binds
        ("10.1.2.3", "10.9.9.9:8765", False),
        ("0.0.0.0", "10.1.2.3:8765", False),  # all interfaces names no host: configure them
    ],
)
def test_the_bound_address_is_served(memory: Memory, bind: str, host: str, served: bool) -> None:
    key = memory.keys.create("read", ["default"]).secret  # off loopback, every caller needs a key
    with TestClient(create_app(memory, host=bind), base_url=f"http://{host}") as client:
        for target in ("/v1/episodes", "/mcp"):
            answer = call(client, target, headers={"Authorization": f"Bearer {key}"})
            assert (answer.status_code == 200) is served
            assert answer.status_code == 200 or answer.json()["field"] == "Host"


@pytest.mark.parametrize("host", ["memory.example.org", "eu.corp.example", "localhost"])
@pytest.mark.parametrize("target", ["/v1/episodes", "/mcp"])
def test_configured_hosts_are_served_besides_loopback(configured: Memory, host: str, target: str) -> None:
    key = configured.keys.create("read", ["default"]).secret
    with TestClient(create_app(configured, host="0.0.0.0"), base_url=f"http://{host}") as client:
        assert call(client, target, headers={"Authorization": f"Bearer {key}"}).status_code == 200


def test_a_malformed_host_is_refused(memory: Memory) -> None:
    with TestClient(create_app(memory), base_url=LOOPBACK) as client:
        assert_problem(client.get("/v1/episodes", headers={"Host": "127.0.0.1:port"}), 421, "Host")


@pytest.mark.parametrize("target", ["POST /v1/episodes", "/mcp"])
def test_a_foreign_origin_is_refused(memory: Memory, target: str) -> None:
    with TestClient(create_app(memory), base_url=LOOPBACK) as client:
        response = call(client, target, headers={"Origin": "https://evil.example"})
        assert_problem(response, 403, "Origin")
        page = call(client, target, headers={"Origin": "http://127.0.0.1:8765"})  # the server's own page
        assert page.status_code in {200, 201}, page.text
    assert memory.store.counts()["episodes"] == (1 if target.startswith("POST") else 0)


def test_cors_is_off_unless_origins_are_configured(memory: Memory, configured: Memory) -> None:
    preflight = {
        "Origin": "https://app.example.org",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }
    with TestClient(create_app(memory), base_url=LOOPBACK) as client:
        assert_problem(client.options("/v1/episodes", headers=preflight), 403, "Origin")
    with TestClient(create_app(configured), base_url=LOOPBACK) as client:
        allowed = client.options("/v1/episodes", headers=preflight)
        assert allowed.status_code == 200
        assert allowed.headers["access-control-allow-origin"] == "https://app.example.org"
        created = call(client, "POST /v1/episodes", headers={"Origin": "https://app.example.org"})
        assert created.status_code == 201
        assert created.headers["access-control-allow-origin"] == "https://app.example.org"
        assert "ETag" in created.headers["access-control-expose-headers"]
        assert_problem(
            client.options("/v1/episodes", headers={**preflight, "Origin": "https://other.example"}),
            403,
            "Origin",
        )


@pytest.mark.parametrize("target", ["/v1/episodes", "/v1/episodes/search", "/mcp"])
def test_a_body_over_the_limit_is_413_by_its_content_length(configured: Memory, target: str) -> None:
    with TestClient(create_app(configured), base_url=LOOPBACK) as client:
        response = client.post(target, content=b" " * 5000, headers=MCP_HEADERS)
    body = assert_problem(response, 413, "body")
    assert "5000 bytes" in body["detail"] and "4096" in body["detail"]
    assert configured.store.counts()["episodes"] == 0


def test_a_console_form_over_the_limit_gets_a_page_not_json(configured: Memory) -> None:
    form = {"content-type": "application/x-www-form-urlencoded"}
    body = b"content=" + "长".encode() * 2000  # 6,008 bytes; the limit here is 4,096
    with TestClient(create_app(configured), base_url=LOOPBACK) as client:
        response = client.post("/admin/episodes/new", content=body, headers=form)
    assert response.status_code == 413
    assert response.headers["content-type"].startswith("text/html")
    assert "4096 bytes" in response.text and "表单超出" in response.text
    assert configured.store.counts()["episodes"] == 0


@pytest.mark.parametrize("length", ["9" * 5000, "4097"])
def test_any_content_length_over_the_limit_is_413(configured: Memory, length: str) -> None:
    raw = [
        (b"host", b"127.0.0.1"),
        (b"content-type", b"application/json"),
        (b"content-length", length.encode()),
    ]
    messages: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    scope = {"type": "http", "method": "POST", "path": "/v1/episodes", "headers": raw, "query_string": b""}
    scope |= {"http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 80), "root_path": ""}
    anyio.run(create_app(configured), scope, receive, send)
    assert messages[0]["status"] == 413


@pytest.mark.parametrize("target", ["/v1/episodes", "/mcp"])
def test_a_streamed_body_over_the_limit_is_413(configured: Memory, target: str) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"content": "'
        for _ in range(100):
            yield b"x" * 100

    with TestClient(create_app(configured), base_url=LOOPBACK) as client:
        response = client.post(target, content=chunks(), headers=MCP_HEADERS)
    assert_problem(response, 413, "body")
    assert configured.store.counts()["episodes"] == 0


def test_a_streamed_body_is_cut_off_at_the_limit_not_read_to_its_end(memory: Memory) -> None:
    """A 60 MB upload without Content-Length: the server stops reading just past 1 MiB."""
    pulled = 0

    async def upload() -> AsyncIterator[bytes]:
        nonlocal pulled
        for _ in range(60 * 16):
            pulled += 65536
            yield b"[" + b" " * 65535

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=create_app(memory))
        async with httpx.AsyncClient(transport=transport, base_url=LOOPBACK) as client:
            return await client.post(
                "/v1/episodes/search", content=upload(), headers={"Content-Type": "application/json"}
            )

    response = anyio.run(send)
    assert_problem(response, 413, "body")
    assert memory.settings.max_body_bytes == 1024 * 1024
    assert pulled <= memory.settings.max_body_bytes + 2 * 65536, f"read {pulled} bytes of 60 MB"


def test_every_response_carries_a_request_id(client: TestClient) -> None:
    first, second = client.get("/healthz"), client.get("/healthz")
    assert first.headers["x-request-id"].startswith("req_")
    assert first.headers["x-request-id"] != second.headers["x-request-id"]
    echoed = client.get("/v1/episodes", headers={"X-Request-ID": "lb-7f3a.42"})
    assert echoed.headers["x-request-id"] == "lb-7f3a.42"  # a proxy's id is kept, to join the logs
    unsafe = client.get("/v1/episodes", headers={"X-Request-ID": "bad id; " + "x" * 100})
    assert unsafe.headers["x-request-id"].startswith("req_")
    missing = client.get("/v1/episodes/nope")
    assert missing.status_code == 404
    assert missing.json()["request_id"] == missing.headers["x-request-id"]


def test_an_unexpected_error_is_a_500_problem_counted_and_logged(
    memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(headers: Headers) -> Principal:
        if headers.get("x-break") == "yes":
            raise RuntimeError("key store unreachable")
        return Principal()

    with TestClient(create_app(memory, authenticate=broken), base_url=LOOPBACK) as client:
        with caplog.at_level(logging.ERROR, logger="engram.api"):
            response = client.get("/v1/episodes", headers={"X-Break": "yes"})
        metrics = client.get("/metrics").text
    assert response.status_code == 500
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["request_id"] == response.headers["x-request-id"]
    assert body["request_id"] in body["detail"] and "key store" not in response.text
    assert any(
        body["request_id"] in record.getMessage() and record.exc_info is not None for record in caplog.records
    )
    assert 'engram_http_requests_total{method="GET",route="unmatched",status="500"} 1.0' in metrics


def test_a_store_failure_under_a_route_is_counted_as_a_5xx(memory: Memory) -> None:
    with TestClient(create_app(memory, authenticate=open_access), base_url=LOOPBACK) as client:
        assert client.get("/v1/episodes").status_code == 200
        memory.store.close()
        failed = client.get("/v1/episodes")
        metrics = client.get("/metrics").text
    assert failed.status_code >= 500 and failed.json()["request_id"] == failed.headers["x-request-id"]
    assert f'route="/v1/episodes",status="{failed.status_code}"}} 1.0' in metrics


def test_a_store_failure_while_checking_the_key_is_a_503_not_a_401(memory: Memory) -> None:
    with TestClient(create_app(memory), base_url=LOOPBACK) as client:
        assert client.get("/v1/episodes").status_code == 200
        memory.store.close()
        failed = client.get("/v1/episodes", headers={"Authorization": "Bearer ek_whatever"})
        metrics = client.get("/metrics").text
    assert_problem(failed, 503, "database") if failed.json().get("field") else None
    assert failed.status_code == 503 and failed.json()["title"] == "Store unavailable"
    assert 'route="unmatched",status="503"} 1.0' in metrics


def test_serve_refuses_a_malformed_trusted_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_TRUSTED_HOSTS", "memory.example.org, bad host!")
    result = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path / "data"), "--port", "8799"])
    assert result.exit_code == 2, result.output
    assert "ENGRAM_TRUSTED_HOSTS" in result.stderr and "bad host!" in result.stderr


@pytest.mark.parametrize(
    "head",
    [
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n",  # the edge reads the first
        "GET http://evil.example/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # the target names the host
        "GET http://127.0.0.1/healthz HTTP/1.1\r\nHost: evil.example\r\n",
        "GET /healthz HTTP/1.1\r\n",  # HTTP/1.1 names its host
    ],
)
def test_engram_serve_refuses_a_request_naming_two_hosts(tmp_path: Path, head: str) -> None:
    """RFC 9112 §3.2: a request with two Host lines, or an HTTP/1.1 one with none, is a 400; one
    whose absolute target names a host never reaches a route (engram.api.strict_http)."""
    with engram_serve(tmp_path / "data", tmp_path / "serve.log") as base:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(f"{head}Connection: close\r\n\r\n".encode())
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    assert answer.split(b" ", 2)[1] == b"400", answer[:300]
    assert b"application/problem+json" in answer and b'"field":"Host"' in answer.replace(b" ", b"")


def test_a_malformed_request_after_a_good_one_leaves_the_good_ones_answer(tmp_path: Path) -> None:
    """Pipelined requests are answered in order: the malformed second does not cut off the first."""
    with engram_serve(tmp_path / "data", tmp_path / "serve.log") as base:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            good = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            bad = b"GET http://evil.example/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            sock.sendall(good + bad)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    statuses = re.findall(rb"HTTP/1.1 (\d{3}) ", answer)
    assert statuses == [b"200", b"400"], answer[:600]


def test_a_client_hanging_up_mid_body_is_no_server_error(tmp_path: Path) -> None:
    """A POST whose client closes the connection halfway through its body, to a REST route and
    to /mcp (whose SDK catches the disconnect itself): counted as 499, not logged as a failure,
    nothing stored, and the server goes on answering."""
    log = tmp_path / "serve.log"
    with engram_serve(tmp_path / "data", log) as base:
        port = int(base.rsplit(":", 1)[1])
        for path, accept in (("/v1/episodes", "application/json"), ("/mcp", MCP_HEADERS["Accept"])):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                sock.sendall(
                    f"{head}Accept: {accept}\r\nContent-Length: 1000\r\n\r\n".encode() + b'{"content": "half'
                )
        counted = [f'route="{route}",status="499"}} 1.0' for route in ("/v1/episodes", "/mcp")]
        deadline = time.monotonic() + 20
        while not all(c in (metrics := httpx.get(f"{base}/metrics").text) for c in counted):
            assert time.monotonic() < deadline, metrics[-2000:]
            time.sleep(0.1)
        listed = httpx.get(f"{base}/v1/episodes").json()
    assert 'status="500"' not in metrics
    assert listed["items"] == []
    assert "Traceback" not in log.read_text() and "ERROR" not in log.read_text()
