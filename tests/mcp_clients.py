"""The official MCP clients, behind one small interface, to drive Engram's server in tests.

- ``python_client``: the Python SDK's ``mcp.Client``;
- ``typescript_client``: the TypeScript SDK's ``Client`` (``@modelcontextprotocol/sdk`` from npm),
  through tests/mcp_ts/bridge.mjs, a Node process that runs one client request per JSON line.

Both connect over stdio (spawning ``engram mcp``) or streamable HTTP (a URL, optional headers,
e.g. ``Authorization``), and answer with the JSON the wire carries (``isError``,
``structuredContent``, ``_meta``). Whatever a client raises or throws (such as a result that does
not match the tool's output schema) is raised here as ``ClientRaised``.

``engram_serve`` runs ``engram serve`` as a subprocess on a free loopback port;
``ensure_typescript_sdk`` installs the npm package (``npm ci``) into tests/mcp_ts/node_modules
once, or skips when Node or npm is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import IO, Any, Protocol

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

TS_DIR = Path(__file__).resolve().parent / "mcp_ts"
BRIDGE = TS_DIR / "bridge.mjs"
ENGRAM = str(Path(sys.executable).with_name("engram"))
"""The ``engram`` command of the interpreter running the tests."""
REPLY_TIMEOUT = 120.0


class ClientRaised(Exception):
    """The SDK client raised (Python) or threw (TypeScript) instead of returning a result."""


class McpClient(Protocol):
    """What the tests ask of an official MCP client; results are wire-shaped JSON."""

    sdk: str

    async def list_tools(self) -> list[dict[str, Any]]: ...
    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]: ...
    async def list_prompts(self) -> list[dict[str, Any]]: ...
    async def get_prompt(self, name: str, arguments: dict[str, str]) -> dict[str, Any]: ...
    async def list_resource_templates(self) -> list[dict[str, Any]]: ...
    async def read_resource(self, uri: str) -> dict[str, Any]: ...


def stdio_command(data_dir: Path) -> list[str]:
    """Return the command line of an ``engram mcp`` server on ``data_dir``."""
    return [ENGRAM, "mcp", "--data-dir", str(data_dir)]


# -- Python SDK ------------------------------------------------------------------------------------


def _wire(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


class PythonClient:
    """The Python SDK's client."""

    sdk = "python"

    def __init__(self, client: Client) -> None:
        self._client = client

    async def _ask(self, call: Any) -> Any:
        try:
            return await call
        except Exception as exc:
            raise ClientRaised(f"{type(exc).__name__}: {exc}") from exc

    async def list_tools(self) -> list[dict[str, Any]]:
        return [_wire(tool) for tool in (await self._ask(self._client.list_tools())).tools]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return _wire(await self._ask(self._client.call_tool(name, arguments)))

    async def list_prompts(self) -> list[dict[str, Any]]:
        return [_wire(prompt) for prompt in (await self._ask(self._client.list_prompts())).prompts]

    async def get_prompt(self, name: str, arguments: dict[str, str]) -> dict[str, Any]:
        return _wire(await self._ask(self._client.get_prompt(name, arguments)))

    async def list_resource_templates(self) -> list[dict[str, Any]]:
        listed = await self._ask(self._client.list_resource_templates())
        return [_wire(template) for template in listed.resource_templates]

    async def read_resource(self, uri: str) -> dict[str, Any]:
        return _wire(await self._ask(self._client.read_resource(uri)))


