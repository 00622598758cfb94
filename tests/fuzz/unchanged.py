"""What a line of a fuzzed transcript must leave as it was, checked on the tournaments'
exports (``/export``'s, every tournament of the sandbox's database).

- ``! replay`` (the last update delivered again) changes nothing: an update is applied once;
- ``! restart`` changes nothing: the state is rebuilt from the database as it was;
- a command typed in a group changes that group's tournaments only, and an organiser's
  command none when its writer is neither the group's creator nor an administrator there
  (only organisers run organiser commands).

A group made a supergroup unseen (``! migrate g unseen``), which the bot learns at its next
send, is compared by its new id.
"""

from __future__ import annotations

import re
from typing import Any

from bot.menu import ORGANISERS
from bot.sandbox.runner import Sandbox
from tests.bot.test_restart_determinism import exports

CHANGED = "changed"
"""The kind of a finding: a line changed what it must not."""
UNCHANGING = ("! replay", "! restart")
"""Directives after which every tournament must export as before."""
_GROUP_COMMAND = re.compile(r"^([a-z0-9_]+)@([a-z0-9_]+)(?:/\d+)?: /([a-z]+)")
"""A command typed in a group (or a topic of it): who, where, which."""


async def carried_out(sandbox: Sandbox, line: str) -> str:
    """Carry out ``line``; for one that must change nothing (:func:`_scope`), the first
    difference it made in the tournaments' exports, else ""."""
    checked, free = _scope(sandbox, line)
    if not checked:
        await sandbox.line(line)
        return ""
    before = await _exports(sandbox, but=free)
    await sandbox.line(line)
    after = await _exports(sandbox, but=free)
    return "" if after == before else _first_difference(before, after)


def _scope(sandbox: Sandbox, line: str) -> tuple[bool, int | None]:
    """Whether ``line`` is checked, and the group whose tournaments it may change (None:
    none). A directive of :data:`UNCHANGING` changes none; a command typed in a group
    changes that group's only, and an organiser's command none when its writer is neither
    the group's creator nor an administrator there."""
    if line in UNCHANGING:
        return True, None
    typed, world = _GROUP_COMMAND.match(line), sandbox.world
    if typed is None or typed[2] not in world.groups or typed[1] not in world.users:
        return False, None
    group, user = world.groups[typed[2]], world.users[typed[1]]
    organiser = user.id == group.creator or user.id in group.admins
    return True, group.id if organiser or typed[3] not in ORGANISERS else None


async def _exports(sandbox: Sandbox, but: int | None) -> list[dict]:
    """Every tournament's export but those of the group ``but``; a group made a supergroup
    unseen, which the bot learns at its next send, by its new id."""
    moved, repos = sandbox.world.migrated, sandbox.app.services.repos
    kept = []
    for export in await exports(sandbox):
        chat_id = (await repos.tournaments.get(export["tournament"]["id"])).chat_id
        if but is None or moved.get(chat_id, chat_id) != but:
            kept.append(_moved_on(export, moved))
    return kept


def _moved_on(value: Any, moved: dict[int, int]) -> Any:
    """``value`` with each group id Telegram moved (``! migrate``) as its new id."""
    if isinstance(value, dict):
        return {key: _moved_on(item, moved) for key, item in value.items()}
    if isinstance(value, list):
        return [_moved_on(item, moved) for item in value]
    return moved.get(value, value) if type(value) is int else value


def _first_difference(before: object, after: object, path: str = "") -> str:
    """Where two exports first differ, as a path of keys and indexes and the two values."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(before.keys() | after.keys(), key=str):
            if before.get(key) != after.get(key):
                return _first_difference(before.get(key), after.get(key), f"{path}.{key}")
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (one, other) in enumerate(zip(before, after, strict=True)):
            if one != other:
                return _first_difference(one, other, f"{path}[{index}]")
    return f"{path or 'export'}: {before!r:.300} -> {after!r:.300}"


def change_signature(lines: list[str]) -> str:
    """A change found at the last of ``lines``: a command by its name (an organiser's typed
    by a player, or any changing another group's tournaments); a directive by the command
    or word of the line before it (whose update was delivered again, or the restart's)."""
    if typed := _GROUP_COMMAND.match(lines[-1]):
        return f"{CHANGED}: /{typed[3]} by a player or in another group"
    earlier = next((line for line in reversed(lines[:-1]) if not line.startswith("!")), "")
    word = earlier.split(": ", 1)[-1].split(" ")[0]
    return f"{CHANGED}: {lines[-1]} after {word}"
