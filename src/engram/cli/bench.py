"""Commands that measure or rebuild: ``bench locomo``, ``reembed``, ``reextract``."""

from __future__ import annotations

import json
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from engram.cli.common import CLI_ACTOR, DataDir, err, fail, load_settings, note, out
from engram.errors import EngramError, InvalidInput
from engram.evaluation.locomo import CATEGORY_NAMES, PIPELINES, evaluate, index, load_questions
from engram.memory import Memory
from engram.portable.locomo import load_locomo

bench_app = typer.Typer(help="Measure retrieval quality and speed.", no_args_is_help=True)

_COLUMNS = (
    "recall@1",
    "recall@5",
    "recall@10",
    "recall@20",
    "ndcg@10",
    "session_recall@5",
    "p50_ms",
    "p95_ms",
)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
    )


@bench_app.command("locomo")
def locomo(
    path: Annotated[Path, typer.Argument(help="A LoCoMo-format JSON file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    pipelines: Annotated[
        str, typer.Option(help="Comma-separated pipelines to run: bm25, vector, full.")
    ] = "bm25,vector,full",
) -> None:
    """Import FILE into a fresh temporary store and measure turn-level retrieval per pipeline.

    Asks every category 1-4 question that has evidence (1 multi-hop, 2 temporal,
    3 open-domain, 4 single-hop) within its conversation and reports recall@1/5/10/20,
    NDCG@10, session recall@5 and query latency, overall and per category, for BM25 only,
    vectors only and the full pipeline, from the same run. The embedder is the configured
    one (``ENGRAM_EMBEDDER``); with ``none`` the vector pipeline is skipped.
    """
    names = [name.strip() for name in pipelines.split(",") if name.strip()]
    unknown = sorted(set(names) - set(PIPELINES))
    if unknown or not names:
        raise fail(
            InvalidInput(f"unknown pipeline(s) {unknown}; choose from {list(PIPELINES)}", field="--pipelines")
        )
    if not path.is_file():
        raise fail(InvalidInput(f"no such file: {path}", field="PATH"))
    try:
        samples = load_locomo(path)
        questions = load_questions(samples)
        with tempfile.TemporaryDirectory(prefix="engram-bench-") as directory:
            settings = load_settings(Path(directory))
            with Memory.open(settings=settings, background_indexing=False) as memory:
                report = _run(memory, samples, questions.items, names)
    except EngramError as exc:
        raise fail(exc) from exc
    except (KeyError, TypeError) as exc:
        raise fail(InvalidInput(f"{path} is not in LoCoMo format: {exc!r}", field="PATH")) from exc
    report["questions"] = len(questions.items)
    report["dropped_evidence"] = questions.dropped_evidence
    report["dropped_questions"] = questions.dropped_questions
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    _print_report(report)


def _run(memory: Memory, samples: list[Any], questions: list[Any], names: list[str]) -> dict[str, Any]:
    """Index ``samples``, embed them, and evaluate each pipeline; return the report object."""
    import_seconds = index(memory, samples)
    started = time.perf_counter()
    pending = memory.pending_embeddings()
    if pending:
        with _progress() as progress:
            task = progress.add_task("embedding", total=pending)
            memory.index_pending(on_batch=lambda n: progress.advance(task, n))
    embed_seconds = time.perf_counter() - started
    results: dict[str, Any] = {}
    for name in names:
        if name == "vector" and memory.embedder is None:
            note("skipping the vector pipeline: no embedder (ENGRAM_EMBEDDER=none)")
            continue
        with _progress() as progress:
            task = progress.add_task(f"asking ({name})", total=len(questions))
            results[name] = evaluate(
                memory, questions, PIPELINES[name], progress=partial(progress.advance, task)
            )
    return {
        "pipelines": results,
        "index_seconds": round(import_seconds + embed_seconds, 2),
        "import_seconds": round(import_seconds, 2),
        "embed_seconds": round(embed_seconds, 2),
        "embedder": None if memory.embedder is None else memory.embedder.name,
    }


def _print_report(report: dict[str, Any]) -> None:
    overall = Table(title=f"LoCoMo retrieval, {report['questions']} questions (turn level)")
    overall.add_column("pipeline")
    for column in _COLUMNS:
        overall.add_column(column.replace("recall", "R").replace("session_R", "sess R"), justify="right")
    for name, metrics in report["pipelines"].items():
        overall.add_row(
            name,
            *(
                f"{metrics['overall'][c]:.3f}" if "ms" not in c else f"{metrics['overall'][c]:.1f}"
                for c in _COLUMNS
            ),
        )
    out.print(overall)
    by_category = Table(title="recall@10 by category")
    by_category.add_column("pipeline")
    for category, label in CATEGORY_NAMES.items():
        by_category.add_column(f"{category} {label}", justify="right")
    for name, metrics in report["pipelines"].items():
        by_category.add_row(
            name, *(f"{metrics['by_category'].get(c, {}).get('recall@10', 0.0):.3f}" for c in CATEGORY_NAMES)
        )
    out.print(by_category)
    note(
        f"evidence ids dropped while cleaning: {report['dropped_evidence']} "
        f"(questions left without evidence: {report['dropped_questions']}); "
        f"indexing {report['index_seconds']} s (import {report['import_seconds']} s, "
        f"embedding {report['embed_seconds']} s with {report['embedder'] or 'no embedder'})"
    )


def reembed(data_dir: DataDir = None) -> None:
    """Drop every stored vector and embed all episodes again with the configured embedder.

    Run it after changing ``ENGRAM_EMBEDDER`` (or its model); until then the store refuses
    to open with an embedder other than the one that made its vectors.
    """
    settings = load_settings(data_dir)
    if settings.database_url is None and not settings.database_path.is_file():
        raise fail(InvalidInput(f"no Engram database at {settings.database_path}", field="--data-dir"))
    try:
        with Memory.open(settings=settings, background_indexing=False, reembed=True) as memory:
            if memory.embedder is None:
                raise InvalidInput("ENGRAM_EMBEDDER is none: nothing to embed with", field="ENGRAM_EMBEDDER")
            pending = memory.pending_embeddings()
            started = time.perf_counter()
            with _progress() as progress:
                task = progress.add_task(f"embedding with {memory.embedder.name}", total=pending)
                done = memory.index_pending(on_batch=lambda n: progress.advance(task, n))
    except EngramError as exc:
        raise fail(exc) from exc
    typer.echo(f"re-embedded {done} episodes in {time.perf_counter() - started:.1f} s")


def reextract(
    group: Annotated[
        list[str] | None, typer.Option("--group", "-g", help="Group (repeatable) [default: all].")
    ] = None,
    data_dir: DataDir = None,
) -> None:
    """Extract again the episodes whose extraction failed (``extraction_status: failed``).

    Run it when the LLM endpoint is back; episodes that fail again stay marked.
    """
    try:
        with Memory.open(settings=load_settings(data_dir), background_indexing=False) as memory:
            groups = group or memory.groups()
            done = failing = 0
            for name in groups:
                succeeded, still = memory.reextract(name, actor=CLI_ACTOR)
                done, failing = done + succeeded, failing + still
    except EngramError as exc:
        raise fail(exc) from exc
    typer.echo(f"re-extracted {done} episodes; {failing} still failing")
