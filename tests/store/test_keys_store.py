"""API keys in the store, on SQLite and PostgreSQL: the same SQL, the same answers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram import Memory, Settings
from engram.errors import InvalidInput
from engram.keys import digest
from engram.models.keys import ApiKey
from engram.storage.protocol import Storage

T0 = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)


def key(name: str, **fields: Any) -> ApiKey:
    values: dict[str, Any] = {
        "id": f"key_{name}",
        "name": name,
        "role": "write",
        "group_ids": ["a", "b"],
        "prefix": "ek_abcdefghi",
        "created_at": T0,
    }
    return ApiKey(**(values | fields))


def test_keys_round_trip_by_digest_and_id(store: Storage) -> None:
    assert not store.has_api_keys() and store.api_keys() == []
    stored = key("bot", expires_at=T0 + timedelta(days=30))
    assert store.insert_api_key(stored, digest("ek_secret"))
    assert store.api_key_by_digest(digest("ek_secret")) == stored
    assert store.api_key("key_bot") == stored
    assert store.api_key_by_digest(digest("ek_other")) is None and store.api_key("key_none") is None
    admin = key("root", role="admin", group_ids=None, created_at=T0 + timedelta(seconds=1))
    assert store.insert_api_key(admin, digest("ek_root"))
    assert store.api_keys() == [stored, admin] and store.has_api_keys()


def test_a_name_or_digest_is_never_stored_twice(store: Storage) -> None:
    assert store.insert_api_key(key("bot"), digest("ek_one"))
    assert not store.insert_api_key(key("bot", id="key_two"), digest("ek_two"))
    assert not store.insert_api_key(key("other", id="key_three"), digest("ek_one"))
    assert [k.id for k in store.api_keys()] == ["key_bot"]


def test_revoke_once_and_touch_at_most_once_a_window(store: Storage) -> None:
    store.insert_api_key(key("bot"), digest("ek_one"))
    assert store.revoke_api_key("key_bot", T0 + timedelta(hours=1))
    assert not store.revoke_api_key("key_bot", T0 + timedelta(hours=2)), "revoked already"
    assert not store.revoke_api_key("key_none", T0)
    revoked = store.api_key("key_bot")
    assert revoked is not None and revoked.revoked_at == T0 + timedelta(hours=1)
    assert not store.has_api_keys(), "a revoked key is not in force"
    store.touch_api_key("key_bot", T0 + timedelta(minutes=5), T0 + timedelta(minutes=4))
    store.touch_api_key(
        "key_bot", T0 + timedelta(minutes=5, seconds=30), T0 + timedelta(minutes=4, seconds=30)
    )
    touched = store.api_key("key_bot")
    assert touched is not None and touched.last_used_at == T0 + timedelta(minutes=5), "second touch skipped"


def test_keyring_on_each_backend(backend: dict[str, Any]) -> None:
    with Memory.open(settings=Settings(**backend, embedder="none")) as memory:
        created = memory.keys.create("read", ["team-a", "team-a", "team-b"], "rita")
        assert created.key.group_ids == ["team-a", "team-b"]
        who = memory.keys.verify(created.secret)
        assert who is not None and who.name == "rita" and who.role == "read"
        assert who.groups == frozenset({"team-a", "team-b"}) and who.key_id == created.key.id
        assert memory.keys.verify(created.secret + "x") is None
        [listed] = memory.keys.list_keys()
        assert listed.last_used_at is not None and listed.prefix == created.secret[:12]
        memory.keys.revoke("rita")
        assert memory.keys.verify(created.secret) is None and memory.keys.principal(created.key.id) is None


@pytest.mark.parametrize(
    ("role", "groups", "name", "field"),
    [
        ("writer", ["a"], None, "role"),
        ("write", None, None, "group_ids"),
        ("read", [], None, "group_ids"),
        ("read", ["a b"], None, "group_ids"),
        ("read", ["a"], "-dash", "name"),
        ("read", ["a"], "MCP", "name"),
    ],
)
def test_keyring_refuses_bad_keys_naming_the_field(
    memory: Memory, role: str, groups: list[str] | None, name: str | None, field: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.keys.create(role, groups, name)
    assert refused.value.field == field and memory.keys.list_keys() == []
