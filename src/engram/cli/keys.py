"""API key commands: ``keys create``, ``keys list``, ``keys revoke`` (the administrator's, on the store)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from engram.cli.common import DataDir, JsonOption, fail, note, out, stamp, using_memory
from engram.cli.maintenance import parse_duration
from engram.errors import InvalidInput
from engram.models.keys import ApiKey

keys_app = typer.Typer(
    help="API keys: who may call this store's server over HTTP (REST, MCP, the console).",
    no_args_is_help=True,
)


def _groups(key: ApiKey) -> str:
    return "every group" if key.group_ids is None else ", ".join(key.group_ids)


@keys_app.command("create")
def create(
    role: Annotated[str, typer.Option("--role", help="read, write or admin.")],
    group: Annotated[
        list[str] | None, typer.Option("--group", "-g", help="A group the key sees (repeatable).")
    ] = None,
    all_groups: Annotated[
        bool, typer.Option("--all-groups", help="An admin key for every group (instead of --group).")
    ] = False,
    name: Annotated[
        str | None,
        typer.Option(
            "--name", help="Unique name, recorded as the actor of the key's operations [default: key-…]."
        ),
    ] = None,
    expires_in: Annotated[
        str | None,
        typer.Option(
            "--expires-in", help="Refuse the key after this long, e.g. 90d, 12h, 2w [default: never]."
        ),
    ] = None,
    data_dir: DataDir = None,
    as_json: JsonOption = False,
) -> None:
    """Create an API key and print it once: the store keeps only its digest.

    Every key names its groups (``--group``, repeatable); an admin key may see every group
    instead (``--all-groups``). Servers on this store accept it at once.
    """
    if all_groups and group:
        raise fail(InvalidInput("pass --group or --all-groups, not both", field="--all-groups"))
    groups = None if all_groups else (group or [])
    try:
        lifetime = None if expires_in is None else parse_duration(expires_in, "--expires-in")
    except InvalidInput as exc:
        raise fail(exc) from None
    expires_at = None if lifetime is None else datetime.now(UTC) + lifetime
    with using_memory(data_dir) as memory:
        created = memory.keys.create(role, groups, name, expires_at=expires_at)
    if as_json:
        out.print_json(created.model_dump_json())
        return
    key = created.key
    until = f", expires {stamp(key.expires_at)}" if key.expires_at else ""
    note(f"API key {key.name} ({key.id}): role {key.role}, {_groups(key)}{until}.")
    note("Store it now: it is shown only once. Send it as `Authorization: Bearer <key>`.")
    typer.echo(created.secret)


@keys_app.command("list")
def list_keys(data_dir: DataDir = None, as_json: JsonOption = False) -> None:
    """List every API key (revoked ones too): name, role, groups, prefix, when created, used and revoked."""
    with using_memory(data_dir, must_exist=True) as memory:
        found = memory.keys.list_keys()
    if as_json:
        typer.echo(json.dumps([key.model_dump(mode="json") for key in found], ensure_ascii=False))
        return
    table = Table()
    for header in ("name", "id", "role", "groups", "prefix", "created", "expires", "last used", "revoked"):
        table.add_column(header, no_wrap=header != "groups", overflow="fold")
    for key in found:
        table.add_row(
            *(Text(cell) for cell in (key.name, key.id, key.role, _groups(key), key.prefix + "…")),
            Text(stamp(key.created_at)),
            Text(stamp(key.expires_at) if key.expires_at else "never"),
            Text(stamp(key.last_used_at) if key.last_used_at else "never"),
            Text(stamp(key.revoked_at) if key.revoked_at else ""),
        )
    out.print(table)
    if not found:
        note("no API keys: servers on this store serve loopback only (`engram keys create` makes one)")


@keys_app.command("revoke")
def revoke(
    key: Annotated[str, typer.Argument(help="The key's name or id.")],
    data_dir: DataDir = None,
) -> None:
    """Revoke an API key: every server on this store refuses it from its next request on."""
    with using_memory(data_dir, must_exist=True) as memory:
        revoked, now = memory.keys.revoke(key)
    assert revoked.revoked_at is not None
    when = stamp(revoked.revoked_at)
    note(
        f"revoked {revoked.name} ({revoked.id}) at {when}" if now else f"{revoked.name} was revoked at {when}"
    )
