"""``engram references``: the episodes citing a document, asked for by reference id or by name."""

from __future__ import annotations

from typing import Annotated

import typer

from engram.cli.common import (
    DataDir,
    GroupOption,
    JsonOption,
    actor_label,
    app,
    note,
    out,
    show_rows,
    snippet,
    stamp,
    using_memory,
)
from engram.cli.episodes import KnownAtOption


@app.command()
def references(
    ref: Annotated[
        str,
        typer.Argument(
            help="A reference id (doc-quote-2024-q3-v2; without the version: every version), "
            "or a name: a file name or title."
        ),
    ],
    group: GroupOption = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=500, help="Most episodes to show.")] = 20,
    cursor: Annotated[str | None, typer.Option(help="Continue from a previous page's next cursor.")] = None,
    known_at: KnownAtOption = None,
    as_json: JsonOption = False,
    data_dir: DataDir = None,
) -> None:
    """List a document's versions (the latest marked) and the episodes citing it, newest first."""
    with using_memory(data_dir, must_exist=True) as memory:
        page = memory.reference_episodes(ref, group, limit=limit, cursor=cursor, known_at=known_at)
    if as_json:
        typer.echo(page.model_dump_json(indent=2))
        return
    if page.resolved_by != "id":
        note(f"{ref!r} resolved by {page.resolved_by} to {page.resolved}")
    for version in page.versions:
        names = f" · names: {', '.join(version.names)}" if version.names else ""
        latest = " · latest" if version.latest else ""
        out.print(
            f"{version.reference} · {version.episodes} episode(s) · first {stamp(version.first_seen)}"
            f"{latest}{names}",
            markup=False,
            highlight=False,
        )
    if page.note:
        note(f"note: {page.note}")
    rows = [
        (
            stamp(item.episode.timestamp),
            item.episode.id,
            ", ".join(item.cites) or f"part of {item.part_of}",
            snippet(f"{actor_label(item.episode)}: {item.episode.content}"),
        )
        for item in page.items
    ]
    show_rows(rows, ("timestamp", "episode", "cites", "content"))
    if page.next_cursor:
        note(f"more: --cursor {page.next_cursor}")
