"""A real headless Chromium for console tests and screenshots: Debian's ``chromium`` driven by Playwright.

Never downloads a browser: without /usr/bin/chromium the browser tests skip, saying what to install.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import uvicorn

from engram import Memory
from engram.api.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
MISSING = "no Chromium: install Debian's chromium (apt-get install -y chromium) to run the browser tests"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def serve(memory: Memory, port: int) -> Iterator[str]:
    """Serve the whole app (console included) with uvicorn on 127.0.0.1:``port``; yield its base URL."""
    server = uvicorn.Server(
        uvicorn.Config(create_app(memory), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"
    httpx.get(f"{base}/healthz").raise_for_status()
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=10)
