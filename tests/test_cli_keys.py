"""``engram keys create|list|revoke`` end to end, and keys made by the CLI in a running server."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from click.testing import Result
from typer.testing import CliRunner

from engram.cli import app
from mcp_clients import engram_serve

runner = CliRunner(env={"COLUMNS": "200", "ENGRAM_DATA_DIR": None})


def run(*args: str | Path) -> Result:
    return runner.invoke(app, [str(arg) for arg in args])


def ok(*args: str | Path) -> Result:
    result = run(*args)
    assert result.exit_code == 0, f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    return result


def failed(result: Result, code: int) -> str:
    assert result.exit_code == code, (
        f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    )
    assert "Traceback" not in result.output
    return result.stderr


def test_create_list_revoke(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made = ok(
        "keys",
        "create",
        "--role",
        "write",
        "--group",
        "team-a",
        "-g",
        "team-b",
        "--name",
        "bot",
        "--data-dir",
        data,
    )
    secret = made.stdout.strip()
    assert secret.startswith("ek_") and "shown only once" in made.stderr
    admin = json.loads(
        ok(
            "keys",
            "create",
            "--role",
            "admin",
            "--all-groups",
            "--expires-in",
            "30d",
            "--json",
            "--data-dir",
            data,
        ).stdout
    )
    assert admin["key"]["group_ids"] is None and admin["key"]["expires_at"] is not None
    listed = json.loads(ok("keys", "list", "--json", "--data-dir", data).stdout)
    assert [(k["name"], k["role"], k["group_ids"]) for k in listed] == [
        ("bot", "write", ["team-a", "team-b"]),
        (admin["key"]["name"], "admin", None),
    ]
    assert secret not in json.dumps(listed) and admin["secret"] not in json.dumps(listed)
    assert listed[0]["prefix"] == secret[:12]
    table = ok("keys", "list", "--data-dir", data).stdout
    assert "bot" in table and "team-a, team-b" in table and "every group" in table
    assert "revoked bot" in ok("keys", "revoke", "bot", "--data-dir", data).stderr
    assert "was revoked at" in ok("keys", "revoke", "bot", "--data-dir", data).stderr
    assert json.loads(ok("keys", "list", "--json", "--data-dir", data).stdout)[0]["revoked_at"] is not None


def test_bad_input_names_the_option(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert "group_ids" in failed(run("keys", "create", "--role", "read", "--data-dir", data), 2)
    assert "role" in failed(run("keys", "create", "--role", "owner", "-g", "a", "--data-dir", data), 2)
    both = run("keys", "create", "--role", "admin", "-g", "a", "--all-groups", "--data-dir", data)
    assert "--all-groups" in failed(both, 2)
    assert "--expires-in" in failed(
        run("keys", "create", "--role", "read", "-g", "a", "--expires-in", "soon", "--data-dir", data), 2
    )
    ok("keys", "create", "--role", "read", "-g", "a", "--name", "dup", "--data-dir", data)
    assert "name" in failed(
        run("keys", "create", "--role", "read", "-g", "a", "--name", "dup", "--data-dir", data), 4
    )
    assert "key" in failed(run("keys", "revoke", "nope", "--data-dir", data), 3)


def test_serve_off_loopback_refuses_to_start_without_keys(tmp_path: Path) -> None:
    result = run("serve", "--host", "0.0.0.0", "--port", "8798", "--data-dir", tmp_path / "data")
    message = failed(result, 2)
    assert "--host" in message and "engram keys create" in message


def test_a_running_server_takes_keys_made_and_revoked_by_another_process(tmp_path: Path) -> None:
    data = tmp_path / "data"
    ok("keys", "create", "--role", "admin", "--all-groups", "--name", "first", "--data-dir", data)
    with engram_serve(data, tmp_path / "serve.log") as base:
        assert httpx.get(f"{base}/v1/episodes").status_code == 401, "keys exist: no open loopback mode"
        secret = ok(
            "keys", "create", "--role", "write", "-g", "default", "--name", "late", "--data-dir", data
        ).stdout.strip()
        headers = {"Authorization": f"Bearer {secret}"}
        created = httpx.post(f"{base}/v1/episodes", json={"content": "hello"}, headers=headers)
        assert created.status_code == 201
        ok("keys", "revoke", "late", "--data-dir", data)
        refused = httpx.get(f"{base}/v1/episodes", headers=headers)
        assert refused.status_code == 401 and refused.headers["www-authenticate"].startswith("Bearer")
    [late] = [
        k for k in json.loads(ok("keys", "list", "--json", "--data-dir", data).stdout) if k["name"] == "late"
    ]
    assert late["last_used_at"] is not None
