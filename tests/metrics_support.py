"""Reading a /metrics page in tests: samples by name and labels, and the metric names it exports."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]

SAMPLE_SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_sum", "_count", "_created"),
    "summary": ("_sum", "_count", "_created"),
    "info": ("_info",),
    "gauge": ("",),
    "unknown": ("",),
}


def samples(page: str) -> Samples:
    """Return every sample of a Prometheus text page: (name, labels) → value."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(page)
        for sample in family.samples
    }


def value(page: Samples, name: str, **labels: str) -> float:
    """Return the sample ``name`` with exactly ``labels`` (0 when absent, as for a counter not yet moved)."""
    return page.get((name, frozenset(labels.items())), 0.0)


def total(page: Samples, name: str, **labels: str) -> float:
    """Return the sum of the samples ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, got), v in page.items() if n == name and wanted <= got)


def exported_names(page: str) -> set[str]:
    """Return every series name the page can hold: each family's samples' names, by its type
    (a counter ``x`` exports ``x_total``; a histogram ``x_bucket``, ``x_sum``, ``x_count``), even
    for families with no sample yet."""
    names = set()
    for family in text_string_to_metric_families(page):
        names |= {family.name + suffix for suffix in SAMPLE_SUFFIXES[family.type]}
        names |= {sample.name for sample in family.samples}
    return names
