"""Who is acting on the memory, and what they may do: principals, roles and groups, checked in Memory.

A :class:`Principal` is the caller an interface authenticated: an API key (its name, role and
groups) or the local operator. The HTTP edge and the console set it for the request they serve
(:func:`acting_as`, a context variable, so it follows the request into worker threads and MCP
tool calls); Memory checks it in two places only:

- ``Memory.group`` resolves every group a method touches: a group outside the principal's
  is Forbidden naming the field ``group_id`` (:func:`visible_group`), whether or not it exists;
- methods that change memory carry :func:`requires` with the role they need (Forbidden
  otherwise), which also records the key's name as the operation's actor.

With no principal set (the CLI, programs using Memory directly) nothing is restricted: the
caller is the machine's own administrator.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from engram.errors import Forbidden, shown
from engram.models.keys import ROLES, Role

P = ParamSpec("P")
T = TypeVar("T")
_RANK = {role: rank for rank, role in enumerate(ROLES)}


@dataclass(frozen=True, slots=True)
class Principal:
    """A caller: ``groups`` None means every group; ``key_id`` None means the local operator."""

    name: str
    role: Role
    groups: frozenset[str] | None = None
    key_id: str | None = None

    def can(self, role: Role) -> bool:
        """Return whether this principal holds ``role`` or a stronger one."""
        return _RANK[self.role] >= _RANK[role]

    def sees(self, group_id: str) -> bool:
        """Return whether ``group_id`` is one of this principal's groups."""
        return self.groups is None or group_id in self.groups

    def default_group(self, fallback: str) -> str:
        """Return the group a request naming none works in: the key's only group, else ``fallback``."""
        if self.groups is not None and len(self.groups) == 1:
            return next(iter(self.groups))
        return fallback


LOCAL_ADMIN = Principal("local", "admin")
"""The machine's own operator: every group, every action (a loopback server with no API keys)."""
NOBODY = Principal("nobody", "read", frozenset())
"""A caller who is not signed in: sees no group (the console before sign-in)."""

_ACTING: ContextVar[Principal | None] = ContextVar("engram_principal", default=None)


def acting() -> Principal | None:
    """Return the principal of the request being served, or None outside one (no restriction)."""
    return _ACTING.get()


@contextmanager
def acting_as(principal: Principal | None) -> Iterator[None]:
    """Make ``principal`` the caller for the block (and the threads and tasks it starts)."""
    token = _ACTING.set(principal)
    try:
        yield
    finally:
        _ACTING.reset(token)


def visible_group(group_id: str) -> str:
    """Return ``group_id`` when the current principal sees it; else raise Forbidden (field group_id).

    The answer is the same whether or not the group holds anything, so a key learns nothing
    about groups outside its own.
    """
    who = _ACTING.get()
    if who is not None and not who.sees(group_id):
        raise Forbidden(
            f"API key {shown(who.name)} may not use group {shown(group_id)} (not one of its groups)",
            field="group_id",
        )
    return group_id


def require_role(role: Role, action: str, *, every_group: bool = False) -> Principal | None:
    """Return the current principal after checking it holds ``role`` (and, with ``every_group``,
    sees every group). Raises Forbidden naming both roles."""
    who = _ACTING.get()
    if who is None:
        return None
    if not who.can(role):
        raise Forbidden(
            f"{action} needs the {role} role; API key {shown(who.name)} has the {who.role} role",
            role=who.role,
            required_role=role,
            field="Authorization",
        )
    if every_group and who.groups is not None:
        raise Forbidden(
            f"{action} needs a key for every group; API key {shown(who.name)} sees "
            f"{len(who.groups)} group(s)",
            role=who.role,
            required_role=role,
            field="Authorization",
        )
    return who


def requires(role: Role, *, every_group: bool = False) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """Guard a method that changes memory: the current principal must hold ``role``.

    When the caller is an API key, its name becomes the ``actor`` argument (the operation's
    actor), whatever the interface passed. Raises Forbidden.
    """

    def decorate(fn: Callable[P, T]) -> Callable[P, T]:
        takes_actor = "actor" in inspect.signature(fn).parameters
        action = fn.__name__.replace("_", " ")

        @functools.wraps(fn)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> T:
            who = require_role(role, action, every_group=every_group)
            if takes_actor and who is not None and who.key_id is not None:
                named: dict[str, Any] = kwargs
                named["actor"] = who.name
            return fn(*args, **kwargs)

        return guarded

    return decorate
