"""A real headless Chromium for console tests and screenshots: Debian's ``chromium`` driven by Playwright.

Never downloads a browser: without /usr/bin/chromium the browser tests skip, saying what to install.
"""

from __future__ import annotations

from pathlib import Path

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
