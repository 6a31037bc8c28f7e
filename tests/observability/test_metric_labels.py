"""Label values stay bounded and configurable; a scrape survives a database it cannot read."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from conftest import LOOPBACK
from engram import Memory, Settings
from engram.api.app import create_app
from engram.api.metrics import interface_of
from engram.config import MetricsSettings
from engram.observability.labels import bounded
from metrics_support import samples, value


def test_values_outside_the_configured_set_count_as_other_and_missing_as_none() -> None:
    assert bounded("complain_product", ("complain_product",)) == "complain_product"
    assert bounded("Complain_Product", ("complain_product",)) == "other"
    assert bounded(None, ("complain_product",)) == "none"


def test_label_sets_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_METRICS__INTENTS", '["refund", "praise"]')
    monkeypatch.setenv("ENGRAM_METRICS__WATCHED_INTENTS", '["refund"]')
    metrics = Settings().metrics
    assert (metrics.intents, metrics.watched_intents) == (("refund", "praise"), ("refund",))
    assert Settings().metrics.sources == MetricsSettings().sources


def test_a_watched_intent_must_be_one_of_the_intents() -> None:
    with pytest.raises(ValidationError, match="watched_intents"):
        MetricsSettings(intents=("refund",), watched_intents=("complain_product",))


@pytest.mark.parametrize(
    ("path", "interface"),
    [
        ("/v1/episodes/search", "rest"),
        ("/mcp", "mcp"),
        ("/admin/episodes", "console"),
        ("/administer", "rest"),
    ],
)
def test_the_interface_is_read_from_the_path(path: str, interface: str) -> None:
    assert interface_of(path) == interface


def test_the_scrape_answers_without_the_database(memory: Memory) -> None:
    with TestClient(create_app(memory), base_url=LOOPBACK) as client:
        memory.create_episode({"content": "hello", "intent": "follow_up"})
        up = samples(client.get("/metrics").text)
        assert value(up, "engram_store_up") == 1
        assert value(up, "engram_episodes_stored", intent="follow_up", source="none") == 1
        assert value(up, "engram_build_info", version="0.1.0") == 1
        assert not any(name == "engram_embedding_backlog_episodes" for name, _ in up), "no embedder here"
        memory.store.close()
        response = client.get("/metrics")
    assert response.status_code == 200
    down = samples(response.text)
    assert value(down, "engram_store_up") == 0
    assert not any(name == "engram_episodes_stored" for name, _ in down), "no stale counts"
    assert value(down, "process_resident_memory_bytes") > 0


BOOM = {"method": "GET", "route": "/boom", "status": "500"}


def test_an_exception_escaping_a_route_counts_as_a_500(memory: Memory) -> None:
    app = create_app(memory)

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False, base_url=LOOPBACK) as client:
        before = value(samples(client.get("/metrics").text), "engram_http_requests_total", **BOOM)
        assert client.get("/boom").status_code == 500
        after = value(samples(client.get("/metrics").text), "engram_http_requests_total", **BOOM)
    assert after == before + 1
