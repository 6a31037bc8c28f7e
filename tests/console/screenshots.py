"""Take a screenshot of every console page in English and Chinese (PNG), for the docs.

Run from the repository root (needs /usr/bin/chromium, a CJK font such as Debian's fonts-wqy-microhei,
and the dev extras):

    .venv/bin/python tests/console/screenshots.py docs/console

A fresh memory is seeded (tests/console/seed.py), served on loopback and visited by a headless
Chromium; the pages show what the seed holds plus an edited episode, an entity edit and a merge.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright

from conftest import serving
from console.browser import CHROMIUM, LAUNCH_ARGS, MISSING
from console.seed import seed
from engram import Memory, Settings

LANGUAGES = {"en": "en-GB", "zh": "zh-CN"}


def pages(memory: Memory) -> dict[str, str]:
    """Return screenshot name → console path, after making one episode and one merge to show."""
    seeded = seed(memory)
    created = memory.create_episode(
        {
            "content": "客户投诉 INV-2041 的发票金额有误，要求下周五前重开发票",
            "actor": {"id": "zhao"},
            "intent": "complain_product",
            "source": "phone",
            "references": ["invoice:2041"],
            "metadata": {"priority": "high", "due": "2026-12-04"},
        },
        actor="console:local",
    )
    memory.update_episode(created.episode.id, {"metadata": {"priority": "medium"}}, expected_version=1)
    acme = memory.get_entity(seeded.acme).entity
    memory.update_entity(seeded.acme, {"city": "Hangzhou"}, expected_version=acme.version)
    memory.create_episode(
        {"content": "Bob from Acme called", "entities": [{"name": "Acme Ltd", "type": "organisation"}]}
    )
    duplicate = memory.search_entities("Acme Ltd")[0]
    memory.merge_entities(duplicate.id, seeded.acme, actor="console:local")
    merge = memory.list_operations(kind=["merge"]).items[0]
    return {
        "01-new-episode": "/admin/episodes/new",
        "02-episodes-search": "/admin/episodes?q=invoice+发票",
        "03-episode": f"/admin/episodes/{created.episode.id}",
        "04-entities": "/admin/entities?q=Acme",
        "05-entity": f"/admin/entities/{seeded.acme}",
        "06-review-candidates": "/admin/review/candidates",
        "07-review-disputes": "/admin/review/disputes",
        "08-review-unclassified": "/admin/review/unclassified",
        "09-audit": "/admin/audit",
        "10-undo-preview": f"/admin/audit/{merge.id}",
        "11-health": "/admin/health",
        "12-sign-in": "/admin/sign-in",
    }


def main(out: Path) -> None:
    """Write ``<out>/<language>/<name>.png`` for every page and language."""
    if not CHROMIUM.exists():
        raise SystemExit(MISSING)
    with (
        tempfile.TemporaryDirectory() as data,
        Memory.open(settings=Settings(data_dir=data, embedder="none")) as memory,
    ):
        paths = pages(memory)
        with serving(memory) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
            for language, locale in LANGUAGES.items():
                (out / language).mkdir(parents=True, exist_ok=True)
                context = browser.new_context(
                    base_url=base, locale=locale, viewport={"width": 1200, "height": 800}
                )
                page = context.new_page()
                for name, path in paths.items():
                    page.goto(path)
                    page.screenshot(path=str(out / language / f"{name}.png"), full_page=True)
                    print(out / language / f"{name}.png")
                context.close()
            browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/console"))
