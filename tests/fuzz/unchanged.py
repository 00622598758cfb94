"""What a line of a fuzzed transcript must leave as it was, checked on the tournaments'
exports (``/export``'s, every tournament of the sandbox's database).

- ``! replay`` (the last update delivered again) changes nothing: an update is applied once;
- ``! restart`` changes nothing: the state is rebuilt from the database as it was;
- whatever a user does (a command, a word, a die, a button pressed or forged) changes only
  tournaments they play in (entered before or after it) or organise (they administer its
  group), and in a group only that group's; an organiser's command changes none but those
  they organise (only organisers run organiser commands).

A group made a supergroup unseen (``! migrate g unseen``), which the bot learns at its next
send, is compared by its new id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.menu import ORGANISERS
from bot.sandbox.runner import Sandbox
from tests.bot.test_restart_determinism import exports

CHANGED = "changed"
"""The kind of a finding: a line changed what it must not."""
UNCHANGING = ("! replay", "! restart")
"""Directives after which every tournament must export as before."""
_IN_CHAT = re.compile(r"^([a-z0-9_]+)@([a-z0-9_]+)(?:/\d+)?: (?:/([a-z]+))?")
"""A line of a user in a chat (a group, a topic of it, ``dm``): who, where, which command."""


async def carried_out(sandbox: Sandbox, line: str) -> str:
    """Carry out ``line``; the first difference it made in a tournament's export that it
    must not have made (:func:`_may_change`), else ""."""
    directive = line in UNCHANGING
    writer = None if directive else _writer(sandbox, line)
    if not directive and writer is None:  # another directive: it may change anything
        await sandbox.line(line)
        return ""
    before = await _exports(sandbox)
    sandbox.jobs_due_in_waits = False  # what falls due while the line waits is the clock's
    try:                               # doing, not the writer's: run after the comparison
        await sandbox.line(line)
    finally:
        sandbox.jobs_due_in_waits = True
    after = await _exports(sandbox)
    await sandbox.run_jobs_due()
    for number in sorted(before.keys() | after.keys()):
        old, new = before.get(number), after.get(number)
        if old != new and (writer is None or not _may_change(sandbox, writer, old, new)):
            return _first_difference(old and old[1], new and new[1])
    return ""


@dataclass(frozen=True)
class _Writer:
    """Who wrote a line, where, and whether it is an organiser's command."""

    user_id: int
    group_id: int | None  # None: the private chat
    organisers: bool


def _writer(sandbox: Sandbox, line: str) -> _Writer | None:
    """The writer of a user's line in a group or the private chat (else None)."""
    typed, world = _IN_CHAT.match(line), sandbox.world
    if typed is None or typed[1] not in world.users \
            or typed[2] != "dm" and typed[2] not in world.groups:
        return None
    group = None if typed[2] == "dm" else world.groups[typed[2]].id
    return _Writer(world.users[typed[1]].id, group, typed[3] in ORGANISERS)


Exported = tuple[int, dict]
"""A tournament's group and its export."""


def _may_change(sandbox: Sandbox, writer: _Writer, old: Exported | None,
                new: Exported | None) -> bool:
    """Whether ``writer``'s line may change a tournament (``old`` before the line, ``new``
    after it; None: not there): one in the group the line was written in (from the private
    chat: in any group) whose group the writer administers, or which they play in (entered
    before or after the line) when the line is no organiser's command."""
    chat_id = (old or new)[0]
    if writer.group_id is not None and chat_id != writer.group_id:
        return False
    group = sandbox.world.group_by_id(chat_id)
    if group is not None and (writer.user_id == group.creator
                              or writer.user_id in group.admins):
        return True
    return not writer.organisers and any(
        writer.user_id in {entrant["user_id"] for entrant in exported[1]["entrants"]}
        for exported in (old, new) if exported is not None)


async def _exports(sandbox: Sandbox) -> dict[int, Exported]:
    """Every tournament's group and export, by its number; a group made a supergroup unseen,
    which the bot learns at its next send, by its new id."""
    moved, repos = sandbox.world.migrated, sandbox.app.services.repos
    found = {}
    for export in await exports(sandbox):
        number = export["tournament"]["id"]
        chat_id = (await repos.tournaments.get(number)).chat_id
        found[number] = (moved.get(chat_id, chat_id), _moved_on(export, moved))
    return found


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
    """A change found at the last of ``lines``: a user's line by what it is (a command by
    its name) and where (a group, or in private); a directive by the command or word of the
    line before it (whose update was delivered again, or the restart's)."""
    if typed := _IN_CHAT.match(lines[-1]):
        where = " in private" if typed[2] == "dm" else ""
        return f"{CHANGED}: {_kind_of(lines[-1], typed[3])}{where} out of its writer's reach"
    earlier = next((line for line in reversed(lines[:-1]) if not line.startswith("!")), "")
    word = earlier.split(": ", 1)[-1].split(" ")[0]
    return f"{CHANGED}: {lines[-1]} after {word}"


def _kind_of(line: str, command: str | None) -> str:
    """What a user's line is: the command, a press, a forged press, or a message."""
    said = line.split(": ", 1)[1]
    if command:
        return f"/{command}"
    return "a press" if said.startswith("[") else \
        "a forged press" if said.startswith("callback") else "a message"
