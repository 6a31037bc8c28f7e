"""The predicate registry: one source of truth for arbitration and the builtin extractor."""

from __future__ import annotations

from collections import defaultdict

from engram.ingest.patterns import PATTERNS
from engram.models.predicates import DEFAULT_PREDICATES, REGISTRY, PredicateRegistry, synonym_key


def test_registry_is_a_mapping_of_canonical_names() -> None:
    assert len(REGISTRY) == len(DEFAULT_PREDICATES) >= 30
    assert REGISTRY["USES"].name == "USES" and "USES" in REGISTRY and "uses" not in REGISTRY
    assert len(PredicateRegistry()) == len(REGISTRY)


def test_every_synonym_names_one_predicate() -> None:
    owners: dict[str, set[str]] = defaultdict(set)
    for predicate in DEFAULT_PREDICATES:
        for word in (predicate.name, *predicate.synonyms):
            owners[synonym_key(word)].add(predicate.name)
    assert {key: names for key, names in owners.items() if len(names) > 1} == {}


def test_stop_and_negation_mappings_close_what_they_negate() -> None:
    for predicate in REGISTRY.values():
        for mapped in (predicate.stop, predicate.negation):
            if mapped is not None:
                assert REGISTRY[mapped].ends == predicate.name, (predicate.name, mapped)
    assert REGISTRY["STOPPED_USING"].ends == "USES"
    assert REGISTRY["MOVED_FROM"].ends == "LIVES_IN"
    assert REGISTRY["LEFT_ORGANISATION"].ends == "WORKS_AT"


def test_cardinalities() -> None:
    one_high = "LIVES_IN WORKS_AT HAS_ROLE BUDGET PRICE DEADLINE MARRIED_TO BIRTHDAY REPORTS_TO"
    for name in one_high.split():
        assert (REGISTRY[name].cardinality, REGISTRY[name].sensitivity) == ("one", "high"), name
    for name in ("USES", "STOPPED_USING", "LIKES", "EMAIL", "PHONE", "VISITED"):
        assert REGISTRY[name].cardinality == "many", name
    assert REGISTRY.canonical("在用").name == "USES"
    assert REGISTRY.canonical("换成").name == "USES"
    assert REGISTRY.canonical("quit").name == "STOPPED_USING"


def test_every_pattern_uses_a_registered_predicate() -> None:
    assert {p.ends for p in REGISTRY.values() if p.ends} <= set(REGISTRY)
    assert all("obj" in p.regex.groupindex for p in PATTERNS)
    assert {p.predicate for p in PATTERNS} <= set(REGISTRY)
    assert {p.past for p in PATTERNS if p.past} <= set(REGISTRY)
    amounts = {name for name, p in REGISTRY.items() if p.object_kind == "amount"}
    assert amounts == {"BUDGET", "PRICE", "QUANTITY", "PAID"}
