"""Does a classifier trained on the labelled sets recognise a clause's predicates on unseen text?

docs/decisions.md §32 measured giving a clause the predicates of its nearest labelled clause (e5
vectors, 158 labelled clauses) and found it too imprecise. Since then the labelled sets have grown
to ~2,700 clauses. Measured here: one logistic regression per predicate (scikit-learn, balanced
classes, C = 10) over character 1–4-gram TF-IDF of the clause (no embedder: ~0.1 ms a clause, cheap
enough for the write path), trained on the clauses of ``--train`` and applied to those of
``--test``; an item's predicates are those some clause scores at least ``--threshold`` for.

Clauses and their labels come from bench/predicate_similarity.py (a clause holds a fact's
predicate when it holds the fact's object or value). Scores are per item, the set of labelled
predicates against the set found, micro-averaged, as there. BASELINE in the same run, on the same
items: the builtin extractor's predicates (``BuiltinExtractor.extract_text``), and the union of both
(what the classifier would add to the patterns). A predicate alone is not a fact: its subject and
object still need spans.

Usage: .venv/bin/python bench/predicate_classifier.py [--train FILE,FILE…] [--test FILE]
       [--threshold 0.5]
"""

from __future__ import annotations

import argparse
from typing import Any

from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import MultiLabelBinarizer

import _kg
from _common import read_jsonl
from engram.ingest.builtin import BuiltinExtractor
from predicate_similarity import labelled_clauses, predicate_class

TRAIN = "extraction_set,extraction_dev2,extraction_dev3,extraction_dev4,extraction_dev5"
MIN_EXAMPLES = 3


def items(names: str) -> list[dict[str, Any]]:
    """Return the items of the comma-separated data files ``names`` (bench/data/<name>.jsonl)."""
    return [item for name in names.split(",") for item in read_jsonl(_kg.DATA / f"{name}.jsonl")]


class ClauseClassifier:
    """One logistic regression per predicate over character n-grams of a clause."""

    def __init__(self, train: list[dict[str, Any]]) -> None:
        texts, labels = [], []
        for item in train:
            for clause, predicates in labelled_clauses(item):
                texts.append(clause)
                labels.append(predicates)
        binarizer = MultiLabelBinarizer()
        targets = binarizer.fit_transform(labels)
        self.vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 4), min_df=2, sublinear_tf=True)
        features = self.vectorizer.fit_transform(texts)
        self.models = {
            predicate: LogisticRegression(C=10, max_iter=2000, class_weight="balanced").fit(
                features, targets[:, j]
            )
            for j, predicate in enumerate(binarizer.classes_)
            if targets[:, j].sum() >= MIN_EXAMPLES
        }
        self.clauses, self.with_fact = len(texts), sum(1 for found in labels if found)

    def predicates(self, item: dict[str, Any], threshold: float) -> set[str]:
        """Return the predicates some clause of ``item`` scores at least ``threshold`` for."""
        clauses = [clause for clause, _ in labelled_clauses(item)]
        if not clauses:
            return set()
        features = self.vectorizer.transform(clauses)
        return {
            p for p, model in self.models.items() if (model.predict_proba(features)[:, 1] >= threshold).any()
        }


def score(found: list[set[str]], gold: list[set[str]]) -> tuple[float, float]:
    """Return micro-averaged (precision, recall) of ``found`` against ``gold``, item by item."""
    hits = sum(len(f & g) for f, g in zip(found, gold, strict=True))
    built, labelled = sum(map(len, found)), sum(map(len, gold))
    return (hits / built if built else 0.0, hits / labelled if labelled else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", default=TRAIN, help="comma-separated files of bench/data (no .jsonl)")
    parser.add_argument("--test", default="extraction_dev6", help="the file classified")
    parser.add_argument("--threshold", type=float, default=0.5)
    args = parser.parse_args()
    if args.test in args.train.split(","):
        parser.error("--test must not be one of the --train files")
    classifier = ClauseClassifier(items(args.train))
    test = items(args.test)
    extractor = BuiltinExtractor()
    gold = [{predicate_class(f["predicate"]) for f in item["expected"]["facts"]} for item in test]
    learned = [classifier.predicates(item, args.threshold) for item in test]
    patterns = [
        {
            predicate_class(f.predicate)
            for f in extractor.extract_text(item["text"], actor=item["actor"]["name"]).facts
        }
        for item in test
    ]
    union = [a | b for a, b in zip(learned, patterns, strict=True)]
    print(
        f"trained on {classifier.clauses:,} clauses ({classifier.with_fact:,} stating a fact), "
        f"{len(classifier.models)} predicates; classified {args.test}: {len(test)} items, "
        f"threshold {args.threshold:g}"
    )
    print("| predicates per item | precision | recall |")
    print("|---|---:|---:|")
    for name, found in (
        ("classifier (character n-grams)", learned),
        ("BASELINE builtin extractor", patterns),
        ("union of both", union),
    ):
        precision, recall = score(found, gold)
        print(f"| {name} | {precision:.3f} | {recall:.3f} |")


if __name__ == "__main__":
    main()
