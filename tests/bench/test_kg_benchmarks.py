"""The knowledge-graph benchmarks: their data files are well-formed, and both harnesses report.

The data tests read bench/data/extraction_set.jsonl (and the holdout and second development
set beside it) and bench/data/scenarios.jsonl line by line. The slow tests run
bench/extraction_bench.py and bench/scenarios_bench.py on three items or stories each (each
starts its own ``engram serve``) and check the shape of the JSON report, never a score: the
scores measure work still to come.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "bench"
EXTRACTION = BENCH / "data" / "extraction_set.jsonl"
DEV2 = BENCH / "data" / "extraction_dev2.jsonl"
SCENARIOS = BENCH / "data" / "scenarios.jsonl"
PREDICATE = re.compile(r"^[A-Z][A-Z0-9_]{0,63}$")
ENTITY_TYPE = re.compile(r"^[a-z][a-z0-9_]*$")
FACT_IN_KEYS = {"subject", "predicate", "object", "value", "fact", "valid_at", "invalid_at"} | {
    "conditions",
    "confidence",
    "source_kind",
}
LABEL_ONLY_KEYS = {"negated"}
EXPECT_KINDS = {"current", "history", "disputed", "as_of", "merged", "distinct", "absent"}


def _lines(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:  # pragma: no cover - the assertion names the line
                pytest.fail(f"{path.name}:{number} is not JSON: {exc}")
    return rows


def _time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _check_fact(fact: dict[str, Any], where: str, allowed: set[str]) -> None:
    assert {"subject", "predicate"} <= set(fact), where
    assert set(fact) <= allowed, f"{where}: unexpected keys {set(fact) - allowed}"
    assert PREDICATE.match(fact["predicate"]), f"{where}: predicate {fact['predicate']!r} is not UPPER_SNAKE"
    assert ("object" in fact) != ("value" in fact), f"{where}: exactly one of object or value"
    for key in ("valid_at", "invalid_at"):
        if fact.get(key) is not None:
            datetime.fromisoformat(str(fact[key]).replace("Z", "+00:00"))
    assert isinstance(fact.get("conditions", {}), dict), where


def _names(entities: list[dict[str, Any]]) -> set[str]:
    return {n for e in entities for n in [e["name"], *e.get("aliases", [])]}


# -- the extraction set -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "minimum"),
    [
        (EXTRACTION, 300),
        (EXTRACTION.with_name("extraction_holdout.jsonl"), 60),
        (DEV2, 90),
        (EXTRACTION.with_name("extraction_dev3.jsonl"), 100),
        (EXTRACTION.with_name("extraction_dev4.jsonl"), 100),
        (EXTRACTION.with_name("extraction_dev5.jsonl"), 100),
        (EXTRACTION.with_name("extraction_dev6.jsonl"), 100),
        (EXTRACTION.with_name("extraction_holdout2.jsonl"), 140),
        (EXTRACTION.with_name("extraction_holdout3.jsonl"), 140),
    ],
    ids=["set", "holdout", "dev2", "dev3", "dev4", "dev5", "dev6", "holdout2", "holdout3"],
)
def test_extraction_set_lines_are_well_formed(path: Path, minimum: int) -> None:
    items = _lines(path)
    assert len(items) >= minimum
    assert len({i["id"] for i in items}) == len(items), "ids are unique"
    for item in items:
        where = item.get("id", "?")
        assert {"id", "lang", "kind", "text", "actor", "timestamp", "expected"} <= set(item), where
        assert item["lang"] in ("zh", "en") and item["kind"] in ("locomo", "business", "personal", "chitchat")
        assert item["text"].strip() and {"id", "name"} <= set(item["actor"]), where
        assert _time(item["timestamp"]).tzinfo is not None, where
        assert set(item["expected"]) == {"entities", "facts"}, where
        for entity in item["expected"]["entities"]:
            assert entity["name"].strip() and ENTITY_TYPE.match(entity["type"]), where
            assert set(entity) <= {"name", "type", "aliases"}, where
        names = _names(item["expected"]["entities"])
        for fact in item["expected"]["facts"]:
            _check_fact(fact, where, FACT_IN_KEYS | LABEL_ONLY_KEYS)
            assert fact["subject"] in names, f"{where}: subject {fact['subject']!r} is not a labelled entity"
            assert "object" not in fact or fact["object"] in names, f"{where}: object {fact['object']!r}"
        if item["kind"] == "chitchat":
            assert not item["expected"]["facts"] and not item["expected"]["entities"], where


def test_the_extraction_files_share_no_item() -> None:
    files = [
        "extraction_set",
        "extraction_holdout",
        "extraction_dev2",
        "extraction_dev3",
        "extraction_dev4",
        "extraction_dev5",
        "extraction_dev6",
        "extraction_holdout2",
        "extraction_holdout3",
    ]
    seen: set[str] = set()
    for name in files:
        ids = {i["id"] for i in _lines(EXTRACTION.with_name(f"{name}.jsonl"))}
        assert not ids & seen, f"{name} repeats ids {sorted(ids & seen)[:5]}"
        seen |= ids


def test_extraction_set_balance() -> None:
    items = _lines(EXTRACTION)
    langs = Counter(i["lang"] for i in items)
    kinds = Counter(i["kind"] for i in items)
    assert 0.4 <= langs["zh"] / len(items) <= 0.6, langs
    assert kinds["locomo"] >= 100 and all(i["lang"] == "en" for i in items if i["kind"] == "locomo")
    assert 0.1 <= kinds["chitchat"] / len(items) <= 0.25, kinds
    for lang in ("zh", "en"):
        for kind in ("business", "personal", "chitchat"):
            assert any(i["lang"] == lang and i["kind"] == kind for i in items), (lang, kind)


def test_extraction_set_splits_into_a_dev_and_a_test_half_by_a_fixed_rule() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import extraction_bench
    finally:
        sys.path.remove(str(BENCH))
    items = _lines(EXTRACTION)
    dev = extraction_bench.load(EXTRACTION, split="dev")
    test = extraction_bench.load(EXTRACTION, split="test")
    assert {i["id"] for i in dev} | {i["id"] for i in test} == {i["id"] for i in items}
    assert not {i["id"] for i in dev} & {i["id"] for i in test}
    assert [extraction_bench.split_of(i["id"]) for i in dev] == ["dev"] * len(dev)  # the same every run
    for half in (dev, test):
        for lang in ("zh", "en"):
            facts = sum(len(i["expected"]["facts"]) for i in half if i["lang"] == lang)
            assert facts >= 80, (lang, facts)  # both halves can measure each language


# -- the scenario set ---------------------------------------------------------------------------


def test_scenarios_lines_are_well_formed() -> None:
    stories = _lines(SCENARIOS)
    assert len(stories) >= 40
    langs = Counter(s["lang"] for s in stories)
    assert langs["zh"] >= 15 and langs["en"] >= 15, langs
    assert len({s["id"] for s in stories}) == len(stories)
    for story in stories:
        where = story.get("id", "?")
        assert {"id", "lang", "tags", "episodes", "expect"} <= set(story), where
        assert story["tags"] and story["episodes"], where
        assert set(story["expect"]) <= EXPECT_KINDS and story["expect"], where
        known: set[str] = set()
        for n, episode in enumerate(story["episodes"]):
            here = f"{where} episode {n}"
            assert episode["content"].strip() and {"id", "name"} <= set(episode["actor"]), here
            _time(episode["timestamp"])
            for entity in episode.get("entities", []):
                assert set(entity) <= {"name", "type", "aliases", "attributes"}, here
                assert ENTITY_TYPE.match(entity["type"]), here
            known |= _names(episode.get("entities", []))
            for fact in episode.get("facts", []):
                _check_fact(fact, here, FACT_IN_KEYS)
                assert fact["subject"] in known, f"{here}: subject {fact['subject']!r} named nowhere before"
                assert "object" not in fact or fact["object"] in known, f"{here}: object {fact['object']!r}"
        expect = story["expect"]
        facts = [f for kind in ("current", "history", "disputed", "absent") for f in expect.get(kind, [])]
        facts += [f for moment in expect.get("as_of", []) for f in moment["facts"]]
        for moment in expect.get("as_of", []):
            _time(moment["at"])
        for fact in facts:
            if fact.get("subject") == "*":
                continue
            _check_fact(fact, f"{where} expect", FACT_IN_KEYS)
            assert fact["subject"] in known, f"{where}: expected subject {fact['subject']!r} is in no episode"
        for pair in expect.get("merged", []) + expect.get("distinct", []):
            assert len(pair) == 2, where
            for side in pair:
                name = side if isinstance(side, str) else side["name"]
                assert name in known, f"{where}: {name!r} is in no episode"


def test_scenarios_cover_the_required_behaviours() -> None:
    tags = Counter(t for s in _lines(SCENARIOS) for t in s["tags"])
    for tag in ("update", "refinement", "conditions", "dispute", "stop", "like_then_hate", "reassignment"):
        assert tags[tag] >= 2, tag
    for tag in ("explicit_invalid_at", "nickname", "same_name", "correction", "late_arrival", "chitchat"):
        assert tags[tag] >= 2, tag


# -- the harnesses ------------------------------------------------------------------------------


def _run(script: str, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args, "--json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.mark.slow
def test_extraction_bench_reports() -> None:
    report = _run("extraction_bench.py", "--limit", "3")
    assert report["items"] == 3 and report["command"].startswith(".venv/bin/python bench/extraction_bench.py")
    assert set(report["methods"]) == {"server", "baseline"}
    for method in report["methods"].values():
        overall = method["groups"]["all"]
        assert overall["items"] == 3
        for key in ("entity P", "entity R", "fact P", "fact R"):
            assert overall[key] is None or 0 <= overall[key] <= 1, key
        assert set(method["secondary"]) and set(method["predicates"]) is not None
    assert len(report["per_item"]) == 3 and {"id", "missed", "extra"} <= set(report["per_item"][0])


@pytest.mark.slow
def test_scenarios_bench_reports() -> None:
    report = _run("scenarios_bench.py", "--limit", "3")
    assert report["stories"] == 3
    assert set(report["paths"]) == {"agent", "text", "keep-everything baseline"}
    for path in report["paths"].values():
        assert path["stories"]["all"]["stories"] == 3 and 0 <= path["stories"]["all"]["rate"] <= 1
        assert len(path["results"]) == 3
        for result in path["results"]:
            assert isinstance(result["passed"], bool) and result["checks"]
            assert all({"kind", "expected", "ok"} <= set(c) for c in result["checks"])
            assert (result["first_failure"] is None) == result["passed"]


def _predicate_classifier(test: str) -> subprocess.CompletedProcess[str]:
    """Run bench/predicate_classifier.py trained on dev2, classifying ``test``."""
    command = [
        sys.executable,
        str(BENCH / "predicate_classifier.py"),
        "--train",
        "extraction_dev2",
        "--test",
        test,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.slow
def test_predicate_classifier_reports_itself_beside_the_patterns() -> None:
    done = _predicate_classifier("extraction_dev3")
    assert done.returncode == 0, done.stderr[-2000:]
    rows = dict(
        re.findall(
            r"^\| (classifier[^|]*|BASELINE builtin extractor|union of both) \| (.*) \|$", done.stdout, re.M
        )
    )
    assert len(rows) == 3, done.stdout
    scores = {name: [float(x) for x in cells.split(" | ")] for name, cells in rows.items()}
    assert all(0 < value <= 1 for pair in scores.values() for value in pair), scores
    # the union finds at least what either finds
    assert scores["union of both"][1] >= max(pair[1] for pair in scores.values())


def test_predicate_classifier_refuses_to_classify_what_it_was_trained_on() -> None:
    done = _predicate_classifier("extraction_dev2")
    assert done.returncode == 2 and "--test must not be one of the --train files" in done.stderr
