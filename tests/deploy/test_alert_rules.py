"""The Prometheus configuration and alert rules in deploy/ pass promtool's checks and unit tests,
and the Alertmanager example passes amtool's (Debian's prometheus and prometheus-alertmanager)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
PROMETHEUS = DEPLOY / "prometheus"
ALERTS = {
    "EngramDuplicatesRateLow",
    "EngramIntentSurge",
    "EngramHighServerErrorRate",
    "EngramSearchSlow",
    "EngramEmbeddingBacklogGrowing",
    "EngramExtractionFailing",
    "EngramStoreUnreachable",
}


def tool(name: str, package: str) -> str:
    """Return the path of ``name``, or skip saying what to install."""
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is missing: apt-get install {package} (as .ci/run does)")
    return path


def run(*command: str) -> str:
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_every_alert_has_a_unit_test() -> None:
    rules = yaml.safe_load((PROMETHEUS / "rules.yml").read_text())
    alerts = {rule["alert"] for group in rules["groups"] for rule in group["rules"] if "alert" in rule}
    assert alerts == ALERTS
    tested: set[str] = set()
    for path in PROMETHEUS.glob("rules*_test.yml"):
        tests = yaml.safe_load(path.read_text())["tests"]
        for case in tests:
            for check in case.get("alert_rule_test", []):
                if check["exp_alerts"]:
                    tested.add(check["alertname"])
    assert tested == ALERTS, "each alert has a test where it fires"


def test_rules_and_config_pass_promtool_checks() -> None:
    promtool = tool("promtool", "prometheus")
    assert "SUCCESS" in run(promtool, "check", "rules", str(PROMETHEUS / "rules.yml"))
    assert "SUCCESS" in run(promtool, "check", "config", str(PROMETHEUS / "prometheus.yml"))


@pytest.mark.slow
def test_rules_pass_their_unit_tests() -> None:
    promtool = tool("promtool", "prometheus")
    files = sorted(str(path) for path in PROMETHEUS.glob("rules*_test.yml"))
    assert len(files) == 2
    assert run(promtool, "test", "rules", *files).count("SUCCESS") == 2


def test_alertmanager_example_passes_amtool() -> None:
    amtool = tool("amtool", "prometheus-alertmanager")
    assert "SUCCESS" in run(amtool, "check-config", str(DEPLOY / "alertmanager" / "alertmanager.yml"))
