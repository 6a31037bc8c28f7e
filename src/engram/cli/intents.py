"""``engram intents``: the intent taxonomy, training the classifier, classifying a text."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from engram.cli.common import DataDir, JsonOption, fail, load_settings, show_rows, using_memory
from engram.errors import EngramError, InvalidInput
from engram.models.intents import load_taxonomy

intents_app = typer.Typer(
    help="The intent taxonomy and its offline classifier.", no_args_is_help=True, add_completion=False
)


@intents_app.command("list")
def list_intents(data_dir: DataDir = None, as_json: JsonOption = False) -> None:
    """List the intents of the taxonomy (``ENGRAM_INTENTS_FILE``, else the packaged one)."""
    settings = load_settings(data_dir)
    try:
        taxonomy = load_taxonomy(settings.intents_file)
    except EngramError as exc:
        raise fail(exc) from exc
    if as_json:
        typer.echo(json.dumps(taxonomy.model_dump(mode="json"), ensure_ascii=False, indent=2))
        return
    rows = (
        (
            intent.name,
            intent.labels.get("en", ""),
            intent.labels.get("zh", ""),
            str(len(intent.examples)),
            intent.description,
        )
        for intent in taxonomy.intents
    )
    show_rows(rows, ("intent", "en", "zh", "examples", "description"))


@intents_app.command("train")
def train(
    data_dir: DataDir = None,
    episodes: Annotated[
        bool,
        typer.Option("--episodes/--no-episodes", help="Also learn from episodes whose intent was given."),
    ] = True,
) -> None:
    """Train the classifier on the taxonomy examples and labelled episodes; save it in the data directory."""
    with using_memory(data_dir) as memory:
        examples, labelled = memory.train_intents(with_episodes=episodes)
        where = memory.settings.intents_model_path
    typer.echo(f"trained on {examples} examples and {labelled} labelled episodes; model saved to {where}")


@intents_app.command("classify")
def classify(
    text: Annotated[str, typer.Argument(help="The message to classify.")],
    data_dir: DataDir = None,
    as_json: JsonOption = False,
) -> None:
    """Print the intent of TEXT and the classifier's confidence (``unclassified`` below the threshold)."""
    if not text.strip():
        raise fail(InvalidInput("TEXT is empty: give the message to classify", field="TEXT"))
    with using_memory(data_dir) as memory:
        prediction = memory.intent_classifier().classify([text])[0]
    if as_json:
        typer.echo(
            json.dumps(
                {"intent": prediction.intent, "confidence": prediction.confidence, "best": prediction.best},
                ensure_ascii=False,
            )
        )
        return
    typer.echo(
        f"{prediction.intent}\t{prediction.confidence:.2f}"
        + (f"\t(best guess {prediction.best})" if prediction.intent != prediction.best else "")
    )
