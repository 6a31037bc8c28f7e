"""Benchmark the console's pages (GET /admin/…) on a store of N episodes, beside the REST list.

The store: N LoCoMo-derived episodes in one group (bench/_common.episode_stream: intents,
sources, actors, threads; stored with create_episodes, extractor none, BM25 only), plus the
console test seed (tests/console/seed.py: a merge candidate, a dispute, an unclassified
episode) so every page has something to show. Requests go through the whole ASGI stack in
process (Starlette TestClient: routing, session cookie, rendering), sequentially.

Baseline in the same run: GET /v1/episodes?limit=20 (the REST list page) through the same
client, the cost of a Memory read plus JSON with no templates. Times are wall times of the
client (the app runs in the TestClient's own thread, so no CPU time is reported).

Usage: .venv/bin/python bench/console_pages.py [--episodes N] [--calls C] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fastapi.testclient import TestClient

from _common import batched, episode_stream, load_locomo, machine, print_machine, print_table, time_each
from console.seed import seed
from engram import Memory, Settings
from engram.api.app import create_app


def build(memory: Memory, episodes: int) -> dict[str, str]:
    """Fill the store; return page name → path."""
    texts, _ = load_locomo()
    for batch in batched(episode_stream(texts, episodes), 500):
        memory.create_episodes(batch)
    seeded = seed(memory)
    merge = memory.merge_entities(seeded.carolyn, seeded.caroline)
    operation = memory.list_operations(kind=["merge"], entity_id=merge.entity.id, limit=1).items[0].id
    return {
        "REST list (baseline)": "/v1/episodes?limit=20",
        "episodes, newest 20": "/admin/episodes",
        "episodes, search": "/admin/episodes?q=adoption+agencies",
        "episodes, search + filters": "/admin/episodes?q=painting&intent=share_event&source=chat",
        "episode page": f"/admin/episodes/{seeded.complaint}",
        "entity page": f"/admin/entities/{seeded.caroline}",
        "review: candidates": "/admin/review/candidates",
        "review: disputes": "/admin/review/disputes",
        "review: unclassified": "/admin/review/unclassified",
        "audit log": "/admin/audit",
        "audit, actor filter": "/admin/audit?actor=nobody",
        "undo preview": f"/admin/audit/{operation}",
        "health": "/admin/health",
        "autocomplete": "/admin/suggest/references?references=INV",
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=20_000)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    info = machine()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(data_dir=Path(data), embedder="none", extractor="none")
        with Memory.open(settings=settings) as memory:
            paths = build(memory, args.episodes)
            with TestClient(create_app(memory), base_url="http://127.0.0.1") as client:
                for name, path in paths.items():

                    def get(_: int, path: str = path) -> int:
                        response = client.get(path)
                        assert response.status_code == 200, (path, response.status_code)
                        return len(response.content)

                    figures = time_each(get, range(args.calls))
                    rows.append({"page": name, **figures, "bytes": int(figures.pop("returned", 0))})
    if args.json:
        print(json.dumps({"machine": info, "episodes": args.episodes, "rows": rows}, indent=1))
        return
    print_machine(info)
    title = f"Console pages, {args.episodes:,} episodes (SQLite, BM25 only), {args.calls} GETs each, ms"
    print_table(rows, ["page", "p50", "p95", "max", "bytes"], title)


if __name__ == "__main__":
    main()
