"""The Grafana dashboard (deploy/grafana/dashboards/engram.json) asks only for metrics Engram
exports: the names are read from a live server's /metrics after REST and MCP traffic, not from a
list. Where promtool is installed, every query is also checked as PromQL."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import yaml
from mcp import Client

from conftest import serving
from engram import Memory
from metrics_support import exported_names

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
DASHBOARD = DEPLOY / "grafana" / "dashboards" / "engram.json"
GRAFANA_VARIABLES = {"$__rate_interval": "5m", "$__interval": "1m", "$__range": "1h"}
PROMQL_WORDS = {
    "by", "without", "on", "ignoring", "group_left", "group_right", "offset", "bool",
    "and", "or", "unless", "inf", "nan",
}  # fmt: skip


def panels() -> list[dict[str, Any]]:
    dashboard = json.loads(DASHBOARD.read_text())
    found = []
    for panel in dashboard["panels"]:
        found += [panel, *panel.get("panels", [])]
    return [panel for panel in found if panel["type"] != "row"]


def queries() -> list[tuple[str, str]]:
    """Return (panel title, PromQL with Grafana's variables replaced) for every target."""
    found = []
    for panel in panels():
        for target in panel["targets"]:
            expr = target["expr"]
            for variable, value in GRAFANA_VARIABLES.items():
                expr = expr.replace(variable, value)
            found.append((panel["title"], expr))
    return found


def metric_names(expr: str) -> set[str]:
    """Return the metric names a PromQL expression selects (functions, keywords, labels left out)."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # strings
    expr = re.sub(r"\{[^}]*\}", "", expr)  # label matchers
    expr = re.sub(r"\[[^\]]*\]", "", expr)  # ranges
    expr = re.sub(r"\boffset\s+\w+|\b\d[\w.]*", "", expr)  # offsets and numbers
    expr = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", expr)  # label lists
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", expr):
        following = expr[match.end() :].lstrip()
        if not following.startswith("(") and match.group().lower() not in PROMQL_WORDS:
            names.add(match.group())
    return names


@pytest.fixture
def live_server(hybrid_memory: Memory) -> Iterator[str]:
    """Serve a memory with the offline embedder (so the indexer's metrics exist too)."""
    with serving(hybrid_memory) as base:
        yield base


@pytest.fixture
def exported(live_server: str) -> set[str]:
    """Return every series name a live server's /metrics holds after REST and MCP traffic."""
    with httpx.Client(base_url=live_server) as http:
        http.post("/v1/episodes", json={"content": "the blender broke", "intent": "complain_product"})
        http.post("/v1/episodes/search", json={"query": "blender"})

    async def tool_calls() -> None:
        async with Client(f"{live_server}/mcp") as client:
            await client.call_tool("search_episodes", {"query": "blender"})
            await client.call_tool("get_episode", {"id": "ep_missing"})

    anyio.run(tool_calls)
    return exported_names(httpx.get(f"{live_server}/metrics").text)


def test_dashboard_shows_what_the_operators_need() -> None:
    titles = {panel["title"] for panel in panels()}
    assert {
        "Intake by intent",
        "Duplicates rate",
        "Search latency per channel",
        "Extraction failures",
        "Embedding backlog",
        "Disputed facts and merge candidates",
        "HTTP 5xx ratio",
        "Week-over-week change per intent",
    } <= titles
    latency = next(panel for panel in panels() if panel["title"] == "Search latency per channel")
    assert [t["expr"].split(",")[0] for t in latency["targets"]] == [
        f"histogram_quantile({q}" for q in ("0.5", "0.95", "0.99")
    ]
    provisioned = yaml.safe_load((DEPLOY / "grafana/provisioning/datasources/prometheus.yml").read_text())
    uids = {source["uid"] for source in provisioned["datasources"]}
    assert {panel["datasource"]["uid"] for panel in panels()} == uids
    assert {target["datasource"]["uid"] for panel in panels() for target in panel["targets"]} == uids


def test_every_query_names_only_metrics_engram_exports(exported: set[str]) -> None:
    assert (
        "engram_search_channel_duration_seconds_bucket" in exported
        and "process_cpu_seconds_total" in exported
    )
    for title, expr in queries():
        names = metric_names(expr)
        assert names, (title, expr)
        assert names <= exported, (title, sorted(names - exported))
    assert metric_names('sum by (intent) (rate(engram_x_total{status=~"5.."}[5m] offset 1w)) / on () y') == {
        "engram_x_total",
        "y",
    }, "the name reader itself"


def test_every_query_is_valid_promql(tmp_path: Path) -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool is missing: apt-get install prometheus (as .ci/run does)")
    rules = [{"record": f"dashboard:query_{i}", "expr": expr} for i, (_, expr) in enumerate(queries())]
    path = tmp_path / "dashboard_rules.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    done = subprocess.run(
        [promtool, "check", "rules", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
