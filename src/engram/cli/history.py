"""History commands: ``operations`` (the audit log), ``revert``, ``delete`` and ``purge``."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from engram.cli.common import (
    CLI_ACTOR,
    DataDir,
    GroupOption,
    JsonOption,
    app,
    note,
    out,
    show_rows,
    stamp,
    using_memory,
)
from engram.models.history import OperationView


def _print_view(view: OperationView, as_json: bool) -> None:
    if as_json:
        out.print_json(view.model_dump_json())
        return
    operation = view.operation
    note(f"{operation.kind} {operation.id}: {operation.summary}")
    note(f"created {len(view.created)} version(s), closed {len(view.closed)}")


@app.command()
def operations(
    data_dir: DataDir = None,
    group: GroupOption = None,
    kind: Annotated[list[str] | None, typer.Option("--kind", help="Only these kinds (repeatable).")] = None,
    entity: Annotated[str | None, typer.Option("--entity", help="Only operations on this entity.")] = None,
    episode: Annotated[str | None, typer.Option("--episode", help="Only operations on this episode.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=500, help="Most operations.")] = 20,
    cursor: Annotated[
        str | None, typer.Option("--cursor", help="The next page (printed after a page).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """List the audit log, newest first: every ingest, update, merge, delete and revert."""
    with using_memory(data_dir, must_exist=True) as memory:
        page = memory.list_operations(
            group, kind=kind or (), entity_id=entity, episode_id=episode, limit=limit, cursor=cursor
        )
    if as_json:
        out.print_json(page.model_dump_json())
        return
    rows = ((stamp(op.created_at), op.id, op.kind, op.actor or "", op.summary) for op in page.items)
    show_rows(rows, ("created_at", "id", "kind", "actor", "summary"))
    if page.next_cursor is not None:
        note(f"more: --cursor {page.next_cursor}")


@app.command()
def revert(
    operation_id: Annotated[str, typer.Argument(help="The operation to undo (op_…).")],
    data_dir: DataDir = None,
    group: GroupOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Revert even though later operations changed the same objects.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Undo an operation as a new one; exit 4 naming the later operations in the way (see --force)."""
    with using_memory(data_dir, must_exist=True) as memory:
        view = memory.revert_operation(operation_id, group, force=force, actor=CLI_ACTOR)
    _print_view(view, as_json)


@app.command()
def delete(
    episode_id: Annotated[str, typer.Argument(help="The episode to retract.")],
    data_dir: DataDir = None,
    group: GroupOption = None,
    as_json: JsonOption = False,
) -> None:
    """Retract an episode and what only it supports; `engram revert` of the printed operation undoes it."""
    with using_memory(data_dir, must_exist=True) as memory:
        view = memory.delete_episode(episode_id, group, actor=CLI_ACTOR)
    _print_view(view, as_json)


@app.command()
def purge(
    episode_id: Annotated[str, typer.Argument(help="The episode to erase.")],
    data_dir: DataDir = None,
    group: GroupOption = None,
    yes: Annotated[bool, typer.Option("--yes", help="Confirm: the erasure cannot be undone.")] = False,
) -> None:
    """Erase an episode for good (right to erasure), leaving an audit record without its content.

    Removes every version, its index and vector rows, facts backed only by it and entities only
    it mentioned. Irreversible, so it asks for --yes; an administrator's command (no REST or MCP).
    """
    if not yes:
        note("purge is irreversible: pass --yes to erase the episode")
        raise typer.Exit(2)
    with using_memory(data_dir, must_exist=True) as memory:
        operation, _ = memory.purge_episode(episode_id, group, actor=CLI_ACTOR)
    note(f"purged {episode_id}: {json.dumps(operation.details)} (operation {operation.id})")