@asynccontextmanager
async def python_client(
    *, data_dir: Path | None = None, url: str | None = None, headers: dict[str, str] | None = None
) -> AsyncIterator[PythonClient]:
    """Yield the Python SDK client over stdio (``data_dir``) or streamable HTTP (``url``)."""
    if data_dir is not None:
        command = stdio_command(data_dir)
        params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
        with (data_dir.parent / "python-stdio-stderr.txt").open("a") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                yield PythonClient(client)
        return
    assert url is not None
    async with (
        httpx2.AsyncClient(headers=headers or {}, timeout=REPLY_TIMEOUT) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield PythonClient(client)


# -- TypeScript SDK --------------------------------------------------------------------------------


def ensure_typescript_sdk() -> None:
    """Install the TypeScript SDK into tests/mcp_ts/node_modules unless present; skip without Node."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("the TypeScript SDK tests need Node.js 20+ and npm (Debian: apt-get install nodejs npm)")
    if (TS_DIR / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json").exists():
        return
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"], cwd=TS_DIR, capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0:
        pytest.fail(f"npm ci in {TS_DIR} failed:\n{done.stdout}\n{done.stderr}")


class TypeScriptClient:
    """The TypeScript SDK's client, in a Node process (tests/mcp_ts/bridge.mjs)."""

    sdk = "typescript"

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self._process = process
        self._next = 0
        self.hello = self._read()

    def _read(self) -> dict[str, Any]:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise ClientRaised(f"the Node bridge exited with {self._process.wait(timeout=10)}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def _roundtrip(self, method: str, params: dict[str, Any] | None) -> Any:
        assert self._process.stdin is not None
        self._next += 1
        self._process.stdin.write(json.dumps({"id": self._next, "method": method, "params": params}) + "\n")
        self._process.stdin.flush()
        answer = self._read()
        assert answer["id"] == self._next, answer
        if "error" in answer:
            raise ClientRaised(answer["error"]["message"])
        return answer["result"]

    async def _ask(self, method: str, params: dict[str, Any] | None = None) -> Any:
        with anyio.fail_after(REPLY_TIMEOUT):
            return await anyio.to_thread.run_sync(self._roundtrip, method, params, abandon_on_cancel=True)

    async def list_tools(self) -> list[dict[str, Any]]:
        tools: list[dict[str, Any]] = (await self._ask("listTools"))["tools"]
        return tools

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = await self._ask("callTool", {"name": name, "arguments": arguments})
        return result

    async def list_prompts(self) -> list[dict[str, Any]]:
        prompts: list[dict[str, Any]] = (await self._ask("listPrompts"))["prompts"]
        return prompts

    async def get_prompt(self, name: str, arguments: dict[str, str]) -> dict[str, Any]:
        result: dict[str, Any] = await self._ask("getPrompt", {"name": name, "arguments": arguments})
        return result

    async def list_resource_templates(self) -> list[dict[str, Any]]:
        templates: list[dict[str, Any]] = (await self._ask("listResourceTemplates"))["resourceTemplates"]
        return templates

    async def read_resource(self, uri: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._ask("readResource", {"uri": uri})
        return result


@asynccontextmanager
async def typescript_client(
    *, data_dir: Path | None = None, url: str | None = None, headers: dict[str, str] | None = None
) -> AsyncIterator[TypeScriptClient]:
    """Yield the TypeScript SDK client over stdio (``data_dir``) or streamable HTTP (``url``)."""
    ensure_typescript_sdk()
    if data_dir is not None:
        args = ["--stdio", *stdio_command(data_dir)]
        log = data_dir.parent / "typescript-stderr.txt"
    else:
        assert url is not None
        args = ["--url", url]
        for name, value in (headers or {}).items():
            args += ["--header", f"{name}: {value}"]
        log = Path(os.devnull)
    with log.open("a") as errlog:
        process = subprocess.Popen(
            ["node", str(BRIDGE), *args],
            cwd=TS_DIR,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errlog,
            text=True,
            env=dict(os.environ),
        )
        try:
            yield await anyio.to_thread.run_sync(TypeScriptClient, process, abandon_on_cancel=True)
        finally:
            _stop(process, process.stdin)


def _stop(process: subprocess.Popen[str], stdin: IO[str] | None) -> None:
    if stdin is not None and not stdin.closed:
        stdin.close()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    if process.stdout is not None:
        process.stdout.close()


# -- engram serve ----------------------------------------------------------------------------------


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def engram_serve(data_dir: Path, log: Path) -> Iterator[str]:
    """Run ``engram serve`` on ``data_dir`` and a free loopback port; yield its base URL."""
    port = free_port()
    with log.open("w") as errlog:
        process = subprocess.Popen(
            [ENGRAM, "serve", "--data-dir", str(data_dir), "--port", str(port)],
            stdout=errlog,
            stderr=subprocess.STDOUT,
            env=dict(os.environ),
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, f"engram serve exited: {log.read_text()}"
                assert time.monotonic() < deadline, f"engram serve did not answer: {log.read_text()}"
                try:
                    if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
